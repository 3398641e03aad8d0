"""Benchmark: re-rate a synthetic rating history with the NASPA engine.

    python bench/bench_rating.py [--games N] [--seed S] [--newcomers SHARE]

Divisions of 10-300 players (most of them small), 5-20 rounds, random pairings
(a bye when the count is odd), results drawn from hidden strengths; a tenth of
the events are 1/3-rated. The membership grows: about one entrant in eight is a
newcomer (`--newcomers` changes the share; 1 makes every entrant of every event
new to the list, the slowest case). Prints the size of the history and the speed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ratings.engine.history import HistoryInput, rate_history  # noqa: E402


def make_history(games: int, seed: int = 20240601, newcomers: float = 0.125) -> HistoryInput:
    rng = np.random.default_rng(seed)
    # Enough hidden strengths for every entrant to be new, if asked.
    strength = rng.normal(1400.0, 350.0, games // 2 + 301)
    known = 0  # players who have entered an event so far
    a_parts: list[np.ndarray] = []
    b_parts: list[np.ndarray] = []
    r_parts: list[np.ndarray] = []
    starts = [0]
    max_rounds: list[int] = []
    total = 0
    while total < games:
        # Log-uniform sizes: many club-sized divisions, a few large ones.
        size = int(np.exp(rng.uniform(np.log(10), np.log(301))))
        rounds = int(rng.integers(5, 21))
        fresh = int(rng.binomial(size, newcomers))
        fresh = max(fresh, size - known)  # too few members yet: the rest are new too
        returning = rng.choice(known, size=size - fresh, replace=False)
        players = np.concatenate((returning, np.arange(known, known + fresh)))
        known += fresh
        order = rng.random((rounds, size)).argsort(axis=1)
        half = size // 2
        a = players[order[:, 0 : 2 * half : 2]].reshape(-1)
        b = players[order[:, 1 : 2 * half : 2]].reshape(-1)
        rnd = np.repeat(np.arange(rounds), half)
        a_parts.append(a)
        b_parts.append(b)
        r_parts.append(rnd)
        total += a.size
        starts.append(total)
        max_rounds.append(rounds)
    a_all = np.concatenate(a_parts)
    b_all = np.concatenate(b_parts)
    p_win = 1.0 / (1.0 + np.exp(-0.0031879 * (strength[a_all] - strength[b_all])))
    a_wins = rng.random(a_all.size) < p_win
    base = rng.integers(300, 420, a_all.size)
    margin = rng.integers(0, 150, a_all.size)
    score_a = np.where(a_wins, base + margin, base)
    score_b = np.where(a_wins, base, base + margin)
    n_events = len(max_rounds)
    return HistoryInput(
        initial_ratings=np.zeros(known),
        initial_career_games=np.zeros(known, dtype=np.int64),
        event_start=np.asarray(starts, dtype=np.int64),
        game_a=a_all,
        game_b=b_all,
        score_a=score_a,
        score_b=score_b,
        round_index=np.concatenate(r_parts),
        event_max_rounds=np.asarray(max_rounds, dtype=np.int64),
        event_third_rated=rng.random(n_events) < 0.1,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--newcomers", type=float, default=0.125)
    args = parser.parse_args()

    history = make_history(args.games, args.seed, args.newcomers)
    started = time.perf_counter()
    result = rate_history(history)
    seconds = time.perf_counter() - started

    games = int(history.game_a.size)
    events = int(history.event_start.size - 1)
    players = int(np.count_nonzero(result.career_games))
    entries = int(result.row_player.size)
    print(f"games:        {games}")
    print(f"entries:      {entries} (player-events)")
    print(f"events:       {events}")
    print(f"players:      {players}")
    print(f"seconds:      {seconds:.2f}")
    print(f"games/second: {games / seconds:,.0f}")


if __name__ == "__main__":
    main()
