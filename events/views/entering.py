"""Entering: one player, a group of students, my entries and what an entrant can do with them."""

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from clubsite.kit.errors import ServiceError
from clubsite.kit.paging import BoundedPaginator
from clubsite.kit.queries import in_order
from clubsite.kit.roles import player_of
from clubsite.kit.ui import run_service

from .. import services
from ..forms import GroupPaymentForm, option_choices, parse_option
from ..forms.entering import (
    ClassListForm,
    EntryForm,
    GroupContactForm,
    ReplaceStudentForm,
    student_formset,
    student_formset_with_another_row,
)
from ..models import Entry, EntryStatus, GroupEntry, Question
from ..permissions import can_manage_event
from ..services.payments import entry_reference
from ..templatetags.events_tags import format_money
from .common import _categories, _event_for, _facts_to_give

# Each entry is a card with its payment and actions: twenty make a page a phone can scroll.
MY_ENTRIES_PAGE_SIZE = 20
# A teacher's group entries on My entries: every group of the current events, and then the latest past ones.
MY_GROUPS_SHOWN = 20


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _full_categories(event, categories) -> list[tuple]:
    """Categories with no place left, each with the waiting-list position a new entry would take."""
    if services.registration_refusal(event):
        return []
    current = services.places(event)
    waiting = dict(
        Entry.objects.filter(event=event, status=EntryStatus.WAITLISTED)
        .values_list("category")
        .annotate(n=Count("pk"))
        .order_by()
    )
    return [(c, waiting.get(c.pk, 0) + 1) for c in categories if not current.has_room(event, c)]


def _entry_context(event, categories) -> dict:
    return {
        "event": event,
        "registration_refusal": services.registration_refusal(event),
        "full": _full_categories(event, categories),
        "for_students": services.is_for_students(event),
    }


@login_required
def enter(request, slug: str):
    event = _event_for(request, slug)
    services.refresh_status(event)
    categories = _categories(event)
    player = player_of(request.user)
    eligibility = services.categories_for(event, player) if player else [(c, None) for c in categories]
    eligible = [c for c, reason in eligibility if reason is None]
    rated = bool(player and services.player_ratings(event, [player.pk]).get(player.pk))
    questions = services.event_questions(event)
    form = EntryForm(request.POST or None, categories=eligible, event=event, rated=rated, questions=questions)
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
                agreed_version=form.cleaned_data.get("agreed_version"),
                phone=form.cleaned_data["phone"],
                play_up=form.cleaned_data.get("play_up", False),
                answers=form.answers(),
                discount_code=form.cleaned_data["discount_code"],
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
                    request,
                    f"Your place is held. Pay {format_money(entry.balance)} with the reference "
                    f"{entry_reference(entry)} (Pay now, below): it is confirmed once the payment arrives.",
                )
            else:
                messages.success(request, "Your entry is confirmed.")
            return redirect("events:my_entries")
    context = {
        **_entry_context(event, categories),
        **_facts_to_give(event, player, eligibility if player else []),
        "form": form,
        "ineligible": [(c, reason) for c, reason in eligibility if reason],
    }
    return render(request, "events/enter.html", context)


@login_required
def enter_group(request, slug: str):
    event = _event_for(request, slug)
    services.refresh_status(event)
    categories = _categories(event)
    choices = option_choices(categories)
    questions = services.event_questions(event)
    if request.method == "POST" and "add_student" in request.POST:
        # Another row for a student, what was typed kept and nothing judged yet (no "required" on fields still to fill).
        typed = {k: v for k, v in request.POST.items() if k != "csrfmiddlewaretoken"}
        contact = GroupContactForm(event=event, initial=typed)
        students = student_formset_with_another_row(event, choices, request.POST, questions)
        class_list = ClassListForm(initial=typed, categories=categories, questions=questions)
        context = _group_context(event, categories, contact, students, class_list)
        return render(request, "events/enter_group.html", {**context, "kept": _records_chosen(request.POST)})
    contact = GroupContactForm(request.POST or None, event=event, initial=_contact_initial(request.user))
    students = student_formset(event, choices, request.POST or None, questions)
    class_list = ClassListForm(request.POST or None, request.FILES or None, categories=categories, questions=questions)
    error, chosen, to_choose = None, _records_chosen(request.POST), []
    if request.method == "POST" and contact.is_valid() and students.is_valid() and class_list.is_valid():
        data = contact.cleaned_data
        rows = students.student_rows() + class_list.cleaned_data["rows"]
        try:
            group = services.register_group(
                request.user,
                event,
                contact=data,
                students=services.with_records_chosen(rows, chosen),
                accept_rules=data.get("accept_rules", False),
                agreed_version=data.get("agreed_version"),
                names_listed=data.get("names_listed", False),
            )
        except services.RecordsToChoose as refusal:
            # The records are offered to pick from below; the words of the refusal say only what else is wrong.
            error, to_choose = " ".join(refusal.others) or None, refusal.students
        except ServiceError as refusal:
            if refusal.field in contact.fields:
                contact.add_service_error(refusal)
            else:
                error = refusal.message
        else:
            entries = list(group.entries.all())
            waiting = sum(1 for e in entries if e.status == EntryStatus.WAITLISTED)
            note = f" {waiting} of them {'is' if waiting == 1 else 'are'} on the waiting list." if waiting else ""
            messages.success(request, f"{_plural(len(entries), 'student')} entered.{note}")
            return redirect("events:group_entry", group.pk)
    context = _group_context(event, categories, contact, students, class_list, error)
    # Answers already given are sent again with the form, so a refusal for something else does not ask them again.
    asked = {student.index for student in to_choose}
    kept = {index: answer for index, answer in chosen.items() if index not in asked}
    return render(request, "events/enter_group.html", {**context, "to_choose": to_choose, "kept": kept})


