"""An event's lifecycle: published, registration open and closed, in progress with play, completed or
cancelled; each move along Event.TRANSITIONS, under the event lock."""

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format

from clubsite.kit.mail import subject
from clubsite.kit.status import move, move_all
from clubsite.kit.text import check_text
from events.models import ACTIVE_ENTRY_STATUSES, Entry, EntryStatus, Event, EventStatus

from .common import EventError, lock_event, mail_after_commit, now, require_manager, site_url
from .notify import recipients, recipients_of
from .offers import offer_free_places
from .status import sync_status


def publish_event(actor, event: Event) -> Event:
    """Makes a draft public. Registration opens at its opening time (or when the organiser opens it)."""
    with transaction.atomic():
        event = lock_event(event.pk)
        require_manager(actor, event, "publish it")
        if event.status != EventStatus.DRAFT:
            raise EventError("This event is already published.")
        if not event.categories.exists():
            raise EventError("Add at least one category before publishing.")
        if not event.registration_closes_at:
            raise EventError("Set the closing date for registration before publishing.", field="registration_closes_at")
        move(event, EventStatus.PUBLISHED)
        event.published_at = now()
        event.save()
        sync_status(event)
    return event


def open_registration(actor, event: Event) -> Event:
    """Opens registration now (it also opens by itself at the opening time)."""
    with transaction.atomic():
        event = sync_status(lock_event(event.pk))
        require_manager(actor, event, "open registration")
        if event.status == EventStatus.REGISTRATION_OPEN:
            return event
        moment = now()
        if event.registration_closes_at and event.registration_closes_at <= moment:
            raise EventError("The closing date has passed: set a later one first.", field="registration_closes_at")
        move(event, EventStatus.REGISTRATION_OPEN)
        if not event.registration_opens_at or event.registration_opens_at > moment:
            event.registration_opens_at = moment
        event.save()
        offer_free_places(event)
    return event


def close_registration(actor, event: Event) -> Event:
    """Stops registration now, before the closing date (which becomes now). Offers already made still run to
    their end."""
    with transaction.atomic():
        event = sync_status(lock_event(event.pk))
        require_manager(actor, event, "close registration")
        if event.status == EventStatus.REGISTRATION_CLOSED:
            raise EventError("Registration is already closed.")
        move(event, EventStatus.REGISTRATION_CLOSED)
        # The closing time becomes the moment it closed: pages show the closing as it happened, and a
        # later change of the event's dates is not held to a closing time that never came.
        event.registration_closed_at = event.registration_closes_at = now()
        event.save()
    return event


def before_event_refusal(event: Event, doing: str) -> str | None:
    """Why the event cannot be played or rated yet (its date, in its own time zone, is still to come), or None.

    The one rule for starting play, starting the event by hand and rating it."""
    today = timezone.localtime(now(), event.zone).date()
    if event.starts_on > today:
        return f"The event is on {date_format(event.starts_on, 'j F Y')}: you cannot {doing} before then."
    return None


def _begin(event: Event) -> None:
    """Moves a published event to In progress (closing registration first). Call under the lock."""
    if event.status == EventStatus.DRAFT:
        raise EventError("Publish the event before play starts.")
    if event.status == EventStatus.CANCELLED:
        raise EventError("This event has been cancelled.")
    if event.status in (EventStatus.IN_PROGRESS, EventStatus.COMPLETED):
        return
    if event.status == EventStatus.REGISTRATION_OPEN:
        move(event, EventStatus.REGISTRATION_CLOSED)
        event.registration_closed_at = now()
    move(event, EventStatus.IN_PROGRESS)
    event.save()


def start_event(actor, event: Event) -> Event:
    with transaction.atomic():
        event = sync_status(lock_event(event.pk))
        require_manager(actor, event, "start it")
        refusal = before_event_refusal(event, "start it")
        if refusal:
            raise EventError(refusal)
        if event.status == EventStatus.IN_PROGRESS:
            raise EventError("The event is already under way.")
        _begin(event)
    return event


def play_started(event: Event) -> Event:
    """The first round was paired: the event is in progress. Refused before the event's date."""
    with transaction.atomic():
        event = sync_status(lock_event(event.pk))
        if event.status in (EventStatus.IN_PROGRESS, EventStatus.COMPLETED):
            return event  # started already (by hand, or another division paired first)
        refusal = before_event_refusal(event, "pair a round")
        if refusal:
            raise EventError(refusal)
        _begin(event)
    return event


