"""Emails about entries, and the organiser's message to entrants. Each person gets a message of their
own: no email shows one person's address to another."""

from django.db import transaction
from django.urls import reverse

from clubsite.kit.mail import subject as mail_subject
from money.core.references import ENTRY, make_reference

from ..models import ACTIVE_ENTRY_STATUSES, Entry, EntryStatus, Event
from .common import RegistrationError, local_text, mail_after_commit, require_manager, site_url
from .guestlink import make_guest_token
from .places import waitlist_position
from .withdrawlink import make_token


def recipients(entry: Entry) -> dict[str, str]:
    """Who hears about an entry, each address with the name its message greets: the player, and the adult who sent
    the group entry (greeted by their own name)."""
    found = {}
    if entry.player.email:
        found[entry.player.email] = entry.player.full_name
    if entry.group_id and entry.group.email:
        found.setdefault(entry.group.email, entry.group.contact_name)
    if entry.guest_id:
        found.setdefault(entry.guest.email, entry.guest.contact_name)
    return found


def _addresses(entry: Entry) -> list[str]:
    return list(recipients(entry))


def recipients_of(entries) -> dict[str, str]:
    """Everyone who hears about any of `entries`, one name per address (the first entry naming it), in address
    order: one message each."""
    found: dict[str, str] = {}
    for entry in entries:
        for address, name in recipients(entry).items():
            found.setdefault(address, name)
    return dict(sorted(found.items()))


def guest_url(guest) -> str:
    """The page of an entry made without an account, from its signed link: confirm, pay, withdraw, change."""
    return site_url(reverse("events:guest_entry", args=[make_guest_token(guest)]))


def pay_url(reference: str) -> str:
    """The payment page of an amount due, as an email links to it."""
    return site_url(reverse("money:pay", args=[reference]))


def receipt_url(number: str) -> str:
    return site_url(reverse("money:receipt", args=[number]))


def _context(entry: Entry, extra: dict | None) -> dict:
    event = entry.event
    reference = make_reference(ENTRY, entry.pk)
    return {
        "entry": entry,
        "event": event,
        "reference": reference,
        "pay_url": pay_url(reference),
        "url": site_url(event.get_absolute_url()),
        # Entered without an account: the emailed link is the guest's way to their entry (no My entries to log in to).
        "entries_url": guest_url(entry.guest) if entry.guest_id else site_url("/events/my-entries/"),
        "payment_due": local_text(event, entry.payment_due_at),
        "offer_expires": local_text(event, entry.offer_expires_at),
        **(extra or {}),
    }


def mail_entry(entry: Entry, kind: str, subject: str, extra: dict | None = None) -> None:
    """One message to each address (never several people on one To: line)."""
    context = _context(entry, extra)
    for address, name in recipients(entry).items():
        mail_after_commit(f"events/email/{kind}.txt", subject, [address], {**context, "name": name})


def mail_entry_received(entry: Entry, position: int | None = None) -> None:
    """`position`: the entry's place on the waiting list when the caller knows it already."""
    extra = {"position": position if position is not None else waitlist_position(entry)}
    mail_entry(entry, "entry_received", mail_subject("Entry received", entry.event.title), extra)


def mail_entry_cancelled(entry: Entry, reason: str = "", paid=0) -> None:
    """Tells the entrant (and whoever sent their group entry) that the organiser cancelled the entry; `paid`: the
    money it had paid, now held for a refund."""
    extra = {"reason": reason.strip(), "paid": paid}
    mail_entry(entry, "entry_cancelled", mail_subject("Entry cancelled", entry.event.title), extra)


def mail_entry_withdrawn(entry: Entry, paid=0, *, by_organiser: bool = False) -> None:
    """Tells the entrant (and whoever sent their group entry) that the entry is withdrawn, with what happens to the
    money it had paid (`paid`, held for a refund) under the event's refund policy."""
    extra = {"paid": paid, "by_organiser": by_organiser}
    mail_entry(entry, "entry_withdrawn", mail_subject("Entry withdrawn", entry.event.title), extra)


