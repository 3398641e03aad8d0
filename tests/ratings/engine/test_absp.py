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


def test_newcomers_in_two_passes() -> None:
    # A 150 and B 100 are rated; N1 and N2 are newcomers.
    # Round 1: N1 beats A 400-350, B beats N2 380-300.
    # Round 2: N1 beats N2 420-330, A beats B 390-360.
    # Round 3: B beats N1 400-340, A beats N2 410-370.
    a, b, n1, n2 = 0, 1, 2, 3
    games = [
        (n1, a, 400, 350),
        (b, n2, 380, 300),
        (n1, n2, 420, 330),
        (a, b, 390, 360),
        (b, n1, 400, 340),
        (a, n2, 410, 370),
    ]
    pa, pb, sa, sb = (list(x) for x in zip(*games, strict=True))
    results = rate_event([150, 100, 0, 0], pa, pb, sa, sb)
    # First pass, rated opponents only, unclamped: N1 150+50 and 100-50, (200+50)/2 = 125;
    # N2 100-50 and 150-50, (50+100)/2 = 75, raised to 80.
    # Second pass, the other newcomer at that estimate: N1 200, 80+50, 50 -> 380/3 = 126.67 -> 127;
    # N2 50, 125-50, 100 -> 225/3 = 75 -> 80.
    assert results[n1].game_values == [200.0, 130.0, 50.0]
    assert results[n1].new_rating == 127
    assert results[n2].game_values == [50.0, 75.0, 100.0]
    assert results[n2].new_rating == 80 and results[n2].event_rating == 80
    # Rated players: only the game between them, B held to 150-40 = 110 for A, A to 100+40 for B.
    assert results[a].game_values == [160.0] and results[a].new_rating == 160
    assert results[b].game_values == [90.0] and results[b].new_rating == 90
    assert [r.actual_wins for r in results] == [2.0, 2.0, 2.0, 0.0]


def test_floors() -> None:
    # A rated 60 loses to a rated 30 300-400: 30 - 50 = -20, raised to 40; the 30 counts the 60
    # (within 40 of it) +50 = 110. A newcomer loses to a rated 100: 100 - 50 = 50, raised to 80.
    results = rate_event([60, 30, 0, 100], [0, 2], [1, 3], [300, 300], [400, 400])
    assert results[0].game_values == [-20.0]
    assert results[0].new_rating == 40 and results[0].event_rating == 40
    assert results[1].new_rating == 110
    assert results[2].game_values == [50.0] and results[2].new_rating == 80
    assert results[3].new_rating == 100  # its only game was against a newcomer: kept


def test_players_without_rated_games() -> None:
    # Present with only a bye (no game passed): a rated 150 keeps 150, a rated 30 is raised to 40,
    # a newcomer is rated 80. Absent: a rated player keeps their rating, a newcomer stays unrated.
    results = rate_event([150, 30, 0, 150, 0], [], [], [], [], present=[True, True, True, False, False])
    assert [r.new_rating for r in results] == [150, 40, 80, 150, 0]
    assert [r.games for r in results] == [0] * 5
    assert results[3].event_rating is None and results[4].event_rating is None


def test_a_score_of_zero_is_not_rated() -> None:
    # tsh reads a score of 0 as no score: A's 300-0 win over B is left out, and both keep their rating.
    results = rate_event([150, 140, 0], [0, 2], [1, 0], [300, 0], [0, 200])
    assert [r.new_rating for r in results] == [150, 140, 80]
    assert [r.games for r in results] == [0, 0, 0]
    assert results[0].actual_wins == 2.0  # the games still count as results
