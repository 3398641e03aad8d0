"""The club director's pages: the club's page, its series of nights and nights off, and the treasurer's takings."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from clubsite.kit.paging import BoundedPaginator
from clubsite.kit.ui import run_service
from players.models import Player
from rulebooks import services as rule_books

from .. import services
from ..forms import ExceptionForm, OfficerForm, PageForm, SeriesForm
from ..models import AttendanceStatus, ClubNight, ClubPage, NightSeries, Officer
from ..permissions import may_keep_money, may_keep_page, may_run_club
from .common import club_or_404, require, with_coming, with_coming_text

PAGE_SIZE = 20


@login_required
def edit_page(request, slug: str):
    club = club_or_404(slug)
    require(may_keep_page(request.user, club))
    page = ClubPage.objects.filter(club=club).first() or ClubPage(club=club)
    form = PageForm(request.POST if request.method == "POST" else None, instance=page)
    if request.method == "POST" and form.is_valid():
        data = {name: form.cleaned_data[name] for name in form.Meta.fields}
        saved = run_service(
            request, lambda: services.update_page(request.user, club, **data), "The club's page is saved.", form=form
        )
        if saved:
            return redirect("clubs:detail", club.slug)
    context = {
        "club": club,
        "form": form,
        "may_publish_rules": rule_books.can_publish(request.user, club=club),
        "club_book": rule_books.club_book(club),
    }
    return render(request, "clubs/edit_page.html", context)


@login_required
def manage(request, slug: str):
    """The director plans series of nights and sees them, each with a form for a night off."""
    club = club_or_404(slug)
    require(may_run_club(request.user, club))
    form = SeriesForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        data["exceptions"] = data.pop("off")
        series = run_service(
            request, lambda: services.plan_series(request.user, club, **data), "The nights are planned.", form=form
        )
        if series:
            return redirect("clubs:manage", club.slug)
    today = timezone.localdate()
    all_series = NightSeries.objects.filter(club=club).prefetch_related("exceptions").order_by("-first_on", "-pk")
    series_page = BoundedPaginator(all_series, PAGE_SIZE).get_page(request.GET.get("page"))
    upcoming = with_coming_text(
        list(with_coming(ClubNight.objects.filter(club=club, on__gte=today)).order_by("on", "pk")[:8])
    )
    context = {
        "club": club,
        "form": form,
        "series_page": series_page,
        "upcoming": upcoming,
        "exception_form": ExceptionForm(),
        "keeps_money": may_keep_money(request.user, club),
    }
    return render(request, "clubs/manage.html", context)


@login_required
@require_POST
def night_off(request, slug: str, pk: int):
    club = club_or_404(slug)
    series = get_object_or_404(NightSeries, club=club, pk=pk)
    series.club = club
    form = ExceptionForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        run_service(
            request,
            lambda: services.add_exception(request.user, series, data["on"], data["reason"]),
            f"The night of {data['on']:%-d %B %Y} is off.",
        )
    else:
        require(may_run_club(request.user, club))
        messages.error(request, _first_error(form))
    return redirect("clubs:manage", club.slug)


def _first_error(form) -> str:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else "Night off"
        return f"{label}: {errors[0]}"
    return "Check the night off."


@login_required
@require_safe
def takings(request, slug: str):
    """The treasurer's view: each past night's attendance and the session fees the ledger received."""
    club = club_or_404(slug)
    require(may_keep_money(request.user, club))
    # Nights held: those already past, and any where people were checked in (the door opened early).
    nights = (
        ClubNight.objects.filter(club=club)
        .annotate(
            present=Count("attendances", filter=Q(attendances__status=AttendanceStatus.CHECKED_IN)),
            guests=Count(
                "attendances", filter=Q(attendances__status=AttendanceStatus.CHECKED_IN, attendances__is_guest=True)
            ),
        )
        .filter(Q(on__lte=timezone.localdate()) | Q(present__gt=0))
        .order_by("-on", "-pk")
    )
    page = BoundedPaginator(nights, PAGE_SIZE).get_page(request.GET.get("page"))
    found = services.takings(list(page))
    for night in page:
        night.takings = found[night.pk]
    return render(request, "clubs/takings.html", {"club": club, "page": page})


@login_required
def officers(request, slug: str):
    """The club director appoints the club's officers (a member by their member number) and sees who holds which."""
    club = club_or_404(slug)
    require(may_run_club(request.user, club))
    form = OfficerForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        player = Player.objects.filter(member_number=form.cleaned_data["member_number"]).first()
        if player is None:
            form.add_error("member_number", "No member has that member number.")
        else:
            role = form.cleaned_data["role"]
            done = run_service(
                request, lambda: services.appoint_officer(request.user, club, player, role), "", form=form
            )
            if done:
                messages.success(request, f"{player.name} is now {done.get_role_display().lower()}.")
                return redirect("clubs:officers", club.slug)
    held = Officer.objects.filter(club=club).select_related("player").order_by("role", "player__full_name")
    return render(request, "clubs/officers.html", {"club": club, "form": form, "officers": list(held)})


@login_required
@require_POST
def officer_remove(request, slug: str, pk: int):
    club = club_or_404(slug)
    require(may_run_club(request.user, club))
    officer = get_object_or_404(Officer.objects.select_related("player"), club=club, pk=pk)
    officer.club = club
    said = f"{officer.player.name} is no longer {officer.get_role_display().lower()}."
    run_service(request, lambda: services.remove_officer(request.user, officer), said)
    return redirect("clubs:officers", club.slug)
