"""A player's games across events (list, head to head, records) and a game's own page with its record."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import date_format
from django.views.decorators.http import require_POST

from clubsite.kit.errors import NotAllowed, ServiceError
from clubsite.kit.html import CELLS, cell, escape, row_format, safe
from clubsite.kit.paging import BoundedPaginator
from events.play.core import gcg
from events.play.models import Game, GameKind, RoundStatus
from events.play.services import game_records, history
from events.play.services.reads import scores_visible
from players.models import Player
from players.visibility import visible_player_or_404, visible_players

from ..history_forms import GameFilterForm, GameRecordForm, OpponentForm
from .common import _event, url_with_number


def _player(request, member_number: int) -> Player:
    """The player whose pages these are; a hidden member's pages are as missing as their profile."""
    return visible_player_or_404(request.user, Player.objects.select_related("club"), member_number=member_number)


def _query_without_page(request) -> str:
    query = request.GET.copy()
    query.pop("page", None)
    return query.urlencode()


def _page(request, games, player, count: int | None = None, *, hide_opponent: bool = False):
    paginator = BoundedPaginator(history.for_listing(games), history.PAGE_SIZE)
    if count is not None:
        paginator.count = count  # known already: the same games are not counted again
    page = paginator.get_page(request.GET.get("page"))
    page.object_list = history.decorate(list(page.object_list), request.user)
    page.rows = games_rows_html(page.object_list, player, hide_opponent=hide_opponent)
    return page


BADGES = {history.WIN: "bg-success", history.LOSS: "bg-danger"}
# Date, event, round, the opponent's cell (none on a head-to-head page), score, result, spread, the game.
GAMES_ROW = row_format("text-nowrap", "", "", CELLS, "text-end text-nowrap", "", "text-end", "")


def games_rows_html(games: list[dict], player: Player, *, hide_opponent: bool = False) -> str:
    """The game table's rows as HTML (rows from `history.for_listing`, decorated). Built here, not in the
    template: fifty rows of a dozen template variables each were most of the page's time. Each row's links are
    reversed once per page (head to head) or per event (the event, the game); every text is escaped."""
    versus = url_with_number("history:versus", player.member_number)
    per_event = {}
    rows = []
    for g in games:
        slug = g["event_slug"]
        links = per_event.get(slug)
        if links is None:
            links = per_event[slug] = (
                escape(reverse("events:detail", args=[slug])),
                url_with_number("events:play_game", slug),
            )
        title, number = escape(g["event_title"]), g["round_number"]
        lexicon = f" · {escape(g['lexicon'])}" if g["lexicon"] else ""
        opponent = ""
        if not hide_opponent:
            name = escape(g["opponent"].name)
            if g["opponent_visible"]:
                name = f'<a href="{versus(g["opponent"].member_number)}" title="Head to head with {name}">{name}</a>'
            opponent = cell(name)
        spread = g["my_spread"]
        record = "Moves" if g["has_record"] else "Details"
        rows.append(
            GAMES_ROW(
                "",
                date_format(g["starts_on"], "j M Y"),
                f'<a href="{links[0]}">{title}</a> <span class="text-muted small">'
                f"{escape(g['division_name'])}{lexicon}</span>",
                number,
                opponent,
                f"{g['my_score']}–{g['opponent_score']}",
                f'<span class="badge {BADGES.get(g["result"], "bg-secondary")}">{g["result_label"]}</span>',
                f"{'+' if spread > 0 else ''}{spread}",
                f'<a href="{links[1](g["pk"])}">{record}<span class="visually-hidden"> of round {number}, '
                f"{title}</span></a>",
            )
        )
    return safe(rows)


def player_games(request, member_number: int):
    """Every game the player has played, newest first, 50 a page, filtered by year, lexicon, opponent, result."""
    player = _player(request, member_number)
    choices = history.choices(player)
    form = GameFilterForm(request.GET or None, years=choices.years, lexicons=choices.lexicons)
    filters = form.filters()
    games = history.filtered(history.player_games(player), filters)
    context = {
        "player": player,
        "form": form,
        "page": _page(request, games, player, count=choices.games if filters == history.GameFilters() else None),
        "query": _query_without_page(request),
        "filtered": any(request.GET.get(k) for k in ("year", "lexicon", "opponent", "result")),
    }
    return render(request, "events/history/games.html", context)


