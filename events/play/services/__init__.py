"""Running a tournament: pairing rounds, recording results, standings, finalising divisions.

The rules themselves are pure (events.core: pairing, results, standings, prizes); these
services load the division once into plain objects, call them, and save the outcome under a lock.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from clubsite.errors import PermissionDenied, ServiceError
from events.core import pairing, results
from events.core import standings as pure_standings
from events.models import Division, DivisionPlayer, Event, Game, GameChange, GameKind, GameStatus, Round, RoundStatus
from events.permissions import can_direct_event


class PlayError(ServiceError):
    """A refusal about rounds, pairings or results."""


class PairingRefused(PlayError):
    """No pairing within the repeat limit; `best` is the least-repeat pairing, which may be accepted."""

    def __init__(self, message: str, best: pairing.PairingResult | None):
        super().__init__(message)
        self.best = best


PAIRING_SYSTEMS = {
    "random": "Random",
    "koth": "King of the Hill",
    "swiss": "Swiss",
    "round_robin": "Round robin",
    "double_round_robin": "Double round robin",
    "initial_fontes": "Initial Fontes",
}


def require_director(actor, event: Event) -> None:
    if not can_direct_event(actor, event):
        raise PermissionDenied("Only the event's directors, its organiser or association staff can do this.")


def _lock_division(division_id: int) -> Division:
    return Division.objects.select_for_update().select_related("event").get(pk=division_id)


def _check_open(division: Division) -> None:
    if division.finalised_at:
        raise PlayError(f"{division.name} is finalised: its results are locked.")


# --- plain objects for the pure cores ------------------------------------------------------------


def standings_options(event: Event) -> pure_standings.StandingsOptions:
    return pure_standings.StandingsOptions(
        spread_rules=results.SpreadRules(bye_spread=event.bye_spread, forfeit_spread=event.forfeit_spread),
        spread_cap=event.spread_cap,
        ties_stand=event.ties_stand,
    )


GAME_FIELDS = (
    "round_number",
    "kind",
    "status",
    "player_a_id",
    "player_b_id",
    "score_a",
    "score_b",
    "spread_a",
    "first",
)


def pure_game(row: dict, *, scored: bool = True) -> results.Game:
    """A stored game as the pure cores see it. `scored=False` keeps only the pairing (a pending game)."""
    a, b = row["player_a_id"], row["player_b_id"]
    first = a if row["first"] == "a" else b if row["first"] == "b" else None
    kind = results.GameKind(row["kind"])
    award = None
    if kind in (results.GameKind.BYE, results.GameKind.FORFEIT, results.GameKind.LATE_FORFEIT):
        award = abs(row["spread_a"]) if row["spread_a"] is not None else None
    if kind is results.GameKind.NORMAL and not scored:
        return results.Game(row["round_number"], a, b, first=first)
    return results.Game(
        row["round_number"],
        a,
        b,
        row["score_a"] if kind is results.GameKind.NORMAL else None,
        row["score_b"] if kind is results.GameKind.NORMAL else None,
        kind=kind,
        first=first,
        award=award,
    )


def division_games(division: Division, *, confirmed_only: bool) -> list[results.Game]:
    """One query: the division's games as pure objects (unconfirmed ones as pending pairings)."""
    rows = Game.objects.filter(division=division).order_by("round_number", "board", "pk").values(*GAME_FIELDS)
    return [pure_game(r, scored=r["status"] == GameStatus.CONFIRMED or not confirmed_only) for r in rows]


@dataclass(frozen=True)
class StandingRow:
    standing: pure_standings.Standing
    seat: DivisionPlayer

    def __getattr__(self, name):
        return getattr(self.standing, name)


def standings(division: Division, through_round: int | None = None) -> list[StandingRow]:
    """Standings from confirmed results (two queries whatever the size of the division)."""
    seats = {s.player_id: s for s in DivisionPlayer.objects.filter(division=division).select_related("player")}
    people = [
        pure_standings.Entrant(
            id=s.player_id, rating=s.rating, seed=s.number, withdrawn=s.withdrawn_after_round is not None
        )
        for s in seats.values()
    ]
    table = pure_standings.compute_standings(
        people, division_games(division, confirmed_only=True), standings_options(division.event), through_round
    )
    return [StandingRow(row, seats[row.player]) for row in table]