def mail_refund_to_decide(entry: Entry, paid) -> None:
    """Tells the event's organiser that an entry which had paid `paid` has ended: the money is held on the event's
    money page, to refund (or keep) by the event's refund policy."""
    event = entry.event
    context = {
        "entry": entry,
        "event": event,
        "paid": paid,
        "name": event.owner.get_full_name() or event.owner.email,
        "money_url": site_url(reverse("money:event_money", args=[event.slug])) + "#held",
    }
    what = f"Refund to decide: {entry.player.full_name} {entry.get_status_display().lower()}"
    to = [event.owner.email]
    mail_after_commit("events/email/refund_to_decide.txt", mail_subject(what, event.title), to, context)


def mail_event_changed(event: Event, changed: list[str]) -> None:
    """Tells everyone holding a place or waiting that the event's date or venue changed: one message to
    each address, sent when the change commits."""
    entries = Entry.objects.filter(event=event, status__in=ACTIVE_ENTRY_STATUSES).select_related(
        "player", "group", "guest"
    )
    addresses = recipients_of(entries)
    context = {
        "event": event,
        "date_changed": "starts_on" in changed or "ends_on" in changed,
        "venue_changed": "venue" in changed,
        "url": site_url(event.get_absolute_url()),
    }
    what = " and ".join(w for w, c in (("date", context["date_changed"]), ("venue", context["venue_changed"])) if c)
    for address, name in addresses.items():
        mail_after_commit(
            "events/email/event_changed.txt",
            mail_subject(f"New {what}", event.title),
            [address],
            {**context, "name": name},
        )


def withdraw_url(entry: Entry) -> str:
    return site_url(reverse("events:withdraw_by_link", args=[make_token(entry)]))


def mail_entered_for_you(entry: Entry, entered_by: str) -> None:
    """Tells a member at once that someone else entered them, with a one-click link to withdraw."""
    if not entry.player.email:
        return
    extra = {"entered_by": entered_by, "withdraw_url": withdraw_url(entry)}
    mail_after_commit(
        "events/email/entered_for_you.txt",
        mail_subject("You have been entered", entry.event.title),
        [entry.player.email],
        _context(entry, extra),
    )


# Whom the organiser's message goes to: (value, label, entry statuses).
AUDIENCE_STATUSES = {
    "all": ("Everyone holding a place or waiting", ACTIVE_ENTRY_STATUSES),
    "confirmed": ("Confirmed entrants", (EntryStatus.CONFIRMED,)),
    "unpaid": ("Unpaid entrants (pending payment)", (EntryStatus.PENDING_PAYMENT,)),
    "waiting": ("The waiting list (and those offered a place)", (EntryStatus.WAITLISTED, EntryStatus.OFFERED)),
}
AUDIENCES = [(value, label) for value, (label, _) in AUDIENCE_STATUSES.items()]


def email_entrants(
    actor, event: Event, *, subject: str, body: str, audience: str = "all", category=None, statuses=None
) -> int:
    """The organiser writes to the entrants: by default all holding a place or waiting, or only the unpaid,
    the waiting list or the confirmed, in one category or all. Replies go to the organiser. Each address
    gets its own copy (entrants do not see each other's addresses)."""
    subject, body = (subject or "").strip(), (body or "").strip()
    if not subject:
        raise RegistrationError("Enter a subject.", field="subject")
    if "\r" in subject or "\n" in subject:
        raise RegistrationError("Write the subject on one line.", field="subject")
    if not body:
        raise RegistrationError("Write the message.", field="body")
    require_manager(actor, event, "email the entrants")
    if statuses is None:
        if audience not in AUDIENCE_STATUSES:
            raise RegistrationError("Choose whom to write to.", field="audience")
        statuses = AUDIENCE_STATUSES[audience][1]
    entries = Entry.objects.filter(event=event, status__in=statuses).select_related("player", "group", "guest")
    if category is not None:
        category_id = getattr(category, "pk", category)
        if not event.categories.filter(pk=category_id).exists():
            raise RegistrationError("That category is not part of this event.", field="category")
        entries = entries.filter(category_id=category_id)
    addresses = sorted({a for e in entries for a in _addresses(e)})
    if not addresses:
        raise RegistrationError("Nobody matches: no message was sent.", field="audience")
    reply_to = event.owner.email or getattr(actor, "email", "")
    context = {"event": event, "body": body, "url": site_url(event.get_absolute_url())}
    with transaction.atomic():
        for address in addresses:
            mail_after_commit(
                "events/email/organiser_message.txt",
                mail_subject(subject, event.title),
                [address],
                context,
                reply_to=reply_to,
            )
    return len(addresses)
