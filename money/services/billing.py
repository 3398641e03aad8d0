"""Paying an invoice: money received under an invoice's reference is money paid towards that invoice (its receipt
then carries the invoice's number and billing details), and the invoice is paid once nothing is left to pay on
what it was for. Called by the ledger wherever money is applied, in its transaction and under its locks."""

from __future__ import annotations

from django.utils import timezone

from clubsite.kit.status import move

from ..models import BillingDocument, Invoice, InvoiceStatus, Payment


def open_invoice(kind_code: str, target_id: int) -> Invoice | None:
    """The invoice still to be paid for this thing (at most one: asking again replaces it), locked."""
    return (
        Invoice.objects.select_for_update()
        .filter(kind=kind_code, target_id=target_id, document=BillingDocument.INVOICE, status=InvoiceStatus.ISSUED)
        .first()
    )


def pay_invoice(kind, payment: Payment) -> Invoice | None:
    """Links `payment` to the open invoice of what it paid for, and settles the invoice when nothing is left to
    pay (what was due is read again: the payment has just been applied). The caller holds the kind's lock."""
    invoice = open_invoice(kind.code, payment.target_id)
    if invoice is None:
        return None
    if payment.invoice_id is None:
        Payment.objects.filter(pk=payment.pk).update(invoice=invoice)
        payment.invoice = invoice
    due = kind.due(payment.target_id)
    # Paid once what is charged is paid in full; money for a group none of whose students holds a place any more
    # (nothing charged) is held, and settles nothing.
    if due is not None and due.total > 0 and due.balance <= 0:
        move(invoice, InvoiceStatus.PAID)
        invoice.settled_at = timezone.now()
        invoice.save(update_fields=["status", "settled_at"])
    return invoice
