"""Writing many rows fast: COPY on PostgreSQL (bulk_create elsewhere), every column the generator does not
set filled from the model's own default, so a new field can never break the scale data."""

from __future__ import annotations

from datetime import datetime

from django.db import connection
from django.db.models import NOT_PROVIDED
from django.utils import timezone


class UnfilledColumn(Exception):
    """A NOT NULL column that the generator neither fills nor can take a default for."""


def fill_defaults(model, columns: list[str], now: datetime) -> tuple[list[str], tuple]:
    """Every column of the model's table: the `columns` given (by attribute or column name), in that
    order, then every other concrete field with its default from the model's `_meta`, ready for
    the database. A field added later with a default needs no change here; one without a default
    that may not be null is named in the error instead of failing in the middle of COPY."""
    fields = [f for f in model._meta.concrete_fields if not getattr(f, "generated", False)]
    by_name = {name: f for f in fields for name in (f.attname, f.column)}
    unknown = [c for c in columns if c not in by_name]
    if unknown:
        raise UnfilledColumn(f"{model.__name__} has no column {', '.join(unknown)}")
    given = {by_name[c].column for c in columns}
    rest, values, unfilled = [], [], []
    for field in fields:
        if field.column in given or field.db_default is not NOT_PROVIDED:
            continue  # a column with a database default is left to the database
        if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            value = now.date() if field.get_internal_type() == "DateField" else now
        else:
            value = field.get_default()
        if value is None and not field.null:
            unfilled.append(f"{model.__name__}.{field.name}")
            continue
        rest.append(field.column)
        values.append(field.get_db_prep_save(value, connection))
    if unfilled:  # every one named at once, not one per run of the generator
        raise UnfilledColumn(
            f"{', '.join(unfilled)} may not be null and {'have' if len(unfilled) > 1 else 'has'} no default: "
            "give the generator a value for each"
        )
    return [by_name[c].column for c in columns] + rest, tuple(values)


def copy_rows(model, columns: list[str], rows, *, now: datetime | None = None) -> None:
    """Bulk insert of rows that give `columns`; every other column gets the model's default.
    COPY on PostgreSQL, executemany elsewhere."""
    table = connection.ops.quote_name(model._meta.db_table)
    names, defaults = fill_defaults(model, columns, now or timezone.now())
    rows = (tuple(row) + defaults for row in rows) if defaults else rows
    quoted = ", ".join(connection.ops.quote_name(n) for n in names)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            with cursor.cursor.copy(f"COPY {table} ({quoted}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        return
    sql = f"INSERT INTO {table} ({quoted}) VALUES ({', '.join(['%s'] * len(names))})"
    batch = []
    with connection.cursor() as cursor:
        for row in rows:
            batch.append(row)
            if len(batch) >= 5000:
                cursor.executemany(sql, batch)
                batch.clear()
        if batch:
            cursor.executemany(sql, batch)


def next_id(model) -> int:
    """The first free id (the generator runs alone, inside one transaction)."""
    from django.db.models import Max

    return (model.objects.aggregate(m=Max("pk"))["m"] or 0) + 1


def reset_sequences(models) -> None:
    if connection.vendor != "postgresql":
        return
    from django.core.management.color import no_style

    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(sql)


def flush_history(buffers: dict[str, list]) -> None:
    from events.models import Entry
    from events.play.models import DivisionPlayer, Game, Round

    copy_rows(
        Entry,
        [
            "id",
            "event_id",
            "category_id",
            "player_id",
            "status",
            "accepted_at",
            "confirmed_at",
            "amount_due",
            "amount_paid",
            "concession_proof",
            "school",
            "phone",
            "division_id",
        ],
        buffers["entries"],
    )
    copy_rows(
        DivisionPlayer,
        [
            "id",
            "division_id",
            "player_id",
            "entry_id",
            "number",
            "rating",
            "joined_in_round",
            "assigned_reason",
            "placed_by_director",
            "tsh_extras",
        ],
        buffers["seats"],
    )
    copy_rows(
        Round,
        ["id", "division_id", "number", "status", "pairing_system", "based_on_round", "published_at"],
        buffers["rounds"],
    )
    copy_rows(
        Game,
        [
            "id",
            "division_id",
            "round_id",
            "round_number",
            "board",
            "kind",
            "status",
            "player_a_id",
            "player_b_id",
            "score_a",
            "score_b",
            "spread_a",
            "first",
            "overtime_a",
            "overtime_b",
        ],
        buffers["games"],
    )
    for rows in buffers.values():
        rows.clear()
