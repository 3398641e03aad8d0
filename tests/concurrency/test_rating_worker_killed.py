"""A real Celery worker is killed (SIGKILL) in the middle of a rating run: the run's heartbeat stops, the sweep
queues it again, another worker carries it out, and the list ends exactly as a clean full re-rate leaves it.
PostgreSQL and the real broker; every wait is bounded."""

import os
import random
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import transaction
from django.utils import timezone

from clubsite.kit import tasks
from events.models import Event
from events.play.models import Division, DivisionPlayer, Game, GameKind, GameStatus, Round, RoundStatus
from ratings import services
from ratings.models import PlayerRating, RatedEvent, RatingChange, RatingRun, RunStatus
from tests.factories import AssociationFactory, PlayerFactory, UserFactory
from tests.ratings.factories import RatingListFactory, seed

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.worker, pytest.mark.postgres]

STALE_SECONDS = 2  # heartbeats every 0.4 s; a run silent for 2 s lost its worker
EVENTS = int(os.environ.get("KILLED_RUN_EVENTS", 160))
PLAYERS_PER_EVENT = 40
ROUNDS = 15


def build_history(events: int = EVENTS, seed_value: int = 7):
    """A list with `events` past rated events (one division of 40 of 200 players, 15 rounds each) on its
    ledger, written in bulk: enough games that re-rating it takes a few seconds."""
    rng = random.Random(seed_value)
    rating_list = RatingListFactory()
    owner, association = UserFactory(), AssociationFactory()
    players = PlayerFactory.create_batch(200)
    for i, p in enumerate(players):
        seed(rating_list, p, 1200 + 4 * i, games=50)
    first = timezone.localdate() - timedelta(days=events + 10)
    made = Event.objects.bulk_create(
        Event(
            slug=f"killed-run-{rating_list.pk}-{n}",
            title=f"Club night {n}",
            owner=owner,
            association=association,
            status="completed",
            starts_on=first + timedelta(days=n),
            ends_on=first + timedelta(days=n),
            rated=True,
            rating_list=rating_list,
            number_of_games=ROUNDS,
        )
        for n in range(events)
    )
    divisions = Division.objects.bulk_create(Division(event=e, name="A", position=0) for e in made)
    seats, rounds, games = [], [], []
    for division in divisions:
        field = rng.sample(players, PLAYERS_PER_EVENT)
        seats += [DivisionPlayer(division=division, player=p, number=i) for i, p in enumerate(field, start=1)]
        rounds += [Round(division=division, number=n, status=RoundStatus.COMPLETE) for n in range(1, ROUNDS + 1)]
    Round.objects.bulk_create(rounds, batch_size=2000)
    DivisionPlayer.objects.bulk_create(seats, batch_size=2000)
    by_division = {}
    for r in Round.objects.filter(division__in=divisions):
        by_division[(r.division_id, r.number)] = r
    field_of = {}
    for seat in seats:
        field_of.setdefault(seat.division_id, []).append(seat.player)
    for division in divisions:
        field = field_of[division.pk]
        for n in range(1, ROUNDS + 1):
            rng.shuffle(field)
            for a, b in zip(field[::2], field[1::2], strict=True):
                games.append(
                    Game(
                        division=division,
                        round=by_division[(division.pk, n)],
                        round_number=n,
                        kind=GameKind.NORMAL,
                        status=GameStatus.CONFIRMED,
                        player_a=a,
                        player_b=b,
                        score_a=rng.randint(250, 550),
                        score_b=rng.randint(250, 550),
                    )
                )
    Game.objects.bulk_create(games, batch_size=5000)
    now = timezone.now()
    RatedEvent.objects.bulk_create(
        RatedEvent(rating_list=rating_list, event=e, starts_on=e.starts_on, rated_at=now) for e in made
    )
    return rating_list, first


def listing(rating_list):
    return (
        sorted(
            PlayerRating.objects.filter(rating_list=rating_list).values_list("player_id", "rating", "games", "peak")
        ),
        sorted(
            RatingChange.objects.filter(rating_list=rating_list).values_list(
                "division_id", "player_id", "pre", "post", "career_games", "expected", "bonus"
            )
        ),
    )