# --- rounds and pairings --------------------------------------------------------------------------


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
    division = _lock_division(division.pk)
    require_director(actor, division.event)
    _check_open(division)
    if system not in PAIRING_SYSTEMS:
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
            games.append(_missed_round(division, rnd, seat))
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


def _missed_round(division: Division, rnd: Round, seat: DivisionPlayer) -> Game:
    """A late entrant's earlier rounds, or a withdrawn player's later ones, scored as the division sets."""
    event = division.event
    kind = division.missed_rounds_as
    spread = {GameKind.BYE: event.bye_spread, GameKind.FORFEIT: -event.forfeit_spread}.get(kind, 0)
    return _unplayed(division, rnd, seat.player_id, kind, spread)


def _draft_round(actor, rnd: Round) -> Round:
    rnd = Round.objects.select_for_update().select_related("division__event").get(pk=rnd.pk)
    require_director(actor, rnd.division.event)
    _check_open(rnd.division)
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
    rnd.status = RoundStatus.PUBLISHED
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    _complete_if_done(rnd)
    return rnd


@transaction.atomic
def delete_draft_round(actor, rnd: Round) -> None:
    rnd = _draft_round(actor, rnd)
    rnd.delete()


def _complete_if_done(rnd: Round) -> None:
    if rnd.status == RoundStatus.PUBLISHED and not rnd.games.exclude(status=GameStatus.CONFIRMED).exists():
        rnd.status = RoundStatus.COMPLETE
        rnd.save(update_fields=["status"])


# --- results --------------------------------------------------------------------------------------


def _snapshot(game: Game) -> dict:
    return {
        "kind": game.kind,
        "status": game.status,
        "score_a": game.score_a,
        "score_b": game.score_b,
        "spread_a": game.spread_a,
        "first": game.first,
        "overtime_a": game.overtime_a,
        "overtime_b": game.overtime_b,
    }


def _lock_game(game: Game) -> Game:
    return (
        Game.objects.select_for_update(of=("self",))  # player_b may be empty: lock only the game row
        .select_related("round", "division__event", "player_a", "player_b")
        .get(pk=game.pk)
    )


def _is_director(actor, game: Game) -> bool:
    return can_direct_event(actor, game.division.event)


def _side(actor, game: Game) -> str | None:
    if not (actor and actor.is_authenticated):
        return None
    if game.player_a.user_id == actor.id:
        return "a"
    if game.player_b and game.player_b.user_id == actor.id:
        return "b"
    return None


def _later_round_published(game: Game) -> bool:
    return Round.objects.filter(
        division_id=game.division_id,
        number__gt=game.round_number,
        status__in=[RoundStatus.PUBLISHED, RoundStatus.COMPLETE],
    ).exists()


def _check_result_input(game: Game, score_a: int, score_b: int) -> None:
    if game.round.status == RoundStatus.DRAFT:
        raise PlayError(f"Round {game.round_number} is not published yet.")
    if game.kind != GameKind.NORMAL or not game.player_b_id:
        raise PlayError("This is a bye or forfeit: it has no scores to enter.")
    try:
        results.validate_scores(int(score_a), int(score_b))
    except (TypeError, ValueError) as error:
        raise PlayError(str(error), field="score_a") from None


def _apply_scores(game: Game, score_a: int, score_b: int, overtime_a: int, overtime_b: int, first: str) -> None:
    """Scores as played, less overtime penalties (10 points a minute or part of one), before the result."""
    if first not in ("", "a", "b"):
        raise PlayError("Say who went first: player A, player B, or leave it empty.", field="first")
    if overtime_a < 0 or overtime_b < 0:
        raise PlayError("Overtime cannot be negative.", field="overtime_a")
    game.score_a = int(score_a) - results.overtime_penalty(overtime_a)
    game.score_b = int(score_b) - results.overtime_penalty(overtime_b)
    game.overtime_a, game.overtime_b = overtime_a, overtime_b
    game.first = first or game.first


def _audit(game: Game, actor, action: str, before: dict, reason: str = "") -> None:
    GameChange.objects.create(
        game=game,
        changed_by=actor if actor and actor.is_authenticated else None,
        action=action,
        before=before,
        after=_snapshot(game),
        reason=reason,
    )


