"""Profile one page on the scale data: where its server time goes, and its slowest queries.

    DATABASE_URL=postgres://… python bench/profile_page.py /ratings/ [/events/?when=past …]

Requests the page a few times (warm-up), then once under pyinstrument and once capturing its
queries; prints the profile and the queries by time, with the PostgreSQL plan of the slowest.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import run  # noqa: E402  (sets the benchmark's environment)


def profile(url: str, *, explain: bool = True) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from pyinstrument import Profiler

    client = Client()
    for _ in range(3):
        client.get(url)
    profiler = Profiler(interval=0.001)
    profiler.start()
    started = time.perf_counter()
    status = client.get(url).status_code
    seconds = time.perf_counter() - started
    profiler.stop()
    print(f"=== {url}: HTTP {status}, {seconds * 1000:.1f} ms under the profiler")
    print(profiler.output_text(unicode=False, color=False, show_all=False))
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    timed = sorted(queries.captured_queries, key=lambda q: -float(q["time"]))
    print(f"{len(timed)} queries, {sum(float(q['time']) for q in timed) * 1000:.1f} ms in the database:")
    for q in timed:
        print(f"  {float(q['time']) * 1000:8.1f} ms  {q['sql'][:300]}")
    if explain and timed and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + timed[0]["sql"])
            print("\nPlan of the slowest query:")
            for (line,) in cursor.fetchall():
                print("  " + line)
    print()


def main() -> None:
    run.setup_django()
    for url in sys.argv[1:] or ["/ratings/"]:
        profile(url)


if __name__ == "__main__":
    main()
