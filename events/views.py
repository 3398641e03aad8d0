"""Pages for events. Thin: they read, show forms and call events.services for every write."""

import csv

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as HttpForbidden
from django.core.paginator import Paginator
from django.db.models import Count, F, Prefetch, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from clubsite.errors import ServiceError
from clubsite.ui import run_service
from players.roles import is_association_staff, is_organiser, player_of

from . import calendar, services
from .forms import (
    CancelEventForm,
    CategoryForm,
    EmailEntrantsForm,
    EntryForm,
    EventFilterForm,
    EventForm,
    FeeFormSet,
    GroupContactForm,
    MoveEntryForm,
    NewPrizeFormSet,
    PaymentForm,
    PrizeFormSet,
    ReplaceStudentForm,
    formset_rows,
    option_choices,
    option_value,
    parse_option,
    student_formset,
)
from .models import (
    ACTIVE_ENTRY_STATUSES,
    PLACE_HOLDING_STATUSES,
    Category,
    Entry,
    EntryStatus,
    Event,
    EventStatus,
    Fee,
    Prize,
)
from .permissions import can_manage_event

PAGE_SIZE = 20
ENTRIES_PAGE_SIZE = 100


def _public_events():
    return Event.objects.exclude(status=EventStatus.DRAFT).select_related("club", "association")


def _event_for(request, slug: str) -> Event:
    """A published event, or a draft for those who manage it."""
    event = get_object_or_404(Event.objects.select_related("club", "association", "owner", "rating_list"), slug=slug)
    if event.status == EventStatus.DRAFT and not can_manage_event(request.user, event):
        raise Http404("No such event")
    return event


def _managed_event(request, slug: str) -> Event:
    event = get_object_or_404(Event.objects.select_related("club", "association", "owner"), slug=slug)
    if not can_manage_event(request.user, event):
        raise HttpForbidden("Only the event's organiser can do this.")
    return event


def _categories(event: Event) -> list[Category]:
    return list(
        event.categories.prefetch_related(
            Prefetch("fees", queryset=Fee.objects.order_by("position", "amount", "pk")),
            Prefetch("prizes", queryset=Prize.objects.order_by("position", F("rank_from").asc(nulls_last=True), "pk")),
        )
    )


# --- public pages -------------------------------------------------------------------------------


def event_list(request):
    form = EventFilterForm(request.GET or None)
    today = timezone.localdate()
    events = _public_events()
    past = False
    if form.is_valid():
        data = form.cleaned_data
        past = data.get("when") == "past"
        if data.get("club"):
            events = events.filter(club=data["club"])
        if data.get("kind"):
            events = events.filter(kind=data["kind"])
        if data.get("month"):
            month = data["month"]
            events = events.filter(starts_on__year=month.year, starts_on__month=month.month)
    if past:
        events = events.filter(ends_on__lt=today).order_by("-starts_on", "title")
    else:
        events = events.filter(ends_on__gte=today).order_by("starts_on", "title")
    page = Paginator(events, PAGE_SIZE).get_page(request.GET.get("page"))
    # Places taken for the events shown only: counting every event's entries first is slow on a long history.
    page.object_list = list(page.object_list)
    taken = dict(
        Entry.objects.filter(event__in=[e.pk for e in page.object_list], status__in=PLACE_HOLDING_STATUSES)
        .order_by()
        .values_list("event_id")
        .annotate(n=Count("pk"))
    )
    for event in page.object_list:
        event.places_taken = taken.get(event.pk, 0)
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "events/event_list.html",
        {
            "form": form,
            "page": page,
            "query": query.urlencode(),
            "past": past,
            "can_create": is_organiser(request.user),
        },
    )


