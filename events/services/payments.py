"""Money received for an entry (or one payment for a whole group), recorded by the organiser; a fully
paid entry is confirmed."""

from decimal import Decimal, InvalidOperation

from django.db import transaction

from clubsite.status import move

from ..models import Entry, EntryStatus, GroupEntry, Payment, PaymentMethod
from .common import RegistrationError, lock_event, mail_after_commit, now, require_manager, site_url
from .notify import mail_entry
from .status import sync_status

# The entries that hold a place someone can pay for.
PAYABLE_STATUSES = (EntryStatus.PENDING_PAYMENT, EntryStatus.CONFIRMED, EntryStatus.OFFERED)


def _amount(value, field: str = "amount") -> Decimal:
    if value in (None, ""):
        raise RegistrationError("Enter the amount received, for example 3.00.", field=field)
    try:
        amount = Decimal(str(value)).quantize(Decimal("0.01"))
    except (InvalidOperation, TypeError, ValueError):
        raise RegistrationError("Enter an amount, for example 3.00.", field=field) from None
    return amount


def _check_payment(amount: Decimal, method: str, reference: str) -> None:
    if amount <= 0:
        raise RegistrationError("The amount must be more than zero.", field="amount")
    if method not in PaymentMethod.values:
        raise RegistrationError("Choose how it was paid.", field="method")
    if method == PaymentMethod.CHEQUE and not reference.strip():
        raise RegistrationError("Enter the cheque number as the reference.", field="reference")


def _pay(actor, entry: Entry, amount: Decimal, method: str, reference: str, note: str, moment) -> Payment:
    """Records money against one locked entry; once nothing is due, a pending place is confirmed."""
    payment = Payment.objects.create(
        entry=entry,
        amount=amount,
        method=method,
        reference=reference.strip(),
        note=note,
        recorded_by=actor,
        recorded_at=moment,
    )
    entry.amount_paid += amount
    fields = ["amount_paid"]
    if entry.status == EntryStatus.PENDING_PAYMENT and entry.balance <= 0:
        move(entry, EntryStatus.CONFIRMED)
        entry.confirmed_at = moment
        fields += ["status", "confirmed_at"]
    entry.save(update_fields=fields)
    return payment


def _locked(actor, entry: Entry, action: str) -> tuple:
    """The entry's event and the entry itself, both locked, once the actor may manage the event."""
    event = sync_status(lock_event(entry.event_id))
    require_manager(actor, event, action)
    entry = Entry.objects.select_for_update(of=("self",)).select_related("player", "group", "category").get(pk=entry.pk)
    entry.event = event
    return event, entry


def record_payment(actor, entry: Entry, *, amount=None, method: str, reference: str = "", note: str = "") -> Payment:
    """The organiser records money received; a fully paid entry is confirmed. "Waived" waives what is due."""
    if method == PaymentMethod.WAIVED:
        return waive_fee(actor, entry, note=note or reference)
    amount = _amount(amount)
    with transaction.atomic():
        event, entry = _locked(actor, entry, "record payments")
        _check_payment(amount, method, reference)
        if entry.status not in PAYABLE_STATUSES:
            raise RegistrationError(
                f"This entry is {entry.get_status_display().lower()}: it holds no place to pay for.", field="amount"
            )
        if amount > entry.balance:
            raise RegistrationError(
                f"That is more than the {entry.balance} still due on this entry.",
                field="amount",
            )
        payment = _pay(actor, entry, amount, method, reference, note.strip(), now())
        mail_entry(entry, "payment_recorded", f"Payment received: {event.title}", {"payment": payment})
    return payment


def waive_fee(actor, entry: Entry, *, note: str = "") -> Payment:
    """The organiser waives what is still due: the balance becomes zero (no money is recorded as received)
    and the entry is confirmed; the entrant is told in words of its own."""
    with transaction.atomic():
        event, entry = _locked(actor, entry, "waive fees")
        if entry.status not in PAYABLE_STATUSES:
            raise RegistrationError(
                f"This entry is {entry.get_status_display().lower()}: it holds no place to waive a fee for.",
                field="method",
            )
        waived = entry.balance
        if waived <= 0:
            raise RegistrationError("Nothing is due on this entry.", field="method")
        moment = now()
        payment = Payment.objects.create(
            entry=entry,
            amount=waived,
            method=PaymentMethod.WAIVED,
            note=(note or "").strip(),
            recorded_by=actor,
            recorded_at=moment,
        )
        entry.amount_due -= waived
        fields = ["amount_due"]
        if entry.status == EntryStatus.PENDING_PAYMENT:
            move(entry, EntryStatus.CONFIRMED)
            entry.confirmed_at = moment
            fields += ["status", "confirmed_at"]
        entry.save(update_fields=fields)
        mail_entry(entry, "fee_waived", f"Entry fee waived: {event.title}", {"waived": waived})
    return payment


def group_balances(group: GroupEntry) -> list[Entry]:
    """The group's entries in the order they were entered (the order a group payment settles them)."""
    return list(group.entries.select_related("player", "category", "fee").order_by("accepted_at", "pk"))


def record_group_payment(
    actor, group: GroupEntry, *, amount, method: str, reference: str = "", note: str = ""
) -> list[Payment]:
    """One payment (one cheque) for a whole group entry, split across its entries in the order they were
    entered: each is paid in full before the next gets anything; fully paid entries are confirmed.
    All or nothing. Entries on the waiting list, or ended, get none of it."""
    amount = _amount(amount)
    with transaction.atomic():
        event = sync_status(lock_event(group.event_id))
        require_manager(actor, event, "record payments")
        _check_payment(amount, method, reference)
        entries = list(
            Entry.objects.select_for_update(of=("self",))
            .select_related("player", "category")
            .filter(group=group, status__in=PAYABLE_STATUSES)
            .order_by("accepted_at", "pk")
        )
        due = sum((e.balance for e in entries), Decimal("0"))
        if due <= 0:
            raise RegistrationError("Nothing is due on this group's entries.", field="amount")
        if amount > due:
            raise RegistrationError(f"That is more than the {due} still due on this group's entries.", field="amount")
        moment = now()
        left = amount
        payments = []
        for entry in entries:
            share = min(left, entry.balance)
            if share <= 0:
                continue
            group_note = (note.strip() or f"Part of one payment of {amount} for the group")[:200]
            payments.append(_pay(actor, entry, share, method, reference, group_note, moment))
            left -= share
            if left <= 0:
                break
        mail_after_commit(
            "events/email/group_payment.txt",
            f"Payment received: {event.title}",
            [group.email],
            {
                "event": event,
                "group": group,
                "amount": amount,
                "method": PaymentMethod(method).label,
                "reference": reference.strip(),
                "entries": group_balances(group),
                "url": site_url(event.get_absolute_url()),
            },
        )
    return payments
