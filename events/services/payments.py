"""Money received for an entry (or one payment for a whole group), recorded by the organiser; a fully
paid entry is confirmed."""

from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.db.models import Sum

from clubsite.kit.mail import subject
from clubsite.kit.money import parse_amount
from clubsite.kit.status import move
from money.core.references import ENTRY, GROUP, make_reference
from money.models import Payment as MoneyPayment
from money.models import money_method, recorded_method

from ..models import (
    ACTIVE_ENTRY_STATUSES,
    OWING_STATUSES,
    PAYABLE_STATUSES,
    Entry,
    EntryStatus,
    EventStatus,
    GroupEntry,
    Payment,
    PaymentMethod,
)
from .common import RegistrationError, lock_event, mail_after_commit, now, require_manager, site_url
from .notify import mail_entry, pay_url, receipt_url
from .places import place_entry, places
from .status import sync_status


def _amount(value, field: str = "amount") -> Decimal:
    """The amount received, as clubsite.kit.money reads every amount (never rounded: 3.005 is refused)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise RegistrationError("Enter the amount received, for example 3.00.", field=field)
    return parse_amount(value, field=field, max_digits=8, error=RegistrationError)


def _check_payment(method: str, reference: str) -> None:
    if method not in PaymentMethod.values:
        raise RegistrationError("Choose how it was paid.", field="method")
    if method == PaymentMethod.CHEQUE and not reference.strip():
        raise RegistrationError("Enter the cheque number as the reference.", field="reference")


def entry_reference(entry: Entry) -> str:
    """What the entrant quotes when paying for one entry (a bank transfer's reference, the PayNow bill number)."""
    return make_reference(ENTRY, entry.pk)


def group_reference(group: GroupEntry) -> str:
    """One reference for a whole group entry: one payment settles all its entries."""
    return make_reference(GROUP, group.pk)


def credit_entry(actor, entry: Entry, payment, amount: Decimal) -> Payment:
    """Credits `amount` of money received (a money.Payment) to one entry, locked by the caller; once nothing is
    due, a pending place is confirmed."""
    row = Payment.objects.create(
        entry=entry,
        amount=amount,
        method=recorded_method(payment.method, PaymentMethod.values),
        reference=(payment.payer_reference or payment.number)[:100],
        note=(payment.note or f"Receipt {payment.number}")[:200],
        recorded_by=actor if getattr(actor, "pk", None) else None,
        recorded_at=payment.recorded_at,
        money_payment=payment,
    )
    entry.amount_paid += amount
    fields = ["amount_paid"]
    if entry.status in (EntryStatus.PENDING_PAYMENT, EntryStatus.OFFERED) and entry.balance <= 0:
        move(entry, EntryStatus.CONFIRMED)
        entry.confirmed_at = payment.recorded_at
        fields += ["status", "confirmed_at"]
    entry.save(update_fields=fields)
    return row


def debit_entry(entry: Entry, amount: Decimal) -> None:
    """A refund of `amount` of what was paid: the entry's charge falls with it (the credit note reduces it), so
    nothing becomes due again."""
    entry.amount_paid = max(entry.amount_paid - amount, Decimal("0"))
    entry.amount_due = max(entry.amount_due - amount, Decimal("0"))
    entry.save(update_fields=["amount_paid", "amount_due"])


def _paid_by(entry: Entry, newest_first: bool = True) -> list[tuple[MoneyPayment, Decimal]]:
    """The money payments that paid towards the entry, each with how much of it they credited to the entry."""
    order = ("-money_payment__recorded_at", "-money_payment") if newest_first else ("money_payment__recorded_at",)
    rows = (
        Payment.objects.filter(entry=entry, money_payment__isnull=False)
        .values("money_payment")
        .annotate(total=Sum("amount"))
        .order_by(*order)
    )
    found = [(row["money_payment"], row["total"]) for row in rows]
    payments = MoneyPayment.objects.in_bulk([pk for pk, _ in found])
    return [(payments[pk], total) for pk, total in found]


def hold_paid(actor, entry: Entry, amount: Decimal, why: str) -> Decimal:
    """Up to `amount` of what the entry (locked by the caller) counts as paid stops counting: it goes back to the
    payments that paid it, newest first, and is held there for the organiser to refund or keep, on the entry's,
    the group's and the money pages alike. The caller saves `amount_paid`. What was held."""
    if amount <= 0:
        return Decimal("0")
    from money.services import hold

    left = min(amount, entry.amount_paid)
    for payment, total in _paid_by(entry):
        if left <= 0:
            break
        left -= hold(actor, payment, min(left, total), why)
    held = min(amount, entry.amount_paid) - left
    entry.amount_paid -= held
    return held


def hold_overpayment(actor, entry: Entry, why: str) -> Decimal:
    """When an entry now costs less than was paid towards it (moved to a cheaper fee), the difference is held
    (hold_paid). What was held."""
    return hold_paid(actor, entry, entry.amount_paid - entry.amount_due, why)


def apply_held(actor, entry: Entry, why: str) -> Decimal:
    """The reverse of hold_paid, for an entry given its place back (locked by the caller): money held on the
    payments that paid it counts for it again, oldest payment first, up to its balance; a place paid in full is
    confirmed (credit_entry). What was applied."""
    from money.services import release

    applied = Decimal("0")
    for payment, _total in _paid_by(entry, newest_first=False):
        if entry.balance <= 0:
            break
        taken = release(actor, payment, entry.balance, why)
        if taken > 0:
            credit_entry(actor, entry, payment, taken)
            applied += taken
    return applied


def _place_still_free(entry: Entry) -> None:
    """The one rule for giving an ended entry its place back: the event is still to be played (or under way), the
    player has no other entry in it, and a place in the category is free (not yet offered to the waiting list)."""
    event = entry.event
    if event.status in (EventStatus.COMPLETED, EventStatus.CANCELLED):
        raise RegistrationError(f"The event is {event.get_status_display().lower()}: no entry comes back now.")
    if Entry.objects.filter(event=event, player_id=entry.player_id, status__in=ACTIVE_ENTRY_STATUSES).exists():
        raise RegistrationError("The player has another entry in this event: refund the held money instead.")
    if not places(event).has_room(event, entry.category):
        raise RegistrationError(f"{entry.category.name} is full: refund the held money, or raise the quota first.")


def reinstate_entry(actor, entry: Entry) -> Entry:
    """A lapsed entry whose money arrived late, or a withdrawn one, gets its place back (the caller holds the event
    lock); for a withdrawn one, see reinstate_withdrawal."""
    event = entry.event
    require_manager(actor, event, "reinstate entries")
    if entry.status == EntryStatus.WITHDRAWN:
        return _reinstate_withdrawal(actor, entry)
    if entry.status != EntryStatus.LAPSED:
        raise RegistrationError(
            f"This entry is {entry.get_status_display().lower()}: only a lapsed or withdrawn one comes back."
        )
    _place_still_free(entry)
    move(entry, EntryStatus.PENDING_PAYMENT)
    entry.ended_at = None
    entry.payment_due_at = None
    entry.save(update_fields=["status", "ended_at", "payment_due_at"])
    return entry


def reinstate_withdrawal(actor, entry: Entry) -> Entry:
    """The organiser (or association staff) undoes a withdrawal while its place is still free: the entry holds a
    place again, pending payment with a new payment time, and the money it had paid, held since it was withdrawn,
    counts for it again (confirming it when that pays it in full). Money refunded since is due again. The entrant
    is told."""
    with transaction.atomic():
        event, entry = locked_entry(actor, entry, "reinstate entries")
        if entry.status != EntryStatus.WITHDRAWN:
            raise RegistrationError(
                f"This entry is {entry.get_status_display().lower()}: only a withdrawn entry can be reinstated."
            )
        return _reinstate_withdrawal(actor, entry)


def _reinstate_withdrawal(actor, entry: Entry) -> Entry:
    _place_still_free(entry)
    moment = now()
    place_entry(entry, EntryStatus.PENDING_PAYMENT, moment)
    entry.ended_at = None
    entry.save(update_fields=["status", "ended_at", "payment_due_at"])
    apply_held(actor, entry, f"{entry.player.full_name} reinstated")
    if entry.status == EntryStatus.PENDING_PAYMENT and entry.balance <= 0:
        move(entry, EntryStatus.CONFIRMED)
        entry.confirmed_at = moment
        entry.save(update_fields=["status", "confirmed_at"])
    mail_entry(entry, "entry_reinstated", subject("Entry reinstated", entry.event.title))
    return entry


def locked_entry(actor, entry: Entry, action: str) -> tuple:
    """The entry's event and the entry itself, both locked, once the actor may manage the event: how every
    organiser's change to an entry begins (`action` names it in the refusal)."""
    event = sync_status(lock_event(entry.event_id))
    require_manager(actor, event, action)
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("player", "group", "guest", "category", "fee", "discount_code")
        .get(pk=entry.pk)
    )
    entry.event = event
    return event, entry


