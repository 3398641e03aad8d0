"""Emails about entries, and the organiser's message to entrants."""

from django.db import transaction

from ..models import ACTIVE_ENTRY_STATUSES, Entry, Event
from .common import RegistrationError, local_text, mail_after_commit, require_manager, site_url
from .places import waitlist_position


def _addresses(entry: Entry) -> list[str]:
    result = [entry.player.email]
    if entry.group_id:
        result.append(entry.group.email)
    return [a for a in result if a]


def mail_entry(entry: Entry, kind: str, subject: str, extra: dict | None = None) -> None:
    event = entry.event
    context = {
        "entry": entry,
        "event": event,
        "url": site_url(event.get_absolute_url()),
        "entries_url": site_url("/events/my-entries/"),
        "payment_due": local_text(event, entry.payment_due_at),
        "offer_expires": local_text(event, entry.offer_expires_at),
        **(extra or {}),
    }
    mail_after_commit(f"events/email/{kind}.txt", subject, _addresses(entry), context)


def mail_entry_received(entry: Entry) -> None:
    extra = {"position": waitlist_position(entry)}
    mail_entry(entry, "entry_received", f"Entry received: {entry.event.title}", extra)


def email_entrants(actor, event: Event, *, subject: str, body: str, statuses=None) -> int:
    """The organiser writes to every entrant (by default those holding a place or waiting)."""
    subject, body = (subject or "").strip(), (body or "").strip()
    if not subject:
        raise RegistrationError("Enter a subject.", field="subject")
    if not body:
        raise RegistrationError("Write the message.", field="body")
    require_manager(actor, event, "email the entrants")
    statuses = statuses or ACTIVE_ENTRY_STATUSES
    entries = Entry.objects.filter(event=event, status__in=statuses).select_related("player", "group")
    addresses = sorted({a for e in entries for a in _addresses(e)})
    from ..tasks import send_event_email

    with transaction.atomic():
        for address in addresses:
            transaction.on_commit(lambda a=address: send_event_email.delay(subject, body, [a]))
    return len(addresses)
