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

from django.db import connection

from events.models import Event
from events.play.models import Division, DivisionPlayer, Game, GameKind, GameStatus, Round, RoundStatus

from .reads import TableSeat, event_table_seats, result_visible, table_seats, unplayed_label


def shown_round(division: Division) -> Round | None:
    """The latest published (or complete) round, or None before the first is published."""
    return division.rounds.exclude(status=RoundStatus.DRAFT).order_by("-number").first()


def wall_version(division: Division) -> str:
    """A short fingerprint of everything the walls show (one query): it changes when a round is published or
    completed, a result is submitted, confirmed or corrected, or a seat changes."""
    return _version("= %s", division.pk, division.finalised_at)


def event_wall_version(event: Event) -> str:
    """`wall_version` of the event-wide walls: the same fingerprint over every division, and their names and
    order (two queries whatever their number)."""
    divisions = list(event.divisions.order_by("position", "pk").values_list("pk", "name", "finalised_at"))
    return _version(f"IN (SELECT id FROM {_table(Division)} WHERE event_id = %s)", event.pk, divisions)


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _version_sql(divisions: str) -> str:
    """The rounds, games and seats of the divisions `divisions` selects (`division_id <divisions>`), summed in one
    query: every poll of a wall and of a polled page asks it, and each query costs the web worker its own round
    trip and statement building."""
    rounds, games, seats = _table(Round), _table(Game), _table(DivisionPlayer)
    return f"""
        SELECT r.n, r.last, r.complete,
               g.n, g.confirmed, g.submitted, g.confirmed_at, g.a, g.b, g.spread, g.boards, g.players, g.rounds,
               s.n, s.withdrawn, s.after, s.top, s.numbers, s.ratings
        FROM (SELECT COUNT(*) AS n, MAX(number) AS last, SUM(CASE WHEN status = %s THEN 1 ELSE 0 END) AS complete
              FROM {rounds} WHERE division_id {divisions} AND status <> %s) r,
             (SELECT COUNT(*) AS n, SUM(CASE WHEN g.status = %s THEN 1 ELSE 0 END) AS confirmed,
                     MAX(g.submitted_at) AS submitted, MAX(g.confirmed_at) AS confirmed_at,
                     SUM(g.score_a) AS a, SUM(g.score_b) AS b, SUM(g.spread_a) AS spread, SUM(g.board) AS boards,
                     SUM(g.player_a_id) AS players, SUM(g.round_id) AS rounds
              FROM {games} g JOIN {rounds} gr ON gr.id = g.round_id
              WHERE g.division_id {divisions} AND gr.status <> %s) g,
             (SELECT COUNT(*) AS n, SUM(CASE WHEN withdrawn_after_round IS NULL THEN 0 ELSE 1 END) AS withdrawn,
                     SUM(withdrawn_after_round) AS after, MAX(id) AS top, SUM(number) AS numbers,
                     SUM(rating) AS ratings
              FROM {seats} WHERE division_id {divisions}) s"""


def _version(divisions: str, key: int, extra) -> str:
    """The fingerprint: the seats' numbers, ratings and replacements, as the standings show them, among the rest."""
    draft, complete, confirmed = RoundStatus.DRAFT.value, RoundStatus.COMPLETE.value, GameStatus.CONFIRMED.value
    params = [complete, key, draft, confirmed, key, draft, key]
    with connection.cursor() as cursor:
        cursor.execute(_version_sql(divisions), params)
        row = cursor.fetchone()
    text = repr((row, extra))
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
