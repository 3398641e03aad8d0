"""Rating runs: rating an event or re-rating a list from a date, queued or at once.

Rating an event, or re-rating after a correction, recomputes every event on the list from that
point onwards and rewrites the changes and the current ratings in one transaction, with the list
row locked: nobody sees a half-updated list, and two runs on one list take turns.

The computation reads outside the lock (so a run can show its progress) and is redone under
the lock if another run wrote to the list meanwhile (`RatingList.version`).
"""

from __future__ import annotations

import logging
import time
from datetime import date

from django.db import transaction
from django.utils import timezone

from clubsite.errors import PermissionDenied, ServiceError
from events.models import Division, Event, Game, GameStatus
from players.roles import is_association_staff

from ..models import RatedEvent, RatingList, RatingRun, RunStatus
from . import storage
from .checks import RatingError, check_rateable, refuse_unconfirmed
from .compute import compute

log = logging.getLogger(__name__)

UNEXPECTED = "An unexpected error stopped this run; the ratings were left as they were."


def _rate(rating_list: RatingList, from_date: date, run: RatingRun | None, new_event: Event | None = None) -> None:
    shown = {"percent": 0, "at": 0.0}

    def progress(percent: int) -> None:
        # At most a few writes a second, whatever the number of events.
        now = time.monotonic()
        if run is not None and percent > shown["percent"] and now - shown["at"] >= 0.5:
            RatingRun.objects.filter(pk=run.pk).update(progress=percent)
            shown.update(percent=percent, at=now)

    # The version is read before the games: a run that writes after this is noticed under the lock.
    rating_list.version = RatingList.objects.values_list("version", flat=True).get(pk=rating_list.pk)
    plan = compute(rating_list, from_date, new_event, run, progress)
    with transaction.atomic():
        locked = RatingList.objects.select_for_update().get(pk=rating_list.pk)
        if locked.version != plan.version:
            plan = compute(locked, from_date, new_event, run, None)
        storage.apply_plan(locked, plan, run)
        rating_list.version = locked.version


def _new_run(rating_list: RatingList, from_date: date, *, event=None, actor=None, reason="", status=RunStatus.QUEUED):
    return RatingRun.objects.create(
        rating_list=rating_list,
        event=event,
        from_date=from_date,
        reason=reason,
        status=status,
        started_at=timezone.now() if status == RunStatus.RUNNING else None,
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
    _rate_or_fail(rating_list, event.starts_on, run, new_event=event)
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
        _rate_or_fail(other, event.starts_on, other_run)
    return run


def rerate_from(rating_list: RatingList, day: date, *, run: RatingRun | None = None, actor=None) -> RatingRun:
    """Re-rates every event on the list that began on or after `day`, in order, in one transaction."""
    if actor is not None and not is_association_staff(actor):
        raise PermissionDenied("Only association staff can re-rate a list.")
    if run is None:
        run = _new_run(rating_list, day, actor=actor, reason=f"Re-rated from {day:%d %b %Y}", status=RunStatus.RUNNING)
    _rate_or_fail(rating_list, day, run)
    return run


def _rate_or_fail(rating_list: RatingList, day: date, run: RatingRun, new_event: Event | None = None) -> None:
    """Rates; a refusal is recorded on the run (the ratings stay as they were) and raised."""
    try:
        _rate(rating_list, day, run, new_event)
    except ServiceError as error:
        _fail(run, error.message)
        raise
    except Exception:
        _fail(run, UNEXPECTED)
        raise


def _enqueue(run: RatingRun) -> None:
    from ..tasks import run_rating

    transaction.on_commit(lambda: run_rating.delay(run.pk))


def queue_rating_run(event: Event, *, actor=None, reason: str = "") -> RatingRun:
    """Queues rating the event (after it is finalised, or a result of it is corrected).

    Checked now, so a director hears at once about unconfirmed results; the task checks again.
    """
    from events.permissions import can_direct_event

    if actor is not None and not can_direct_event(actor, event):
        raise PermissionDenied("Only the event's directors and association staff can rate it.")
    rating_list = check_rateable(event)
    refuse_unconfirmed([event.pk])
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
        raise PermissionDenied("Only association staff can re-rate a list.")
    if day > timezone.localdate():
        raise RatingError("Choose a date that is not in the future.", field="from_date")
    run = _new_run(rating_list, day, actor=actor, reason=f"Re-rated from {day:%d %b %Y}")
    _enqueue(run)
    return run


def execute_run(run_id: int) -> RatingRun | None:
    """The task's body: safe to run twice (a run that is not queued is left alone)."""
    with transaction.atomic():
        run = RatingRun.objects.select_for_update().filter(pk=run_id).first()
        if run is None or run.status != RunStatus.QUEUED:
            return run
        run.status = RunStatus.RUNNING
        run.started_at = timezone.now()
        run.save(update_fields=["status", "started_at"])
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


def _fail(run: RatingRun, message: str) -> None:
    RatingRun.objects.filter(pk=run.pk, status__in=[RunStatus.QUEUED, RunStatus.RUNNING]).update(
        status=RunStatus.FAILED, error=message, finished_at=timezone.now()
    )
