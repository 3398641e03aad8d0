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
            total = 0.0
            for j in range(starts[i], starts[i + 1]):
                total += _expectation(mid - opp_rating[j], table, reach, formula)
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
            total = 0.0
            for j in range(starts[i], starts[i + 1]):
                total += _expectation(mid - opp_rating[j], table, reach, formula)
            if total < target[i]:
                low = mid
            else:
                high = mid
        if high == 1:  # the search never tests 0 itself
            total = 0.0
            for j in range(starts[i], starts[i + 1]):
                total += _expectation(0.0 - opp_rating[j], table, reach, formula)
            if total >= target[i]:
                high = 0
        out[i] = high
    return out


@njit(cache=True)
def _multiplier(career_games: int, rating: float) -> float:
    """As ratings.engine.common.multipliers, for one player."""
    if career_games < 0:
        return 0.0
    few = career_games < 50
    if rating < 1800:
        return 30.0 if few else 20.0
    if rating < 2000:
        return 24.0 if few else 16.0
    return 15.0 if few else 10.0


@njit(cache=True)
def points_from_excess(start: np.ndarray, excess: np.ndarray, career: np.ndarray, prorate: bool) -> np.ndarray:
    """Each rating after converting its excess wins to points; with `prorate`, a change crossing a
    band edge spends the excess up to the edge at the old K and the rest at the new K."""
    out = start.copy()
    for i in range(start.size):
        s, x, c = start[i], excess[i], career[i]
        while x != 0:
            m = _multiplier(c, s)
            r = s + m * x
            if not prorate or _multiplier(c, r) == m:
                s = r
                break
            # Edges: 1800 and 2000 going up; 1999 and 1799 going down.
            if s < 1800:
                edge = 1800.0
            elif s < 2000:
                edge = 2000.0 if x > 0 else 1799.0
            else:
                edge = 1999.0
            x = x - (edge - s) / (m if m != 0 else 1.0)
            s = edge
        out[i] = s
    return out
