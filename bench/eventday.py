"""Event day under load: a tournament being played, every request of the venue at once, on the production stack.

An event in progress is built on the scale data: `players` new members with accounts (made once, kept for later
runs; all but one in twenty rated on the list, as at a rated event), in divisions of about a hundred (three at
300 players), its first round paired and published by its director through the services. The production stack
serves it: gunicorn with `make serve`'s default workers (two a CPU),
a Celery worker on the broker (`broker`; none: tasks run in the server), PostgreSQL. Locust
(`bench/eventday_locust.py`, headless, in a process of its own) then plays the venue for `seconds`:

- every player's phone opens "my game" and its division's live standings, and polls both every 20 seconds, as a
  browser with a cache does (a conditional request when it holds the page with an ETag);
- each game ends at a random moment of the round: one player reports it, the other confirms it on their next poll;
  a share (`dispute_share`) is disputed instead and settled by the division's director. The round goes at one of
  two paces (`pace`):
  - "real", a real round's: 25 minutes a player, so the games end between 30 and 50 minutes into the round, a
    division's 50 games over 20 minutes. A run of a few minutes cannot hold a whole round, so it holds its end:
    the games that ended before the run are in already (entered through the services), and each division's last
    few come in during the run, at the rate they come in at a venue, its last one a quarter to half way through
    (divisions finish apart, as they do; the rest of the run leaves time for its report, confirmation and
    walls). Then its director publishes round 2, whose games end long after the run;
  - "minute", a stress test beyond any venue: the whole round's results within a minute (a third of the run, 20
    to 90 seconds; games end 20 to 90 % of the way through it from when their phone first sees them), about
    twenty times a real round's rate, so that nearly every poll finds its page changed;
- four wall displays per division (pairings, standings, find-my-table, pairings) poll their version address every
  5 seconds, as venue.js does, and reload when it changes;
- each division's director watches the rounds (every 2 seconds, through the API) and pairs and publishes the next
  round as soon as the last result is in, while the phones keep polling;
- visitors (a tenth of the players) read the event page and the rating list every 20 to 40 seconds.

Figures (after the run's first poll interval, its warm-up, when every phone and wall loads its pages for the first
time: at a venue that happens as the players arrive, over the hour before; counted apart): per kind of request, its
count, rate, median, 95th and 99th percentile and errors (Locust's, measured at
the client: wall-clock, on the same two CPUs as the server); CPU per request of the web workers, the Celery
worker and the database; the time from publishing a round (and from the last result before it) until every wall
of the division showed it. Then the database is checked against what the clients did: every result reported is
stored with the scores sent (or the director's, for a dispute), every result confirmed is confirmed, none twice.
The event is deleted at the end (and at the start, if a run was cut short); the members stay for the next run.
"""

from __future__ import annotations

import csv
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from bench import burst

ROOT = Path(__file__).resolve().parents[1]
PREFIX = "bench-day-"
SLUG = "bench-day-open"
DIVISION_SIZE = 100
POLL_SECONDS = 20  # a phone's polls; the run's first interval is its warm-up
PACES = ("real", "minute")
# A real round (25 minutes a player): its games end between 30 and 50 minutes after it starts.
REAL_ROUND_SECONDS = 50 * 60
REAL_RESULTS = (30 * 60, 50 * 60)
WALL_KINDS = ["pairings", "standings", "find", "pairings"]


@dataclass
class Kind:
    name: str
    requests: int
    failures: int
    per_second: float
    median_ms: float
    p95_ms: float
    p99_ms: float


@dataclass
class EventDayFigures:
    players: int
    divisions: int
    users: int
    seconds: float
    kinds: list[Kind]
    total: Kind
    cpu_ms: dict = field(default_factory=dict)  # CPU ms per request: server, worker, database, clients (Locust)
    publish_to_walls: list[float] = field(default_factory=list)  # s, per round published: until every wall showed it
    result_to_walls: list[float] = field(default_factory=list)  # s: from the last result before it
    rounds_published: int = 0
    walls_missing: int = 0  # rounds published that some wall never showed before the run ended
    counts: dict = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # results lost, counted twice or not as sent
    not_modified: int = 0  # polls answered 304
    server_ms: dict = field(default_factory=dict)  # kind -> (median, p95) ms inside the server (its access log)
    broker: str = ""


