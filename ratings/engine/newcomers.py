"""NASPA newcomers: each unrated player's initial rating, found as the reference implementation finds it
(a binary search for the performance rating, all newcomers of a division iterated together)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ratings.engine.common import Expectation, FloatArray, IntArray, group_by
from ratings.engine.kernels import FORMULAS as _FORMULAS
from ratings.engine.kernels import newcomer_search as _search

# Newcomer iteration limits of the reference implementation.
MAX_NEWCOMER_STEPS = 50
PERFORMANCE_SEARCH_LOW = 0
PERFORMANCE_SEARCH_HIGH = 3000
NEWCOMER_MINIMUM = 500.0
NEWCOMER_CAP_PER_WIN_FRACTION = 400.0

BoolArray = npt.NDArray[np.bool_]


def _as_tsh_string(x: FloatArray) -> FloatArray:
    # The reference builds its performance function as source text, so the target
    # wins pass through Perl's 15-significant-digit number formatting.
    return np.array([float(f"{v:.15g}") for v in x.tolist()], dtype=np.float64)


def _performance_search(
    starts: IntArray, opp_rating: FloatArray, target: FloatArray, expectation: Expectation
) -> FloatArray:
    """The reference's binary search on [0, 3000] for each newcomer: the last midpoint tested,
    where f(x) is the sum of the expectations at x against the opponents met, minus the target.
    opp_rating: grouped by newcomer (`starts`), each group in round order."""
    opp_rating = np.ascontiguousarray(opp_rating, dtype=np.float64)
    target = np.ascontiguousarray(target, dtype=np.float64)
    formula = _FORMULAS.get(expectation.name)
    if formula is not None:
        return _search(starts, opp_rating, target, expectation.table, formula)
    # Another expectation (a system being tried out): the same search on arrays, all newcomers at once.
    k = target.size
    owner = np.repeat(np.arange(k), np.diff(starts))
    low = np.full(k, PERFORMANCE_SEARCH_LOW, dtype=np.int64)
    high = np.full(k, PERFORMANCE_SEARCH_HIGH, dtype=np.int64)
    mid = np.zeros(k, dtype=np.int64)
    while np.any(high - low > 1):
        searching = high - low > 1
        mid = np.where(searching, (low + high) // 2, mid)
        e = expectation.exact(mid[owner].astype(np.float64), opp_rating)
        below = np.bincount(owner, weights=e, minlength=k) - target < 0
        low = np.where(searching & below, mid, low)
        high = np.where(searching & ~below, mid, high)
    return mid.astype(np.float64)


def rate_newcomers(
    pre: FloatArray,
    entry_player: IntArray,
    entry_opp: IntArray,
    wins: FloatArray,
    games: IntArray,
    newcomers: IntArray,
    expectation: Expectation,
) -> FloatArray:
    """Initial ratings of the newcomers (who all have games), iterated together."""
    n = pre.size
    k = newcomers.size
    position = np.full(n, -1, dtype=np.int64)
    position[newcomers] = np.arange(k)
    mine = position[entry_player] >= 0
    nc_of_entry = position[entry_player[mine]]
    opp = entry_opp[mine]
    opp_rated = pre[opp] != 0
    g = games[newcomers].astype(np.float64)
    w = wins[newcomers]

    # Start at the mean of rated opponents' ratings, 1500 if none.
    rated_sum = np.bincount(nc_of_entry, weights=np.where(opp_rated, pre[opp], 0.0), minlength=k)
    rated_count = np.bincount(nc_of_entry, weights=opp_rated.astype(np.float64), minlength=k)
    current = np.where(rated_count > 0, rated_sum / np.maximum(rated_count, 1.0), 1500.0)

    # A perfect or winless record is searched as 95% or 5% of the games.
    target = np.where(w == 0, g * 0.05, np.where(w == g, g * 0.95, w))
    target = _as_tsh_string(target)

    # Cap: strongest rated opponent (else strongest newcomer opponent) + 400 x win fraction.
    max_rated = np.zeros(k)
    np.maximum.at(max_rated, nc_of_entry, np.where(opp_rated, pre[opp], 0.0))
    cap_bonus = NEWCOMER_CAP_PER_WIN_FRACTION * w / g

    # The searches read the opponents newcomer by newcomer, each one's in round order.
    grouped, starts = group_by(nc_of_entry, k)
    opp_grouped = opp[grouped]

    def step(values: FloatArray, capped_by_newcomers: bool) -> FloatArray:
        by_player = pre.copy()
        by_player[newcomers] = values
        r = _performance_search(starts, by_player[opp_grouped], target, expectation)
        r = np.maximum(r, NEWCOMER_MINIMUM)
        max_or = max_rated
        if capped_by_newcomers:
            max_unrated = np.zeros(k)
            np.maximum.at(max_unrated, nc_of_entry, np.where(opp_rated, 0.0, by_player[opp]))
            max_or = np.where(max_rated > 0, max_rated, max_unrated)
        return np.where(max_or > 0, np.minimum(r, max_or + cap_bonus), r)

    # The steps are a deterministic function of the current values, so once a state
    # repeats the rest of the sequence is known: skip ahead instead of stepping.
    states = [current]
    seen = {current.tobytes(): 0}
    for i in range(1, MAX_NEWCOMER_STEPS + 1):
        new = step(current, capped_by_newcomers=True)
        if np.array_equal(new, current):
            return new
        current = new
        first = seen.setdefault(current.tobytes(), i)
        if first != i:  # a cycle of period i - first, which never settles
            current = states[first + (MAX_NEWCOMER_STEPS - first) % (i - first)]
            break
        states.append(current)

    # Not settled (newcomers feeding each other): average 50 further steps.
    states = [current]
    seen = {current.tobytes(): 0}
    while len(states) <= MAX_NEWCOMER_STEPS:
        current = step(current, capped_by_newcomers=False)
        first = seen.setdefault(current.tobytes(), len(states))
        if first != len(states):
            period = len(states) - first
            while len(states) <= MAX_NEWCOMER_STEPS:
                states.append(states[len(states) - period])
            break
        states.append(current)
    total = np.zeros(k)
    for values in states[1:]:
        total += values  # in step order, as the reference sums them
    return total / MAX_NEWCOMER_STEPS
