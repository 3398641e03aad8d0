"""The organiser's and the treasurer's money pages: refunding a payment (with a credit note), applying held
money after all, one event's money, and the treasurer's page of every payment, refund and amount owed, with
its CSV. Every write goes through money.services, which checks again who may do it."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, path, reverse
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from clubsite.kit.csv import csv_response
from clubsite.kit.money import format_money
from clubsite.kit.paging import BoundedPaginator
from clubsite.kit.roles import is_association_staff
from clubsite.kit.ui import run_service

from .. import services
from ..forms import RefundForm, TreasurerFilterForm
from ..models import Payment
from ..payables import KINDS, events
from ..services import reports

PAGE_SIZE = 50


def document_url(name: str, number: str, literal: str) -> str:
    """The page of a receipt, credit note or payment request (its literal address until its page exists)."""
    try:
        return reverse(f"money:{name}", args=[number])
    except NoReverseMatch:
        return literal.format(number)


def receipt_url(number: str) -> str:
    return document_url("receipt", number, "/money/receipts/{}/")


def credit_note_url(number: str) -> str:
    return document_url("credit_note", number, "/money/credit-notes/{}/")


def _page(request, rows, param: str, size: int = PAGE_SIZE):
    """One page of a list, read at once; `query` keeps the page's other parameters for its links."""
    page = BoundedPaginator(rows, size).get_page(request.GET.get(param))
    page.object_list = list(page.object_list)
    query = request.GET.copy()
    query.pop(param, None)
    page.param, page.query = param, query.urlencode()
    page.title = getattr(rows, "title", "")  # what is still owed: "entries", "membership renewals"
    return page


def _invoices(request, filters) -> dict:
    """A page of the invoices for the filters, each with what of it is paid and outstanding, and their totals."""
    page = _page(request, reports.invoices(filters), "invoices")
    for invoice in page.object_list:
        invoice.paid = reports.invoice_paid(invoice)
        invoice.outstanding = invoice.amount_due - invoice.paid
    return {"invoices": page, "invoice_totals": reports.invoice_totals(filters)}


def _linked(rows):
    """Gives each payment its receipt's address and each refund its credit note's."""
    for row in rows:
        if isinstance(row, Payment):
            row.receipt_url = receipt_url(row.number)
            row.by = reports.who(row.recorded_by)
        else:
            row.url = credit_note_url(row.number)
            row.by = reports.who(row.refunded_by)
    return rows


def _managed_payment(request, number: str) -> Payment:
    payment = get_object_or_404(Payment.objects.select_related("event", "association"), number=number)
    kind = KINDS.get(payment.kind)
    if kind is None or not kind.may_manage(request.user, payment.target_id):
        raise PermissionDenied("Only the event's organiser or association staff can do this.")
    return payment


def _back(payment: Payment) -> str:
    if payment.event_id:
        return reverse("money:event_money", args=[payment.event.slug])
    return reverse("money:treasurer")


@login_required
def refund(request, number: str):
    """Gives back part or all of a payment: the amount (all that can be refunded, unless changed) and why,
    beside the event's refund policy."""
    payment = _managed_payment(request, number)
    form = RefundForm(
        request.POST or None,
        payment=payment,
        initial={"amount": payment.held if payment.held > 0 else payment.refundable},
    )
    if request.method == "POST" and form.is_valid():
        credit = run_service(
            request,
            lambda: services.refund(
                request.user, payment, amount=form.cleaned_data["amount"], reason=form.cleaned_data["reason"]
            ),
            form=form,
        )
        if credit:
            messages.success(
                request,
                format_html(
                    'Refunded {} of receipt {}: credit note <a href="{}">{}</a>.',
                    format_money(credit.amount, payment.currency, code=True),
                    payment.number,
                    credit_note_url(credit.number),
                    credit.number,
                ),
            )
            return redirect(_back(payment))
    return render(
        request,
        "money/organiser/refund.html",
        {
            "payment": payment,
            "event": payment.event,
            "form": form,
            "back": _back(payment),
            "receipt_url": receipt_url(payment.number),
            "credits": _linked(list(payment.refunds.select_related("refunded_by"))),
        },
    )


@login_required
@require_POST
def reinstate(request, number: str):
    """Applies a payment's held money to what it was for (a lapsed entry gets its place back, if one is free)."""
    payment = _managed_payment(request, number)
    run_service(
        request,
        lambda: services.reinstate(request.user, payment),
        success=f"The money held on receipt {payment.number} is applied to {payment.description}.",
    )
    return redirect(_back(payment))