def record_payment(actor, entry: Entry, *, amount=None, method: str, reference: str = "", note: str = "") -> Payment:
    """The organiser records money received (through money.receive, so it gets a receipt); a fully paid entry is
    confirmed. "Waived" waives what is due."""
    if method == PaymentMethod.WAIVED:
        return waive_fee(actor, entry, note=note or reference)
    amount = _amount(amount)
    _check_payment(method, reference)
    with transaction.atomic():
        received = _receive(actor, entry_reference(entry), amount, method, reference, note)
        entry = Entry.objects.select_related("event", "player", "group", "guest", "category").get(pk=entry.pk)
        payment = received.payment.entry_payments.get(entry=entry)
        receipt = received.payment.number
        extra = {"payment": payment, "receipt": receipt, "receipt_url": receipt_url(receipt)}
        mail_entry(entry, "payment_recorded", subject("Payment received", entry.event.title), extra)
    return payment


def _receive(actor, reference: str, amount: Decimal, method: str, payer_reference: str, note: str):
    from money.services import MoneyError, receive

    try:
        return receive(
            reference=reference,
            amount=amount,
            method=money_method(method),
            payer_reference=payer_reference,
            actor=actor,
            note=note,
            by_hand=True,
            notify=False,
        )
    except MoneyError as error:
        raise RegistrationError(error.message, field=error.field) from None


