"""Standings, cross-table, scorecards and prizes, all from one read of the division; finalising."""

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from clubsite.ui import run_service
from events.play import services as play
from events.play.services import prizes as prizes_io

from .common import _directed_event, _division, _event, _rounds, _through


@dataclass(frozen=True)
class StandingLine:
    """One row of the standings page, every value ready to print: a division's 300 rows render with no
    filter, tag or URL reversal per row."""

    rank: str  # "" for a player listed apart after withdrawing
    withdrawn: bool
    name: str
    url: str
    number: int
    wins: str
    losses: str
    spread: str
    rating: str


def _score(value: float) -> str:
    """Wins and losses as `floatformat:"-1"` shows them: 3, 2.5."""
    return str(int(value)) if value == int(value) else f"{value:.1f}"


def standing_lines(event, division, rows) -> list[StandingLine]:
    marker = 987654321  # a seat number no division has: its URL is reversed once and the number put in
    card_url = reverse("events:play_scorecard", args=[event.slug, division.pk, marker])
    head, tail = card_url.split(str(marker), 1)
    return [
        StandingLine(
            rank="" if row.standing.rank is None else row.standing.rank_label,
            withdrawn=row.seat.withdrawn_after_round is not None,
            name=row.seat.player.name,
            url=f"{head}{row.seat.number}{tail}",
            number=row.seat.number,
            wins=_score(row.standing.wins),
            losses=_score(row.standing.losses),
            spread=f"{int(row.standing.spread):+d}",
            rating=str(row.seat.rating) if row.seat.rating else "–",
        )
        for row in rows
    ]


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
        "lines": standing_lines(event, div, rows),
        "ties_stand": event.ties_stand,
    }
    return render(request, "events/play/standings.html", context)


def _division_read(request, slug: str, pk: int):
    event = _event(request, slug)
    div = _division(event, pk)
    return event, div, _rounds(div, directing=event.directing), play.read_division(div)


def cross_table(request, slug: str, pk: int):
    event, div, rounds, read = _division_read(request, slug, pk)
    through = _through(request, rounds)
    seats = read.seats
    cross = read.cross_table(through)
    played = sorted(
        {c.round for cells in cross.cells.values() for c in cells}
        | {c.round for cells in cross.unopposed.values() for c in cells}
    )
    lines = []
    for row in read.standings(through):
        by_round = {}
        for (player, col), cells in cross.cells.items():
            if player == row.player:
                for c in cells:
                    by_round[c.round] = (seats[col], c)
        for c in cross.unopposed.get(row.player, ()):
            by_round[c.round] = (None, c)
        lines.append({"standing": row.standing, "seat": row.seat, "cells": [by_round.get(r) for r in played]})
    context = {"event": event, "division": div, "rounds": rounds, "through": through, "played": played, "lines": lines}
    return render(request, "events/play/cross_table.html", context)


def scorecard(request, slug: str, pk: int, number: int):
    event, div, rounds, read = _division_read(request, slug, pk)
    seat = next((s for s in read.seats.values() if s.number == number), None)
    if seat is None:
        raise Http404("No such player in this division")
    context = {"event": event, "division": div, "cards": [(seat, read.scorecard(seat.player_id))], "single": True}
    return render(request, "events/play/scorecards.html", context)


def scorecards(request, slug: str, pk: int):
    """Every player's scorecard, to print."""
    event, div, rounds, read = _division_read(request, slug, pk)
    ordered = sorted(read.seats.values(), key=lambda s: s.number)
    cards = [(s, read.scorecard(s.player_id)) for s in ordered]
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
    run_service(
        request,
        lambda: play.finalise_division(request.user, div),
        f"{div.name} is final: its results are locked.{note}",
    )
    return redirect("events:play_standings", event.slug, div.pk)
