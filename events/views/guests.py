"""Entering without an account: the form, the entry's own page behind its emailed link (confirm, pay, change,
withdraw) and "Lost your link?". No log-in anywhere here: the signed link is the proof. Opening a link changes
nothing (mail scanners open links); each change is a button."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from clubsite.kit.ui import run_service
from money.payables import resolve
from money.views.pay import pay_page

from .. import services
from ..forms import parse_option
from ..forms.guests import GuestChangeForm, GuestEntryForm, LostLinkForm
from ..models import GUEST_CONFIRM_HOURS
from ..services.payments import entry_reference
from .common import _categories, _event_for
from .entering import _entry_context


def _guest_event(request, slug: str):
    event = _event_for(request, slug)
    if not event.allows_guest_entries:
        raise Http404("This event takes entries from members with an account only.")
    return event


def enter_as_guest(request, slug: str):
    event = _guest_event(request, slug)
    services.refresh_status(event)
    categories = _categories(event)
    questions = services.event_questions(event)
    form = GuestEntryForm(request.POST or None, categories=categories, event=event, questions=questions)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        category, fee = parse_option(data["option"])
        guest = run_service(
            request,
            lambda: services.submit_guest_entry(
                event,
                role=data["role"],
                contact_name=data["contact_name"],
                email=data["email"],
                full_name=data["full_name"],
                date_of_birth=data["date_of_birth"],
                school_level=data["school_level"],
                school=data["school"],
                phone=data["phone"],
                member_number=data["member_number"],
                category=category,
                fee=fee,
                concession_proof=data["concession_proof"],
                discount_code=data["discount_code"],
                accept_rules=data.get("accept_rules", False),
                agreed_version=data.get("agreed_version"),
                name_listed=data["name_listed"],
                answers=form.answers(),
            ),
            form=form,
        )
        if guest:
            messages.success(
                request,
                f"Nearly done: we have emailed a link to {guest.email}. Open it within "
                f"{GUEST_CONFIRM_HOURS} hours to confirm the entry of {guest.full_name}: it takes its place "
                "then. The same link is how you pay, change or withdraw the entry later.",
            )
            return redirect(event.get_absolute_url())
    context = {**_entry_context(event, categories), "form": form}
    return render(request, "events/enter_guest.html", context)


def guest_lost_link(request, slug: str):
    """The same answer whether or not the address entered anyone (and whether or not it has an account)."""
    event = _guest_event(request, slug)
    form = LostLinkForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        if run_service(request, lambda: services.resend_guest_links(event, email) or True, form=form):
            messages.success(
                request,
                f"If {email} entered anyone in {event.title}, the links are on their way to it. "
                "Nothing arrives? Check the spelling of the address and your spam folder; links are sent at most "
                "once every ten minutes.",
            )
            return redirect(reverse("events:guest_lost_link", args=[event.slug]))
    return render(request, "events/guest_lost_link.html", {"event": event, "form": form})


def _guest_or_404(token: str):
    guest = services.guest_for_token(token)
    if guest is None:
        raise Http404(services.GUEST_BAD_LINK)
    return guest


def guest_entry(request, token: str):
    """The entry behind the emailed link: a button confirms it; once confirmed, its status, what is owed and the
    ways to pay, change or withdraw."""
    guest = services.guest_for_token(token)
    if guest is None:
        return render(request, "events/guest_entry.html", {"guest": None}, status=404)
    event = guest.event
    entry = guest.entry
    context = {
        "guest": guest,
        "event": event,
        "entry": entry,
        "token": token,
        "reference": entry_reference(entry) if entry else "",
        "position": services.waitlist_position(entry) if entry else None,
        "withdraw_refusal": services.withdrawal_refusal(event) if entry else None,
        "change_refusal": services.name_change_refusal(event),
    }
    return render(request, "events/guest_entry.html", context)


@require_POST
def guest_confirm(request, token: str):
    _guest_or_404(token)
    without_code = request.POST.get("without_code") == "1"
    run_service(
        request,
        lambda: services.confirm_guest_entry(token, without_code=without_code),
        success="Your entry is confirmed.",
    )
    return redirect("events:guest_entry", token)


@require_POST
def guest_withdraw(request, token: str):
    _guest_or_404(token)
    run_service(request, lambda: services.withdraw_guest_entry(token), success="The entry is withdrawn.")
    return redirect("events:guest_entry", token)


def guest_change(request, token: str):
    guest = _guest_or_404(token)
    initial = {"full_name": guest.full_name, "date_of_birth": guest.date_of_birth, "school": guest.school}
    initial["phone"] = guest.phone
    questions = services.asked_in(services.event_questions(guest.event), guest.category_id)
    entry = guest.entry
    stored = (
        {a.question_id: a.value for a in entry.answers.all()}
        if entry
        else {int(pk): value for pk, value in (guest.answers or {}).items()}
    )
    form = GuestChangeForm(request.POST or None, initial=initial, questions=questions, answers=stored)
    refusal = services.name_change_refusal(guest.event)
    if request.method == "POST" and not refusal and form.is_valid():
        if run_service(
            request,
            lambda: services.change_guest_entry(
                token,
                full_name=form.cleaned_data["full_name"],
                date_of_birth=form.cleaned_data["date_of_birth"],
                school=form.cleaned_data["school"],
                phone=form.cleaned_data["phone"],
                answers=form.answers(),
            ),
            form=form,
            success="The entry is changed.",
        ):
            return redirect("events:guest_entry", token)
    context = {"guest": guest, "event": guest.event, "form": form, "refusal": refusal, "token": token}
    return render(request, "events/guest_change.html", context)


def guest_pay(request, token: str):
    """The payment page of the entry, for its guest (who has no account to see it by)."""
    guest = _guest_or_404(token)
    entry = guest.entry
    found = resolve(entry_reference(entry)) if entry else None
    due = found[0].due(found[1]) if found else None
    if due is None:
        raise Http404("This entry is not confirmed yet: there is nothing to pay.")
    back = reverse("events:guest_entry", args=[token])
    return pay_page(request, found[0], due, signed_in=False, back_url=back)
