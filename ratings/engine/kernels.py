"""Compiled loops of the engine, where a division's arithmetic is many small steps that numpy would run
one array call at a time.

They compute exactly what the reference computes, in its order: sums game by game, `exp` from the
C library (numba's `math.exp` is the C library's), no fast-math, so results are bit for bit those
of the numpy forms they replace.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ratings.engine.common import NASPA_LOGISTIC_SCALE, WESPA_SCALE

# The expectation formulas (ratings.engine.common), by name.
FORMULAS = {"naspa": 0, "wespa": 1}


@njit(cache=True)
def _expectation(diff: float, table: np.ndarray, reach: int, formula: int) -> float:
    """As Expectation.exact: the table for a whole difference within its reach, else the formula."""
    whole = np.int64(diff)
    if whole == diff and abs(whole) <= reach:
        return table[whole + reach]
    if formula == 0:
        return 1.0 - 1.0 / (1.0 + math.exp(NASPA_LOGISTIC_SCALE * diff))
    return 1.0 / (1.0 + math.exp(-diff / WESPA_SCALE))


@njit(cache=True)
def _expected_wins(x: float, opp_rating: np.ndarray, begin: int, end: int, table: np.ndarray, reach: int, formula: int):
    """The expectations at rating x against opp_rating[begin:end], summed in their order."""
    total = 0.0
    for j in range(begin, end):
        total += _expectation(x - opp_rating[j], table, reach, formula)
    return total


@njit(cache=True)
def newcomer_search(
    starts: np.ndarray, opp_rating: np.ndarray, target: np.ndarray, table: np.ndarray, formula: int
) -> np.ndarray:
    """For each newcomer i (its opponents' ratings opp_rating[starts[i]:starts[i + 1]], in round
    order), the reference's binary search on [0, 3000] for f(x) = sum of expectations at x - target[i]:
    the last midpoint it tests."""
    k = starts.size - 1
    reach = (table.size - 1) // 2
    out = np.empty(k, dtype=np.float64)
    for i in range(k):
        low, high, mid = 0, 3000, 0
        while high - low > 1:
            mid = (low + high) // 2
            total = _expected_wins(mid, opp_rating, starts[i], starts[i + 1], table, reach, formula)
            if total - target[i] < 0:
                low = mid
            else:
                high = mid
        out[i] = mid
    return out


@njit(cache=True)
def performance_search(
    starts: np.ndarray, opp_rating: np.ndarray, target: np.ndarray, table: np.ndarray, formula: int
) -> np.ndarray:
    """For each player i (its opponents' ratings opp_rating[starts[i]:starts[i + 1]], in round order),
    the whole rating in [0, 3000] at which the expected wins reach target[i]: the least x whose sum of
    expectations is not below the target (3000 if none), found by bisection; NaN for a player without
    games."""
    k = starts.size - 1
    reach = (table.size - 1) // 2
    out = np.empty(k, dtype=np.float64)
    for i in range(k):
        if starts[i + 1] == starts[i]:
            out[i] = np.nan
            continue
        low, high = 0, 3000
        while high - low > 1:
            mid = (low + high) // 2
            total = _expected_wins(mid, opp_rating, starts[i], starts[i + 1], table, reach, formula)
            if total < target[i]:
                low = mid
            else:
                high = mid
        # The search never tests 0 itself.
        if high == 1 and _expected_wins(0, opp_rating, starts[i], starts[i + 1], table, reach, formula) >= target[i]:
            high = 0
        out[i] = high
    return out


@njit(cache=True)
def _multiplier(career_games: int, rating: float) -> float:
    """NASPA K from career games before the event and the current rating (as common.multiplier)."""
    if career_games < 0:
        return 0.0
    few = career_games < 50
    if rating < 1800:
        return 30.0 if few else 20.0
    if rating < 2000:
        return 24.0 if few else 16.0
    return 15.0 if few else 10.0


@njit(cache=True)
def _points(s: float, x: float, c: int, prorate: bool) -> float:
    """One rating after converting its excess wins to points (see points_from_excess)."""
    while x != 0:
        m = _multiplier(c, s)
        r = s + m * x
        if not prorate or _multiplier(c, r) == m:
            return r
        # Edges: 1800 and 2000 going up; 1999 and 1799 going down.
        if s < 1800:
            edge = 1800.0
        elif s < 2000:
            edge = 2000.0 if x > 0 else 1799.0
        else:
            edge = 1999.0
        x = x - (edge - s) / (m if m != 0 else 1.0)
        s = edge
    return s


@njit(cache=True)
def points_from_excess(start: np.ndarray, excess: np.ndarray, career: np.ndarray, prorate: bool) -> np.ndarray:
    """Each rating after converting its excess wins to points; with `prorate`, a change crossing a
    band edge spends the excess up to the edge at the old K and the rest at the new K."""
    out = start.copy()
    for i in range(start.size):
        out[i] = _points(start[i], excess[i], career[i], prorate)
    return out


@njit(cache=True)
def segment_ratings(
    pre: np.ndarray,
    career: np.ndarray,
    effective: np.ndarray,
    games: np.ndarray,
    actual: np.ndarray,
    entry_player: np.ndarray,
    entry_opp: np.ndarray,
    e: np.ndarray,
    prorate: bool,
    acceleration: float,
    points_per_game: float,
    feedback_on: bool,
    feedback_divisor: float,
    floor: float,  # NaN: no floor
    third_rated: bool,
    third_cap: float,
):
    """One NASPA segment once every entry's expectation `e` is known (entries: each game from both
    sides, in round order): expected wins, excess, K, new ratings, bonus and feedback, each summed
    in the reference's order. Returns (rounded, expected, excess, k, bonus, feedback)."""
    n = pre.size
    entries = entry_player.size
    expected = np.zeros(n)
    excess = actual.copy()
    for i in range(entries):  # game by game in round order, as the reference adds and subtracts
        expected[entry_player[i]] += e[i]
        excess[entry_player[i]] -= e[i]
    k = np.zeros(n)
    new = effective.copy()
    for p in range(n):
        if pre[p] == 0:
            excess[p] = 0.0
            continue
        if games[p] > 0:
            k[p] = _multiplier(career[p], pre[p])
        new[p] = _points(pre[p], excess[p], career[p], prorate)
        if third_rated:
            new[p] = pre[p] + (new[p] - pre[p]) / 3.0

    bonus = np.zeros(n)
    feedback = np.zeros(n)
    if acceleration != 0 and not third_rated:
        any_bonus = False
        for p in range(n):
            gain = acceleration * (new[p] - pre[p] - points_per_game * games[p])
            if pre[p] != 0 and gain > 0:
                bonus[p] = gain
                any_bonus = True
            new[p] += bonus[p]
        if feedback_on and any_bonus:
            # By giving player, then by round: each player's entries in their order.
            starts = np.zeros(n + 1, dtype=np.int64)
            for i in range(entries):
                starts[entry_player[i] + 1] += 1
            for p in range(n):
                starts[p + 1] += starts[p]
            filled = starts[:-1].copy()
            grouped = np.empty(entries, dtype=np.int64)
            for i in range(entries):
                grouped[filled[entry_player[i]]] = i
                filled[entry_player[i]] += 1
            for giver in range(n):
                if bonus[giver] <= 0:
                    continue
                share = bonus[giver] / feedback_divisor
                for j in range(starts[giver], starts[giver + 1]):
                    receiver = entry_opp[grouped[j]]
                    if pre[receiver] != 0:
                        feedback[receiver] += share

    rounded = np.empty(n)
    for p in range(n):
        if pre[p] != 0 and not np.isnan(floor):
            new[p] = max(new[p], floor)
        new[p] += feedback[p]
        rounded[p] = np.floor(new[p] + 0.5)
        if pre[p] != 0 and third_rated:
            rounded[p] = min(max(rounded[p], pre[p] - third_cap), pre[p] + third_cap)
        if pre[p] == 0 and games[p] == 0:
            rounded[p] = 0.0  # a newcomer without a rated game stays unrated
    return rounded, expected, excess, k, bonus, feedback


def warm_up() -> None:
    """Loads (or compiles) every loop here once, on tiny inputs."""
    one = np.ones(1)
    table = np.zeros(3)
    starts = np.array([0, 1], dtype=np.int64)
    newcomer_search(starts, one, one, table, 0)
    performance_search(starts, one, one, table, 0)
    points_from_excess(one, one, np.ones(1, dtype=np.int64), True)
    entries = np.zeros(1, dtype=np.int64)
    segment_ratings(
        one, entries, one, entries, one, entries, entries, one, True, 1.0, 5.0, True, 20.0, 1.0, False, 50.0
    )
