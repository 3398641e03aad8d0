"""Glicko-2 against Glickman's worked example."""

from __future__ import annotations

import math
from datetime import date

import pytest

from ratings.engine.glicko2 import SCALE, Glicko2Rating, idle, rating_period, update


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


def test_an_idle_period_is_step_six_alone() -> None:
    # Glickman: a player who does not compete keeps rating and volatility; phi' = sqrt(phi^2 + sigma^2).
    player = Glicko2Rating(1500, 200, 0.06)
    once = idle(player, 1)
    assert once == update(player, [], [])
    assert once.rd == pytest.approx(200.2714, abs=0.001)
    assert (once.rating, once.volatility) == (1500, 0.06)


def test_the_deviation_grows_once_per_idle_period() -> None:
    player = Glicko2Rating(1500, 200, 0.06)
    phi = 200 / SCALE
    for periods in (0, 1, 2, 12, 60):
        grown = idle(player, periods)
        assert grown.rd == pytest.approx(SCALE * math.sqrt(phi * phi + periods * 0.06 * 0.06), rel=1e-12)
    assert idle(player, -1) == player


def test_the_deviation_never_grows_past_an_unrated_players() -> None:
    grown = idle(Glicko2Rating(1700, 340, 0.06), 1000, max_rd=350)
    assert grown == Glicko2Rating(1700, 350, 0.06)
    # A deviation already wider (the list's setting was lowered) is not narrowed by being idle.
    assert idle(Glicko2Rating(1700, 360, 0.06), 3, max_rd=350).rd == 360


def test_glickmans_example_after_idle_periods_starts_from_the_wider_deviation() -> None:
    opponents = [Glicko2Rating(1400, 30), Glicko2Rating(1550, 100), Glicko2Rating(1700, 300)]
    rested = update(idle(Glicko2Rating(1500, 200, 0.06), 6), opponents, [1, 0, 0], tau=0.5)
    fresh = update(Glicko2Rating(1500, 200, 0.06), opponents, [1, 0, 0], tau=0.5)
    assert rested.rd > fresh.rd == pytest.approx(151.52, abs=0.01)
    # A wider deviation moves the rating further from the same results.
    assert rested.rating < fresh.rating == pytest.approx(1464.06, abs=0.01)


def test_rating_periods_are_calendar_months() -> None:
    assert rating_period(date(2024, 2, 1)) - rating_period(date(2024, 1, 31)) == 1
    assert rating_period(date(2024, 1, 1)) == rating_period(date(2024, 1, 31))
    assert rating_period(date(2025, 1, 1)) - rating_period(date(2024, 12, 1)) == 1
    # Quarters.
    assert rating_period(date(2024, 3, 31), 3) == rating_period(date(2024, 1, 1), 3)
    assert rating_period(date(2024, 4, 1), 3) - rating_period(date(2024, 3, 31), 3) == 1
    with pytest.raises(ValueError):
        rating_period(date(2024, 1, 1), 0)