def waive_fee(actor, entry: Entry, *, note: str = "") -> Payment:
    """The organiser waives what is still due: the balance becomes zero (no money is recorded as received)
    and the entry is confirmed; the entrant is told in words of its own."""
    with transaction.atomic():
        event, entry = locked_entry(actor, entry, "waive fees")
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
        mail_entry(entry, "fee_waived", subject("Entry fee waived", event.title), {"waived": waived})
    return payment


def group_balances(group: GroupEntry) -> list[Entry]:
    """The group's entries in the order they were entered (the order a group payment settles them)."""
    return list(group.entries.select_related("player", "category", "fee").order_by("accepted_at", "pk"))


@dataclass(frozen=True)
class GroupMoney:
    """A group entry's money as its page shows it, to the teacher who sent it and to the organiser alike."""

    entries: list[Entry]  # in the order they were entered
    total: Decimal  # charged for the places its entries have taken (OWING_STATUSES)
    paid: Decimal  # of that, paid
    balance: Decimal  # still owed (Entry.owed)
    held_payments: list  # money.Payment rows holding money (`held_amount`), under the group's reference or an entry's

    @property
    def held(self) -> Decimal:
        """Paid but not counted for any place (more than is now due, or for an entry that no longer holds one):
        the organiser refunds it or keeps it, as the event's money page lists it."""
        return sum((p.held_amount for p in self.held_payments), Decimal("0"))


def group_money(group: GroupEntry) -> GroupMoney:
    """What the group is charged, has paid and still owes, and what is held of what it paid (three queries)."""
    from money.services.reports import held_under

    entries = group_balances(group)
    holding = [e for e in entries if e.status in OWING_STATUSES]
    references = [group_reference(group), *(entry_reference(e) for e in entries)]
    return GroupMoney(
        entries=entries,
        total=sum((e.amount_due for e in holding), Decimal("0")),
        paid=sum((e.amount_paid for e in holding), Decimal("0")),
        balance=sum((e.owed for e in entries), Decimal("0")),
        held_payments=held_under(references),
    )


def record_group_payment(
    actor, group: GroupEntry, *, amount, method: str, reference: str = "", note: str = ""
) -> list[Payment]:
    """One payment (one cheque) for a whole group entry, split across its entries in the order they were
    entered: each is paid in full before the next gets anything; fully paid entries are confirmed.
    All or nothing. Entries on the waiting list, or ended, get none of it."""
    amount = _amount(amount)
    _check_payment(method, reference)
    with transaction.atomic():
        received = _receive(actor, group_reference(group), amount, method, reference, note)
        event = group.event
        payments = list(received.payment.entry_payments.order_by("entry__accepted_at", "entry"))
        mail_after_commit(
            "events/email/group_payment.txt",
            subject("Payment received", event.title),
            [group.email],
            {
                "event": event,
                "group": group,
                "amount": amount,
                "method": PaymentMethod(method).label,
                "reference": reference.strip(),
                "entries": group_balances(group),
                "receipt": received.payment.number,
                "receipt_url": receipt_url(received.payment.number),
                "group_reference": group_reference(group),
                "pay_url": pay_url(group_reference(group)),
                "url": site_url(event.get_absolute_url()),
            },
        )
    return payments
