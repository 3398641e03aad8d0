"""NASPA rating: the published rules piece by piece, and tsh's own per-round ratings."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from events.play.core.tsh import read_t
from ratings.engine.common import (
    DivisionInput,
    Expectation,
    RatingOptions,
    expected_score,
    multiplier,
    segment_bounds,
)
from ratings.engine.naspa import EloSystem, apply_excess, rate_division, rate_naspa
from ratings.engine.tshrate import division_input, rate_tsh, rate_tsh_division

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "tsh"
RATED_DIVISION = "jvc56_tpa_86aeb79_test_data_a.t"


def fixture(name: str) -> Path:
    path = FIXTURES / name
    if not path.exists():
        pytest.skip(f"shared tsh fixtures not found at {FIXTURES} (../shared from the project root)")
    return path


def round_robin(n_rounds: int, a_wins: list[bool]) -> list[tuple[int, int, int, int, int]]:
    """Player 0 against player 1 every round."""
    return [(0, 1, 400 if w else 300, 300 if w else 400, r) for r, w in zip(range(n_rounds), a_wins, strict=True)]


# --------------------------------------------------------------------------- pieces


def test_expectation() -> None:
    assert round(expected_score(1800, 1700), 5) == 0.57903
    assert expected_score(1500, 1500) == 0.5
    assert round(expected_score(1700, 1800), 5) == round(1 - 0.57903, 5)


@pytest.mark.parametrize(
    ("games", "rating", "k"),
    [
        (0, 1000, 30),
        (49, 1799, 30),
        (50, 1799, 20),
        (49, 1800, 24),
        (50, 1999, 16),
        (10, 2000, 15),
        (100, 2000, 10),
        (100, 2500, 10),
    ],
)
def test_multiplier_table(games: int, rating: int, k: int) -> None:
    assert multiplier(games, rating) == k


def test_proration_across_band_edges() -> None:
    # Up through 1800: 10 points at K 20 use half a win, the other half at K 16.
    assert apply_excess(1790, 1.0, 100) == 1808.0
    # Down through 1799: 6 points at K 16 use 0.375, the remaining 0.625 at K 20.
    assert apply_excess(1805, -1.0, 100) == 1786.5
    # Up through 2000 (K 16 then 10) and down through 1999 (K 10 then 16).
    assert apply_excess(1990, 2.0, 100) == 2013.75
    assert apply_excess(2005, -1.0, 100) == pytest.approx(1992.6)
    # From below 1800 to above 2000: two edges.
    assert apply_excess(1780, 20.0, 100) == pytest.approx(2000 + (20 - 1 - 200 / 16) * 10)
    # Within one band there is nothing to prorate.
    assert apply_excess(1500, 1.0, 100) == 1520.0
    assert apply_excess(1790, 1.0, 100, prorate=False) == 1810.0


def test_acceleration_and_feedback() -> None:
    # 1500 beats 1500 three times: +30 at K 20, 15 more than 5 a game, so a bonus of
    # 15; the loser gets 15/20 back per game against the winner.
    result = rate_naspa([1500, 1500], round_robin(3, [True] * 3), [100, 100])
    winner, loser = result.players
    assert (winner.expected_wins, winner.actual_wins) == (1.5, 3.0)
    assert (winner.k, winner.bonus, winner.feedback) == (20, 15.0, 0.0)
    assert winner.new_rating == 1545
    assert (loser.bonus, loser.feedback) == (0.0, 2.25)
    assert loser.new_rating == 1472  # 1470 + 2.25, rounded


def test_feedback_does_not_compound() -> None:
    # A beats C and B beats D three times each, and A ties B: both gain 30, 10 more
    # than 5 a game, so both earn a bonus of 10 and send 0.5 a game to their
    # opponents. Feedback is added after all bonuses: it never enlarges a bonus.
    games = [(0, 2, 500, 300, r) for r in range(3)] + [(1, 3, 500, 300, r) for r in range(3)]
    games.append((0, 1, 400, 400, 3))
    result = rate_naspa([1500] * 4, games, [100] * 4)
    a, b, c, d = result.players
    assert (a.bonus, b.bonus) == (10.0, 10.0)
    assert (a.feedback, b.feedback, c.feedback, d.feedback) == (0.5, 0.5, 1.5, 1.5)
    assert (a.new_rating, b.new_rating) == (1541, 1541)  # 1540.5, halves up
    assert (c.new_rating, d.new_rating) == (1472, 1472)  # 1470 + 1.5, rounded


def test_newcomers_neither_give_nor_get_bonus_or_feedback() -> None:
    games = round_robin(4, [True] * 4)  # veteran beats a newcomer four times
    result = rate_naspa([1500, 0], games, [100, 0])
    veteran, newcomer = result.players
    assert newcomer.bonus == 0.0 and newcomer.feedback == 0.0 and newcomer.k == 0
    games = round_robin(4, [False] * 4)  # newcomer beats a veteran four times
    result = rate_naspa([1500, 0], games, [100, 0])
    veteran, newcomer = result.players
    assert (newcomer.bonus, veteran.feedback) == (0.0, 0.0)


def test_floor_comes_before_feedback() -> None:
    # Rated 5, loses four times to another 5: 5 - 60 is floored to 1, then the
    # winner's feedback (bonus 40, 2 a game) is added: 9.
    result = rate_naspa([5, 5], round_robin(4, [False] * 4), [0, 0])
    loser, winner = result.players
    assert winner.bonus == 40.0
    assert loser.feedback == 8.0
    assert loser.new_rating == 9
    assert winner.new_rating == 5 + 60 + 40


def test_third_rated_divides_by_three_and_caps_at_50() -> None:
    games = [(0, 1 + (r % 4), 500, 300, r) for r in range(16)]
    options = RatingOptions(third_rated=True)
    result = rate_naspa([1500] * 5, games, [0] * 5, options)
    winner = result.players[0]
    assert winner.bonus == 0.0  # no acceleration
    assert winner.new_rating == 1550  # (8 excess x 30) / 3 = 80, capped at 50
    small = rate_naspa([1500, 1500], round_robin(1, [True]), [100, 100], options)
    assert [p.new_rating for p in small.players] == [1503, 1497]  # 10 / 3, rounded


def test_newcomer_two_and_two_against_1500s_is_1499() -> None:
    games = [(0, i + 1, 400 if i < 2 else 300, 350, i) for i in range(4)]
    result = rate_naspa([0, 1500, 1500, 1500, 1500], games)
    newcomer = result.players[0]
    assert newcomer.performance_rating == 1499.0
    assert newcomer.new_rating == 1499


def test_newcomer_minimum_is_500() -> None:
    games = [(0, i + 1, 300, 400, i) for i in range(4)]
    result = rate_naspa([0, 600, 600, 600, 600], games)
    assert result.players[0].new_rating == 500


def test_newcomer_capped_at_strongest_opponent_plus_400_times_win_fraction() -> None:
    games = [(0, i + 1, 400, 300, i) for i in range(4)]
    result = rate_naspa([0, 1000, 900, 1000, 800], games)
    assert result.players[0].new_rating == 1400  # 1000 + 400 x 4/4
    games[3] = (0, 4, 300, 400, 3)
    result = rate_naspa([0, 1000, 1000, 1000, 1000], games)
    assert result.players[0].new_rating == 1300  # 1000 + 400 x 3/4, below its 1345


def _plain_search(opponents: list[int], wins: float) -> int:
    low, high, mid = 0, 3000, 0
    while high - low > 1:
        mid = (low + high) // 2
        if sum(expected_score(mid, o) for o in opponents) - wins < 0:
            low = mid
        else:
            high = mid
    return mid


@pytest.mark.parametrize("spread", [100, 200, 300, 50, 80, 150, 160, 600])
def test_newcomer_one_and_one_against_symmetric_opponents(spread: int) -> None:
    # At the midpoint f is 0 or a rounding error either side of it, so the result
    # hangs on the exact bits of exp: it must be the C library's, as in the reference.
    low, high = 1500 - spread, 1500 + spread
    games = [(0, 1, 400, 300, 0), (0, 2, 300, 400, 1)]
    got = rate_naspa([0, low, high], games).players[0].new_rating
    assert got == _plain_search([low, high], 1.0)


def test_newcomer_without_rated_games_stays_unrated() -> None:
    result = rate_naspa([1500, 1500, 0], round_robin(2, [True, False]))
    assert result.players[2].new_rating == 0
    assert result.players[2].performance_rating is None


@pytest.mark.parametrize(
    ("rounds", "bounds"),
    [
        (1, [(0, 0)]),
        (16, [(0, 15)]),
        (17, [(0, 8), (9, 16)]),
        (23, [(0, 11), (12, 22)]),
        (35, [(0, 17), (18, 34)]),
        (36, [(0, 11), (12, 23), (24, 35)]),
    ],
)
def test_segment_boundaries(rounds: int, bounds: list[tuple[int, int]]) -> None:
    assert segment_bounds(rounds) == bounds


def test_segments_rate_from_the_rounded_result_of_the_last() -> None:
    games = round_robin(17, [True] * 17)
    result = rate_naspa([1500, 1500], games, [100, 100], RatingOptions(max_rounds=17))
    first, second = result.players[0].segments
    assert (first.first_round, first.last_round, second.first_round) == (0, 8, 9)
    assert second.pre_rating == first.new_rating
    assert result.players[0].new_rating == second.new_rating
    assert result.players[0].games == 17


def test_same_input_same_output_and_input_untouched() -> None:
    pre = [1500, 0, 1820, 2010, 0]
    games = [(0, 1, 400, 350, 0), (2, 3, 380, 390, 0), (4, 0, 410, 410, 1), (1, 2, 300, 500, 1)]
    career = [10, 0, 60, 200, 0]
    first = rate_naspa(pre, games, career)
    assert rate_naspa(pre, games, career) == first
    assert pre == [1500, 0, 1820, 2010, 0] and career == [10, 0, 60, 200, 0]


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="outside the division"):
        rate_naspa([1500], [(0, 1, 400, 300, 0)])
    with pytest.raises(ValueError, match="after max_rounds"):
        rate_naspa([1500, 1500], round_robin(3, [True] * 3), options=RatingOptions(max_rounds=2))
    with pytest.raises(ValueError, match="differs in length"):
        DivisionInput([1500], [1], [0], [], [1], [1], [0])


# --------------------------------------------------------------------------- tsh's own ratings


def _rated_division_cases() -> list[tuple[int, int]]:
    return [(r, n) for r in range(1, 24) for n in range(1, 25)]


@pytest.fixture(scope="module")
def tsh_ratings_by_round() -> dict[int, list[int]]:
    tfile = read_t(fixture(RATED_DIVISION))
    return {
        r: [p.new_rating for p in rate_tsh_division(tfile, "naspa", max_rounds=23, through=r).players]
        for r in range(1, 24)
    }


@pytest.mark.parametrize(("through", "number"), _rated_division_cases())
def test_reproduces_tsh_rating_after_every_round(
    tsh_ratings_by_round: dict[int, list[int]], through: int, number: int
) -> None:
    # 24 players x 23 rounds: the rating tsh (nsa2008) recorded after each round.
    player = read_t(fixture(RATED_DIVISION)).players[number - 1]
    assert tsh_ratings_by_round[through][number - 1] == player.newr[through - 1]


def test_reproduces_tsh_excess_wins() -> None:
    tfile = read_t(fixture(RATED_DIVISION))
    result = rate_tsh_division(tfile, "naspa", max_rounds=23)
    for player, rated in zip(tfile.players, result.players, strict=True):
        # tsh writes the summed excess with 15 significant digits.
        excess = sum(s.actual_wins - s.expected_wins for s in rated.segments)
        assert float(player.extras["excwins"][0]) == pytest.approx(excess, abs=1e-12)


def test_tsh_rows() -> None:
    tfile = read_t(fixture(RATED_DIVISION))
    rows = rate_tsh(tfile, "naspa", max_rounds=23)
    assert [r.new_rating for r in rows] == [p.newr[-1] for p in tfile.players]
    assert rows[0].number == 1 and rows[0].name == "Logan, Adam" and rows[0].old_rating == 2182
    assert rows[0].actual_wins == 19.0
    assert sum(r.actual_wins for r in rows) == len(division_input(tfile).player_a)


def test_reproduces_tsh_newcomer_ratings_with_australian_expectation() -> None:
    # A division of newcomers only, rated by tsh after each round with its 'aus'
    # system (linear expectation clipped to [0.05, 0.95], no bonuses): this checks
    # the newcomer iteration, its caps and its floor on 38 x 18 real values.
    def australian(d: np.ndarray, exp: object) -> np.ndarray:
        return np.clip((50 + d / 12) / 100, 0.05, 0.95)

    aus = EloSystem(
        name="aus",
        expectation=Expectation.build("aus", australian),
        acceleration=0.0,
        feedback=False,
        floor=None,
        split_long_events=False,
    )
    tfile = read_t(fixture("e4c5_team_pairings_tournament1_a.t"))
    for through in range(1, 19):
        inp = division_input(tfile, through)
        result = rate_division(inp, RatingOptions(max_rounds=18, through_round=through), aus)
        got = [p.new_rating for p in result.players]
        assert got == [p.newr[through - 1] for p in tfile.players], f"after round {through}"
