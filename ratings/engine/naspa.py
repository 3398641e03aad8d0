"""NASPA Elo rating (tsh's `nsa2008`), and the Elo family it belongs to.

Order inside one segment, as in the reference implementation:
newcomers' initial ratings; veterans' excess wins against opponents' pre-ratings
(a newcomer counts at its new, unrounded rating); conversion to points with
proration at band edges; acceleration bonus and feedback; floor; feedback added;
rounding (halves up). A long event is rated in segments, the rounded result of
one being the pre-rating of the next.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ratings.engine.common import (
    DEFAULT_CAREER_GAMES,
    NASPA_EXPECTATION,
    DivisionInput,
    DivisionRating,
    Expectation,
    FloatArray,
    IntArray,
    PlayerRating,
    RatingOptions,
    SegmentRating,
    game_wins,
    segment_bounds,
)
from ratings.engine.kernels import points_from_excess, segment_ratings
from ratings.engine.newcomers import rate_newcomers

ACCELERATION_POINTS_PER_GAME = 5.0
FEEDBACK_DIVISOR = 20.0
THIRD_RATED_CAP = 50.0


@dataclass(frozen=True)
class EloSystem:
    name: str
    expectation: Expectation
    prorate_at_band_edges: bool = True
    acceleration: float = 1.0  # share of the excess gain given as a bonus
    feedback: bool = True
    floor: float | None = 1.0
    split_long_events: bool = True


BoolArray = npt.NDArray[np.bool_]

NASPA = EloSystem(name="naspa", expectation=NASPA_EXPECTATION)


@dataclass
class SegmentArrays:
    """Per-player results of one segment (arrays indexed by player)."""

    new_rating: FloatArray  # rounded
    expected: FloatArray
    actual: FloatArray
    games: IntArray
    k: FloatArray  # 0 for newcomers and players without games
    bonus: FloatArray
    feedback: FloatArray
    excess: FloatArray
    performance: FloatArray  # newcomers' unrounded initial rating, NaN otherwise


def _points_from_excess(start: FloatArray, excess: FloatArray, career: IntArray, prorate: bool) -> FloatArray:
    """Rating after converting excess wins to points; a change crossing a band edge
    spends the excess up to the edge at the old K and the rest at the new K."""
    return points_from_excess(
        np.ascontiguousarray(start, dtype=np.float64),
        np.ascontiguousarray(excess, dtype=np.float64),
        np.ascontiguousarray(career, dtype=np.int64),
        prorate,
    )


def apply_excess(rating: float, excess: float, career_games: int, prorate: bool = True) -> float:
    """A veteran's unrounded rating after `excess` wins over expectation (no bonus)."""
    return float(
        _points_from_excess(
            np.array([float(rating)]),
            np.array([float(excess)]),
            np.array([career_games], dtype=np.int64),
            prorate,
        )[0]
    )


def rate_segment(
    pre: FloatArray,
    career: IntArray,
    player_a: IntArray,
    player_b: IntArray,
    wins_a: FloatArray,
    system: EloSystem = NASPA,
    third_rated: bool = False,
) -> SegmentArrays:
    """Rate one segment. Games must be in round order; pre 0 = newcomer."""
    n = pre.size
    m = player_a.size
    # Each game seen from both sides, still in round order.
    entry_player = np.empty(2 * m, dtype=np.int64)
    entry_player[0::2] = player_a
    entry_player[1::2] = player_b
    entry_opp = np.empty(2 * m, dtype=np.int64)
    entry_opp[0::2] = player_b
    entry_opp[1::2] = player_a
    entry_wins = np.empty(2 * m)
    entry_wins[0::2] = wins_a
    entry_wins[1::2] = 1.0 - wins_a

    games = np.bincount(entry_player, minlength=n).astype(np.int64)
    actual = np.bincount(entry_player, weights=entry_wins, minlength=n)
    veteran = pre != 0
    newcomers = np.flatnonzero(~veteran & (games > 0))

    effective = pre.copy()
    performance = np.full(n, np.nan)
    if newcomers.size:
        effective[newcomers] = rate_newcomers(
            pre, entry_player, entry_opp, actual, games, newcomers, system.expectation
        )
        performance[newcomers] = effective[newcomers]

    e = system.expectation.exact(effective[entry_player], effective[entry_opp])
    rounded, expected, excess, k, bonus, feedback = segment_ratings(
        pre,
        np.ascontiguousarray(career, dtype=np.int64),
        effective,
        games,
        actual,
        entry_player,
        entry_opp,
        e,
        system.prorate_at_band_edges,
        float(system.acceleration),
        ACCELERATION_POINTS_PER_GAME,
        system.feedback,
        FEEDBACK_DIVISOR,
        np.nan if system.floor is None else float(system.floor),
        third_rated,
        THIRD_RATED_CAP,
    )
    return SegmentArrays(
        new_rating=rounded,
        expected=expected,
        actual=actual,
        games=games,
        k=k,
        bonus=bonus,
        feedback=feedback,
        excess=excess,
        performance=performance,
    )


def _as_arrays(
    inp: DivisionInput, through_round: int | None
) -> tuple[FloatArray, IntArray, IntArray, IntArray, FloatArray, IntArray]:
    pre = np.array([float(r or 0) for r in inp.pre_ratings], dtype=np.float64)
    career = np.asarray(inp.career_games, dtype=np.int64).reshape(-1)
    a = np.asarray(inp.player_a, dtype=np.int64).reshape(-1)
    b = np.asarray(inp.player_b, dtype=np.int64).reshape(-1)
    rnd = np.asarray(inp.round_index, dtype=np.int64).reshape(-1)
    wins = game_wins(inp.score_a, inp.score_b)
    n = pre.size
    if a.size and (min(a.min(), b.min()) < 0 or max(a.max(), b.max()) >= n):
        raise ValueError("a game names a player index outside the division")
    if np.any(a == b):
        raise ValueError("a game pairs a player with themself")
    if rnd.size and rnd.min() < 0:
        raise ValueError("round indices are 0-based and cannot be negative")
    keep = np.ones(a.size, dtype=bool) if through_round is None else rnd < through_round
    order = np.argsort(rnd[keep], kind="stable")
    return pre, career, a[keep][order], b[keep][order], wins[keep][order], rnd[keep][order]


