"""The public rating calculator: the engine's own answer for one player's games."""

import math

import pytest
from django.urls import reverse

from clubsite.kit.errors import ServiceError
from ratings.engine.common import DivisionInput, RatingOptions
from ratings.engine.naspa import rate_naspa
from ratings.engine.wespa import rate_wespa
from ratings.services.calculator import OpponentLine, calculate, parse_opponents
from tests.ratings.factories import RatingListFactory


def games(*pairs):
    return [OpponentLine(rating, result) for rating, result in pairs]


def test_the_published_example_1800_against_1700():
    result = calculate(1800, games((1700, 1.0)))
    assert round(result.games[0].expected, 5) == 0.57903
    assert round(result.expected_wins, 5) == 0.57903
    # K 16 (1800-1999, 100 games assumed): 1800 + 16 x 0.42097 = 1806.74; gain over 5 a game is a bonus of 1.74.
    assert result.career_games == 100 and result.career_games_assumed
    assert result.k == 16
    assert result.bonus == pytest.approx(16 * (1 - 0.5790293376) - 5, abs=1e-6)
    assert result.new_rating == 1808 and result.change == 8
    assert result.feedback_to_each_opponent == pytest.approx(result.bonus / 20)


def test_a_three_game_event_matches_the_engine_rating_the_whole_division():
    # Nobody else earns a bonus here (the 1950 who beats 1650 gains under 5), so no feedback flows to the player.
    mine = calculate(1650, games((1600, 1.0), (1720, 1.0), (1950, 0.0)), career_games=30)
    engine = rate_naspa(
        [1650, 1600, 1720, 1950],
        [(0, 1, 1, 0, 0), (0, 2, 1, 0, 1), (0, 3, 0, 1, 2)],
        career_games=[30, 100, 100, 100],
    ).players[0]
    assert engine.feedback == 0
    assert (mine.new_rating, mine.k) == (engine.new_rating, engine.k) == (mine.new_rating, 30)
    assert mine.expected_wins == pytest.approx(engine.expected_wins, abs=1e-12)
    assert mine.bonus == pytest.approx(engine.bonus, abs=1e-12) and mine.bonus > 0


def test_feedback_from_opponents_never_changes_the_players_rating():
    # 1400 beating 1500 earns a bonus; in a whole division 1/20 of it would flow back to the 1500.
    division = rate_naspa([1500, 1400], [(0, 1, 0, 1, 0)], career_games=[100, 100]).players[0]
    assert division.feedback > 0 and division.new_rating == 1489
    mine = calculate(1500, games((1400, 0.0)))
    assert mine.new_rating == math.floor(1500 + 20 * (0 - mine.expected_wins) + 0.5) == 1488


def test_a_newcomer_going_two_and_two_against_four_1500s_is_rated_1499():
    result = calculate(None, games((1500, 1.0), (1500, 0.0), (1500, 1.0), (1500, 0.0)))
    assert (result.old_rating, result.new_rating, result.k, result.change) == (0, 1499, 0, 0)
    assert result.performance == 1499


def test_wins_as_a_total_give_the_same_rating_as_per_game_results():
    lines = games((1500, None), (1600, None), (1700, None))
    total = calculate(1550, lines, wins=1.5)
    each = calculate(1550, games((1500, 1.0), (1600, 0.5), (1700, 0.0)))
    assert total.new_rating == each.new_rating and total.actual_wins == 1.5


def test_long_events_are_rated_in_segments_like_the_engine():
    ratings = [1500 + 10 * i for i in range(20)]
    mine = calculate(1700, games(*[(r, 1.0 if i % 3 else 0.0) for i, r in enumerate(ratings)]), career_games=10)
    assert mine.segments == 2
    engine = rate_naspa(
        [1700, *ratings],
        [(0, i + 1, 1 if i % 3 else 0, 0 if i % 3 else 1, i) for i in range(20)],
        career_games=[10] + [-1] * 20,
        options=RatingOptions(max_rounds=20),
    ).players[0]
    assert mine.new_rating == engine.new_rating
    with pytest.raises(ServiceError, match="segments"):
        calculate(1700, games(*[(r, None) for r in ratings]), wins=13)


