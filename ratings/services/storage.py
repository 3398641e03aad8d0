"""Writing a plan: its change rows and the players' current ratings. The caller holds the list's
lock inside a transaction.

On PostgreSQL the change rows stream into a binary COPY as the plan computes them, each
division's rows encoded at once from its arrays. A small rewrite (a
correction near the end of the history) deletes the rows it replaces and copies the new ones
into the live table. A large one (re-rating most of the history) builds the table afresh: the
rows it keeps go into a new table, whose keys and indexes are then built in bulk and kept up as
the new rows stream in (the database works on them while the plan rates); the index whose keys
come in no order is built after, and the foreign keys are checked once each, in bulk, instead of
once per row; the new table then takes the old one's place and names. Elsewhere (SQLite in
development) rows go in with bulk_create.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from datetime import date

import numpy as np
from django.db import connection
from django.db.models import Max, Q
from django.utils import timezone

from clubsite.kit.status import move
from events.play.models import Division

from ..models import PlayerRating, RatedEvent, RatingChange, RatingList, RatingRun, RunStatus
from .compute import ChangeBlock, Plan

# A rewrite of at least this many rows, and at least half the table, builds the table afresh.
SWAP_MIN_ROWS = 20_000
# Indexes of the change table whose keys come in no order as a re-rate writes its rows (by day): built in bulk
# once the rows are in, where the others are kept up as the rows come (see _rebuild_changes).
SCATTERED_INDEXES = ("rating_change_history",)


def is_postgres() -> bool:
    return connection.vendor == "postgresql"


def roomy_transaction() -> None:
    """Room in memory for a re-rate's sorts and index builds, for this transaction only (PostgreSQL). A list's
    whole history sorted by player (each one's standing before the first event re-rated) took the default 4 MB
    to disk; the rebuilt change table's indexes take the maintenance default of 64 MB."""
    if is_postgres():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL work_mem = '256MB'")
            cursor.execute("SET LOCAL maintenance_work_mem = '512MB'")


def copy_rows(table: str, columns: list[str], rows: Iterable[tuple]) -> None:
    """Writes rows into a table (its name quoted as needed) with COPY (PostgreSQL)."""
    qn = connection.ops.quote_name
    sql = f"COPY {table} ({', '.join(qn(c) for c in columns)}) FROM STDIN"
    with connection.cursor() as cursor:
        with cursor.cursor.copy(sql) as copy:
            for row in rows:
                copy.write_row(row)


def _json(value) -> str:
    return "{}" if type(value) is dict and not value else json.dumps(value)


# The change table's columns as the binary COPY writes them: (model field, binary type); the state last.
_BINARY_COLUMNS = (
    ("id", ">i8"),
    ("event_date", ">i4"),
    ("pre", ">i4"),
    ("post", ">i4"),
    ("career_games", ">i4"),
    ("games", ">i4"),
    ("expected", ">f8"),
    ("actual", ">f8"),
    ("k", ">f8"),
    ("bonus", ">f8"),
    ("feedback", ">f8"),
    ("performance", ">f8"),
    ("is_newcomer", "?"),
    ("deviation", ">f8"),
    ("division", ">i8"),
    ("player", ">i8"),
    ("rating_list", ">i8"),
    ("run", ">i8"),
    ("pre_state", None),
)
_COLUMNS = [RatingChange._meta.get_field(name).column for name, _ in _BINARY_COLUMNS]
_NULLABLE = ("expected", "performance", "deviation", "run")
_BINARY_SIGNATURE = b"PGCOPY\n\xff\r\n\x00" + bytes(8)
_BINARY_TRAILER = b"\xff\xff"
_PG_EPOCH = date(2000, 1, 1).toordinal()
# Rows encoded and sent at a time.
_BATCH_ROWS = 20_000


def _jsonb(value: dict) -> bytes:
    data = b"\x01" + _json(value).encode()  # jsonb's binary form: version 1, then the text
    return len(data).to_bytes(4, "big") + data


def _encode_changes(blocks: list[ChangeBlock], first_id: int, list_id: int, run_id: int | None) -> bytes:
    """The blocks' rows in PostgreSQL's binary COPY format (no signature), ids from `first_id` on.

    Rows are encoded by their pattern of NULLs (a NULL field has no value bytes): each pattern's
    rows at once, as records of a numpy type. The ids keep the rows' order, whatever the pattern."""
    sizes = [len(b) for b in blocks]
    n = sum(sizes)
    values = {
        "id": np.arange(first_id, first_id + n, dtype=np.int64),
        "event_date": np.repeat([b.day.toordinal() - _PG_EPOCH for b in blocks], sizes),
        "division": np.repeat([b.division_id for b in blocks], sizes),
        "rating_list": np.full(n, list_id, dtype=np.int64),
        "run": np.full(n, run_id if run_id is not None else 0, dtype=np.int64),
    }
    for name, _ in _BINARY_COLUMNS:
        if name not in values and name not in ("is_newcomer", "pre_state"):
            values[name] = np.concatenate([getattr(b, name) for b in blocks])
    values["is_newcomer"] = values["pre"] == 0
    states = None
    if any(b.pre_state is not None for b in blocks):
        states = [s for b in blocks for s in (b.pre_state if b.pre_state is not None else [{}] * len(b))]
    nulls = {name: np.isnan(values[name]) for name in ("expected", "performance", "deviation")}
    nulls["run"] = np.full(n, run_id is None)
    pattern = np.zeros(n, dtype=np.int64)
    for bit, name in enumerate(_NULLABLE):
        pattern |= nulls[name].astype(np.int64) << bit
    empty_state = _jsonb({})
    parts = []
    for code in np.unique(pattern).tolist():
        rows = np.flatnonzero(pattern == code)
        null = {name for bit, name in enumerate(_NULLABLE) if code >> bit & 1}
        fields = [("count", ">i2")]
        for name, kind in _BINARY_COLUMNS[:-1]:
            fields.append((f"{name}_size", ">i4"))
            if name not in null:
                fields.append((name, kind))
        if states is None:
            fields.append(("pre_state", f"S{len(empty_state)}"))
        records = np.empty(rows.size, dtype=np.dtype(fields))
        records["count"] = len(_BINARY_COLUMNS)
        for name, kind in _BINARY_COLUMNS[:-1]:
            if name in null:
                records[f"{name}_size"] = -1
            else:
                records[f"{name}_size"] = np.dtype(kind).itemsize
                records[name] = values[name][rows]
        if states is None:
            records["pre_state"] = empty_state
            parts.append(records.tobytes())
        else:
            for record, i in zip(records, rows.tolist(), strict=True):
                parts.append(record.tobytes() + _jsonb(states[i]))
    return b"".join(parts)


def _batches(blocks: Iterable[ChangeBlock]) -> Iterator[list[ChangeBlock]]:
    batch, size = [], 0
    for block in blocks:
        batch.append(block)
        size += len(block)
        if size >= _BATCH_ROWS:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def copy_changes(table: str, blocks: Iterable[ChangeBlock], first_id: int, list_id: int, run_id: int | None) -> int:
    """Writes the blocks' change rows into a table with a binary COPY, with consecutive ids from
    `first_id` on. Returns the number of rows written."""
    qn = connection.ops.quote_name
    sql = f"COPY {table} ({', '.join(qn(c) for c in _COLUMNS)}) FROM STDIN (FORMAT BINARY)"
    written = 0
    with connection.cursor() as cursor:
        with cursor.cursor.copy(sql) as copy:
            copy.write(_BINARY_SIGNATURE)
            for batch in _batches(blocks):
                copy.write(_encode_changes(batch, first_id + written, list_id, run_id))
                written += sum(len(b) for b in batch)
            copy.write(_BINARY_TRAILER)
    return written


def _replaced(plan: Plan):
    """The list's change rows this plan replaces."""
    return RatingChange.objects.filter(_replaced_condition(plan))


def _replaced_condition(plan: Plan) -> Q:
    return Q(rating_list=plan.rating_list) & (plan.changes_from() | _dropped(plan))


def _dropped(plan: Plan) -> Q:
    """The change rows of the events that leave the list."""
    if not plan.dropped_event_ids:
        return Q(pk__in=[])
    return Q(division_id__in=Division.objects.filter(event_id__in=plan.dropped_event_ids).values("pk"))


def _table_rows() -> float:
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE oid = %s::regclass", [RatingChange._meta.db_table])
        return max(cursor.fetchone()[0], 0)


def _change_objects(blocks: Iterable[ChangeBlock], list_id: int, run_id: int | None) -> Iterator[RatingChange]:
    def value(x: float) -> float | None:
        return None if np.isnan(x) else x

    for b in blocks:
        states = b.pre_state if b.pre_state is not None else [{}] * len(b)
        for i in range(len(b)):
            pre = int(b.pre[i])
            yield RatingChange(
                rating_list_id=list_id,
                run_id=run_id,
                division_id=b.division_id,
                player_id=int(b.player[i]),
                event_date=b.day,
                pre=pre,
                post=int(b.post[i]),
                career_games=int(b.career_games[i]),
                games=int(b.games[i]),
                expected=value(float(b.expected[i])),
                actual=float(b.actual[i]),
                k=float(b.k[i]),
                bonus=float(b.bonus[i]),
                feedback=float(b.feedback[i]),
                performance=value(float(b.performance[i])),
                is_newcomer=pre == 0,
                deviation=value(float(b.deviation[i])),
                pre_state=states[i],
            )


def _take_ids(n: int) -> int:
    """The first of n consecutive ids taken from the change table's sequence (the caller holds a
    lock on the table, so no other writer takes ids in between)."""
    table = RatingChange._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence(%s, 'id'), nextval(pg_get_serial_sequence(%s, 'id')) + %s - 1)",
            [table, table, n],
        )
        return cursor.fetchone()[0] - n + 1


