"""Receiving money and giving it back, whatever the way it came: every payment gets a receipt number and
every refund a credit note number, both without gaps per association and year (the number is taken in the
payment's own transaction, so a rollback gives it back), and every change is logged with who and why."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import date
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.utils import timezone

from clubsite.kit.errors import NotAllowed, ServiceError
from clubsite.kit.mail import subject
from clubsite.kit.money import format_money, parse_amount
from clubsite.kit.roles import is_association_staff
from clubsite.kit.sequences import next_in_sequence
from clubsite.kit.text import check_free_text

from ..association import association_model
from ..models import Action, Method, MoneyLog, Payment, PaymentSettings, Refund
from ..payables import KINDS, Due, Kind, events, resolve
from .billing import pay_invoice

REASON_LENGTH = Refund._meta.get_field("reason").max_length  # a credit note's reason


class MoneyError(ServiceError):
    """A refusal about a payment, a refund or a statement."""


@dataclass(frozen=True)
class Received:
    payment: Payment
    duplicate: bool = False  # the provider's id was recorded before: nothing counted again


def to_amount(value, field: str = "amount") -> Decimal:
    """An amount received or refunded, as clubsite.kit.money reads every amount: refused (a MoneyError naming
    `field`) when blank, not a number, not above zero, not to the cent, or too large."""
    return parse_amount(value, field=field, error=MoneyError)


def settings_for(association) -> PaymentSettings:
    """The association's payment settings (made, with a receipt prefix from its short name, the first time)."""
    found = PaymentSettings.objects.filter(association=association).first()
    if found is not None:
        return found
    prefix = "".join(ch for ch in (association.short_name or association.slug).upper() if ch.isalnum())[:10]
    found, _ = PaymentSettings.objects.get_or_create(
        association=association, defaults={"receipt_prefix": prefix or "R", "paynow_name": association.name[:25]}
    )
    return found


# Each numbered document's series and what its number says after the association's prefix (a receipt nothing).
SERIES = {"receipt": "", "credit": "-CN", "invoice": "-INV", "quotation": "-Q"}


def document_number(association, document: str, moment) -> tuple[str, int, int]:
    """The next number of `document`'s series (SERIES) for the association and year, without gaps: taken in the
    caller's transaction, so a rollback gives it back."""
    year = timezone.localdate(moment).year
    sequence = next_in_sequence(f"money:{document}:{association.pk}:{year}")
    prefix = settings_for(association).receipt_prefix
    return f"{prefix}{SERIES[document]}-{year}-{sequence:05d}", year, sequence


def snapshot_lines(lines) -> list[dict]:
    """Lines of what is due as a document keeps them (JSON), as they are now."""
    return [{k: str(v) if isinstance(v, Decimal) else v for k, v in asdict(line).items()} for line in lines]


def _log(actor, action: str, payment: Payment, amount: Decimal, why: str) -> None:
    MoneyLog.objects.create(
        at=timezone.now(),
        actor=actor if getattr(actor, "pk", None) else None,
        action=action,
        payment=payment,
        amount=amount,
        why=why[:300],
    )


def _mail(payment: Payment, template: str, subject: str, context: dict) -> None:
    from outbox.services import queue_email

    if not payment.payer_email:
        return
    body = render_to_string(
        template, {**context, "payment": payment, "SITE_NAME": settings.SITE_NAME, "SITE_URL": settings.SITE_URL}
    )
    queue_email([payment.payer_email], subject, body)


def greeting(payment: Payment, invoice, due: Due) -> str:
    """Whom a receipt's email greets: for money paying an invoice, whoever asked for the invoice when the email
    goes to them, else the payer (not the bank line's shortened name); otherwise the name given with the money."""
    if invoice is None:
        return payment.payer_name
    asker = invoice.issued_by
    if asker is not None and (asker.email or "").casefold() == (payment.payer_email or "").casefold():
        return asker.get_full_name() or due.payer_name or payment.payer_name
    return due.payer_name or payment.payer_name


def due_or_error(reference: str, *, lock: bool = False) -> tuple[Kind, Due]:
    found = resolve(reference)
    due = found[0].due(found[1], lock=lock) if found else None
    if due is None:
        raise MoneyError(f"No amount due has the reference {reference.strip()!r}.", field="reference")
    return found[0], due


