"""Results: a player submits, the opponent (or a director) confirms or disputes; directors enter, correct
and record forfeits, every change kept in the game's audit trail."""

from __future__ import annotations

import re

from django.db import transaction
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from clubsite.kit.status import move
from events.permissions import can_direct_event
from events.play.core import results
from events.play.models import DivisionPlayer, Game, GameChange, GameKind, GameStatus, Round, RoundStatus
from events.signals import result_corrected, results_changed

from .common import PlayError, check_open, require_director
from .reads import spread_rules
from .rounds import complete_if_done


def _snapshot(game: Game) -> dict:
    return {
        "kind": game.kind,
        "status": game.status,
        "score_a": game.score_a,
        "score_b": game.score_b,
        "played_a": game.played_a,
        "played_b": game.played_b,
        "spread_a": game.spread_a,
        "first": game.first,
        "overtime_a": game.overtime_a,
        "overtime_b": game.overtime_b,
        "overrun": game.overrun,
        "ahead_before_tiles": game.ahead_before_tiles,
        "player_a": game.player_a_id,
        "player_b": game.player_b_id,
    }


def person_name(user) -> str | None:
    """How a person who changed something is shown: their name, never their login email."""
    if user is None:
        return None
    player = getattr(user, "player", None)
    if player is not None:
        return player.name
    return user.get_full_name() or (user.username if "@" not in user.username else f"User {user.pk}")


def _clock(seconds) -> str:
    seconds = int(seconds or 0)
    return f"{seconds // 60}:{seconds % 60:02d}"


def describe_snapshot(snap: dict, names: dict) -> str:
    """A recorded result (a GameChange's before or after) as a person reads it:
    "380–-40 (played 380–60; Bob 10:00 over) · confirmed"."""
    if not snap:
        return "—"
    a = names.get(snap.get("player_a"), "player A")
    b = names.get(snap.get("player_b"), "player B")
    kind, status, spread = snap.get("kind"), snap.get("status", ""), snap.get("spread_a")
    notes: list[str] = []
    if kind in (GameKind.FORFEIT, GameKind.LATE_FORFEIT):
        late = "late-arrival " if kind == GameKind.LATE_FORFEIT else ""
        text = f"{late}forfeit by {a}" + (f" ({spread:+d})" if spread is not None else "")
    elif kind == GameKind.BYE:
        text = "bye" + (f" ({spread:+d})" if spread is not None else "")
    elif kind == GameKind.VOID:
        text = "void"
    elif snap.get("score_a") is None:
        text = "no result"
    else:
        sa, sb = snap["score_a"], snap["score_b"]
        text = f"{a} {sa}–{sb} {b}"
        pa, pb = snap.get("played_a"), snap.get("played_b")
        if pa is not None and (pa, pb) != (sa, sb):
            notes.append(f"played {pa}–{pb}")
        for name, key in ((a, "overtime_a"), (b, "overtime_b")):
            if snap.get(key):
                notes.append(f"{name} {_clock(snap[key])} over")
        overrun = snap.get("overrun")
        if overrun:
            notes.append(f"{a if overrun == 'a' else b} overran: game forfeited")
        ahead = snap.get("ahead_before_tiles")
        if ahead in ("a", "b") and sa == sb:
            notes.append(f"tie won by {a if ahead == 'a' else b} (ahead before the tile adjustment)")
    if notes:
        text += f" ({'; '.join(notes)})"
    return f"{text} · {status}" if status else text


def change_names(change: GameChange) -> dict:
    game = change.game
    names = {game.player_a_id: game.player_a.name}
    if game.player_b_id:
        names[game.player_b_id] = game.player_b.name
    return names


def who_confirms(game: Game, submitter_side: str) -> str:
    """Who confirms a result a player submitted: their opponent if they have an account, else a director."""
    opponent = game.player_b if submitter_side == "a" else game.player_a
    if opponent is not None and opponent.user_id:
        return f"{opponent.name} confirms it now"
    return f"a director confirms it ({opponent.name if opponent else 'your opponent'} has no account here)"


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


def _check_result_input(game: Game) -> None:
    if game.round.status == RoundStatus.DRAFT:
        raise PlayError(f"Round {game.round_number} is not published yet.")
    if game.kind != GameKind.NORMAL or not game.player_b_id:
        raise PlayError("This is a bye or forfeit: it has no scores to enter.")