def head_to_head(request, member_number: int, opponent_number: int | None = None):
    """The player's record against one opponent, game by game; the opponent chosen from those met."""
    player = _player(request, member_number)
    met = list(history.opponents(player, request.user))
    form = OpponentForm(request.GET or None, opponents=met, initial={"opponent": opponent_number})
    matches = None
    if form.is_valid() and opponent_number is None:
        chosen = form.cleaned_data["opponent"]
        name = form.cleaned_data["name"].strip().lower()
        if name:
            matches = [p for p in met if name in p.full_name.lower() or name in p.display_name.lower()]
            if len(matches) == 1:
                chosen = matches[0].member_number
        if chosen:
            return redirect("history:versus", member_number, chosen)
    context = {"player": player, "form": form, "matches": matches, "opponents_met": len(met)}
    if opponent_number is not None:
        if opponent_number == member_number:
            raise Http404("A player has no games against themselves")
        opponent = visible_player_or_404(request.user, member_number=opponent_number)
        games = history.player_games(player).filter(opponent_pk=opponent.pk)
        context |= {
            "opponent": opponent,
            "summary": history.summary(games),
            "page": _page(request, games, player, hide_opponent=True),
            "query": _query_without_page(request),
        }
    return render(request, "events/history/head_to_head.html", context)


def player_records(request, member_number: int):
    """Rating peak, high game, high loss, averages and win percentage, by year and by lexicon."""
    player = _player(request, member_number)
    return render(request, "events/history/records.html", {"player": player, "records": history.records(player)})


# --- a game's page and its record ------------------------------------------------------------------


def _game(request, slug: str, game_pk: int) -> Game:
    event = _event(request, slug)
    game = get_object_or_404(
        Game.objects.select_related("round", "division", "player_a", "player_b", "gcg_record"),
        pk=game_pk,
        division__event=event,
    )
    if game.round.status == RoundStatus.DRAFT and not event.directing:
        raise Http404("This round is not published yet.")
    game.division.event = event
    return game


def _board_rows(record: gcg.GameRecord) -> list[dict]:
    rows = []
    for r, row in enumerate(record.board):
        cells = []
        for c, square in enumerate(row):
            cells.append(
                {
                    "letter": square.upper(),
                    "blank": square.islower(),
                    "premium": gcg.premium(r, c) if not square else "",
                    "name": f"{gcg.COLUMNS[c]}{r + 1}",
                }
            )
        rows.append({"number": r + 1, "cells": cells})
    return rows


def _game_page(request, game: Game, form: GameRecordForm | None = None, status: int = 200):
    stored = getattr(game, "gcg_record", None)
    # The record's moves and totals are the game's scores: shown to whoever may see them (the one rule).
    show_scores = scores_visible(game, request.user, directing=game.division.event.directing)
    record = game_records.read_record(stored) if show_scores else None
    ids = [p for p in (game.player_a_id, game.player_b_id) if p]
    visible = set(visible_players(request.user, Player.objects.filter(pk__in=ids)).values_list("pk", flat=True))
    played = game.kind == GameKind.NORMAL and game.player_b_id is not None
    may_attach = played and game_records.can_attach_record(request.user, game)
    context = {
        "event": game.division.event,
        "division": game.division,
        "game": game,
        "show_scores": show_scores,
        "a_visible": game.player_a_id in visible,
        "b_visible": game.player_b_id in visible,
        "stored": stored,
        "record": record,
        "moves": [(m, record.player(m.player)) for m in record.moves] if record else [],
        "board_rows": _board_rows(record) if record else [],
        "columns": gcg.COLUMNS,
        "may_attach": may_attach,
        "form": form or (GameRecordForm() if may_attach else None),
        "scores_differ": bool(
            record and sorted(record.final_scores) != sorted([game.played("a") or 0, game.played("b") or 0])
        ),
    }
    return render(request, "events/history/game.html", context, status=status)


def game_page(request, slug: str, game_pk: int):
    """A game: players, result, and its move list and final board when a record is attached."""
    return _game_page(request, _game(request, slug, game_pk))


@login_required
@require_POST
def game_record(request, slug: str, game_pk: int):
    """Attach, replace or remove a game's record (the service checks who may)."""
    game = _game(request, slug, game_pk)
    url = reverse("events:play_game", args=[slug, game.pk])
    form = GameRecordForm(request.POST, request.FILES)
    try:
        if "remove" in request.POST:
            game_records.remove_record(request.user, game)
            messages.info(request, "The game record is removed.")
            return redirect(url)
        if not form.is_valid():
            return _game_page(request, game, form, status=400)
        data, filename = form.content()
        game_records.attach_record(request.user, game, data, filename)
    except NotAllowed as error:
        raise PermissionDenied(error.message) from None
    except ServiceError as error:
        if error.field == "file" and not request.FILES.get("file"):
            error.field = "text"  # the record was pasted: the refusal goes under the text
        form.add_service_error(error)
        return _game_page(request, game, form, status=400)
    messages.success(request, "The game record is attached.")
    return redirect(url)
