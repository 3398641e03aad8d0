"""A division and its rounds: pairing, draft edits, publishing, fast entry, late entrants, withdrawals."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.template.backends.utils import csrf_input
from django.views.decorators.http import require_POST

from clubsite.kit.errors import ServiceError
from clubsite.kit.html import cell, escape, row, safe
from clubsite.kit.ui import run_service
from events.models import Entry, EntryStatus, Event, EventStatus
from events.play import services as play
from events.play.models import Division, DivisionPlayer, Game, GameKind, GameStatus, RoundStatus
from events.services import before_event_refusal
from events.templatetags.events_tags import badge

from ..forms import (
    FastEntryForm,
    LateEntrantForm,
    PairRoundForm,
    SwapForm,
)
from .common import _directed_event, _division, _event, _round, _rounds, url_with_number

PLAYING = (EventStatus.IN_PROGRESS, EventStatus.COMPLETED)


def division(request, slug: str, pk: int, *, pair_form=None, refused=None):
    event = _event(request, slug)
    div = _division(event, pk)
    rounds = _rounds(div, directing=event.directing)
    context = {"event": event, "division": div, "rounds": rounds}
    if event.directing:
        last = rounds[-1] if rounds else None
        # Round 1 is drawn at random; later rounds are paired by the event's announced system.
        initial = {"system": "random" if not rounds else event.pairing_system}
        next_round = (last.number if last else 0) + 1
        all_paired = bool(event.number_of_games) and next_round > event.number_of_games
        absent = [] if all_paired or div.finalised_at else _absent(div)
        context.update(
            pair_form=pair_form or PairRoundForm(initial=initial, absent=absent),
            absent=absent,
            can_pair=not div.finalised_at and not all_paired and not (last and last.status == RoundStatus.DRAFT),
            # Pairing starts the event, which is refused before its day (events.services.play_started).
            too_early=None if event.status in PLAYING else before_event_refusal(event, "pair a round"),
            all_paired=all_paired,
            next_round=next_round,
            refused=refused,
            seats=list(DivisionPlayer.objects.filter(division=div).select_related("player").order_by("number")),
            late_form=LateEntrantForm(prefix="late", entries=_unseated(event)),
            missed_rule=play.missed_rounds_rule(div),  # asked before a withdrawal, as its message says after
        )
    return render(request, "events/play/division.html", context)


@login_required
@require_POST
def pair(request, slug: str, pk: int):
    event = _directed_event(request, slug)
    div = _division(event, pk)
    form = PairRoundForm(request.POST, absent=_absent(div))
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
    # Who was Gibsonized and why is the round's own note: the round page shows it, once.
    messages.success(request, f"Round {rnd.number} is paired as a draft: check it, then publish it.")
    return redirect("events:play_round", event.slug, div.pk, rnd.number)


def _absent(div: Division) -> list[str]:
    """The players the next round would pair who have not checked in, as the division names them."""
    return [play.seat_label(s) for s in play.absent_for_next_round(div)]


def _refusal(refusal: play.PairingRefused, div: Division, form: PairRoundForm) -> dict:
    """The refusal's message and its least-repeat pairing, with what re-pairing it needs."""
    seats = play.division_seats(div)
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
    seats = play.table_seats(div)
    games = list(rnd.games.order_by("board", "pk"))
    for game in games:
        game.seat_a = seats.get(game.player_a_id)
        game.seat_b = seats.get(game.player_b_id) if game.player_b_id else None
        # The players the seats have read already (read again with the games, a large round's page doubles them).
        players = tuple(seat.player if seat else None for seat in (game.seat_a, game.seat_b))
        game.show_scores = play.scores_visible(game, request.user, directing=event.directing, players=players)
        if game.kind != GameKind.NORMAL and not game.player_b_id:
            game.label = play.unplayed_label(game.kind, game.spread_a, game.seat_a, rnd.number)
    normal, unplayed = [], []
    for g in games:
        (normal if g.kind == GameKind.NORMAL and g.player_b_id else unplayed).append(g)
    board = board_table(normal, unplayed)
    context = {
        "event": event,
        "division": div,
        "round": rnd,
        "board": board,
        "board_html": board_rows_html(request, event, rnd, board),
        "unplayed": unplayed,
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


def board_table(games: list[Game], unplayed: list[Game]) -> list[Game]:
    """Every board of the round in board order: played games and forfeits between two paired players (a
    forfeited board stays on its board); byes and games without an opponent are listed below the table."""
    rows = games + [g for g in unplayed if g.player_b_id]
    return sorted(rows, key=lambda g: (g.board is None, g.board or 0, g.pk))


KIND_LABELS = {value: escape(label) for value, label in GameKind.choices}
STATUS_LABELS = {value: escape(label) for value, label in GameStatus.choices}


def _who(seat) -> str:
    """A seat's name, escaped ('' for a player no longer seated, as the template showed)."""
    return escape(seat.player.name) if seat is not None else ""


NO_SCORE = cell("", "text-end")


def _score_cell(game: Game, score, side: str) -> str:
    if not (game.show_scores and score is not None):
        return NO_SCORE
    penalty = game.penalty(side)
    note = f'<div class="small text-muted penalty">played {game.played(side)}, −{penalty} time</div>' if penalty else ""
    return cell(f"{score}{note}", "text-end")


def board_rows_html(request, event, rnd, board: list[Game]) -> str:
    """The board table's rows as HTML. Built here, not in the template: a 300-player round's 150 rows cost
    tens of milliseconds as template variables (twenty a row) and a few as strings; every text escaped."""
    drafted = rnd.status == RoundStatus.DRAFT
    acting = event.directing and not drafted
    if acting:
        result_url = url_with_number("events:play_game_result", event.slug)
        confirm_url = url_with_number("events:play_director_confirm", event.slug)
        token = csrf_input(request)
    rows = []
    for g in board:
        if g.first == "b":
            first, second, fs, ss, fside, sside = g.seat_b, g.seat_a, g.score_b, g.score_a, "b", "a"
        else:
            first, second, fs, ss, fside, sside = g.seat_a, g.seat_b, g.score_a, g.score_b, "a", "b"
        kind = g.kind
        if kind != GameKind.NORMAL:
            text = KIND_LABELS.get(kind, escape(kind))
            if kind != GameKind.VOID:
                text += f": {_who(g.seat_a)}"
            if g.spread_a is not None:
                text += f" ({g.spread_a:+d})"
            scores = [cell(text, "text-center small", ' colspan="2"')]
        else:
            scores = [_score_cell(g, fs, fside), _score_cell(g, ss, sside)]
        badges = ""
        if g.show_scores and g.overrun:
            who = _who(g.seat_a if g.overrun == "a" else g.seat_b)
            badges += f' <span class="badge bg-warning text-dark">{who} overran: forfeit</span>'
        if g.show_scores:
            tie = g.tie_winner
            if tie:
                who = _who(g.seat_a if tie == "a" else g.seat_b)
                badges += f' <span class="badge bg-info text-dark">tie won by {who} (before tiles)</span>'
        second_text = f"{second.number}. {_who(second)}" if second else ""
        cells = [
            cell(g.board or "–"),
            cell(f"{first.number if first else ''}. {_who(first)}"),
            *scores,
            cell(f"{second_text}{badges}"),
        ]
        if not drafted:
            status = g.status
            label = STATUS_LABELS.get(status, escape(status))
            cells.append(cell(f'<span class="badge bg-{badge(status)}">{label}</span>', "d-print-none"))
        if acting:
            action = "Enter" if g.status == GameStatus.PAIRED else "Correct"
            buttons = f'<a class="btn btn-sm btn-outline-primary" href="{result_url(g.pk)}">{action}</a>'
            if g.status in (GameStatus.SUBMITTED, GameStatus.DISPUTED):
                # A space between the two, as between any two words.
                buttons += (
                    f' <form method="post" action="{confirm_url(g.pk)}" class="d-inline">{token}'
                    '<button class="btn btn-sm btn-outline-success">Confirm</button></form>'
                )
            cells.append(cell(buttons, "text-nowrap d-print-none"))
        unplayed = "" if kind == GameKind.NORMAL else ' class="unplayed"'
        rows.append(row(cells, f' id="game-{g.pk}"{unplayed}'))
    return safe(rows)


def _draft_action(request, slug, pk, number, call, success):
    event = _directed_event(request, slug)
    div = _division(event, pk)
    rnd = _round(div, number, directing=True)
    return event, div, rnd, run_service(request, lambda: call(request.user, rnd), success)


@login_required
@require_POST
def swap(request, slug: str, pk: int, number: int):
    event = _directed_event(request, slug)
    div = _division(event, pk)
    rnd = _round(div, number, directing=True)
    seats = play.division_seats(div)
    choices = [(p, s.player.name) for p, s in seats.items()]
    form = SwapForm(request.POST, players=choices)
    if not form.is_valid():
        return round_page(request, slug, pk, number, swap_form=form)
    data = form.cleaned_data
    swapped = run_service(
        request, lambda: play.swap_players(request.user, rnd, data["player_x"], data["player_y"]), "Players swapped."
    )
    for warning in getattr(swapped, "warnings", []):
        messages.warning(request, warning)
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
            messages.success(request, f"{len(saved)} result{'' if len(saved) == 1 else 's'} entered.")
            return redirect("events:play_round", event.slug, div.pk, rnd.number)
    return round_page(request, slug, pk, number, fast_form=form)


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
        run_service(
            request,
            lambda: play.add_late_entrant(request.user, div, entry.player, rating=form.cleaned_data["rating"]),
            f"{entry.player.name} joins {div.name}; each earlier round counts as a {play.missed_rounds_rule(div)}.",
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
    withdrawn = run_service(request, lambda: play.withdraw_player(request.user, seat))
    if withdrawn:
        messages.success(request, play.withdrawal_said(withdrawn))
    return redirect("events:play_division", event.slug, div.pk)