@transaction.atomic
def submit_result(
    actor, game: Game, score_a: int, score_b: int, *, overtime_a: int = 0, overtime_b: int = 0, first: str = ""
) -> Game:
    """A player reports their own game (overtime in seconds). A director's entry is confirmed at once."""
    game = _lock_game(game)
    director = _is_director(actor, game)
    if not director:
        _check_open(game.division)  # directors may still correct a finalised division (it is re-rated)
    side = _side(actor, game)
    if not director and side is None:
        raise PermissionDenied("You can only submit the result of your own game.")
    _check_result_input(game, score_a, score_b)
    if not director:
        if game.status == GameStatus.CONFIRMED:
            raise PlayError("This result is already confirmed; ask a director to correct it.")
        if game.status == GameStatus.DISPUTED:
            raise PlayError("This result is disputed; a director will settle it.")
        if game.status == GameStatus.SUBMITTED:
            raise PlayError("A result is already submitted for this game: confirm or dispute it instead.")
        if _later_round_published(game):
            raise PlayError("The next round is out: only a director can enter this result now.")
    before = _snapshot(game)
    _apply_scores(game, score_a, score_b, overtime_a, overtime_b, first)
    game.submitted_by, game.submitted_at = actor, timezone.now()
    if director:
        game.status = GameStatus.CONFIRMED
        game.confirmed_by, game.confirmed_at = actor, game.submitted_at
    else:
        game.status = GameStatus.SUBMITTED
    game.save()
    _audit(game, actor, "entered" if director else "submitted", before)
    _complete_if_done(game.round)
    if director and before["status"] == GameStatus.CONFIRMED:
        _rerate_if_rated(game.division)
    return game


@transaction.atomic
def confirm_result(actor, game: Game) -> Game:
    """The opponent of whoever submitted (or a director) confirms."""
    game = _lock_game(game)
    _check_open(game.division)
    director = _is_director(actor, game)
    if game.status != GameStatus.SUBMITTED and not (director and game.status == GameStatus.DISPUTED):
        raise PlayError("There is no submitted result to confirm for this game.")
    if not director:
        side = _side(actor, game)
        if side is None:
            raise PermissionDenied("Only the opponent or a director can confirm this result.")
        if game.submitted_by_id == actor.id:
            raise PlayError("Your opponent confirms the result you submitted.")
    before = _snapshot(game)
    game.status = GameStatus.CONFIRMED
    game.confirmed_by, game.confirmed_at = actor, timezone.now()
    game.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    _audit(game, actor, "confirmed", before)
    _complete_if_done(game.round)
    return game


@transaction.atomic
def dispute_result(actor, game: Game, reason: str = "") -> Game:
    game = _lock_game(game)
    _check_open(game.division)
    if game.status != GameStatus.SUBMITTED:
        raise PlayError("Only a submitted result can be disputed.")
    side = _side(actor, game)
    if side is None or game.submitted_by_id == actor.id:
        raise PermissionDenied("Only the opponent of whoever submitted can dispute this result.")
    before = _snapshot(game)
    game.status = GameStatus.DISPUTED
    game.save(update_fields=["status"])
    _audit(game, actor, "disputed", before, reason)
    return game


@transaction.atomic
def set_unplayed(actor, game: Game, kind: str, *, reason: str = "", forfeited_by: str = "a") -> Game:
    """A director records a forfeit, a late-arrival forfeit, or a void game.

    The player who forfeits is stored as player A; `forfeited_by="b"` swaps the two sides first.
    """
    game = _lock_game(game)
    require_director(actor, game.division.event)  # may correct a finalised division (it is re-rated)
    if forfeited_by not in ("a", "b"):
        raise PlayError("Say which player forfeits.", field="forfeited_by")
    if forfeited_by == "b" and kind != GameKind.VOID:
        if not game.player_b_id:
            raise PlayError("This game has no player B.", field="forfeited_by")
        game.player_a, game.player_b = game.player_b, game.player_a
        game.overtime_a, game.overtime_b = game.overtime_b, game.overtime_a
        game.first = {"a": "b", "b": "a"}.get(game.first, game.first)
    event = game.division.event
    spreads = {
        GameKind.FORFEIT: -event.forfeit_spread,
        GameKind.LATE_FORFEIT: -results.SpreadRules().late_forfeit_spread,
        GameKind.VOID: 0,
    }
    if kind not in spreads:
        raise PlayError("Choose forfeit, late-arrival forfeit or void.", field="kind")
    before = _snapshot(game)
    game.kind, game.spread_a, game.score_a, game.score_b = kind, spreads[kind], None, None
    game.status, game.confirmed_by, game.confirmed_at = GameStatus.CONFIRMED, actor, timezone.now()
    game.save()
    _audit(game, actor, kind, before, reason)
    _complete_if_done(game.round)
    if before["status"] == GameStatus.CONFIRMED:
        _rerate_if_rated(game.division)
    return game


