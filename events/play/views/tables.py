"""Standings, cross-table, scorecards and prizes, all from one read of the division; finalising."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from clubsite.kit.conditional import etag_for_all, unchanged_since
from clubsite.kit.html import CELLS, cell, escape, head, row, row_format, safe, table
from clubsite.kit.ui import run_service
from clubsite.kit.wins import format_record, format_wins
from events.play import services as play
from events.play.services import prizes as prizes_io
from ratings.services.live import division_live_ratings
from ratings.templatetags.live_tags import signed

from .common import _directed_event, _division, _event, _rounds, _through, polled_page_version, url_with_number

LIVE = "text-end text-nowrap live-rating"
STANDINGS_SECONDS = 600  # a table kept under its fingerprint: a changed division has another
NO_LIVE_RATING = cell("–", LIVE)


def _live_cell(r) -> str:
    """A player's live rating, and its change (or "new" for a newcomer who has played)."""
    if not (r and r.rating):
        return NO_LIVE_RATING
    after = ""
    if r.change is not None:
        after = f' <span class="small live-change">{signed(r.change)}</span>'
    elif r.is_newcomer and r.games:
        after = ' <span class="small">new</span>'
    return cell(f'<span class="live-now">{int(r.rating)}</span>{after}', LIVE)


# Rank, name, won, lost, spread, seed rating, then the live rating's cell while play goes on.
STANDINGS_ROW = row_format(
    "rank", "", "text-end wins", "text-end", "text-end spread", "text-end d-none d-sm-table-cell", CELLS
)
MUTED = ' class="text-muted"'
WITHDRAWN = '<span class="text-muted small">withdrawn</span>'


def _withdrawn(after: int | None) -> str:
    """When, as the division page and the round pages say it (a `.t` file's `off` may not say when)."""
    return WITHDRAWN if after is None else f'<span class="text-muted small">{play.withdrawn_when(after)}</span>'


def standings_rows_html(event, division, rows, live=None) -> str:
    """The standings table's rows as HTML. A 300-player division's rows cost a few milliseconds built here,
    where the template language spends tens on them (eight variables a row); the markup is the page's own,
    every text escaped."""
    scorecard_url = url_with_number("events:play_scorecard", event.slug, division.pk)
    lines = []
    for line in rows:
        standing, seat = line.standing, line.seat
        # The rank ("=3") and the rating are numbers or fixed words: only names need escaping.
        name = (
            f'<a href="{scorecard_url(seat.number)}">{escape(seat.player.name)}</a> '
            f'<span class="small text-muted">#{seat.number}</span>'
        )
        lines.append(
            STANDINGS_ROW(
                MUTED if seat.withdrawn_after_round is not None else "",
                standing.rank_label if standing.rank is not None else _withdrawn(seat.withdrawn_after_round),
                name,
                format_wins(standing.wins),
                format_wins(standing.losses),
                f"{int(standing.spread):+d}",
                seat.rating or "unrated",  # as the divisions page and the scorecards say it
                _live_cell(live.get(seat.player_id)) if live is not None else "",
            )
        )
    return safe(lines)


CROSS = "text-center text-nowrap"
EMPTY_CELL = cell("", CROSS)
# Number, name, a cell per round played, the record and the spread.
CROSS_ROW = row_format("", "text-nowrap", CELLS, "text-end text-nowrap", "text-end")


def _cross_cell(opponent, c) -> str:
    number = f" {opponent.number}" if opponent else ""
    score = f"{c.own_score}–{c.opp_score}" if c.own_score is not None else f"{int(c.spread):+d}"
    # The letter is one of W, L, T, B, F, V: nothing to escape.
    return cell(f"<strong>{c.letter}</strong>{number}<br>{score}", CROSS)


def cross_table_rows_html(cross, seats) -> tuple[list[int], str]:
    """The rounds played, and the cross-table's rows as HTML, built here for the same reason as the
    standings' (a cell per player and round: thousands of template variables in a large division); every
    text escaped. Each cell is written as it is met, in one pass over the cells (looking through every cell
    for each row grows with the square of the division: 1.3 s for 300 players)."""
    cells: dict[tuple[int, int], str] = {}  # (player, round) -> the cell
    for (player, col), games in cross.cells.items():
        for c in games:
            cells[player, c.round] = _cross_cell(seats[col], c)
    for player, games in cross.unopposed.items():
        for c in games:
            cells[player, c.round] = _cross_cell(None, c)
    played = sorted({r for _, r in cells})
    rows = []
    for standing in cross.standings:  # the standings the cross-table is ordered by, not worked out again
        seat, player = seats[standing.player], standing.player
        rows.append(
            CROSS_ROW(
                "",
                seat.number,
                escape(seat.player.name),
                "".join(cells.get((player, r), EMPTY_CELL) for r in played),
                format_record(standing.wins, standing.losses),
                f"{int(standing.spread):+d}",
            )
        )
    return played, safe(rows)


def _standings_table(event, div, through) -> tuple[bool, str, bool]:
    """Whether there are rows, the rows as HTML, and whether they show live ratings."""
    rows = play.read_division(div, for_tables=True).standings(through)
    # Each player's rating if the event ended now, beside the latest standings while play goes on.
    live = division_live_ratings(div) if through is None else None
    return bool(rows), standings_rows_html(event, div, rows, live), live is not None


