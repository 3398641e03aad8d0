"""Standings, cross-table, scorecards and prizes, all from one read of the division; finalising."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from clubsite.ui import run_service
from events.play import services as play
from events.play.services import prizes as prizes_io
from events.play.services.live import division_live_ratings

from .common import _directed_event, _division, _event, _rounds, _through


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
        # Each player's rating if the event ended now, beside the latest standings while play goes on.
        "live": division_live_ratings(div) if through is None else None,
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


class PrizeDecisionForm(forms.Form):
    """A director's choice of who receives a prize covered by a tie (one form per prize on the prizes page)."""

    prize = forms.CharField(max_length=200)
    seat = forms.IntegerField()
    reason = forms.CharField(max_length=300)


def prizes(request, slug: str, pk: int):
    if request.method == "POST":
        return _decide_prize(request, slug, pk)
    event = _event(request, slug)
    div = _division(event, pk)
    one_each = request.GET.get("one_each", "1" if event.one_prize_per_player else "0") != "0"
    report = prizes_io.division_prizes(div, one_prize_per_player=one_each)
    context = {
        "event": event,
        "division": div,
        "report": report,
        "one_each": one_each,
        "fund": prizes_io.prize_fund_split(event),
        "deciding": event.directing and report.ties == "director",
    }
    return render(request, "events/play/prizes.html", context)


@login_required
def _decide_prize(request, slug: str, pk: int):
    event = _directed_event(request, slug)
    div = _division(event, pk)
    form = PrizeDecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a player and say why (at most 300 characters).")
    else:
        data = form.cleaned_data
        run_service(
            request,
            lambda: prizes_io.decide_prize(request.user, div, data["prize"], data["seat"], data["reason"]),
            f"{data['prize']}: decided.",
        )
    return redirect("events:play_prizes", event.slug, div.pk)


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
