"""Rounds and pairings: a round is paired as a draft, may be edited, then published."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from clubsite.status import move
from events.core import pairing
from events.core import standings as pure_standings
from events.models import Division, DivisionPlayer, Game, GameKind, GameStatus, Round, RoundStatus

from .common import PairingRefused, PlayError, check_open, lock_division, require_director
from .reads import division_games, standings_options


def _playing_in(seats: Iterable[DivisionPlayer], round_number: int) -> list[DivisionPlayer]:
    return [
        s
        for s in seats
        if s.joined_in_round <= round_number
        and (s.withdrawn_after_round is None or s.withdrawn_after_round >= round_number)
    ]


@transaction.atomic
def pair_round(
    actor,
    division: Division,
    system: str,
    *,
    based_on_round: int | None = None,
    avoid_repeats: bool = True,
    max_repeats: int = 0,
    seed: int | None = None,
    gibson: bool = False,
    accept_repeats: bool = False,
) -> Round:
    """Pairs the next round as a draft. A director may then edit pairs and publish it."""
    division = lock_division(division.pk)
    require_director(actor, division.event)
    check_open(division)
    if system not in pairing.SYSTEMS:
        raise PlayError(f"Unknown pairing system {system!r}.", field="system")
    last = division.rounds.order_by("-number").first()
    if last and last.status == RoundStatus.DRAFT:
        raise PlayError(f"Round {last.number} is still a draft: publish or delete it first.")
    number = (last.number if last else 0) + 1
    total = division.event.number_of_games or None
    if total and number > total:
        raise PlayError(f"All {total} rounds of this event are already paired.")
    if based_on_round is not None and not 0 <= based_on_round < number:
        raise PlayError("Pair from the standings after an earlier round.", field="based_on_round")

    seats = list(DivisionPlayer.objects.filter(division=division))
    playing = _playing_in(seats, number)
    if len(playing) < 2:
        raise PlayError("At least two players are needed to pair a round.")
    people = [pure_standings.Entrant(id=s.player_id, rating=s.rating, seed=s.number) for s in playing]
    history = division_games(division, confirmed_only=True)
    options = pairing.PairingOptions(
        round=number,
        total_rounds=total,
        based_on_round=based_on_round,
        avoid_repeats=avoid_repeats,
        max_repeats=max_repeats,
        seed=seed,
        gibson=gibson,
        standings=standings_options(division.event),
    )
    try:
        result = pairing.pair_round(system, people, history, options)
    except pairing.PairingError as error:
        if not (accept_repeats and error.best):
            raise PairingRefused(str(error), error.best) from None
        result = error.best
    except ValueError as error:
        raise PlayError(str(error)) from None

    rnd = Round.objects.create(
        division=division,
        number=number,
        pairing_system=system,
        pairing_seed=result.seed,
        based_on_round=based_on_round,
    )
    games = [
        Game(division=division, round=rnd, round_number=number, board=i, player_a_id=a, player_b_id=b, first="a")
        for i, (a, b) in enumerate(result.pairs, start=1)
    ]
    if result.bye is not None:
        games.append(_unplayed(division, rnd, result.bye, GameKind.BYE, division.event.bye_spread))
    for seat in seats:
        if seat not in playing:
            games.append(missed_round(division, rnd, seat))
    Game.objects.bulk_create(games)
    return rnd


def _unplayed(division: Division, rnd: Round, player_id: int, kind: str, spread: int) -> Game:
    return Game(
        division=division,
        round=rnd,
        round_number=rnd.number,
        player_a_id=player_id,
        kind=kind,
        spread_a=spread,
        status=GameStatus.CONFIRMED,
    )


def missed_round(division: Division, rnd: Round, seat: DivisionPlayer) -> Game:
    """A late entrant's earlier rounds, or a withdrawn player's later ones, scored as the division sets."""
    event = division.event
    kind = division.missed_rounds_as
    spread = {GameKind.BYE: event.bye_spread, GameKind.FORFEIT: -event.forfeit_spread}.get(kind, 0)
    return _unplayed(division, rnd, seat.player_id, kind, spread)


def _draft_round(actor, rnd: Round) -> Round:
    rnd = Round.objects.select_for_update().select_related("division__event").get(pk=rnd.pk)
    require_director(actor, rnd.division.event)
    check_open(rnd.division)
    if rnd.status != RoundStatus.DRAFT:
        raise PlayError(f"Round {rnd.number} is published: its pairings can no longer be edited.")
    return rnd


@transaction.atomic
def swap_players(actor, rnd: Round, player_x: int, player_y: int) -> Round:
    """Exchange two players' places in a draft round (a director's manual edit)."""
    rnd = _draft_round(actor, rnd)
    games = list(rnd.games.filter(Q(player_a_id__in=[player_x, player_y]) | Q(player_b_id__in=[player_x, player_y])))
    if player_x == player_y or len({p for g in games for p in (g.player_a_id, g.player_b_id) if p}) < 2:
        raise PlayError("Choose two different players of this round.")
    swap = {player_x: player_y, player_y: player_x}
    for game in games:
        game.player_a_id = swap.get(game.player_a_id, game.player_a_id)
        if game.player_b_id:
            game.player_b_id = swap.get(game.player_b_id, game.player_b_id)
        if game.player_a_id == game.player_b_id:
            raise PlayError("Those two players are paired together; swap one of them with someone else.")
    # Free the unique (round, player) slots before writing the swapped pairs back.
    Game.objects.filter(pk__in=[g.pk for g in games]).delete()
    for game in games:
        game.pk = None
    Game.objects.bulk_create(games)
    return rnd


@transaction.atomic
def publish_round(actor, rnd: Round) -> Round:
    rnd = _draft_round(actor, rnd)
    earlier = rnd.division.rounds.filter(number__lt=rnd.number, status=RoundStatus.DRAFT)
    if earlier.exists():
        raise PlayError("Publish the earlier rounds first.")
    move(rnd, RoundStatus.PUBLISHED)
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    complete_if_done(rnd)
    return rnd


@transaction.atomic
def delete_draft_round(actor, rnd: Round) -> None:
    rnd = _draft_round(actor, rnd)
    rnd.delete()


def complete_if_done(rnd: Round) -> None:
    if rnd.status == RoundStatus.PUBLISHED and not rnd.games.exclude(status=GameStatus.CONFIRMED).exists():
        move(rnd, RoundStatus.COMPLETE)
        rnd.save(update_fields=["status"])
