"""The registration clock: registration opens and closes at its times, unpaid places lapse and offers from
the waiting list expire at theirs. It is applied to an event whenever the event is read or written (under
its lock, and only when something is due), so it holds with no scheduler running; the periodic tasks only
sweep events nobody has looked at, so their entrants hear in time."""

import operator
from datetime import datetime
from functools import reduce

from django.db import transaction
from django.db.models import Q

from clubsite.kit.mail import subject as mail_subject
from clubsite.kit.status import move

from ..models import Entry, EntryStatus, Event, EventStatus
from .common import RegistrationError, local_text, lock_event, now
from .notify import mail_entry
from .offers import offer_free_places
from .places import EntryCounts, entry_counts

# An entry still in `status` once its `deadline` has passed becomes `ended_as`, and is told by email.
DEADLINES = {
    EntryStatus.PENDING_PAYMENT: ("payment_due_at", EntryStatus.LAPSED, "lapsed", "Your place has lapsed"),
    EntryStatus.OFFERED: ("offer_expires_at", EntryStatus.EXPIRED, "offer_expired", "The place offered has passed on"),
}


def overdue(moment: datetime, statuses=tuple(DEADLINES)) -> Q:
    """Entries whose deadline has passed (unpaid places, offers not taken)."""
    conditions = [Q(status=status, **{f"{DEADLINES[status][0]}__lte": moment}) for status in statuses]
    return reduce(operator.or_, conditions)


def end_overdue_entries(event: Event) -> int:
    """Lapses unpaid places and expires offers whose time has passed, each entrant told. Call under the lock."""
    moment = now()
    # Nearly always there are none: ask for their ids (locked) before reading them with their players.
    due = Entry.objects.select_for_update().filter(overdue(moment), event=event).order_by("pk")
    due_ids = list(due.values_list("pk", flat=True))
    if not due_ids:
        return 0
    due = (
        Entry.objects.select_for_update(of=("self",))
        .filter(pk__in=due_ids)
        .select_related("player", "group", "guest", "category")
        .order_by("pk")
    )
    ended = 0
    for entry in due:
        deadline, ended_as, template, subject = DEADLINES[entry.status]
        move(entry, ended_as)
        entry.ended_at = getattr(entry, deadline)
        entry.save(update_fields=["status", "ended_at"])
        entry.event = event
        mail_entry(entry, template, mail_subject(subject, event.title))
        ended += 1
    return ended


def sync_status(event: Event) -> Event:
    """Applies the clock to the event: opens and closes registration at its times, lapses unpaid places and
    expires offers whose time has passed, and offers the places freed. Call under the lock."""
    _open_or_close(event)
    if end_overdue_entries(event):
        offer_free_places(event)
    return event


def _open_or_close(event: Event) -> None:
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


def _status_change_due(event: Event) -> bool:
    moment = now()
    closes = event.registration_closes_at
    if event.status == EventStatus.PUBLISHED:
        return bool(
            (closes and moment >= closes) or (event.registration_opens_at and event.registration_opens_at <= moment)
        )
    return event.status == EventStatus.REGISTRATION_OPEN and bool(closes and moment >= closes)


def _clock_due(event: Event) -> bool:
    if _status_change_due(event):
        return True
    return Entry.objects.filter(overdue(now()), event=event).exists()


def refresh_status(event: Event) -> Event:
    """For pages and services: applies what the clock has made due (under the lock) before using the event.

    Costs one query when nothing is due."""
    if not _clock_due(event):
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
    if status == EventStatus.COMPLETED:
        return "This event is over."
    if status == EventStatus.IN_PROGRESS:
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


def withdrawal_refusal(event: Event) -> str | None:
    """Why an entrant can no longer withdraw (the organiser still may cancel an entry), or None.

    The one rule the pages (whether to offer the button) and the service (whether to allow it) share."""
    if event.status == EventStatus.COMPLETED:
        return "The event is over."
    if event.status == EventStatus.IN_PROGRESS:
        return "The event has started: ask the tournament director."
    if event.status == EventStatus.CANCELLED:
        return "This event has been cancelled."
    return None


def name_change_refusal(event: Event, what: str = "names") -> str | None:
    """Why a group entry's names (or, `what`, an entry's answers to the organiser's questions) can no longer be
    changed (registration has closed), or None.

    The one rule the pages (whether to offer the link) and the service share."""
    closes = event.registration_closes_at
    if event.status == EventStatus.REGISTRATION_CLOSED or (closes and now() >= closes):
        closed_at = event.registration_closed_at or closes
        if closed_at and (closes is None or closed_at < closes):
            return (
                f"Registration is closed: the organiser closed it on {local_text(event, closed_at)}, "
                f"so {what} can no longer be changed."
            )
        return f"Registration closed on {local_text(event, closed_at)}: {what} can no longer be changed."
    if event.status not in (EventStatus.REGISTRATION_OPEN, EventStatus.PUBLISHED):
        return f"{what.capitalize()} can no longer be changed: the event is {event.get_status_display().lower()}."
    return None


def open_event_for_entries(event_id: int) -> Event:
    event = sync_status(lock_event(event_id))
    refusal = registration_refusal(event)
    if refusal:
        raise RegistrationError(refusal)
    return event


def open_event_for_entry(event_id: int) -> tuple[Event, EntryCounts]:
    """`open_event_for_entries` for one new entry, with the event's entries counted at the moment the lock was taken
    (the new entry's `accepted_at`). The count also finds whether anything is overdue, so when nothing is due this is
    two statements: the lock and the count."""
    event = lock_event(event_id)
    moment = now()
    _open_or_close(event)
    deadlines = {status: deadline[0] for status, deadline in DEADLINES.items()}
    counts = entry_counts(event, moment, deadlines)
    if counts.overdue:
        sync_status(event)
        counts = entry_counts(event, moment, deadlines)
    refusal = registration_refusal(event)
    if refusal:
        raise RegistrationError(refusal)
    return event, counts


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
