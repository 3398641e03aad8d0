"""Rounds and pairings: a round is paired as a draft, may be edited, then published."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from clubsite.kit.status import move
from clubsite.kit.wins import format_wins
from events.play.core import pairing
from events.play.core import standings as pure_standings
from events.play.models import CheckIn, Division, DivisionPlayer, Game, GameKind, GameStatus, Round, RoundStatus
from events.signals import play_started

from .common import PairingRefused, PlayError, check_open, lock_division, require_director
from .prizes import prize_bands, prize_places
from .reads import division_games, standings_options, unplayed_label

# What pairing does with players who have not checked in, once the event uses check-in: refuse to pair (the
# director checks them in, or chooses again), or leave them out of the round (scored as a missed round).
ABSENT_REFUSE, ABSENT_EXCLUDE = "refuse", "exclude"
ABSENT_CHOICES = {
    ABSENT_REFUSE: "Do not pair: I will check them in first",
    ABSENT_EXCLUDE: "Leave them out of this round (scored as a missed round)",
}


def _playing_in(seats: Iterable[DivisionPlayer], round_number: int) -> list[DivisionPlayer]:
    return [
        s
        for s in seats
        if s.joined_in_round <= round_number
        and (s.withdrawn_after_round is None or s.withdrawn_after_round >= round_number)
    ]


def not_checked_in_seats(division: Division, seats: Iterable[DivisionPlayer]) -> list[DivisionPlayer]:
    """Seats whose entrant has not checked in, once the event uses check-in (anyone of it has checked in);
    [] before that. A seat without an entry (a late entrant placed by hand, an imported player) has nothing
    to check in with and counts as present. Two queries."""
    if not CheckIn.objects.filter(entry__event_id=division.event_id).exists():
        return []
    seats = [s for s in seats if s.entry_id is not None]
    present = set(CheckIn.objects.filter(entry_id__in=[s.entry_id for s in seats]).values_list("entry_id", flat=True))
    return [s for s in seats if s.entry_id not in present]


def absent_for_next_round(division: Division) -> list[DivisionPlayer]:
    """The players the next round would pair who have not checked in (once the event uses check-in), with
    their players, for the pair-round page to warn about."""
    last = division.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    seats = DivisionPlayer.objects.filter(division=division).select_related("player").order_by("number")
    return not_checked_in_seats(division, _playing_in(seats, last + 1))


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
    initial_snaked: bool = False,
    accept_repeats: bool = False,
    not_checked_in: str = ABSENT_REFUSE,
) -> Round:
    """Pairs the next round as a draft. A director may then edit pairs and publish it.

    Once the event uses check-in, a player who has not checked in is not paired unseen: `not_checked_in`
    says whether that refuses the pairing (naming them) or leaves them out of this round, scored as a missed
    round. Gibsonization judges prize contention by the places the division's prize table pays.

    Initial Fontes draws its groups at random (tsh's default) or snakes them through the rating bands
    (`initial_snaked`, tsh's setting); a later round of the block takes the block's first round's way of
    forming groups and, without a seed of its own, its seed, so every round of it is paired from the same
    groups whatever the form says."""
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

    if not_checked_in not in ABSENT_CHOICES:
        raise PlayError("Say whether to refuse or leave out players who have not checked in.", field="not_checked_in")
    seats = list(DivisionPlayer.objects.filter(division=division).select_related("player"))
    playing = _playing_in(seats, number)
    absent = not_checked_in_seats(division, playing)
    if absent and not_checked_in == ABSENT_REFUSE:
        names = ", ".join(seat_label(s) for s in absent)
        raise PlayError(
            f"{len(absent)} player{'s have' if len(absent) != 1 else ' has'} not checked in: {names}. "
            "Check them in, or pair the round without them.",
            field="not_checked_in",
        )
    playing = [s for s in playing if s not in absent]
    if len(playing) < 2:
        raise PlayError("At least two players are needed to pair a round.")
    people = [pure_standings.Entrant(id=s.player_id, rating=s.rating, seed=s.number) for s in playing]
    history = division_games(division, confirmed_only=True)
    if system == "initial_fontes" and number > 1:
        first = division.rounds.filter(number=1, pairing_system="initial_fontes").first()
        if first is not None:
            initial_snaked = first.initial_snaked
            seed = first.pairing_seed if seed is None else seed
    try:
        options = pairing.PairingOptions(
            round=number,
            total_rounds=total,
            based_on_round=based_on_round,
            avoid_repeats=avoid_repeats,
            max_repeats=max_repeats,
            seed=seed,
            gibson=gibson,
            initial_snaked=initial_snaked,
            prize_places=prize_places(division),
            # Chew pairings contend for the places of the prize table (tsh's default without one).
            prize_bands=prize_bands(division) if system == "chew" else None,
            standings=standings_options(division.event),
        )
    except ValueError as error:  # the pure rule's bounds (the seed's, the repeat limit's)
        message = str(error)
        raise PlayError(message[:1].upper() + message[1:] + ".", field="seed" if "seed" in message else None) from None
    try:
        result = pairing.pair_round(system, people, history, options)
    except pairing.PairingError as error:
        if not (accept_repeats and error.best):
            message = _repeats_refusal(error.best, history, options, seats) if error.best else str(error)
            raise PairingRefused(message, error.best) from None
        result = error.best
    except ValueError as error:
        raise PlayError(str(error)) from None

    if number == 1:
        play_started.send(sender=Division, division=division, actor=actor)  # the event is under way
    rnd = Round.objects.create(
        division=division,
        number=number,
        pairing_system=system,
        pairing_seed=result.seed,
        based_on_round=based_on_round,
        max_repeats=max_repeats if avoid_repeats else None,
        gibson=gibson,
        initial_snaked=initial_snaked and system == "initial_fontes",
        pairing_notes=_gibson_note(result, people, history, options, seats)
        if result.gibsonized is not None
        else " ".join(result.warnings)  # an initial Fontes round paired from other groups than its block's
        if system == "initial_fontes"
        else _chew_gibson_note(result, seats),
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


def seat_label(seat: DivisionPlayer) -> str:
    """A player as the division knows them: seat number and name ("#3 Chua Xavier")."""
    return f"#{seat.number} {seat.player.name}"


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _repeats_refusal(
    best: pairing.PairingResult, history, options: pairing.PairingOptions, seats: list[DivisionPlayer]
) -> str:
    """Why no pairing was found, naming the players of the least-repeat pairing's repeated games.

    (The pure core names players by their ids; the division names them by seat number and name.)
    """
    label = {s.player_id: seat_label(s) for s in seats}
    past = pairing.History(history, options.round)
    over = [(a, b, past.met(a, b)) for a, b in best.pairs if past.met(a, b) > options.max_repeats]
    limit = (
        "avoids every repeat"
        if options.max_repeats == 0
        else f"keeps every pair to at most {_times(options.max_repeats)} met before"
    )
    listing = "; ".join(f"{label.get(a, a)} v {label.get(b, b)} (met {_times(m)})" for a, b, m in over)
    return (
        f"Round {options.round}: no pairing {limit}. "
        f"The pairing with the fewest repeats has {len(over)} pair{'s' if len(over) != 1 else ''} over the limit: "
        f"{listing}. Allow more repeats, or accept this pairing."
    )


def _chew_gibson_note(result: pairing.PairingResult, seats: list[DivisionPlayer]) -> str:
    """Whom Chew pairings Gibsonized (nobody can pass them any more) and whom they play, in the division's names."""
    if not result.chew_gibsons:
        return ""
    label = {s.player_id: seat_label(s) for s in seats}
    opponent = {a: b for x, y in result.pairs for a, b in ((x, y), (y, x))}
    who = "; ".join(f"{label.get(g)} plays {label.get(opponent.get(g))}" for g in result.chew_gibsons)
    return f"Chew pairings (tsh cp) Gibsonized players nobody can pass any more: {who}."


def _gibson_note(
    result: pairing.PairingResult,
    people: list[pure_standings.Entrant],
    history,
    options: pairing.PairingOptions,
    seats: list[DivisionPlayer],
) -> str:
    """Who was Gibsonized, why, and whom they play, in the division's names."""
    label = {s.player_id: seat_label(s) for s in seats}
    leader = result.gibsonized
    opponent = next((b if a == leader else a for a, b in result.pairs if leader in (a, b)), None)
    playing = {p.id for p in people}
    past = pairing.History(history, options.round)
    gone = [pure_standings.Entrant(pid, withdrawn=True) for pid in sorted(past.player_ids() - playing)]
    everyone = [*people, *gone]
    ranked = pure_standings.compute_standings(everyone, past.games, options.standings, options.standings_round)
    table = [s for s in ranked if s.player in playing]
    rounds_left = (options.total_rounds or options.round) - options.standings_round
    first, second = table[0], table[1]
    lead = first.wins - second.wins
    wins = f"{format_wins(lead)} win{'s' if lead != 1 else ''}"
    why = f"{wins} ahead of {label.get(second.player)} with {rounds_left} round{'s' if rounds_left != 1 else ''} left"
    if lead == rounds_left:
        why += f" and {first.spread - second.spread} spread ahead (more than {options.gibson_spread} a round left)"
    out = pure_standings.out_of_contention(table, rounds_left, options.prize_places, options.gibson_spread)
    note = f"{label.get(leader)} is Gibsonized: {why}, so nobody can catch them for first place."
    if opponent is None:
        return f"{note} They take the bye: an odd field's bye goes to the Gibsonized player."
    if opponent in out:
        return f"{note} They play {label.get(opponent)}, who is out of prize contention."
    if any(p != result.bye for p in out):
        return (
            f"{note} Every player out of prize contention has met them more often, so they play the "
            f"lowest-placed of those who met them least, {label.get(opponent)}."
        )
    return (
        f"{note} Everyone else is still in prize contention, so they play the lowest-placed player available, "
        f"{label.get(opponent)}."
    )


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


def _missed_spread(division: Division) -> int:
    event = division.event
    return {GameKind.BYE: event.bye_spread, GameKind.FORFEIT: -event.forfeit_spread}.get(division.missed_rounds_as, 0)


def missed_round(division: Division, rnd: Round, seat: DivisionPlayer) -> Game:
    """A late entrant's earlier rounds, or a withdrawn player's later ones, scored as the division sets."""
    return _unplayed(division, rnd, seat.player_id, division.missed_rounds_as, _missed_spread(division))


def missed_rounds_rule(division: Division) -> str:
    """What each missed round counts for, in the words of the round page and the wall ("forfeit loss (-50)"),
    for the messages of a withdrawal or a late entry to say before it happens."""
    what = unplayed_label(division.missed_rounds_as, _missed_spread(division), None, 0)
    return what[:1].lower() + what[1:]


def _draft_round(actor, rnd: Round) -> Round:
    rnd = Round.objects.select_for_update().select_related("division__event").get(pk=rnd.pk)
    require_director(actor, rnd.division.event)
    check_open(rnd.division)
    if rnd.status != RoundStatus.DRAFT:
        raise PlayError(f"Round {rnd.number} is published: its pairings can no longer be edited.")
    return rnd


@transaction.atomic
def swap_players(actor, rnd: Round, player_x: int, player_y: int) -> Round:
    """Exchange two players' places in a draft round (a director's manual edit).

    A swap that pairs two players who have met before is made, and said: the returned round's `warnings`
    name each rematch the swap made (a pairing refuses them unless accepted; a swap is the director's own
    choice, so it warns)."""
    rnd = _draft_round(actor, rnd)
    games = list(rnd.games.filter(Q(player_a_id__in=[player_x, player_y]) | Q(player_b_id__in=[player_x, player_y])))
    if player_x == player_y or len({p for g in games for p in (g.player_a_id, g.player_b_id) if p}) < 2:
        raise PlayError("Choose two different players of this round.")
    seats = list(
        DivisionPlayer.objects.filter(division_id=rnd.division_id, player_id__in=[player_x, player_y]).select_related(
            "player"
        )
    )
    playing = _playing_in(seats, rnd.number)
    out = [s for s in seats if s not in playing] + not_checked_in_seats(rnd.division, playing)
    if out:
        seat = out[0]
        why = "has not checked in" if seat in playing else "is not in this round (withdrawn, or joining later)"
        raise PlayError(f"{seat_label(seat)} {why}: only players of the round can be swapped.")
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
    rnd.warnings = _rematches(rnd, [(g.player_a_id, g.player_b_id) for g in games if g.player_b_id])
    return rnd


def _rematches(rnd: Round, pairs: list[tuple[int, int]]) -> list[str]:
    """A warning for each of these pairs of the round whose players have met before (in a published round)."""
    past = pairing.History(division_games(rnd.division, confirmed_only=True), rnd.number)
    repeated = [(a, b, past.met(a, b)) for a, b in pairs if past.met(a, b)]
    if not repeated:
        return []
    label = {
        s.player_id: seat_label(s)
        for s in DivisionPlayer.objects.filter(
            division_id=rnd.division_id, player_id__in={p for a, b, _ in repeated for p in (a, b)}
        ).select_related("player")
    }
    return [
        f"{label.get(a, a)} v {label.get(b, b)} is a rematch: they have met {_times(m)} before." for a, b, m in repeated
    ]


@transaction.atomic
def publish_round(actor, rnd: Round) -> Round:
    rnd = _draft_round(actor, rnd)
    earlier = rnd.division.rounds.filter(number__lt=rnd.number, status=RoundStatus.DRAFT)
    if earlier.exists():
        raise PlayError("Publish the earlier rounds first.")
    move(rnd, RoundStatus.PUBLISHED)
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    assignments_shown(rnd.division_id)
    complete_if_done(rnd)
    return rnd


def assignments_shown(division_id: int) -> None:
    """A published round shows every seat of its division, so its division assignments are public from then on
    (the divisions page says so), whether or not the director published them before."""
    Division.objects.filter(pk=division_id, assignments_published=False).update(assignments_published=True)


@transaction.atomic
def delete_draft_round(actor, rnd: Round) -> None:
    rnd = _draft_round(actor, rnd)
    rnd.delete()


def complete_if_done(rnd: Round) -> None:
    if rnd.status == RoundStatus.PUBLISHED and not rnd.games.exclude(status=GameStatus.CONFIRMED).exists():
        move(rnd, RoundStatus.COMPLETE)
        rnd.save(update_fields=["status"])