def time_control(event) -> results.TimeControl:
    """The event's clock rules: overtime penalties, and the APSP overrun forfeit when the event uses it."""
    return results.TimeControl(forfeit_after_seconds=15 * 60 if event.overrun_forfeit else None)


def adjudicate(
    game: Game, score_a, score_b, overtime_a=0, overtime_b=0, ahead_before_tiles: str | None = None
) -> results.Adjudication:
    """The one check of a result, whichever door it comes through: the pure core's rule on scores as
    played, overtime and scores as stored, with the players' names in its messages."""
    names = (game.player_a.name, game.player_b.name if game.player_b else "player B")
    event = game.division.event
    try:
        values = [_whole_number(v, label) for v, label in ((score_a, "score"), (score_b, "score"))]
        overtimes = [_whole_number(v, "overtime") for v in (overtime_a, overtime_b)]
        return results.adjudicate(
            values[0],
            values[1],
            overtimes[0],
            overtimes[1],
            time_control(event),
            ahead_before_tiles=ahead_before_tiles or None,
            ties_by_score_before_tiles=event.ties_by_score_before_tiles,
            names=names,
        )
    except results.TieUndecided as error:
        raise PlayError(str(error), field="ahead_before_tiles") from None
    except results.ScoreError as error:
        message = str(error)
        raise PlayError(message[:1].upper() + message[1:] + ".", field=f"{error.field}_{error.side or 'a'}") from None
    except results.ResultError as error:
        raise PlayError(str(error), field="score_a") from None


