"""Game results: what one recorded game means for each player.

One `Game` row per pairing: the round, player A, player B (None for a bye or a
forfeit without an opponent), both scores, who went first and a `GameKind`.

| kind         | wins / losses                         | spread                      |
|--------------|---------------------------------------|-----------------------------|
| NORMAL       | win 1, tie ½ each, loss 0              | own score − opponent score  |
| BYE          | 1 win                                  | + bye spread                |
| FORFEIT      | 1 loss for player A (opponent: 1 win)  | − / + forfeit spread        |
| LATE_FORFEIT | loss for player A (late), win for B    | − / + late-forfeit spread   |
| VOID         | neither                                | 0                           |

Only NORMAL games are rated. A NORMAL game without scores is *pending*: it is
paired but not played yet, so it counts for pairing (repeats, firsts) and not
for standings.

Time penalties (seeds 000, 002, 003) are applied by `adjudicate` before the
result is decided.

Scores, as entered and as stored (one rule, checked at every door by
`adjudicate` and `validate_stored_scores`):

- a score *as played* (at the table, before time penalties) is a whole number
  from 0 to MAX_SCORE;
- overtime is at most MAX_OVERTIME_SECONDS (a typo guard);
- the score *as stored* is the played score less the overtime penalty, and
  runs from MIN_STORED_SCORE to MAX_SCORE. It may be negative: a penalty is
  not clamped at zero, because clamping would hand the opponent less spread
  than the rule gives. A stored score below MIN_STORED_SCORE is refused (it
  means a typing slip in a score or an overtime).

A recorded `Game` does not re-check ranges: whatever was stored is shown and
counted, so a page can always be drawn. A stored row that breaks a rule of
`Game` (a late-arrival forfeit without the opponent who was on time, say) is
read by `recorded_game`, which never refuses: every read of a division succeeds
whatever is stored.

A game turned into a forfeit, late-arrival forfeit or void game is checked by
`check_unplayed`: a bye has nobody to forfeit to, so it cannot be forfeited or
marked late. Scores that are allowed but almost never right (0–0) are named by
`unusual_scores`, so every door can ask "are you sure?".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, NamedTuple, TypeAlias

__all__ = [
    "MAX_SCORE",
    "MIN_STORED_SCORE",
    "MAX_OVERTIME_SECONDS",
    "PlayerId",
    "GameKind",
    "ResultError",
    "ScoreError",
    "SpreadRules",
    "Game",
    "PlayerResult",
    "TimeControl",
    "Adjudication",
    "validate_score",
    "validate_scores",
    "validate_stored_score",
    "validate_stored_scores",
    "validate_award",
    "check_unplayed",
    "unusual_scores",
    "recorded_game",
    "penalty_seconds",
    "validate_overtime",
    "TieUndecided",
    "tie_result",
    "overtime_penalty",
    "overrun_forfeit_scores",
    "adjudicate",
    "player_results",
]

PlayerId: TypeAlias = int

# Above any score seen in a real game (records are around 1,100); a typo guard.
MAX_SCORE = 1500
# The lowest score a game may be stored with after time penalties (20 minutes over from a score of 0).
MIN_STORED_SCORE = -200
# No clock runs an hour over; more is a typing slip (and 150 minutes of penalty could never be stored).
MAX_OVERTIME_SECONDS = 60 * 60


class GameKind(StrEnum):
    NORMAL = "normal"
    BYE = "bye"
    FORFEIT = "forfeit"
    LATE_FORFEIT = "late_forfeit"
    VOID = "void"


class ResultError(ValueError):
    """A game that cannot be recorded as given."""


class ScoreError(ResultError):
    """A score that cannot be right (negative as played, absurdly high, or too low after penalties).

    `side` is "a" or "b" when the error is about one player's score or overtime, and `field` the input
    at fault ("score", "overtime"), so an interface can name the player and the field.
    """

    def __init__(self, message: str, side: str | None = None, field: str = "score") -> None:
        super().__init__(message)
        self.side = side
        self.field = field


def _whole(value: int, label: str, side: str | None, field: str = "score") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoreError(f"{label} must be a whole number, got {value!r}", side, field)
    return value


def validate_score(score: int, label: str = "score", side: str | None = None) -> int:
    """Return `score` if it is a plausible score *as played* (0 to MAX_SCORE), else raise ScoreError."""
    _whole(score, label, side)
    if score < 0:
        raise ScoreError(f"{label} cannot be negative (got {score})", side)
    if score > MAX_SCORE:
        raise ScoreError(f"{label} of {score} is above {MAX_SCORE}: please check it", side)
    return score


def validate_scores(score_a: int, score_b: int) -> tuple[int, int]:
    """Both scores as played."""
    return validate_score(score_a, "player A's score", "a"), validate_score(score_b, "player B's score", "b")


def validate_stored_score(score: int, label: str = "score", side: str | None = None) -> int:
    """Return `score` if it may be stored (after penalties): MIN_STORED_SCORE to MAX_SCORE."""
    _whole(score, label, side)
    if not MIN_STORED_SCORE <= score <= MAX_SCORE:
        raise ScoreError(
            f"{label} would be stored as {score}: a recorded score runs from {MIN_STORED_SCORE} to {MAX_SCORE} "
            "after time penalties; please check it",
            side,
        )
    return score


def validate_stored_scores(score_a: int, score_b: int) -> tuple[int, int]:
    """The one check of a game's scores as they will be stored, whichever way they arrive."""
    return (
        validate_stored_score(score_a, "player A's score", "a"),
        validate_stored_score(score_b, "player B's score", "b"),
    )


