"""The waiting list: offering freed places in order, accepting an offer, and the deadlines (offers that
expire, unpaid places that lapse), each event handled under its lock so running twice is safe."""

from datetime import timedelta

from django.db import transaction

from clubsite.errors import PermissionDenied
from clubsite.status import move

from ..models import Entry, EntryStatus, Event, EventStatus
from ..permissions import can_manage_event
from .common import RegistrationError, local_text, lock_event, now
from .notify import mail_entry
from .places import place_entry, places
from .status import sync_status

OFFER_REMINDER_BEFORE = timedelta(hours=12)


def offer_free_places(event: Event) -> list[Entry]:
    """Offers each free place to the next on the waiting list, in order. Call under the event lock.

    No offers once registration has closed.
    """
    if event.status != EventStatus.REGISTRATION_OPEN or (
        event.registration_closes_at and now() >= event.registration_closes_at
    ):
        return []
    current = places(event)
    # Most calls find the event still full: check that before reading a long waiting list.
    if current.left_in_event(event, list(event.categories.all())) == 0:
        return []
    waiting = list(
        Entry.objects.filter(event=event, status=EntryStatus.WAITLISTED)
        .select_related("category", "player", "group")
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
        mail_entry(entry, "offer", f"A place is free for you: {event.title}")
        offered.append(entry)
    return offered


def own_entry(actor, entry_id: int) -> Entry:
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("player", "group", "category", "fee")
        .get(pk=entry_id)
    )
    mine = entry.player.user_id == actor.id or (entry.group_id and entry.group.submitted_by_id == actor.id)
    if not (mine or can_manage_event(actor, entry.event)):
        raise PermissionDenied("That is not your entry.")
    return entry


def accept_offer(actor, entry: Entry) -> Entry:
    """Takes the place offered from the waiting list: confirmed, or pending payment when a fee is due."""
    with transaction.atomic():
        event = sync_status(lock_event(entry.event_id))
        entry = own_entry(actor, entry.pk)
        entry.event = event
        if entry.status != EntryStatus.OFFERED:
            raise RegistrationError(f"There is no offer to accept: this entry is {entry.get_status_display().lower()}.")
        if entry.offer_expires_at and now() >= entry.offer_expires_at:
            raise RegistrationError(f"This offer expired on {local_text(event, entry.offer_expires_at)}.")
        moment = now()
        status = EntryStatus.CONFIRMED if entry.balance <= 0 else EntryStatus.PENDING_PAYMENT
        place_entry(entry, status, moment)
        entry.save(update_fields=["status", "payment_due_at", "confirmed_at"])
        mail_entry(entry, "offer_accepted", f"Your place is held: {event.title}")
    return entry


def _end_overdue(status: str, deadline: str, ended_as: str, template: str, subject: str) -> int:
    """Entries in `status` whose `deadline` has passed become `ended_as`, each told by email; their
    places pass to the next in line. Each event is handled under its lock, so running twice is safe."""
    moment = now()
    overdue = {"status": status, f"{deadline}__lte": moment}
    event_ids = set(Entry.objects.filter(**overdue).values_list("event_id", flat=True))
    ended = 0
    for event_id in event_ids:
        with transaction.atomic():
            event = sync_status(lock_event(event_id))
            due = Entry.objects.select_for_update(of=("self",)).filter(event=event, **overdue)
            for entry in due.select_related("player", "group", "category"):
                move(entry, ended_as)
                entry.ended_at = moment
                entry.save(update_fields=["status", "ended_at"])
                entry.event = event
                mail_entry(entry, template, f"{subject}: {event.title}")
                ended += 1
            offer_free_places(event)
    return ended


def expire_offers() -> int:
    """Offers not taken in time expire; their places pass to the next in line. Safe to run twice."""
    return _end_overdue(
        EntryStatus.OFFERED, "offer_expires_at", EntryStatus.EXPIRED, "offer_expired", "The place offered has passed on"
    )


def remind_expiring_offers() -> int:
    """Tells people whose offer runs out soon (once per offer)."""
    moment = now()
    ids = list(
        Entry.objects.filter(
            status=EntryStatus.OFFERED,
            offer_reminded_at__isnull=True,
            offer_expires_at__gt=moment,
            offer_expires_at__lte=moment + OFFER_REMINDER_BEFORE,
        ).values_list("pk", flat=True)
    )
    sent = 0
    for entry_id in ids:
        with transaction.atomic():
            entry = (
                Entry.objects.select_for_update(of=("self",))
                .select_related("event", "player", "group")
                .get(pk=entry_id)
            )
            if entry.status != EntryStatus.OFFERED or entry.offer_reminded_at:
                continue
            entry.offer_reminded_at = moment
            entry.save(update_fields=["offer_reminded_at"])
            mail_entry(entry, "offer_reminder", f"Your offered place expires soon: {entry.event.title}")
            sent += 1
    return sent


def lapse_unpaid_entries() -> int:
    """Unpaid entries past their hold time lapse and free their places. Safe to run twice."""
    return _end_overdue(
        EntryStatus.PENDING_PAYMENT, "payment_due_at", EntryStatus.LAPSED, "lapsed", "Your place has lapsed"
    )
