"""Pages for running a tournament: divisions, rounds, results, standings, prizes and tsh downloads.

Thin, as every page of the site: they read, show forms and call events.play.services for every write.
Each page runs a fixed number of queries whatever the size of the division.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as HttpForbidden
from django.db.models import Count, Prefetch, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import date_format
from django.views.decorators.http import require_POST

from clubsite.errors import ServiceError
from events.core import results as pure_results
from events.core import standings as pure_standings
from events.models import (
    Division,
    DivisionPlayer,
    Entry,
    EntryStatus,
    Event,
    EventStatus,
    Game,
    GameKind,
    GameStatus,
    PlayUpRequest,
    Round,
    RoundStatus,
)
from events.permissions import can_direct_event
from events.play import services as play
from events.play.services import prizes as prizes_io
from events.play.services import tsh_io
from players.roles import player_of
from ratings.services import default_rating_day

from .forms import (
    AssignForm,
    DisputeForm,
    DivisionBandForm,
    FastEntryForm,
    LateEntrantForm,
    MyResultForm,
    PairRoundForm,
    PlaceForm,
    ResultForm,
    SwapForm,
    format_overtime,
)

STATUS_BADGES = {
    GameStatus.PAIRED: "secondary",
    GameStatus.SUBMITTED: "warning text-dark",
    GameStatus.DISPUTED: "danger",
    GameStatus.CONFIRMED: "success",
    RoundStatus.DRAFT: "light text-dark",
    RoundStatus.PUBLISHED: "primary",
    RoundStatus.COMPLETE: "success",
}


# --- loading -------------------------------------------------------------------------------------


def _event(request, slug: str) -> Event:
    """A public event, or a draft for its directors; `event.directing` says whether the user directs it."""
    event = get_object_or_404(Event.objects.select_related("rating_list"), slug=slug)
    event.directing = can_direct_event(request.user, event)
    if event.status == EventStatus.DRAFT and not event.directing:
        raise Http404("No such event")
    return event


def _directed_event(request, slug: str) -> Event:
    event = _event(request, slug)
    if not event.directing:
        raise HttpForbidden("Only the event's directors can do this.")
    return event


def _division(event: Event, pk: int) -> Division:
    division = get_object_or_404(Division, pk=pk, event=event)
    division.event = event
    return division


def _round(division: Division, number: int, *, directing: bool) -> Round:
    rnd = get_object_or_404(Round, division=division, number=number)
    if rnd.status == RoundStatus.DRAFT and not directing:
        raise Http404("This round is not published yet.")
    rnd.division = division
    return rnd


def _run(request, call, success: str = ""):
    """Calls a service; a refusal becomes an error message and the result None."""
    try:
        result = call()
    except ServiceError as error:
        messages.error(request, error.message)
        return None
    if success:
        messages.success(request, success)
    return True if result is None else result


def _seats(division: Division) -> dict[int, DivisionPlayer]:
    """Seats by player id (one query)."""
    return {s.player_id: s for s in DivisionPlayer.objects.filter(division=division).select_related("player")}


def _entrants(seats: dict[int, DivisionPlayer]) -> list[pure_standings.Entrant]:
    return [pure_standings.Entrant(id=s.player_id, rating=s.rating, seed=s.number) for s in seats.values()]


def _rounds(division: Division, *, directing: bool) -> list[Round]:
    rounds = division.rounds.order_by("number")
    return list(rounds if directing else rounds.exclude(status=RoundStatus.DRAFT))


def _through(request, rounds: list[Round]) -> int | None:
    value = request.GET.get("through", "")
    if value.isdigit() and any(r.number == int(value) for r in rounds):
        return int(value)
    return None


# --- the hub -------------------------------------------------------------------------------------


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
        "badges": STATUS_BADGES,
        "games_total": event.number_of_games,
    }
    return render(request, "events/play/hub.html", context)


# --- divisions by rating -------------------------------------------------------------------------


def divisions(request, slug: str):
    event = _event(request, slug)
    division_list = list(event.divisions.order_by("position", "name"))
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
            .order_by("player__full_name")
        )
        context.update(
            assign_form=AssignForm(prefix="assign", initial={"as_of": default_rating_day(event)}),
            band_form=DivisionBandForm(prefix="band"),
            place_form=PlaceForm(prefix="place", entries=entries, divisions=division_list),
            play_ups=list(
                PlayUpRequest.objects.filter(entry__event=event, entry__status=EntryStatus.CONFIRMED)
                .select_related("entry__player", "entry__division")
                .order_by("created_at")
            ),
            started=Round.objects.filter(division__event=event).exists(),
            unplaced=[e for e in entries if e.division_id is None],
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
    report = _run(request, lambda: play.assign_divisions(request.user, event, split_into=split, as_of=data["as_of"]))
    if report:
        counts = ", ".join(f"{name}: {len(rows)}" for name, rows in report.placed.items())
        messages.success(
            request, f"Divisions assigned by ratings as of {date_format(report.as_of, 'j F Y')} ({counts})."
        )
    return redirect("events:play_divisions", event.slug)


@login_required
@require_POST
def save_band(request, slug: str):
    event = _directed_event(request, slug)
    form = DivisionBandForm(request.POST, prefix="band")
    if form.is_valid():
        _run(request, lambda: play.save_division(request.user, event, **form.cleaned_data), "Division saved.")
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
        _run(
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
    _run(request, lambda: play.publish_assignments(request.user, event), "Division assignments are published.")
    return redirect("events:play_divisions", event.slug)


@login_required
@require_POST
def play_up(request, slug: str):
    event = _event(request, slug)
    player = player_of(request.user)
    entry = Entry.objects.filter(event=event, player=player, status=EntryStatus.CONFIRMED).first() if player else None
    if entry is None:
        raise HttpForbidden("Only an entrant can ask to play up.")
    name = request.POST.get("division_name", "").strip()[:50]
    _run(
        request,
        lambda: play.request_play_up(request.user, entry, name),
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


# --- a division and its rounds -------------------------------------------------------------------


def division(request, slug: str, pk: int, *, pair_form=None, refused=None):
    event = _event(request, slug)
    div = _division(event, pk)
    rounds = _rounds(div, directing=event.directing)
    context = {"event": event, "division": div, "rounds": rounds, "badges": STATUS_BADGES}
    if event.directing:
        last = rounds[-1] if rounds else None
        initial = {
            "system": "random"
            if not rounds
            else (event.pairing_system if event.pairing_system in play.PAIRING_SYSTEMS else "koth")
        }
        next_round = (last.number if last else 0) + 1
        all_paired = bool(event.number_of_games) and next_round > event.number_of_games
        context.update(
            pair_form=pair_form or PairRoundForm(initial=initial),
            can_pair=not div.finalised_at and not all_paired and not (last and last.status == RoundStatus.DRAFT),
            all_paired=all_paired,
            next_round=next_round,
            refused=refused,
            seats=list(DivisionPlayer.objects.filter(division=div).select_related("player").order_by("number")),
            late_form=LateEntrantForm(prefix="late", entries=_unseated(event)),
        )
    return render(request, "events/play/division.html", context)


@login_required
@require_POST
def pair(request, slug: str, pk: int):
    event = _directed_event(request, slug)
    div = _division(event, pk)
    form = PairRoundForm(request.POST)
    if not form.is_valid():
        return division(request, slug, pk, pair_form=form)
    accept = request.POST.get("accept_repeats") == "1"
    try:
        rnd = play.pair_round(
            request.user, div, form.cleaned_data["system"], accept_repeats=accept, **form.service_kwargs()
        )
    except play.PairingRefused as refusal:
        return division(request, slug, pk, pair_form=form, refused=_refusal(refusal, div, form))
    except ServiceError as error:
        form.add_service_error(error)
        return division(request, slug, pk, pair_form=form)
    messages.success(request, f"Round {rnd.number} is paired as a draft: check it, then publish it.")
    return redirect("events:play_round", event.slug, div.pk, rnd.number)


def _refusal(refusal: play.PairingRefused, div: Division, form: PairRoundForm) -> dict:
    """The refusal's message and its least-repeat pairing, with what re-pairing it needs."""
    seats = _seats(div)
    best = refusal.best
    pairs = []
    if best:
        pairs = [(seats.get(a), seats.get(b)) for a, b in best.pairs]
    params = {k: ("" if v is None else v) for k, v in form.cleaned_data.items()}
    if best and best.seed is not None:
        params["seed"] = best.seed  # the same draw as the pairing shown
    return {
        "message": refusal.message,
        "pairs": pairs,
        "bye": seats.get(best.bye) if best and best.bye else None,
        "repeats": best.repeats if best else 0,
        "params": params,
    }


