"""The play hub and divisions by rating: assignment, bands, placements, play-up requests."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Prefetch
from django.shortcuts import redirect, render
from django.utils.formats import date_format
from django.views.decorators.http import require_POST

from clubsite.kit.roles import player_of
from clubsite.kit.ui import run_service
from events.models import Entry, EntryStatus, EventStatus, PlayUpRequest
from events.play import services as play
from events.play.models import DivisionPlayer, Game, GameStatus, Round, RoundStatus
from events.services.entries import request_play_up
from events.services.places import ratings_list_of
from players.models import by_family_name
from ratings.models import RatingList

from ..forms import (
    AssignForm,
    DivisionBandForm,
    PlaceForm,
)
from .common import _directed_event, _division, _event


def hub(request, slug: str):
    event = _event(request, slug)
    rounds = Round.objects.order_by("number")
    if not event.directing:
        rounds = rounds.exclude(status=RoundStatus.DRAFT)
    divisions = list(
        event.divisions.annotate(players=Count("seats"))
        .prefetch_related(Prefetch("rounds", queryset=rounds, to_attr="round_list"))
        .order_by("position", "name")
    )
    if event.directing:
        waiting = (
            Game.objects.filter(division__event=event, status__in=[GameStatus.SUBMITTED, GameStatus.DISPUTED])
            .values("division_id", "status")
            .annotate(n=Count("pk"))
            .order_by()
        )
        counts = {(row["division_id"], row["status"]): row["n"] for row in waiting}
        for d in divisions:
            d.submitted = counts.get((d.pk, GameStatus.SUBMITTED), 0)
            d.disputed = counts.get((d.pk, GameStatus.DISPUTED), 0)
    player = player_of(request.user)
    my_seats = []
    if player:
        my_seats = list(DivisionPlayer.objects.filter(division__event=event, player=player).select_related("division"))
    context = {
        "event": event,
        "divisions": divisions,
        "my_seats": my_seats,
        "games_total": event.number_of_games,
    }
    return render(request, "events/play/hub.html", context)


def divisions(request, slug: str):
    event = _event(request, slug)
    division_list = list(event.divisions.select_related("category").order_by("position", "name"))
    published = [d for d in division_list if d.assignments_published]
    shown = division_list if event.directing else published
    seats = (
        DivisionPlayer.objects.filter(division__in=shown)
        .select_related("player", "division")
        .order_by("division__position", "division__name", "number")
    )
    by_division = {d.pk: [] for d in shown}
    for seat in seats:
        by_division[seat.division_id].append(seat)
    for d in shown:
        d.seat_list = by_division[d.pk]
    player = player_of(request.user)
    my_entry = None
    if player:
        my_entry = (
            Entry.objects.filter(event=event, player=player, status=EntryStatus.CONFIRMED)
            .select_related("play_up", "division")
            .first()
        )
    context = {"event": event, "divisions": shown, "my_entry": my_entry, "player": player}
    if event.directing:
        entries = list(
            Entry.objects.filter(event=event, status=EntryStatus.CONFIRMED)
            .select_related("player")
            .order_by(*by_family_name("player__"))
        )
        context.update(
            assign_form=AssignForm(prefix="assign", initial={"as_of": play.rating_day(event)}),
            band_form=DivisionBandForm(prefix="band"),
            place_form=PlaceForm(prefix="place", entries=entries, divisions=division_list),
            play_ups=list(
                PlayUpRequest.objects.filter(entry__event=event, entry__status=EntryStatus.CONFIRMED)
                .select_related("entry__player", "entry__division")
                .order_by("created_at")
            ),
            started=Round.objects.filter(division__event=event).exists(),
            # The list whose ratings place the entrants (the same rule the entrants list and the bands use).
            rating_list=RatingList.objects.filter(pk=ratings_list_of(event)).first(),
            categories=list(event.categories.order_by("position", "pk")),
            unplaced=[e for e in entries if e.division_id is None],
            # Only confirmed entries are placed: those still unpaid would be left out.
            unpaid=Entry.objects.filter(event=event, status=EntryStatus.PENDING_PAYMENT).count(),
        )
    return render(request, "events/play/divisions.html", context)


@login_required
@require_POST
def assign(request, slug: str):
    event = _directed_event(request, slug)
    form = AssignForm(request.POST, prefix="assign")
    if not form.is_valid():
        messages.error(request, "; ".join(e for errors in form.errors.values() for e in errors))
        return redirect("events:play_divisions", event.slug)
    data = form.cleaned_data
    split = data["split_into"] if data["mode"] == "split" else None
    report = run_service(
        request, lambda: play.assign_divisions(request.user, event, split_into=split, as_of=data["as_of"])
    )
    if report:
        counts = ", ".join(f"{name}: {len(rows)}" for name, rows in report.placed.items())
        messages.success(
            request, f"Divisions assigned by ratings as of {date_format(report.as_of, 'j F Y')} ({counts})."
        )
        tables = "; ".join(
            f"{name} plays for {category}'s prizes" if category else f"{name} has no prizes linked"
            for name, category in report.prize_tables.items()
        )
        if tables:
            messages.info(request, f"Prizes: {tables}. Change a link under Division bands if it is not right.")
    return redirect("events:play_divisions", event.slug)


@login_required
@require_POST
def link_prizes(request, slug: str, pk: int):
    """The director links a division to the category whose prizes it plays for."""
    event = _directed_event(request, slug)
    division = _division(event, pk)
    category = request.POST.get("category", "")
    category = int(category) if category.isdigit() else None
    done = run_service(request, lambda: play.link_prize_table(request.user, division, category))
    if done:
        linked = f"{done.category.name}'s prizes" if done.category else "no category's prizes"
        messages.success(request, f"{division.name} plays for {linked}.")
    return redirect("events:play_divisions", event.slug)


@login_required
@require_POST
def save_band(request, slug: str):
    event = _directed_event(request, slug)
    form = DivisionBandForm(request.POST, prefix="band")
    if form.is_valid():
        run_service(request, lambda: play.save_division(request.user, event, **form.cleaned_data), "Division saved.")
    else:
        messages.error(request, "; ".join(e for errors in form.errors.values() for e in errors))
    return redirect("events:play_divisions", event.slug)


@login_required
@require_POST
def place(request, slug: str):
    event = _directed_event(request, slug)
    entries = Entry.objects.filter(event=event, status=EntryStatus.CONFIRMED).select_related("player")
    form = PlaceForm(request.POST, prefix="place", entries=entries, divisions=event.divisions.all())
    if form.is_valid():
        entry = entries.get(pk=form.cleaned_data["entry"])
        division = _division(event, form.cleaned_data["division"])
        run_service(
            request,
            lambda: play.place_entrant(request.user, entry, division, form.cleaned_data["reason"]),
            f"{entry.player.full_name} placed in {division.name}.",
        )
    else:
        messages.error(request, "; ".join(e for errors in form.errors.values() for e in errors))
    return redirect("events:play_divisions", event.slug)


@login_required
@require_POST
def publish_assignments(request, slug: str):
    event = _directed_event(request, slug)
    run_service(request, lambda: play.publish_assignments(request.user, event), "Division assignments are published.")
    return redirect("events:play_divisions", event.slug)


@login_required
@require_POST
def play_up(request, slug: str):
    event = _event(request, slug)
    player = player_of(request.user)
    entry = Entry.objects.filter(event=event, player=player, status=EntryStatus.CONFIRMED).first() if player else None
    if entry is None:
        raise PermissionDenied("Only an entrant can ask to play up.")
    name = request.POST.get("division_name", "").strip()[:50]
    run_service(
        request,
        lambda: request_play_up(request.user, entry, name),
        "Your request to play up is with the director.",
    )
    return redirect("events:play_divisions", event.slug)


def my_division_context(player) -> dict:
    """For the account page: the player's published divisions (one query)."""
    seats = list(
        DivisionPlayer.objects.filter(player=player, division__assignments_published=True)
        .exclude(division__event__status__in=[EventStatus.COMPLETED, EventStatus.CANCELLED])
        .select_related("division__event")
        .order_by("division__event__starts_on")[:10]
    )
    return {"my_division_seats": seats}
