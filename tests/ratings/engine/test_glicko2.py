"""Glicko-2 against Glickman's worked example."""

from __future__ import annotations

import pytest

from ratings.engine.glicko2 import Glicko2Rating, update


def test_glickman_example() -> None:
    player = Glicko2Rating(1500, 200, 0.06)
    opponents = [Glicko2Rating(1400, 30), Glicko2Rating(1550, 100), Glicko2Rating(1700, 300)]
    new = update(player, opponents, [1, 0, 0], tau=0.5)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_games_only_widens_the_deviation() -> None:
    new = update(Glicko2Rating(1500, 200, 0.06), [], [])
    assert new.rating == 1500
    assert new.rd == pytest.approx(200.2714, abs=0.001)
    assert new.volatility == 0.06


def test_one_score_per_opponent() -> None:
    with pytest.raises(ValueError):
        update(Glicko2Rating(), [Glicko2Rating()], [])