def write_changes(plan: Plan, run_id: int | None, blocks: Iterable[ChangeBlock]) -> None:
    """Replaces the plan's change rows with `blocks` (consumed as they come)."""
    list_id = plan.rating_list.pk
    if not is_postgres():
        _replaced(plan).delete()
        objects = list(_change_objects(blocks, list_id, run_id))
        RatingChange.objects.bulk_create(objects, batch_size=1000)
        return
    if plan.row_count >= SWAP_MIN_ROWS and 2 * plan.row_count >= _table_rows():
        _rebuild_changes(plan, blocks, list_id, run_id)
        return
    # A small rewrite: its rows are computed first, to take their ids in one step before the COPY.
    blocks = list(blocks)
    _replaced(plan).delete()
    table = connection.ops.quote_name(RatingChange._meta.db_table)
    with connection.cursor() as cursor:
        # Other writers of change rows wait, so the ids taken stay consecutive (readers carry on).
        cursor.execute(f"LOCK TABLE {table} IN SHARE ROW EXCLUSIVE MODE")
    count = sum(len(b) for b in blocks)
    if count:
        copy_changes(table, blocks, _take_ids(count), list_id, run_id)


def _rebuild_changes(plan: Plan, blocks: Iterable[ChangeBlock], list_id: int, run_id: int | None) -> None:
    """Builds the change table afresh: every row but the replaced ones, its keys and indexes, then `blocks`, then
    its foreign keys; all under the old ones' names, and puts it in the old one's place."""
    qn = connection.ops.quote_name
    table = RatingChange._meta.db_table
    fresh = f"{table}_next"
    with connection.cursor() as cursor:
        # Other writers wait (readers carry on with the old table until the swap commits).
        cursor.execute(f"LOCK TABLE {qn(table)} IN SHARE ROW EXCLUSIVE MODE")
        cursor.execute(
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE conrelid = %s::regclass AND contype IN ('p', 'u', 'f') ORDER BY contype DESC, conname",
            [table],
        )
        constraints = cursor.fetchall()
        cursor.execute(
            "SELECT i.relname, pg_get_indexdef(i.oid) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid "
            "WHERE x.indrelid = %s::regclass "
            "AND NOT EXISTS (SELECT 1 FROM pg_constraint k "
            "WHERE k.conindid = x.indexrelid AND k.conrelid = x.indrelid) "
            "ORDER BY i.relname",
            [table],
        )
        indexes = cursor.fetchall()
        cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id'))", [table])
        next_id = cursor.fetchone()[0]

        cursor.execute(f"DROP TABLE IF EXISTS {qn(fresh)}")
        cursor.execute(f"CREATE TABLE {qn(fresh)} (LIKE {qn(table)} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)")
        columns = [f.column for f in RatingChange._meta.concrete_fields]
        # The replaced rows' own condition, negated: a NOT IN over their ids is quadratic once the ids no
        # longer fit in PostgreSQL's work memory (a million-game list).
        kept = (
            RatingChange.objects.exclude(_replaced_condition(plan))
            .order_by("pk")
            .values_list(*[f.attname for f in RatingChange._meta.concrete_fields])
        )
        sql, params = kept.query.sql_with_params()
        cursor.execute(f"INSERT INTO {qn(fresh)} ({', '.join(qn(c) for c in columns)}) {sql}", params)

        # The kept rows' keys and indexes are built once each, in bulk, under temporary names; the new rows are
        # then added to them one by one as they stream in: the database does that on its own core while this
        # process rates (building them after the stream left both cores idle but one, for four seconds at 5M
        # games). SCATTERED_INDEXES, slower kept up row by row than the rating, are built after the stream, and
        # the foreign keys are added then and checked once, in bulk: row by row, a deferred check would queue a
        # trigger event for every row.
        renames = []
        foreign = [(name, definition) for name, definition in constraints if definition.startswith("FOREIGN KEY")]
        for i, (name, definition) in enumerate(constraints):
            if (name, definition) in foreign:
                continue  # added after the stream
            temporary = f"{fresh}_c{i}"
            cursor.execute(f"ALTER TABLE {qn(fresh)} ADD CONSTRAINT {qn(temporary)} {definition}")
            renames.append(f"ALTER TABLE {qn(table)} RENAME CONSTRAINT {qn(temporary)} TO {qn(name)}")
        on_table = re.compile(rf" ON (\S+\.)?{re.escape(qn(table))} | ON (\S+\.)?{re.escape(table)} ")

        def build(i, name, definition):
            temporary = f"{fresh}_i{i}"
            definition = definition.replace(f" {qn(name)} ON ", f" {qn(temporary)} ON ", 1).replace(
                f" {name} ON ", f" {temporary} ON ", 1
            )
            definition = on_table.sub(f" ON {qn(fresh)} ", definition, count=1)
            cursor.execute(definition)
            renames.append(f"ALTER INDEX {qn(temporary)} RENAME TO {qn(name)}")

        for i, (name, definition) in enumerate(indexes):
            if name not in SCATTERED_INDEXES:
                build(i, name, definition)

        written = copy_changes(qn(fresh), blocks, next_id, list_id, run_id)
        for i, (name, definition) in enumerate(indexes):
            if name in SCATTERED_INDEXES:
                build(i, name, definition)
        identity = f"ADD GENERATED BY DEFAULT AS IDENTITY (START WITH {int(next_id + written)})"
        cursor.execute(f"ALTER TABLE {qn(fresh)} ALTER COLUMN id {identity}")
        for i, (name, definition) in enumerate(foreign):
            temporary = f"{fresh}_f{i}"
            cursor.execute(f"ALTER TABLE {qn(fresh)} ADD CONSTRAINT {qn(temporary)} {definition}")
            renames.append(f"ALTER TABLE {qn(table)} RENAME CONSTRAINT {qn(temporary)} TO {qn(name)}")

        # Rows the transaction wrote earlier are checked now, so the old table can go.
        deferred = ", ".join(qn(name) for name, _ in foreign)
        if deferred:
            cursor.execute(f"SET CONSTRAINTS {deferred} IMMEDIATE")
        cursor.execute(f"DROP TABLE {qn(table)}")
        cursor.execute(f"ALTER TABLE {qn(fresh)} RENAME TO {qn(table)}")
        for statement in renames:
            cursor.execute(statement)
        cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [table])
        sequence = cursor.fetchone()[0]
        cursor.execute(f"ALTER SEQUENCE {sequence} RENAME TO {qn(table + '_id_seq')}")
        if deferred:
            cursor.execute(f"SET CONSTRAINTS {deferred} DEFERRED")
        cursor.execute(f"ANALYZE {qn(table)}")


