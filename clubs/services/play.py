"""Play at a club night: one-on-one games and multi-player tables, and the club's rules for counting them.

A one-on-one game is recorded as at a tournament (events.play's result rule, `results.adjudicate`): a player
submits their own game and the opponent confirms or disputes it; the club director's entry is confirmed at once,
and the director confirms a submitted or disputed one. A table (seed 001) is entered by the club director from the
referee's sheet and ranked by the pure rule (`tables.rank_table`). Whenever a confirmed game is added the club's
rating list is worked out again (clubs.services.standings.rerate_club).

Both players of a game, and everyone at a table, must be at the night (said they are coming, or checked in), and
the night must have begun and not be off.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from clubsite.kit.roles import player_of
from clubsite.kit.status import move
from clubsite.kit.text import check_free_text
from events.play.core import results, tables
from players.models import Player

from ..models import (
    Attendance,
    AttendanceStatus,
    ClubGame,
    ClubGameStatus,
    ClubPlayRules,
    ClubTable,
    NightStatus,
    TableSeat,
)
from ..permissions import may_run_club
from .common import ClubError, lock_night, require_director
from .standings import rerate_club

RULE_FIELDS = (
    "season_starts_on",
    "win_points",
    "tie_points",
    "loss_points",
    "first_points",
    "second_points",
    "third_points",
    "fourth_points",
    "attendance_points",
    "ties_by_score_before_tiles",
    "rated",
)


def rules_of(club) -> ClubPlayRules:
    """The club's rules, or the defaults (unsaved) while it has set none."""
    return ClubPlayRules.objects.filter(club=club).first() or ClubPlayRules(club=club)


@transaction.atomic
def save_rules(actor, club, **fields) -> ClubPlayRules:
    """The club director sets the ladder's points and season, the tie rule and whether games are rated."""
    require_director(actor, club)
    rules = ClubPlayRules.objects.select_for_update().filter(club=club).first() or ClubPlayRules(club=club)
    for name, value in fields.items():
        if name in RULE_FIELDS:
            setattr(rules, name, value)
    try:
        rules.full_clean(exclude=["club"])
    except ValidationError as error:
        problems = [(None if f == "__all__" else f, m) for f, ms in error.message_dict.items() for m in ms]
        raise ClubError(problems[0][1], field=problems[0][0], problems=problems) from None
    rules.save()
    rerate_club(club)
    return rules


def _check_night(night) -> None:
    if night.status != NightStatus.SCHEDULED:
        raise ClubError(f"The club night of {night.on:%-d %B %Y} was off: it has no games.")
    if night.on > timezone.localdate():
        raise ClubError(f"The club night of {night.on:%-d %B %Y} has not happened yet: enter its games on the night.")


def _at_night(night, players: list[Player], field_of) -> None:
    """Everyone named was at the night (said they were coming, or was checked in)."""
    there = set(
        Attendance.objects.filter(
            night=night,
            player__in=players,
            status__in=[AttendanceStatus.COMING, AttendanceStatus.CHECKED_IN],
        ).values_list("player_id", flat=True)
    )
    for index, player in enumerate(players):
        if player.pk not in there:
            raise ClubError(
                f"{player.name} is not down as at this night: check them in (or they say they are coming) first.",
                field=field_of(index),
            )


def _lock_game(game: ClubGame) -> ClubGame:
    return (
        ClubGame.objects.select_for_update(of=("self",))
        .select_related("night__club", "player_a", "player_b")
        .get(pk=game.pk)
    )


def _side(actor, game: ClubGame) -> str | None:
    player = player_of(actor)
    if player is None:
        return None
    if game.player_a_id == player.pk:
        return "a"
    if game.player_b_id == player.pk:
        return "b"
    return None