def round_page(request, slug: str, pk: int, number: int, *, fast_form=None, swap_form=None):
    event = _event(request, slug)
    div = _division(event, pk)
    rnd = _round(div, number, directing=event.directing)
    seats = _seats(div)
    games = list(rnd.games.order_by("board", "pk"))
    for game in games:
        game.seat_a = seats.get(game.player_a_id)
        game.seat_b = seats.get(game.player_b_id) if game.player_b_id else None
        game.show_scores = game.status == GameStatus.CONFIRMED or event.directing
    normal = [g for g in games if g.kind == GameKind.NORMAL and g.player_b_id]
    unplayed = [g for g in games if g not in normal]
    context = {
        "event": event,
        "division": div,
        "round": rnd,
        "games": normal,
        "unplayed": unplayed,
        "badges": STATUS_BADGES,
        "counts": {s: sum(1 for g in games if g.status == s) for s in GameStatus.values},
        "rounds": _rounds(div, directing=event.directing),
    }
    if event.directing:
        in_round = sorted({s for g in games for s in (g.seat_a, g.seat_b) if s is not None}, key=lambda s: s.number)
        choices = [(s.player_id, f"{s.number}. {s.player.name}") for s in in_round]
        context.update(
            swap_form=swap_form or SwapForm(players=choices),
            fast_form=fast_form or FastEntryForm(),
        )
    return render(request, "events/play/round.html", context)


