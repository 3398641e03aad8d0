"""With the broker down, queuing background work never breaks a request: finalising a rated division answers
quickly, the rating run waits queued, and the sweep sends it once the broker is back. Every `.delay` of the
site goes through `clubsite.kit.tasks.enqueue`."""

import ast
import logging
import time
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from clubsite.kit import tasks
from ratings import services
from ratings.models import PlayerRating, RatedEvent, RatingRun, RunStatus
from ratings.services.heartbeat import stale_after
from ratings.services.runs import run_rating
from tests.factories import PlayerFactory

from .factories import RatedEventFactory, RatingListFactory, days_ago, play, round_robin, seed

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _fresh_breaker():
    tasks.resume_broker()
    yield
    tasks.resume_broker()


@pytest.fixture
def finished_event():
    rating_list = RatingListFactory()
    players = PlayerFactory.create_batch(6)
    for i, p in enumerate(players):
        seed(rating_list, p, 1800 - 50 * i, games=80)
    event = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(3))
    division = play(event, round_robin(players, upsets={(0, 1)}))
    return rating_list, event, division


def ratings(rating_list):
    return sorted(PlayerRating.objects.filter(rating_list=rating_list).values_list("player_id", "rating", "games"))


@pytest.mark.django_db
def test_finalising_with_the_broker_down_answers_quickly_and_the_sweep_rates_later(
    client, broker_down, on_commit, finished_event, caplog
):
    rating_list, event, division = finished_event
    before = ratings(rating_list)
    client.force_login(event.owner)
    started = time.monotonic()
    with on_commit(execute=True), caplog.at_level(logging.WARNING, logger="clubsite.kit.tasks"):
        response = client.post(reverse("events:play_finalise", args=[event.slug, division.pk]))
    elapsed = time.monotonic() - started
    assert response.status_code == 302, response.status_code
    assert elapsed < 3, f"finalising took {elapsed:.1f}s with the broker down"
    assert "could not queue ratings.tasks.run_rating" in caplog.text
    run = RatingRun.objects.get(event=event)
    assert run.status == RunStatus.QUEUED and not RatedEvent.objects.filter(event=event).exists()
    assert ratings(rating_list) == before

    # While it is paused, the broker is not tried at all: instant.
    started = time.monotonic()
    with on_commit(execute=True), transaction.atomic():
        tasks.enqueue(run_rating, run.pk)
    assert time.monotonic() - started < 0.2 and tasks.broker_paused()

    # Before its task is overdue the sweep leaves the run alone; after, it queues it again. The broker is
    # back now (tasks run here, as the worker would run them).
    from clubsite.celery import app

    app.conf.task_always_eager = True
    with on_commit(execute=True):
        assert services.sweep_stale_runs(force=True) == []
    with time_machine.travel(timezone.now() + stale_after() + timedelta(seconds=1)), on_commit(execute=True):
        assert services.sweep_stale_runs(force=True) == [run.pk]
    run.refresh_from_db()
    assert run.status == RunStatus.DONE and RatedEvent.objects.filter(event=event).exists()
    rated = ratings(rating_list)
    assert rated != before
    services.rerate_from(rating_list, days_ago(30))
    assert ratings(rating_list) == rated


@pytest.mark.django_db
def test_a_rolled_back_change_queues_nothing(broker_down, on_commit, finished_event, caplog):
    rating_list, event, division = finished_event
    with on_commit(execute=True), caplog.at_level(logging.WARNING, logger="clubsite.kit.tasks"):
        with pytest.raises(RuntimeError), transaction.atomic():
            tasks.enqueue(run_rating, 12345)
            raise RuntimeError("rolled back")
    assert caplog.text == "" and not tasks.broker_paused()


def test_a_hung_broker_costs_a_request_about_a_second(monkeypatch):
    """A broker that takes the connection and never answers (overloaded, half dead) is given up quickly."""
    import socket
    import threading

    from clubsite.celery import app

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    saved = (app.conf.task_always_eager, app.conf.broker_url, app._pool, app.amqp._producer_pool)
    url = f"redis://127.0.0.1:{server.getsockname()[1]}/7"
    monkeypatch.setenv("CELERY_BROKER_URL", url)
    app.conf.task_always_eager = False
    app.conf.broker_url = url
    app._pool = app.amqp._producer_pool = None
    try:
        started = time.monotonic()
        assert tasks.send(run_rating, 1) is False
        elapsed = time.monotonic() - started
    finally:
        app.conf.task_always_eager, app.conf.broker_url, app._pool, app.amqp._producer_pool = saved
        stop.set()
        thread.join()
        for s in held:
            s.close()
        server.close()
    assert elapsed < 5, f"queuing against a hung broker took {elapsed:.1f}s"


# --- one door -------------------------------------------------------------------------------------

APPS = ("clubsite", "players", "events", "ratings", "outbox", "wordjudge")
QUEUING = {"delay", "apply_async", "send_task"}


def _outbox_writers(trees) -> set[str]:
    """Tasks declared with `base=WritesToOutbox`: `.delay` runs them in-process, no broker involved."""
    names = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                for dec in node.decorator_list:
                    if isinstance(dec, ast.Call) and any(
                        k.arg == "base" and isinstance(k.value, ast.Name) and k.value.id == "WritesToOutbox"
                        for k in dec.keywords
                    ):
                        names.add(node.name)
    return names


def test_every_task_is_queued_through_the_one_door():
    files = [p for app in APPS for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts]
    trees = {p: ast.parse(p.read_text()) for p in files}
    writers = _outbox_writers(trees.values())
    doors = {ROOT / "clubsite" / "kit" / "tasks.py", ROOT / "outbox" / "services.py"}  # the outbox queues its own mail
    offences = []
    for path, tree in trees.items():
        if path in doors:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in QUEUING:
                target = node.func.value
                if isinstance(target, ast.Name) and target.id in writers:
                    continue
                offences.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node.func)}")
    assert offences == [], "queue tasks with clubsite.kit.tasks.enqueue:\n" + "\n".join(offences)
