"""Re-rating a history on flat arrays gives what rating its events one by one gives."""

from __future__ import annotations

import numpy as np
import pytest

from ratings.engine.common import DivisionInput, RatingOptions
from ratings.engine.history import HistoryInput, rate_history
from ratings.engine.naspa import rate_division
from ratings.engine.wespa import WESPA


def synthetic_history(seed: int, events: int = 25, pool: int = 40) -> HistoryInput:
    rng = np.random.default_rng(seed)
    strength = rng.normal(1500, 300, pool)
    a_parts, b_parts, r_parts, starts, max_rounds = [], [], [], [0], []
    for _ in range(events):
        size = int(rng.integers(2, 16))
        rounds = int(rng.integers(1, 20))
        players = rng.choice(pool, size=size, replace=False)
        for r in range(rounds):
            order = rng.permutation(players)
            pairs = order[: 2 * (size // 2)].reshape(-1, 2)
            a_parts.append(pairs[:, 0])
            b_parts.append(pairs[:, 1])
            r_parts.append(np.full(len(pairs), r))
        starts.append(starts[-1] + sum(len(x) for x in a_parts[len(r_parts) - rounds :]))
        max_rounds.append(rounds + int(rng.integers(0, 3)))
    a = np.concatenate(a_parts)
    b = np.concatenate(b_parts)
    win = rng.random(a.size) < 1 / (1 + np.exp(-(strength[a] - strength[b]) / 200))
    score_a = np.where(win, 420, 380)
    score_a[rng.random(a.size) < 0.03] = 400  # a few ties
    initial = np.where(rng.random(pool) < 0.5, rng.integers(600, 2200, pool), 0).astype(float)
    return HistoryInput(
        initial_ratings=initial,
        initial_career_games=rng.integers(0, 120, pool),
        event_start=np.asarray(starts),
        game_a=a,
        game_b=b,
        score_a=score_a,
        score_b=np.full(a.size, 400),
        round_index=np.concatenate(r_parts),
        event_max_rounds=np.asarray(max_rounds),
        event_third_rated=rng.random(events) < 0.2,
    )


def one_by_one(history: HistoryInput, system=None) -> tuple[np.ndarray, list[dict[int, tuple]]]:
    ratings = history.initial_ratings.copy()
    career = history.initial_career_games.copy()
    rows = []
    for e in range(len(history.event_start) - 1):
        lo, hi = history.event_start[e], history.event_start[e + 1]
        players = sorted(set(history.game_a[lo:hi]) | set(history.game_b[lo:hi]))
        local = {p: i for i, p in enumerate(players)}
        inp = DivisionInput(
            pre_ratings=[ratings[p] for p in players],
            career_games=[career[p] for p in players],
            player_a=[local[p] for p in history.game_a[lo:hi]],
            player_b=[local[p] for p in history.game_b[lo:hi]],
            score_a=history.score_a[lo:hi],
            score_b=history.score_b[lo:hi],
            round_index=history.round_index[lo:hi],
        )
        options = RatingOptions(
            max_rounds=int(history.event_max_rounds[e]),
            third_rated=bool(history.event_third_rated[e]),
        )
        result = rate_division(inp, options) if system is None else rate_division(inp, options, system)
        event_rows = {}
        for p, r in zip(players, result.players, strict=True):
            event_rows[p] = (r.pre_rating, r.new_rating, r.expected_wins, r.actual_wins, r.games)
            ratings[p] = r.new_rating
            career[p] += r.games
        rows.append(event_rows)
    return ratings, rows


@pytest.mark.parametrize("seed", range(6))
def test_history_equals_events_rated_one_by_one(seed: int) -> None:
    history = synthetic_history(seed)
    result = rate_history(history)
    ratings, rows = one_by_one(history)
    assert np.array_equal(result.ratings, ratings)
    for e, event_rows in enumerate(rows):
        lo, hi = result.row_start[e], result.row_start[e + 1]
        assert list(result.row_player[lo:hi]) == sorted(event_rows)
        for i in range(lo, hi):
            pre, post, expected, actual, games = event_rows[int(result.row_player[i])]
            assert (result.row_pre[i], result.row_post[i]) == (pre, post)
            assert result.row_expected[i] == pytest.approx(expected, abs=1e-12)
            assert (result.row_actual[i], result.row_games[i]) == (actual, games)


def test_history_with_wespa() -> None:
    history = synthetic_history(11)
    ratings, _ = one_by_one(history, WESPA)
    assert np.array_equal(rate_history(history, WESPA).ratings, ratings)


def test_career_games_accumulate() -> None:
    history = synthetic_history(3)
    result = rate_history(history)
    played = np.bincount(np.concatenate((history.game_a, history.game_b)), minlength=40)
    assert np.array_equal(result.career_games, history.initial_career_games + played)


def test_rows_carry_bonus_k_and_feedback() -> None:
    history = HistoryInput(
        initial_ratings=np.array([1500.0, 1500.0]),
        initial_career_games=np.array([100, 100]),
        event_start=np.array([0, 3]),
        game_a=np.array([0, 0, 0]),
        game_b=np.array([1, 1, 1]),
        score_a=np.array([400, 400, 400]),
        score_b=np.array([300, 300, 300]),
        round_index=np.array([0, 1, 2]),
    )
    result = rate_history(history)
    assert list(result.row_post) == [1545.0, 1472.0]
    assert list(result.row_k) == [20.0, 20.0]
    assert list(result.row_bonus) == [15.0, 0.0]
    assert list(result.row_feedback) == [0.0, 2.25]


def test_bad_boundaries_are_refused() -> None:
    history = synthetic_history(1)
    broken = HistoryInput(**{**history.__dict__, "event_start": history.event_start[:-1]})
    with pytest.raises(ValueError, match="end at the number of games"):
        rate_history(broken)
