"""The organiser's pages: the event form, categories, the lifecycle, entries, payments, emails."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_POST

from clubsite.kit.csv import csv_response
from clubsite.kit.paging import BoundedPaginator
from clubsite.kit.roles import is_organiser
from clubsite.kit.ui import run_service
from money.balances import owing
from money.services.reports import refunds_due_summary

from .. import services
from ..forms import (
    CancelEventForm,
    CategoryForm,
    CopyEventForm,
    DirectorForm,
    EmailEntrantsForm,
    EventForm,
    FeeFormSet,
    MoveEntryForm,
    NewPrizeFormSet,
    PaymentForm,
    PrizeFormSet,
    formset_rows,
    option_value,
    parse_option,
)
from ..forms.prices import FreePlaceForm
from ..models import (
    Category,
    Entry,
    EntryStatus,
    Event,
    EventStatus,
    GroupEntry,
)
from ..permissions import can_manage_event, directed_events
from .common import PAGE_SIZE, _categories, _managed_event


@login_required
def my_events(request):
    """The events a person organises or directs (association staff see every event): upcoming ones soonest first,
    then past ones, latest first."""
    user = request.user
    events = directed_events(user).select_related("club").order_by(*services.upcoming_first(), "pk")
    page = BoundedPaginator(events, PAGE_SIZE).get_page(request.GET.get("page"))
    page.object_list = services.with_shown_status(list(page.object_list))
    for event in page.object_list:
        event.managed = can_manage_event(user, event)
    return render(request, "events/my_events.html", {"page": page, "can_create": is_organiser(user)})


@login_required
def create_event(request):
    if not is_organiser(request.user):
        raise PermissionDenied("Only organisers can announce events.")
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        event = run_service(request, lambda: services.create_event(request.user, **form.service_fields()), form=form)
        if event:
            messages.success(request, "The event is saved as a draft. Add its categories, then publish it.")
            return redirect("events:manage", event.slug)
    return render(request, "events/event_form.html", {"form": form, "event": None})


@login_required
def edit_event(request, slug: str):
    event = _managed_event(request, slug)
    form = EventForm(request.POST or None, instance=Event.objects.get(pk=event.pk))
    if request.method == "POST" and form.is_valid():
        if run_service(
            request,
            lambda: services.update_event(request.user, event, **form.service_fields()),
            form=form,
            success="Saved.",
        ):
            return redirect("events:manage", event.slug)
    return render(request, "events/event_form.html", {"form": form, "event": event})


FEE_FORM_FIELDS = ("name", "amount", "note", "is_concession", "proof_label", "audience", "until")


@login_required
def copy_event(request, slug: str):
    """Starts next year's event from this one: a draft with the same settings, categories, fees and prizes, every
    date a year on (events.services.copy_event), opened on its own manage page to check and edit."""
    event = _managed_event(request, slug)
    form = CopyEventForm(request.POST or None, initial={"title": services.moved_title(event.title, 1)})
    if request.method == "POST" and form.is_valid():
        copy = run_service(
            request, lambda: services.copy_event(request.user, event, title=form.cleaned_data["title"]), form=form
        )
        if copy:
            messages.success(
                request,
                f"This is a draft copy of {event.title}, every date moved on a year: check the dates, categories and "
                "fees, then publish it.",
            )
            return redirect("events:manage", copy.slug)
    new_dates = services.moved_date(event.starts_on, 1), services.moved_date(event.ends_on, 1)
    return render(request, "events/copy_event.html", {"event": event, "form": form, "new_dates": new_dates})


@login_required
def edit_category(request, slug: str, pk: int | None = None):
    event = _managed_event(request, slug)
    category = get_object_or_404(Category, pk=pk, event=event) if pk else None
    data = request.POST or None
    form = CategoryForm(data, instance=category or Category(event=event))
    fee_initial = (
        [
            {
                "id": f.pk,
                **{
                    k: getattr(f, k)
                    for k in ("name", "amount", "note", "is_concession", "proof_label", "audience", "until")
                },
            }
            for f in category.fees.all()
        ]
        if category
        else []
    )
    prize_initial = (
        [
            {"id": p.pk, **{k: getattr(p, k) for k in ("kind", "rank_from", "rank_to", "description", "amount")}}
            for p in category.prizes.all()
        ]
        if category
        else []
    )
    # A category without fees is offered one named "Standard"; the blank rows after it are blank.
    fees = FeeFormSet(data, prefix="fees", initial=fee_initial or [{"name": "Standard"}])
    prizes = (PrizeFormSet if category else NewPrizeFormSet)(data, prefix="prizes", initial=prize_initial)
    if request.method == "POST" and form.is_valid() and fees.is_valid() and prizes.is_valid():
        fields = {name: form.cleaned_data.get(name) for name in CategoryForm.Meta.fields}
        saved = run_service(
            request,
            lambda: services.save_category(
                request.user,
                event,
                category,
                fees=formset_rows(fees, "amount"),
                prizes=formset_rows(prizes),
                **fields,
            ),
            form=form,
            success="Category saved.",
        )
        if saved:
            return redirect("events:manage", event.slug)
    return render(
        request,
        "events/category_form.html",
        {"event": event, "category": category, "form": form, "fees": fees, "prizes": prizes},
    )


@login_required
@require_POST
def delete_category(request, slug: str, pk: int):
    event = _managed_event(request, slug)
    category = get_object_or_404(Category, pk=pk, event=event)
    run_service(request, lambda: services.delete_category(request.user, category), success="Category removed.")
    return redirect("events:manage", event.slug)


def settled_text(settled: dict[str, int]) -> str:
    """What completing the event did with the entries still open (events.services.lifecycle.settle_entries)."""
    words = {
        EntryStatus.CONFIRMED: "played unpaid: confirmed, still owing the fee (see Money and refunds)",
        EntryStatus.LAPSED: "unpaid and not seated: lapsed",
        EntryStatus.NOT_ADMITTED: "on the waiting list or offered a place: not admitted",
    }
    parts = [f"{n} entr{'y' if n == 1 else 'ies'} {words[status]}" for status, n in settled.items() if n]
    return "; ".join(parts) + ("." if parts else "")


LIFECYCLE = {
    "publish": (services.publish_event, "The event is published."),
    "open": (services.open_registration, "Registration is open."),
    "close": (services.close_registration, "Registration is closed."),
    "start": (services.start_event, "The event is under way."),
}


@login_required
@require_POST
def lifecycle(request, slug: str, action: str):
    event = _managed_event(request, slug)
    if action == "cancel":
        form = CancelEventForm(request.POST)
        reason = form.cleaned_data["reason"] if form.is_valid() else ""
        run_service(
            request,
            lambda: services.cancel_event(request.user, event, reason),
            success="The event is cancelled; entrants are told. Every refund due is listed under Money and refunds.",
        )
    elif action == "lapse":
        ended = run_service(request, lambda: services.lapse_unpaid_now(request.user, event))
        if ended:
            messages.success(
                request, f"{ended} unpaid entr{'y' if ended == 1 else 'ies'} lapsed; the places go to the waiting list."
            )
    elif action == "complete":
        done = run_service(request, lambda: services.complete_event(request.user, event))
        if done:
            messages.success(request, f"The event is complete. {settled_text(done.settled)}".strip())
    elif action in LIFECYCLE:
        call, success = LIFECYCLE[action]
        run_service(request, lambda: call(request.user, event), success=success)
    else:
        raise Http404("No such action")
    return redirect("events:manage", event.slug)


# Entries a page on the manage page: each row has its payment, move and cancel actions (half the public list's).
MANAGE_PAGE_SIZE = 50
MANAGE_GROUPS_SHOWN = 100  # more groups than any schools' event has; the entries' filter finds the rest
LAPSE_STATUSES = (EventStatus.PUBLISHED, EventStatus.REGISTRATION_OPEN, EventStatus.REGISTRATION_CLOSED)


@login_required
def manage(request, slug: str, director_form=None):
    event = _managed_event(request, slug)
    services.refresh_status(event)
    categories = _categories(event)
    current = services.places(event)
    counts = {
        (row["category"], row["status"]): row["n"]
        for row in Entry.objects.filter(event=event).values("category", "status").annotate(n=Count("pk")).order_by()
    }
    for category in categories:
        category.places_left = current.left_in(event, category)
        category.counts = {s: counts.get((category.pk, s), 0) for s in EntryStatus.values}
    totals = {s: sum(v for (c, st), v in counts.items() if st == s) for s in EntryStatus.values}
    status_filter = request.GET.get("status") or ""
    category_filter = request.GET.get("category") or ""
    # The page's players by id (prefetched): joined to all of a large event's entries before the page is cut,
    # PostgreSQL reads every player.
    entries = (
        Entry.objects.filter(event=event)
        .select_related("category", "fee", "group", "guest", "rules_version__book")
        .prefetch_related("player")
    )
    entries = services.filter_entries(entries, status_filter, category_filter).order_by(
        "category__position", "category_id", "accepted_at", "pk"
    )
    page = BoundedPaginator(entries, MANAGE_PAGE_SIZE).get_page(request.GET.get("page"))
    questions = services.event_questions(event)
    page.object_list = services.with_shown_answers(page.object_list, questions)
    query = request.GET.copy()
    query.pop("page", None)
    places_left = current.left_in_event(event, categories)
    shown, shown_label = services.shown_status(event, places_left)
    context = {
        "event": event,
        "categories": categories,
        "totals": totals,
        "places_left": places_left,
        "shown_status": shown,
        "shown_label": shown_label,
        "page": page,
        "query": query.urlencode(),
        "filters": urlencode({k: v for k, v in (("status", status_filter), ("category", category_filter)) if v}),
        "statuses": EntryStatus.choices,
        "status_filter": status_filter,
        "category_filter": category_filter,
        "cancel_form": CancelEventForm(),
        "refunds_due": refunds_due_summary(event) if EventStatus.CANCELLED in Event.TRANSITIONS[event.status] else None,
        "transitions": {s.value for s in Event.TRANSITIONS[event.status]},
        "too_early": services.before_event_refusal(event, "start it"),
        "can_lapse": event.status in LAPSE_STATUSES and totals[EntryStatus.PENDING_PAYMENT] > 0,
        "can_reinstate": event.status not in (EventStatus.COMPLETED, EventStatus.CANCELLED),
        "owing_after": (
            Entry.objects.filter(owing(), event=event, status=EntryStatus.CONFIRMED).count()
            if event.status == EventStatus.COMPLETED
            else 0
        ),
        "directors": list(event.directors.order_by("first_name", "last_name", "email")),
        # Each group entry, a click from its page (it was reached only through its teacher's name in an entry's row).
        "groups": list(
            GroupEntry.objects.filter(event=event)
            .annotate(students=Count("entries"))
            .order_by("school", "contact_name", "pk")[: MANAGE_GROUPS_SHOWN + 1]
        ),
        "groups_shown": MANAGE_GROUPS_SHOWN,
        "director_form": director_form or DirectorForm(),
        "questions": questions,
    }
    return render(request, "events/manage.html", context)


@login_required
def manage_directors(request, slug: str):
    """Adds a director (by member number or email address) or removes one, from the manage page."""
    event = _managed_event(request, slug)
    if request.method != "POST":
        return redirect("events:manage", event.slug)
    if "remove" in request.POST:
        user_id = request.POST["remove"]
        if user_id.isdigit():
            run_service(
                request,
                lambda: services.remove_director(request.user, event, int(user_id)),
                success="Director removed.",
            )
        return redirect("events:manage", event.slug)
    form = DirectorForm(request.POST)
    if form.is_valid():
        added = run_service(
            request, lambda: services.add_director(request.user, event, form.cleaned_data["who"]), form=form
        )
        if added:
            messages.success(request, f"{added.get_full_name() or added.email} now directs this event.")
            return redirect("events:manage", event.slug)
    return manage(request, slug, director_form=form)


@login_required
def export_entries(request, slug: str):
    """The entries as a CSV, filtered as the manage page that links to it was."""
    event = _managed_event(request, slug)
    rows = services.entries_for_export(
        event, status=request.GET.get("status") or "", category=request.GET.get("category") or ""
    )
    return csv_response(f"{event.slug}-entries.csv", rows)


# The papers the desk list is laid out for (its print stylesheet sets the page size).
PAPERS = {"a4": "A4", "letter": "Letter"}


@login_required
def desk_list(request, slug: str):
    """The printable list for the registration desk: each category on its own pages, its entrants with fee, paid and
    balance, a box to tick and a column to sign. Printed from the browser on A4 or, with ?paper=letter, letter."""
    event = _managed_event(request, slug)
    paper = request.GET.get("paper") if request.GET.get("paper") in PAPERS else "a4"
    categories = services.desk_list(request.user, event)
    return render(
        request,
        "events/desk_list.html",
        {"event": event, "categories": categories, "paper": paper, "papers": PAPERS},
    )


@login_required
def email_entrants(request, slug: str):
    event = _managed_event(request, slug)
    form = EmailEntrantsForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid():
        sent = run_service(
            request, lambda: services.email_entrants(request.user, event, **form.cleaned_data), form=form
        )
        if sent is not None:
            messages.success(request, f"Message sent to {sent} address{'' if sent == 1 else 'es'}.")
            return redirect("events:manage", event.slug)
    return render(request, "events/email_entrants.html", {"event": event, "form": form})


def _managed_entry(request, pk: int) -> Entry:
    entry = get_object_or_404(
        Entry.objects.select_related("event", "player", "category", "fee", "group", "discount_code"), pk=pk
    )
    if not can_manage_event(request.user, entry.event):
        raise PermissionDenied("Only the event's organiser can do this.")
    return entry


@login_required
def record_payment(request, pk: int):
    entry = _managed_entry(request, pk)
    form = PaymentForm(request.POST or None, initial={"amount": entry.balance, "method": "in_person"})
    if request.method == "POST" and form.is_valid():
        if run_service(
            request,
            lambda: services.record_payment(request.user, entry, **form.cleaned_data),
            form=form,
            success="Payment recorded.",
        ):
            return redirect("events:manage", entry.event.slug)
    payments = entry.payments.select_related("recorded_by", "money_payment")
    free_form = FreePlaceForm(action=reverse("events:free_place", args=[entry.pk]))
    return render(
        request,
        "events/payment_form.html",
        {"entry": entry, "event": entry.event, "form": form, "payments": payments, "free_form": free_form},
    )


@login_required
def move_entry(request, pk: int):
    entry = _managed_entry(request, pk)
    categories = _categories(entry.event)
    form = MoveEntryForm(
        request.POST or None, categories=categories, initial={"option": option_value(entry.category, entry.fee)}
    )
    if request.method == "POST" and form.is_valid():
        category, fee = parse_option(form.cleaned_data["option"])
        proof = form.cleaned_data["concession_proof"]
        if run_service(
            request,
            lambda: services.move_entry(request.user, entry, category, fee, concession_proof=proof),
            form=form,
            success="Entry moved.",
        ):
            return redirect("events:manage", entry.event.slug)
    return render(request, "events/move_entry.html", {"entry": entry, "event": entry.event, "form": form})


@login_required
@require_POST
def cancel_entry(request, pk: int):
    entry = _managed_entry(request, pk)
    reason = request.POST.get("reason", "")
    run_service(
        request,
        lambda: services.cancel_entry(request.user, entry, reason),
        success=f"Entry cancelled; {entry.player.full_name} has been told by email.",
    )
    return redirect("events:manage", entry.event.slug)


@login_required
@require_POST
def reinstate_entry(request, pk: int):
    """The organiser undoes a withdrawal while its place is still free (events.services.reinstate_withdrawal)."""
    entry = _managed_entry(request, pk)
    run_service(
        request,
        lambda: services.reinstate_withdrawal(request.user, entry),
        success=f"{entry.player.full_name}'s entry is reinstated; they have been told by email.",
    )
    return redirect("events:manage", entry.event.slug)
