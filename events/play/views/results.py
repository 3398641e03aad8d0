"""Results: the director's result form and the player's own game page on a phone."""

from django.contrib import messages
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from clubsite.kit.conditional import unchanged_since
from clubsite.kit.errors import ServiceError
from clubsite.kit.roles import player_of
from clubsite.kit.ui import run_service
from events.models import Event
from events.play import services as play
from events.play.models import Division, DivisionPlayer, Game, GameKind, GameStatus, RoundStatus
from events.play.services import polls
from events.play.services import results as result_services
from players.models import Player
from ratings.services.live import division_live_ratings

from ..forms import (
    DisputeForm,
    MyResultForm,
    ResultForm,
    format_overtime,
)
from .common import _directed_event, _event, read_event


def _game_for_director(request, slug: str, game_pk: int) -> tuple[Event, Game]:
    event = _directed_event(request, slug)
    game = get_object_or_404(
        Game.objects.select_related("round", "division", "player_a", "player_b"), pk=game_pk, division__event=event
    )
    game.division.event = event
    return event, game


def _played_scores(game: Game) -> dict:
    """The scores as played (before overtime penalties) for a correction form."""
    return {
        "score_a": game.played("a"),
        "score_b": game.played("b"),
        "ahead_before_tiles": game.ahead_before_tiles,
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
                    reason=data["reason"],
                    ahead_before_tiles=data.get("ahead_before_tiles") or None,
                    confirm_unusual=data.get("confirm_unusual", False),
                )
            else:
                kind, _, side = outcome.rpartition("_") if outcome != GameKind.VOID else (GameKind.VOID, "", "a")
                play.set_unplayed(request.user, game, kind, reason=data["reason"], forfeited_by=side)
        except ServiceError as error:
            form.add_service_error(error)
        else:
            messages.success(request, f"Result of board {game.board or '-'} saved.")
            return redirect("events:play_round", event.slug, game.division_id, game.round_number)
    changes = list(game.changes.select_related("changed_by__player").order_by("-changed_at", "-pk")[:20])
    for change in changes:
        change.who = result_services.person_name(change.changed_by)
    context = {"event": event, "division": game.division, "game": game, "form": form, "changes": changes}
    return render(request, "events/play/game_result.html", context)


@login_required
@require_POST
def director_confirm(request, slug: str, game_pk: int):
    event, game = _game_for_director(request, slug, game_pk)
    run_service(request, lambda: play.confirm_result(request.user, game), "Result confirmed.")
    return redirect("events:play_round", event.slug, game.division_id, game.round_number)


# What "my game" draws of a game: its every field, and whether its round is still being played.
GAME_FIELDS = (
    "pk",
    "division_id",
    *(f.attname for f in Game._meta.concrete_fields if f.attname not in ("id", "division_id")),
    "round__status",
)


def _games_of(event: Event | int, player):
    return (
        Game.objects.filter(division__event=event)
        .filter(Q(player_a=player) | Q(player_b=player))
        .exclude(round__status=RoundStatus.DRAFT)
    )


def _my_games(event: Event, player) -> list[Game]:
    """The player's games of published rounds in this event: the latest round's, and any still open."""
    games = list(
        _games_of(event, player)
        .select_related("round", "division", "player_a", "player_b")
        .order_by("division_id", "-round_number")
    )
    latest = {}
    for g in games:
        latest.setdefault(g.division_id, g.round_number)
    return [g for g in games if g.round_number == latest[g.division_id] or g.status != GameStatus.CONFIRMED]


def _side(game: Game, player) -> str:
    return "a" if game.player_a_id == player.pk else "b"


def my_game_version(request, slug: str):
    """What "my game" shows, as a fingerprint (clubsite.kit.conditional): the player's own games of published
    rounds, every field of them, and their rating if the event ended now; not the rest of the event, so a phone
    polling it is answered 304 until something of the player's own changes (results elsewhere arrive every few
    seconds on the day). The event comes from the cache (services.polls) and the player from the session, so
    the account is not read. None for a draft, or without a signed-in session (the page sends them to log in)."""
    state = polls.event_state(slug)
    account = request.session.get(SESSION_KEY)
    if state is None or not state.public or account is None:
        return None
    shown = (state.fingerprint, request.GET.urlencode())
    player = Player.objects.filter(user_id=account).values_list("pk", flat=True).first()
    if player is None:
        return shown
    rows = _games_of(state.pk, player).order_by("pk").values_list(*GAME_FIELDS, "division__finalised_at")
    games = [row[:-1] for row in rows]
    live = []
    being_played = sorted({row[1] for row in rows if row[-1] is None})
    if state.rated and state.rating_list_id and being_played:
        event = read_event(request, state)
        for pk in being_played:
            ratings = division_live_ratings(Division(pk=pk, event=event, finalised_at=None))
            live.append(ratings.get(player) if ratings is not None else None)
            # Read once a request: the page, if it is drawn, shows these same ratings.
            request.live_ratings_read = {**getattr(request, "live_ratings_read", {}), pk: ratings}
    return shown, games, live


