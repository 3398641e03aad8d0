"""Live ratings on the scale list: a division in progress, one result corrected at a time.

An event starting today, rated on the scale list, with one division of `players` scale players (a
tenth of them not yet on the list) and `rounds` rounds, every result confirmed, is built and committed,
and deleted at the end (and at the start, if an earlier run was cut short), so the scale data stays as
it was. Then, `runs` times, one result is corrected by the event's director through the service (its
scores swapped, with a reason), committed as on the site: the correction queues the live ratings'
refresh after commit, which runs there and then with tasks in-process (a worker does it with a broker).
The correction is timed, then the next view of the division's standings page, with the division's
other tables: the cross-table, every scorecard, the printed scorecards of the last round and the wall
display's standings. The standings page is timed once more unchanged, and the live ratings' work alone
(read, rate; the players' standing before the event comes from the cache, as it does once an event is
under way) with `ratings.services.compute_live_ratings`.
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
    correction: list[float]  # ms: the director's correction, committed, live ratings refreshed
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

    from events.models import Event, EventStatus
    from events.play.models import Division, DivisionPlayer, Game, GameStatus, Round, RoundStatus
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
        slug=SLUG,
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


SLUG = "bench-live-open"


def run(rating_list, *, players: int = 300, rounds: int = 15, runs: int = 20, log=print) -> LiveFigures:
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from events.models import Event
    from events.play.models import Game
    from events.play.services import submit_result
    from ratings.services.live import compute_live_ratings

    Event.objects.filter(slug=SLUG).delete()  # left by a run cut short
    with transaction.atomic():
        division, rated_players = build(rating_list, players, rounds)
    try:
        event = division.event
        url = standings_url(division)
        others = {
            "cross-table": reverse("events:play_cross_table", args=[SLUG, division.pk]),
            "every scorecard": reverse("events:play_scorecards", args=[SLUG, division.pk]),
            f"printed scorecards, round {rounds}": reverse(
                "events:play_print", args=[SLUG, division.pk, rounds, "scorecards"]
            ),
            "wall display, standings": reverse("events:play_wall", args=[SLUG, division.pk, "standings"]),
        }
        games = list(Game.objects.filter(division=division).order_by("-round_number", "board"))
        client = Client()

        def correct(i: int) -> float:
            """The director swaps one game's scores, committed: ms."""
            game = games[i % len(games)]
            started = time.perf_counter()
            submit_result(event.owner, game, game.score_b, game.score_a, reason="scores entered the wrong way round")
            elapsed = (time.perf_counter() - started) * 1000
            game.score_a, game.score_b = game.score_b, game.score_a
            return elapsed

        for i in range(2):  # warm-up
            correct(i)
            for other in [url, *others.values()]:
                client.get(other)
        # As the server's workers do once started (clubsite/wsgi.py): what is loaded by now is kept from the collector.
        gc.collect()
        gc.freeze()
        corrections, after, alone, cached = [], [], [], []
        pages: dict[str, list[float]] = {name: [] for name in others}
        for i in range(runs):
            corrections.append(correct(2 * i))
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
            compute_live_ratings(rating_list, event, division.pk)
            alone.append((time.perf_counter() - started) * 1000)
        correct(2 * runs)
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
    finally:
        Event.objects.filter(pk=division.event_id).delete()
    figures = LiveFigures(players, rounds, rated_players, corrections, after, alone, cached, pages, len(queries))
    for label, values in (
        ("director's correction", corrections),
        ("page after a change", after),
        ("live ratings worked out", alone),
        ("page cached", cached),
        *pages.items(),
    ):
        median, p95 = LiveFigures.summary(values)
        log(f"  {label}: median {median:.1f} ms, p95 {p95:.1f} ms")
    return figures