ROUND_LINE = re.compile(r"^\s*(\d+)\s+(-?\d+)\s+(\d+)\s+(-?\d+)\s*$")


@transaction.atomic
def enter_round_results(actor, rnd: Round, text: str) -> list[Game]:
    """Fast entry as directors type it into tsh: `player-number score player-number score` per line.

    All lines are checked first; one bad line saves nothing and the error names its line.
    """
    rnd = Round.objects.select_related("division__event").get(pk=rnd.pk)
    require_director(actor, rnd.division.event)
    if rnd.status == RoundStatus.DRAFT:
        raise PlayError(f"Round {rnd.number} is not published yet.")
    number_to_player = dict(DivisionPlayer.objects.filter(division=rnd.division).values_list("number", "player_id"))
    games = {
        frozenset((g.player_a_id, g.player_b_id)): g
        for g in rnd.games.filter(kind=GameKind.NORMAL, player_b__isnull=False)
    }
    planned: list[tuple[Game, int, int]] = []
    seen: set[int] = set()
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        match = ROUND_LINE.match(line)
        if not match:
            raise PlayError(
                f"Line {line_no}: expected 'player-number score player-number score', got {line!r}.", field="text"
            )
        n1, s1, n2, s2 = (int(x) for x in match.groups())
        for n in (n1, n2):
            if n not in number_to_player:
                raise PlayError(f"Line {line_no}: there is no player number {n} in {rnd.division.name}.", field="text")
        p1, p2 = number_to_player[n1], number_to_player[n2]
        game = games.get(frozenset((p1, p2)))
        if game is None:
            raise PlayError(
                f"Line {line_no}: players {n1} and {n2} are not paired together in round {rnd.number}.", field="text"
            )
        if game.pk in seen:
            raise PlayError(f"Line {line_no}: the game of {n1} and {n2} is entered twice.", field="text")
        seen.add(game.pk)
        score_a, score_b = (s1, s2) if game.player_a_id == p1 else (s2, s1)
        try:
            results.validate_scores(score_a, score_b)
        except ValueError as error:
            raise PlayError(f"Line {line_no}: {error}", field="text") from None
        planned.append((game, score_a, score_b))
    if not planned:
        raise PlayError("Enter at least one result.", field="text")
    return [submit_result(actor, game, a, b) for game, a, b in planned]


# --- players joining late, withdrawing; finalising -----------------------------------------------


@transaction.atomic
def add_late_entrant(actor, division: Division, player, *, rating: int = 0) -> DivisionPlayer:
    """A player joining after play began: their missed rounds are scored as the division sets."""
    division = _lock_division(division.pk)
    require_director(actor, division.event)
    _check_open(division)
    if DivisionPlayer.objects.filter(division=division, player=player).exists():
        raise PlayError(f"{player} is already in {division.name}.")
    rounds = list(division.rounds.order_by("number"))
    number = (division.seats.aggregate(n=Max("number"))["n"] or 0) + 1
    seat = DivisionPlayer.objects.create(
        division=division, player=player, number=number, rating=rating, joined_in_round=len(rounds) + 1
    )
    Game.objects.bulk_create(_missed_round(division, rnd, seat) for rnd in rounds)
    return seat


@transaction.atomic
def withdraw_player(actor, seat: DivisionPlayer) -> DivisionPlayer:
    """From the next round on, the player is not paired; their rounds are scored as the division sets."""
    division = _lock_division(seat.division_id)
    require_director(actor, division.event)
    _check_open(division)
    seat = DivisionPlayer.objects.select_for_update().get(pk=seat.pk)
    last = division.rounds.exclude(status=RoundStatus.DRAFT).aggregate(n=Max("number"))["n"] or 0
    seat.withdrawn_after_round = last
    seat.save(update_fields=["withdrawn_after_round"])
    return seat


