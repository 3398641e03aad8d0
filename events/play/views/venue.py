"""Pages for the day at the venue: check-in at reporting time, the wall displays, printed round material and
the lucky draw. Thin as every page: reads, forms and a call to events.play.services for each write."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from clubsite.kit.html import cell, escape, head, row, row_format, safe, table
from clubsite.kit.ip import client_ip
from clubsite.kit.roles import player_of
from clubsite.kit.ui import ServiceFormMixin, run_service
from clubsite.kit.wins import format_wins
from events.models import Entry
from events.play.models import Division, Round, RoundStatus
from events.play.services import checkin, luckydraw, polls, printing, wall
from events.play.services.reads import read_division

from .common import _directed_event, _division, _event, _round

WALL_KINDS = {"pairings": ("Pairings", 10), "standings": ("Standings", 12), "find": ("Find my table", 24)}
PRINT_KINDS = {"scorecards": "Scorecards", "pairings": "Pairings by name", "slips": "Result slips"}

# How often a wall asks whether anything changed (?poll= on its address overrides it): every 5 seconds, so a
# round published shows on every wall of the hall within 10 seconds at worst (a 5-ms question each time).
WALL_POLL_SECONDS = 5


# Check-in ----------------------------------------------------------------------------------------------


def _check_in_url(event, query: str = "", anchor: str = "") -> str:
    url = reverse("events:play_check_in", args=[event.slug])
    return url + (f"?q={query}" if query else "") + (f"#{anchor}" if anchor else "")


@login_required  # a director who is not signed in is asked to, as on every other director's page
def check_in(request, slug: str):
    """The director's check-in list, phone first: tick people off, then settle the missing and the waiting list."""
    event = _directed_event(request, slug)
    report = checkin.check_in_list(event)
    query = request.GET.get("q", "").strip()[:60]
    shown = report.entrants
    if query:
        shown = [r for r in shown if query.casefold() in r.entry.player.name.casefold()]
    moment = timezone.now()
    context = {
        "event": event,
        "report": report,
        "shown": shown,
        "query": query,
        "due": report.reporting.no_shows_due(moment),
        "closes_at": report.reporting.closes_at,
        "given_up_at": report.reporting.places_given_up_at,
        "code": checkin.venue_code(event),
        "self_url": request.build_absolute_uri(reverse("events:play_my_check_in", args=[event.slug])),
        "many_divisions": len(report.divisions) > 1,
    }
    return render(request, "events/play/checkin.html", context)


@login_required
@require_POST
def check_in_mark(request, slug: str, entry_pk: int):
    event = _directed_event(request, slug)
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_pk, event=event)
    name = entry.player.name
    if request.POST.get("action") == "undo":
        run_service(request, lambda: checkin.undo_check_in(request.user, entry), f"{name} is no longer checked in.")
    else:
        run_service(request, lambda: checkin.check_in(request.user, entry), f"{name} is checked in.")
    return redirect(_check_in_url(event, request.POST.get("q", "").strip()[:60], f"entry-{entry.pk}"))


@login_required
@require_POST
def withdraw_no_shows(request, slug: str):
    event = _directed_event(request, slug)
    if not request.POST.get("called"):
        messages.error(request, "Tick that you have called their names before withdrawing anyone.")
        return redirect(_check_in_url(event, anchor="missing"))
    ids = [int(v) for v in request.POST.getlist("entry") if v.isdigit()]
    gone = run_service(request, lambda: checkin.withdraw_no_shows(request.user, event, ids))
    if gone:
        names = ", ".join(e.player.name for e in gone)
        messages.success(request, f"{len(gone)} withdrawn (not here at reporting time): {names}.")
    return redirect(_check_in_url(event, anchor="waiting"))


@login_required
@require_POST
def fill_places(request, slug: str):
    event = _directed_event(request, slug)
    entry_pk = request.POST.get("entry", "")
    if entry_pk.isdigit():
        entry = get_object_or_404(Entry.objects.select_related("player"), pk=int(entry_pk), event=event)
        division_pk = request.POST.get("division", "")
        division = Division.objects.filter(event=event, pk=division_pk).first() if division_pk.isdigit() else None
        placed = run_service(request, lambda: checkin.seat_from_waiting_list(request.user, entry, division))
        seated = [placed] if placed else []
    else:
        seated = run_service(request, lambda: checkin.fill_places(request.user, event)) or []
    if seated:
        messages.success(request, f"Places taken from the waiting list: {', '.join(str(p) for p in seated)}.")
    return redirect(_check_in_url(event, anchor="waiting"))


