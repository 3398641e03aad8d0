"""Emails about entries, and the organiser's message to entrants. Each person gets a message of their
own: no email shows one person's address to another."""

from django.db import transaction
from django.urls import reverse

from ..models import ACTIVE_ENTRY_STATUSES, Entry, Event
from .common import RegistrationError, local_text, mail_after_commit, require_manager, site_url
from .places import waitlist_position
from .withdrawlink import make_token


def _addresses(entry: Entry) -> list[str]:
    """Who hears about an entry: the player, and the adult who sent the group entry."""
    result = [entry.player.email]
    if entry.group_id:
        result.append(entry.group.email)
    return list(dict.fromkeys(a for a in result if a))


def _context(entry: Entry, extra: dict | None) -> dict:
    event = entry.event
    return {
        "entry": entry,
        "event": event,
        "url": site_url(event.get_absolute_url()),
        "entries_url": site_url("/events/my-entries/"),
        "payment_due": local_text(event, entry.payment_due_at),
        "offer_expires": local_text(event, entry.offer_expires_at),
        **(extra or {}),
    }


def mail_entry(entry: Entry, kind: str, subject: str, extra: dict | None = None) -> None:
    """One message to each address (never several people on one To: line)."""
    context = _context(entry, extra)
    for address in _addresses(entry):
        mail_after_commit(f"events/email/{kind}.txt", subject, [address], context)


def mail_entry_received(entry: Entry) -> None:
    extra = {"position": waitlist_position(entry)}
    mail_entry(entry, "entry_received", f"Entry received: {entry.event.title}", extra)


def withdraw_url(entry: Entry) -> str:
    return site_url(reverse("events:withdraw_by_link", args=[make_token(entry)]))


def mail_entered_for_you(entry: Entry, entered_by: str) -> None:
    """Tells a member at once that someone else entered them, with a one-click link to withdraw."""
    if not entry.player.email:
        return
    extra = {"entered_by": entered_by, "withdraw_url": withdraw_url(entry)}
    mail_after_commit(
        "events/email/entered_for_you.txt",
        f"You have been entered: {entry.event.title}",
        [entry.player.email],
        _context(entry, extra),
    )


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