@transaction.atomic
def finalise_division(actor, division: Division) -> Division:
    """Locks the division's results; when every division of a rated event is final, rating starts."""
    division = _lock_division(division.pk)
    require_director(actor, division.event)
    _check_open(division)
    rounds = list(division.rounds.all())
    if not rounds:
        raise PlayError("No rounds have been played in this division.")
    drafts = [r.number for r in rounds if r.status == RoundStatus.DRAFT]
    if drafts:
        raise PlayError(f"Round {drafts[0]} is still a draft: publish or delete it first.")
    open_games = Game.objects.filter(division=division).exclude(status=GameStatus.CONFIRMED)
    if open_games.exists():
        listing = ", ".join(
            f"round {g.round_number} board {g.board or '-'}" for g in open_games.order_by("round_number", "board")[:10]
        )
        raise PlayError(f"Some results are not confirmed yet: {listing}.")
    division.finalised_at = timezone.now()
    division.save(update_fields=["finalised_at"])
    from ratings import services as rating_services

    rating_services.queue_rating_if_complete(division.event, actor=actor)
    return division


def _rerate_if_rated(division: Division) -> None:
    """A correction to an event already rated re-rates it and every later event on its list."""
    from ratings import services as rating_services

    rating_services.result_corrected(division.event)


# --- divisions by rating -------------------------------------------------------------------------


def ratings_on(event: Event, player_ids: Iterable[int], day) -> dict[int, int]:
    """Each player's rating on the event's list at the start of `day`; unrated players are absent."""
    from ratings.services import ratings_as_of

    if not event.rating_list_id:
        return {}
    return {pid: rating for pid, (rating, _games) in ratings_as_of(event.rating_list, day, list(player_ids)).items()}


@dataclass
class AssignmentReport:
    placed: dict[str, list[tuple[str, int, str]]]  # division -> (name, rating, reason)
    as_of: object


@transaction.atomic
def assign_divisions(actor, event: Event, *, split_into: int | None = None, as_of=None) -> AssignmentReport:
    """Places every confirmed entrant in a division by their rating as of `as_of`.

    With `split_into`, the divisions are (re)made as K divisions of about equal size; otherwise the
    event's divisions and their bands are used (one division per category when there are none).
    Director placements are kept. Refused once play has started.
    """
    from events.core.divisions import UP_ONE, AssignmentError, Band, Candidate, assign_by_bands, split_bands
    from events.models import Entry, EntryStatus

    event = Event.objects.select_for_update().get(pk=event.pk)
    require_director(actor, event)
    if Round.objects.filter(division__event=event).exists():
        raise PlayError("Play has started: divisions can no longer be reassigned.")
    from ratings.services import default_rating_day

    as_of = as_of or default_rating_day(event)
    entries = list(
        Entry.objects.filter(event=event, status=EntryStatus.CONFIRMED)
        .select_related("player", "play_up")
        .order_by("accepted_at", "pk")
    )
    if not entries:
        raise PlayError("There are no confirmed entrants to place.")
    rating = ratings_on(event, [e.player_id for e in entries], as_of)
    fixed = {
        s.entry_id: s
        for s in DivisionPlayer.objects.filter(division__event=event, placed_by_director=True).select_related(
            "division"
        )
    }

    if split_into:
        if split_into < 1 or split_into > 26:
            raise PlayError("Split into between 1 and 26 divisions.", field="split_into")
        names = [chr(ord("A") + i) for i in range(split_into)]
        bands = split_bands([rating.get(e.player_id, 0) for e in entries], names)
        DivisionPlayer.objects.filter(division__event=event).exclude(division__name__in=names).update(
            placed_by_director=False
        )
        fixed = {k: s for k, s in fixed.items() if s.division.name in names}
        Division.objects.filter(event=event).exclude(name__in=names).delete()
        for i, band in enumerate(bands):
            Division.objects.update_or_create(
                event=event,
                name=band.name,
                defaults=dict(
                    position=i, rating_min=band.min_rating, rating_max=band.max_rating, takes_unrated=band.takes_unrated
                ),
            )
    divisions = list(event.divisions.order_by("position", "name"))
    if not divisions:
        categories = list(event.categories.order_by("position", "pk"))
        divisions = [
            Division.objects.create(event=event, category=c, name=c.name[:50], position=i)
            for i, c in enumerate(categories)
        ]
    by_name = {d.name: d for d in divisions}
    by_category = {d.category_id: d for d in divisions if d.category_id}

    if by_category and not any(d.rating_min or d.rating_max for d in divisions):
        # Divisions are the categories: everyone plays in the category they entered.
        placements = {
            e.pk: (by_category[e.category_id].name, "category entered") for e in entries if e.category_id in by_category
        }
    else:
        bands = [Band(d.name, d.rating_min, d.rating_max, d.takes_unrated) for d in divisions]
        candidates = []
        for e in entries:
            seat = fixed.get(e.pk)
            request = getattr(e, "play_up", None)
            candidates.append(
                Candidate(
                    id=e.pk,
                    rating=rating.get(e.player_id, 0),
                    play_up_to=(request.division_name or UP_ONE) if request else None,
                    fixed_to=seat.division.name if seat else None,
                    fixed_reason=seat.assigned_reason if seat else "",
                )
            )
        try:
            placements = {p.id: (p.division, p.reason) for p in assign_by_bands(candidates, bands)}
        except AssignmentError as error:
            raise PlayError(str(error)) from None

    DivisionPlayer.objects.filter(division__event=event).delete()
    report = AssignmentReport(placed={d.name: [] for d in divisions}, as_of=as_of)
    seats, numbers = [], {d.name: 0 for d in divisions}
    ordered = sorted(entries, key=lambda e: (-rating.get(e.player_id, 0), e.player.full_name))
    for e in ordered:
        if e.pk not in placements:
            continue
        name, reason = placements[e.pk]
        numbers[name] += 1
        seats.append(
            DivisionPlayer(
                division=by_name[name],
                player=e.player,
                entry=e,
                number=numbers[name],
                rating=rating.get(e.player_id, 0),
                assigned_reason=reason,
                placed_by_director=e.pk in fixed,
            )
        )
        report.placed[name].append((e.player.full_name, rating.get(e.player_id, 0), reason))
    DivisionPlayer.objects.bulk_create(seats)
    for e in entries:
        e.division = by_name[placements[e.pk][0]] if e.pk in placements else None
    Entry.objects.bulk_update(entries, ["division"])
    return report