def event_detail(request, slug: str):
    event = _event_for(request, slug)
    services.refresh_status(event)
    categories = _categories(event)
    current = services.places(event)
    for category in categories:
        category.places_left = current.left_in(event, category)
        category.places_taken = current.taken.get(category.pk, 0)
    manager = can_manage_event(request.user, event)
    # The entrants a page at a time (in category order, first come first), so a large event's page
    # costs what a small one's does: one query reads the page and counts them all (a window count).
    entrants, entrants_page = [], None
    if event.entrants_public or manager:
        from django.db.models import Window

        ordered = (
            Entry.objects.filter(event=event, status__in=[EntryStatus.CONFIRMED, EntryStatus.PENDING_PAYMENT])
            .select_related("player", "category")
            .order_by("category__position", "category_id", "accepted_at", "pk")
            .annotate(entrants_total=Window(Count("pk")))
        )
        paginator = Paginator(ordered, ENTRIES_PAGE_SIZE)
        number = request.GET.get("page", "1")
        number = min(max(1, int(number)), 100_000) if number.isdigit() else 1
        entrants = list(ordered[(number - 1) * ENTRIES_PAGE_SIZE : number * ENTRIES_PAGE_SIZE])
        if entrants or number == 1:
            paginator.count = entrants[0].entrants_total if entrants else 0
            entrants_page = paginator.page(number)
            entrants_page.object_list = entrants
        else:  # past the last page: show the last one
            entrants_page = paginator.get_page(number)
            entrants = list(entrants_page)
        ratings = services.player_ratings(event, [e.player_id for e in entrants])
        for entry in entrants:
            entry.rating = ratings.get(entry.player_id)
    waiting = Entry.objects.filter(event=event, status=EntryStatus.WAITLISTED).count()
    player = player_of(request.user)
    my_entry = None
    if player:
        my_entry = Entry.objects.filter(event=event, player=player, status__in=ACTIVE_ENTRY_STATUSES).first()
    refusal = services.registration_refusal(event)
    context = {
        "event": event,
        "categories": categories,
        "places_left": current.left_in_event(event, categories),
        "entrants": entrants,
        "entrants_page": entrants_page,
        "waiting": waiting,
        "my_entry": my_entry,
        "registration_refusal": refusal,
        "can_manage": manager,
        "payment_methods": [label for value, label in _method_labels() if value in (event.payment_methods or [])],
    }
    return render(request, "events/event_detail.html", context)


def _method_labels():
    from .models import PaymentMethod

    return PaymentMethod.choices


def event_ics(request, slug: str):
    event = _event_for(request, slug)
    response = HttpResponse(calendar.to_ical([event], request), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}.ics"'
    return response


def calendar_feed(request):
    today = timezone.localdate()
    events = _public_events().filter(ends_on__gte=today - timezone.timedelta(days=90)).order_by("starts_on")[:500]
    return HttpResponse(calendar.to_ical(list(events), request), content_type="text/calendar; charset=utf-8")


# --- entering -----------------------------------------------------------------------------------


@login_required
def enter(request, slug: str):
    event = _event_for(request, slug)
    categories = _categories(event)
    player = player_of(request.user)
    eligibility = services.categories_for(event, player) if player else [(c, None) for c in categories]
    eligible = [c for c, reason in eligibility if reason is None]
    form = EntryForm(request.POST or None, categories=eligible, event=event)
    if request.method == "POST" and form.is_valid():
        category, fee = parse_option(form.cleaned_data["option"])
        entry = run_service(
            request,
            lambda: services.register_entry(
                request.user,
                event,
                category=category,
                fee=fee,
                concession_proof=form.cleaned_data["concession_proof"],
                accept_rules=form.cleaned_data.get("accept_rules", False),
                phone=form.cleaned_data["phone"],
            ),
            form=form,
        )
        if entry:
            if entry.status == EntryStatus.WAITLISTED:
                position = services.waitlist_position(entry)
                messages.warning(
                    request, f"{entry.category.name} is full: you are number {position} on the waiting list."
                )
            elif entry.status == EntryStatus.PENDING_PAYMENT:
                messages.success(
                    request, "Your place is held. It is confirmed once the organiser records your payment."
                )
            else:
                messages.success(request, "Your entry is confirmed.")
            return redirect("events:my_entries")
    context = {
        "event": event,
        "form": form,
        "ineligible": [(c, reason) for c, reason in eligibility if reason],
        "registration_refusal": services.registration_refusal(event),
    }
    return render(request, "events/enter.html", context)