def validate_award(spread: int, label: str = "spread") -> int:
    """A bye's or forfeit's awarded spread (signed, as stored): at most MAX_SCORE either way."""
    _whole(spread, label, None)
    if abs(spread) > MAX_SCORE:
        raise ScoreError(f"{label} of {spread} is beyond ±{MAX_SCORE}: please check it")
    return spread


def validate_overtime(seconds: int, label: str = "overtime", side: str | None = None) -> int:
    _whole(seconds, label, side, "overtime")
    if seconds < 0:
        raise ScoreError(f"{label} cannot be negative", side, "overtime")
    if seconds > MAX_OVERTIME_SECONDS:
        raise ScoreError(
            f"{label} of {seconds // 60} minutes is more than the {MAX_OVERTIME_SECONDS // 60} a clock can run over: "
            "please check it",
            side,
            "overtime",
        )
    return seconds


UNPLAYED_KINDS = ("forfeit", "late_forfeit", "void")


def check_unplayed(current: GameKind | str, new: GameKind | str, has_opponent: bool) -> GameKind:
    """The one rule for turning a recorded game into a forfeit, a late-arrival forfeit or a void game: returns
    the new kind, or raises ResultError saying why not. A bye has nobody to forfeit to, so it cannot be
    forfeited or marked late (it may be made void); a late-arrival forfeit needs the opponent who was on time."""
    if str(new) not in UNPLAYED_KINDS:
        raise ResultError("Choose forfeit, late-arrival forfeit or void.")
    new = GameKind(new)
    if GameKind(current) is GameKind.BYE and new is not GameKind.VOID:
        raise ResultError("A bye cannot be forfeited or marked late: there is no opponent to give the win to.")
    if new is GameKind.LATE_FORFEIT and not has_opponent:
        raise ResultError("A late-arrival forfeit needs the opponent who was on time: this game has none.")
    return new


def unusual_scores(score_a: int, score_b: int) -> str | None:
    """Scores the rules allow but that are almost never right, said as a question to confirm; None when
    nothing is unusual. 0–0 is a typing slip far more often than a game."""
    if score_a == 0 and score_b == 0:
        return "Both scores are 0: no game of Scrabble ends 0–0. Was it played?"
    return None


@dataclass(frozen=True)
class SpreadRules:
    """Spread awarded for games without a real score; set per event.

    NASPA uses 50 for byes; WESPA and ABSP realms use 100. A late arrival
    forfeits by 100 under seed 003's rule; events set their own.
    """

    bye_spread: int = 50
    forfeit_spread: int = 50
    late_forfeit_spread: int = 100


class _GameFields(NamedTuple):
    round: int
    player_a: PlayerId
    player_b: PlayerId | None = None
    score_a: int | None = None
    score_b: int | None = None
    kind: GameKind = GameKind.NORMAL
    first: PlayerId | None = None
    award: int | None = None
    # Event option (seed 001): a tied game is won by the player whose score before the end-of-game
    # tile adjustment was higher; this names them (None: no such rule, or level then too).
    tie_winner: PlayerId | None = None