_RATING_FIELDS = ["rating", "games", "peak", "last_played", "deviation", "state"]


def write_ratings(rating_list: RatingList, to_delete: list[int], to_create: list[tuple], to_update: list[tuple]):
    """to_create: (player id, *_RATING_FIELDS); to_update: (pk, *_RATING_FIELDS)."""
    PlayerRating.objects.filter(pk__in=to_delete).delete()
    if not is_postgres():
        PlayerRating.objects.bulk_create(
            [
                PlayerRating(rating_list=rating_list, player_id=r[0], **dict(zip(_RATING_FIELDS, r[1:], strict=True)))
                for r in to_create
            ],
            batch_size=1000,
        )
        rows = []
        for pk, *values in to_update:
            row = PlayerRating(pk=pk, rating_list=rating_list)
            for name, value in zip(_RATING_FIELDS, values, strict=True):
                setattr(row, name, value)
            rows.append(row)
        PlayerRating.objects.bulk_update(rows, _RATING_FIELDS, batch_size=1000)
        return
    state_at = 1 + _RATING_FIELDS.index("state")
    qn = connection.ops.quote_name
    table = qn(PlayerRating._meta.db_table)
    fields = [PlayerRating._meta.get_field(f) for f in _RATING_FIELDS]
    if to_create:
        defaults = [f for f in PlayerRating._meta.concrete_fields if f.name in ("seed_rating", "seed_games", "seed_on")]
        copy_rows(
            table,
            ["rating_list_id", "player_id"] + [f.column for f in fields] + [f.column for f in defaults],
            (
                (
                    rating_list.pk,
                    *r[:state_at],
                    _json(r[state_at]),
                    *r[state_at + 1 :],
                    *[f.get_default() for f in defaults],
                )
                for r in to_create
            ),
        )
    if to_update:
        temp = "pg_temp.rating_update"
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TABLE IF EXISTS {temp}")
            cursor.execute(
                f"CREATE TABLE {temp} (id bigint, rating integer, games integer, peak integer, "
                "last_played date, deviation double precision, state jsonb) ON COMMIT DROP"
            )
            copy_rows(
                temp,
                ["id"] + _RATING_FIELDS,
                ((*r[:state_at], _json(r[state_at]), *r[state_at + 1 :]) for r in to_update),
            )
            cursor.execute(f"ANALYZE {temp}")
            assignments = ", ".join(f"{qn(f.column)} = u.{qn(f.column)}" for f in fields)
            # Only the rows that change: re-rating mostly gives the same standings, and an unchanged row
            # written again is a dead row for the vacuum to clear (and the rating list to read past).
            before = ", ".join(f"r.{qn(f.column)}" for f in fields)
            after = ", ".join(f"u.{qn(f.column)}" for f in fields)
            cursor.execute(
                f"UPDATE {table} AS r SET {assignments} FROM {temp} AS u "
                f"WHERE r.id = u.id AND ({before}) IS DISTINCT FROM ({after})"
            )
            cursor.execute(f"DROP TABLE {temp}")


