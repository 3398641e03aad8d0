"""What everyone sees: the club list, a club's page and a night's page (with the member's RSVP)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, OuterRef, Q, Subquery
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from clubsite.kit.hooks import collect
from clubsite.kit.paging import BoundedPaginator
from clubsite.kit.roles import player_of
from clubsite.kit.ui import run_service
from players.models import Club, Player, by_family_name
from players.visibility import visible_players
from rulebooks.services import latest_versions

from .. import services
from ..forms import RsvpForm
from ..models import Attendance, AttendanceStatus, ClubNight, ClubPage, NightStatus, OfficerRole, map_link
from ..permissions import may_keep_money, may_keep_page, may_run_club
from .common import club_or_404, night_or_404, with_coming, with_coming_text

PAGE_SIZE = 25
MEMBERS_SHOWN = 30
NIGHTS_SHOWN = 6
ROLE_ORDER = {role: n for n, role in enumerate(OfficerRole.values)}


def _present():
    return Count("attendances", filter=Q(attendances__status=AttendanceStatus.CHECKED_IN))


@require_safe
def club_list(request):
    today = timezone.localdate()
    upcoming = ClubNight.objects.filter(club=OuterRef("pk"), on__gte=today, status=NightStatus.SCHEDULED)
    clubs = (
        Club.objects.select_related("page")
        .annotate(next_night=Subquery(upcoming.order_by("on").values("on")[:1]))
        .order_by("name", "pk")
    )
    page = BoundedPaginator(clubs, PAGE_SIZE).get_page(request.GET.get("page"))
    context = {"page": page}
    context.update(collect("club_list_context", request))
    return render(request, "clubs/club_list.html", context)


@require_safe
def club_detail(request, slug: str):
    club = club_or_404(slug)
    today = timezone.localdate()
    officers = sorted(
        club.officers.select_related("player"), key=lambda o: (ROLE_ORDER.get(o.role, 9), o.player.sort_key)
    )
    members = visible_players(request.user, Player.objects.filter(club=club)).order_by(*by_family_name())
    members_page = BoundedPaginator(members, MEMBERS_SHOWN).get_page(request.GET.get("page"))
    nights = ClubNight.objects.filter(club=club)
    upcoming = with_coming_text(list(with_coming(nights.filter(on__gte=today)).order_by("on", "pk")[:NIGHTS_SHOWN]))
    # Every past night stays reachable: NIGHTS_SHOWN at a time, older ones on the next pages (?past=2).
    past = BoundedPaginator(
        nights.filter(on__lt=today, status=NightStatus.SCHEDULED).annotate(present=_present()).order_by("-on", "-pk"),
        NIGHTS_SHOWN,
    ).get_page(request.GET.get("past"))
    player = player_of(request.user)
    answers = {}
    if player is not None and upcoming:
        answers = {a.night_id: a for a in Attendance.objects.filter(player=player, night__in=[n.pk for n in upcoming])}
    for night in upcoming:
        night.my_answer = answers.get(night.pk)
    page = ClubPage.objects.filter(club=club).first()
    # The club's own rule books (club-play relaxations of the association's); without one it plays by the association's.
    books = latest_versions().filter(club=club).select_related("based_on").order_by("position", "title")
    context = {
        "club_rule_books": list(books),
        "club": club,
        "club_page": page,
        "map_link": map_link(page),
        "officers": officers,
        "members_page": members_page,
        "upcoming": upcoming,
        "past": past,
        "is_member": player is not None and player.club_id == club.pk,
        "runs_club": may_run_club(request.user, club),
        "keeps_page": may_keep_page(request.user, club),
        "keeps_money": may_keep_money(request.user, club),
    }
    context.update(collect("club_page_context", request, club))
    return render(request, "clubs/club_detail.html", context)


@require_safe
def night_detail(request, slug: str, pk: int):
    club = club_or_404(slug)
    night = night_or_404(club, pk)
    counts = night.attendances.aggregate(
        guests=Count("pk", filter=Q(status=AttendanceStatus.CHECKED_IN, is_guest=True)),
        present=Count("pk", filter=Q(status=AttendanceStatus.CHECKED_IN)),
    )
    night.coming_text = with_coming_text(list(with_coming(ClubNight.objects.filter(pk=night.pk))))[0].coming_text
    player = player_of(request.user)
    mine = night.attendances.filter(player=player).first() if player is not None else None
    context = {
        "club": club,
        "night": night,
        "counts": counts,
        "mine": mine,
        "is_member": player is not None and player.club_id == club.pk,
        "is_over": night.on < timezone.localdate(),
        "rsvp_form": RsvpForm(initial={"guests": mine.guests if mine else 0}),
        "runs_club": may_run_club(request.user, club),
    }
    context.update(collect("club_night_context", request, night))
    return render(request, "clubs/night_detail.html", context)


@login_required
@require_POST
def rsvp(request, slug: str, pk: int):
    club = club_or_404(slug)
    night = night_or_404(club, pk)
    form = RsvpForm(request.POST)
    coming = request.POST.get("answer") != "no"
    if not form.is_valid():
        messages.error(request, "Choose how many guests you bring, from 0 to 3.")
    else:
        said = "You are coming: see you there." if coming else "Thank you for saying you are not coming."
        run_service(
            request,
            lambda: services.answer(request.user, night, coming=coming, guests=form.cleaned_data["guests"]),
            said,
        )
    return redirect(night.get_absolute_url())