def _draft_action(request, slug, pk, number, call, success):
    event = _directed_event(request, slug)
    div = _division(event, pk)
    rnd = _round(div, number, directing=True)
    return event, div, rnd, _run(request, lambda: call(request.user, rnd), success)


@login_required
@require_POST
def swap(request, slug: str, pk: int, number: int):
    event = _directed_event(request, slug)
    div = _division(event, pk)
    rnd = _round(div, number, directing=True)
    seats = _seats(div)
    choices = [(p, s.player.name) for p, s in seats.items()]
    form = SwapForm(request.POST, players=choices)
    if not form.is_valid():
        return round_page(request, slug, pk, number, swap_form=form)
    data = form.cleaned_data
    _run(request, lambda: play.swap_players(request.user, rnd, data["player_x"], data["player_y"]), "Players swapped.")
    return redirect("events:play_round", event.slug, div.pk, rnd.number)


@login_required
@require_POST
def publish(request, slug: str, pk: int, number: int):
    event, div, rnd, _ = _draft_action(
        request, slug, pk, number, play.publish_round, f"Round {number} is published: players can see it now."
    )
    return redirect("events:play_round", event.slug, div.pk, rnd.number)


@login_required
@require_POST
def delete_draft(request, slug: str, pk: int, number: int):
    event, div, _, done = _draft_action(
        request, slug, pk, number, play.delete_draft_round, f"The draft of round {number} is deleted."
    )
    if done:
        return redirect("events:play_division", event.slug, div.pk)
    return redirect("events:play_round", event.slug, div.pk, number)


@login_required
@require_POST
def fast_entry(request, slug: str, pk: int, number: int):
    event = _directed_event(request, slug)
    div = _division(event, pk)
    rnd = _round(div, number, directing=True)
    form = FastEntryForm(request.POST)
    if form.is_valid():
        try:
            saved = play.enter_round_results(request.user, rnd, form.cleaned_data["text"])
        except ServiceError as error:
            form.add_service_error(error)
        else:
            messages.success(request, f"{len(saved)} results entered.")
            return redirect("events:play_round", event.slug, div.pk, rnd.number)
    return round_page(request, slug, pk, number, fast_form=form)


