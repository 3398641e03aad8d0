"""A running rating run's heartbeat and progress.

A run rates inside one transaction, so what it writes there is invisible until it commits. Its
heartbeat (and the progress a page shows) is written by a small thread with a connection of its
own, every few seconds, for as long as the process carrying out the run is alive; a run whose
heartbeat stops is picked up again by `sweep_stale_runs`. The thread never waits for a lock: if
the run's row is locked (say by a caller's transaction that holds it), that beat is skipped.

Without PostgreSQL, or when the caller already holds a transaction (the run is then part of
it and invisible anyway), there is no thread: the run shows its progress when it is done.
"""

from __future__ import annotations

import threading
from datetime import timedelta

from django.conf import settings
from django.db import connection

from ..models import RatingRun


def stale_after() -> timedelta:
    """How long without a heartbeat before a running run counts as abandoned."""
    return timedelta(seconds=float(getattr(settings, "RATING_RUN_STALE_SECONDS", 120)))


def beat_every() -> float:
    return max(0.2, min(2.0, stale_after().total_seconds() / 5))


class Heartbeat:
    """`with Heartbeat(run) as beat:` … `beat.progress(percent)` …"""

    def __init__(self, run: RatingRun | None):
        self.run_id = run.pk if run is not None else None
        self.percent = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Heartbeat:
        if self.run_id is not None and connection.vendor == "postgresql" and not connection.in_atomic_block:
            self._thread = threading.Thread(target=self._beat, name=f"rating-run-{self.run_id}", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()

    def progress(self, percent: int) -> None:
        """Noted for the next beat. Never written here: the run's connection may be busy copying."""
        self.percent = percent

    def _beat(self) -> None:
        table = connection.ops.quote_name(RatingRun._meta.db_table)
        try:
            while not self._stop.wait(beat_every()):
                with connection.cursor() as cursor:  # this thread's own connection
                    cursor.execute(
                        f"UPDATE {table} SET heartbeat_at = now(), progress = GREATEST(progress, %s) "
                        f"WHERE id = (SELECT id FROM {table} WHERE id = %s AND status = 'running' "
                        "FOR UPDATE SKIP LOCKED)",
                        [min(int(self.percent), 100), self.run_id],
                    )
        finally:
            connection.close()
