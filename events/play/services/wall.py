"""What the wall displays at the venue show: the latest published round's pairings, the standings and a
"find my table" list; and a version that changes whenever any of them would, for the screens to poll.

Drafts never show: a round is on the wall once it is published. Standings come from the one read of the
division (reads.read_division) as on every other page. The wall is seen by the whole room, so a result's
scores show as they show to anybody (reads.result_visible): once confirmed. A player who withdrew before the
round is listed with what the round counts for them (`unplayed_label`, as on the round page and in the
standings); a player joining later is not listed on the boards of rounds before they joined."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.db.models import Count, Max, Q, Sum

from events.models import Event
from events.play.models import Division, DivisionPlayer, Game, GameKind, GameStatus, Round, RoundStatus

from .reads import TableSeat, event_table_seats, result_visible, table_seats, unplayed_label


def shown_round(division: Division) -> Round | None:
    """The latest published (or complete) round, or None before the first is published."""
    return division.rounds.exclude(status=RoundStatus.DRAFT).order_by("-number").first()


def wall_version(division: Division) -> str:
    """A short fingerprint of everything the walls show (three small aggregate queries): it changes when a
    round is published or completed, a result is submitted, confirmed or corrected, or a player leaves."""
    return _version(Q(division=division), Q(division=division), division.finalised_at)


def event_wall_version(event: Event) -> str:
    """`wall_version` of the event-wide walls: the same fingerprint over every division, and their names and
    order (four small queries whatever their number)."""
    divisions = list(event.divisions.order_by("position", "pk").values_list("pk", "name", "finalised_at"))
    return _version(Q(division__event=event), Q(division__event=event), divisions)


def _version(rounds_of: Q, seats_of: Q, extra) -> str:
    rounds = Round.objects.filter(rounds_of).exclude(status=RoundStatus.DRAFT)
    r = rounds.aggregate(n=Count("pk"), last=Max("number"), complete=Count("pk", filter=Q(status=RoundStatus.COMPLETE)))
    g = (
        Game.objects.filter(rounds_of)
        .exclude(round__status=RoundStatus.DRAFT)
        .aggregate(
            n=Count("pk"),
            confirmed=Count("pk", filter=Q(status=GameStatus.CONFIRMED)),
            submitted=Max("submitted_at"),
            confirmed_at=Max("confirmed_at"),
            a=Sum("score_a"),
            b=Sum("score_b"),
            spread=Sum("spread_a"),
            boards=Sum("board"),
            players=Sum("player_a_id"),
            rounds=Sum("round_id"),
        )
    )
    s = DivisionPlayer.objects.filter(seats_of).aggregate(
        n=Count("pk"),
        withdrawn=Count("pk", filter=Q(withdrawn_after_round__isnull=False)),
        after=Sum("withdrawn_after_round"),
        top=Max("pk"),  # a seat given to someone else
        numbers=Sum("number"),
        ratings=Sum("rating"),  # the standings show each seat's rating
    )
    text = repr((sorted(r.items()), sorted(g.items()), sorted(s.items()), extra))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass
class Board:
    board: int | None
    first: TableSeat
    second: TableSeat | None
    first_score: int | None
    second_score: int | None
    kind: str  # a label for byes, forfeits and missed rounds; "" for a game
    confirmed: bool
    first_known: bool = False  # who goes first was decided at the pairing (else: drawn at the table)


def boards(division: Division, rnd: Round, seats: dict[int, TableSeat] | None = None) -> list[Board]:
    """The round's boards in board order (the one who goes first on the left), unplayed rounds last; a
    missed round of a player joining later is left out, a withdrawn player's says so (`unplayed_label`).
    Scores as anybody may see them (confirmed).
    `seats`: the division's `table_seats`, when the caller has read them already."""
    # Seats and games as plain rows: a 300-player round's as model instances cost its printouts ~10 ms.
    seats = table_seats(division) if seats is None else seats
    games = rnd.games.order_by("board", "pk").values_list(*GAME_ROW)
    return _boards(games, seats, rnd.number)