class Game(_GameFields):
    """One pairing as recorded, checked when made.

    FORFEIT and LATE_FORFEIT: player A is the one who forfeits; player B, if
    any, is credited with the win. `award` overrides the event's spread for
    BYE/FORFEIT/LATE_FORFEIT, as the points the winning side gains (so it is
    never negative). An imported tsh "bye" of −50 is a FORFEIT with award 50,
    and one of 0 is VOID.

    A named tuple: a large division's tables read thousands of games a page, and a frozen dataclass
    costs twice as much to make.
    """

    __slots__ = ()

    def __new__(
        cls,
        round: int,
        player_a: PlayerId,
        player_b: PlayerId | None = None,
        score_a: int | None = None,
        score_b: int | None = None,
        kind: GameKind | str = GameKind.NORMAL,
        first: PlayerId | None = None,
        award: int | None = None,
        tie_winner: PlayerId | None = None,
    ) -> Game:
        # Accept the stored text value ("bye") as well as the enum member.
        if type(kind) is not GameKind:
            kind = GameKind(kind)
        if round < 1:
            raise ResultError(f"round must be 1 or more, got {round}")
        if player_b is not None and player_b == player_a:
            raise ResultError(f"player {player_a} cannot play themselves")
        if first is not None and first != player_a and first != player_b:
            raise ResultError(f"first player {first} is not in this game")
        if kind is GameKind.NORMAL:
            if player_b is None:
                raise ResultError("a normal game needs two players")
            if (score_a is None) != (score_b is None):
                raise ScoreError("a game needs both scores, or none while it is pending")
        elif kind is GameKind.BYE and player_b is not None:
            raise ResultError("a bye has no opponent")
        elif kind is GameKind.LATE_FORFEIT and player_b is None:
            raise ResultError("a late-arrival forfeit needs the opponent who was on time")
        if tie_winner is not None and tie_winner != player_a and tie_winner != player_b:
            raise ResultError(f"tie winner {tie_winner} is not in this game")
        if award is not None and award < 0:
            raise ResultError("an award is the spread the winning side gains: it cannot be negative")
        return tuple.__new__(cls, (round, player_a, player_b, score_a, score_b, kind, first, award, tie_winner))

    @property
    def pending(self) -> bool:
        return self.kind is GameKind.NORMAL and self.score_a is None

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return (self.player_a,) if self.player_b is None else (self.player_a, self.player_b)

    def opponent_of(self, player: PlayerId) -> PlayerId | None:
        if player == self.player_a:
            return self.player_b
        if player == self.player_b:
            return self.player_a
        raise KeyError(player)


def recorded_game(
    round: int,
    player_a: PlayerId,
    player_b: PlayerId | None = None,
    score_a: int | None = None,
    score_b: int | None = None,
    kind: GameKind | str = GameKind.NORMAL,
    first: PlayerId | None = None,
    award: int | None = None,
    tie_winner: PlayerId | None = None,
) -> Game:
    """A stored game as the tables count it, whatever was stored: never raises.

    A row `Game` accepts is read as it is. One that breaks a rule is read as the
    nearest thing the rules know: a late-arrival forfeit without an opponent as a
    forfeit loss (the late player still loses), a game without an opponent as a
    void round, one score without the other as not played yet, a bye with an
    opponent as a bye, a negative award as its size; who went first, or won a
    tie, is forgotten when it names someone not in the game.
    """
    try:
        return Game(round, player_a, player_b, score_a, score_b, kind, first, award, tie_winner)
    except (ResultError, ValueError):
        pass
    kind = GameKind(kind) if str(kind) in GameKind._value2member_map_ else GameKind.VOID
    if player_b == player_a:
        player_b = None
    if kind is GameKind.NORMAL and player_b is None:
        kind = GameKind.VOID
    if kind is GameKind.LATE_FORFEIT and player_b is None:
        kind = GameKind.FORFEIT
    if kind is GameKind.BYE:
        player_b = None
    if kind is GameKind.NORMAL and (score_a is None or score_b is None):
        score_a = score_b = None
    players = (player_a, player_b)
    return Game(
        max(round, 1),
        player_a,
        player_b,
        score_a,
        score_b,
        kind,
        first if first is not None and first in players else None,
        abs(award) if award is not None else None,
        tie_winner if tie_winner is not None and tie_winner in players else None,
    )


