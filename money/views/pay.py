"""What payers see: the page to pay one amount due (PayNow QR, bank transfer, card), their receipts and credit
notes (page and PDF), and their own payments."""

from django.conf import settings as site_settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe

from clubsite.kit.errors import NotAllowed
from clubsite.kit.paging import BoundedPaginator

from ..association import association_model
from ..core.documents import document_content, render_pdf
from ..core.references import GROUP
from ..models import Payment, Refund
from ..payables import resolve
from ..providers import payment_ways
from ..services import assert_may_view, own_payments, payments_for, settings_for
from ..services.documents import credit_note_document, receipt_document
from ..services.invoices import for_reference

PAGE_SIZE = 25


@login_required
def pay(request, reference: str):
    """One amount due: what it is for, what is paid, and every way it accepts to pay the rest, with its organiser's
    own instructions."""
    found = resolve(reference)
    due = found[0].due(found[1]) if found else None
    if due is None:
        raise Http404("No amount due has this reference.")
    kind = found[0]
    if not kind.may_see(request.user, due.target_id):  # as if unknown: references are not to be guessed
        raise Http404("No amount due has this reference.")
    if reference != due.reference:  # typed in lower case or with spaces: show the reference as it is written
        target = _url("pay", due.reference)
        return redirect(f"{target}?{request.GET.urlencode()}" if request.GET else target)
    return pay_page(request, kind, due)


def pay_page(request, kind, due, *, signed_in: bool = True, back_url: str = ""):
    """The payment page of `due`, for a payer the caller has let see it. `signed_in=False`: a payer without an account
    (an entry's emailed link): the ways that need an account (a card checkout) are left out."""
    settings = settings_for(association_model().objects.get(pk=due.association_id))
    ways = []
    if due.payable and due.balance > 0:
        for way in payment_ways(due, settings):
            if way.action_url and not signed_in:
                continue
            ways.append({"way": way, "svg": mark_safe(way.qr_svg) if way.qr_svg else ""})  # noqa: S308 (segno's own SVG)
    payments = list(payments_for(kind.code, due.target_id))
    context = {
        "documents": list(for_reference(kind.code, due.target_id)[:20]),
        "due": due,
        "kind": kind,
        "group": len(due.lines) > 1 or kind.code == GROUP,
        "ways": ways,
        "payments": payments,
        # Paid but counted for nothing (more than is due now, or for what holds no place): the money page's held.
        "held": sum((p.held for p in payments), 0),
        "card_pending": request.GET.get("card") == "done" and due.balance > 0,
        "currency": site_settings.CURRENCY,
        "signed_in": signed_in,
        "back_url": back_url,
    }
    return render(request, "money/pay/pay.html", context)


def _payment(request, number: str) -> Payment:
    payment = get_object_or_404(
        Payment.objects.select_related("association", "invoice").prefetch_related("refunds"), number=number
    )
    try:
        assert_may_view(request.user, payment)
    except NotAllowed as refusal:
        raise PermissionDenied(refusal.message) from None
    return payment


def _refund(request, number: str) -> Refund:
    refund = get_object_or_404(Refund.objects.select_related("payment__association"), number=number)
    try:
        assert_may_view(request.user, refund.payment)
    except NotAllowed as refusal:
        raise PermissionDenied(refusal.message) from None
    return refund


def _private(response: HttpResponse) -> HttpResponse:
    """A receipt or credit note (page or PDF) names the payer and what they paid: kept by no shared cache, nor by
    the browser."""
    patch_cache_control(response, private=True, no_store=True)
    return response


def _document_page(request, doc, pdf_url: str, back_url: str, extra: dict | None = None):
    context = {"doc": doc, "content": document_content(doc), "pdf_url": pdf_url, "back_url": back_url, **(extra or {})}
    return _private(render(request, "money/receipt.html", context))


def _pdf(doc) -> HttpResponse:
    response = HttpResponse(render_pdf(doc), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{doc.number}.pdf"'
    return _private(response)


@login_required
def receipt(request, number: str):
    payment = _payment(request, number)
    doc = receipt_document(payment)
    return _document_page(request, doc, _url("receipt_pdf", number), _url("pay", payment.reference))


@login_required
def receipt_pdf(request, number: str):
    return _pdf(receipt_document(_payment(request, number)))


@login_required
def credit_note(request, number: str):
    refund = _refund(request, number)
    doc = credit_note_document(refund)
    return _document_page(request, doc, _url("credit_note_pdf", number), _url("pay", refund.payment.reference))


@login_required
def credit_note_pdf(request, number: str):
    return _pdf(credit_note_document(_refund(request, number)))


def _url(name: str, arg: str) -> str:
    return reverse(f"money:{name}", args=[arg])


@login_required
def my_payments(request):
    payments = (
        own_payments(request.user)
        .prefetch_related(Prefetch("refunds", queryset=Refund.objects.order_by("refunded_at", "pk")))
        .order_by("-received_on", "-recorded_at", "-pk")
    )
    page = BoundedPaginator(payments, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "money/pay/my_payments.html", {"page": page})


urls = [
    path("pay/<str:reference>/", pay, name="pay"),
    path("receipts/<str:number>.pdf", receipt_pdf, name="receipt_pdf"),
    path("receipts/<str:number>/", receipt, name="receipt"),
    path("credit-notes/<str:number>.pdf", credit_note_pdf, name="credit_note_pdf"),
    path("credit-notes/<str:number>/", credit_note, name="credit_note"),
    path("payments/", my_payments, name="my_payments"),
]