def receive(
    *,
    reference: str,
    amount,
    method: str,
    external_id: str = "",
    payer_reference: str = "",
    payer_name: str = "",
    payer_email: str = "",
    received_on: date | None = None,
    actor=None,
    note: str = "",
    by_hand: bool = False,
    notify: bool = True,
) -> Received:
    """Money received for the amount due that `reference` names. What is due gets it, up to its balance; the
    rest (or all of it, when what it was for has lapsed) is kept and held for the organiser to refund or
    reinstate. `external_id` (the provider's id) makes it count once however often it is delivered;
    `payer_reference` is what the payer's slip says (a cheque's number).

    `by_hand`: an organiser or staff member recording it: they must manage what it pays for, it must still be
    payable, and it may not be more than is due (they can see that at the desk; a bank cannot)."""
    amount = to_amount(amount)
    if method not in Method.values:
        raise MoneyError("Choose how it was paid.", field="method")
    external_id = (external_id or "").strip()[:200]
    payer_reference = (payer_reference or "").strip()[:100]
    if method == Method.CHEQUE and not payer_reference:
        raise MoneyError("Enter the cheque number as the reference.", field="reference")
    if received_on and received_on > timezone.localdate():
        raise MoneyError("The payment date cannot be in the future.", field="received_on")
    moment = timezone.now()
    with transaction.atomic():
        kind, due = due_or_error(reference, lock=True)
        if by_hand:
            if not kind.may_manage(actor, due.target_id):
                raise NotAllowed("Only the organiser or association staff can record payments for this.")
            if not due.payable:
                raise MoneyError(due.why_not or "Nothing can be paid on this now.", field="amount")
            if amount > due.balance:
                raise MoneyError(f"That is more than the {due.balance} still due.", field="amount")
        # Unique providers' ids are checked after the lock, so a concurrent delivery of the same one waits
        # for the first to commit and then finds it.
        if external_id:
            existing = Payment.objects.filter(method=method, external_id=external_id).first()
            if existing is not None:
                return Received(existing, duplicate=True)
        applied = min(amount, due.balance) if due.payable else Decimal("0")
        association = association_model().objects.get(pk=due.association_id)
        number, year, sequence = document_number(association, "receipt", moment)
        payment = Payment.objects.create(
            association=association,
            event_id=due.event_id,
            number=number,
            year=year,
            sequence=sequence,
            kind=due.kind,
            target_id=due.target_id,
            reference=due.reference,
            description=due.title[:300],
            lines=snapshot_lines(due.lines),
            method=method,
            external_id=external_id,
            payer_reference=payer_reference,
            amount=amount,
            currency=settings.CURRENCY,
            applied=applied,
            payer_name=(payer_name or due.payer_name)[:200],
            payer_email=payer_email or due.payer_email,
            received_on=received_on or timezone.localdate(moment),
            recorded_at=moment,
            recorded_by=actor if getattr(actor, "pk", None) else None,
            note=(note or "").strip()[:300],
        )
        if applied:
            kind.apply(due.target_id, payment, applied, actor)
        invoice = pay_invoice(kind, payment)
        held_reason = "more than was due" if due.payable else (due.why_not or "it can no longer be paid")
        _log(actor, Action.RECEIVED, payment, amount, note or (f"held: {held_reason}" if payment.held else ""))
        if notify:
            context = {"due": due, "left": due.balance - applied, "held_reason": held_reason}
            context["greeting"] = greeting(payment, invoice, due)
            _mail(payment, "money/email/receipt.txt", subject(f"Receipt {payment.number}", due.title), context)
    return Received(payment)


def refund(actor, payment: Payment, *, amount, reason: str, provider=None) -> Refund:
    """Gives back part or all of a payment, with a credit note. The held part goes first; the rest is taken
    back from what it paid for. A card payment is refunded through its provider (`provider`, looked up when
    not given); other ways are paid back by the organiser, and this records that they did."""
    kind = KINDS[payment.kind]
    if not kind.may_manage(actor, payment.target_id):
        raise NotAllowed("Only the organiser or association staff can refund this payment.")
    amount = to_amount(amount)
    reason = check_free_text(reason, "reason", REASON_LENGTH, MoneyError, field="reason")
    if not reason:
        raise MoneyError("Say why: the credit note shows the reason.", field="reason")
    with transaction.atomic():
        kind.due(payment.target_id, lock=True)
        payment = Payment.objects.select_for_update().get(pk=payment.pk)
        if not kind.may_manage(actor, payment.target_id):
            raise NotAllowed("Only the organiser or association staff can refund this payment.")
        if amount > payment.refundable:
            raise MoneyError(
                f"At most {format_money(payment.refundable, payment.currency, code=True)} of this payment can still "
                "be refunded.",
                field="amount",
            )
        unapplied = max(amount - payment.held, Decimal("0"))
        if unapplied:
            kind.unapply(payment.target_id, payment, unapplied, actor)
        moment = timezone.now()
        external_id = ""
        if payment.method == Method.CARD:
            from ..providers import PROVIDERS

            provider = provider or PROVIDERS.get(Method.CARD)
            if provider is None:
                raise MoneyError("Card payments are refunded through the card provider, which is not set up here.")
            external_id = provider.refund(payment, amount)
        number, year, sequence = document_number(payment.association, "credit", moment)
        Payment.objects.filter(pk=payment.pk).update(refunded=F("refunded") + amount, applied=F("applied") - unapplied)
        payment.refresh_from_db()
        credit = Refund.objects.create(
            payment=payment,
            number=number,
            year=year,
            sequence=sequence,
            amount=amount,
            unapplied=unapplied,
            reason=reason[:300],
            method=payment.method,
            external_id=external_id,
            refunded_at=moment,
            refunded_by=actor if getattr(actor, "pk", None) else None,
        )
        _log(actor, Action.REFUNDED, payment, amount, reason)
        _mail(
            payment,
            "money/email/credit_note.txt",
            subject(f"Credit note {credit.number}", payment.description),
            {"refund": credit},
        )
    return credit


