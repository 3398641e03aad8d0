"""The door of a club night, on the director's phone: who said they are coming, the club's other members to check
in, a guest's details, and the session fee paid in person or by PayNow."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from clubsite.kit.errors import ServiceError
from clubsite.kit.money import format_money
from clubsite.kit.paging import BoundedPaginator
from clubsite.kit.ui import run_service
from players.models import Player, by_family_name

from .. import services
from ..forms import FeeForm, GuestForm
from ..models import Attendance, AttendanceStatus
from ..permissions import may_keep_money, may_run_club
from .common import club_or_404, night_or_404, require

PAGE_SIZE = 30
MAX_QUERY = 100


def _door_context(request, club, night, guest_form=None):
    attendances = list(
        Attendance.objects.filter(night=night)
        .exclude(status=AttendanceStatus.NOT_COMING)
        .select_related("player", "guest_of")
        .order_by("status", "player__full_name", "pk")
    )
    for attendance in attendances:
        attendance.reference = services.session_reference(attendance)
    q = (request.GET.get("q") or "").strip()[:MAX_QUERY].replace("\x00", "")
    others = Player.objects.filter(club=club).exclude(club_attendances__night=night)
    if q:
        others = others.filter(Q(full_name__icontains=q) | Q(display_name__icontains=q))
    others_page = BoundedPaginator(others.order_by(*by_family_name()), PAGE_SIZE).get_page(request.GET.get("page"))
    hosts = [a.player for a in attendances if not a.is_guest]
    # The guests a member said they bring wait at the door, each ready to check in as theirs, until as many of
    # their guests are checked in.
    arrived = {}
    for a in attendances:
        if a.is_guest and a.guest_of_id and a.status == AttendanceStatus.CHECKED_IN:
            arrived[a.guest_of_id] = arrived.get(a.guest_of_id, 0) + 1
    expected = [
        (a.player, n)
        for a in attendances
        if not a.is_guest
        for n in range(arrived.get(a.player_id, 0) + 1, a.guests + 1)
    ]
    return {
        "club": club,
        "night": night,
        "coming": [a for a in attendances if a.status == AttendanceStatus.COMING],
        "present": [a for a in attendances if a.status == AttendanceStatus.CHECKED_IN],
        "others_page": others_page,
        "q": q,
        "query": f"q={q}" if q else "",
        "expected_guests": expected,
        "guest_form": guest_form or GuestForm(hosts=hosts),
        "fee_methods": FeeForm.base_fields["method"].choices,
        "keeps_money": may_keep_money(request.user, club),
    }


@login_required
def door(request, slug: str, pk: int):
    club = club_or_404(slug)
    require(may_run_club(request.user, club))
    night = night_or_404(club, pk)
    return render(request, "clubs/door.html", _door_context(request, club, night))


@login_required
@require_POST
def check_in(request, slug: str, pk: int):
    club = club_or_404(slug)
    night = night_or_404(club, pk)
    require(may_run_club(request.user, club))
    player = Player.objects.filter(pk=_int(request.POST.get("player"))).first()
    if player is not None:
        run_service(request, lambda: services.check_in(request.user, night, player), f"{player.name} is checked in.")
    else:
        messages.error(request, "Choose who is at the door: that member is not on record.")
    return redirect("clubs:door", club.slug, night.pk)


@login_required
@require_POST
def guest(request, slug: str, pk: int):
    club = club_or_404(slug)
    night = night_or_404(club, pk)
    require(may_run_club(request.user, club))
    hosts = list(
        Player.objects.filter(
            club_attendances__night=night,
            club_attendances__is_guest=False,
            club_attendances__status__in=[AttendanceStatus.COMING, AttendanceStatus.CHECKED_IN],
        )
    )
    form = GuestForm(request.POST, hosts=hosts)
    if form.is_valid():
        data = form.cleaned_data
        host = next((p for p in hosts if p.pk == data["guest_of"]), None)
        try:
            attendance = services.check_in_guest(
                request.user,
                night,
                full_name=data["full_name"],
                email=data["email"],
                date_of_birth=data["date_of_birth"],
                guest_of=host,
                record=data["record"],
                new_person=data["new_person"],
            )
        except ServiceError as error:
            likely = ()
            if error.field == "record":
                likely = services.likely_guests(
                    full_name=data["full_name"], email=data["email"], date_of_birth=data["date_of_birth"]
                )
            form = GuestForm(request.POST, hosts=hosts, likely=likely)
            form.is_valid()
            form.add_service_error(error)
        else:
            messages.success(request, f"{attendance.player.name} is checked in as a guest.")
            return redirect("clubs:door", club.slug, night.pk)
    return render(request, "clubs/door.html", _door_context(request, club, night, form), status=400)


@login_required
@require_POST
def fee(request, slug: str, pk: int, attendance: int):
    club = club_or_404(slug)
    night = night_or_404(club, pk)
    require(may_keep_money(request.user, club))
    found = get_object_or_404(Attendance.objects.select_related("player"), night=night, pk=attendance)
    found.night = night
    form = FeeForm(request.POST)
    if form.is_valid():
        payment = run_service(request, lambda: services.record_fee(request.user, found, form.cleaned_data["method"]))
        if payment:
            messages.success(
                request, f"{found.player.name} paid {format_money(payment.amount)}: receipt {payment.number}."
            )
    else:
        messages.error(request, "Choose how the fee was paid: in person or by PayNow.")
    return redirect("clubs:door", club.slug, night.pk)


def _int(value) -> int | None:
    value = (value or "").strip()
    return int(value) if value.isascii() and value.isdigit() and len(value) < 10 else None
