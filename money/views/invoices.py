"""Quotations and invoices: asking for one for what a payment reference names (its payer or its organiser), and
each one's page and PDF, with where it stands (paid, replaced, out of date) beside the document as issued."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse

from clubsite.kit.errors import NotAllowed
from clubsite.kit.ui import run_service

from ..forms import BillingForm
from ..models import BillingDocument, Invoice, InvoiceStatus
from ..payables import resolve
from ..services import invoices
from ..services.documents import invoice_document
from .pay import _document_page, _pdf, _url


def _due(request, reference: str):
    """What the reference names, for whoever pays for it or manages it; unknown to anyone else (as the pay page)."""
    found = resolve(reference)
    due = found[0].due(found[1]) if found else None
    if due is None or not found[0].may_see(request.user, due.target_id):
        raise Http404("No amount due has this reference.")
    return due


@login_required
def ask(request, reference: str):
    """A quotation or an invoice for one amount due, addressed as its payer asks (the last one's details given
    again; at first, a group's school and address). With nothing left to pay there is nothing to quote: the page
    says so instead of offering the form."""
    due = _due(request, reference)
    documents = list(invoices.for_reference(due.kind, due.target_id)[:20])
    last = documents[0] if documents else None
    initial = {
        "document": BillingDocument.QUOTATION,
        "billing_name": last.billing_name if last else (due.billing_name or due.payer_name),
        "billing_address": last.billing_address if last else due.billing_address,
        "po_number": last.po_number if last else "",
    }
    can_ask = due.owed > 0
    form = BillingForm(request.POST or None, initial=initial) if can_ask else None
    if form is not None and request.method == "POST" and form.is_valid():
        issued = run_service(
            request, lambda: invoices.issue(request.user, due.reference, **form.cleaned_data), form=form
        )
        if issued:
            messages.success(request, f"{issued.get_document_display()} {issued.number} issued.")
            return redirect(_url("invoice", issued.number))
    context = {"due": due, "form": form, "documents": documents, "can_ask": can_ask}
    return render(request, "money/pay/ask_invoice.html", context)


def _invoice(request, number: str) -> Invoice:
    invoice = get_object_or_404(Invoice.objects.select_related("association", "replaced_by"), number=number)
    try:
        invoices.assert_may_view(request.user, invoice)
    except NotAllowed as refusal:
        raise PermissionDenied(refusal.message) from None
    return invoice


def _standing(invoice: Invoice) -> tuple[str, str]:
    """Where the document stands now, in words, and the alert's colour."""
    if invoice.status == InvoiceStatus.PAID:
        return f"Paid: settled on {invoice.settled_at:%d %b %Y}.", "success"
    if invoice.status == InvoiceStatus.REPLACED:
        return f"Replaced by invoice {invoice.replaced_by.number}: pay that one.", "warning"
    if invoice.document == BillingDocument.QUOTATION:
        return "A quotation: nothing to pay against it. Ask for an invoice when you are ready to pay.", "info"
    changed = invoices.out_of_date(invoice)
    if changed:
        return changed, "warning"
    return f"Not yet paid: pay quoting {invoice.reference}.", "info"


@login_required
def invoice(request, number: str):
    found = _invoice(request, number)
    doc = invoice_document(found)
    standing, tone = _standing(found)
    extra = {
        "standing": standing,
        "standing_tone": tone,
        "replaced_url": _url("invoice", found.replaced_by.number) if found.replaced_by_id else "",
        "payments": list(found.payments.order_by("recorded_at")),
    }
    return _document_page(request, doc, _url("invoice_pdf", number), _url("pay", found.reference), extra)


@login_required
def invoice_pdf(request, number: str):
    return _pdf(invoice_document(_invoice(request, number)))


def ask_url(reference: str) -> str:
    return reverse("money:ask_invoice", args=[reference])


urls = [
    path("pay/<str:reference>/quotation-or-invoice/", ask, name="ask_invoice"),
    path("invoices/<str:number>.pdf", invoice_pdf, name="invoice_pdf"),
    path("invoices/<str:number>/", invoice, name="invoice"),
]