def _sessions(user_ids: list[int]) -> list[str]:
    """A signed-in session for each account, as a browser holds after logging in (password log-ins would be
    the benchmark's cost, not the venue's)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from players.models import User

    keys = []
    for user in User.objects.filter(pk__in=user_ids).order_by("pk"):
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        keys.append((user.pk, session.session_key))
    order = {pk: i for i, pk in enumerate(user_ids)}
    return [key for _, key in sorted(keys, key=lambda k: order[k[0]])]


# One player in twenty comes to the event unrated, as newcomers do; the rest hold a rating on the list.
NEWCOMER_EVERY = 20


def _rated(rating_list, seats, today) -> None:
    """The players' ratings on the list, as a rated event's players hold them (their seat's rating, imported
    a year before), but for the newcomers. A newcomer's rating if the event ended now depends on every other
    newcomer's results, so a venue of newcomers only would see every phone's "my game" change with each result."""
    from datetime import timedelta

    from ratings.models import PlayerRating

    on = today - timedelta(days=365)
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                rating_list=rating_list,
                player_id=seat.player_id,
                rating=seat.rating,
                games=100,
                peak=seat.rating,
                last_played=on,
                seed_rating=seat.rating,
                seed_games=100,
                seed_on=on,
            )
            for seat in seats
            if seat.player_id % NEWCOMER_EVERY
        ],
        ignore_conflicts=True,
    )


def build(rating_list, players: int, rounds: int, seed: int = 11) -> tuple:
    """The event in progress, its first round published; (event, divisions, phones, director's token)."""
    from django.db import transaction
    from django.utils import timezone

    from events.models import Event, EventStatus
    from events.play import services as play
    from events.play.models import Division, DivisionPlayer
    from players.models import Player

    rng = random.Random(seed)
    tokens = burst._members(players + 1, prefix=PREFIX, name="Venue Player")
    names = [f"{PREFIX}{i:04d}" for i in range(players + 1)]
    people = dict(Player.objects.filter(user__username__in=names).values_list("user__username", "pk"))
    users = dict(Player.objects.filter(user__username__in=names).values_list("user__username", "user_id"))
    director_name = names[-1]
    today = timezone.localdate()
    divisions_count = max(2 if players >= 20 else 1, round(players / DIVISION_SIZE))
    with transaction.atomic():
        from players.models import User

        event = Event.objects.create(
            slug=SLUG,
            title="Venue Day Open",
            owner=User.objects.get(username=director_name),
            association=rating_list.association,
            status=EventStatus.IN_PROGRESS,
            starts_on=today,
            ends_on=today + timedelta(days=1),
            number_of_games=rounds,
            rated=True,
            rating_list=rating_list,
        )
        field_ = names[:players]
        rng.shuffle(field_)
        divisions = []
        for d in range(divisions_count):
            members = field_[d::divisions_count]
            division = Division.objects.create(event=event, name=chr(ord("A") + d), position=d)
            seats = DivisionPlayer.objects.bulk_create(
                DivisionPlayer(division=division, player_id=people[n], number=i + 1, rating=rng.randint(600, 2100))
                for i, n in enumerate(sorted(members, key=lambda n: people[n]))
            )
            divisions.append((division, members))
            _rated(rating_list, seats, today)
    director = event.owner
    for division, _ in divisions:
        rnd = play.pair_round(director, division, "koth")
        play.publish_round(director, rnd)
    sessions = _sessions([users[n] for n in names[:players]])
    session_of = dict(zip(names[:players], sessions, strict=True))
    phones = [
        {"player": people[n], "division": division.pk, "session": session_of[n]}
        for division, members in divisions
        for n in members
    ]
    return event, [d for d, _ in divisions], phones, tokens[-1]


def _before_the_run(director, divisions, seconds: int, seed: int = 12) -> dict[str, float]:
    """At a real round's pace: each division's games that ended before the run, entered (as a director enters
    them, confirmed); the rest, when each ends (seconds into the run), by game."""
    from events.play import services as play
    from events.play.models import Game, GameKind

    rng = random.Random(seed)
    due = {}
    for division in divisions:
        games = list(Game.objects.filter(division=division, kind=GameKind.NORMAL, player_b__isnull=False))
        ends = {game.pk: rng.uniform(*REAL_RESULTS) for game in games}
        last = max(ends.values(), default=0)
        finish = rng.uniform(1 / 4, 1 / 2) * seconds  # when the division's last game ends, into the run
        for game in games:
            at = ends[game.pk] - last + finish
            if at >= 0:
                due[str(game.pk)] = at
            else:
                score = rng.randint(300, 500)
                play.submit_result(director, game, score, score + rng.choice([-1, 1]) * rng.randint(1, 150))
    return due


def _plan(event, divisions, phones, token, *, players, rounds, round_seconds, dispute_share, due, end_share) -> dict:
    from django.urls import reverse

    from events.play.views.venue import WALL_POLL_SECONDS

    slug = event.slug
    walls = [
        {
            "division": d.pk,
            "url": reverse("events:play_wall", args=[slug, d.pk, kind]),
            "version_url": reverse("events:play_wall_version", args=[slug, d.pk]),
        }
        for d in divisions
        for kind in WALL_KINDS
    ]
    return {
        "poll_seconds": POLL_SECONDS,
        "warmup_seconds": POLL_SECONDS,  # every phone's and wall's first pages: counted apart (eventday_locust.py)
        "wall_poll_seconds": WALL_POLL_SECONDS,
        "round_seconds": round_seconds,
        "due": due,  # game -> seconds into the run when it ends (a real round's last games)
        "end_share": end_share,  # when a game seen for the first time ends, as a share of the round from then
        "dispute_share": dispute_share,
        "rounds": rounds,
        "phones": phones,
        "walls": walls,
        "walls_per_division": len(WALL_KINDS),
        "divisions": [d.pk for d in divisions],
        "director_token": token,
        "visitors": max(1, players // 10),
        "visitor_pages": [
            ["visitor: event page", reverse("events:detail", args=[slug])],
            ["visitor: rating list", "/ratings/"],
        ],
        "my_game_url": reverse("events:play_my_game", args=[slug]),
        "play_url": reverse("events:play_hub", args=[slug]),
        "standings_urls": {str(d.pk): reverse("events:play_standings", args=[slug, d.pk]) for d in divisions},
    }


def _kinds(stats_csv: Path, seconds: float) -> tuple[list[Kind], Kind]:
    kinds, total = [], None
    with open(stats_csv) as f:
        for row in csv.DictReader(f):
            kind = Kind(
                name=row["Name"],
                requests=int(row["Request Count"]),
                failures=int(row["Failure Count"]),
                per_second=int(row["Request Count"]) / seconds,
                median_ms=float(row["50%"] or 0),
                p95_ms=float(row["95%"] or 0),
                p99_ms=float(row["99%"] or 0),
            )
            if row["Name"] == "Aggregated":
                total = kind
            else:
                kinds.append(kind)
    return sorted(kinds, key=lambda k: k.name), total


def _server_times(access_log: Path, plan: dict) -> dict[str, list[float]]:
    """Each request's time inside the server (ms, from gunicorn's access log), by the kind of request the clients
    name it: set beside the clients' figures, it tells time spent serving from time spent waiting for a worker."""
    kinds = {plan["my_game_url"]: "my game", **{url: "standings" for url in plan["standings_urls"].values()}}
    kinds.update({wall["version_url"]: "wall version" for wall in plan["walls"]})
    kinds.update({wall["url"]: "wall page" for wall in plan["walls"]})
    kinds.update({url: name.split(": ")[1] for name, url in plan["visitor_pages"]})
    times: dict[str, list[float]] = {}
    for line in access_log.read_text().splitlines():
        method, _status, micros, path = (line.split() + [""])[:4]
        if method == "POST":
            kind = "director (API)" if path.startswith("/api/") else path.rstrip("/").rsplit("/", 1)[-1]
        else:
            kind = kinds.get(path, "director (API)" if path.startswith("/api/") else "other")
        times.setdefault(kind, []).append(int(micros) / 1000)
    return times


def _check(event, outcome: dict) -> list[str]:
    """What the database holds against what the clients did."""
    from events.play.models import Game, GameStatus

    games = {g.pk: g for g in Game.objects.filter(division__event=event)}
    problems = []
    for pk, (who, first, second) in outcome["expected"].items():
        game = games.get(int(pk))
        if game is None:
            problems.append(f"game {pk}: reported, not in the database")
            continue
        if who == "a" or game.player_a_id == who:
            stored = (game.score_a, game.score_b)
        else:
            stored = (game.score_b, game.score_a)
        if stored != (first, second):
            problems.append(f"game {pk}: reported {first}-{second}, stored {stored[0]}-{stored[1]}")
    for pk in outcome["confirmed"]:
        if games[int(pk)].status != GameStatus.CONFIRMED:
            problems.append(f"game {pk}: confirmed by the clients, {games[int(pk)].status} in the database")
    if len(set(outcome["confirmed"])) != len(outcome["confirmed"]):
        problems.append("a game was confirmed twice")
    return problems


def run(
    rating_list,
    *,
    players: int = 300,
    seconds: int = 180,
    pace: str = "real",
    rounds: int = 12,
    dispute_share: float = 0.03,
    broker: str = "",
    cache_url: str = "",
    log=print,
) -> EventDayFigures:
    from events.models import Event

    Event.objects.filter(slug=SLUG).delete()  # left by a run cut short
    if pace not in PACES:
        raise RuntimeError(f"no pace {pace!r}: {', '.join(PACES)}")
    event, divisions, phones, token = build(rating_list, players, rounds)
    if pace == "real":
        due = _before_the_run(event.owner, divisions, seconds)
        round_seconds, end_share = REAL_ROUND_SECONDS, [at / REAL_ROUND_SECONDS for at in REAL_RESULTS]
    else:
        # Rounds short enough that a run sees a round's results come in and the next round reach the walls.
        round_seconds, due, end_share = max(20, min(90, seconds // 3)), {}, [0.2, 0.9]
    work = Path(tempfile.mkdtemp(prefix="bench-day-"))
    plan = _plan(event, divisions, phones, token, players=players, rounds=rounds, round_seconds=round_seconds,
                 dispute_share=dispute_share, due=due, end_share=end_share)  # fmt: skip
    (work / "plan.json").write_text(json.dumps(plan))
    users = len(plan["phones"]) + len(plan["walls"]) + len(plan["divisions"]) + plan["visitors"]
    env = {**os.environ, "CELERY_BROKER_URL": broker}
    if cache_url:
        env["CACHE_URL"] = cache_url
    # As `make serve` does: the pages name their static files by the manifest collectstatic writes.
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"], cwd=ROOT, env=env, check=True
    )
    worker = burst._start_worker(env, log) if broker else None
    server = None
    try:
        port = burst._free_port()
        server = burst._start_server(port, work / "access.log", log, env)
        meter = burst.CpuMeter(server, worker)
        command = [
            sys.executable, "-m", "locust", "-f", str(ROOT / "bench" / "eventday_locust.py"),
            "--headless", "--host", f"http://127.0.0.1:{port}",
            "-u", str(users), "-r", str(max(10, users // 10)), "-t", f"{seconds}s",
            "--csv", str(work / "locust"), "--only-summary", "--loglevel", "ERROR", "--stop-timeout", "5",
        ]  # fmt: skip
        locust_env = {**env, "EVENTDAY_PLAN": str(work / "plan.json"), "EVENTDAY_OUT": str(work / "out.json")}
        log(f"  locust: {users} users for {seconds} s …")
        meter.begin()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(command, cwd=ROOT, env=locust_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        elapsed = time.perf_counter() - started
        cpu = meter.end()
        # Locust shares the two CPUs with the server: what it took tells how much of them the venue's side had.
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu["clients"] = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        if not (work / "locust_stats.csv").exists() or not (work / "out.json").exists():
            raise RuntimeError(f"locust did not finish: {done.stdout.decode()[-2000:]}")
        kinds, total = _kinds(work / "locust_stats.csv", min(elapsed, seconds) - plan["warmup_seconds"])
        outcome = json.loads((work / "out.json").read_text())
        served = _server_times(work / "access.log", plan)
        if worker is not None:
            time.sleep(2)  # the worker's last tasks (live ratings) before the database is read
        problems = _check(event, outcome)
    finally:
        burst._stop_server(server)
        burst._stop_server(worker)
    walls, results = [], []
    missing = 0
    for key, at in outcome["published"].items():
        shown = outcome["seen"].get(key, [])
        if len(shown) < plan["walls_per_division"]:
            missing += 1
            continue
        walls.append(max(shown) - at)
        results.append(max(shown) - outcome["result_before"][key])
    counts = {k: v for k, v in outcome["counts"].items() if not k.startswith("disputed ")}
    # The CPU was measured over the whole run, warm-up included.
    requests = max(1, (total.requests if total else 0) + counts.get("warm-up requests", 0))
    figures = EventDayFigures(
        players=players,
        divisions=len(divisions),
        users=users,
        seconds=min(elapsed, seconds),
        kinds=kinds,
        total=total,
        cpu_ms={name: value * 1000 / requests for name, value in cpu.items()},
        publish_to_walls=walls,
        result_to_walls=results,
        rounds_published=len(outcome["published"]),
        walls_missing=missing,
        counts=counts,
        problems=problems,
        not_modified=counts.get("304", 0),
        server_ms={kind: (statistics.median(t), _p95(t)) for kind, t in sorted(served.items())},
        broker=broker,
    )
    Event.objects.filter(slug=SLUG).delete()
    return figures


def report(f: EventDayFigures, add, label: str, setup: str, judged: tuple[float, float] | None, ok) -> None:
    """The run's rows of `make bench`'s table (`add(measure, figure, target, verdict)`); `judged`: the targets
    (p95 ms of every kind, seconds until every wall shows a round), or None to print the figures only."""
    day_ms, walls_s = judged or (None, None)
    add(
        f"{label}: the venue",
        f"{f.divisions} divisions, {f.users} clients, {setup}; "
        f"{f.total.requests} requests, {f.total.per_second:.0f}/s, {f.not_modified} answered 304",
    )
    for kind in f.kinds:
        add(
            f"{label}: {kind.name}",
            f"{kind.requests} ({kind.per_second:.1f}/s), median {kind.median_ms:.0f} ms, p95 {kind.p95_ms:.0f} ms, "
            f"p99 {kind.p99_ms:.0f} ms, {kind.failures} errors",
            f"p95 < {day_ms:.0f} ms, no error" if judged else "(stress: no target)",
            ok(kind.p95_ms < day_ms and kind.failures == 0) if judged else "",
        )
    warm = [f.counts.pop(f"warm-up {k}", 0) for k in ("requests", "p95 ms", "max ms", "errors")]
    add(
        f"{label}: warm-up",
        f"the first {POLL_SECONDS} s, every phone's and wall's first pages (not in the rows above): "
        f"{warm[0]} requests, p95 {warm[1]} ms, max {warm[2]} ms, {warm[3]} errors",
        "no error",
        ok(warm[3] == 0),
    )
    cpu = ", ".join(f"{name} {ms:.1f} ms" for name, ms in sorted(f.cpu_ms.items())) or "not measured"
    lag = f.counts.pop("loop lag p95 ms", None), f.counts.pop("loop lag max ms", None)  # the clients' own delay
    add(f"{label}: CPU per request", cpu + f"; clients' loop late p95/max {lag[0]}/{lag[1]} ms")
    served = ", ".join(f"{kind} {median:.0f}/{p95:.0f}" for kind, (median, p95) in f.server_ms.items())
    add(f"{label}: ms inside the server, median/p95", served or "not read")
    add(
        f"{label}: publishing to every wall",
        summary(f.publish_to_walls)
        + (f"; {f.walls_missing} rounds not yet on every wall when the run ended" if f.walls_missing else ""),
        f"<= {walls_s:.0f} s" if judged else "",
        ok(bool(f.publish_to_walls) and max(f.publish_to_walls) <= walls_s) if judged else "",
    )
    add(f"{label}: last result to every wall", summary(f.result_to_walls))
    done = ", ".join(f"{k} {v}" for k, v in sorted(f.counts.items()) if k != "304")
    add(
        f"{label}: results",
        f"{done}; " + ("none lost or counted twice" if not f.problems else "; ".join(f.problems[:5])),
        "none lost or twice",
        ok(not f.problems),
    )


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def summary(values: list[float]) -> str:
    if not values:
        return "none"
    return f"median {statistics.median(values):.1f} s, worst {max(values):.1f} s ({len(values)} rounds)"
