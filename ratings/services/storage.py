"""Writing a plan: the change rows and the current ratings (COPY and a temporary table on
PostgreSQL, bulk ORM writes elsewhere). The caller holds the list's lock inside a transaction."""

from __future__ import annotations

import json
from datetime import date

from django.db import connection
from django.db.models import Max
from django.utils import timezone

from ..models import PlayerRating, RatedEvent, RatingChange, RatingList, RatingRun, RunStatus
from .compute import _DATE, _PLAYER, _POST, CHANGE_FIELDS, Plan


def is_postgres() -> bool:
    return connection.vendor == "postgresql"


def copy_rows(table: str, columns: list[str], rows) -> None:
    """Writes rows into a table (its name quoted as needed) with COPY (PostgreSQL)."""
    qn = connection.ops.quote_name
    sql = f"COPY {table} ({', '.join(qn(c) for c in columns)}) FROM STDIN"
    with connection.cursor() as cursor:
        with cursor.cursor.copy(sql) as copy:
            for row in rows:
                copy.write_row(row)


def _json(value) -> str:
    return "{}" if type(value) is dict and not value else json.dumps(value)


def write_changes(rating_list: RatingList, plan: Plan, run: RatingRun | None) -> None:
    run_id = run.pk if run is not None else None
    if is_postgres():
        state_at = CHANGE_FIELDS.index("pre_state")
        columns = [RatingChange._meta.get_field(f).column for f in CHANGE_FIELDS] + ["rating_list_id", "run_id"]
        rows = (
            c[:state_at] + (_json(c[state_at]),) + c[state_at + 1 :] + (rating_list.pk, run_id) for c in plan.changes
        )
        copy_rows(connection.ops.quote_name(RatingChange._meta.db_table), columns, rows)
        return
    RatingChange.objects.bulk_create(
        (
            RatingChange(run_id=run_id, rating_list_id=rating_list.pk, **dict(zip(CHANGE_FIELDS, c, strict=True)))
            for c in plan.changes
        ),
        batch_size=1000,
    )


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


def apply_plan(rating_list: RatingList, plan: Plan, run: RatingRun | None) -> None:
    """Writes a plan; the caller holds the list's lock inside a transaction."""
    RatingChange.objects.filter(rating_list=rating_list, event_date__gte=plan.cutoff).delete()
    RatingChange.objects.filter(rating_list=rating_list, event_id__in=plan.dropped_event_ids).delete()
    RatedEvent.objects.filter(rating_list=rating_list, event_id__in=plan.dropped_event_ids).delete()
    write_changes(rating_list, plan, run)

    now = timezone.now()
    event_ids = [e for e, _ in plan.events]
    RatedEvent.objects.filter(rating_list=rating_list, event_id__in=event_ids).delete()
    RatedEvent.objects.bulk_create(
        [RatedEvent(rating_list=rating_list, event_id=e, starts_on=d, run=run, rated_at=now) for e, d in plan.events],
        batch_size=1000,
    )

    # Peak and last played: the earlier history, then the new changes.
    player_ids = list(plan.final)
    peak: dict[int, int] = {}
    last: dict[int, date] = {}
    earlier = (
        RatingChange.objects.filter(rating_list=rating_list, event_date__lt=plan.cutoff)
        .values("player_id")
        .annotate(peak=Max("post"), last=Max("event_date"))
        .values_list("player_id", "peak", "last")
    )
    for pid, p, d in _of_players(earlier, player_ids):
        peak[pid], last[pid] = p, d
    for c in plan.changes:
        pid, post, day = c[_PLAYER], c[_POST], c[_DATE]
        if pid in last:
            if post > peak[pid]:
                peak[pid] = post
            if day > last[pid]:
                last[pid] = day
        else:
            peak[pid] = max(peak.get(pid, 0), post)
            last[pid] = day

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
        run.players_rated = len({c[_PLAYER] for c in plan.changes})
        run.error = ""
        run.save(update_fields=["status", "progress", "finished_at", "events_rated", "players_rated", "error"])