def _whole_number(value, label: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        raise PlayError(f"A {label} must be a whole number.", field=f"{label}_a") from None


def _apply_scores(game: Game, played_a, played_b, overtime_a, overtime_b, first: str, decided) -> None:
    """Scores as played, the overtime, and the result stored from them (after penalties, overrun forfeit)."""
    if first not in ("", "a", "b"):
        raise PlayError("Say who went first: player A, player B, or leave it empty.", field="first")
    game.played_a, game.played_b = int(played_a), int(played_b)
    game.score_a, game.score_b = decided.score_a, decided.score_b
    game.overtime_a, game.overtime_b = int(overtime_a), int(overtime_b)
    game.overrun = decided.forfeit or ""
    level = decided.score_a == decided.score_b and game.division.event.ties_by_score_before_tiles
    game.ahead_before_tiles = (decided.tie_winner or "level") if level and not decided.forfeit else ""
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


CORRECTION_REASON = "Give a reason for changing a confirmed result: it is kept in the game's history."


def _check_correction_reason(game: Game, reason: str) -> None:
    """A director changing a confirmed result says why; entering a first result needs no reason."""
    if game.status == GameStatus.CONFIRMED and not (reason or "").strip():
        raise PlayError(CORRECTION_REASON, field="reason")


def check_unusual(game: Game, score_a, score_b, confirmed: bool) -> None:
    """Scores the rules allow but that are almost never right (0–0: `results.unusual_scores`) are taken only
    once the person entering them says they are right (`confirmed`); otherwise a refusal that asks."""
    question = results.unusual_scores(score_a, score_b)
    if question and not confirmed:
        raise PlayError(f"{question} If it was, say so and submit it again.", field="confirm_unusual")


@transaction.atomic
def submit_result(
    actor,
    game: Game,
    score_a: int,
    score_b: int,
    *,
    overtime_a: int = 0,
    overtime_b: int = 0,
    first: str = "",
    reason: str = "",
    ahead_before_tiles: str | None = None,
    confirm_unusual: bool = False,
) -> Game:
    """A player reports their own game, scores as played and overtime in seconds; the result is stored after
    penalties. A director's entry is confirmed at once; a director's correction keeps its reason.

    A player may submit again while their own submission waits for confirmation: the new one replaces it, and
    the returned game says so (`replaced_submission`). A result the opponent submitted is confirmed or
    disputed, not submitted over. Scores of 0–0 are taken only with `confirm_unusual`."""
    game = _submit(
        actor, game, score_a, score_b, overtime_a, overtime_b, first, reason, ahead_before_tiles, confirm_unusual
    )
    if game.status == GameStatus.CONFIRMED:
        results_changed.send(sender=Game, division=game.division)
    return game


def _submit(
    actor,
    game: Game,
    score_a,
    score_b,
    overtime_a=0,
    overtime_b=0,
    first="",
    reason="",
    ahead_before_tiles=None,
    confirm_unusual=False,
) -> Game:
    """`submit_result` within the caller's transaction, without refreshing the live ratings (fast entry does
    that once for the round)."""
    game = _lock_game(game)
    director = _is_director(actor, game)
    if not director:
        check_open(game.division)  # directors may still correct a finalised division (it is re-rated)
    side = _side(actor, game)
    if not director and side is None:
        raise NotAllowed("You can only submit the result of your own game.")
    _check_result_input(game)
    decided = adjudicate(game, score_a, score_b, overtime_a, overtime_b, ahead_before_tiles)
    if not director:
        if game.status == GameStatus.CONFIRMED:
            raise PlayError("This result is already confirmed; ask a director to correct it.")
        if game.status == GameStatus.DISPUTED:
            raise PlayError("This result is disputed; a director will settle it.")
        if game.status == GameStatus.SUBMITTED and game.submitted_by_id != actor.id:
            raise PlayError(
                "Your opponent has already submitted a result for this game: confirm it if it is right, "
                "or dispute it. Yours was not saved."
            )
        if _later_round_published(game):
            raise PlayError("The next round is out: only a director can enter this result now.")
    check_unusual(game, int(score_a), int(score_b), confirm_unusual)
    if director:
        _check_correction_reason(game, reason)
    before = _snapshot(game)
    _apply_scores(game, score_a, score_b, overtime_a, overtime_b, first, decided)
    game.submitted_by, game.submitted_at = actor, timezone.now()
    if director:
        move(game, GameStatus.CONFIRMED)
        game.confirmed_by, game.confirmed_at = actor, game.submitted_at
    else:
        move(game, GameStatus.SUBMITTED)
    game.save()
    replaced = not director and before["status"] == GameStatus.SUBMITTED
    if director:
        action = "corrected" if before["status"] != GameStatus.PAIRED else "entered"
    else:
        action = "resubmitted" if replaced else "submitted"
    _audit(game, actor, action, before, (reason or "").strip())
    complete_if_done(game.round)
    if director and before["status"] == GameStatus.CONFIRMED:
        result_corrected.send(sender=Game, game=game, actor=actor)
    game.replaced_submission = replaced
    return game


@transaction.atomic
def confirm_result(actor, game: Game) -> Game:
    """The opponent of whoever submitted (or a director) confirms."""
    game = _lock_game(game)
    check_open(game.division)
    director = _is_director(actor, game)
    if game.status != GameStatus.SUBMITTED and not (director and game.status == GameStatus.DISPUTED):
        raise PlayError("There is no submitted result to confirm for this game.")
    if not director:
        side = _side(actor, game)
        if side is None:
            raise NotAllowed("Only the opponent or a director can confirm this result.")
        if game.submitted_by_id == actor.id:
            raise PlayError(f"You submitted this result: {who_confirms(game, side)}.")
    before = _snapshot(game)
    move(game, GameStatus.CONFIRMED)
    game.confirmed_by, game.confirmed_at = actor, timezone.now()
    game.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    _audit(game, actor, "confirmed", before)
    complete_if_done(game.round)
    results_changed.send(sender=Game, division=game.division)
    return game


@transaction.atomic
def dispute_result(actor, game: Game, reason: str = "") -> Game:
    game = _lock_game(game)
    check_open(game.division)
    if game.status != GameStatus.SUBMITTED:
        raise PlayError("Only a submitted result can be disputed.")
    side = _side(actor, game)
    if side is None or game.submitted_by_id == actor.id:
        raise NotAllowed("Only the opponent of whoever submitted can dispute this result.")
    before = _snapshot(game)
    move(game, GameStatus.DISPUTED)
    game.save(update_fields=["status"])
    _audit(game, actor, "disputed", before, reason)
    return game


@transaction.atomic
def set_unplayed(actor, game: Game, kind: str, *, reason: str = "", forfeited_by: str = "a") -> Game:
    """A director records a forfeit, a late-arrival forfeit, or a void game.

    The player who forfeits is stored as player A; `forfeited_by="b"` swaps the two sides first. What may
    become what is the result rule's (`results.check_unplayed`): a bye cannot be forfeited or marked late.
    The spread is the event's: its forfeit spread, or its late-arrival forfeit spread.
    """
    game = _lock_game(game)
    require_director(actor, game.division.event)  # may correct a finalised division (it is re-rated)
    if forfeited_by not in ("a", "b"):
        raise PlayError("Say which player forfeits.", field="forfeited_by")
    try:
        kind = results.check_unplayed(game.kind, kind, game.player_b_id is not None)
    except results.ResultError as error:
        raise PlayError(str(error), field="kind") from None
    if forfeited_by == "b" and kind != GameKind.VOID:
        if not game.player_b_id:
            raise PlayError("This game has no player B.", field="forfeited_by")
        game.player_a, game.player_b = game.player_b, game.player_a
        game.overtime_a, game.overtime_b = game.overtime_b, game.overtime_a
        game.first = {"a": "b", "b": "a"}.get(game.first, game.first)
    rules = spread_rules(game.division.event)
    spreads = {
        GameKind.FORFEIT: -rules.forfeit_spread,
        GameKind.LATE_FORFEIT: -rules.late_forfeit_spread,
        GameKind.VOID: 0,
    }
    _check_correction_reason(game, reason)
    before = _snapshot(game)
    game.kind, game.spread_a, game.score_a, game.score_b = kind.value, spreads[kind], None, None
    game.played_a = game.played_b = None
    game.overrun = game.ahead_before_tiles = ""
    move(game, GameStatus.CONFIRMED)
    game.confirmed_by, game.confirmed_at = actor, timezone.now()
    game.save()
    _audit(game, actor, kind.value, before, reason)
    complete_if_done(game.round)
    if before["status"] == GameStatus.CONFIRMED:
        result_corrected.send(sender=Game, game=game, actor=actor)
    results_changed.send(sender=Game, division=game.division)
    return game


ROUND_LINE = re.compile(r"^\s*(\d{1,9})\s+(-?\d{1,9})\s+(\d{1,9})\s+(-?\d{1,9})\s*$")


@transaction.atomic
def enter_round_results(actor, rnd: Round, text: str) -> list[Game]:
    """Fast entry as directors type it into tsh: `player-number score player-number score` per line.

    Every line is checked first; any bad line saves nothing, and the refusal names each bad line.
    """
    rnd = Round.objects.select_related("division__event").get(pk=rnd.pk)
    require_director(actor, rnd.division.event)
    if rnd.status == RoundStatus.DRAFT:
        raise PlayError(f"Round {rnd.number} is not published yet.")
    number_to_player = dict(DivisionPlayer.objects.filter(division=rnd.division).values_list("number", "player_id"))
    games = {
        frozenset((g.player_a_id, g.player_b_id)): g
        for g in rnd.games.filter(kind=GameKind.NORMAL, player_b__isnull=False).select_related(
            "player_a", "player_b", "division__event"
        )
    }
    planned: list[tuple[Game, int, int]] = []
    problems: list[str] = []
    seen: set[int] = set()
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            planned.append(_fast_entry_line(rnd, line, number_to_player, games, seen))
        except PlayError as error:
            problems.append(f"Line {line_no}: {error.message}")
    if problems:
        raise PlayError(" ".join(problems), field="text", messages=problems)
    if not planned:
        raise PlayError("Enter at least one result.", field="text")
    entered = [_submit(actor, game, a, b) for game, a, b in planned]
    results_changed.send(sender=Game, division=rnd.division)  # once for the round, not once a game
    return entered


def _fast_entry_line(rnd: Round, line: str, number_to_player: dict, games: dict, seen: set) -> tuple[Game, int, int]:
    """One line of fast entry checked: the game it names and its scores as A's and B's."""
    match = ROUND_LINE.match(line)
    if not match:
        raise PlayError(f"expected 'player-number score player-number score', got {line!r}.")
    n1, s1, n2, s2 = (int(x) for x in match.groups())
    missing = [n for n in (n1, n2) if n not in number_to_player]
    if missing:
        raise PlayError(f"there is no player number {missing[0]} in {rnd.division.name}.")
    p1, p2 = number_to_player[n1], number_to_player[n2]
    game = games.get(frozenset((p1, p2)))
    if game is None:
        raise PlayError(f"players {n1} and {n2} are not paired together in round {rnd.number}.")
    if game.pk in seen:
        raise PlayError(f"the game of {n1} and {n2} is entered twice.")
    seen.add(game.pk)
    if game.status == GameStatus.CONFIRMED:
        raise PlayError(
            f"the game of {n1} and {n2} already has a confirmed result: correct it on its own page, with a reason."
        )
    score_a, score_b = (s1, s2) if game.player_a_id == p1 else (s2, s1)
    adjudicate(game, score_a, score_b)
    question = results.unusual_scores(score_a, score_b)
    if question:
        raise PlayError(f"the game of {n1} and {n2}: {question} If it was, enter it on the game's own page.")
    return game, score_a, score_b
