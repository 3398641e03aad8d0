"""Rating runs: rating an event or re-rating a list from a date, queued or at once.

Rating an event (or re-rating it after a correction) recomputes it and every later event on
its list; re-rating from a date, every event from that day. Each run reads, rates and rewrites
the changes and the current ratings in one transaction, with the list row locked: nobody sees
a half-updated list, and two runs on one list take turns.

A run that dies with its worker wrote nothing; its heartbeat stops (see `heartbeat`), and
`sweep_stale_runs` queues it again, up to `MAX_ATTEMPTS` times, then marks it failed. Running a
run again recomputes from its start, so it ends with the same list.
"""

from __future__ import annotations

import logging
import time
from datetime import date

from celery import shared_task
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from clubsite.kit.errors import NotAllowed, ServiceError
from clubsite.kit.roles import is_association_staff
from clubsite.kit.status import move, move_all
from events.models import Event
from events.play.models import Division, Game, GameStatus

from ..models import RatedEvent, RatingList, RatingRun, RunStatus
from . import compute, storage
from .checks import RatingError, check_rateable, refuse_unconfirmed
from .compute import Cutoff
from .heartbeat import Heartbeat, stale_after

log = logging.getLogger(__name__)

UNEXPECTED = "An unexpected error stopped this run; the ratings were left as they were."
# A run whose worker stopped this many times is given up (failed) rather than queued again.
MAX_ATTEMPTS = 3
ABANDONED = (
    "The run stopped {attempts} times without finishing (its worker was lost); the ratings were left "
    "as they were. Re-rate the list from {day} to bring it up to date."
)


def _rate(rating_list: RatingList, start: Cutoff, run: RatingRun | None, new_event: Event | None = None) -> None:
    """Rates the list from `start` in one transaction with the list locked: reads, rates and
    writes as it goes, so a run that waited for another sees what that one wrote."""
    with Heartbeat(run) as beat, transaction.atomic():
        locked = RatingList.objects.select_for_update().get(pk=rating_list.pk)
        storage.roomy_transaction()
        storage.apply_plan(locked, compute.plan(locked, start, new_event), run, beat.progress)
        rating_list.version = locked.version


def _new_run(rating_list: RatingList, from_date: date, *, event=None, actor=None, reason="", status=RunStatus.QUEUED):
    now = timezone.now()
    return RatingRun.objects.create(
        rating_list=rating_list,
        event=event,
        from_date=from_date,
        reason=reason,
        status=status,
        started_at=now if status == RunStatus.RUNNING else None,
        heartbeat_at=now,
        attempts=1 if status == RunStatus.RUNNING else 0,
        requested_by=actor if actor and actor.is_authenticated else None,
    )


def rate_event(event: Event, *, run: RatingRun | None = None, actor=None) -> RatingRun:
    """Rates the event's divisions on its list (and re-rates every later event there).

    Refuses an event with unconfirmed results, naming them. Rating it again gives the same
    ratings: the event's changes are recomputed, not added twice.
    """
    rating_list = check_rateable(event)
    refuse_unconfirmed([event.pk])
    if run is None:
        run = _new_run(
            rating_list, event.starts_on, event=event, actor=actor, reason="Event rated", status=RunStatus.RUNNING
        )
    _rate_or_fail(rating_list, Cutoff.of_event(event), run, new_event=event)
    # A list the event has left (its rating list was changed) loses it.
    for other in RatingList.objects.filter(rated_events__event=event).exclude(pk=rating_list.pk):
        other_run = _new_run(
            other,
            event.starts_on,
            event=event,
            actor=actor,
            reason="Event moved to another list",
            status=RunStatus.RUNNING,
        )
        _rate_or_fail(other, Cutoff.of_event(event), other_run)
    return run


