"""The compiled newcomer search against the same search on arrays, and against the reference's loop."""

import math

import numpy as np
import pytest

from ratings.engine.common import NASPA_EXPECTATION, WESPA_EXPECTATION, Expectation
from ratings.engine.newcomers import _performance_search


def _reference(opps: list[float], target: float, expectation: Expectation) -> int:
    """tsh's binary search, one newcomer at a time, with the C library's exp."""
    low, high, mid = 0, 3000, 0
    while high - low > 1:
        mid = (low + high) // 2
        total = 0.0
        for opp in opps:
            total += float(expectation.exact(np.array([float(mid)]), np.array([opp]))[0])
        if total - target < 0:
            low = mid
        else:
            high = mid
    return mid


@pytest.mark.parametrize("expectation", [NASPA_EXPECTATION, WESPA_EXPECTATION], ids=["naspa", "wespa"])
def test_compiled_search_matches_the_array_search_and_the_reference(expectation):
    rng = np.random.default_rng(5)
    games = rng.integers(1, 12, 300)
    starts = np.concatenate(([0], np.cumsum(games)))
    # Whole ratings (the table) and unrounded newcomers' values (the formula), far apart and close.
    size = int(starts[-1])
    opp = np.where(rng.random(size) < 0.5, rng.integers(300, 2400, size), rng.uniform(300, 2400, size))
    wins = np.array([rng.integers(0, g + 1) for g in games], dtype=np.float64)
    target = np.where(wins == 0, 0.05 * games, np.where(wins == games, 0.95 * games, wins))
    compiled = _performance_search(starts, opp, target, expectation)
    # The same expectation under a name the compiled search does not know: searched on arrays.
    same = Expectation(name=f"{expectation.name}-copy", formula=expectation.formula, table=expectation.table)
    on_arrays = _performance_search(starts, opp, target, same)
    assert np.array_equal(compiled, on_arrays)
    for i in range(0, 300, 7):
        expected = _reference(opp[starts[i] : starts[i + 1]].tolist(), target[i], expectation)
        assert compiled[i] == expected
    assert len(set(compiled.tolist())) > 50  # the inputs spread the results, so the comparison means something


def test_compiled_exp_is_the_c_library_exp():
    from ratings.engine.kernels import _expectation

    table = NASPA_EXPECTATION.table
    reach = (table.size - 1) // 2
    for diff in np.random.default_rng(1).uniform(-7000, 7000, 2000).tolist():
        assert _expectation(diff, table, reach, 0) == 1.0 - 1.0 / (1.0 + math.exp(0.0031879 * diff))


def _least_reaching(opps: list[float], target: float, expectation: Expectation) -> float:
    """The least whole rating in [0, 3000] whose expected wins reach the target, by trying each."""
    for x in range(3001):
        total = 0.0
        for opp in opps:
            total += float(expectation.exact(np.array([float(x)]), np.array([opp]))[0])
        if total >= target:
            return float(x)
    return 3000.0


def test_performance_ratings_are_the_least_rating_reaching_the_wins():
    from ratings.services.systems import performance_ratings

    rng = np.random.default_rng(11)
    n, m = 12, 40
    a = rng.integers(0, n, m)
    b = (a + rng.integers(1, n, m)) % n
    entry_player, entry_opp = np.concatenate((a, b)), np.concatenate((b, a))
    wins = (rng.random(m) < 0.5).astype(float)
    entry_wins = np.concatenate((wins, 1 - wins))
    rating = rng.integers(300, 2400, n).astype(float)
    rating[0] = 2900.0  # beaten by everyone: the search ends at its top
    games = np.bincount(entry_player, minlength=n)
    actual = np.bincount(entry_player, weights=entry_wins, minlength=n)
    for system, expectation in (("naspa", NASPA_EXPECTATION), ("wespa", WESPA_EXPECTATION)):
        found = performance_ratings(system, rating[entry_opp], entry_player, actual, games)
        for i in range(n):
            g = games[i]
            target = 0.05 * g if actual[i] == 0 else 0.95 * g if actual[i] == g else actual[i]
            assert found[i] == _least_reaching(rating[entry_opp][entry_player == i].tolist(), target, expectation)


