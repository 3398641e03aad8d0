"""Inputs, outputs and shared arithmetic of the Elo-family rating engines.

Players of a division are 0-based indices; games are parallel arrays. Byes and
forfeits are never passed: only games actually played are rated.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

# tsh's expectation constants.
NASPA_LOGISTIC_SCALE = 0.0031879
WESPA_SCALE = 172.0

# Career games assumed when a player's history is unknown (tsh's default).
DEFAULT_CAREER_GAMES = 100


@dataclass(frozen=True)
class DivisionInput:
    """One division (or event) to rate.

    pre_ratings: per player, 0 (or None) for an unrated newcomer.
    career_games: per player, rated games before the event.
    Games: player_a[i] met player_b[i] in 0-based round round_index[i] and the
    scores were score_a[i], score_b[i].
    """

    pre_ratings: Sequence[float | None]
    career_games: Sequence[int]
    player_a: Sequence[int]
    player_b: Sequence[int]
    score_a: Sequence[int]
    score_b: Sequence[int]
    round_index: Sequence[int]

    def __post_init__(self) -> None:
        if len(self.pre_ratings) != len(self.career_games):
            raise ValueError("pre_ratings and career_games differ in length")
        m = len(self.player_a)
        for name in ("player_b", "score_a", "score_b", "round_index"):
            if len(getattr(self, name)) != m:
                raise ValueError(f"{name} differs in length from player_a")


@dataclass(frozen=True)
class RatingOptions:
    max_rounds: int | None = None  # scheduled rounds (decides segments); None = last played
    third_rated: bool = False  # change divided by 3, no acceleration, capped at +-50
    through_round: int | None = None  # rate rounds 1..through_round only (1-based)


@dataclass
class SegmentRating:
    first_round: int  # 0-based, inclusive
    last_round: int
    pre_rating: int
    new_rating: int
    expected_wins: float
    actual_wins: float
    games: int
    k: int  # 0 for a newcomer
    bonus: float
    feedback: float


@dataclass
class PlayerRating:
    pre_rating: int  # 0 = was unrated
    new_rating: int  # 0 = still unrated (played no rated game)
    expected_wins: float
    actual_wins: float
    k: int  # multiplier at the start of the player's first rated segment; 0 for a newcomer
    bonus: float  # acceleration bonus, summed over segments
    feedback: float  # feedback received, summed over segments
    games: int
    performance_rating: float | None = None  # newcomers: the initial rating before rounding
    segments: list[SegmentRating] = field(default_factory=list)


@dataclass
class DivisionRating:
    players: list[PlayerRating]
    segments: list[tuple[int, int]]  # 0-based inclusive round ranges


def round_half_up(x: float) -> int:
    return math.floor(x + 0.5)


def segment_bounds(max_rounds: int, split: bool = True) -> list[tuple[int, int]]:
    """0-based inclusive round ranges rated one after the other.

    Up to 16 rounds one segment, 17-35 two, more three (n0 = last 0-based round).
    """
    n0 = max_rounds - 1
    if n0 < 16 or not split:
        return [(0, n0)]
    if n0 < 35:
        s1 = n0 // 2
        return [(0, s1), (s1 + 1, n0)]
    s1 = n0 // 3
    s2 = (2 * n0 + 1) // 3
    return [(0, s1), (s1 + 1, s2), (s2 + 1, n0)]


def multiplier(career_games: int, rating: float) -> int:
    """NASPA K from career games before the event and the current rating."""
    if career_games < 0:
        return 0
    if career_games < 50:
        return 30 if rating < 1800 else 24 if rating < 2000 else 15
    return 20 if rating < 1800 else 16 if rating < 2000 else 10


def group_by(owner: IntArray, count: int) -> tuple[IntArray, IntArray]:
    """Items grouped by owner (0 <= owner < count), each owner's in their given order: the order to
    take them in, and where each owner's group starts (count + 1 offsets)."""
    order = np.argsort(owner, kind="stable")
    starts = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(np.bincount(owner, minlength=count), out=starts[1:])
    return order, starts


def libm_exp(x: FloatArray) -> FloatArray:
    # numpy's SIMD exp can differ from the C library's in the last bit; the reference
    # implementation uses the C library's, and a newcomer's binary search can hinge on
    # that bit (e.g. 1-1 against 1400 and 1600), so exact results use the same function.
    return np.fromiter(map(math.exp, x.tolist()), dtype=np.float64, count=x.size)


# Ratings are almost always whole numbers, and then an expectation depends only on
# the whole difference: a table made with the same formula gives identical values
# without an exp per game.
_TABLE_REACH = 6000


@dataclass(frozen=True)
class Expectation:
    """Expected score of `me` against `opp`, as a function of d = me - opp."""

    name: str
    formula: Callable[[FloatArray, Callable[[FloatArray], FloatArray]], FloatArray]
    table: FloatArray = field(repr=False)

    @classmethod
    def build(
        cls, name: str, formula: Callable[[FloatArray, Callable[[FloatArray], FloatArray]], FloatArray]
    ) -> Expectation:
        diffs = np.arange(-_TABLE_REACH, _TABLE_REACH + 1, dtype=np.float64)
        return cls(name=name, formula=formula, table=formula(diffs, libm_exp))

    def _evaluate(self, me: FloatArray, opp: FloatArray, exp: Callable[[FloatArray], FloatArray]) -> FloatArray:
        diff = np.asarray(me, dtype=np.float64) - np.asarray(opp, dtype=np.float64)
        whole = diff.astype(np.int64)
        in_table = (whole == diff) & (np.abs(whole) <= _TABLE_REACH)
        result = self.table[np.where(in_table, whole, 0) + _TABLE_REACH]
        if not in_table.all():
            result[~in_table] = self.formula(diff[~in_table], exp)
        return result

    def exact(self, me: FloatArray, opp: FloatArray) -> FloatArray:
        """Bit for bit the reference's value."""
        return self._evaluate(me, opp, libm_exp)


def _naspa_formula(d: FloatArray, exp: Callable[[FloatArray], FloatArray]) -> FloatArray:
    return 1.0 - 1.0 / (1.0 + exp(NASPA_LOGISTIC_SCALE * d))


def _wespa_formula(d: FloatArray, exp: Callable[[FloatArray], FloatArray]) -> FloatArray:
    # (opp - me) is exactly -(me - opp) in floating point.
    return 1.0 / (1.0 + exp(-d / WESPA_SCALE))


NASPA_EXPECTATION = Expectation.build("naspa", _naspa_formula)
WESPA_EXPECTATION = Expectation.build("wespa", _wespa_formula)


def expected_score(me: float, opp: float) -> float:
    """NASPA expected score of one game (1800 v 1700 -> 0.57903)."""
    return 1.0 - 1.0 / (1.0 + math.exp(NASPA_LOGISTIC_SCALE * (me - opp)))


def wespa_expected_score(me: float, opp: float) -> float:
    return 1.0 / (1.0 + math.exp((opp - me) / WESPA_SCALE))


def game_wins(score_a: Sequence[int] | IntArray, score_b: Sequence[int] | IntArray) -> FloatArray:
    """Player a's result of each game: 1 win, 0.5 tie, 0 loss."""
    sa = np.asarray(score_a, dtype=np.float64)
    sb = np.asarray(score_b, dtype=np.float64)
    return (np.sign(sa - sb) + 1.0) / 2.0