def rerate_from(rating_list: RatingList, day: date, *, run: RatingRun | None = None, actor=None) -> RatingRun:
    """Re-rates every event on the list that began on or after `day`, in order, in one transaction."""
    if actor is not None and not is_association_staff(actor):
        raise NotAllowed("Only association staff can re-rate a list.")
    if run is None:
        run = _new_run(rating_list, day, actor=actor, reason=f"Re-rated from {day:%d %b %Y}", status=RunStatus.RUNNING)
    _rate_or_fail(rating_list, Cutoff(day), run)
    return run


def _rate_or_fail(rating_list: RatingList, start: Cutoff, run: RatingRun, new_event: Event | None = None) -> None:
    """Rates; a refusal is recorded on the run (the ratings stay as they were) and raised."""
    try:
        _rate(rating_list, start, run, new_event)
    except ServiceError as error:
        _fail(run, error.message)
        raise
    except Exception:
        _fail(run, UNEXPECTED)
        raise


def _enqueue(run: RatingRun) -> None:
    """Queues the run's task after commit. With the broker down the run stays queued (the request
    goes on) and `sweep_stale_runs` queues it again once its task is overdue."""
    from clubsite.kit.tasks import enqueue

    enqueue(run_rating, run.pk)


def queue_rating_run(event: Event, *, actor=None, reason: str = "") -> RatingRun:
    """Queues rating the event (after it is finalised, or a result of it is corrected).

    Checked now, so a director hears at once about unconfirmed results; the task checks again.
    """
    from events.permissions import can_direct_event

    if actor is not None and not can_direct_event(actor, event):
        raise NotAllowed("Only the event's directors and association staff can rate it.")
    rating_list = check_rateable(event)
    refuse_unconfirmed([event.pk])
    sweep_stale_runs()
    waiting = RatingRun.objects.filter(event=event, rating_list=rating_list, status=RunStatus.QUEUED).first()
    if waiting is not None:
        return waiting  # it has not started, so it will read the latest results
    already = RatedEvent.objects.filter(event=event).exists()
    run = _new_run(
        rating_list,
        event.starts_on,
        event=event,
        actor=actor,
        reason=reason or ("Result corrected: re-rated" if already else "Event finalised"),
    )
    _enqueue(run)
    return run


def queue_rating_if_complete(event: Event, *, actor=None, reason: str = "") -> RatingRun | None:
    """Queues rating the event once it is complete: rated, on a list, every division finalised
    and every result confirmed. Otherwise does nothing (returns None), so a director may finalise
    one division while others still play. Call it after finalising a division and after
    correcting a result of a finalised event."""
    if not (event.rated and event.rating_list_id):
        return None
    divisions = list(Division.objects.filter(event=event).values_list("finalised_at", flat=True))
    if not divisions or any(finalised is None for finalised in divisions):
        return None
    if Game.objects.filter(division__event=event).exclude(status=GameStatus.CONFIRMED).exists():
        return None
    return queue_rating_run(event, actor=actor, reason=reason)


def result_corrected(event: Event, *, actor=None) -> RatingRun | None:
    """A confirmed result of the event was corrected: if the event is complete, it is re-rated with
    every later event on its list (an event rated before that has since left its list is taken off
    it). Never refuses, so it may be called from inside the correction's transaction."""
    try:
        run = queue_rating_if_complete(event, actor=actor, reason="Result corrected: re-rated")
        if run is None and not (event.rated and event.rating_list_id):
            # No longer rated (or no list): the lists that still hold it are re-rated without it.
            for rating_list in RatingList.objects.filter(rated_events__event=event):
                run = _new_run(rating_list, event.starts_on, actor=actor, reason=f"{event.title} is no longer rated")
                _enqueue(run)
        return run
    except ServiceError:
        return None


def queue_rerate(actor, rating_list: RatingList, day: date) -> RatingRun:
    """Staff: re-rate a list from a date in the background."""
    if not is_association_staff(actor):
        raise NotAllowed("Only association staff can re-rate a list.")
    if day > timezone.localdate():
        raise RatingError("Choose a date that is not in the future.", field="from_date")
    sweep_stale_runs()
    run = _new_run(rating_list, day, actor=actor, reason=f"Re-rated from {day:%d %b %Y}")
    _enqueue(run)
    return run