def start_worker(env: dict, queue: str, log_path: Path) -> subprocess.Popen:
    log = open(log_path, "a")  # a file, not a pipe: a chatty worker never blocks on a full pipe
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "clubsite", "worker", "--pool=solo", "-Q", queue,
             "--loglevel=INFO", "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    finally:
        log.close()


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def wait_for(what: str, check, timeout: float, log_path: Path, interval: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(interval)
    states = list(RatingRun.objects.values_list("pk", "status", "progress", "attempts", "error"))
    output = log_path.read_text() if log_path.exists() else ""
    raise AssertionError(f"timed out after {timeout}s waiting for {what}; runs: {states}\nworkers:\n{output[-6000:]}")


@pytest.fixture
def site_on_broker(postgres, broker_url, settings, transactional_db):
    """The site's Celery app as in production (not eager, the real broker), rating tasks routed to a queue of
    this test's own; the rating-run settings the workers get too."""
    from clubsite.celery import app

    settings.RATING_RUN_STALE_SECONDS = STALE_SECONDS
    queue = f"test-killed-run-{os.getpid()}"
    amqp = app.amqp
    saved = (app.conf.task_always_eager, app.conf.broker_url, app.conf.task_routes, app._pool, amqp._producer_pool)
    app.conf.task_always_eager = False
    app.conf.broker_url = broker_url
    app.conf.task_routes = {"ratings.tasks.*": {"queue": queue}}
    app._pool = amqp._producer_pool = None
    amqp.flush_routes()
    amqp.__dict__.pop("router", None)
    tasks.resume_broker()
    db = settings.DATABASES["default"]
    dsn = f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {
        **os.environ,
        "DATABASE_URL": dsn,
        "CELERY_BROKER_URL": broker_url,
        "CELERY_RESULT_BACKEND": os.environ.get("CELERY_RESULT_BACKEND") or broker_url,
        "RATING_RUN_STALE_SECONDS": str(STALE_SECONDS),
    }
    yield env, queue, dsn
    app.conf.task_always_eager, app.conf.broker_url, app.conf.task_routes, app._pool, amqp._producer_pool = saved
    amqp.flush_routes()
    amqp.__dict__.pop("router", None)
    tasks.resume_broker()
    with app.connection_for_write(url=broker_url) as connection:  # and what the killed worker left in it
        connection.default_channel.queue_delete(queue)


def test_a_run_whose_worker_is_killed_is_finished_by_another_and_ends_as_a_full_re_rate(site_on_broker, tmp_path):
    import psycopg

    env, queue, dsn = site_on_broker
    log_path = tmp_path / "workers.log"
    started = time.monotonic()
    rating_list, first = build_history()
    staff = UserFactory(is_staff=True)
    first_worker = start_worker(env, queue, log_path)
    second_worker = None
    blocker = psycopg.connect(dsn, autocommit=False)
    try:
        # The run is made to stall where it writes the current ratings, after it has read and rated every
        # event and written their change rows (all inside its transaction): a lock on the ratings table that
        # lets it read but not write. However fast the machine, the kill lands in the middle of the run.
        blocker.execute(f"LOCK TABLE {PlayerRating._meta.db_table} IN SHARE MODE")
        with transaction.atomic():
            run = services.queue_rerate(staff, rating_list, first)
        wait_for(
            "the run to report progress from the first worker",
            lambda: RatingRun.objects.filter(pk=run.pk, status=RunStatus.RUNNING, progress__gt=0).exists(),
            90,
            log_path,
        )
        killed_at = RatingRun.objects.get(pk=run.pk)
        assert first_worker.poll() is None, "the first worker is gone already"
        os.kill(first_worker.pid, signal.SIGKILL)
        first_worker.wait(timeout=10)
        assert first_worker.returncode == -signal.SIGKILL
        blocker.rollback()  # the dead worker's database session finishes its statement, finds nobody, rolls back

        # Nothing of the killed attempt was written.
        wait_for(
            "the killed worker's database session to end",
            lambda: not _sessions_waiting(blocker, dsn),
            30,
            log_path,
        )
        assert not RatingChange.objects.filter(rating_list=rating_list).exists()
        assert RatingRun.objects.get(pk=run.pk).status == RunStatus.RUNNING

        second_worker = start_worker(env, queue, log_path)
        # Its heartbeat stopped: once it is stale, the sweep (beat's, every minute in production) queues it
        # again. (A broker that gives the dead worker's message back at once, as RabbitMQ does, may get the
        # second worker there first: the message finds the run stale and carries it out.)
        how = wait_for(
            "the sweep or the broker to give the run to another worker",
            lambda: (
                ("swept" if services.sweep_stale_runs(force=True) == [run.pk] else None)
                or ("redelivered" if RatingRun.objects.get(pk=run.pk).attempts > 1 else None)
            ),
            30,
            log_path,
            0.25,
        )
        assert how in ("swept", "redelivered")
        wait_for(
            "the second worker to finish the run",
            lambda: (
                RatingRun.objects.filter(pk=run.pk).exclude(status__in=[RunStatus.QUEUED, RunStatus.RUNNING]).exists()
            ),
            90,
            log_path,
        )
    finally:
        blocker.close()
        stop(first_worker)
        if second_worker is not None:
            stop(second_worker)

    run.refresh_from_db()
    assert run.status == RunStatus.DONE, run.error
    assert run.attempts == 2 and run.events_rated == EVENTS and 0 < killed_at.progress < 100
    finished = listing(rating_list)
    assert len(finished[1]) == EVENTS * PLAYERS_PER_EVENT
    services.rerate_from(rating_list, first)  # a clean full re-rate, here and now
    assert listing(rating_list) == finished
    assert time.monotonic() - started < 150


def _sessions_waiting(conn, dsn) -> bool:
    """Whether another session of the test database is still inside a transaction (the killed run's)."""
    with conn.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND state LIKE 'idle in transaction%%' OR (datname = current_database() AND wait_event_type = 'Lock')"
        )
        (count,) = cursor.fetchone()
    conn.rollback()
    return count > 0