@login_required
def enter_group(request, slug: str):
    event = _event_for(request, slug)
    categories = _categories(event)
    choices = option_choices(categories)
    contact = GroupContactForm(request.POST or None, event=event, initial=_contact_initial(request.user))
    students = student_formset(event, choices, request.POST or None)
    error = None
    if request.method == "POST" and contact.is_valid() and students.is_valid():
        data = contact.cleaned_data
        try:
            group = services.register_group(
                request.user,
                event,
                contact=data,
                students=students.student_rows(),
                accept_rules=data.get("accept_rules", False),
            )
        except ServiceError as refusal:
            if refusal.field in contact.fields:
                contact.add_service_error(refusal)
            else:
                error = refusal.message
        else:
            entries = list(group.entries.all())
            waiting = sum(1 for e in entries if e.status == EntryStatus.WAITLISTED)
            note = f" {waiting} of them are on the waiting list." if waiting else ""
            messages.success(request, f"{len(entries)} students entered.{note}")
            return redirect("events:my_entries")
    context = {
        "event": event,
        "contact": contact,
        "students": students,
        "error": error,
        "registration_refusal": services.registration_refusal(event),
    }
    return render(request, "events/enter_group.html", context)


def _contact_initial(user) -> dict:
    player = player_of(user)
    initial = {"email": user.email, "contact_name": user.get_full_name()}
    if player:
        initial.update(contact_name=player.full_name, phone=player.phone, school=player.school)
    return initial


@login_required
def my_entries(request):
    entries = list(
        Entry.objects.filter(Q(player__user=request.user) | Q(group__submitted_by=request.user))
        .select_related("event", "category", "player", "group", "fee")
        .order_by("-event__starts_on", "event_id", "accepted_at", "pk")[:200]
    )
    for entry in entries:
        entry.position = services.waitlist_position(entry) if entry.status == EntryStatus.WAITLISTED else None
    return render(request, "events/my_entries.html", {"entries": entries})


def _entry_action(request, pk: int, call, success: str):
    entry = get_object_or_404(Entry.objects.select_related("event"), pk=pk)
    run_service(request, lambda: call(request.user, entry), success=success)
    return redirect("events:my_entries")


@login_required
@require_POST
def accept_offer(request, pk: int):
    return _entry_action(request, pk, services.accept_offer, "You have taken the place.")


@login_required
@require_POST
def withdraw(request, pk: int):
    return _entry_action(request, pk, services.withdraw_entry, "The entry is withdrawn.")


@login_required
@require_POST
def leave_waitlist(request, pk: int):
    return _entry_action(request, pk, services.leave_waitlist, "You have left the waiting list.")


@login_required
def replace_student(request, pk: int):
    entry = get_object_or_404(Entry.objects.select_related("event", "player", "group", "category"), pk=pk)
    if not entry.group_id or not (
        entry.group.submitted_by_id == request.user.id or can_manage_event(request.user, entry.event)
    ):
        raise Http404("No such group entry")
    form = ReplaceStudentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if run_service(
            request,
            lambda: services.replace_group_student(request.user, entry, **form.cleaned_data),
            form=form,
            success="The name is changed.",
        ):
            return redirect("events:my_entries")
    return render(request, "events/replace_student.html", {"entry": entry, "event": entry.event, "form": form})


# --- organisers ---------------------------------------------------------------------------------


@login_required
def my_events(request):
    if not is_organiser(request.user):
        raise HttpForbidden("Only organisers have events to manage.")
    events = Event.objects.select_related("club").order_by("-starts_on")
    if not is_association_staff(request.user):
        events = events.filter(owner=request.user)
    page = Paginator(events, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "events/my_events.html", {"page": page})