def _of_players(rows, player_ids: list[int], chunk: int = 5000):
    """The rows (player id first) of a query on one list that belong to these players: in chunks
    of players, or for many players the whole list at once."""
    if len(player_ids) > chunk:
        wanted = set(player_ids)
        return [r for r in rows if r[0] in wanted]
    return [
        r
        for start in range(0, len(player_ids), chunk)
        for r in rows.filter(player_id__in=player_ids[start : start + chunk])
    ]


def apply_plan(
    rating_list: RatingList, plan: Plan, run: RatingRun | None, progress: Callable[[int], None] | None = None
) -> None:
    """Rates the plan's events, writing their change rows as they come, then the current
    ratings, the ledger and the run; the caller holds the list's lock inside a transaction."""
    # Peak and last played: the earlier history (read before it is rewritten), then the new rows.
    player_ids = list(plan.affected)
    peak: dict[int, int] = {}
    last: dict = {}
    earlier = (
        RatingChange.objects.filter(plan.changes_before(), rating_list=rating_list)
        .values("player_id")
        .annotate(peak=Max("post"), last=Max("event_date"))
        .values_list("player_id", "peak", "last")
        .order_by()
    )
    for pid, p, d in _of_players(earlier, player_ids):
        peak[pid], last[pid] = p, d

    write_changes(plan, run.pk if run is not None else None, plan.blocks(progress))
    RatedEvent.objects.filter(rating_list=rating_list, event_id__in=plan.dropped_event_ids).delete()

    now = timezone.now()
    event_ids = [e.pk for e in plan.events]
    RatedEvent.objects.filter(rating_list=rating_list, event_id__in=event_ids).delete()
    fields = ("rating_list_id", "event_id", "starts_on", "run_id", "rated_at")
    ledger = [(rating_list.pk, e.pk, e.starts_on, run.pk if run is not None else None, now) for e in plan.events]
    if is_postgres():
        columns = [RatedEvent._meta.get_field(f).column for f in fields]
        copy_rows(connection.ops.quote_name(RatedEvent._meta.db_table), columns, ledger)
    else:
        RatedEvent.objects.bulk_create(
            [RatedEvent(**dict(zip(fields, row, strict=True))) for row in ledger],
            batch_size=1000,
        )

    for pid, p in plan.peak.items():
        if p > peak.get(pid, 0):
            peak[pid] = p
    last.update(plan.last)  # the new rows are later than the earlier ones

    existing: dict[int, tuple[int, int]] = {}
    # Unordered: the model's ordering joins every player to sort what goes into a dict.
    current = (
        PlayerRating.objects.filter(rating_list=rating_list).order_by().values_list("player_id", "pk", "seed_rating")
    )
    for pid, pk, seed_rating in _of_players(current, player_ids):
        existing[pid] = (pk, seed_rating)
    to_update, to_create, to_delete = [], [], []
    for pid, s in plan.final.items():
        row = existing.get(pid)
        if row is None:
            if s.rating == 0:
                continue
            key, seed_rating, rows = pid, 0, to_create
        elif s.rating == 0 and row[1] == 0:
            to_delete.append(row[0])
            continue
        else:
            key, seed_rating, rows = row[0], row[1], to_update
        rows.append(
            (key, s.rating, s.games, max(peak.get(pid, 0), seed_rating, s.rating), last.get(pid), s.deviation, s.state)
        )
    write_ratings(rating_list, to_delete, to_create, to_update)
    RatingList.objects.filter(pk=rating_list.pk).update(version=rating_list.version + 1)
    rating_list.version += 1

    if run is not None:
        move(run, RunStatus.DONE)
        run.progress = 100
        run.finished_at = now
        run.events_rated = len(plan.events)
        run.players_rated = len(plan.last)
        run.error = ""
        run.save(update_fields=["status", "progress", "finished_at", "events_rated", "players_rated", "error"])