def _game_for_director(request, slug: str, game_pk: int) -> tuple[Event, Game]:
    event = _directed_event(request, slug)
    game = get_object_or_404(
        Game.objects.select_related("round", "division", "player_a", "player_b"), pk=game_pk, division__event=event
    )
    game.division.event = event
    return event, game


def _played_scores(game: Game) -> dict:
    """The scores as played (before overtime penalties) for a correction form."""

    def played(score, overtime):
        return None if score is None else score + pure_results.overtime_penalty(overtime)

    return {
        "score_a": played(game.score_a, game.overtime_a),
        "score_b": played(game.score_b, game.overtime_b),
        "overtime_a": format_overtime(game.overtime_a),
        "overtime_b": format_overtime(game.overtime_b),
        "first": game.first,
        "outcome": {
            GameKind.NORMAL: "normal",
            GameKind.VOID: "void",
            GameKind.FORFEIT: "forfeit_a",
            GameKind.LATE_FORFEIT: "late_forfeit_a",
        }.get(game.kind),
    }


@login_required
def game_result(request, slug: str, game_pk: int):
    """A director enters or corrects one result (overtime, who went first, forfeits, void)."""
    event, game = _game_for_director(request, slug, game_pk)
    form = ResultForm(request.POST or None, game=game, initial=_played_scores(game))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        outcome = data["outcome"]
        try:
            if outcome == "normal":
                play.submit_result(
                    request.user,
                    game,
                    data["score_a"],
                    data["score_b"],
                    overtime_a=data["overtime_a"],
                    overtime_b=data["overtime_b"],
                    first=data["first"],
                )
            else:
                kind, _, side = outcome.rpartition("_") if outcome != GameKind.VOID else (GameKind.VOID, "", "a")
                play.set_unplayed(request.user, game, kind, reason=data["reason"], forfeited_by=side)
        except ServiceError as error:
            form.add_service_error(error)
        else:
            messages.success(request, f"Result of board {game.board or '-'} saved.")
            return redirect("events:play_round", event.slug, game.division_id, game.round_number)
    changes = list(game.changes.select_related("changed_by").order_by("-changed_at")[:20])
    context = {"event": event, "division": game.division, "game": game, "form": form, "changes": changes}
    return render(request, "events/play/game_result.html", context)


@login_required
@require_POST
def director_confirm(request, slug: str, game_pk: int):
    event, game = _game_for_director(request, slug, game_pk)
    _run(request, lambda: play.confirm_result(request.user, game), "Result confirmed.")
    return redirect("events:play_round", event.slug, game.division_id, game.round_number)


# --- the player's phone page ---------------------------------------------------------------------


def _my_games(event: Event, player) -> list[Game]:
    """The player's games of published rounds in this event: the latest round's, and any still open."""
    games = list(
        Game.objects.filter(division__event=event)
        .filter(Q(player_a=player) | Q(player_b=player))
        .exclude(round__status=RoundStatus.DRAFT)
        .select_related("round", "division", "player_a", "player_b")
        .order_by("division_id", "-round_number")
    )
    latest = {}
    for g in games:
        latest.setdefault(g.division_id, g.round_number)
    return [g for g in games if g.round_number == latest[g.division_id] or g.status != GameStatus.CONFIRMED]


def _side(game: Game, player) -> str:
    return "a" if game.player_a_id == player.pk else "b"


@login_required
def my_game(request, slug: str, *, bound=None):
    event = _event(request, slug)
    player = player_of(request.user)
    games = _my_games(event, player) if player else []
    numbers = (
        {
            (d, p): n
            for d, p, n in DivisionPlayer.objects.filter(division_id__in={g.division_id for g in games}).values_list(
                "division_id", "player_id", "number"
            )
        }
        if games
        else {}
    )
    for g in games:
        side = _side(g, player)
        other = "b" if side == "a" else "a"
        g.side = side
        g.opponent = getattr(g, f"player_{other}")
        g.opponent_number = numbers.get((g.division_id, g.opponent.pk)) if g.opponent else None
        g.my_number = numbers.get((g.division_id, player.pk))
        g.i_go_first = {"": None, side: True, other: False}.get(g.first)
        g.my_score, g.opponent_score = getattr(g, f"score_{side}"), getattr(g, f"score_{other}")
        g.my_overtime, g.opponent_overtime = getattr(g, f"overtime_{side}"), getattr(g, f"overtime_{other}")
        g.my_spread = g.spread_a if side == "a" or g.spread_a is None else -g.spread_a
        g.submitted_by_me = g.submitted_by_id == request.user.id
        g.playable = g.kind == GameKind.NORMAL and g.player_b_id is not None
        if g.playable and g.status == GameStatus.PAIRED:
            g.form = bound if bound is not None and bound.game_pk == g.pk else MyResultForm(prefix=f"g{g.pk}")
    context = {"event": event, "player": player, "games": games, "badges": STATUS_BADGES}
    return render(request, "events/play/my_game.html", context)