class PlayerResult(NamedTuple):
    """One game seen from one player. A named tuple: a 300-player division's tables make thousands of
    these per page, and a frozen dataclass costs four times as much to make."""

    round: int
    player: PlayerId
    opponent: PlayerId | None
    kind: GameKind
    wins: float
    losses: float
    spread: int
    own_score: int | None
    opp_score: int | None
    went_first: bool | None  # None: unknown, or no opponent
    # W, L or T for a game; B bye, F forfeit (either side), V void. Set where the result is made, which
    # knows it already: every table cell and scorecard line shows it.
    letter: str

    @property
    def rated(self) -> bool:
        return self.kind is GameKind.NORMAL


def player_results(game: Game, rules: SpreadRules = SpreadRules()) -> tuple[PlayerResult, ...]:
    """The game from each player's side (player A first); () while pending."""
    rnd, a, b, sa, sb, kind, first, award, _ = game  # one unpacking: tables make thousands a page
    if kind is GameKind.NORMAL and sa is None:  # pending
        return ()
    # Who went first, from each side: None when unknown, or for a side without an opponent.
    first_a = None if first is None or b is None else first == a
    first_b = None if first is None else first == b
    if kind is GameKind.NORMAL:
        assert b is not None and sa is not None and sb is not None
        diff = sa - sb
        wa = 1.0 if diff > 0 else 0.0 if diff < 0 else tie_result(game)
        letter_a, letter_b = ("W", "L") if wa == 1.0 else ("L", "W") if wa == 0.0 else ("T", "T")
        return (
            PlayerResult(rnd, a, b, kind, wa, 1.0 - wa, diff, sa, sb, first_a, letter_a),
            PlayerResult(rnd, b, a, kind, 1.0 - wa, wa, -diff, sb, sa, first_b, letter_b),
        )
    if kind is GameKind.BYE:
        award = rules.bye_spread if award is None else award
        return (PlayerResult(rnd, a, None, kind, 1.0, 0.0, award, sa, None, None, "B"),)
    if kind is GameKind.VOID:
        void = PlayerResult(rnd, a, b, kind, 0.0, 0.0, 0, sa, sb, first_a, "V")
        if b is None:
            return (void,)
        return (void, PlayerResult(rnd, b, a, kind, 0.0, 0.0, 0, sb, sa, first_b, "V"))
    default = rules.forfeit_spread if kind is GameKind.FORFEIT else rules.late_forfeit_spread
    award = default if award is None else award
    lost = PlayerResult(rnd, a, b, kind, 0.0, 1.0, -award, sa, sb, first_a, "F")
    if b is None:
        return (lost,)
    return (lost, PlayerResult(rnd, b, a, kind, 1.0, 0.0, award, sb, sa, first_b, "F"))


def tie_result(game: Game) -> float:
    """Player A's win of a game level on score: ½, unless the event breaks ties by the score before
    the end-of-game tile adjustment (seed 001) and the game names who was ahead then."""
    if game.tie_winner is None:
        return 0.5
    return 1.0 if game.tie_winner == game.player_a else 0.0


# --------------------------------------------------------------------------- time penalties


@dataclass(frozen=True)
class TimeControl:
    """Clock rules of an event.

    `forfeit_after_seconds`: APSP rule, an overrun of this many seconds
    (15 minutes there) forfeits the game; None disables it.
    """

    seconds: int = 25 * 60
    points_per_minute: int = 10
    forfeit_after_seconds: int | None = None
    forfeit_minimum_margin: int = 150


def overtime_penalty(seconds_over: int, points_per_minute: int = 10) -> int:
    """Points off for running `seconds_over` past the time control.

    Each minute *or part of a minute* costs the full amount: 1 s over costs 10,
    61 s over costs 20.
    """
    if seconds_over < 0:
        raise ResultError(f"seconds over time cannot be negative (got {seconds_over})")
    return math.ceil(seconds_over / 60) * points_per_minute


def overrun_forfeit_scores(offender_score: int, opponent_score: int, minimum_margin: int = 150) -> tuple[int, int]:
    """APSP: the overrunning player loses by max(margin at that moment, minimum).

    The scores given are those when the overrun limit was reached, after time
    penalties. Returns (offender, opponent). The opponent keeps their score and
    the offender's is lowered to make the margin; if that would go below zero
    the offender gets 0 and the opponent is raised to the margin, so no score
    is negative and no winning score is invented beyond what the margin needs.
    """
    margin = max(opponent_score - offender_score, minimum_margin)
    if opponent_score - margin >= 0:
        return opponent_score - margin, opponent_score
    return 0, margin