@login_required
def create_event(request):
    if not is_organiser(request.user):
        raise HttpForbidden("Only organisers can announce events.")
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


@login_required
def edit_category(request, slug: str, pk: int | None = None):
    event = _managed_event(request, slug)
    category = get_object_or_404(Category, pk=pk, event=event) if pk else None
    data = request.POST or None
    form = CategoryForm(data, instance=category or Category(event=event))
    fee_initial = (
        [
            {"id": f.pk, **{k: getattr(f, k) for k in ("name", "amount", "note", "is_concession", "proof_label")}}
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
    fees = FeeFormSet(data, prefix="fees", initial=fee_initial)
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
                prizes=formset_rows(prizes, "description"),
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


LIFECYCLE = {
    "publish": (services.publish_event, "The event is published."),
    "open": (services.open_registration, "Registration is open."),
    "close": (services.close_registration, "Registration is closed."),
    "start": (services.start_event, "The event is under way."),
    "complete": (services.complete_event, "The event is complete."),
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
            success="The event is cancelled; entrants are told.",
        )
    elif action in LIFECYCLE:
        call, success = LIFECYCLE[action]
        run_service(request, lambda: call(request.user, event), success=success)
    else:
        raise Http404("No such action")
    return redirect("events:manage", event.slug)


@login_required
def manage(request, slug: str):
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
    entries = Entry.objects.filter(event=event).select_related("player", "category", "fee", "group")
    if status_filter in EntryStatus.values:
        entries = entries.filter(status=status_filter)
    if category_filter.isdigit():
        entries = entries.filter(category_id=int(category_filter))
    entries = entries.order_by("category__position", "category_id", "accepted_at", "pk")
    page = Paginator(entries, ENTRIES_PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "event": event,
        "categories": categories,
        "totals": totals,
        "places_left": current.left_in_event(event, categories),
        "page": page,
        "query": query.urlencode(),
        "statuses": EntryStatus.choices,
        "status_filter": status_filter,
        "category_filter": category_filter,
        "cancel_form": CancelEventForm(),
        "transitions": {s.value for s in Event.TRANSITIONS[event.status]},
    }
    return render(request, "events/manage.html", context)


@login_required
def export_entries(request, slug: str):
    event = _managed_event(request, slug)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-entries.csv"'
    writer = csv.writer(response)
    for row in services.entries_for_export(event):
        writer.writerow(row)
    return response


@login_required
def email_entrants(request, slug: str):
    event = _managed_event(request, slug)
    form = EmailEntrantsForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        sent = run_service(
            request, lambda: services.email_entrants(request.user, event, **form.cleaned_data), form=form
        )
        if sent is not None:
            messages.success(request, f"Message sent to {sent} addresses.")
            return redirect("events:manage", event.slug)
    return render(request, "events/email_entrants.html", {"event": event, "form": form})


def _managed_entry(request, pk: int) -> Entry:
    entry = get_object_or_404(Entry.objects.select_related("event", "player", "category", "fee", "group"), pk=pk)
    if not can_manage_event(request.user, entry.event):
        raise HttpForbidden("Only the event's organiser can do this.")
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
    payments = entry.payments.select_related("recorded_by")
    return render(
        request, "events/payment_form.html", {"entry": entry, "event": entry.event, "form": form, "payments": payments}
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
        if run_service(
            request, lambda: services.move_entry(request.user, entry, category, fee), form=form, success="Entry moved."
        ):
            return redirect("events:manage", entry.event.slug)
    return render(request, "events/move_entry.html", {"entry": entry, "event": entry.event, "form": form})


@login_required
@require_POST
def cancel_entry(request, pk: int):
    entry = _managed_entry(request, pk)
    run_service(request, lambda: services.cancel_entry(request.user, entry), success="Entry cancelled.")
    return redirect("events:manage", entry.event.slug)