@login_required
@require_POST
def refund_all(request, key: str):
    """A cancelled event: every refund due at once, each with its credit note."""
    event = _event(request, key)
    if not events().is_cancelled(event):
        messages.error(request, "Only a cancelled event's payments are all refunded at once.")
    else:
        reason = (request.POST.get("reason") or "").strip() or f"{event.title} is cancelled"
        due = list(reports.refunds_due(event))
        done = run_service(request, lambda: services.refund_all(request.user, due, reason=reason))
        if done:
            count = len(done) if isinstance(done, list) else 0
            messages.success(request, f"{count} payment{'s' if count != 1 else ''} refunded, each with a credit note.")
    return redirect("money:event_money", event.slug)


def _event(request, key: str):
    """The event by its slug (or its number), for those who manage it."""
    event = events().find(key)
    if event is None:
        raise Http404("No such event")
    if not events().may_manage(request.user, event):
        raise PermissionDenied("Only the event's organiser or association staff can see its money.")
    return event


@login_required
def event_money(request, key: str):
    """One event's money: money held first, every payment, refunds issued, what entries still owe, totals; for a
    cancelled event, every payment with something to give back."""
    event = _event(request, key)
    only_event = reports.Filters(event_id=event.pk)
    held = _page(request, reports.held(only_event), "held")
    _linked(held.object_list)
    notes = reports.held_notes(held.object_list)
    for payment in held.object_list:
        payment.note_held = notes[payment.pk]
    owed = _page(request, reports.owed(event.pk), "owed")
    context = {
        "event": event,
        "manage_url": events().manage_url(event),
        "totals": reports.event_totals(event),
        "held": held,
        "payments": _linked(_page(request, reports.payments(only_event), "page")),
        "credits": _linked(_page(request, reports.refunds(only_event), "credits")),
        "owed": owed,
        **_invoices(request, only_event),
        "cancelled": events().is_cancelled(event),
        "is_staff": is_association_staff(request.user),
    }
    if context["cancelled"]:
        context["due"] = _linked(_page(request, reports.refunds_due(event), "due"))
        context["due_summary"] = reports.refunds_due_summary(event)
    return render(request, "money/organiser/event_money.html", context)


def _staff(request) -> None:
    if not is_association_staff(request.user):
        raise PermissionDenied("Only association staff can see the treasurer's page.")


@login_required
def treasurer(request):
    """Every payment, refund and amount owed for a period, an event, a way of paying; totals per event."""
    _staff(request)
    form = TreasurerFilterForm(request.GET)
    filters = form.filters()
    owed = _page(request, reports.owed(filters.event_id), "owed")
    # What belongs to no event (membership renewals) is left out when one event is chosen.
    renewals = None if filters.event_id else _page(request, reports.owed(at_events=False), "renewals")
    query = request.GET.copy()
    for param in ("page", "credits", "owed", "renewals", "invoices"):
        query.pop(param, None)
    context = {
        "form": form,
        "filters": filters,
        "summary": reports.summary(filters),
        "owing": reports.outstanding_totals(filters.event_id, renewals=not filters.event_id),
        "reductions": reports.reductions(filters.event_id),
        "payments": _linked(_page(request, reports.payments(filters), "page")),
        "credits": _linked(_page(request, reports.refunds(filters), "credits")),
        "owed": owed,
        "renewals": renewals,
        **_invoices(request, filters),
        "csv_query": query.urlencode(),
    }
    return render(request, "money/treasurer/treasurer.html", context)


@login_required
def treasurer_csv(request):
    """The treasurer's page as a spreadsheet: one row per payment and per refund, with the same filters."""
    _staff(request)
    form = TreasurerFilterForm(request.GET)
    if not form.is_valid():
        problems = "; ".join(
            f"{form.fields[name].label if name in form.fields else 'Filters'}: {' '.join(errors)}"
            for name, errors in form.errors.items()
        )
        return HttpResponseBadRequest(f"Check the filters. {problems}", content_type="text/plain; charset=utf-8")
    filters = form.filters()
    return csv_response(f"money-{filters.start or 'start'}-to-{filters.end or 'now'}.csv", reports.csv_rows(filters))


urls = [
    path("payments/<str:number>/refund/", refund, name="refund"),
    path("payments/<str:number>/reinstate/", reinstate, name="reinstate"),
    path("events/<str:key>/", event_money, name="event_money"),
    path("events/<str:key>/refund-all/", refund_all, name="refund_all"),
    path("treasurer/", treasurer, name="treasurer"),
    path("treasurer/export.csv", treasurer_csv, name="treasurer_csv"),
]
