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
