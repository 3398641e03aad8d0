"""Offering freed places to the waiting list, in order (the registration clock and every service that frees
a place call it under the event lock)."""

from datetime import timedelta

from clubsite.kit.mail import subject
from clubsite.kit.status import move

from ..models import Entry, EntryStatus, Event, EventStatus
from .common import now
from .notify import mail_entry
from .places import Places, places


def offer_free_places(event: Event, current: Places | None = None) -> list[Entry]:
    """Offers each free place to the next on the waiting list, in order. Call under the event lock.

    No offers once registration has closed. `current`: the places as just counted under the lock, if the
    caller has them.
    """
    if event.status != EventStatus.REGISTRATION_OPEN or (
        event.registration_closes_at and now() >= event.registration_closes_at
    ):
        return []
    if current is None:
        current = places(event)
    if event.max_entrants is not None and current.total >= event.max_entrants:
        return []  # the event is full: nothing to offer, whatever the categories
    # Most calls find the event still full: check that before reading a long waiting list.
    if current.left_in_event(event, list(event.categories.all())) == 0:
        return []
    waiting = list(
        Entry.objects.filter(event=event, status=EntryStatus.WAITLISTED)
        .select_related("category", "player", "group", "guest")
        .order_by("accepted_at", "pk")
    )
    if not waiting:
        return []
    moment = now()
    offered = []
    for entry in waiting:
        if not current.has_room(event, entry.category):
            continue
        move(entry, EntryStatus.OFFERED)
        entry.offered_at = moment
        entry.offer_expires_at = moment + timedelta(hours=event.offer_hold_hours)
        entry.offer_reminded_at = None
        entry.save(update_fields=["status", "offered_at", "offer_expires_at", "offer_reminded_at"])
        current = current.take(entry.category)
        entry.event = event
        mail_entry(entry, "offer", subject("A place is free for you", event.title))
        offered.append(entry)
    return offered
