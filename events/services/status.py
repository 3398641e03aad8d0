"""The registration clock: registration opens and closes at its times, applied whenever an event is
read or written (so it holds with no scheduler running) and by a periodic task."""

from django.db import transaction
from django.db.models import Q

from clubsite.status import move

from ..models import Event, EventStatus
from .common import RegistrationError, local_text, lock_event, now


def sync_status(event: Event) -> Event:
    """Opens registration at its opening time and closes it at the closing time. Call under the lock."""
    moment = now()
    changed = []
    closes = event.registration_closes_at
    if event.status == EventStatus.PUBLISHED and closes and moment >= closes:
        move(event, EventStatus.REGISTRATION_CLOSED)
        event.registration_closed_at = closes
        changed = ["status", "registration_closed_at"]
    elif (
        event.status == EventStatus.PUBLISHED and event.registration_opens_at and event.registration_opens_at <= moment
    ):
        move(event, EventStatus.REGISTRATION_OPEN)
        changed = ["status"]
    elif event.status == EventStatus.REGISTRATION_OPEN and closes and moment >= closes:
        move(event, EventStatus.REGISTRATION_CLOSED)
        event.registration_closed_at = closes
        changed = ["status", "registration_closed_at"]
    if changed:
        event.save(update_fields=[*changed, "updated_at"])
    return event


def _status_change_due(event: Event) -> bool:
    moment = now()
    closes = event.registration_closes_at
    if event.status == EventStatus.PUBLISHED:
        return bool(
            (closes and moment >= closes) or (event.registration_opens_at and event.registration_opens_at <= moment)
        )
    return event.status == EventStatus.REGISTRATION_OPEN and bool(closes and moment >= closes)


def refresh_status(event: Event) -> Event:
    """For pages: applies a due opening or closing (under the lock) before showing the event."""
    if not _status_change_due(event):
        return event
    with transaction.atomic():
        locked = sync_status(lock_event(event.pk))
    event.status, event.registration_closed_at = locked.status, locked.registration_closed_at
    return event


def registration_refusal(event: Event) -> str | None:
    """Why nobody can enter right now, or None when registration is open."""
    moment = now()
    status = event.status
    if status == EventStatus.DRAFT:
        return "This event is not published yet."
    if status == EventStatus.CANCELLED:
        return "This event has been cancelled."
    if status in (EventStatus.IN_PROGRESS, EventStatus.COMPLETED):
        return "This event has already started."
    closes = event.registration_closes_at
    if status == EventStatus.REGISTRATION_CLOSED or (closes and moment >= closes):
        when = local_text(event, event.registration_closed_at or closes)
        return f"Registration closed on {when}." if when else "Registration is closed."
    opens = event.registration_opens_at
    if status == EventStatus.PUBLISHED:
        if opens and opens > moment:
            return f"Registration opens on {local_text(event, opens)}."
        return "Registration is not open yet."
    return None


def open_event_for_entries(event_id: int) -> Event:
    event = sync_status(lock_event(event_id))
    refusal = registration_refusal(event)
    if refusal:
        raise RegistrationError(refusal)
    return event


def sync_event_statuses() -> int:
    """Opens and closes registration on time for every event due (the pages and services also do it on use)."""
    moment = now()
    due = Event.objects.filter(
        Q(status=EventStatus.PUBLISHED, registration_opens_at__lte=moment)
        | Q(status__in=[EventStatus.PUBLISHED, EventStatus.REGISTRATION_OPEN], registration_closes_at__lte=moment)
    ).values_list("pk", flat=True)
    changed = 0
    for event_id in list(due):
        with transaction.atomic():
            event = lock_event(event_id)
            before = event.status
            if sync_status(event).status != before:
                changed += 1
    return changed