class SelfCheckInForm(ServiceFormMixin, forms.Form):
    code = forms.CharField(
        label="Code shown at the venue",
        max_length=12,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters", "class": "fs-4"}),
    )


@login_required
def my_check_in(request, slug: str):
    """A player checks themselves in with the code shown at the venue (the sign's QR code opens this page)."""
    event = _event(request, slug)
    player = player_of(request.user)
    entry = None
    if player:
        entry = (
            Entry.objects.filter(
                event=event, player=player, status__in=(*checkin.ENTRANT_STATUSES, *checkin.WAITING_STATUSES)
            )
            .select_related("player", "check_in")
            .first()
        )
    form = SelfCheckInForm(request.POST or None)
    if request.method == "POST" and entry and form.is_valid():
        done = run_service(
            request,
            lambda: checkin.check_in(request.user, entry, code=form.cleaned_data["code"], address=client_ip(request)),
            "You are checked in. Good luck!",
            form=form,
        )
        if done:
            return redirect("events:play_my_check_in", event.slug)
    checked = getattr(entry, "check_in", None) if entry else None
    return render(
        request,
        "events/play/checkin_me.html",
        {"event": event, "entry": entry, "checked": checked, "form": form},
    )


# Wall displays -----------------------------------------------------------------------------------------


def _int_param(request, name: str, default: int, low: int, high: int) -> int:
    value = request.GET.get(name, "")
    return min(max(int(value), low), high) if value.isdigit() else default


def _pages(rows: list, size: int) -> list[list]:
    return [rows[i : i + size] for i in range(0, len(rows), size)] or [[]]


