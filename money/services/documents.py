"""What a receipt and a credit note say, made from a payment or a refund: the one place that decides it.

A receipt is built from the payment's own snapshot of what it paid for (its `lines`, taken when the money
arrived), so it reads the same however the entry or renewal changes later. The issuer is the association as its
payment settings describe it; the tax is stated when a fee is marked as including GST."""

from __future__ import annotations

from decimal import Decimal

from django.utils import timezone

from clubsite.kit.money import format_money

from ..core.documents import DocLine, Document, Party
from ..core.tax import parse_rate
from ..models import Method, Payment, PaymentSettings, Refund
from .ledger import settings_for

ZERO = Decimal("0")


def issuer(settings: PaymentSettings) -> Party:
    """The association, its address, and its UEN and GST registration number when it has them."""
    lines = [line.strip() for line in (settings.address or "").splitlines()]
    if settings.paynow_proxy_type == "UEN" and settings.paynow_proxy:
        lines.append(f"UEN {settings.paynow_proxy}")
    if settings.gst_registration:
        lines.append(f"GST reg. no. {settings.gst_registration}")
    return Party(settings.association.name, tuple(lines))


def payer(payment: Payment) -> Party:
    return Party(payment.payer_name or "(not named)", (payment.payer_email,))


def method_label(payment: Payment) -> str:
    label = Method(payment.method).label if payment.method in Method.values else payment.method
    if payment.payer_reference:
        number = "no. " if payment.method == Method.CHEQUE else ""
        label += f" ({number}{payment.payer_reference})"
    return label


def _decimal(value) -> Decimal:
    return Decimal(str(value or "0"))


def tax_rate(lines: list[dict], settings: PaymentSettings) -> Decimal | None:
    """The GST rate the amounts include: the one a taxed fee's note gives ("incl. 9% GST"), else the
    association's rate; None when no fee includes GST."""
    for line in lines:
        if line.get("taxed"):
            return parse_rate(line.get("note", ""), default_rate=Decimal(settings.gst_rate)) or Decimal(
                settings.gst_rate
            )
    return None


def _concession_name(note: str) -> str:
    """A fee's note without what it says about tax (the document states the tax once, under the total)."""
    kept = [part.strip() for part in note.split(",") if part.strip() and parse_rate(part, default_rate=ZERO) is None]
    return ", ".join(kept)


def _doc_line(line: dict, share: Decimal | None = None, currency: str = "") -> DocLine:
    standard, amount = _decimal(line.get("standard")), _decimal(line.get("amount"))
    note = line.get("note", "") or ""
    if amount < standard:
        note = _concession_name(note)
    return DocLine(line.get("description", ""), standard, amount, note, paid=share if share is not None else None)


def _original_applied(payment: Payment) -> Decimal:
    """What the payment paid towards its lines, before any refund took part of it back."""
    return payment.applied + sum((r.unapplied for r in payment.refunds.all()), ZERO)


def _paid_lines(payment: Payment) -> tuple[list[DocLine], Decimal]:
    """The lines this payment paid for, and what was due on them when it arrived. With several lines (a
    group), the money went to each in turn, in full before the next (the snapshot holds each one's balance
    before it arrived), so a part payment lists only the students it paid for."""
    lines = list(payment.lines or [])
    if not lines:
        line = {"description": payment.description, "standard": payment.amount, "amount": payment.amount}
        return [_doc_line(line)], payment.amount
    balances = [_decimal(line.get("balance")) for line in lines]
    due = sum(balances, ZERO) or sum((_decimal(line.get("amount")) for line in lines), ZERO)
    applied = _original_applied(payment)
    if applied <= 0 or not any(balances):
        return [_doc_line(line) for line in lines], due
    left, paid = applied, []
    for line, balance in zip(lines, balances, strict=True):
        share = min(left, balance)
        if share > 0:
            paid.append(_doc_line(line, share, payment.currency))
            left -= share
        if left <= 0:
            break
    return paid, due


def receipt_document(payment: Payment) -> Document:
    """The receipt for `payment`: what it paid for (a concession shown against the standard fee), the total
    received, the GST it includes, how it was paid and the reference."""
    settings = settings_for(payment.association)
    lines, due = _paid_lines(payment)
    notes = []
    if payment.held > 0:
        notes.append(
            f"{format_money(payment.held, payment.currency, code=True)} of this payment is held: it was more than "
            "was due, or what it was for could no longer be paid. The organiser refunds it or applies it."
        )
    elif payment.amount < due:
        paid, charged = (format_money(x, payment.currency, code=True) for x in (payment.amount, due))
        notes.append(f"Part payment: {paid} of {charged} due.")
    notes.append("Thank you.")
    return Document(
        kind="receipt",
        number=payment.number,
        issued=payment.received_on,
        issuer=issuer(settings),
        payer=payer(payment),
        lines=tuple(lines),
        currency=payment.currency,
        total=payment.amount,
        method=method_label(payment),
        reference=payment.reference,
        tax_rate=tax_rate(payment.lines or [], settings),
        footer=" ".join(notes),
    )


def credit_note_document(refund: Refund) -> Document:
    """The credit note for `refund`: the receipt it refers to, the amount credited (with the GST it
    includes, as the receipt stated) and the reason."""
    payment = refund.payment
    settings = settings_for(payment.association)
    line = DocLine(f"Refund: {payment.description}", payment.amount, refund.amount)
    method = Method(refund.method).label if refund.method in Method.values else refund.method
    return Document(
        kind="credit_note",
        number=refund.number,
        issued=timezone.localdate(refund.refunded_at),
        issuer=issuer(settings),
        payer=payer(payment),
        lines=(line,),
        currency=payment.currency,
        total=refund.amount,
        method=method,
        reference=payment.reference,
        tax_rate=tax_rate(payment.lines or [], settings),
        original_number=payment.number,
        reason=refund.reason,
    )
