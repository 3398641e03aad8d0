"""Pages of play at club nights: a night's games and tables (entered there), a table, the ladder with the club
rating list, the club's play rules, and announcing a club tournament. Each calls clubs.services; none decides."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from clubsite.kit.paging import BoundedPaginator
from clubsite.kit.roles import player_of
from clubsite.kit.ui import run_service
from events import services as event_services
from events.models import EventKind
from events.permissions import directs_club
from players.models import Club, Player

from . import play_forms
from .models import Attendance, AttendanceStatus, ClubGame, ClubGameStatus, ClubNight, ClubTable, TableSeat
from .permissions import may_run_club
from .services import play, standings


def _club(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


def _night(club: Club, pk: int) -> ClubNight:
    return get_object_or_404(ClubNight, club=club, pk=pk)


def _attendees(night: ClubNight):
    return Player.objects.filter(
        pk__in=Attendance.objects.filter(
            night=night, status__in=[AttendanceStatus.COMING, AttendanceStatus.CHECKED_IN]
        ).values("player_id")
    ).order_by("full_name", "pk")


def _game_rows(night: ClubNight, user, director: bool) -> list[ClubGame]:
    own = player_of(user)
    games = list(night.games.select_related("player_a", "player_b").order_by("pk"))
    for game in games:
        mine = own is not None and own.pk in (game.player_a_id, game.player_b_id)
        game.may_answer = game.status == ClubGameStatus.SUBMITTED and mine and game.submitted_by_id != user.id
        game.may_settle = director and game.status != ClubGameStatus.CONFIRMED
    return games


@require_http_methods(["GET", "POST"])
def night_play(request, slug: str, pk: int):
    """A night's games and tables; a player at the night enters their game here, the club director any game."""
    club = _club(slug)
    night = _night(club, pk)
    director = may_run_club(request.user, club)
    form = None
    if request.user.is_authenticated:
        attendees = _attendees(night)
        data = request.POST if request.method == "POST" else None
        own = player_of(request.user)
        form = play_forms.GameForm(data, attendees=attendees, initial={"player_a": own.pk if own else None})
        if request.method == "POST" and form.is_valid():
            d = form.cleaned_data
            game = run_service(
                request,
                lambda: play.submit_game(
                    request.user,
                    night,
                    d["player_a"],
                    d["player_b"],
                    d["score_a"],
                    d["score_b"],
                    first=d["first"],
                    ahead_before_tiles=d["ahead_before_tiles"] or None,
                    confirm_unusual=d["confirm_unusual"],
                ),
                form=form,
            )
            if game:
                message = "Game entered." if game.status == ClubGameStatus.CONFIRMED else "Game submitted: "
                if game.status != ClubGameStatus.CONFIRMED:
                    message += f"{play.who_confirms(game, request.user)}."
                messages.success(request, message)
                return redirect("clubs:night_play", club.slug, night.pk)
    elif request.method == "POST":
        return redirect(f"{reverse('account_login')}?next={request.path}")
    tables = night.tables.prefetch_related(
        Prefetch("seats", queryset=TableSeat.objects.select_related("player").order_by("place", "seat"))
    ).select_related("went_out")
    context = {
        "club": club,
        "night": night,
        "director": director,
        "form": form,
        "games": _game_rows(night, request.user, director),
        "tables": tables,
    }
    return render(request, "clubs/play/night.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def table_new(request, slug: str, pk: int):
    """The club director enters a table from the referee's sheet."""
    club = _club(slug)
    night = _night(club, pk)
    if not may_run_club(request.user, club):
        raise PermissionDenied("Only the club director enters tables.")
    form = play_forms.TableForm(request.POST or None, attendees=_attendees(night))
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        rows = [
            play.TableRow(d[f"player_{n}"], d[f"drawn_{n}"], d[f"score_before_{n}"], d[f"tiles_left_{n}"])
            for n in range(1, 5)
        ]
        table = run_service(
            request,
            lambda: play.enter_table(request.user, night, rows, went_out=d["went_out"]),
            "Table entered.",
            form=form,
        )
        if table:
            return redirect("clubs:night_play", club.slug, night.pk)
    return render(request, "clubs/play/table_form.html", {"club": club, "night": night, "form": form})


@require_safe
def table_sheet(request, slug: str, pk: int):
    """A table sheet to print for the referee: the draw, a column a player for each turn's score, the end."""
    club = _club(slug)
    night = _night(club, pk)
    return render(request, "clubs/play/print_table_sheet.html", {"club": club, "night": night, "turns": range(1, 31)})


def _game(slug: str, pk: int) -> ClubGame:
    return get_object_or_404(ClubGame.objects.select_related("night__club"), night__club__slug=slug, pk=pk)


@login_required
@require_POST
def game_confirm(request, slug: str, pk: int):
    game = _game(slug, pk)
    run_service(request, lambda: play.confirm_game(request.user, game), "Game confirmed.")
    return redirect("clubs:night_play", slug, game.night_id)


@login_required
@require_POST
def game_dispute(request, slug: str, pk: int):
    game = _game(slug, pk)
    reason = request.POST.get("reason", "")
    run_service(
        request, lambda: play.dispute_game(request.user, game, reason), "Disputed: the club director settles it."
    )
    return redirect("clubs:night_play", slug, game.night_id)


@login_required
@require_POST
def game_remove(request, slug: str, pk: int):
    game = _game(slug, pk)
    night_id = game.night_id
    run_service(request, lambda: play.remove_game(request.user, game), "Game removed.")
    return redirect("clubs:night_play", slug, night_id)


@login_required
@require_POST
def table_remove(request, slug: str, pk: int):
    table = get_object_or_404(ClubTable.objects.select_related("night__club"), night__club__slug=slug, pk=pk)
    night_id = table.night_id
    run_service(request, lambda: play.remove_table(request.user, table), "Table removed.")
    return redirect("clubs:night_play", slug, night_id)


@require_safe
def ladder(request, slug: str):
    """The season's ladder, each player's club rating beside it."""
    club = _club(slug)
    board = standings.club_ladder(club)
    page = BoundedPaginator(board.lines, standings.LADDER_PAGE).get_page(request.GET.get("page"))
    context = {"club": club, "board": board, "page": page, "director": may_run_club(request.user, club)}
    return render(request, "clubs/play/ladder.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def play_rules(request, slug: str):
    club = _club(slug)
    if not may_run_club(request.user, club):
        raise PermissionDenied("Only the club director sets how the club counts its nights.")
    form = play_forms.PlayRulesForm(request.POST or None, instance=play.rules_of(club))
    if request.method == "POST" and form.is_valid():
        fields = {name: form.cleaned_data[name] for name in form.Meta.fields}
        if run_service(request, lambda: play.save_rules(request.user, club, **fields), "Saved.", form=form):
            return redirect("clubs:ladder", club.slug)
    return render(request, "clubs/play/rules.html", {"club": club, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request, slug: str):
    """A club director announces a club tournament: a draft event of the club, theirs to fill in and run."""
    club = _club(slug)
    if not directs_club(request.user, club):
        raise PermissionDenied("Only the club director announces the club's tournaments.")
    form = play_forms.ClubTournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        event = run_service(
            request,
            lambda: event_services.create_event(
                request.user, association=club.association, club=club, kind=EventKind.CLUB, **form.cleaned_data
            ),
            "Drafted: fill in the rest, publish it, and run it from its tournament-day pages.",
            form=form,
        )
        if event:
            return redirect("events:edit", event.slug)
    return render(request, "clubs/play/tournament_new.html", {"club": club, "form": form})
