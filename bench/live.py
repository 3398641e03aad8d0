"""Live ratings on the scale list: a division in progress, one result corrected at a time.

An event starting today, rated on the scale list, with one division of `players` scale players (a
tenth of them not yet on the list) and `rounds` rounds, every result confirmed, is built inside a
transaction that is rolled back at the end, so the scale data stays as it was. Then, `runs` times,
one result is corrected (its scores swapped, a new confirmation time) and the next view of the
division's standings page is timed: it recomputes the live ratings (read, rate, store in the cache)
as the first view after a change does. The standings page is then timed once more, unchanged (the
cached live ratings), with the division's other tables: the cross-table, every scorecard, the
printed scorecards of the last round and the wall display's standings; another correction then
times `ratings.services.live_ratings(division)` alone.
"""

from __future__ import annotations

import gc
import statistics
import time
from dataclasses import dataclass
from datetime import timedelta

from bench.pages import percentile, standings_url


@dataclass
class LiveFigures:
    players: int
    rounds: int
    rated_players: int
    page_after_change: list[float]  # ms
    recompute: list[float]  # ms
    page_cached: list[float]  # ms
    pages: dict[str, list[float]]  # the division's other tables, by name: ms
    queries_after_change: int

    @staticmethod
    def summary(values: list[float]) -> tuple[float, float]:
        return statistics.median(values), percentile(values, 0.95)


def build(rating_list, players: int, rounds: int, seed: int = 7):
    """The division in progress (see the module's docstring)."""
    import numpy as np
    from django.utils import timezone

    from events.models import Division, DivisionPlayer, Event, EventStatus, Game, GameStatus, Round, RoundStatus
    from players.models import Player, User
    from ratings.models import PlayerRating

    rng = np.random.default_rng(seed)
    today = timezone.localdate()
    now = timezone.now()
    on_list = PlayerRating.objects.filter(rating_list=rating_list)
    listed = list(on_list.order_by("player_id").values_list("player_id", "rating"))
    picked = rng.choice(len(listed), size=min(players - players // 10, len(listed)), replace=False)
    rated = [listed[i] for i in sorted(picked.tolist())]
    unrated = list(
        Player.objects.exclude(pk__in=on_list.values("player_id"))
        .order_by("pk")[: players - len(rated)]
        .values_list("pk", flat=True)
    )
    field = [pid for pid, _ in rated] + unrated
    strength = np.array([r for _, r in rated] + [1000] * len(unrated), dtype=float)
    order = rng.permutation(len(field))
    field, strength = [field[i] for i in order], strength[order]
    owner, _ = User.objects.get_or_create(username="bench-live-owner", defaults={"email": "bench-live@example.org"})
    event = Event.objects.create(
        slug="bench-live-open",
        title="Bench Live Open",
        owner=owner,
        association=rating_list.association,
        status=EventStatus.IN_PROGRESS,
        starts_on=today,
        ends_on=today + timedelta(days=1),
        number_of_games=rounds,
        rated=True,
        rating_list=rating_list,
    )
    division = Division.objects.create(event=event, name="A")
    DivisionPlayer.objects.bulk_create(
        DivisionPlayer(division=division, player_id=pid, number=i + 1, rating=int(strength[i]))
        for i, pid in enumerate(field)
    )
    games = []
    for number in range(1, rounds + 1):
        rnd = Round.objects.create(division=division, number=number, status=RoundStatus.PUBLISHED)
        pairs = rng.permutation(len(field))
        for board, k in enumerate(range(0, len(field) - 1, 2), start=1):
            i, j = int(pairs[k]), int(pairs[k + 1])
            win = rng.random() < 1 / (1 + np.exp(-0.0031879 * (strength[i] - strength[j])))
            games.append(
                Game(
                    division=division,
                    round=rnd,
                    round_number=number,
                    board=board,
                    player_a_id=field[i],
                    player_b_id=field[j],
                    score_a=420 if win else 360,
                    score_b=360 if win else 420,
                    status=GameStatus.CONFIRMED,
                    confirmed_at=now,
                )
            )
    Game.objects.bulk_create(games, batch_size=1000)
    return division, len(rated)


def run(rating_list, *, players: int = 300, rounds: int = 15, runs: int = 20, log=print) -> LiveFigures:
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse
    from django.utils import timezone

    from events.models import Game
    from ratings.services import live_ratings

    with transaction.atomic():
        division, rated_players = build(rating_list, players, rounds)
        url = standings_url(division)
        slug = division.event.slug
        others = {
            "cross-table": reverse("events:play_cross_table", args=[slug, division.pk]),
            "every scorecard": reverse("events:play_scorecards", args=[slug, division.pk]),
            f"printed scorecards, round {rounds}": reverse(
                "events:play_print", args=[slug, division.pk, rounds, "scorecards"]
            ),
            "wall display, standings": reverse("events:play_wall", args=[slug, division.pk, "standings"]),
        }
        games = list(Game.objects.filter(division=division).order_by("-round_number", "board"))
        client = Client()
        moment = [timezone.now()]

        def correct(i: int) -> None:
            game = games[i % len(games)]
            game.score_a, game.score_b = game.score_b, game.score_a
            moment[0] += timedelta(seconds=1)
            Game.objects.filter(pk=game.pk).update(score_a=game.score_a, score_b=game.score_b, confirmed_at=moment[0])

        for i in range(2):  # warm-up
            correct(i)
            for other in [url, *others.values()]:
                client.get(other)
        # As the server's workers do once started (clubsite/wsgi.py): what is loaded by now is kept from the collector.
        gc.collect()
        gc.freeze()
        after, alone, cached = [], [], []
        pages: dict[str, list[float]] = {name: [] for name in others}
        for i in range(runs):
            correct(2 * i)
            started = time.perf_counter()
            response = client.get(url)
            after.append((time.perf_counter() - started) * 1000)
            if response.status_code != 200:
                raise RuntimeError(f"the live division's standings page answered HTTP {response.status_code}")
            started = time.perf_counter()
            client.get(url)
            cached.append((time.perf_counter() - started) * 1000)
            for name, other in others.items():
                started = time.perf_counter()
                response = client.get(other)
                pages[name].append((time.perf_counter() - started) * 1000)
                if response.status_code != 200:
                    raise RuntimeError(f"the live division's {name} answered HTTP {response.status_code}")
            correct(2 * i + 1)
            started = time.perf_counter()
            live_ratings(division)
            alone.append((time.perf_counter() - started) * 1000)
        correct(2 * runs)
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        transaction.set_rollback(True)
    figures = LiveFigures(players, rounds, rated_players, after, alone, cached, pages, len(queries))
    for label, values in (
        ("page after a change", after),
        ("live_ratings alone", alone),
        ("page cached", cached),
        *pages.items(),
    ):
        median, p95 = LiveFigures.summary(values)
        log(f"  {label}: median {median:.1f} ms, p95 {p95:.1f} ms")
    return figures
