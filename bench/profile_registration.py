"""Where the time of one registration goes: `POST /api/my/entries/` as the burst sends it.

    DATABASE_URL=postgres://… python bench/profile_registration.py [registrations] [places]

On the scale data (run the benchmark once first), opens a new event like the burst's and posts
`registrations` entries one after another in-process (Django's test Client, token
authentication, DEBUG off), timing the parts of each request by wrapping the functions that do
them (nothing is changed in the site's code):

- authentication: `TokenAuthentication.authenticate` (the token and its user);
- the service: `register_entry`, and inside it the time the event row is locked (from
  `select_for_update` until the commit) and the time spent preparing the mail inside the lock;
- the mail: sending it after the commit (on_commit; the dummy mail backend of the benchmark);
- the response: the serializer and the JSON renderer;
- the queries of the request, and those sent while the event row is locked;
- the rest: middleware, routing, request parsing.

Then one more registration under pyinstrument, whose profile is printed. The rows are kept (the
event is a new one each run).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import run  # noqa: E402  (sets the benchmark's environment)

PREFIX = "bench-profile-"


class Clock:
    """Wall time spent in wrapped functions, per request."""

    def __init__(self) -> None:
        self.request: dict[str, float] = defaultdict(float)
        self.all: dict[str, list[float]] = defaultdict(list)

    def wrap(self, owner, name: str, label: str) -> None:
        inner = getattr(owner, name)
        clock = self

        def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                clock.request[label] += time.perf_counter() - started

        setattr(owner, name, timed)

    def end_request(self, total: float, status: int) -> None:
        self.request["total"] = total
        for label, seconds in self.request.items():
            self.all[f"{status} {label}"].append(seconds)
            self.all[label].append(seconds)
        self.request = defaultdict(float)


@contextmanager
def instrumented(clock: Clock):
    from django.db import connection, transaction
    from rest_framework import renderers
    from rest_framework.authentication import TokenAuthentication

    from events import api
    from events.services import entries

    originals = [
        (TokenAuthentication, "authenticate"),
        (api.services, "register_entry"),
        (entries, "mail_entry_received"),
        (entries, "open_event_for_entry"),
        (renderers.JSONRenderer, "render"),
    ]
    saved = [(owner, name, getattr(owner, name)) for owner, name in originals]
    clock.wrap(TokenAuthentication, "authenticate", "authentication")
    clock.wrap(api.services, "register_entry", "service (register_entry)")
    clock.wrap(entries, "mail_entry_received", "  mail prepared inside the lock")
    clock.wrap(renderers.JSONRenderer, "render", "response: JSON render")
    data = api.EntrySerializer.data

    def serialize(self):
        started = time.perf_counter()
        try:
            return data.fget(self)
        finally:
            clock.request["response: serializer"] += time.perf_counter() - started

    api.EntrySerializer.data = property(serialize)
    open_event = entries.open_event_for_entry
    # Queries of the request, and those sent while the event row is locked (the lock's own included).
    state = {"locked": False}

    def count_queries(execute, sql, params, many, context):
        clock.request["queries"] += 1
        if state["locked"]:
            clock.request["  queries under the lock"] += 1
        return execute(sql, params, many, context)

    def locked(*args, **kwargs):
        state["locked"] = True
        started = time.perf_counter()

        def committed():
            state["locked"] = False
            clock.request["  event row locked (select_for_update to commit)"] += time.perf_counter() - started

        transaction.on_commit(committed)
        return open_event(*args, **kwargs)

    entries.open_event_for_entry = locked
    from django.core.mail.backends import dummy, locmem

    for backend in (dummy.EmailBackend, locmem.EmailBackend):
        clock.wrap(backend, "send_messages", "mail sent after the commit")
    try:
        with connection.execute_wrapper(count_queries):
            yield
    finally:
        for owner, name, value in saved:
            setattr(owner, name, value)
        api.EntrySerializer.data = data
        state["locked"] = False


def main() -> None:
    import json

    from django.test import Client

    from bench import burst

    registrations = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    places = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    run.setup_django()
    tokens = burst._members(registrations + 1)
    event, category = burst._event(places)
    body = json.dumps({"event": event.slug, "category": category.pk, "accept_rules": True})
    client = Client()
    clock = Clock()

    def post(token: str) -> tuple[int, float]:
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.post(
            "/api/my/entries/", body, content_type="application/json", HTTP_AUTHORIZATION=f"Token {token}"
        )
        clock.request["CPU of this process (the database's not included)"] += time.process_time() - started_cpu
        return response.status_code, time.perf_counter() - started

    statuses = defaultdict(int)
    with instrumented(clock):
        for token in tokens[:registrations]:
            status, seconds = post(token)
            statuses[status] += 1
            clock.end_request(seconds, status)
    print(f"{registrations} registrations in a row to {event.title} ({places} places); HTTP {dict(statuses)}")
    print(f"{'part':52s} {'median ms':>10s} {'max ms':>8s} {'share':>6s}")
    total = statistics.median(clock.all["total"])
    for label in (
        "total",
        "CPU of this process (the database's not included)",
        "authentication",
        "service (register_entry)",
        "  event row locked (select_for_update to commit)",
        "  mail prepared inside the lock",
        "mail sent after the commit",
        "response: serializer",
        "response: JSON render",
    ):
        values = clock.all.get(label, [0.0])
        median = statistics.median(values) * 1000
        print(f"{label:52s} {median:10.1f} {max(values) * 1000:8.1f} {median / (total * 1000):6.0%}")
    for label in ("queries", "  queries under the lock"):
        values = clock.all.get(label, [0])
        print(f"{label:52s} {statistics.median(values):10.0f} {max(values):8.0f}")
    from pyinstrument import Profiler

    profiler = Profiler(interval=0.0005)
    profiler.start()
    status, seconds = post(tokens[registrations])
    profiler.stop()
    print(f"\nOne more under the profiler: HTTP {status}, {seconds * 1000:.1f} ms")
    print(profiler.output_text(unicode=False, color=False, show_all=False))


if __name__ == "__main__":
    main()