def execute_run(run_id: int) -> RatingRun | None:
    """The task's body, safe to run twice: a queued run is carried out; a running one only if
    its heartbeat is stale (its worker died); any other is left alone. Carrying out a run again
    recomputes it from its start."""
    with transaction.atomic():
        run = RatingRun.objects.select_for_update().filter(pk=run_id).first()
        if run is None or not (run.status == RunStatus.QUEUED or (run.status == RunStatus.RUNNING and _stale(run))):
            return run
        now = timezone.now()
        move(run, RunStatus.RUNNING)  # from queued, or a stale run taken over
        run.started_at = now
        run.heartbeat_at = now
        run.progress = 0
        run.attempts += 1
        run.save(update_fields=["status", "started_at", "heartbeat_at", "progress", "attempts"])
    try:
        if run.event_id:
            event = Event.objects.select_related("rating_list").get(pk=run.event_id)
            rate_event(event, run=run)
        else:
            rerate_from(run.rating_list, run.from_date, run=run)
    except ServiceError as error:
        _fail(run, error.message)
    except Exception:
        log.exception("Rating run %s failed", run_id)
        _fail(run, UNEXPECTED)
    run.refresh_from_db()
    return run


def _stale(run: RatingRun) -> bool:
    beat = run.heartbeat_at or run.started_at or run.created_at
    return beat < timezone.now() - stale_after()


_last_sweep = {"at": 0.0}


def sweep_stale_runs(*, force: bool = False) -> list[int]:
    """Queues again every run whose worker was lost (running, its heartbeat stale) or whose task
    never arrived (queued, not started for as long); gives up on a run lost `MAX_ATTEMPTS` times.
    Called by the beat schedule and whenever the rating pages and services are used (at most
    every few seconds per process, unless `force`), so it works without beat. Returns the runs
    queued again."""
    now = timezone.now()
    if not force and time.monotonic() - _last_sweep["at"] < min(10.0, stale_after().total_seconds() / 2):
        return []
    _last_sweep["at"] = time.monotonic()
    requeued = []
    with transaction.atomic():
        stale = (
            RatingRun.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(status__in=[RunStatus.QUEUED, RunStatus.RUNNING])
            .alias(beat=Coalesce("heartbeat_at", "started_at", "created_at"))
            .filter(Q(beat__lt=now - stale_after()))
            .select_related("rating_list")
        )
        for run in stale:
            if run.status == RunStatus.RUNNING and run.attempts >= MAX_ATTEMPTS:
                log.error("Rating run %s was lost %s times; giving up", run.pk, run.attempts)
                day = f"{run.from_date:%d %b %Y}"
                _fail(run, ABANDONED.format(attempts=run.attempts, day=day))
                continue
            if run.status == RunStatus.RUNNING:
                log.warning("Rating run %s lost its worker at %s%%; queued again", run.pk, run.progress)
            move(run, RunStatus.QUEUED)
            run.progress, run.heartbeat_at = 0, now
            run.save(update_fields=["status", "progress", "heartbeat_at"])
            _enqueue(run)
            requeued.append(run.pk)
    return requeued


def _fail(run: RatingRun, message: str) -> None:
    """Marks the run failed unless it has finished already (done or failed: left as it is)."""
    runs = RatingRun.objects.filter(pk=run.pk)
    move_all(runs, RunStatus.FAILED, only_movable=True, error=message, finished_at=timezone.now())


# Beside the service that queues it, so the two do not import each other; named as queued messages name it.
# Acknowledged when done, not when received: a worker killed mid-run leaves the message to be
# delivered again (the run itself is recomputed from its start, and swept up if it is not).
@shared_task(name="ratings.tasks.run_rating", acks_late=True, reject_on_worker_lost=True)
def run_rating(run_id: int) -> str | None:
    """Carries out a queued rating run (an event, or a list re-rated from a date)."""
    run = execute_run(run_id)
    return run.status if run else None