def refund_all(actor, payments, *, reason: str) -> list[Refund]:
    """Gives back everything still refundable on each of `payments` (a cancelled event's), each with its credit
    note; all or none. Card refunds are idempotent at the provider, so asking again after a failure part-way
    through pays nobody twice."""
    if not check_free_text(reason, "reason", REASON_LENGTH, MoneyError, field="reason"):
        raise MoneyError("Say why: the credit notes show the reason.", field="reason")
    with transaction.atomic():
        return [
            refund(actor, payment, amount=payment.refundable, reason=reason)
            for payment in payments
            if payment.refundable > 0
        ]


def reinstate(actor, payment: Payment) -> Payment:
    """Applies a payment's held money to what it was for, once that is made payable again (a lapsed entry
    given back its place, when one is free)."""
    kind = KINDS[payment.kind]
    with transaction.atomic():
        due = kind.due(payment.target_id, lock=True)
        payment = Payment.objects.select_for_update().get(pk=payment.pk)
        if not kind.may_manage(actor, payment.target_id):
            raise NotAllowed("Only the organiser or association staff can reinstate this.")
        if payment.held <= 0:
            raise MoneyError("Nothing of this payment is held.")
        if not due.payable:
            kind.reinstate(payment.target_id, actor)
            # Giving a withdrawn entry its place back applies what was held for it already.
            payment.refresh_from_db()
            due = kind.due(payment.target_id, lock=True)
            if payment.held <= 0 or due.balance <= 0:
                return payment
        share = min(payment.held, due.balance)
        if share <= 0:
            raise MoneyError("Nothing is due on it: refund the held money instead.")
        Payment.objects.filter(pk=payment.pk).update(applied=F("applied") + share)
        payment.refresh_from_db()
        kind.apply(payment.target_id, payment, share, actor)
        pay_invoice(kind, payment)
        _log(actor, Action.REINSTATED, payment, share, due.title)
    return payment


def release(actor, payment: Payment, amount: Decimal, why: str) -> Decimal:
    """The reverse of `hold`: up to `amount` of what `payment` holds is applied again to what it paid for (an entry
    given its place back). The caller has locked that and credits it with the amount returned."""
    payment = Payment.objects.select_for_update().get(pk=payment.pk)
    taken = min(amount, payment.held)
    if taken > 0:
        Payment.objects.filter(pk=payment.pk).update(applied=F("applied") + taken)
        _log(actor, Action.REINSTATED, payment, taken, why)
    return taken


def hold(actor, payment: Payment, amount: Decimal, why: str) -> Decimal:
    """Takes back up to `amount` of what `payment` applied (what it paid for now costs less, as an entry moved to a
    cheaper fee): that money is held, for the organiser to refund or apply again. The caller has locked what the
    payment paid for and lowers what it counts as paid by the amount returned."""
    payment = Payment.objects.select_for_update().get(pk=payment.pk)
    taken = min(amount, payment.applied)
    if taken > 0:
        Payment.objects.filter(pk=payment.pk).update(applied=F("applied") - taken)
        _log(actor, Action.HELD, payment, taken, why)
    return taken


def payments_for(kind: str, target_id: int):
    return Payment.objects.filter(kind=kind, target_id=target_id).prefetch_related("refunds").order_by("recorded_at")


def _own(user) -> Q:
    """The condition for the payments for what `user` pays for, on the ids of those things read first (one
    small query a kind): as a subquery of each kind's table inside OR, PostgreSQL reads every payment."""
    mine = Q(pk__in=[])
    for code, kind in KINDS.items():
        mine |= Q(kind=code, target_id__in=list(kind.owned_by(user).values_list("pk", flat=True)))
    return mine


def own_payments(user):
    """The payments for what the person pays for: their entries (and those they made for others), the group
    entries they submitted, their renewals."""
    if not (user and user.is_authenticated):
        return Payment.objects.none()
    return Payment.objects.filter(_own(user))


def visible_payments(user):
    """Who may see a payment, its receipt and its refunds, the one rule: association staff every payment; anyone
    else those for what they pay for (each kind's owned_by) and those of the events whose money they manage."""
    if is_association_staff(user):
        return Payment.objects.all()
    if not (user and user.is_authenticated):
        return Payment.objects.none()
    # The managed events by id, like their own payments: a join to the events inside OR reads every payment.
    return Payment.objects.filter(_own(user) | Q(event_id__in=events().managed_by(user)))


def assert_may_view(user, payment: Payment) -> None:
    """One payment, by the rule of visible_payments."""
    if not visible_payments(user).filter(pk=payment.pk).exists():
        raise NotAllowed("This payment is not yours to see.")
