"""Builds a large realistic history for the benchmarks: clubs, members, rated events with entries, rounds and
games, then rates it on its list.

    DATABASE_URL=postgres://… python bench/generate_scale_data.py --players 50000 --events 5000 --games 1000000

A script of the benchmarks, not a command of the site: no app imports the benchmark folder."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path


class ScaleDataError(Exception):
    pass


def build(players: int, events: int, games: int, seed: int = 1, rate: bool = True, log: Callable = print) -> None:
    """Generates the history (and rates it unless `rate` is false); refuses sizes it cannot make."""
    from django.db import connection

    from bench.scale_data import generate, rate_history
    from events.models import Event

    if players < 300 or events < 1 or games < 5 * events:
        raise ScaleDataError("Ask for at least 300 players, 1 event and five games per event.")
    if Event.objects.filter(slug=f"scale-{seed}-1").exists():
        raise ScaleDataError(
            f"Scale data with seed {seed} is already in this database: use another --seed or a fresh database."
        )
    if connection.vendor != "postgresql":
        log("Note: without PostgreSQL this works but is slow; set DATABASE_URL=postgres://… for the full size.")
    report = generate(players=players, events=events, games=games, seed=seed, log=log)
    log(
        f"Built {report.players} players, {report.events} events, {report.entries} entries and "
        f"{report.games} games in {report.seconds:.1f}s."
    )
    if rate:
        seconds = rate_history(log=log)
        log(f"Rated the whole history in {seconds:.1f}s.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=50_000)
    parser.add_argument("--events", type=int, default=5_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-rating", action="store_true", help="skip rating the history afterwards")
    o = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import django

    django.setup()
    try:
        build(o.players, o.events, o.games, o.seed, rate=not o.no_rating)
    except ScaleDataError as error:
        print(error, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
    sys.exit(main())