def penalty_seconds(seconds_over: int, time_control: TimeControl = TimeControl()) -> int:
    """The overtime that is penalised: all of it, or up to the overrun limit when the game is forfeited
    there (the margin is taken "when the 15 minutes is reached")."""
    limit = time_control.forfeit_after_seconds
    return min(seconds_over, limit) if limit is not None else seconds_over


@dataclass(frozen=True)
class Adjudication:
    """Scores to record after time penalties; `forfeit` names the side ("a"/"b") that overran;
    `tie_winner` the side ahead before the end-of-game tile adjustment when that breaks a tie."""

    score_a: int
    score_b: int
    penalty_a: int
    penalty_b: int
    forfeit: Literal["a", "b"] | None = None
    tie_winner: Literal["a", "b"] | None = None


class TieUndecided(ResultError):
    """The event breaks ties by the score before the tile adjustment, and the game is level: say who led."""


def adjudicate(
    score_a: int,
    score_b: int,
    seconds_over_a: int = 0,
    seconds_over_b: int = 0,
    time_control: TimeControl = TimeControl(),
    *,
    ahead_before_tiles: str | None = None,
    ties_by_score_before_tiles: bool = False,
    names: tuple[str, str] = ("player A", "player B"),
) -> Adjudication:
    """The result to store from the scores as played and each player's overtime (seconds).

    Every way a result enters goes through here: played scores 0..MAX_SCORE, overtime up to
    MAX_OVERTIME_SECONDS, overtime penalties first (10 a minute or part of one, not clamped at 0),
    then the overrun forfeit if the event uses it (APSP: the offender loses by the margin at the
    limit, after penalties, or the minimum margin, whichever is greater), then the stored scores are
    checked (`validate_stored_scores`). With `ties_by_score_before_tiles`, a level game is decided by
    `ahead_before_tiles` ("a", "b", or "level" when they were level then too); None raises
    TieUndecided.
    """
    name_a, name_b = names
    validate_score(score_a, f"{name_a}'s score", "a")
    validate_score(score_b, f"{name_b}'s score", "b")
    validate_overtime(seconds_over_a, f"{name_a}'s overtime", "a")
    validate_overtime(seconds_over_b, f"{name_b}'s overtime", "b")
    limit = time_control.forfeit_after_seconds
    over_a = limit is not None and seconds_over_a >= limit
    over_b = limit is not None and seconds_over_b >= limit
    if over_a and over_b:
        raise ScoreError("both players cannot overrun by the forfeit limit: only one clock runs", "b", "overtime")
    pen_a = overtime_penalty(penalty_seconds(seconds_over_a, time_control), time_control.points_per_minute)
    pen_b = overtime_penalty(penalty_seconds(seconds_over_b, time_control), time_control.points_per_minute)
    final_a, final_b = score_a - pen_a, score_b - pen_b
    forfeit: Literal["a", "b"] | None = None
    if over_a:
        final_a, final_b = overrun_forfeit_scores(final_a, final_b, time_control.forfeit_minimum_margin)
        forfeit = "a"
    elif over_b:
        final_b, final_a = overrun_forfeit_scores(final_b, final_a, time_control.forfeit_minimum_margin)
        forfeit = "b"
    validate_stored_score(final_a, f"{name_a}'s score", "a")
    validate_stored_score(final_b, f"{name_b}'s score", "b")
    tie_winner: Literal["a", "b"] | None = None
    if ties_by_score_before_tiles and final_a == final_b and forfeit is None:
        if ahead_before_tiles is None:
            raise TieUndecided(
                "The scores are level: say who was ahead before the end-of-game tile adjustment "
                "(or that they were level then too)."
            )
        if ahead_before_tiles not in ("a", "b", "level"):
            raise ResultError(
                f"who was ahead before the tile adjustment: 'a', 'b' or 'level', got {ahead_before_tiles!r}"
            )
        tie_winner = None if ahead_before_tiles == "level" else ahead_before_tiles  # type: ignore[assignment]
    return Adjudication(final_a, final_b, pen_a, pen_b, forfeit, tie_winner)
