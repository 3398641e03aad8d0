"""WESPA profile: 172-point logistic, no proration, acceleration at 2/3, no segments."""

from __future__ import annotations

import math

from ratings.engine.common import DivisionInput, RatingOptions, wespa_expected_score
from ratings.engine.wespa import rate_wespa


def division(pre: list[float], games: list[tuple[int, int, int, int, int]], career: list[int]) -> DivisionInput:
    a, b, sa, sb, rnd = (list(c) for c in zip(*games, strict=True))
    return DivisionInput(pre, career, a, b, sa, sb, rnd)


def test_expectation() -> None:
    assert wespa_expected_score(1500, 1500) == 0.5
    assert math.isclose(wespa_expected_score(1800, 1700), 1 / (1 + math.exp(-100 / 172)))


def test_acceleration_at_two_thirds_and_feedback() -> None:
    # +30 at K 20 over three games: 15 above 5 a game, two thirds of it is a bonus of 10.
    games = [(0, 1, 400, 300, r) for r in range(3)]
    result = rate_wespa(division([1500, 1500], games, [100, 100]))
    winner, loser = result.players
    assert winner.bonus == 10.0
    assert winner.new_rating == 1540
    assert loser.feedback == 1.5
    assert loser.new_rating == 1472  # 1471.5, halves up


def test_no_proration_at_band_edges() -> None:
    # 1790 vs 1790, one win: +10 at K 20 straight through 1800 (prorated, the last
    # 0.5 win would count at K 16), then a bonus of 2/3 x (10 - 5).
    result = rate_wespa(division([1790, 1790], [(0, 1, 400, 300, 0)], [100, 100]))
    winner = result.players[0]
    assert winner.bonus == (2 / 3) * 5
    assert [p.new_rating for p in result.players] == [1803, 1780]


def test_long_events_are_one_segment() -> None:
    games = [(0, 1, 400, 300, r) for r in range(40)]
    result = rate_wespa(division([1500, 1500], games, [100, 100]), RatingOptions(max_rounds=40))
    assert result.segments == [(0, 39)]
