"""Reading what rating needs of many events, a division at a time: each division's rated games and its seats.

On PostgreSQL the database groups the rows by division and packs each division's numbers into one binary string
(each 8 bytes, big-endian), sent in binary: a rating of the whole history reads five million games as some
twenty-five thousand strings, each parsed at once, with no Python object per game. Elsewhere (SQLite in
development) the same is built from the ORM's rows.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import psycopg
from django.db import connection

from events.play.models import Division, DivisionPlayer, Game, GameKind, GameStatus

# A rated game's numbers, in order: round index (0-based), player a, player b, score a, score b.
GAME_FIELDS = 5
_BIG_ENDIAN = np.dtype(">i8")


@dataclass
class DivisionGames:
    division_id: int
    event_id: int
    last_round: int  # the last round with a game (byes included)
    unconfirmed: int  # games whose result is not confirmed
    rated: np.ndarray  # (games, GAME_FIELDS) int64: the confirmed normal games with both scores, in round order


def _unpack(data: bytes | None, width: int) -> np.ndarray:
    if not data:
        return np.empty((0, width), dtype=np.int64)
    return np.frombuffer(data, dtype=_BIG_ENDIAN).astype(np.int64).reshape(-1, width)


def _binary_rows(sql: str, params: list) -> list[tuple]:
    """The query's rows with results in binary (a packed string comes as its bytes, not twice as many in hex),
    on the connection's own session and transaction."""
    connection.ensure_connection()
    with psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(sql, params, binary=True)
        return cursor.fetchall()


def _of_events(model, alias: str) -> tuple[str, str, str]:
    """For rows of `model` (one with a division) named `alias`: their division's column, their event's column, and
    the FROM ... WHERE clause keeping the rows of the events given as the query's last parameter (an array)."""
    qn = connection.ops.quote_name
    division = Division._meta
    own = f"{alias}.{qn(model._meta.get_field('division').column)}"
    event = f"d.{qn(division.get_field('event').column)}"
    clause = (
        f"FROM {qn(model._meta.db_table)} {alias} JOIN {qn(division.db_table)} d ON d.{qn(division.pk.column)} = {own} "
        f"WHERE {event} = ANY(%s)"
    )
    return own, event, clause


def division_games(event_ids: list[int]) -> list[DivisionGames]:
    """Every division of these events that has games, with its rated games (in round order, then as entered)."""
    if connection.vendor != "postgresql":
        return _division_games_orm(event_ids)
    qn = connection.ops.quote_name
    g = {f.name: f"g.{qn(f.column)}" for f in Game._meta.concrete_fields}
    rated = (
        f"{g['status']} = %s AND {g['kind']} = %s AND {g['player_b']} IS NOT NULL "
        f"AND {g['score_a']} IS NOT NULL AND {g['score_b']} IS NOT NULL"
    )
    packed = " || ".join(
        f"int8send(({expression})::bigint)"
        for expression in (f"{g['round_number']} - 1", g["player_a"], g["player_b"], g["score_a"], g["score_b"])
    )
    division, event, of_events = _of_events(Game, "g")
    sql = (
        f"SELECT {division}, {event}, max({g['round_number']}), "
        f"count(*) FILTER (WHERE {g['status']} <> %s), "
        f"string_agg({packed}, ''::bytea ORDER BY {g['round_number']}, {g['id']}) FILTER (WHERE {rated}) "
        f"{of_events} GROUP BY 1, 2"
    )
    confirmed = GameStatus.CONFIRMED.value
    rows = _binary_rows(sql, [confirmed, confirmed, GameKind.NORMAL.value, list(event_ids)])
    return [
        DivisionGames(int(d), int(e), int(last), int(unconfirmed), _unpack(data, GAME_FIELDS))
        for d, e, last, unconfirmed, data in rows
    ]


# What rating reads of a game, as the ORM names it.
GAME_VALUES = (
    "division__event_id",
    "division_id",
    "round_number",
    "kind",
    "status",
    "player_a_id",
    "player_b_id",
    "score_a",
    "score_b",
)


def _division_games_orm(event_ids: list[int]) -> list[DivisionGames]:
    rows = (
        Game.objects.filter(division__event_id__in=event_ids)
        .order_by("division_id", "round_number", "pk")
        .values_list(*GAME_VALUES)
    )
    found: dict[int, DivisionGames] = {}
    games: dict[int, list] = defaultdict(list)
    for e, d, rnd, kind, status, a, b, sa, sb in rows:
        one = found.setdefault(d, DivisionGames(d, e, 0, 0, np.empty((0, GAME_FIELDS), dtype=np.int64)))
        one.last_round = max(one.last_round, rnd)
        if status != GameStatus.CONFIRMED:
            one.unconfirmed += 1
        elif kind == GameKind.NORMAL and b is not None and sa is not None and sb is not None:
            games[d].append((rnd - 1, a, b, sa, sb))
    for d, rated in games.items():
        found[d].rated = np.array(rated, dtype=np.int64).reshape(-1, GAME_FIELDS)
    return list(found.values())


# A division's seats: its players' ids in increasing order, and each one's seat number (tsh's player number).
Seats = tuple[np.ndarray, np.ndarray]


def division_seats(event_ids: list[int]) -> dict[int, Seats]:
    """The seats of every division of these events that has any."""
    if connection.vendor != "postgresql":
        table = DivisionPlayer.objects.filter(division__event_id__in=event_ids).values_list(
            "division_id", "player_id", "number"
        )
        return seat_tables(table)
    qn = connection.ops.quote_name
    player, number = (f"s.{qn(DivisionPlayer._meta.get_field(name).column)}" for name in ("player", "number"))
    division, _, of_events = _of_events(DivisionPlayer, "s")
    sql = (
        f"SELECT {division}, string_agg(int8send({player}) || int8send({number}::bigint), ''::bytea "
        f"ORDER BY {player}) {of_events} GROUP BY 1"
    )
    seats = {}
    for d, data in _binary_rows(sql, [list(event_ids)]):
        table = _unpack(data, 2)
        seats[int(d)] = (table[:, 0], table[:, 1])
    return seats


def seat_tables(rows) -> dict[int, Seats]:
    """Seats by division, from (division id, player id, seat number) rows."""
    table = np.asarray(rows if isinstance(rows, np.ndarray) else list(rows), dtype=np.int64).reshape(-1, 3)
    table = table[np.lexsort((table[:, 1], table[:, 0]))]
    cuts = np.flatnonzero(np.diff(table[:, 0])) + 1
    return {int(part[0, 0]): (part[:, 1], part[:, 2]) for part in np.split(table, cuts) if len(part)}
