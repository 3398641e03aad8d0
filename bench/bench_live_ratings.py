"""Benchmark: live ratings of a 300-player, 15-round division after one result changes.

    python bench/bench_live_ratings.py [--players 300] [--rounds 15] [--list-size 5000] [--runs 30]

Builds, in a throwaway test database (SQLite in memory, or a `test_…` database next to the one
DATABASE_URL names), a rating list of `--list-size` rated players, and an event in progress with one
division of `--players` players (a tenth of them newcomers) and `--rounds` rounds, every result
confirmed. Then, `--runs` times: a director corrects one result (its scores swapped, a new
confirmation time) and `ratings.services.live_ratings(division)` is timed, as the next page view
after the change calls it (a cache miss: read, rate, store). Also times the cached call (every other
page view) and the rating alone. Prints median and 95th percentile; the target is well under 100 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECRET_KEY", "bench-only-not-secret")
os.environ.setdefault("SECURE", "0")
os.environ.setdefault("EMAIL_URL", "dummymail://localhost")
os.environ.setdefault("PYTHONWARNINGS", "ignore:No directory at")
os.environ.setdefault("CELERY_BROKER_URL", "")

TARGET_MS = 100.0


def build(players: int, rounds: int, list_size: int, seed: int = 7):
    import numpy as np
    from django.utils import timezone

    from events.models import Division, DivisionPlayer, Event, EventStatus, Game, GameStatus, Round, RoundStatus
    from players.models import Association, Player, User
    from ratings.models import PlayerRating, RatingList

    rng = np.random.default_rng(seed)
    today = timezone.localdate()
    now = timezone.now()
    association = Association.objects.create(name="Bench Association", slug="bench-live")
    owner = User.objects.create(username="bench-owner", email="bench-owner@example.org")
    rating_list = RatingList.objects.create(association=association, name="Bench", slug="bench-live")
    people = Player.objects.bulk_create(
        Player(full_name=f"Bench Player {i}", member_number=900_000 + i) for i in range(list_size + players)
    )
    strength = rng.normal(1300, 350, len(people)).clip(400, 2300)
    newcomers = set(rng.choice(players, size=players // 10, replace=False).tolist())
    PlayerRating.objects.bulk_create(
        PlayerRating(
            rating_list=rating_list,
            player=p,
            rating=int(strength[i]),
            games=int(rng.integers(0, 400)),
            peak=int(strength[i]),
            seed_rating=int(strength[i]),
            seed_games=0,
            last_played=today - timedelta(days=int(rng.integers(10, 400))),
        )
        for i, p in enumerate(people)
        if not (i >= list_size and i - list_size in newcomers)
    )
    event = Event.objects.create(
        slug="bench-live-open",
        title="Bench Open",
        owner=owner,
        association=association,
        status=EventStatus.IN_PROGRESS,
        starts_on=today,
        ends_on=today + timedelta(days=1),
        number_of_games=rounds,
        rated=True,
        rating_list=rating_list,
    )
    division = Division.objects.create(event=event, name="A")
    field = people[list_size:]
    DivisionPlayer.objects.bulk_create(
        DivisionPlayer(division=division, player=p, number=i + 1, rating=int(strength[list_size + i]))
        for i, p in enumerate(field)
    )
    games = []
    for number in range(1, rounds + 1):
        rnd = Round.objects.create(division=division, number=number, status=RoundStatus.PUBLISHED)
        order = rng.permutation(players)
        for board, k in enumerate(range(0, players - 1, 2), start=1):
            i, j = int(order[k]), int(order[k + 1])
            p_win = 1 / (1 + np.exp(-0.0031879 * (strength[list_size + i] - strength[list_size + j])))
            win = rng.random() < p_win
            games.append(
                Game(
                    division=division,
                    round=rnd,
                    round_number=number,
                    board=board,
                    player_a=field[i],
                    player_b=field[j],
                    score_a=420 if win else 360,
                    score_b=360 if win else 420,
                    status=GameStatus.CONFIRMED,
                    confirmed_at=now,
                )
            )
    Game.objects.bulk_create(games, batch_size=1000)
    return division


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--list-size", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment
    from django.utils import timezone

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        from events.models import Game
        from ratings.services import live_ratings
        from ratings.services.live import compute_live_ratings

        started = time.perf_counter()
        division = build(args.players, args.rounds, args.list_size)
        print(f"built {args.players} players x {args.rounds} rounds in {time.perf_counter() - started:.1f} s")
        first = live_ratings(division)
        print(f"rated games {first.rated_games}, players {len(first.players)}, db {connection.vendor}")

        game_ids = list(
            Game.objects.filter(division=division).order_by("-round_number", "board").values_list("pk", flat=True)
        )
        after_change, cached, engine, cpu = [], [], [], []
        event = division.event
        for run in range(args.runs):
            game = Game.objects.get(pk=game_ids[run % len(game_ids)])
            Game.objects.filter(pk=game.pk).update(
                score_a=game.score_b, score_b=game.score_a, confirmed_at=timezone.now() + timedelta(seconds=run + 1)
            )
            t0, c0 = time.perf_counter(), time.process_time()
            live = live_ratings(division)
            after_change.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
            t0 = time.perf_counter()
            again = live_ratings(division)
            cached.append((time.perf_counter() - t0) * 1000)
            assert again.version == live.version
            t0 = time.perf_counter()
            compute_live_ratings(event.rating_list, event, division.pk)
            engine.append((time.perf_counter() - t0) * 1000)

        print()
        title = f"live ratings, {args.players} players x {args.rounds} rounds"
        print(f"{title:<52} median    p95")
        for label, values in (
            ("after one result changed (miss: read, rate, store)", after_change),
            ("  the same, this process's CPU time", cpu),
            ("unchanged (cached)", cached),
            ("read and rate only (no version, no cache)", engine),
        ):
            print(f"{label:<52} {statistics.median(values):6.1f} ms {percentile(values, 0.95):6.1f} ms")
        verdict = "ok" if percentile(after_change, 0.95) < TARGET_MS else "MISS"
        print(f"target: after a change under {TARGET_MS:.0f} ms (p95): {verdict}")
        print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
