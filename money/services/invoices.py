"""Quotations and invoices asked for before paying, for what a payment reference names (an entry, a group entry):
the one door the pages and the API use.

Both list what is still to pay, line by line (each student, their category and fee, a concession or discount
against the standard fee), as it stands when asked for, addressed to the billing name and address given, with the
payer's purchase-order number. A quotation has no effect on the ledger; it is valid for QUOTATION_DAYS (never past
the day registration closes). An invoice holds the places it is for until its pay-by day, INVOICE_DAYS after it is
issued (never past the day registration closes, never shortening a longer hold): a school's purchase order takes
longer than the usual hold for an unpaid place. An invoice is paid by paying its reference in any of the usual ways
(money.services.billing). Issued documents are never changed: when what an invoice is for changes (a student
withdrawn, a fee changed), asking again issues a new invoice that replaces it, and the old one keeps its number,
marked replaced, so the series has no gaps."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from clubsite.kit.roles import is_association_staff
from clubsite.kit.status import move
from clubsite.kit.text import check_free_text

from ..association import association_model
from ..models import (
    BILLING_ADDRESS_LENGTH,
    BILLING_NAME_LENGTH,
    PO_NUMBER_LENGTH,
    BillingDocument,
    Invoice,
    InvoiceStatus,
)
from ..payables import KINDS, events, resolve
from .billing import open_invoice
from .ledger import MoneyError, document_number, snapshot_lines

QUOTATION_DAYS = 30
INVOICE_DAYS = 14
ZERO = Decimal("0")


def _billing(billing_name: str, billing_address: str, po_number: str) -> tuple[str, str, str]:
    name = check_free_text(billing_name, "billing name", BILLING_NAME_LENGTH, MoneyError, field="billing_name")
    if not name:
        raise MoneyError("Enter the name to bill: the school, company or person who pays.", field="billing_name")
    address = check_free_text(
        billing_address, "billing address", BILLING_ADDRESS_LENGTH, MoneyError, field="billing_address"
    )
    if not address:
        raise MoneyError("Enter the billing address: it is printed on the document.", field="billing_address")
    po = check_free_text(po_number, "purchase order number", PO_NUMBER_LENGTH, MoneyError, field="po_number")
    if "\n" in po or "\r" in po:
        raise MoneyError("The purchase order number goes on one line.", field="po_number")
    return name, address, po


def _not_after_closing(day, due, today):
    """`day`, or the day registration closes when that comes first (and has not passed)."""
    if due.closes_on and today <= due.closes_on < day:
        return due.closes_on
    return day


def issue(
    user, reference: str, *, document: str, billing_name: str, billing_address: str, po_number: str = ""
) -> Invoice:
    """A quotation or an invoice for what `reference` names, asked for by its payer or its organiser. Refused
    (nothing saved) when it is not theirs, when it holds no place to pay for (cancelled, withdrawn, lapsed) or
    when nothing is left to pay. An invoice replaces the one still open for the same thing."""
    if document not in BillingDocument.values:
        raise MoneyError("Choose a quotation or an invoice.", field="document")
    name, address, po = _billing(billing_name, billing_address, po_number)
    found = resolve(reference)
    if found is None:
        raise MoneyError(f"No amount due has the reference {str(reference or '').strip()[:30]!r}.", field="reference")
    kind, target_id = found
    if not kind.may_see(user, target_id):
        raise NotAllowed("Only whoever pays for this, or its organiser, can ask for its quotation or invoice.")
    what = BillingDocument(document).label.lower()
    moment = timezone.now()
    with transaction.atomic():
        due = kind.due(target_id, lock=True)
        if due is None:
            raise MoneyError(f"No amount due has the reference {reference!r}.", field="reference")
        if not due.payable and due.balance > 0:
            raise MoneyError(f"{due.why_not} There is nothing to make a {what} for.")
        lines = [line for line in due.lines if line.owing]
        if not lines or due.owed <= 0:
            raise MoneyError(f"Nothing is left to pay on {due.title}: there is nothing to make a {what} for.")
        today = timezone.localdate(moment)
        valid_until = None
        if document == BillingDocument.QUOTATION:
            valid_until = _not_after_closing(today + timedelta(days=QUOTATION_DAYS), due, today)
        else:
            kind.hold_for_invoice(target_id, _not_after_closing(today + timedelta(days=INVOICE_DAYS), due, today))
            due = kind.due(target_id)  # read again: its places are now held until the invoice's pay-by
        association = association_model().objects.get(pk=due.association_id)
        previous = open_invoice(kind.code, target_id) if document == BillingDocument.INVOICE else None
        if previous is not None:
            move(previous, InvoiceStatus.REPLACED)
            previous.save(update_fields=["status"])
        number, year, sequence = document_number(association, document, moment)
        total = sum((line.amount for line in lines), ZERO)
        paid_before = sum((line.paid for line in lines), ZERO)
        invoice = Invoice.objects.create(
            association=association,
            document=document,
            number=number,
            year=year,
            sequence=sequence,
            kind=kind.code,
            target_id=target_id,
            reference=due.reference,
            event_id=due.event_id,
            description=due.title[:300],
            billing_name=name,
            billing_address=address,
            po_number=po,
            email=due.payer_email or "",
            lines=snapshot_lines(lines),
            total=total,
            paid_before=paid_before,
            amount_due=sum((line.balance for line in lines), ZERO),
            currency=settings.CURRENCY,
            issued_on=today,
            valid_until=valid_until,
            pay_by=due.pay_by if document == BillingDocument.INVOICE else None,
            issued_at=moment,
            issued_by=user if getattr(user, "pk", None) else None,
        )
        if previous is not None:
            previous.replaced_by = invoice
            previous.save(update_fields=["replaced_by"])
    return invoice


def for_reference(kind_code: str, target_id: int):
    """The quotations and invoices of one thing paid for, newest first."""
    return Invoice.objects.filter(kind=kind_code, target_id=target_id).order_by("-issued_at", "-pk")


def visible_invoices(user):
    """Who sees a quotation or invoice, as who sees a payment: staff all; others those for what they pay for and
    those of the events whose money they manage."""
    if is_association_staff(user):
        return Invoice.objects.all()
    if not (user and user.is_authenticated):
        return Invoice.objects.none()
    mine = Q(pk__in=[])
    for code, kind in KINDS.items():
        mine |= Q(kind=code, target_id__in=list(kind.owned_by(user).values_list("pk", flat=True)))
    return Invoice.objects.filter(mine | Q(event_id__in=events().managed_by(user)))


def assert_may_view(user, invoice: Invoice) -> None:
    if not visible_invoices(user).filter(pk=invoice.pk).exists():
        raise NotAllowed("This document is not yours to see.")


def out_of_date(invoice: Invoice) -> str:
    """Why an open invoice no longer matches what it is for (its fees changed, a student withdrew), in words; ""
    when it still does. The invoice is not changed: asking again issues one that replaces it."""
    if invoice.status != InvoiceStatus.ISSUED or invoice.document != BillingDocument.INVOICE:
        return ""
    found = resolve(invoice.reference)
    due = found[0].due(found[1]) if found else None
    if due is None:
        return "What this invoice was for is gone."
    now = sorted((line.description, str(line.amount)) for line in due.lines if line.owing)
    then = sorted((line.get("description", ""), line.get("amount", "")) for line in invoice.lines)
    if now != then:
        return "The entries or their fees have changed since this invoice was issued: ask for a new invoice."
    if due.owed <= 0:  # settled otherwise: a fee let off, or paid under another reference
        return "Nothing is left to pay on what this invoice is for."
    return ""
