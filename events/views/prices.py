"""The organiser's pages about prices: the event's discount codes, and free places given to entries."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from clubsite.kit.paging import BoundedPaginator
from clubsite.kit.ui import run_service

from ..forms.prices import DiscountCodeForm, FreePlaceForm
from ..models import DiscountCode
from ..services import discounts
from .common import _categories, _managed_event
from .organiser import _managed_entry

CODES_PER_PAGE = 50


@login_required
def discount_codes(request, slug: str, pk: int | None = None):
    """The event's discount codes with their uses, and a form to add one (or, with `pk`, change one)."""
    event = _managed_event(request, slug)
    code = get_object_or_404(DiscountCode, pk=pk, event=event) if pk else None
    categories = _categories(event)
    initial = None
    if code is not None:
        initial = {
            "code": code.code,
            "category": str(code.category_id or ""),
            "kind": code.kind,
            "value": code.value,
            "max_uses": code.max_uses,
            "expires_on": code.expires_on,
            "note": code.note,
        }
    label = "Save the code" if code else "Add the code"
    form = DiscountCodeForm(request.POST or None, categories=categories, initial=initial, label=label)
    if request.method == "POST" and form.is_valid():
        saved = run_service(
            request,
            lambda: discounts.save_discount_code(request.user, event, form.service_data(), code),
            form=form,
        )
        if saved:
            messages.success(request, f"Discount code {saved.code} saved.")
            return redirect("events:discount_codes", event.slug)
    page = BoundedPaginator(discounts.codes_with_uses(event), CODES_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "events/discount_codes.html",
        {"event": event, "form": form, "page": page, "editing": code},
    )


@login_required
@require_POST
def delete_discount_code(request, slug: str, pk: int):
    event = _managed_event(request, slug)
    code = get_object_or_404(DiscountCode, pk=pk, event=event)
    run_service(
        request,
        lambda: discounts.delete_discount_code(request.user, code),
        success=f"Discount code {code.code} removed.",
    )
    return redirect("events:discount_codes", event.slug)


@login_required
@require_POST
def free_place(request, pk: int):
    """Gives the entry a free place (a helper, a volunteer), or, with `end`, charges its fee again."""
    entry = _managed_entry(request, pk)
    if request.POST.get("end"):
        run_service(
            request,
            lambda: discounts.end_free_place(request.user, entry),
            success=f"{entry.player.full_name} is charged the fee again.",
        )
        return redirect("events:record_payment", entry.pk)
    form = FreePlaceForm(request.POST)
    if form.is_valid():
        run_service(
            request,
            lambda: discounts.give_free_place(request.user, entry, form.cleaned_data["reason"]),
            success=f"{entry.player.full_name} has a free place: nothing to pay.",
        )
    else:
        messages.error(request, "Say why the place is free (at most 100 characters).")
    return redirect("events:record_payment", entry.pk)