@transaction.atomic
def place_entrant(actor, entry, division: Division, reason: str) -> DivisionPlayer:
    """A director's placement, kept with its reason (and kept when divisions are reassigned)."""
    division = _lock_division(division.pk)
    require_director(actor, division.event)
    if entry.event_id != division.event_id:
        raise PlayError("That entrant is not in this event.")
    if not reason.strip():
        raise PlayError("Give a reason for placing the player by hand.", field="reason")
    if division.rounds.exists():
        raise PlayError("Play has started in that division.")
    DivisionPlayer.objects.filter(entry=entry).delete()
    number = (division.seats.aggregate(n=Max("number"))["n"] or 0) + 1
    seat = DivisionPlayer.objects.create(
        division=division,
        player=entry.player,
        entry=entry,
        number=number,
        rating=0,
        assigned_reason=reason.strip(),
        placed_by_director=True,
    )
    entry.division = division
    entry.save(update_fields=["division"])
    return seat


@transaction.atomic
def request_play_up(actor, entry, division_name: str = ""):
    from events.models import PlayUpRequest

    if not (entry.player.user_id and entry.player.user_id == getattr(actor, "id", None)):
        raise PermissionDenied("Only the entrant can ask to play up.")
    return PlayUpRequest.objects.update_or_create(entry=entry, defaults={"division_name": division_name})[0]


@transaction.atomic
def save_division(
    actor,
    event: Event,
    name: str,
    *,
    rating_min: int | None = None,
    rating_max: int | None = None,
    takes_unrated: bool = False,
) -> Division:
    """Creates a division of the event, or changes the rating band of the one with that name."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    require_director(actor, event)
    name = (name or "").strip()
    if not name:
        raise PlayError("Name the division.", field="name")
    if rating_min is not None and rating_max is not None and rating_min > rating_max:
        raise PlayError("The band's lowest rating is above its highest.", field="rating_min")
    division = Division.objects.filter(event=event, name=name).first()
    if division and division.rounds.exists():
        raise PlayError(f"Play has started in {name}: its band can no longer change.", field="name")
    if division is None:
        last = event.divisions.aggregate(n=Max("position"))["n"]
        position = 0 if last is None else last + 1
        division = Division(event=event, name=name, position=position)
    division.rating_min, division.rating_max, division.takes_unrated = rating_min, rating_max, takes_unrated
    division.save()
    return division


@transaction.atomic
def publish_assignments(actor, event: Event) -> None:
    require_director(actor, event)
    if not DivisionPlayer.objects.filter(division__event=event).exists():
        raise PlayError("Assign divisions before publishing them.")
    event.divisions.update(assignments_published=True)
