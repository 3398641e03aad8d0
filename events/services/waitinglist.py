"""The waiting list: offering freed places in order (offers.py), accepting an offer, and the deadlines (offers
that expire, unpaid places that lapse: status.py applies them to an event whenever it is used; the sweeps
here do it for every event, each under its lock so running twice is safe)."""

from datetime import timedelta

from django.db import transaction

from clubsite.kit.errors import NotAllowed
from clubsite.kit.mail import subject
from clubsite.kit.status import move

from ..models import Entry, EntryStatus, Event, EventStatus
from ..permissions import can_manage_event
from .common import RegistrationError, local_text, lock_event, now, require_manager
from .notify import mail_entry
from .offers import offer_free_places
from .places import place_entry
from .status import overdue, sync_status

OFFER_REMINDER_BEFORE = timedelta(hours=12)


def own_entry(actor, entry_id: int) -> Entry:
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("player", "group", "guest", "category", "fee")
        .get(pk=entry_id)
    )
    mine = entry.player.user_id == actor.id or (entry.group_id and entry.group.submitted_by_id == actor.id)
    if not (mine or can_manage_event(actor, entry.event)):
        raise NotAllowed("That is not your entry.")
    return entry


def accept_offer(actor, entry: Entry) -> Entry:
    """Takes the place offered from the waiting list: confirmed, or pending payment when a fee is due."""
    with transaction.atomic():
        event = sync_status(lock_event(entry.event_id))
        entry = own_entry(actor, entry.pk)
        entry.event = event
        if entry.status == EntryStatus.EXPIRED:
            raise RegistrationError(f"This offer expired on {local_text(event, entry.offer_expires_at)}.")
        if entry.status != EntryStatus.OFFERED:
            raise RegistrationError(f"There is no offer to accept: this entry is {entry.get_status_display().lower()}.")
        if entry.offer_expires_at and now() >= entry.offer_expires_at:
            raise RegistrationError(f"This offer expired on {local_text(event, entry.offer_expires_at)}.")
        moment = now()
        status = EntryStatus.CONFIRMED if entry.balance <= 0 else EntryStatus.PENDING_PAYMENT
        place_entry(entry, status, moment)
        entry.save(update_fields=["status", "payment_due_at", "confirmed_at"])
        mail_entry(entry, "offer_accepted", subject("Your place is held", event.title))
    return entry


def _sweep(status: str) -> int:
    """Applies the clock to every event holding entries in `status` past their deadline (each under its
    lock, so running twice is safe); returns how many such entries ended."""
    event_ids = set(Entry.objects.filter(overdue(now(), [status])).values_list("event_id", flat=True))
    ended = 0
    for event_id in sorted(event_ids):
        with transaction.atomic():
            event = lock_event(event_id)
            ended += Entry.objects.filter(overdue(now(), [status]), event=event).count()
            sync_status(event)
    return ended


def expire_offers() -> int:
    """Offers not taken in time expire; their places pass to the next in line. Safe to run twice.

    Reading or writing an event does this too: the periodic task only tells people in time."""
    return _sweep(EntryStatus.OFFERED)


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
                .select_related("event", "player", "group", "guest")
                .get(pk=entry_id)
            )
            if entry.status != EntryStatus.OFFERED or entry.offer_reminded_at:
                continue
            entry.offer_reminded_at = moment
            entry.save(update_fields=["offer_reminded_at"])
            mail_entry(entry, "offer_reminder", subject("Your offered place expires soon", entry.event.title))
            sent += 1
    return sent


def lapse_unpaid_entries() -> int:
    """Unpaid entries past their hold time lapse and free their places. Safe to run twice.

    Reading or writing an event does this too: the periodic task only tells people in time."""
    return _sweep(EntryStatus.PENDING_PAYMENT)


def lapse_unpaid_now(actor, event: Event) -> int:
    """The organiser ends every place still unpaid now (each entrant told); the places go to the waiting list.

    Places past their payment time lapse by themselves; this is for the organiser who will not wait."""
    with transaction.atomic():
        event = sync_status(lock_event(event.pk))
        require_manager(actor, event, "lapse unpaid entries")
        if event.status in (EventStatus.IN_PROGRESS, EventStatus.COMPLETED, EventStatus.CANCELLED):
            raise RegistrationError(f"The event is {event.get_status_display().lower()}: no place can lapse now.")
        moment = now()
        unpaid = (
            Entry.objects.select_for_update(of=("self",))
            .filter(event=event, status=EntryStatus.PENDING_PAYMENT)
            .select_related("player", "group", "guest", "category")
        )
        ended = 0
        for entry in unpaid:
            move(entry, EntryStatus.LAPSED)
            entry.ended_at = moment
            entry.save(update_fields=["status", "ended_at"])
            entry.event = event
            mail_entry(entry, "lapsed", subject("Your place has lapsed", event.title))
            ended += 1
        if not ended:
            raise RegistrationError("No entry is waiting for payment.")
        offer_free_places(event)
    return ended