@never_cache
def wall_display(request, slug: str, pk: int, kind: str):
    """A projector or TV page, no login needed: large type, paging by itself, reloading when results change.
    Only published rounds show (drafts never, even to a director)."""
    if kind not in WALL_KINDS:
        raise Http404("No such display")
    event = _event(request, slug)
    division = _division(event, pk)
    title, per_page = WALL_KINDS[kind]
    rnd = wall.shown_round(division)
    rows = []
    if kind == "standings":
        rows = read_division(division, for_tables=True).standings() if rnd else []
    elif rnd:
        rows = wall.boards(division, rnd) if kind == "pairings" else wall.find_my_table(division, rnd)
    per_page = _int_param(request, "rows", per_page, 2, 60)
    pages = _pages(rows, per_page)
    if kind == "find":  # two columns of names per page, as even as the page allows
        pages = [[page[: (len(page) + 1) // 2], page[(len(page) + 1) // 2 :]] for page in pages]
    elif kind == "standings":
        pages = [wall_standings_rows_html(page) for page in pages]
    displays = [
        (reverse("events:play_wall", args=[event.slug, division.pk, key]), label)
        for key, (label, _) in WALL_KINDS.items()
        if key != kind
    ]
    displays.append((reverse("events:play_event_wall", args=[event.slug, "pairings"]), "Every division"))
    context = {
        "event": event,
        "division": division,
        "kind": kind,
        "title": title,
        "round": rnd,
        "pages": pages,
        "version": wall.wall_version(division),
        "version_url": reverse("events:play_wall_version", args=[event.slug, division.pk]),
        "poll": _int_param(request, "poll", WALL_POLL_SECONDS, 1, 300),
        "turn": _int_param(request, "seconds", 12, 3, 300),
        "displays": displays,
    }
    return render(request, f"events/play/wall_{kind}.html", context)


# The event-wide walls: every division's boards side by side, and one "find my table" for the whole hall.
EVENT_WALL_KINDS = {"pairings": ("Pairings", 14), "find": ("Find my table", 24)}


@never_cache
def event_wall(request, slug: str, kind: str):
    """A screen for a hall of several divisions, no login needed: each division's latest published round side by
    side (`columns` to a page, turning by itself when they do not fit), or every player's table across divisions.
    A constant number of queries whatever the number of divisions."""
    if kind not in EVENT_WALL_KINDS:
        raise Http404("No such display")
    event = _event(request, slug)
    title, per_page = EVENT_WALL_KINDS[kind]
    per_page = _int_param(request, "rows", per_page, 2, 60)
    walls = [w for w in wall.event_walls(event) if w.round is not None]
    if kind == "pairings":
        # Each division's boards in blocks of `rows`; `columns` blocks side by side on a page.
        blocks = []
        for w in walls:
            chunks = _pages(w.boards, per_page)
            blocks += [{"wall": w, "boards": c, "part": i, "parts": len(chunks)} for i, c in enumerate(chunks, 1)]
        columns = _int_param(request, "columns", min(3, len(blocks)) or 1, 1, 6)
        pages = [blocks[i : i + columns] for i in range(0, len(blocks), columns)]
    else:
        rows = wall.event_find_my_table(walls)
        pages = [[p[: (len(p) + 1) // 2], p[(len(p) + 1) // 2 :]] for p in _pages(rows, per_page)] if rows else []
    other = "find" if kind == "pairings" else "pairings"
    displays = [(reverse("events:play_event_wall", args=[event.slug, other]), EVENT_WALL_KINDS[other][0])]
    context = {
        "event": event,
        "division": None,
        "kind": kind,
        "title": title,
        "pages": pages,
        "version": wall.event_wall_version(event),
        "version_url": reverse("events:play_event_wall_version", args=[event.slug]),
        "poll": _int_param(request, "poll", WALL_POLL_SECONDS, 1, 300),
        "turn": _int_param(request, "seconds", 12, 3, 300),
        "displays": displays,
    }
    return render(request, f"events/play/wall_event_{kind}.html", context)


@never_cache
def event_wall_version(request, slug: str):
    """What the event-wide walls poll: a fingerprint that changes with any division's results or pairings."""
    event = _event(request, slug)
    return JsonResponse({"version": wall.event_wall_version(event)})


# Rank, name, won, lost, spread.
WALL_STANDINGS_ROW = row_format("num rank", "", "num wins", "num", "num spread")


def wall_standings_rows_html(rows) -> str:
    """One page of the wall's standings as table rows, drawn here as the standings page's are (a 300-player
    division's rows cost the template language several milliseconds). Names escaped; the rest numbers."""
    lines = []
    for line in rows:
        standing = line.standing
        withdrawn = standing.rank is None
        note = ' <span class="small">(withdrawn)</span>' if withdrawn else ""
        lines.append(
            WALL_STANDINGS_ROW(
                "",
                "–" if withdrawn else standing.rank_label,  # "=3": a number
                f"{escape(line.seat.player.name)}{note}",
                format_wins(standing.wins),
                format_wins(standing.losses),
                f"{int(standing.spread):+d}",
            )
        )
    return safe(lines)


@never_cache
def wall_version(request, slug: str, pk: int):
    """What the wall displays poll: a fingerprint that changes with any result, pairing or withdrawal. A public
    event's comes from the cache (services.polls: at most a second old), as every wall of the room asks for it
    every few seconds; a draft's is for its directors only, read as its pages are."""
    state = polls.event_state(slug)
    version = polls.division_version(state, pk) if state is not None and state.public else None
    if version is None:
        event = _event(request, slug)
        version = wall.wall_version(_division(event, pk))
    return JsonResponse({"version": version})


# Printed round material --------------------------------------------------------------------------------


def print_latest(request, slug: str, pk: int):
    """The newest round's printouts (a draft included, for its directors)."""
    event = _event(request, slug)
    division = _division(event, pk)
    rounds = division.rounds.order_by("-number")
    if not event.directing:
        rounds = rounds.exclude(status=RoundStatus.DRAFT)
    rnd = rounds.first()
    if rnd is None:
        messages.info(request, "Nothing to print yet: pair round 1 first.")
        return redirect("events:play_division", event.slug, division.pk)
    return redirect("events:play_print", event.slug, division.pk, rnd.number, "scorecards")


# The blank table of turns every printed scorecard has.
TURNS = table(
    head("Turn", "My move", "Score", "Total", "Opponent's move", "Score", "Total"),
    "".join(row([cell(turn), *[cell("")] * 6]) for turn in range(1, 14)),
)


def print_cards_html(event, division, rnd, cards) -> str:
    """The printed scorecards, one section per player, drawn here: hundreds of cards cost the template language
    more than the rest of the page. Names and titles escaped; records and numbers are numbers."""
    if not cards:
        return safe(['<p class="text-muted">No games to play in this round.</p>'])
    heading = f"{escape(event.title)} · {escape(division.name)} · Round {rnd.number}"
    sections = []
    for sheet, me, them in cards:
        mine, theirs = escape(me.seat.player.name), escape(them.seat.player.name)
        if me.goes_first is True:
            start = " · <strong>goes first</strong>"
        elif me.goes_first is False:
            start = " · goes second"
        else:
            start = " · draw tiles to start"
        sections.append(
            f'<section class="scorecard-print" aria-label="Scorecard of {mine}">\n'
            f"  <h2>{heading} · Board {sheet.board}</h2>\n"
            f'  <p class="who"><strong>#{me.seat.number} {mine}</strong> ({me.record}){start}</p>\n'
            f'  <p class="who">against #{them.seat.number} {theirs} ({them.record})</p>\n'
            f"  {TURNS}\n"
            f'  <p class="who mt-1">Final: {mine} ______ &nbsp; {theirs} ______ &nbsp; Signed: ____________</p>\n'
            "</section>\n"
        )
    return safe(sections)


def print_round(request, slug: str, pk: int, number: int, kind: str):
    if kind not in PRINT_KINDS:
        raise Http404("No such printout")
    event = _event(request, slug)
    division = _division(event, pk)
    rnd = _round(division, number, directing=event.directing)
    # Each printout reads only what it shows: sheets for the scorecards and slips, names for the door.
    sheets = printing.round_sheets(division, rnd) if kind != "pairings" else []
    rounds = Round.objects.filter(division=division).order_by("number")
    if not event.directing:
        rounds = rounds.exclude(status=RoundStatus.DRAFT)
    context = {
        "event": event,
        "division": division,
        "round": rnd,
        "kind": kind,
        "title": PRINT_KINDS[kind],
        "kinds": PRINT_KINDS,
        "rounds": list(rounds),
        "sheets": sheets,
        "cards_html": print_cards_html(event, division, rnd, printing.scorecards(sheets))
        if kind == "scorecards"
        else "",
        "by_name": printing.find_my_table(division, rnd) if kind == "pairings" else [],
    }
    return render(request, f"events/play/print_{kind}.html", context)


# Lucky draw --------------------------------------------------------------------------------------------


class LuckyDrawForm(ServiceFormMixin, forms.Form):
    winners = forms.IntegerField(label="Number of winners", min_value=1, max_value=500, initial=1)
    note = forms.CharField(label="Prize (optional)", max_length=200, required=False)


def lucky_draw(request, slug: str, pk: int):
    event = _event(request, slug)
    division = _division(event, pk)
    form = LuckyDrawForm(request.POST or None, prefix="draw") if event.directing else None
    if request.method == "POST":
        if not event.directing:
            return redirect("events:play_lucky_draw", event.slug, division.pk)
        if form.is_valid():
            data = form.cleaned_data
            done = run_service(
                request,
                lambda: luckydraw.run_lucky_draw(request.user, division, data["winners"], note=data["note"]),
                "Drawn. The seed is recorded so the draw can be checked.",
                form=form,
            )
            if done:
                return redirect("events:play_lucky_draw", event.slug, division.pk)
    read = read_division(division)
    names = {pid: seat for pid, seat in read.seats.items()}
    draws = []
    for d in division.lucky_draws.all():
        draws.append(
            {
                "draw": d,
                "winners": [names.get(p) for p in d.winners],
                "candidates": [names.get(p) for p in d.candidates],
                "checked": luckydraw.check_lucky_draw(d),
            }
        )
    pool = luckydraw.eligible(division)
    context = {
        "event": event,
        "division": division,
        "form": form,
        "draws": draws,
        "pool": [names[p] for p in pool.candidates if p in names],
        "excluded": len(set(pool.prize_winners) | set(pool.earlier_winners)),
    }
    return render(request, "events/play/lucky_draw.html", context)
