"""NASPA Elo rating (tsh's `nsa2008`), and the Elo family it belongs to.

Order inside one segment, as in the reference implementation:
newcomers' initial ratings; veterans' excess wins against opponents' pre-ratings
(a newcomer counts at its new, unrounded rating); conversion to points with
proration at band edges; acceleration bonus and feedback; floor; feedback added;
rounding (halves up). A long event is rated in segments, the rounded result of
one being the pre-rating of the next.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

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
    multipliers,
    segment_bounds,
)

# Newcomer iteration limits of the reference implementation.
MAX_NEWCOMER_STEPS = 50
PERFORMANCE_SEARCH_LOW = 0
PERFORMANCE_SEARCH_HIGH = 3000
NEWCOMER_MINIMUM = 500.0
NEWCOMER_CAP_PER_WIN_FRACTION = 400.0
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


def _rate_newcomers(
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


def _points_from_excess(start: FloatArray, excess: FloatArray, career: IntArray, prorate: bool) -> FloatArray:
    """Rating after converting excess wins to points; a change crossing a band edge
    spends the excess up to the edge at the old K and the rest at the new K."""
    rating = start.copy()
    excess = excess.copy()
    active = excess != 0
    while active.any():
        s = rating[active]
        x = excess[active]
        c = career[active]
        m = multipliers(c, s)
        r = s + m * x
        if not prorate:
            rating[active] = r
            break
        done = multipliers(c, r) == m
        # Edges: 1800 and 2000 going up; 1999 and 1799 going down.
        edge = np.where(s < 1800, 1800.0, np.where(s < 2000, np.where(x > 0, 2000.0, 1799.0), 1999.0))
        rest = x - (edge - s) / np.where(m == 0, 1.0, m)
        rating[active] = np.where(done, r, edge)
        excess[active] = np.where(done, 0.0, rest)
        active = excess != 0
    return rating


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
        effective[newcomers] = _rate_newcomers(
            pre, entry_player, entry_opp, actual, games, newcomers, system.expectation
        )
        performance[newcomers] = effective[newcomers]

    e = system.expectation.exact(effective[entry_player], effective[entry_opp])
    expected = np.bincount(entry_player, weights=e, minlength=n)
    # Subtracting game by game in round order, as the reference does, keeps every bit.
    excess = actual.copy()
    np.subtract.at(excess, entry_player, e)
    excess[~veteran] = 0.0

    k = np.where(veteran & (games > 0), multipliers(career, pre), 0.0)
    new = effective.copy()
    new[veteran] = _points_from_excess(pre[veteran], excess[veteran], career[veteran], system.prorate_at_band_edges)
    if third_rated:
        new[veteran] = pre[veteran] + (new[veteran] - pre[veteran]) / 3.0

    bonus = np.zeros(n)
    feedback = np.zeros(n)
    if system.acceleration and not third_rated:
        gain = system.acceleration * (new - pre - ACCELERATION_POINTS_PER_GAME * games)
        gets_bonus = veteran & (gain > 0)
        bonus[gets_bonus] = gain[gets_bonus]
        new += bonus
        if system.feedback and gets_bonus.any():
            share = bonus / FEEDBACK_DIVISOR
            # Sum in the reference's order: by giving player, then by round.
            order = np.argsort(entry_player, kind="stable")
            giver = entry_player[order]
            receiver = entry_opp[order]
            flows = gets_bonus[giver] & veteran[receiver]
            feedback = np.bincount(receiver[flows], weights=share[giver[flows]], minlength=n)

    if system.floor is not None:
        new[veteran] = np.maximum(new[veteran], system.floor)
    new += feedback
    rounded = np.floor(new + 0.5)
    if third_rated:
        rounded[veteran] = np.clip(rounded[veteran], pre[veteran] - THIRD_RATED_CAP, pre[veteran] + THIRD_RATED_CAP)
    # A newcomer without a rated game stays unrated.
    rounded[~veteran & (games == 0)] = 0.0
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
