"""Time a 500-player Swiss round with repeat avoidance after 10 rounds.

Run from the project root: python bench/bench_pairing.py [players] [rounds] [runs]
Prints the median wall-clock time of several runs of `pair_round` for the
next round, and the median CPU time (which other load on the machine does
not inflate).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from events.play.core.pairing import PairingOptions, PairingPlayer, pair_round
from events.play.core.results import Game, GameKind


def simulate(players: list[PairingPlayer], rounds: int, rng: random.Random) -> list[Game]:
    """Play `rounds` Swiss rounds with random scores favouring the higher rating."""
    games: list[Game] = []
    rating = {p.id: p.rating for p in players}
    for r in range(1, rounds + 1):
        result = pair_round("swiss", players, games, PairingOptions(round=r, seed=r))
        for a, b in result.pairs:
            edge = (rating[a] - rating[b]) // 20
            score_a = max(0, int(rng.gauss(400 + edge, 60)))
            score_b = max(0, int(rng.gauss(400 - edge, 60)))
            games.append(Game(round=r, player_a=a, player_b=b, score_a=score_a, score_b=score_b, first=a))
        if result.bye is not None:
            games.append(Game(round=r, player_a=result.bye, kind=GameKind.BYE))
    return games


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    rng = random.Random(2024)
    players = [PairingPlayer(id=k, rating=rng.randint(500, 2200), seed=k) for k in range(1, count + 1)]
    games = simulate(players, rounds, rng)
    options = PairingOptions(round=rounds + 1, seed=99)
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = pair_round("swiss", players, games, options)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    print(
        f"swiss, {count} players after {rounds} rounds: median {statistics.median(wall):.3f} s "
        f"over {runs} runs (min {min(wall):.3f}, max {max(wall):.3f}; "
        f"median CPU {statistics.median(cpu):.3f} s); "
        f"{len(result.pairs)} pairs, {result.repeats} repeats"
    )


if __name__ == "__main__":
    main()
