"""Writing a plan: its change rows and the players' current ratings. The caller holds the list's
lock inside a transaction.

On PostgreSQL the change rows stream into COPY as the plan computes them. A small rewrite (a
correction near the end of the history) deletes the rows it replaces and copies the new ones
into the live table. A large one (re-rating most of the history) builds the table afresh: the
rows it keeps, then the new rows, into a new table without indexes or foreign keys, which are
then built and checked once each, in bulk, instead of once per row; the new table then takes
the old one's place and names. Elsewhere (SQLite in development) rows go in with bulk_create.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from itertools import islice

from django.db import connection
from django.db.models import Max, Q
from django.utils import timezone

from events.models import Division

from ..models import PlayerRating, RatedEvent, RatingChange, RatingList, RatingRun, RunStatus
from .compute import CHANGE_FIELDS, Plan

# A rewrite of at least this many rows, and at least half the table, builds the table afresh.
SWAP_MIN_ROWS = 20_000


def is_postgres() -> bool:
    return connection.vendor == "postgresql"


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


def _copy_ready(rows: Iterable[tuple], rating_list_id: int, run_id: int | None):
    """Change rows with the list and run appended and the state as JSON text."""
    for c in rows:
        yield (*c[:-1], _json(c[-1]), rating_list_id, run_id)


_COLUMNS = [RatingChange._meta.get_field(f).column for f in CHANGE_FIELDS] + ["rating_list_id", "run_id"]


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


def write_changes(plan: Plan, run_id: int | None, rows: Iterable[tuple]) -> None:
    """Replaces the plan's change rows with `rows` (CHANGE_FIELDS tuples, consumed as they come)."""
    list_id = plan.rating_list.pk
    if not is_postgres():
        _replaced(plan).delete()
        objects = (
            RatingChange(run_id=run_id, rating_list_id=list_id, **dict(zip(CHANGE_FIELDS, c, strict=True)))
            for c in rows
        )
        while batch := list(islice(objects, 1000)):
            RatingChange.objects.bulk_create(batch)
        return
    if plan.row_count >= SWAP_MIN_ROWS and 2 * plan.row_count >= _table_rows():
        _rebuild_changes(plan, _copy_ready(rows, list_id, run_id))
        return
    _replaced(plan).delete()
    copy_rows(connection.ops.quote_name(RatingChange._meta.db_table), _COLUMNS, _copy_ready(rows, list_id, run_id))


def _rebuild_changes(plan: Plan, rows: Iterable[tuple]) -> None:
    """Builds the change table afresh: every row but the replaced ones, then `rows`; then its
    indexes and constraints, under the old ones' names, and puts it in the old one's place."""
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
        cursor.execute(
            f"ALTER TABLE {qn(fresh)} ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (START WITH {int(next_id)})"
        )
        copy_rows(qn(fresh), _COLUMNS, rows)

        # Indexes and constraints once each, under temporary names; foreign keys are checked in bulk.
        renames = []
        for i, (name, definition) in enumerate(constraints):
            temporary = f"{fresh}_c{i}"
            cursor.execute(f"ALTER TABLE {qn(fresh)} ADD CONSTRAINT {qn(temporary)} {definition}")
            renames.append(f"ALTER TABLE {qn(table)} RENAME CONSTRAINT {qn(temporary)} TO {qn(name)}")
        on_table = re.compile(rf" ON (\S+\.)?{re.escape(qn(table))} | ON (\S+\.)?{re.escape(table)} ")
        for i, (name, definition) in enumerate(indexes):
            temporary = f"{fresh}_i{i}"
            definition = definition.replace(f" {qn(name)} ON ", f" {qn(temporary)} ON ", 1).replace(
                f" {name} ON ", f" {temporary} ON ", 1
            )
            definition = on_table.sub(f" ON {qn(fresh)} ", definition, count=1)
            cursor.execute(definition)
            renames.append(f"ALTER INDEX {qn(temporary)} RENAME TO {qn(name)}")

        # Rows the transaction wrote earlier are checked now, so the old table can go.
        foreign = ", ".join(qn(name) for name, definition in constraints if definition.startswith("FOREIGN KEY"))
        if foreign:
            cursor.execute(f"SET CONSTRAINTS {foreign} IMMEDIATE")
        cursor.execute(f"DROP TABLE {qn(table)}")
        cursor.execute(f"ALTER TABLE {qn(fresh)} RENAME TO {qn(table)}")
        for statement in renames:
            cursor.execute(statement)
        cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [table])
        sequence = cursor.fetchone()[0]
        cursor.execute(f"ALTER SEQUENCE {sequence} RENAME TO {qn(table + '_id_seq')}")
        if foreign:
            cursor.execute(f"SET CONSTRAINTS {foreign} DEFERRED")
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
            cursor.execute(f"UPDATE {table} AS r SET {assignments} FROM {temp} AS u WHERE r.id = u.id")
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

    write_changes(plan, run.pk if run is not None else None, plan.rows(progress))
    RatedEvent.objects.filter(rating_list=rating_list, event_id__in=plan.dropped_event_ids).delete()

    now = timezone.now()
    event_ids = [e.pk for e in plan.events]
    RatedEvent.objects.filter(rating_list=rating_list, event_id__in=event_ids).delete()
    RatedEvent.objects.bulk_create(
        [
            RatedEvent(rating_list=rating_list, event_id=e.pk, starts_on=e.starts_on, run=run, rated_at=now)
            for e in plan.events
        ],
        batch_size=1000,
    )

    for pid, p in plan.peak.items():
        if p > peak.get(pid, 0):
            peak[pid] = p
    last.update(plan.last)  # the new rows are later than the earlier ones

    existing: dict[int, tuple[int, int]] = {}
    current = PlayerRating.objects.filter(rating_list=rating_list).values_list("player_id", "pk", "seed_rating")
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
        run.status = RunStatus.DONE
        run.progress = 100
        run.finished_at = now
        run.events_rated = len(plan.events)
        run.players_rated = len(plan.last)
        run.error = ""
        run.save(update_fields=["status", "progress", "finished_at", "events_rated", "players_rated", "error"])
