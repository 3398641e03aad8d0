"""NASPA newcomers: each unrated player's initial rating, found as the reference implementation finds it
(a binary search for the performance rating, all newcomers of a division iterated together)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
import numpy.typing as npt

from ratings.engine.common import Expectation, FloatArray, IntArray

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


@cache
def _last_midpoint() -> IntArray:
    """For each threshold t, the midpoint the reference's binary search returns when
    f(x) < 0 exactly for x < t: it returns the last midpoint it tested."""
    result = np.zeros(PERFORMANCE_SEARCH_HIGH + 1, dtype=np.int64)
    for t in range(1, PERFORMANCE_SEARCH_HIGH + 1):
        low, high, mid = PERFORMANCE_SEARCH_LOW, PERFORMANCE_SEARCH_HIGH, 0
        while high - low > 1:
            mid = (low + high) // 2
            if mid < t:
                low = mid
            else:
                high = mid
        result[t] = mid
    return result


# Points tried per newcomer and pass: 3000 is narrowed to one in three passes.
_SEARCH_POINTS = 16
# Around a guess: the neighbours, then ever wider steps, so that a threshold that
# moved a little is found at once and one that moved far is still well bracketed.
_NEAR = np.arange(-4, 4)
_FAR = 2 ** np.arange(3, 11)
_GUESS_WINDOW = np.concatenate((-_FAR[::-1], _NEAR, _FAR))
# Well above any difference between numpy's exp and the C library's, summed over games.
_EXACTNESS_MARGIN = 1e-9


def _excess_at(
    points: IntArray,
    nc_of_entry: IntArray,
    opp_rating: FloatArray,
    target: FloatArray,
    expectation: Expectation,
    exact: bool,
) -> FloatArray:
    """f(x) = sum of expectations at x minus target wins, for each newcomer and point.

    Summed game by game in round order, as the reference adds its terms."""
    k, n_points = points.shape
    me = points[nc_of_entry].astype(np.float64)
    opp = opp_rating[:, None]
    e = expectation.exact(me, opp) if exact else expectation.fast(me, opp)
    bins = (nc_of_entry[:, None] * n_points + np.arange(n_points)).ravel()
    sums = np.bincount(bins, weights=e.ravel(), minlength=k * n_points).reshape(k, n_points)
    return sums - target[:, None]


def _narrow(
    low: IntArray,
    high: IntArray,
    points_for: Callable[[IntArray, IntArray, IntArray], IntArray],
    nc_of_entry: IntArray,
    opp_rating: FloatArray,
    target: FloatArray,
    expectation: Expectation,
) -> None:
    """One pass: evaluate f at increasing points inside (low, high) of each open
    bracket and shrink it to the neighbouring points where f changes sign."""
    rows = np.flatnonzero(high - low > 1)
    if rows.size == 0:
        return
    position = np.full(low.size, -1, dtype=np.int64)
    position[rows] = np.arange(rows.size)
    sub = position[nc_of_entry]
    in_rows = sub >= 0
    lo, hi = low[rows], high[rows]
    points = np.clip(points_for(rows, lo, hi), (lo + 1)[:, None], (hi - 1)[:, None])
    args = (points, sub[in_rows], opp_rating[in_rows], target[rows], expectation)
    f = _excess_at(*args, exact=False)
    if np.any(np.abs(f) < _EXACTNESS_MARGIN):
        f = _excess_at(*args, exact=True)
    below = (f < 0).sum(axis=1)  # points are increasing and f is non-decreasing
    last = points.shape[1]
    at = np.arange(rows.size)
    low[rows] = np.where(below > 0, points[at, np.maximum(below - 1, 0)], lo)
    high[rows] = np.where(below < last, points[at, np.minimum(below, last - 1)], hi)


def _even_points(rows: IntArray, lo: IntArray, hi: IntArray) -> IntArray:
    steps = np.arange(1, _SEARCH_POINTS + 1)
    return lo[:, None] + (hi - lo)[:, None] * steps // (_SEARCH_POINTS + 1)


def _performance_search(
    nc_of_entry: IntArray,
    opp_rating: FloatArray,
    target: FloatArray,
    expectation: Expectation,
    guess: IntArray | None = None,
    unchanged: BoolArray | None = None,
) -> tuple[FloatArray, IntArray]:
    """The reference's binary search on [0, 3000], for every newcomer at once.

    f is non-decreasing, so the search's path depends only on the threshold, the
    first whole x with f(x) >= 0 (3000 if none below it). Find the threshold with
    few many-point passes, trying first around a guess (the last step's
    threshold); rows marked `unchanged` keep their guess. Returns the search's
    results and the thresholds."""
    k = target.size
    low = np.full(k, PERFORMANCE_SEARCH_LOW, dtype=np.int64)  # f(low) < 0, or the start
    high = np.full(k, PERFORMANCE_SEARCH_HIGH, dtype=np.int64)  # f(high) >= 0, or the end
    search = (nc_of_entry, opp_rating, target, expectation)
    if guess is not None:
        if unchanged is not None:
            low[unchanged] = guess[unchanged] - 1
            high[unchanged] = guess[unchanged]
        window = _GUESS_WINDOW

        def around_guess(rows: IntArray, lo: IntArray, hi: IntArray) -> IntArray:
            return guess[rows][:, None] + window

        _narrow(low, high, around_guess, *search)
    while np.any(high - low > 1):
        _narrow(low, high, _even_points, *search)
    return _last_midpoint()[high].astype(np.float64), high


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

    # A newcomer's search depends only on its opponents' values: when none of them
    # moved since the last search, its threshold stands.
    opp_newcomer = position[opp]
    thresholds: IntArray | None = None
    searched_with = current

    def step(values: FloatArray, capped_by_newcomers: bool) -> FloatArray:
        nonlocal thresholds, searched_with
        unchanged = None
        if thresholds is not None:
            moved = values != searched_with
            moved_entry = (opp_newcomer >= 0) & moved[np.maximum(opp_newcomer, 0)]
            unchanged = np.ones(k, dtype=bool)
            unchanged[nc_of_entry[moved_entry]] = False
        by_player = pre.copy()
        by_player[newcomers] = values
        r, thresholds = _performance_search(nc_of_entry, by_player[opp], target, expectation, thresholds, unchanged)
        searched_with = values
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
