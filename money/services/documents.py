"""What a receipt, a credit note, a quotation and an invoice say, made from a payment, a refund or an invoice: the
one place that decides it.

A receipt is built from the payment's own snapshot of what it paid for (its `lines`, taken when the money
arrived), so it reads the same however the entry or renewal changes later. The issuer is the association as its
payment settings describe it; the tax is stated when a fee is marked as including GST."""

from __future__ import annotations

from decimal import Decimal

from django.utils import timezone

from clubsite.kit.money import format_money

from ..core.documents import DocLine, Document, Party
from ..core.tax import parse_rate
from ..models import BillingDocument, Invoice, Method, Payment, PaymentSettings, Refund
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
    """Whom the money came from: the billing name of the invoice it paid (a bank line shortens a school's name),
    else the payer's name."""
    invoice = payment.invoice if payment.invoice_id else None
    name = invoice.billing_name if invoice is not None else payment.payer_name
    return Party(name or "(not named)", (payment.payer_email,))


def billed_to(invoice: Invoice) -> Party:
    """The billing name and address a quotation or invoice is addressed to, line by line."""
    return Party(invoice.billing_name, tuple(line.strip() for line in invoice.billing_address.splitlines()))


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
        **_invoice_details(payment),
    )


def _invoice_details(payment: Payment) -> dict:
    """What a receipt carries of the invoice the payment paid towards: its number and billing details."""
    invoice = payment.invoice
    if invoice is None:
        return {}
    return {"invoice_number": invoice.number, "billing": billed_to(invoice), "po_number": invoice.po_number}


def invoice_document(invoice: Invoice) -> Document:
    """The quotation or invoice as issued: its lines as they were then (a concession or discount shown against
    the standard fee), what was paid before it and what it asks for, addressed to its billing name and address."""
    settings = settings_for(invoice.association)
    quotation = invoice.document == BillingDocument.QUOTATION
    if quotation:
        footer = (
            "This quotation is not a request for payment: it states the fees as they stood on its date. Ask for an "
            "invoice to pay against."
        )
    else:
        footer = (
            f"Pay {format_money(invoice.amount_due, invoice.currency, code=True)} quoting the reference "
            f"{invoice.reference}, by any way the payment page offers: paying the reference settles this invoice."
        )
    return Document(
        kind=invoice.document,
        number=invoice.number,
        issued=invoice.issued_on,
        issuer=issuer(settings),
        payer=billed_to(invoice),
        lines=tuple(_doc_line(line) for line in invoice.lines),
        currency=invoice.currency,
        total=invoice.total,
        method="",
        reference=invoice.reference,
        tax_rate=tax_rate(invoice.lines or [], settings),
        footer=footer,
        po_number=invoice.po_number,
        paid_before=invoice.paid_before,
        valid_until=invoice.valid_until,
        pay_by=invoice.pay_by,
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
