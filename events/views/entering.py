"""Entering: one player, a group of students, my entries and what an entrant can do with them."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from clubsite.errors import ServiceError
from clubsite.ui import run_service
from players.roles import player_of

from .. import services
from ..forms import (
    EntryForm,
    GroupContactForm,
    ReplaceStudentForm,
    option_choices,
    parse_option,
    student_formset,
)
from ..models import (
    Entry,
    EntryStatus,
)
from ..permissions import can_manage_event
from .common import _categories, _event_for


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