def _players_game(request, slug: str, game_pk: int) -> tuple[Event, Game]:
    event = _event(request, slug)
    game = get_object_or_404(Game.objects.select_related("division"), pk=game_pk, division__event=event)
    return event, game


@login_required
@require_POST
def submit(request, slug: str, game_pk: int):
    event, game = _players_game(request, slug, game_pk)
    player = player_of(request.user)
    if player is None or player.pk not in (game.player_a_id, game.player_b_id):
        raise HttpForbidden("You can only submit the result of your own game.")
    form = MyResultForm(request.POST, prefix=f"g{game.pk}")
    form.game_pk = game.pk
    if form.is_valid():
        try:
            play.submit_result(request.user, game, **form.for_side(_side(game, player)))
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, "Result submitted: your opponent confirms it now.")
            return redirect("events:play_my_game", event.slug)
    return my_game(request, slug, bound=form)


@login_required
@require_POST
def confirm(request, slug: str, game_pk: int):
    event, game = _players_game(request, slug, game_pk)
    _run(request, lambda: play.confirm_result(request.user, game), "Result confirmed. Thank you!")
    return redirect("events:play_my_game", event.slug)


@login_required
@require_POST
def dispute(request, slug: str, game_pk: int):
    event, game = _players_game(request, slug, game_pk)
    form = DisputeForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    _run(request, lambda: play.dispute_result(request.user, game, reason), "Disputed: a director will settle it.")
    return redirect("events:play_my_game", event.slug)


# --- standings, cross-table, scorecards, prizes --------------------------------------------------


def standings(request, slug: str, pk: int):
    event = _event(request, slug)
    div = _division(event, pk)
    rounds = _rounds(div, directing=event.directing)
    through = _through(request, rounds)
    rows = play.standings(div, through)
    context = {
        "event": event,
        "division": div,
        "rounds": rounds,
        "through": through,
        "rows": rows,
        "ties_stand": event.ties_stand,
    }
    return render(request, "events/play/standings.html", context)


def _division_data(request, slug: str, pk: int):
    event = _event(request, slug)
    div = _division(event, pk)
    rounds = _rounds(div, directing=event.directing)
    seats = _seats(div)
    games = play.division_games(div, confirmed_only=True)
    return event, div, rounds, seats, games


def cross_table(request, slug: str, pk: int):
    event, div, rounds, seats, games = _division_data(request, slug, pk)
    through = _through(request, rounds)
    options = play.standings_options(event)
    entrants = _entrants(seats)
    table = pure_standings.compute_standings(entrants, games, options, through)
    cross = pure_standings.cross_table(entrants, games, options, through)
    played = sorted(
        {c.round for cells in cross.cells.values() for c in cells}
        | {c.round for cells in cross.unopposed.values() for c in cells}
    )
    lines = []
    for standing in table:
        by_round = {}
        for (row, col), cells in cross.cells.items():
            if row == standing.player:
                for c in cells:
                    by_round[c.round] = (seats[col], c)
        for c in cross.unopposed.get(standing.player, ()):
            by_round[c.round] = (None, c)
        lines.append({"standing": standing, "seat": seats[standing.player], "cells": [by_round.get(r) for r in played]})
    context = {"event": event, "division": div, "rounds": rounds, "through": through, "played": played, "lines": lines}
    return render(request, "events/play/cross_table.html", context)


