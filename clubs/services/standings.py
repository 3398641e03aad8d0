"""What a club's play adds up to: its ladder for the season (events.play.core.ladder) and its rating list.

The club rating list rates the confirmed one-on-one games of the club's nights (tables are not rated: the rating
rules are for two players), each night as one event, in date order, by the NASPA rule (ratings.engine), starting
everyone unrated. It is written again from scratch, in the transaction of the change that calls it, so the stored
list always equals a recomputation from the games. Guests at a club night are rated on it as members are.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from itertools import groupby

from django.utils import timezone

from events.play.core import ladder as ladder_rule
from players.models import Player
from ratings.engine import RatingOptions
from ratings.engine.naspa import rate_naspa

from ..models import Attendance, AttendanceStatus, ClubGame, ClubGameStatus, ClubPlayRules, ClubRating, TableSeat

# A club's ladder page shows this many rows a page.
LADDER_PAGE = 50


def season_start(rules: ClubPlayRules, today: date | None = None) -> date:
    """The ladder's first day: the club's own, else 1 January of this year."""
    today = today or timezone.localdate()
    return rules.season_starts_on or date(today.year, 1, 1)


def ladder_points(rules: ClubPlayRules) -> ladder_rule.LadderPoints:
    return ladder_rule.LadderPoints(
        win=rules.win_points,
        tie=rules.tie_points,
        loss=rules.loss_points,
        places=(rules.first_points, rules.second_points, rules.third_points, rules.fourth_points),
        attendance=rules.attendance_points,
    )


def _rules(club) -> ClubPlayRules:
    return ClubPlayRules.objects.filter(club=club).first() or ClubPlayRules(club=club)


def ladder_inputs(club, since: date, until: date) -> tuple[list, list, list]:
    """The season's checked-in attendance, confirmed games and tables, as the pure rule takes them (three queries)."""
    nights = {"night__club": club, "night__on__gte": since, "night__on__lte": until}
    attendance = list(
        Attendance.objects.filter(status=AttendanceStatus.CHECKED_IN, **nights).values_list("night_id", "player_id")
    )
    games = [
        ladder_rule.PairGame(night, a, b, sa, sb, {"a": a, "b": b}.get(ahead) if sa == sb else None)
        for night, a, b, sa, sb, ahead in ClubGame.objects.filter(status=ClubGameStatus.CONFIRMED, **nights)
        .order_by("pk")
        .values_list("night_id", "player_a_id", "player_b_id", "score_a", "score_b", "ahead_before_tiles")
    ]
    seats = (
        TableSeat.objects.filter(**{f"table__{k}": v for k, v in nights.items()})
        .order_by("table_id", "place", "seat")
        .values_list("table_id", "table__night_id", "player_id", "place")
    )
    tables = [
        ladder_rule.TablePlaces(rows[0][1], tuple((player, place) for _, _, player, place in rows))
        for rows in (list(group) for _, group in groupby(seats, key=lambda row: row[0]))
    ]
    return attendance, games, tables


@dataclass(frozen=True)
class LadderLine:
    row: ladder_rule.LadderRow
    player: Player
    rating: int | None


@dataclass(frozen=True)
class Ladder:
    rules: ClubPlayRules
    since: date
    until: date
    lines: list[LadderLine]


def club_ladder(club, today: date | None = None) -> Ladder:
    """The club's season standings with each player's club rating: a fixed number of queries, whatever the data."""
    today = today or timezone.localdate()
    rules = _rules(club)
    since = season_start(rules, today)
    rows = ladder_rule.ladder(ladder_points(rules), *ladder_inputs(club, since, today))
    players = Player.objects.in_bulk([r.player for r in rows])
    ratings = dict(ClubRating.objects.filter(club=club).values_list("player_id", "rating"))
    lines = [LadderLine(r, players[r.player], ratings.get(r.player)) for r in rows if r.player in players]
    return Ladder(rules, since, today, lines)


def player_standing(player: Player, today: date | None = None) -> dict:
    """A member's line on their club's ladder and their club rating, for their page ({} without a club)."""
    if not player.club_id:
        return {}
    ladder = club_ladder(player.club, today)
    line = next((line for line in ladder.lines if line.player.pk == player.pk), None)
    rating = ClubRating.objects.filter(club_id=player.club_id, player=player).first()
    return {"club": player.club, "ladder": ladder, "line": line, "rating": rating, "size": len(ladder.lines)}


def rerate_club(club) -> None:
    """Writes the club's rating list again from its confirmed one-on-one games (none when the club does not rate)."""
    ClubRating.objects.filter(club=club).delete()
    if not _rules(club).rated:
        return
    games = list(
        ClubGame.objects.filter(night__club=club, status=ClubGameStatus.CONFIRMED)
        .order_by("night__on", "night__starts_at", "night_id", "pk")
        .values_list("night_id", "night__on", "player_a_id", "player_b_id", "score_a", "score_b")
    )
    rating: dict[int, int] = {}
    played: dict[int, int] = {}
    last: dict[int, date] = {}
    for _, night_games in groupby(games, key=lambda g: g[0]):
        night_games = list(night_games)
        index: dict[int, int] = {}
        for _, _, a, b, _, _ in night_games:
            index.setdefault(a, len(index))
            index.setdefault(b, len(index))
        people = list(index)
        result = rate_naspa(
            [rating.get(p) or None for p in people],
            [(index[a], index[b], sa, sb, 0) for _, _, a, b, sa, sb in night_games],
            career_games=[played.get(p, 0) for p in people],
            options=RatingOptions(max_rounds=1),
        )
        for person, outcome in zip(people, result.players, strict=True):
            if outcome.new_rating:
                rating[person] = outcome.new_rating
            played[person] = played.get(person, 0) + outcome.games
            last[person] = night_games[0][1]
    ClubRating.objects.bulk_create(
        ClubRating(club=club, player_id=p, rating=r, games=played[p], last_played=last.get(p))
        for p, r in rating.items()
    )