@transaction.atomic
def submit_game(
    actor,
    night,
    player_a: Player | None,
    player_b: Player | None,
    score_a,
    score_b,
    *,
    first: str = "",
    ahead_before_tiles: str | None = None,
    confirm_unusual: bool = False,
) -> ClubGame:
    """A player reports their own game (their opponent confirms it), or the club director enters one (confirmed)."""
    night = lock_night(night.pk)
    director = may_run_club(actor, night.club)
    if player_a is None or player_b is None:
        raise ClubError("Choose both players.", field="player_a" if player_a is None else "player_b")
    if player_a.pk == player_b.pk:
        raise ClubError("A player cannot play themselves: choose two players.", field="player_b")
    own = player_of(actor)
    if not director and (own is None or own.pk not in (player_a.pk, player_b.pk)):
        # Refused all the same, but on the form: choosing two other names is a slip in the form, not an attempt on
        # someone else's record (the page shows it beside the players, not as a bare refusal page).
        raise ClubError(
            "You can only submit a game you played: choose yourself as one of the players. "
            "The club director enters other people's games.",
            field="player_a",
        )
    _check_night(night)
    _at_night(night, [player_a, player_b], lambda i: ("player_a", "player_b")[i])
    rules = rules_of(night.club)
    if first not in ("", "a", "b"):
        raise ClubError("Say who went first: player A, player B, or leave it empty.", field="first")
    # Asked before anything else is said of the scores: 0–0 is a slip far more often than a tie to break.
    question = results.unusual_scores(score_a, score_b)
    if question and not confirm_unusual:
        raise ClubError(f"{question} If it was, say so and submit it again.", field="confirm_unusual")
    try:
        decided = results.adjudicate(
            score_a,
            score_b,
            ahead_before_tiles=ahead_before_tiles or None,
            ties_by_score_before_tiles=rules.ties_by_score_before_tiles,
            names=(player_a.name, player_b.name),
        )
    except results.TieUndecided as error:
        raise ClubError(str(error), field="ahead_before_tiles") from None
    except results.ScoreError as error:
        raise ClubError(str(error), field=f"score_{error.side}" if error.side else None) from None
    except results.ResultError as error:
        raise ClubError(str(error), field="ahead_before_tiles") from None
    now = timezone.now()
    game = ClubGame(
        night=night,
        player_a=player_a,
        player_b=player_b,
        score_a=decided.score_a,
        score_b=decided.score_b,
        first=first,
        ahead_before_tiles=(ahead_before_tiles or "") if decided.score_a == decided.score_b else "",
        submitted_by=actor,
        submitted_at=now,
    )
    if director:
        move(game, ClubGameStatus.CONFIRMED)
        game.confirmed_by, game.confirmed_at = actor, now
    else:
        move(game, ClubGameStatus.SUBMITTED)
    game.save()
    if game.status == ClubGameStatus.CONFIRMED:
        rerate_club(night.club)
    return game


def who_confirms(game: ClubGame, actor) -> str:
    """Who confirms a game a player submitted: the opponent if they have an account here, else the club director."""
    opponent = game.player_b if _side(actor, game) == "a" else game.player_a
    if opponent.user_id:
        return f"{opponent.name} confirms it"
    return f"the club director confirms it ({opponent.name} has no account here)"


@transaction.atomic
def confirm_game(actor, game: ClubGame) -> ClubGame:
    """The opponent of whoever submitted confirms; the club director confirms a submitted or disputed game."""
    game = _lock_game(game)
    director = may_run_club(actor, game.night.club)
    if game.status == ClubGameStatus.CONFIRMED:
        raise ClubError("This game is confirmed already.")
    if game.status == ClubGameStatus.DISPUTED and not director:
        raise ClubError("This game is disputed: the club director settles it.")
    if not director:
        side = _side(actor, game)
        if side is None:
            raise NotAllowed("Only the opponent or the club director can confirm this game.")
        if game.submitted_by_id == actor.id:
            raise ClubError(f"You submitted this game: {who_confirms(game, actor)}.")
    move(game, ClubGameStatus.CONFIRMED)
    game.confirmed_by, game.confirmed_at = actor, timezone.now()
    game.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    rerate_club(game.night.club)
    return game


