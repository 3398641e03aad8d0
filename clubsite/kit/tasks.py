"""Queuing background tasks: the one door for the site's `.delay` calls.

`enqueue(task, *args, **kwargs)` queues the task once the caller's transaction commits (at once
outside one), so nothing is sent for a rolled-back change. Without a broker (eager: `make run`,
the tests) the task runs there and then, as `.delay` would. With a broker, one that is down, slow
or refusing costs the caller about a second at most and never an error: the failure is logged and
the work is left to the sweeper that owns it (rating runs: `ratings.services.sweep_stale_runs`
queues again a run whose task never arrived). After a failure the process does not try that
broker again for `BROKER_PAUSE_SECONDS`, so requests stay fast through an outage.

So only tasks whose work something sweeps up are queued this way: rating runs, the outbox's sending
tasks (the outbox writes each message in the transaction and has its own sweep), and the live ratings'
refresh (the next page that shows them works them out itself).
"""

from __future__ import annotations

import logging
import time
from functools import partial

from django.db import transaction
from kombu.exceptions import KombuError

log = logging.getLogger(__name__)

# One quick retry when publishing, not Celery's default of three with waits in between ...
PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.1, "interval_max": 0.1}
# ... and after a failure, this process leaves that broker alone for a while.
BROKER_PAUSE_SECONDS = 30.0
# Seconds to connect, and to wait for each answer, when queuing: a broker that takes the connection and
# never answers would otherwise hold the request for ever. Understood by Redis (socket_*) and by AMQP
# (connect_timeout and read/write_timeout); each transport ignores the other's.
PUBLISH_TIMEOUT = 1.0
PUBLISH_TRANSPORT_OPTIONS = {
    "socket_timeout": PUBLISH_TIMEOUT,
    "socket_connect_timeout": PUBLISH_TIMEOUT,
    "read_timeout": PUBLISH_TIMEOUT,
    "write_timeout": PUBLISH_TIMEOUT,
}

_paused_until: dict[str, float] = {}


def _app():
    from clubsite.celery import app

    return app


def enqueue(task, *args, **kwargs) -> None:
    """Queues `task(*args, **kwargs)` after the current transaction commits; never raises for the broker."""
    transaction.on_commit(partial(send, task, *args, **kwargs))


def send(task, *args, **kwargs) -> bool:
    """Queues the task now: True when the broker took it (or it ran eagerly), False when it was left to a
    sweeper because the broker is unreachable."""
    return send_each(task, [(args, kwargs)])


def send_each(task, calls: list[tuple[tuple, dict]]) -> bool:
    """Queues one task per (args, kwargs) over one connection; False, leaving them all to their sweeper,
    when the broker is unreachable (some may have gone before it failed: their work is safe to repeat)."""
    app = _app()
    bound = app.tasks[task.name]  # the site's app, whichever Celery app is current
    if app.conf.task_always_eager:
        for args, kwargs in calls:
            bound.apply_async(args, kwargs)  # runs here; its errors are the caller's, as with `.delay`
        return True
    url = str(app.conf.broker_url)
    if time.monotonic() < _paused_until.get(url, 0.0):
        log.warning("tasks: broker unreachable moments ago; %s (%d) left to its sweeper", task.name, len(calls))
        return False
    try:
        # A connection of its own with short timeouts (the site's pool has none); the result is never read.
        with app.connection_for_write(
            connect_timeout=PUBLISH_TIMEOUT, transport_options=PUBLISH_TRANSPORT_OPTIONS
        ) as connection:
            for args, kwargs in calls:
                bound.apply_async(
                    args,
                    kwargs,
                    connection=connection,
                    ignore_result=True,
                    retry=True,
                    retry_policy=PUBLISH_RETRY_POLICY,
                )
    except (KombuError, OSError) as error:  # the broker is down, refuses or does not answer
        _paused_until[url] = time.monotonic() + BROKER_PAUSE_SECONDS
        log.warning("tasks: could not queue %s (%d), left to its sweeper: %r", task.name, len(calls), error)
        return False
    except Exception:
        log.exception("tasks: could not queue %s (%d), left to its sweeper", task.name, len(calls))
        return False
    return True


def broker_paused() -> bool:
    """Whether this process is leaving the current broker alone after a failure."""
    return time.monotonic() < _paused_until.get(str(_app().conf.broker_url), 0.0)


def resume_broker() -> None:
    """Forgets earlier failures (for tests, and once the broker is known to be back)."""
    _paused_until.clear()