def test_performance_rating_of_a_lone_loss_to_a_weak_player_is_zero_whoever_else_played():
    # One loss to an 848: 5% of a game is reached at 0 already. The answer must not depend on
    # whether other players of the division were still being searched.
    from ratings.services.systems import performance_ratings

    alone = performance_ratings(
        "naspa", np.array([848.0, 0.0]), np.array([0, 1]), np.array([0.0, 1.0]), np.array([1, 1])
    )
    assert alone[0] == 0.0
    crowd_opp = np.array([848.0, 0.0, 1500.0, 1700.0, 1700.0, 1500.0])
    crowd_player = np.array([0, 1, 2, 3, 3, 2])
    crowd = performance_ratings(
        "naspa", crowd_opp, crowd_player, np.array([0.0, 1.0, 1.0, 1.0]), np.array([1, 1, 2, 2])
    )
    assert crowd[0] == 0.0
    assert np.isnan(
        performance_ratings(
            "naspa", np.array([]), np.array([], dtype=np.int64), np.zeros(1), np.zeros(1, dtype=np.int64)
        )[0]
    )


def _excess_to_points(s: float, x: float, career: int) -> float:
    """The band-edge rule one step at a time, with the scalar multiplier."""
    from ratings.engine.common import multiplier

    while x != 0:
        m = float(multiplier(career, s))
        r = s + m * x
        if multiplier(career, r) == m:
            return r
        edge = 1800.0 if s < 1800 else (2000.0 if x > 0 else 1799.0) if s < 2000 else 1999.0
        x -= (edge - s) / (m or 1.0)
        s = edge
    return s


def test_excess_crossing_band_edges_is_spent_at_each_band_s_multiplier():
    from ratings.engine.naspa import _points_from_excess

    rng = np.random.default_rng(8)
    start = np.concatenate(
        (rng.choice([1799.0, 1800.0, 1999.0, 2000.0, 1790.0, 2010.0], 300), rng.uniform(300, 2600, 300))
    )
    excess = rng.normal(0, 4, start.size)
    excess[::17] = 0.0
    career = rng.integers(-1, 120, start.size)
    found = _points_from_excess(start, excess, career, True)
    assert found.tolist() == [
        _excess_to_points(s, x, c) for s, x, c in zip(start, excess, career.tolist(), strict=True)
    ]
    crossed = ((start < 1800) != (found < 1800)) | ((start < 2000) != (found < 2000))
    assert crossed.sum() > 20  # edges are crossed, so proration is exercised
    plain = _points_from_excess(start, excess, career, False)
    k = np.where(career < 0, 0.0, np.where(start < 1800, 30.0, np.where(start < 2000, 24.0, 15.0)))
    k = np.where((career >= 50) & (career >= 0), np.where(start < 1800, 20.0, np.where(start < 2000, 16.0, 10.0)), k)
    assert np.array_equal(plain, start + k * excess)


def test_a_worker_loads_the_compiled_loops_as_it_starts():
    from celery.signals import worker_process_init

    from ratings.apps import _warm_up_engine
    from ratings.engine import kernels

    assert any(receiver is _warm_up_engine for _, receiver in worker_process_init.receivers)
    kernels.warm_up()
    # A division with a newcomer, then its performance ratings: the engine's own calls.
    from ratings.engine.naspa import rate_naspa
    from ratings.services.systems import performance_ratings

    games = [(0, 1, 400, 300, 0), (2, 3, 350, 420, 0), (0, 2, 380, 390, 1), (1, 3, 400, 399, 1)]
    rate_naspa([1500, 0, 1700, 1600], games)
    performance_ratings("naspa", np.array([1500.0, 1600.0]), np.array([0, 1]), np.array([1.0, 0.0]), np.array([1, 1]))
    loops = (kernels.newcomer_search, kernels.performance_search, kernels.points_from_excess, kernels.segment_ratings)
    for loop in loops:
        assert len(loop.signatures) == 1  # warmed up for the very types the engine passes