@transaction.atomic
def dispute_game(actor, game: ClubGame, reason: str = "") -> ClubGame:
    """The opponent says the submitted game is wrong: the club director settles it (confirms it, or removes it)."""
    game = _lock_game(game)
    if game.status != ClubGameStatus.SUBMITTED:
        raise ClubError("Only a game waiting for confirmation can be disputed.")
    if _side(actor, game) is None or game.submitted_by_id == actor.id:
        raise NotAllowed("Only the opponent of whoever submitted can dispute this game.")
    game.dispute_reason = check_free_text(reason or "", "reason", 200, ClubError, "reason")
    move(game, ClubGameStatus.DISPUTED)
    game.save(update_fields=["status", "dispute_reason"])
    return game


@transaction.atomic
def remove_game(actor, game: ClubGame) -> None:
    """The club director removes a game entered wrongly (a disputed one, say); the ladder and ratings follow."""
    game = _lock_game(game)
    require_director(actor, game.night.club)
    club = game.night.club
    game.delete()
    rerate_club(club)


@dataclass(frozen=True)
class TableRow:
    """One line of the referee's sheet as typed: the player, the tile(s) drawn, the score before the adjustment and
    the value of the tiles left."""

    player: Player | None
    drawn: str = ""
    score_before: int | None = None
    tiles_left: int | None = 0


@transaction.atomic
def enter_table(actor, night, rows: list[TableRow], *, went_out: Player | None = None) -> ClubTable:
    """The club director enters a finished table. Rows without a player are left out; the seats follow the tiles
    drawn when every player's draw is given, else the order of the rows. A refusal names the row's field
    (`score_before_2`: the second row's score)."""
    require_director(actor, night.club)
    night = lock_night(night.pk)
    _check_night(night)
    filled = [(n, row) for n, row in enumerate(rows, start=1) if row.player is not None]
    row_of = {row.player.pk: n for n, row in filled}

    def field(name: str, player_id: int | None) -> str | None:
        return f"{name}_{row_of[player_id]}" if player_id in row_of else None

    for n, row in filled:
        if row.score_before is None:
            raise ClubError(f"Give {row.player.name}'s score before the tile adjustment.", field=f"score_before_{n}")
    players = [row.player for _, row in filled]
    try:
        seats = [tables.Seat(row.player.pk, row.score_before, row.tiles_left or 0) for _, row in filled]
        order = None
        if filled and all((row.drawn or "").strip() for _, row in filled):
            order = tables.order_of_play({row.player.pk: row.drawn for _, row in filled})
        elif any((row.drawn or "").strip() for _, row in filled):
            missing = next(n for n, row in filled if not (row.drawn or "").strip())
            raise ClubError(
                "Give every player's tile drawn, or none (seats in the order listed).", field=f"drawn_{missing}"
            )
        result = tables.rank_table(seats, order=order, went_out=went_out.pk if went_out else None)
    except tables.TableError as error:
        name = {"draw": "drawn"}.get(error.field, error.field)
        where = field(name, error.player) if error.player is not None else None
        if error.field == "went_out":
            where = "went_out"
        raise ClubError(str(error), field=where or ("player_1" if error.field == "players" else None)) from None
    _at_night(night, players, lambda i: f"player_{filled[i][0]}")
    last = ClubTable.objects.filter(night=night).order_by("-number").values_list("number", flat=True).first() or 0
    table = ClubTable.objects.create(
        night=night, number=min(last + 1, 99), went_out=went_out, entered_by=actor, entered_at=timezone.now()
    )
    drawn = {row.player.pk: (row.drawn or "").strip().upper() for _, row in filled}
    TableSeat.objects.bulk_create(
        TableSeat(
            table=table,
            player_id=s.player,
            seat=s.seat,
            drawn=drawn[s.player],
            score_before=s.score_before,
            tiles_left=s.tiles_left,
            adjustment=s.adjustment,
            final=s.final,
            place=s.place,
            shared=s.shared,
        )
        for s in result.seats
    )
    return table


@transaction.atomic
def remove_table(actor, table: ClubTable) -> None:
    table = ClubTable.objects.select_for_update(of=("self",)).select_related("night__club").get(pk=table.pk)
    require_director(actor, table.night.club)
    table.delete()
