"""Re-rate a whole rating history: many events, in order, on flat arrays.

Each event is rated from the players' current ratings and career games; its
results then become the current values for the next event. Events are given in
the order they are to be rated (the order in which they began).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ratings.engine.common import FloatArray, IntArray, game_wins
from ratings.engine.naspa import NASPA, EloSystem, rate_event_arrays

BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class HistoryInput:
    """All games of all events, grouped by event in rating order.

    Games of event e are game_*[event_start[e]:event_start[e + 1]]; player ids are
    global, 0 <= id < len(initial_ratings). round_index is 0-based within the event.
    event_max_rounds[e]: scheduled rounds (decides segments); 0 = last round played.
    """

    initial_ratings: FloatArray  # 0 = unrated
    initial_career_games: IntArray
    event_start: IntArray  # len = events + 1, event_start[0] == 0, last == number of games
    game_a: IntArray
    game_b: IntArray
    score_a: IntArray
    score_b: IntArray
    round_index: IntArray
    event_max_rounds: IntArray | None = None
    event_third_rated: BoolArray | None = None


@dataclass
class HistoryResult:
    """Final state per player, and one row per (event, player who played in it)."""

    ratings: FloatArray
    career_games: IntArray
    row_start: IntArray  # rows of event e are row_*[row_start[e]:row_start[e + 1]]
    row_player: IntArray
    row_pre: FloatArray
    row_post: FloatArray
    row_expected: FloatArray
    row_actual: FloatArray
    row_games: IntArray
    row_k: FloatArray
    row_bonus: FloatArray
    row_feedback: FloatArray


def rate_history(history: HistoryInput, system: EloSystem = NASPA) -> HistoryResult:
    """Rate every event in order, carrying ratings and career games forward."""
    ratings = np.asarray(history.initial_ratings, dtype=np.float64).copy()
    career = np.asarray(history.initial_career_games, dtype=np.int64).copy()
    starts = np.asarray(history.event_start, dtype=np.int64)
    n_events = starts.size - 1
    if n_events < 0 or starts[0] != 0 or np.any(np.diff(starts) < 0):
        raise ValueError("event_start must start at 0 and never decrease")
    a_all = np.asarray(history.game_a, dtype=np.int64)
    b_all = np.asarray(history.game_b, dtype=np.int64)
    rnd_all = np.asarray(history.round_index, dtype=np.int64)
    if starts[-1] != a_all.size:
        raise ValueError("event_start must end at the number of games")
    wins_all = game_wins(history.score_a, history.score_b)
    max_rounds = (
        np.zeros(n_events, dtype=np.int64)
        if history.event_max_rounds is None
        else np.asarray(history.event_max_rounds, dtype=np.int64)
    )
    third = (
        np.zeros(n_events, dtype=bool)
        if history.event_third_rated is None
        else np.asarray(history.event_third_rated, dtype=bool)
    )

    # Every player of an event appears in at least one of its games, so the rows
    # number at most two per game; trimmed at the end.
    cap = 2 * a_all.size
    row_start = np.zeros(n_events + 1, dtype=np.int64)
    row_player = np.empty(cap, dtype=np.int64)
    row_pre = np.empty(cap)
    row_post = np.empty(cap)
    row_expected = np.empty(cap)
    row_actual = np.empty(cap)
    row_games = np.empty(cap, dtype=np.int64)
    row_k = np.empty(cap)
    row_bonus = np.empty(cap)
    row_feedback = np.empty(cap)

    filled = 0
    for e in range(n_events):
        lo, hi = int(starts[e]), int(starts[e + 1])
        if hi == lo:
            row_start[e + 1] = filled
            continue
        # Local indices for the event's players, in id order.
        players, local = np.unique(np.concatenate((a_all[lo:hi], b_all[lo:hi])), return_inverse=True)
        m = hi - lo
        a, b = local[:m], local[m:]
        rnd = rnd_all[lo:hi]
        wins = wins_all[lo:hi]
        if np.any(rnd[1:] < rnd[:-1]):
            order = np.argsort(rnd, kind="stable")
            a, b, rnd, wins = a[order], b[order], rnd[order], wins[order]
        scheduled = int(max_rounds[e]) or int(rnd.max()) + 1
        pre = ratings[players]
        ev = rate_event_arrays(pre, career[players], a, b, wins, rnd, scheduled, system, bool(third[e]))
        k = players.size
        out = slice(filled, filled + k)
        row_player[out] = players
        row_pre[out] = pre
        row_post[out] = ev.new_rating
        row_expected[out] = ev.expected
        row_actual[out] = ev.actual
        row_games[out] = ev.games
        row_k[out] = ev.k
        row_bonus[out] = ev.bonus
        row_feedback[out] = ev.feedback
        filled += k
        row_start[e + 1] = filled
        ratings[players] = ev.new_rating
        career[players] += ev.games

    return HistoryResult(
        ratings=ratings,
        career_games=career,
        row_start=row_start,
        row_player=row_player[:filled].copy(),
        row_pre=row_pre[:filled].copy(),
        row_post=row_post[:filled].copy(),
        row_expected=row_expected[:filled].copy(),
        row_actual=row_actual[:filled].copy(),
        row_games=row_games[:filled].copy(),
        row_k=row_k[:filled].copy(),
        row_bonus=row_bonus[:filled].copy(),
        row_feedback=row_feedback[:filled].copy(),
    )
