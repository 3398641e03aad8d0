"""Game results: what one recorded game means for each player.

One `Game` row per pairing: the round, player A, player B (None for a bye or a
forfeit without an opponent), both scores, who went first and a `GameKind`.

| kind         | wins / losses                         | spread                      |
|--------------|---------------------------------------|-----------------------------|
| NORMAL       | win 1, tie ½ each, loss 0              | own score − opponent score  |
| BYE          | 1 win                                  | + bye spread                |
| FORFEIT      | 1 loss for player A (opponent: 1 win)  | − / + forfeit spread        |
| LATE_FORFEIT | loss for player A (late), win for B    | −100 / +100                 |
| VOID         | neither                                | 0                           |

Only NORMAL games are rated. A NORMAL game without scores is *pending*: it is
paired but not played yet, so it counts for pairing (repeats, firsts) and not
for standings.

Time penalties (seeds 000, 002, 003) are applied by `adjudicate` before the
result is decided.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, TypeAlias

__all__ = [
    "MAX_SCORE",
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
    "overtime_penalty",
    "overrun_forfeit_scores",
    "adjudicate",
    "player_results",
]

PlayerId: TypeAlias = int

# Above any score seen in a real game (records are around 1,100); a typo guard.
MAX_SCORE = 1500


class GameKind(StrEnum):
    NORMAL = "normal"
    BYE = "bye"
    FORFEIT = "forfeit"
    LATE_FORFEIT = "late_forfeit"
    VOID = "void"


class ResultError(ValueError):
    """A game that cannot be recorded as given."""


class ScoreError(ResultError):
    """A score that cannot be right (negative, or absurdly high)."""


def validate_score(score: int, label: str = "score") -> int:
    """Return `score` if it is a plausible game score, else raise ScoreError."""
    if isinstance(score, bool) or not isinstance(score, int):
        raise ScoreError(f"{label} must be a whole number, got {score!r}")
    if score < 0:
        raise ScoreError(f"{label} cannot be negative (got {score})")
    if score > MAX_SCORE:
        raise ScoreError(f"{label} of {score} is above {MAX_SCORE}: please check it")
    return score


def validate_scores(score_a: int, score_b: int) -> tuple[int, int]:
    return validate_score(score_a, "player A's score"), validate_score(score_b, "player B's score")


@dataclass(frozen=True)
class SpreadRules:
    """Spread awarded for games without a real score; set per event.

    NASPA uses 50 for byes; WESPA and ABSP realms use 100.
    """

    bye_spread: int = 50
    forfeit_spread: int = 50
    late_forfeit_spread: int = 100


@dataclass(frozen=True)
class Game:
    """One pairing as recorded.

    FORFEIT and LATE_FORFEIT: player A is the one who forfeits; player B, if
    any, is credited with the win. `award` overrides the event's spread for
    BYE/FORFEIT/LATE_FORFEIT, as the points the winning side gains (so it is
    never negative). An imported tsh "bye" of −50 is a FORFEIT with award 50,
    and one of 0 is VOID.
    """

    round: int
    player_a: PlayerId
    player_b: PlayerId | None = None
    score_a: int | None = None
    score_b: int | None = None
    kind: GameKind = GameKind.NORMAL
    first: PlayerId | None = None
    award: int | None = None

    def __post_init__(self) -> None:
        # Accept the stored text value ("bye") as well as the enum member.
        object.__setattr__(self, "kind", GameKind(self.kind))
        if self.round < 1:
            raise ResultError(f"round must be 1 or more, got {self.round}")
        if self.player_b is not None and self.player_b == self.player_a:
            raise ResultError(f"player {self.player_a} cannot play themselves")
        if self.first is not None and self.first not in (self.player_a, self.player_b):
            raise ResultError(f"first player {self.first} is not in this game")
        if self.kind is GameKind.NORMAL:
            if self.player_b is None:
                raise ResultError("a normal game needs two players")
            if (self.score_a is None) != (self.score_b is None):
                raise ScoreError("a game needs both scores, or none while it is pending")
            if self.score_a is not None and self.score_b is not None:
                validate_scores(self.score_a, self.score_b)
        elif self.kind is GameKind.BYE and self.player_b is not None:
            raise ResultError("a bye has no opponent")
        elif self.kind is GameKind.LATE_FORFEIT and self.player_b is None:
            raise ResultError("a late-arrival forfeit needs the opponent who was on time")
        if self.kind is not GameKind.NORMAL:
            for label, score in (("player A's score", self.score_a), ("player B's score", self.score_b)):
                if score is not None:
                    validate_score(score, label)
        if self.award is not None and self.award < 0:
            raise ResultError("an award is the spread the winning side gains: it cannot be negative")

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


@dataclass(frozen=True)
class PlayerResult:
    """One game seen from one player."""

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

    @property
    def rated(self) -> bool:
        return self.kind is GameKind.NORMAL

    @property
    def letter(self) -> str:
        """W, L or T for a game; B bye, F forfeit (either side), V void."""
        if self.kind is GameKind.BYE:
            return "B"
        if self.kind is GameKind.VOID:
            return "V"
        if self.kind is not GameKind.NORMAL:
            return "F"
        return "W" if self.wins == 1 else "L" if self.losses == 1 else "T"


def player_results(game: Game, rules: SpreadRules = SpreadRules()) -> tuple[PlayerResult, ...]:
    """The game from each player's side (player A first); () while pending."""
    if game.pending:
        return ()
    a, b = game.player_a, game.player_b

    def first_flag(player: PlayerId) -> bool | None:
        return None if game.first is None else game.first == player

    def side(
        player: PlayerId,
        opponent: PlayerId | None,
        wins: float,
        losses: float,
        spread: int,
        own: int | None,
        opp: int | None,
    ) -> PlayerResult:
        return PlayerResult(
            game.round,
            player,
            opponent,
            game.kind,
            wins,
            losses,
            spread,
            own,
            opp,
            first_flag(player) if opponent is not None else None,
        )

    if game.kind is GameKind.NORMAL:
        assert b is not None and game.score_a is not None and game.score_b is not None
        diff = game.score_a - game.score_b
        wa = 1.0 if diff > 0 else 0.0 if diff < 0 else 0.5
        return (
            side(a, b, wa, 1.0 - wa, diff, game.score_a, game.score_b),
            side(b, a, 1.0 - wa, wa, -diff, game.score_b, game.score_a),
        )
    if game.kind is GameKind.BYE:
        award = rules.bye_spread if game.award is None else game.award
        return (side(a, None, 1.0, 0.0, award, game.score_a, None),)
    if game.kind is GameKind.VOID:
        results = [side(a, b, 0.0, 0.0, 0, game.score_a, game.score_b)]
        if b is not None:
            results.append(side(b, a, 0.0, 0.0, 0, game.score_b, game.score_a))
        return tuple(results)
    default = rules.forfeit_spread if game.kind is GameKind.FORFEIT else rules.late_forfeit_spread
    award = default if game.award is None else game.award
    results = [side(a, b, 0.0, 1.0, -award, game.score_a, game.score_b)]
    if b is not None:
        results.append(side(b, a, 1.0, 0.0, award, game.score_b, game.score_a))
    return tuple(results)


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