def test_a_wespa_list_uses_wespa():
    mine = calculate(1800, games((1700, 1.0), (1750, 1.0)), system="wespa")
    engine = rate_wespa(DivisionInput([1800, 1700, 1750], [100, -1, -1], [0, 0], [1, 2], [1, 1], [0, 0], [0, 1]))
    assert mine.new_rating == engine.players[0].new_rating
    assert mine.new_rating != calculate(1800, games((1700, 1.0), (1750, 1.0))).new_rating


def test_absp_and_glicko2_lists_give_a_rating_without_an_expectation():
    for system in ("absp", "glicko2"):
        result = calculate(1800, games((1700, 1.0)), system=system)
        assert result.new_rating > 0 and result.expected_wins is None and result.feedback_to_each_opponent == 0


def test_a_third_rated_event_divides_the_change_and_gives_no_bonus():
    full = calculate(1500, games(*[(1700, 1.0)] * 6))
    third = calculate(1500, games(*[(1700, 1.0)] * 6), third_rated=True)
    assert third.bonus == 0 and 0 < third.change <= 50 and third.change < full.change


def test_parse_opponents_reads_results_and_names_bad_lines():
    assert parse_opponents("1650 W\n\n1720, l\n1580 t\n1600 ½\n1500") == [
        OpponentLine(1650, 1.0),
        OpponentLine(1720, 0.0),
        OpponentLine(1580, 0.5),
        OpponentLine(1600, 0.5),
        OpponentLine(1500, None),
    ]
    with pytest.raises(ServiceError, match="Line 2: “X” is not a result"):
        parse_opponents("1650 W\n1700 X")
    with pytest.raises(ServiceError, match="Line 1: a rating is a whole number"):
        parse_opponents("4000 W")
    with pytest.raises(ServiceError, match="at least one"):
        parse_opponents("  \n")


def test_results_and_wins_must_agree():
    with pytest.raises(ServiceError, match="on every line"):
        calculate(1500, games((1600, 1.0), (1700, None)))
    with pytest.raises(ServiceError, match="total of wins"):
        calculate(1500, games((1600, None)))
    with pytest.raises(ServiceError, match="add up to 1 wins, not 2"):
        calculate(1500, games((1600, 1.0), (1700, 0.0)), wins=2)
    with pytest.raises(ServiceError, match="from 0 to 2"):
        calculate(1500, games((1600, None), (1700, None)), wins=2.3)


@pytest.mark.django_db
def test_the_page_shows_the_new_rating_and_the_expected_score(client):
    page = client.get(reverse("ratings:calculator"))
    assert page.status_code == 200 and "My opponents and results" in page.content.decode()
    page = client.get(reverse("ratings:calculator"), {"rating": "1800", "games": "1700 W"})
    html = page.content.decode()
    assert "<strong>1808</strong>" in html and "0.57903" in html and "NASPA Elo" in html


@pytest.mark.django_db
def test_the_page_uses_the_chosen_lists_system_and_shows_errors_on_the_field(client):
    wespa = RatingListFactory(name="WESPA list", system="wespa")
    url = reverse("ratings:calculator")
    html = client.get(url, {"rating_list": wespa.pk, "rating": "1800", "games": "1700 W"}).content.decode()
    expected = calculate(1800, games((1700, 1.0)), system="wespa").new_rating
    assert f"<strong>{expected}</strong>" in html and "WESPA" in html
    html = client.get(url, {"rating": "1800", "games": "1700 Q"}).content.decode()
    assert "Line 1: “Q” is not a result" in html and 'id="result"' not in html
    assert f'value="{wespa.pk}" selected' in client.get(url, {"rating_list": wespa.pk}).content.decode()