@dataclass
class EventArrays:
    """Per-player totals of one rated event (arrays indexed by player)."""

    new_rating: FloatArray
    expected: FloatArray
    actual: FloatArray
    games: IntArray
    k: FloatArray  # at the start of the player's first segment with games
    bonus: FloatArray
    feedback: FloatArray
    performance: FloatArray  # newcomers' unrounded initial rating, NaN otherwise
    segments: list[tuple[tuple[int, int], FloatArray, SegmentArrays]]  # bounds, pre, result


def rate_event_arrays(
    pre: FloatArray,
    career: IntArray,
    player_a: IntArray,
    player_b: IntArray,
    wins_a: FloatArray,
    round_index: IntArray,
    max_rounds: int,
    system: EloSystem = NASPA,
    third_rated: bool = False,
) -> EventArrays:
    """Rate one event on arrays; games in round order. Segments come from
    `max_rounds` (the scheduled rounds) even when fewer have been played."""
    n = pre.size
    if round_index.size and int(round_index.max()) >= max_rounds:
        raise ValueError(f"a game is in round {int(round_index.max()) + 1}, after max_rounds {max_rounds}")
    totals = EventArrays(
        new_rating=pre.copy(),
        expected=np.zeros(n),
        actual=np.zeros(n),
        games=np.zeros(n, dtype=np.int64),
        k=np.zeros(n),
        bonus=np.zeros(n),
        feedback=np.zeros(n),
        performance=np.full(n, np.nan),
        segments=[],
    )
    current = pre
    for first, last in segment_bounds(max_rounds, split=system.split_long_events):
        if round_index.size == 0 or (first == 0 and last >= int(round_index.max())):
            sel = slice(None)  # the usual case: one segment holds every game
        else:
            sel = (round_index >= first) & (round_index <= last)
        seg = rate_segment(current, career, player_a[sel], player_b[sel], wins_a[sel], system, third_rated)
        first_games = (totals.games == 0) & (seg.games > 0)
        totals.k[first_games] = seg.k[first_games]
        totals.expected += seg.expected
        totals.actual += seg.actual
        totals.games += seg.games
        totals.bonus += seg.bonus
        totals.feedback += seg.feedback
        rated_new = ~np.isnan(seg.performance)
        totals.performance[rated_new] = seg.performance[rated_new]
        totals.segments.append(((first, last), current, seg))
        current = seg.new_rating
    totals.new_rating = current
    return totals


def rate_division(
    inp: DivisionInput, options: RatingOptions | None = None, system: EloSystem = NASPA
) -> DivisionRating:
    """Rate one division: segments from the scheduled rounds, each from the last's result."""
    options = options or RatingOptions()
    pre, career, a, b, wins, rnd = _as_arrays(inp, options.through_round)
    if options.max_rounds is not None:
        max_rounds = options.max_rounds
    else:
        max_rounds = int(np.asarray(inp.round_index).max()) + 1 if len(inp.round_index) else 1
    ev = rate_event_arrays(pre, career, a, b, wins, rnd, max_rounds, system, options.third_rated)
    players = [
        PlayerRating(
            pre_rating=int(pre[i]),
            new_rating=int(ev.new_rating[i]),
            expected_wins=float(ev.expected[i]),
            actual_wins=float(ev.actual[i]),
            k=int(ev.k[i]),
            bonus=float(ev.bonus[i]),
            feedback=float(ev.feedback[i]),
            games=int(ev.games[i]),
            performance_rating=None if np.isnan(ev.performance[i]) else float(ev.performance[i]),
        )
        for i in range(pre.size)
    ]
    for (first, last), seg_pre, seg in ev.segments:
        for i in np.flatnonzero((seg.games > 0) | (seg.feedback > 0)).tolist():
            players[i].segments.append(
                SegmentRating(
                    first_round=first,
                    last_round=last,
                    pre_rating=int(seg_pre[i]),
                    new_rating=int(seg.new_rating[i]),
                    expected_wins=float(seg.expected[i]),
                    actual_wins=float(seg.actual[i]),
                    games=int(seg.games[i]),
                    k=int(seg.k[i]),
                    bonus=float(seg.bonus[i]),
                    feedback=float(seg.feedback[i]),
                )
            )
    return DivisionRating(players=players, segments=[b for b, _, _ in ev.segments])


def rate_naspa(
    pre_ratings: list[float | None],
    games: list[tuple[int, int, int, int, int]],
    career_games: list[int] | None = None,
    options: RatingOptions | None = None,
) -> DivisionRating:
    """Convenience form: games as (a, b, score_a, score_b, round_index) tuples."""
    career = career_games if career_games is not None else [DEFAULT_CAREER_GAMES] * len(pre_ratings)
    cols = list(zip(*games, strict=True)) if games else [(), (), (), (), ()]
    inp = DivisionInput(
        pre_ratings=pre_ratings,
        career_games=career,
        player_a=cols[0],
        player_b=cols[1],
        score_a=cols[2],
        score_b=cols[3],
        round_index=cols[4],
    )
    return rate_division(inp, options, NASPA)