@unchanged_since(polled_page_version)
def standings(request, slug: str, pk: int):
    event = _event(request, slug)
    # The page is alike for all but the directors (who see draft rounds), and a fingerprint of all it shows is at
    # hand (`polled_page_version`, None for a draft): while results come in, a division's players ask for the same
    # page a few times between two changes, and its division, rounds and table are read once for them (the
    # division's read and its live ratings are most of the page).
    version = getattr(request, "page_version", None)
    key = f"standings:{pk}:{etag_for_all(version)}" if version is not None and not event.directing else None
    kept = cache.get(key) if key else None
    if kept is None:
        div = _division(event, pk)
        rounds = _rounds(div, directing=event.directing)
        kept = div, rounds, _standings_table(event, div, _through(request, rounds))
        if key:
            cache.set(key, kept, STANDINGS_SECONDS)
    div, rounds, (has_rows, rows_html, has_live) = kept
    div.event = event
    through = _through(request, rounds)
    context = {
        "event": event,
        "division": div,
        "rounds": rounds,
        "through": through,
        "rows": has_rows,
        "rows_html": rows_html,
        "ties_stand": event.ties_stand,
        "live": has_live,
    }
    return render(request, "events/play/standings.html", context)


def _division_read(request, slug: str, pk: int):
    event = _event(request, slug)
    div = _division(event, pk)
    return event, div, play.read_division(div, for_tables=True)


def cross_table(request, slug: str, pk: int):
    event = _event(request, slug)
    div = _division(event, pk)
    rounds = _rounds(div, directing=event.directing)
    read = play.read_division(div, for_tables=True)
    through = _through(request, rounds)
    played, rows_html = cross_table_rows_html(read.cross_table(through), read.seats)
    context = {
        "event": event,
        "division": div,
        "rounds": rounds,
        "through": through,
        "played": played,
        "rows_html": rows_html,
    }
    return render(request, "events/play/cross_table.html", context)


def _time_note(t) -> str:
    note = f"played {t.own_played}–{t.opp_played}"
    if t.own_penalty:
        note += f", own time −{t.own_penalty}"
    if t.opp_penalty:
        note += f", opponent's time −{t.opp_penalty}"
    if t.overrun == "me":
        note += "; overran: forfeit"
    elif t.overrun == "opponent":
        note += "; opponent overran: forfeit"
    return f'<div class="small text-muted time-note">{note}</div>'


def opponent_labels(seats) -> dict[int, str]:
    """Each seat as a scorecard names an opponent ("12. Name"), escaped once for every card it is on."""
    return {pid: f"{seat.number}. {escape(seat.player.name)}" for pid, seat in seats.items()}


_FIRST = {True: "1st", False: "2nd", None: ""}  # who went first, from the scorecard's side


# Round, opponent, who went first, score, result, spread, record, cumulative spread.
SCORECARD_ROW = row_format("", "", "", "text-end", "", "text-end", "text-end", "text-end")
NO_RESULTS = row([cell("No confirmed results yet.", "text-muted", ' colspan="8"')])


def scorecard_rows_html(player_id: int, lines, labels: dict[int, str], notes: dict) -> str:
    """A scorecard's rows as HTML, built here for the standings' reason: every scorecard of a 300-player,
    15-round division is 4,500 rows, which the template language took a third of a second to draw. Names
    are escaped (`opponent_labels`); the rest are numbers and fixed words. `notes`: the read's `time_notes`."""
    if not lines:
        return NO_RESULTS
    rows = []
    # Unpacked, each line's fields are locals: 4,500 rows a page.
    for rnd, opponent, went_first, own, opp, result, spread, wins, losses, running in lines:
        # Kept on one line on a phone ("360–" above "501" reads as two numbers).
        score = f'<span class="text-nowrap">{own}–{opp}</span>' if own is not None else ""
        note = notes.get((rnd, player_id)) if notes else None
        rows.append(
            SCORECARD_ROW(
                "",
                rnd,
                labels[opponent] if opponent else "—",
                _FIRST[went_first],
                f"{score}{_time_note(note)}" if note else score,
                result,
                f"{int(spread):+d}",
                format_record(wins, losses),
                f"{int(running):+d}",
            )
        )
    return "".join(rows)


SCORECARD_HEAD = head(
    "Rd",
    "Opponent",
    "1st/2nd",
    ("Score", "text-end"),
    "Result",
    ("Spread", "text-end"),
    ("Record", "text-end"),
    ("Cum. spread", "text-end"),
)


def scorecards_html(cards, read) -> str:
    """Scorecards as HTML sections, one per (seat, scorecard lines) of the division `read`: a 300-player
    division's in the template language took 10 ms more. The seat's name is escaped; its number and rating
    are numbers."""
    labels, notes = opponent_labels(read.seats), read.time_notes
    sections = []
    for seat, lines in cards:
        rating = seat.rating or "unrated"
        rows = scorecard_rows_html(seat.player_id, lines, labels, notes)
        sections.append(
            '<section class="scorecard mb-4">\n'
            f'  <h2 class="h5">{seat.number}. {escape(seat.player.name)} '
            f'<span class="small text-muted">{rating}</span></h2>\n'
            f'  <div class="table-responsive">{table(SCORECARD_HEAD, rows, "table table-sm align-middle")}</div>\n'
            "</section>\n"
        )
    return safe(sections)


def scorecard(request, slug: str, pk: int, number: int):
    event, div, read = _division_read(request, slug, pk)
    seat = next((s for s in read.seats.values() if s.number == number), None)
    if seat is None:
        raise Http404("No such player in this division")
    cards = scorecards_html([(seat, read.scorecard(seat.player_id))], read)
    context = {"event": event, "division": div, "cards_html": cards}
    return render(request, "events/play/scorecards.html", context)


def scorecards(request, slug: str, pk: int):
    """Every player's scorecard, to print."""
    event, div, read = _division_read(request, slug, pk)
    ordered = sorted(read.seats.values(), key=lambda s: s.number)
    every = read.scorecards()
    cards = scorecards_html([(s, every[s.player_id]) for s in ordered], read)
    return render(request, "events/play/scorecards.html", {"event": event, "division": div, "cards_html": cards})


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