# A student's record picked on the group form: the record's member number (or "new") for the student at that place.
RECORD_FOR = re.compile(r"record_for_([1-9][0-9]{0,3})")


def _records_chosen(data) -> dict[int, tuple[str, str]]:
    """The teacher's answers for students who may already be members: by the student's place in the list, the name
    the records were offered for and the answer (services.with_records_chosen applies them)."""
    chosen = {}
    for key, answer in data.items():
        if found := RECORD_FOR.fullmatch(key):
            chosen[int(found[1])] = (data.get(f"record_name_{found[1]}", "").strip(), answer.strip())
    return chosen


def _group_context(event, categories, contact, students, class_list, error=None) -> dict:
    return {
        **_entry_context(event, categories),
        "contact": contact,
        "students": students,
        "class_list": class_list,
        "error": error,
        "room_for_another": len(students.forms) < students.max_num,
    }


def _contact_initial(user) -> dict:
    player = player_of(user)
    initial = {"email": user.email, "contact_name": user.get_full_name()}
    if player:
        initial.update(contact_name=player.full_name, phone=player.phone, school=player.school)
    return initial


@login_required
def group_entry(request, pk: int):
    """A group entry student by student, with what each owes and the group's total; the organiser
    records one payment for the whole group here."""
    group = get_object_or_404(GroupEntry.objects.select_related("event", "rules_version__book"), pk=pk)
    event = group.event
    manager = can_manage_event(request.user, event)
    if not (manager or group.submitted_by_id == request.user.id):
        raise Http404("No such group entry")
    form = None
    money = services.group_money(group)
    due = money.balance
    if manager and (due > 0 or request.method == "POST"):  # nothing to record once the group owes nothing
        form = GroupPaymentForm(request.POST or None, initial={"amount": due, "method": "cheque"})
        if request.method == "POST" and form.is_valid():
            if run_service(
                request,
                lambda: services.record_group_payment(request.user, group, **form.cleaned_data),
                form=form,
                success="Payment recorded for the group.",
            ):
                return redirect("events:group_entry", group.pk)
    questions = services.event_questions(event)
    context = {
        "group": group,
        "event": event,
        "entries": services.with_shown_answers(money.entries, questions),
        "questions": questions,
        "total": money.total,
        "paid": money.paid,
        "balance": due,
        "held": money.held,
        "held_payments": money.held_payments,
        "form": form,
        "manager": manager,
    }
    return render(request, "events/group_entry.html", context)


@login_required
def my_entries(request):
    # Upcoming events first, soonest first; then past ones, latest first. Ordered by the database and shown
    # a page at a time: a member who has played for years has hundreds of entries (ids first: in_order).
    ordered = services.own_entries(request.user).order_by(
        *services.upcoming_first("event__"), "event_id", "accepted_at", "pk"
    )
    page = BoundedPaginator(ordered.values_list("pk", flat=True), MY_ENTRIES_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    entries = page.object_list = in_order(
        page.object_list,
        Entry.objects.select_related("event", "category", "player", "group", "fee", "discount_code"),
    )
    positions = services.waitlist_positions(entries)
    asking = set(Question.objects.filter(event__in={e.event_id for e in entries}).values_list("event_id", flat=True))
    for entry in entries:
        entry.position = positions.get(entry.pk)
        # Offer only what would succeed: the same rules the services apply.
        entry.withdraw_refusal = services.withdrawal_refusal(entry.event)
        entry.name_change_refusal = services.name_change_refusal(entry.event)
        entry.asks_questions = entry.event_id in asking
    # The group entries this person sent, a click from each group's page (it was reached only through an entry).
    groups = (
        GroupEntry.objects.filter(submitted_by=request.user)
        .select_related("event")
        .annotate(students=Count("entries"))
        .order_by(*services.upcoming_first("event__"), "-created_at", "pk")[:MY_GROUPS_SHOWN]
    )
    return render(request, "events/my_entries.html", {"entries": entries, "page": page, "groups": groups})


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


def withdraw_by_link(request, token: str):
    """The emailed link for a member someone else entered: shows the entry, one button withdraws it.
    No log-in: the signed token is the proof. Opening the link changes nothing (mail scanners open links)."""
    entry = services.entry_for_link(token)
    done = False
    if request.method == "POST":
        withdrawn = run_service(request, lambda: services.withdraw_entry_by_link(token))
        if withdrawn:
            entry, done = withdrawn, True
    context = {"entry": entry, "event": entry.event if entry else None, "done": done, "token": token}
    return render(request, "events/withdraw_by_link.html", context, status=200 if entry else 404)


@login_required
def replace_student(request, pk: int):
    entry = get_object_or_404(Entry.objects.select_related("event", "player", "group", "category"), pk=pk)
    if not entry.group_id or not (
        entry.group.submitted_by_id == request.user.id or can_manage_event(request.user, entry.event)
    ):
        raise Http404("No such group entry")
    services.refresh_status(entry.event)
    refusal = services.name_change_refusal(entry.event)
    form = ReplaceStudentForm(request.POST or None)
    if request.method == "POST" and not refusal and form.is_valid():
        if run_service(
            request,
            lambda: services.replace_group_student(request.user, entry, **form.cleaned_data),
            form=form,
            success="The name is changed.",
        ):
            return redirect("events:my_entries")
    # The answers to the organiser's questions stay with the entry: the page says to check them for the new student.
    asks = bool(services.asked_in(services.event_questions(entry.event), entry.category_id))
    context = {"entry": entry, "event": entry.event, "form": form, "refusal": refusal, "asks_questions": asks}
    return render(request, "events/replace_student.html", context)
