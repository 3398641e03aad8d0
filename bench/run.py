"""Benchmarks on scale data: re-rating, pages, a registration burst and Swiss pairing; one table.

    DATABASE_URL=postgres://… python bench/run.py

Builds the scale data first if the database has none (`bench/generate_scale_data.py`, sized by
BENCH_GAMES), then runs each part and prints one table of figures against the targets. These
are measurements, not tests: nothing fails, a missed target is marked "MISS".

Settings (environment variables):
  BENCH_GAMES    games in the generated history (default 1000000); players = games/20,
                 events = games/200
  BENCH_SEED     seed of the generated history (default 1)
  BENCH_RUNS     timed requests per page (default 20, after 2 warm-up requests)
  BENCH_CLIENTS  concurrent clients in the registration burst (default 500)
  BENCH_PLACES   places in the burst's event (default 50)
  BENCH_PARTS    which parts to run, comma-separated: rating,pages,live,burst,pairing,eventday (default all)
  BENCH_BROKER_URL  the broker of the burst's server and Celery worker (default: CELERY_BROKER_URL;
                 "off" or neither set: no broker, the server sends mail itself)
  BENCH_PROFILE  1: profile the full re-rate with pyinstrument and print the profile
  BENCH_DAY_PLAYERS  players of the event-day run at 1x (default 300; 3x has three times as many)
  BENCH_DAY_SECONDS  seconds of each event-day run (default 180)
  BENCH_DAY_SCALES   the event-day runs, comma-separated multiples of BENCH_DAY_PLAYERS (default 1,3)
  BENCH_DAY_PACES    the rounds' paces, comma-separated: real (a real round's end), minute (stress) (default both)
Without PostgreSQL only the parts that need no database run, at a small size.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# Production-like settings for the benchmark process and the server it starts.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECRET_KEY", "bench-only-not-secret")
os.environ.setdefault("SECURE", "0")
os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
os.environ.setdefault("EMAIL_URL", "dummymail://localhost")
os.environ.setdefault("PYTHONWARNINGS", "ignore:No directory at")  # whitenoise, in the server too
# The burst's server and worker use a broker as production does: BENCH_BROKER_URL, else the CELERY_BROKER_URL
# given; "off" for none.
BURST_BROKER = os.environ.get("BENCH_BROKER_URL", "").strip() or os.environ.get("CELERY_BROKER_URL", "").strip()
os.environ.setdefault("CELERY_BROKER_URL", "")

TARGETS = {
    "rerate": 10.0,  # seconds for 1,000,000 games ...
    "rerate_reads": 6.0,  # ... and at most this many times the time to read the games
    "rerate_5m": 30.0,  # seconds for 5,000,000 games (BENCH_GAMES=5000000) ...
    "rerate_reads_5m": 4.0,  # ... and at most this many times the read
    "rerate_memory_gb": 4.0,  # peak resident memory of the process that re-rates
    "correction": 1.0,  # seconds to re-rate after correcting one game in the latest event
    "page_ms": 50.0,  # 95th-percentile server time
    "live_ms": 100.0,  # 95th-percentile time to recompute a division's live ratings after a change
    "pairing": 0.5,  # seconds for a 500-player Swiss round
    "burst_rate": 200.0,  # registrations per second in the burst
    "burst_server_ms": 10.0,  # median server time of a registration in the burst
    "day_ms": 100.0,  # event day: 95th percentile of every kind of request, at 1x and 3x a 300-player round
    "day_walls": 10.0,  # event day: seconds from publishing a round until every wall of its division shows it
}


def _safe_url(url: str) -> str:
    """A broker URL without its password, for the table."""
    return re.sub(r"//([^:/@]*):[^@]*@", r"//\1:***@", url)


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip().replace("_", "")
    return int(value) if value else default


class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, str, str]] = []
        self.broken: list[str] = []  # parts that could not run: the run exits non-zero (a figure never does)

    def add(self, part: str, what: str, figure: str, target: str = "", verdict: str = "") -> None:
        self.rows.append((part, what, figure, target, verdict))

    def print(self) -> None:
        head = ("part", "measure", "figure", "target", "")
        widths = [max(len(r[i]) for r in [head, *self.rows]) for i in range(5)]
        line = "  ".join("-" * w for w in widths)
        print()
        print("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip())
        print(line)
        last = None
        for row in self.rows:
            cells = list(row)
            if row[0] == last:
                cells[0] = ""
            last = row[0]
            print("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip())
        print()


def ok(good: bool) -> str:
    return "ok" if good else "MISS"


def is_postgres() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://", "pgsql://"))


def machine_speed() -> float:
    """CPU seconds of a fixed pure-Python loop (the best of three): on a shared machine the same code can run twice
    as slowly from one minute to the next, and this says which kind of minute a run had."""
    best = float("inf")
    for _ in range(3):
        started, total = time.process_time(), 0
        for i in range(1_000_000):
            total += i
        best = min(best, time.process_time() - started)
    return best


def setup_django() -> None:
    import warnings

    import django
    from django.conf import settings

    # Templates ask for static files; the benchmark does not need collectstatic's manifest.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    django.setup()
    warnings.filterwarnings("ignore", message="No directory at")


def ensure_data(games: int, seed: int) -> None:
    from django.core.management import call_command

    from bench.generate_scale_data import build
    from events.play.models import Game
    from ratings.models import RatedEvent, RatingList

    call_command("migrate", verbosity=0, interactive=False)
    rating_list = RatingList.objects.filter(slug="scale-ratings").first()
    have = Game.objects.filter(division__event__rating_list=rating_list).count() if rating_list else 0
    if not have:
        players, events = max(300, games // 20), max(1, games // 200)
        print(f"No scale data yet: generating {players} players, {events} events, about {games} games …", flush=True)
        build(players=players, events=events, games=games, seed=seed)
    else:
        ledger = RatedEvent.objects.filter(rating_list=rating_list).count()
        print(f"Using the scale data already there: {have} games, {ledger} rated events.", flush=True)
        if abs(have - games) > 0.2 * games:
            print(f"  (BENCH_GAMES={games} asks for another size: drop the database to rebuild it.)")
        if not ledger:
            from bench.scale_data import rate_history

            rate_history(rating_list)


def part_rating(table: Table, profile: bool, asked: int) -> None:
    from bench import rerate
    from bench.memory import PeakMemory
    from ratings.models import RatingList

    print("Re-rating the whole history …", flush=True)
    rating_list = RatingList.objects.get(slug="scale-ratings")
    with PeakMemory() as memory:
        figures = rerate.run(rating_list, profile=profile)
    # A history five times larger has targets of its own: 30 s for 5,000,000 games, and 4 times the read.
    # The generator's history comes out within a percent or so of the size asked for (4,995,801 games for 5,000,000).
    large = asked >= 5_000_000
    limit = (TARGETS["rerate_5m"] * figures.games / 5_000_000) if large else TARGETS["rerate"] * figures.games / 1e6
    reads = TARGETS["rerate_reads_5m"] if large else TARGETS["rerate_reads"]
    table.add("re-rate", "games / events rated", f"{figures.games:,} / {figures.events:,}")
    table.add("re-rate", "read the games (ORM rows: the yardstick)", f"{figures.read_seconds:.2f} s")
    table.add(
        "re-rate",
        "full re-rate: rerate_from(first day)",
        f"{figures.service_seconds:.2f} s = {figures.service_seconds / figures.read_seconds:.1f}x read",
        f"<= {limit:.1f} s, <= {reads:.0f}x read",
        ok(figures.service_seconds <= limit and figures.service_seconds <= reads * figures.read_seconds),
    )
    table.add(
        "re-rate",
        "peak memory of this process while reading and re-rating",
        f"{memory.peak / 2**30:.2f} GB (it held {memory.start / 2**30:.2f} GB before)",
        f"<= {TARGETS['rerate_memory_gb']:.0f} GB",
        ok(memory.peak <= TARGETS["rerate_memory_gb"] * 2**30),
    )
    table.add(
        "re-rate",
        "engine alone (rate_history on arrays)",
        f"{figures.engine_seconds:.2f} s = {figures.engine_seconds / figures.read_seconds:.2f}x read",
    )
    correction = rerate.correct_latest(rating_list)
    table.add(
        "re-rate",
        "result corrected in the latest event: result_corrected(event)",
        f"{correction.seconds:.2f} s ({correction.games} games in {correction.event}; run {correction.status})",
        f"<= {TARGETS['correction']:.0f} s",
        ok(correction.seconds <= TARGETS["correction"]),
    )
    if figures.profile_text:
        print(figures.profile_text)


def _timing(page) -> str:
    return f"median {page.median_ms:.1f} ms (CPU {page.cpu_ms:.1f}), p95 {page.p95_ms:.1f} ms, {page.queries} queries"


def part_pages(table: Table, runs: int) -> None:
    from bench import pages
    from ratings.models import RatingList

    print(f"Pages ({runs} timed requests each) …", flush=True)
    figures = pages.run(RatingList.objects.get(slug="scale-ratings"), runs=runs)
    by_name: dict[str, list] = {}
    for f in figures:
        by_name.setdefault(f.name, []).append(f)
    for name, group in by_name.items():
        if len(group) == 1:
            (one,) = group
            table.add(
                "pages",
                f"{name} [{one.size}]",
                _timing(one),
                f"p95 < {TARGETS['page_ms']:.0f} ms",
                ok(one.p95_ms < TARGETS["page_ms"] and one.status in (0, 200)),
            )
            continue
        big, small = group
        # Growing is more queries with more data; a page showing the small case something else may ask one more.
        grows = big.queries > small.queries
        status = "" if big.status in (0, 200) else f" HTTP {big.status}"
        table.add(
            "pages",
            f"{name} [{big.size}]{status}",
            _timing(big),
            f"p95 < {TARGETS['page_ms']:.0f} ms",
            ok(big.p95_ms < TARGETS["page_ms"] and big.status in (0, 200)),
        )
        table.add(
            "pages",
            f"  same page [{small.size}]",
            _timing(small),
            "no fewer queries",
            "MISS (grows)" if grows else "ok",
        )


def part_live(table: Table, runs: int, players: int = 300, rounds: int = 15) -> None:
    from bench import live
    from ratings.models import RatingList

    print(f"Live ratings of a {players}-player division in progress, {rounds} rounds …", flush=True)
    f = live.run(RatingList.objects.get(slug="scale-ratings"), players=players, rounds=rounds, runs=runs)
    size = f"{f.players} players ({f.rated_players} rated) x {f.rounds} rounds"
    median, p95 = f.summary(f.correction)
    table.add(
        "live",
        f"director corrects a result (committed; live ratings refreshed after commit) [{size}]",
        f"median {median:.1f} ms, p95 {p95:.1f} ms",
    )
    median, p95 = f.summary(f.page_after_change)
    table.add(
        "live",
        "standings page after a result is corrected",
        f"median {median:.1f} ms, p95 {p95:.1f} ms, {f.queries_after_change} queries",
        f"p95 < {TARGETS['page_ms']:.0f} ms",
        ok(p95 < TARGETS["page_ms"]),
    )
    median, p95 = f.summary(f.recompute)
    table.add(
        "live",
        "  live ratings worked out after a correction: compute_live_ratings (read, rate)",
        f"median {median:.1f} ms, p95 {p95:.1f} ms",
        f"p95 < {TARGETS['live_ms']:.0f} ms",
        ok(p95 < TARGETS["live_ms"]),
    )
    median, p95 = f.summary(f.page_cached)
    table.add("live", "  the same page, unchanged (live ratings cached)", f"median {median:.1f} ms, p95 {p95:.1f} ms")
    for name, values in f.pages.items():
        median, p95 = f.summary(values)
        table.add(
            "live",
            f"{name} of that division",
            f"median {median:.1f} ms, p95 {p95:.1f} ms",
            f"p95 < {TARGETS['page_ms']:.0f} ms",
            ok(p95 < TARGETS["page_ms"]),
        )


def part_burst(table: Table, clients: int, places: int) -> None:
    from bench import burst

    broker = "" if BURST_BROKER.lower() in ("", "off", "none") else BURST_BROKER
    note = ""
    if broker and not burst.broker_reachable(broker):
        note = f"; broker {_safe_url(broker)} unreachable, so none"
        broker = ""
    setup = f"broker {_safe_url(broker)} and 1 Celery worker" if broker else "no broker (mail sent by the server)"
    print(f"Registration burst: {clients} clients, {places} places, {setup}{note} …", flush=True)
    try:
        figures = burst.run(clients=clients, places=places, broker=broker)
    except RuntimeError as error:
        table.add("burst", "registration burst", f"not run: {error}")
        table.broken.append(f"burst: {error}")
        return
    table.add("burst", "configuration", f"gunicorn {burst.web_workers()} sync workers, {setup}{note}")
    table.add(
        "burst",
        f"{clients} clients at once, {burst.web_workers()} workers",
        f"{figures.registered / figures.seconds:.0f} registrations/s ({figures.registered} in {figures.seconds:.2f} s)",
        f">= {TARGETS['burst_rate']:.0f}/s",
        ok(figures.registered / figures.seconds >= TARGETS["burst_rate"]),
    )
    table.add("burst", "response time per client", f"median {figures.median_ms:.0f} ms, p95 {figures.p95_ms:.0f} ms")
    table.add("burst", "HTTP statuses", ", ".join(f"{k}: {v}" for k, v in figures.statuses.items()))
    served = figures.server_ms
    if len(served) >= 100:
        import statistics

        first, last = statistics.median(served[:50]), statistics.median(served[-50:])
        busy = sum(served) / 1000 / 2
        median = statistics.median(served)
        table.add(
            "burst",
            "server time per registration (access log)",
            f"median {median:.1f} ms; first 50 {first:.1f} ms, last 50 {last:.1f} ms; "
            f"workers busy {min(busy / figures.seconds, 1.0):.0%} of the burst",
            f"median <= {TARGETS['burst_server_ms']:.0f} ms",
            ok(median <= TARGETS["burst_server_ms"]),
        )
    if figures.cpu and figures.registered:
        from django.conf import settings

        per = {name: seconds * 1000 / figures.registered for name, seconds in figures.cpu.items()}
        shown = ", ".join(f"{name} {ms:.1f} ms" for name, ms in per.items())
        if not settings.DATABASES["default"].get("CONN_MAX_AGE"):
            shown += " (a connection per request: the database's is a floor)"
        table.add(
            "burst",
            "CPU per registration during the burst",
            f"{shown}; in all {sum(per.values()):.1f} ms of the 2 CPUs' "
            f"{2 * figures.seconds * 1000 / figures.registered:.1f} ms per registration",
        )
    if figures.broker:
        table.add(
            "burst",
            "mail sent by the worker",
            f"{figures.mail_sent} of {figures.mail_written} messages, the last {figures.mail_seconds:.1f} s "
            "after the clients were released",
        )
    table.add(
        "burst",
        f"places held / waitlisted ({places} places)",
        f"{figures.held} / {figures.waitlisted}; oversold {figures.oversold}",
        "oversold 0",
        ok(figures.oversold == 0 and figures.held == places),
    )


def day_cache_url(broker: str) -> str:
    """The cache of the event day's server and worker, as production runs them: BENCH_CACHE_URL, else a Redis
    database beside a Redis broker (14 on the broker's server); "off" (or no Redis) for the database's table."""
    given = os.environ.get("BENCH_CACHE_URL", "").strip()
    if given:
        return "" if given.lower() in ("off", "none") else given
    if broker.startswith("redis://"):
        return broker.rsplit("/", 1)[0] + "/14" if broker.count("/") > 2 else broker.rstrip("/") + "/14"
    return ""


def part_eventday(table: Table) -> None:
    from bench import burst, eventday
    from ratings.models import RatingList

    players = env_int("BENCH_DAY_PLAYERS", 300)
    seconds = env_int("BENCH_DAY_SECONDS", 180)
    scales = [int(x) for x in os.environ.get("BENCH_DAY_SCALES", "1,3").split(",") if x.strip()]
    broker = "" if BURST_BROKER.lower() in ("", "off", "none") else BURST_BROKER
    if broker and not burst.broker_reachable(broker):
        table.add("event day", "broker", f"{_safe_url(broker)} unreachable: tasks run in the server")
        broker = ""
    cache_url = day_cache_url(broker)
    rating_list = RatingList.objects.get(slug="scale-ratings")
    paces = [x.strip() for x in os.environ.get("BENCH_DAY_PACES", "real,minute").split(",") if x.strip()]
    setup = f"broker {_safe_url(broker)}, 1 Celery worker" if broker else "no broker (tasks in the server)"
    setup += f", cache {_safe_url(cache_url)}" if cache_url else ", the database's cache table"
    setup += f", gunicorn {burst.web_workers()} workers"
    for pace, scale in ((pace, scale) for pace in paces for scale in scales):
        size = players * scale
        label = f"{scale}x ({size} players)" + (", a round a minute" if pace == "minute" else "")
        print(f"Event day at {label}, {seconds} s …", flush=True)
        try:
            f = eventday.run(rating_list, players=size, seconds=seconds, pace=pace, broker=broker, cache_url=cache_url)
        except RuntimeError as error:
            table.add("event day", label, f"not run: {error}")
            table.broken.append(f"event day {label}: {error}")
            continue
        # The targets are a real round's; a round a minute is a stress test past them, its figures for reading.
        judged = (TARGETS["day_ms"], TARGETS["day_walls"]) if pace == "real" else None
        eventday.report(f, lambda *row: table.add("event day", *row), label, setup, judged, ok)


def part_pairing(table: Table, players: int = 500) -> None:
    print(f"Pairing a {players}-player Swiss round …", flush=True)
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_pairing.py"), str(players), "10", "5"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    text = out.stdout.strip()
    match = re.search(r"median ([\d.]+) s", text)
    if not match:
        table.add("pairing", f"swiss, {players} players", f"failed: {(out.stderr or text).strip()[-200:]}")
        table.broken.append(f"pairing: exit {out.returncode}")
        return
    seconds = float(match.group(1))
    repeats = re.search(r"(\d+) repeats", text)
    cpu = re.search(r"median CPU ([\d.]+) s", text)
    table.add(
        "pairing",
        f"swiss round, {players} players after 10 rounds",
        f"{seconds:.3f} s (CPU {cpu.group(1) if cpu else '?'} s), {repeats.group(1) if repeats else '?'} repeats",
        f"< {TARGETS['pairing']:g} s",
        ok(seconds < TARGETS["pairing"]),
    )


def part_engine_only(table: Table, games: int) -> None:
    """Without a database: the rating engine on a synthetic history (bench_rating's)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_rating import make_history

    from ratings.engine.history import rate_history

    history = make_history(games)
    started = time.perf_counter()
    rate_history(history)
    seconds = time.perf_counter() - started
    per = TARGETS["rerate"] * history.game_a.size / 1_000_000
    table.add(
        "re-rate",
        f"engine alone, {history.game_a.size:,} synthetic games",
        f"{seconds:.2f} s",
        f"< {per:.1f} s",
        ok(seconds < per),
    )


def main() -> None:
    games = env_int("BENCH_GAMES", 1_000_000)
    seed = env_int("BENCH_SEED", 1)
    runs = env_int("BENCH_RUNS", 20)
    clients = env_int("BENCH_CLIENTS", 500)
    places = env_int("BENCH_PLACES", 50)
    every_part = "rating,pages,live,burst,pairing,eventday"
    parts = {p.strip() for p in os.environ.get("BENCH_PARTS", every_part).split(",") if p.strip()}
    profile = os.environ.get("BENCH_PROFILE", "") not in ("", "0")
    table = Table()
    started = time.perf_counter()
    speed_before = machine_speed()

    if not is_postgres():
        print(
            "DATABASE_URL does not point at PostgreSQL, so the scale data, the pages and the registration burst "
            "are skipped.\nSet DATABASE_URL=postgres://user@host:5432/dbname (a database of its own: it is filled "
            "with scale data) to run them.\nRunning the parts that need no database, at a small size.\n",
            flush=True,
        )
        setup_django()
        small = min(games, 100_000)
        if "rating" in parts:
            part_engine_only(table, small)
        if "pairing" in parts:
            part_pairing(table, 200)
    else:
        setup_django()
        ensure_data(games, seed)
        if "rating" in parts:
            part_rating(table, profile, games)
        if "pages" in parts:
            part_pages(table, runs)
        if "live" in parts:
            part_live(table, runs)
        if "burst" in parts:
            part_burst(table, clients, places)
        if "pairing" in parts:
            part_pairing(table)
        if "eventday" in parts:
            part_eventday(table)
    table.print()
    print(
        f"({time.perf_counter() - started:.0f} s in all; {os.cpu_count()} CPUs; load average at the end "
        f"{os.getloadavg()[0]:.1f}. Server times are wall-clock; CPU is this process's share, without the database's.)"
    )
    print(
        f"(The machine's speed: a pure-Python loop of a million additions took {speed_before * 1000:.0f} ms of CPU "
        f"before the parts and {machine_speed() * 1000:.0f} ms after; figures from runs whose loops differ are not "
        "comparable.)"
    )
    if table.broken:
        print(f"Parts that could not run: {'; '.join(table.broken)}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