@unchanged_since(my_game_version)
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
        g.my_played, g.opponent_played = g.played(side), g.played(other)
        g.my_penalty, g.opponent_penalty = g.penalty(side), g.penalty(other)
        g.i_overran, g.opponent_overran = g.overrun == side, g.overrun == other
        g.tie_won_by_me = g.tie_winner == side
        g.tie_won_by_opponent = g.tie_winner == other
        g.playable = g.kind == GameKind.NORMAL and g.player_b_id is not None
        own_submission = g.status == GameStatus.SUBMITTED and g.submitted_by_me
        if g.playable and (g.status == GameStatus.PAIRED or own_submission):
            mine = _my_submission(g) if own_submission else None
            g.form = (
                bound if bound is not None and bound.game_pk == g.pk else MyResultForm(prefix=f"g{g.pk}", initial=mine)
            )
        elif bound is not None and bound.game_pk == g.pk:
            # The game moved on meanwhile (the opponent submitted first): say why nothing was saved.
            for error in bound.non_field_errors():
                messages.error(request, error)
    read = getattr(request, "live_ratings_read", {})
    context = {"event": event, "player": player, "games": games, "live": _my_live_ratings(event, player, games, read)}
    return render(request, "events/play/my_game.html", context)


def _my_submission(g: Game) -> dict:
    """A player's own submitted result, from their side, to correct it."""
    first = {"": "", g.side: "me"}.get(g.first, "opponent")
    return {
        "my_score": g.my_played,
        "opponent_score": g.opponent_played,
        "my_overtime": format_overtime(g.my_overtime),
        "opponent_overtime": format_overtime(g.opponent_overtime),
        "first": first,
    }


def _my_live_ratings(event: Event, player, games: list[Game], read: dict) -> list[tuple]:
    """(division, the player's LiveRating) for each division of theirs being played; `read`: the divisions' live
    ratings already read in this request (by division)."""
    found = []
    for division in {g.division_id: g.division for g in games}.values():
        division.event = event
        live = read[division.pk] if division.pk in read else division_live_ratings(division)
        mine = live.get(player.pk) if live is not None else None
        if mine is not None:
            found.append((division, mine))
    return found


def _players_game(request, slug: str, game_pk: int) -> tuple[Event, Game]:
    event = _event(request, slug)
    game = get_object_or_404(
        Game.objects.select_related("division", "player_a", "player_b"), pk=game_pk, division__event=event
    )
    return event, game


@login_required
@require_POST
def submit(request, slug: str, game_pk: int):
    event, game = _players_game(request, slug, game_pk)
    player = player_of(request.user)
    if player is None or player.pk not in (game.player_a_id, game.player_b_id):
        raise PermissionDenied("You can only submit the result of your own game.")
    form = MyResultForm(request.POST, prefix=f"g{game.pk}")
    form.game_pk = game.pk
    if form.is_valid():
        try:
            saved = play.submit_result(request.user, game, **form.for_side(_side(game, player)))
        except ServiceError as error:
            form.add_service_error(error)
        else:
            done = "Your earlier submission is replaced" if saved.replaced_submission else "Result submitted"
            messages.success(request, f"{done}: {result_services.who_confirms(game, _side(game, player))}.")
            return redirect("events:play_my_game", event.slug)
    return my_game(request, slug, bound=form)


@login_required
@require_POST
def confirm(request, slug: str, game_pk: int):
    event, game = _players_game(request, slug, game_pk)
    run_service(request, lambda: play.confirm_result(request.user, game), "Result confirmed. Thank you!")
    return redirect("events:play_my_game", event.slug)


@login_required
@require_POST
def dispute(request, slug: str, game_pk: int):
    event, game = _players_game(request, slug, game_pk)
    form = DisputeForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    run_service(
        request, lambda: play.dispute_result(request.user, game, reason), "Disputed: a director will settle it."
    )
    return redirect("events:play_my_game", event.slug)
