"""ABSP: clamped opponent ratings +-50 per game, and the weighted 150-game rating."""

from __future__ import annotations

import pytest

from ratings.engine.absp import (
    clamped_opponent,
    game_value,
    published_rating,
    rate_event,
    tournament_rating,
)


def test_opponents_are_held_within_40_points() -> None:
    assert clamped_opponent(160, 300) == 200
    assert clamped_opponent(160, 50) == 120
    assert clamped_opponent(160, 170) == 170


def test_game_values() -> None:
    assert game_value(160, 170, 1.0) == 220
    assert game_value(160, 170, 0.0) == 120
    assert game_value(160, 170, 0.5) == 170
    assert game_value(160, 300, 1.0) == 250  # clamped to 200, +50


def test_published_example() -> None:
    # 12 games, 7 wins and 5 losses, opponents summing to 1901 once clamped to within
    # 40 of the player's 160 (300 counts as 200, 50 as 120):
    # (1901 + 350 - 250) / 12 = 166.75, published as 167.
    opponents = [300, 50] + [158] * 9 + [159]
    assert sum(clamped_opponent(160, o) for o in opponents) == 1901
    results = [1.0] * 7 + [0.0] * 5
    rating = tournament_rating(160, opponents, results)
    assert rating == (1901 + 350 - 250) / 12
    assert round(rating) == 167


def test_published_rating_weights_the_last_150_games() -> None:
    assert published_rating([150.0] * 150) == 150.0
    # Weights 76..225 sum to 22575; the newest game weighs 225.
    assert published_rating([0.0] * 149 + [1.0]) == pytest.approx(225 / 22575)
    assert published_rating([1.0] + [0.0] * 149) == pytest.approx(76 / 22575)
    # Older games drop out.
    assert published_rating([1000.0] + [100.0] * 150) == 100.0
    # Fewer games: the same weights from the newest down.
    assert published_rating([100.0, 200.0]) == pytest.approx((224 * 100 + 225 * 200) / 449)


def test_rate_event() -> None:
    results = rate_event([160, 170, 0], [0, 0, 1], [1, 2, 2], [400, 400, 350], [300, 300, 350])
    first, second, newcomer = results
    assert first.game_values == [220.0]  # the game against an unrated player is left out
    assert first.new_rating == 220 and first.actual_wins == 2.0
    assert second.game_values == [110.0]  # 160 - 50; the game against the newcomer is left out
    assert newcomer.game_values == [110.0, 170.0]  # unclamped: 160 - 50, 170 + 0
    assert newcomer.new_rating == 140
    assert first.expected_wins is None