@dataclass(frozen=True)
class Adjudication:
    """Scores to record after time penalties; `forfeit` names the side ("a"/"b") that overran."""

    score_a: int
    score_b: int
    penalty_a: int
    penalty_b: int
    forfeit: Literal["a", "b"] | None = None


def adjudicate(
    score_a: int,
    score_b: int,
    seconds_over_a: int = 0,
    seconds_over_b: int = 0,
    time_control: TimeControl = TimeControl(),
) -> Adjudication:
    """Apply overtime penalties (and the overrun forfeit if the event uses it).

    Scores are the table scores; with an overrun forfeit they are the scores
    when the limit was reached. Penalties come first, then the result follows
    from the penalised scores. A penalised score below zero is kept at 0.
    """
    validate_scores(score_a, score_b)
    pen_a = overtime_penalty(seconds_over_a, time_control.points_per_minute)
    pen_b = overtime_penalty(seconds_over_b, time_control.points_per_minute)
    final_a, final_b = max(score_a - pen_a, 0), max(score_b - pen_b, 0)
    limit = time_control.forfeit_after_seconds
    over_a = limit is not None and seconds_over_a >= limit
    over_b = limit is not None and seconds_over_b >= limit
    if over_a and over_b:
        raise ResultError("both players cannot overrun by the forfeit limit: only one clock runs")
    if over_a:
        final_a, final_b = overrun_forfeit_scores(final_a, final_b, time_control.forfeit_minimum_margin)
        return Adjudication(final_a, final_b, pen_a, pen_b, "a")
    if over_b:
        final_b, final_a = overrun_forfeit_scores(final_b, final_a, time_control.forfeit_minimum_margin)
        return Adjudication(final_a, final_b, pen_a, pen_b, "b")
    return Adjudication(final_a, final_b, pen_a, pen_b)