GAME_ROW = ("board", "player_a_id", "player_b_id", "score_a", "score_b", "first", "kind", "status", "spread_a")


def _boards(games, seats: dict[int, TableSeat], number: int) -> list[Board]:
    rows = []
    for board, a_id, b_id, sa, sb, first, kind, status, spread in games:
        a, b = seats.get(a_id), seats.get(b_id)
        if a is None and b is None:
            continue  # nobody of the division any more
        if a is None:
            a, b, sa, sb, first = b, None, sb, None, ""
        if b is None and a.joined_in_round > number:
            continue  # not in the event yet when this round was played
        if not result_visible(status, None, directing=False):
            sa = sb = None
        if first == "b" and b is not None:
            a, b, sa, sb = b, a, sb, sa
        rows.append(
            Board(
                board=board,
                first=a,
                second=b,
                first_score=sa,
                second_score=sb,
                kind=""
                if kind == GameKind.NORMAL
                else unplayed_label(kind, spread, a, number)
                if b is None
                else GameKind(kind).label,
                confirmed=status == GameStatus.CONFIRMED,
                first_known=bool(first),
            )
        )
    rows.sort(key=lambda row: (row.board is None, row.board or 0, row.first.player.name.casefold()))
    return rows


@dataclass
class Finder:
    name: str
    number: int
    board: int | None
    opponent: TableSeat | None
    kind: str


def find_my_table(division: Division, rnd: Round) -> list[Finder]:
    """Every player of the round, alphabetically by name, with their board and opponent."""
    found = []
    for row in boards(division, rnd):
        found.append(Finder(row.first.player.name, row.first.number, row.board, row.second, row.kind))
        if row.second is not None:
            found.append(Finder(row.second.player.name, row.second.number, row.board, row.first, row.kind))
    return sorted(found, key=lambda f: (f.name.casefold(), f.number))


@dataclass
class DivisionWall:
    """One division on the event-wide wall: the round it shows (None before one is published) and its boards."""

    division: Division
    round: Round | None
    boards: list[Board]


def event_walls(event: Event) -> list[DivisionWall]:
    """Every division's latest published round and its boards, in division order, as each division's own wall
    shows them (five queries whatever the number of divisions)."""
    divisions = list(event.divisions.order_by("position", "name"))
    shown: dict[int, Round] = {}
    for rnd in Round.objects.filter(division__event=event).exclude(status=RoundStatus.DRAFT).order_by("-number"):
        shown.setdefault(rnd.division_id, rnd)
    seats = event_table_seats(event)
    games: dict[int, list] = {}
    rows = (
        Game.objects.filter(round__in=list(shown.values())).order_by("board", "pk").values_list("round_id", *GAME_ROW)
    )
    for round_id, *row in rows:
        games.setdefault(round_id, []).append(row)
    walls = []
    for division in divisions:
        rnd = shown.get(division.pk)
        if rnd is not None:
            rnd.division = division
        found = _boards(games.get(rnd.pk, []), seats.get(division.pk, {}), rnd.number) if rnd else []
        walls.append(DivisionWall(division, rnd, found))
    return walls


@dataclass
class EventFinder:
    name: str
    division: Division
    round: int
    number: int
    board: int | None
    opponent: TableSeat | None
    kind: str


def event_find_my_table(walls: list[DivisionWall]) -> list[EventFinder]:
    """Every player of every division's shown round, alphabetically by name, with their division, board and
    opponent: one list for a hall of several divisions."""
    found = []
    for wall in walls:
        for row in wall.boards:
            for me, them in ((row.first, row.second), (row.second, row.first)):
                if me is not None:
                    found.append(
                        EventFinder(
                            me.player.name, wall.division, wall.round.number, me.number, row.board, them, row.kind
                        )
                    )
    return sorted(found, key=lambda f: (f.name.casefold(), f.division.position, f.division.name, f.number))