def _scorecard(player_id, seats, entrants, games, options):
    lines = pure_standings.scorecard(player_id, entrants, games, options)
    return [{"line": line, "opponent": seats.get(line.opponent) if line.opponent else None} for line in lines]


def scorecard(request, slug: str, pk: int, number: int):
    event, div, rounds, seats, games = _division_data(request, slug, pk)
    seat = next((s for s in seats.values() if s.number == number), None)
    if seat is None:
        raise Http404("No such player in this division")
    card = _scorecard(seat.player_id, seats, _entrants(seats), games, play.standings_options(event))
    context = {"event": event, "division": div, "cards": [(seat, card)], "single": True}
    return render(request, "events/play/scorecards.html", context)


def scorecards(request, slug: str, pk: int):
    """Every player's scorecard, to print."""
    event, div, rounds, seats, games = _division_data(request, slug, pk)
    entrants, options = _entrants(seats), play.standings_options(event)
    ordered = sorted(seats.values(), key=lambda s: s.number)
    cards = [(s, _scorecard(s.player_id, seats, entrants, games, options)) for s in ordered]
    return render(request, "events/play/scorecards.html", {"event": event, "division": div, "cards": cards})


def prizes(request, slug: str, pk: int):
    event = _event(request, slug)
    div = _division(event, pk)
    one_each = request.GET.get("one_each", "1" if event.one_prize_per_player else "0") != "0"
    report = prizes_io.division_prizes(div, one_prize_per_player=one_each)
    return render(
        request, "events/play/prizes.html", {"event": event, "division": div, "report": report, "one_each": one_each}
    )


@login_required
@require_POST
def finalise(request, slug: str, pk: int):
    event = _directed_event(request, slug)
    div = _division(event, pk)
    note = " Rating starts once every division is final." if event.rated and event.rating_list_id else ""
    _run(
        request,
        lambda: play.finalise_division(request.user, div),
        f"{div.name} is final: its results are locked.{note}",
    )
    return redirect("events:play_standings", event.slug, div.pk)


def _unseated(event: Event):
    """Confirmed entrants not yet in any division of the event."""
    return (
        Entry.objects.filter(event=event, status=EntryStatus.CONFIRMED)
        .exclude(player__seats__division__event=event)
        .select_related("player")
        .order_by("player__full_name")
    )


@login_required
@require_POST
def late_entrant(request, slug: str, pk: int):
    event = _directed_event(request, slug)
    div = _division(event, pk)
    entries = _unseated(event)
    form = LateEntrantForm(request.POST, prefix="late", entries=entries)
    if form.is_valid():
        entry = entries.get(pk=form.cleaned_data["entry"])
        _run(
            request,
            lambda: play.add_late_entrant(request.user, div, entry.player, rating=form.cleaned_data["rating"] or 0),
            f"{entry.player.name} joins {div.name}; earlier rounds are scored as {div.get_missed_rounds_as_display()}.",
        )
    else:
        messages.error(request, "; ".join(e for errors in form.errors.values() for e in errors))
    return redirect("events:play_division", event.slug, div.pk)


@login_required
@require_POST
def withdraw(request, slug: str, pk: int, number: int):
    event = _directed_event(request, slug)
    div = _division(event, pk)
    seat = get_object_or_404(DivisionPlayer.objects.select_related("player"), division=div, number=number)
    _run(
        request,
        lambda: play.withdraw_player(request.user, seat),
        f"{seat.player.name} is withdrawn from the next round.",
    )
    return redirect("events:play_division", event.slug, div.pk)


# --- tsh downloads -------------------------------------------------------------------------------


def _text_attachment(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def download_t(request, slug: str, pk: int):
    event = _directed_event(request, slug)
    div = _division(event, pk)
    return _text_attachment(tsh_io.export_tsh(div), f"{div.name.lower()}.t")


@login_required
def download_config(request, slug: str):
    event = _directed_event(request, slug)
    return _text_attachment(tsh_io.export_config(event), "config.tsh")


@login_required
def download_archive(request, slug: str):
    event = _directed_event(request, slug)
    return _text_attachment(tsh_io.export_archive(event), f"{event.slug}-tsh.txt")