LIVE_STATUSES = (
    EventStatus.PUBLISHED,
    EventStatus.REGISTRATION_OPEN,
    EventStatus.REGISTRATION_CLOSED,
    EventStatus.IN_PROGRESS,
)


def settle_entries(event: Event) -> dict[str, int]:
    """What a completed event does with the entries still open, each along Entry.TRANSITIONS (call under the lock):

    - pending payment, and played (seated in a division; or play was not run on the site, so nobody is seated):
      confirmed, still owing the fee (the money pages keep listing it), with no payment time left to lapse it;
    - pending payment and not seated while others were: lapsed (did not come, did not pay);
    - offered a place, and seated: confirmed likewise; otherwise, and everyone still waiting: not admitted.

    How many entries became each status."""
    moment = now()
    seated = set(Entry.objects.filter(event=event, seat__isnull=False).values_list("pk", flat=True))
    still_open = (EntryStatus.PENDING_PAYMENT, EntryStatus.OFFERED, EntryStatus.WAITLISTED)
    entries = Entry.objects.select_for_update(of=("self",)).filter(event=event, status__in=still_open).order_by("pk")
    settled: dict[str, int] = {}
    for entry in entries:
        played = entry.pk in seated or (entry.status == EntryStatus.PENDING_PAYMENT and not seated)
        if played and entry.status != EntryStatus.WAITLISTED:
            move(entry, EntryStatus.CONFIRMED)
            entry.confirmed_at, entry.payment_due_at, entry.offer_expires_at = moment, None, None
        else:
            move(entry, EntryStatus.LAPSED if entry.status == EntryStatus.PENDING_PAYMENT else EntryStatus.NOT_ADMITTED)
            entry.ended_at = moment
        entry.save(update_fields=["status", "confirmed_at", "payment_due_at", "offer_expires_at", "ended_at"])
        settled[entry.status] = settled.get(entry.status, 0) + 1
    return settled


def complete_if_final(event: Event) -> Event:
    """Once every division is finalised the event is completed (through In progress if play never said so)."""
    with transaction.atomic():
        event = lock_event(event.pk)
        finalised = list(event.divisions.values_list("finalised_at", flat=True))  # play's divisions, by their relation
        if not finalised or None in finalised or event.status not in LIVE_STATUSES:
            return event  # a draft, cancelled or completed event is left as it is
        _begin(event)
        move(event, EventStatus.COMPLETED)
        event.save()
        settle_entries(event)
    return event


def complete_event(actor, event: Event) -> Event:
    """The organiser marks the event completed; the entries still open are settled (settle_entries)."""
    with transaction.atomic():
        event = lock_event(event.pk)
        require_manager(actor, event, "complete it")
        move(event, EventStatus.COMPLETED)
        event.save()
        event.settled = settle_entries(event)
    return event


def cancel_event(actor, event: Event, reason: str = "") -> Event:
    """Cancels the event and every entry in it; each entrant is told."""
    reason = (reason or "").strip()
    check_text(Event, "cancellation_reason", reason, EventError)
    with transaction.atomic():
        event = lock_event(event.pk)
        require_manager(actor, event, "cancel it")
        move(event, EventStatus.CANCELLED)
        moment = now()
        event.cancelled_at = moment
        event.cancellation_reason = reason
        event.save()
        entries = list(
            Entry.objects.select_for_update(of=("self",))
            .filter(event=event, status__in=ACTIVE_ENTRY_STATUSES)
            .select_related("player", "group", "guest")
        )
        addresses = recipients_of(entries)
        paid = {address for entry in entries if entry.amount_paid > 0 for address in recipients(entry)}
        move_all(Entry.objects.filter(pk__in=[e.pk for e in entries]), EntryStatus.CANCELLED, ended_at=moment)
        for address, name in addresses.items():
            mail_after_commit(
                "events/email/event_cancelled.txt",
                subject("Event cancelled", event.title),
                [address],
                {"event": event, "name": name, "paid": address in paid, "url": site_url(event.get_absolute_url())},
            )
    return event
