"""Rating events and re-rating a list from a date.

A list's ratings are the fold of its seeds and its rated events in the order they began
(`starts_on`, then id). Rating an event, or re-rating after a correction, recomputes every
event on the list from that date onwards and rewrites the changes and the current ratings in
one transaction, with the list row locked: nobody sees a half-updated list, and two runs on
one list take turns.

The computation reads outside the lock (so a run can show its progress) and is redone under
the lock if another run wrote to the list meanwhile (`RatingList.version`).
"""

from __future__ import annotations

import json
import logging
import time
from array import array
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

import numpy as np
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from clubsite.errors import PermissionDenied, ServiceError
from events.models import Division, DivisionPlayer, Event, Game, GameKind, GameStatus
from players.roles import is_association_staff

from ..models import PlayerRating, RatedEvent, RatingChange, RatingList, RatingRun, RunStatus
from .systems import BadSettings, UnknownSystem, rate_division_arrays

log = logging.getLogger(__name__)

# Events whose games are read in one query.
EVENT_BATCH = 100
# Unconfirmed games named in a refusal, at most.
MAX_LISTED_GAMES = 20

UNEXPECTED = "An unexpected error stopped this run; the ratings were left as they were."


class RatingError(ServiceError):
    pass


# --- checks -----------------------------------------------------------------------------


def _check_rateable(event: Event) -> RatingList:
    if not event.rated:
        raise RatingError(f"{event.title} is not a rated event.")
    if not event.rating_list_id:
        raise RatingError(f"{event.title} has no rating list: choose one before rating it.", field="rating_list")
    return event.rating_list


def _unconfirmed(event_ids: list[int]):
    return Game.objects.filter(division__event_id__in=event_ids).exclude(status=GameStatus.CONFIRMED)


def unconfirmed_games(event_ids: list[int], limit: int | None = None) -> list[str]:
    """The games of these events whose results are not confirmed, one line each."""
    rows = (
        _unconfirmed(event_ids)
        .select_related("division__event", "player_a", "player_b")
        .order_by("division__event__starts_on", "division__position", "division__name", "round_number", "board", "pk")
    )[:limit]
    lines = []
    for g in rows:
        opponent = g.player_b.name if g.player_b_id else g.get_kind_display().lower()
        prefix = f"{g.division.event.title}, " if len(event_ids) > 1 else ""
        lines.append(
            f"{prefix}division {g.division.name} round {g.round_number}: "
            f"{g.player_a.name} v {opponent} ({g.get_status_display().lower()})"
        )
    return lines


def _refuse_unconfirmed(event_ids: list[int]) -> None:
    count = _unconfirmed(event_ids).count()
    if not count:
        return
    shown = "; ".join(unconfirmed_games(event_ids, MAX_LISTED_GAMES))
    more = f"; and {count - MAX_LISTED_GAMES} more" if count > MAX_LISTED_GAMES else ""
    raise RatingError(
        f"{count} result{'s are' if count != 1 else ' is'} not confirmed, so this cannot be rated yet: {shown}{more}."
    )


# --- the computation ----------------------------------------------------------------------


@dataclass
class _PlayerState:
    rating: int
    games: int
    state: dict
    deviation: float | None = None


@dataclass
class _Plan:
    rating_list_id: int
    version: int
    cutoff: date
    events: list[tuple[int, date]]  # (event id, starts_on), in rating order
    dropped_event_ids: list[int]
    # One row per player and rated division, in CHANGE_FIELDS order (run and list are the plan's).
    changes: list[tuple] = field(default_factory=list)
    final: dict[int, _PlayerState] = field(default_factory=dict)


# The columns of a plan's change rows.
CHANGE_FIELDS = (
    "event_id",
    "division_id",
    "player_id",
    "event_date",
    "pre",
    "post",
    "career_games",
    "games",
    "expected",
    "actual",
    "k",
    "bonus",
    "feedback",
    "performance",
    "is_newcomer",
    "deviation",
    "pre_state",
)
_PLAYER = CHANGE_FIELDS.index("player_id")
_DATE = CHANGE_FIELDS.index("event_date")
_POST = CHANGE_FIELDS.index("post")


@dataclass(frozen=True)
class _EventToRate:
    pk: int
    starts_on: date
    third_rated: bool
    scheduled_rounds: int  # decides NASPA's segments, with the rounds actually played


def _events_to_rate(
    rating_list: RatingList, from_date: date, new_event: Event | None
) -> tuple[date, list[_EventToRate], list[int]]:
    """The cutoff date, the events to (re-)rate from it in order, and the events leaving the
    list (no longer rated on it)."""
    ledger = list(
        RatedEvent.objects.filter(rating_list=rating_list).values_list(
            "event_id",
            "starts_on",
            "event__starts_on",
            "event__third_rated",
            "event__number_of_games",
            "event__rated",
            "event__rating_list_id",
        )
    )
    cutoff = from_date
    if new_event is not None:
        cutoff = min(cutoff, new_event.starts_on)
    # An event that moved across the cutoff pulls it back, so its old changes are recomputed.
    changed = True
    while changed:
        changed = False
        for _eid, was, now, *_ in ledger:
            if max(was, now) >= cutoff > min(was, now):
                cutoff = min(was, now)
                changed = True
    keep: dict[int, _EventToRate] = {}
    dropped = []
    for eid, was, now, third, rounds, rated, list_id in ledger:
        if max(was, now) < cutoff:
            continue
        if rated and list_id == rating_list.pk:
            keep[eid] = _EventToRate(eid, now, third, rounds or 0)
        else:
            dropped.append(eid)
    if new_event is not None:
        keep[new_event.pk] = _EventToRate(
            new_event.pk, new_event.starts_on, new_event.third_rated, new_event.number_of_games or 0
        )
    return cutoff, sorted(keep.values(), key=lambda e: (e.starts_on, e.pk)), dropped


def _states_before(
    rating_list: RatingList, cutoff: date, player_ids: set[int]
) -> tuple[dict[int, _PlayerState], set[int]]:
    """Each player's standing just before `cutoff`, and the players who have changes from it."""
    states: dict[int, _PlayerState] = {}
    later = (
        RatingChange.objects.filter(rating_list=rating_list, event_date__gte=cutoff)
        .order_by("player_id", "event_date", "event_id", "pk")
        .values_list("player_id", "pre", "career_games", "pre_state")
    )
    if _is_postgres():
        later = later.distinct("player_id")  # each player's first change only
    for pid, pre, career, pre_state in later.iterator(chunk_size=5000):
        if pid not in states:
            states[pid] = _PlayerState(pre, career, pre_state or {}, (pre_state or {}).get("rd"))
    had_later = set(states)
    missing = player_ids - had_later
    if missing:
        current = PlayerRating.objects.filter(rating_list=rating_list, player_id__in=missing).values_list(
            "player_id", "rating", "games", "state", "deviation"
        )
        for pid, rating, games, st, dev in current:
            states[pid] = _PlayerState(rating, games, st or {}, dev)
    return states, had_later


def _read_games(event_ids: list[int]) -> list[tuple]:
    """All games of these events in one query, as tuples."""
    return list(
        Game.objects.filter(division__event_id__in=event_ids)
        .order_by()
        .values_list(
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
    )


def _compute(
    rating_list: RatingList,
    from_date: date,
    new_event: Event | None,
    run: RatingRun | None,
    progress: Callable[[int], None] | None,
) -> _Plan:
    cutoff, events, dropped = _events_to_rate(rating_list, from_date, new_event)
    plan = _Plan(rating_list.pk, rating_list.version, cutoff, [(e.pk, e.starts_on) for e in events], dropped)
    event_ids = [e.pk for e in events]

    # Read every game once, refusing before any rating if a result is not confirmed.
    by_event: dict[int, list[int]] = defaultdict(list)  # event -> its divisions with games
    # division -> [last round played (byes included), its rated games flat: round index, a, b, score a, score b]
    by_division: dict[int, list] = {}
    confirmed, normal = GameStatus.CONFIRMED.value, GameKind.NORMAL.value
    seats: dict[int, dict[int, int]] = defaultdict(dict)  # division -> player -> seat number
    unconfirmed = False
    players: set[int] = set()
    for start in range(0, len(event_ids), EVENT_BATCH):
        batch = event_ids[start : start + EVENT_BATCH]
        for div, pid, number in DivisionPlayer.objects.filter(division__event_id__in=batch).values_list(
            "division_id", "player_id", "number"
        ):
            seats[div][pid] = number
        for ev, div, rnd, kind, status, a, b, sa, sb in _read_games(batch):
            if status != confirmed:
                unconfirmed = True
                continue
            entry = by_division.get(div)
            if entry is None:
                entry = by_division[div] = [rnd, array("q")]
                by_event[ev].append(div)
            elif rnd > entry[0]:
                entry[0] = rnd
            if kind == normal and b is not None and sa is not None and sb is not None:
                entry[1].extend((rnd - 1, a, b, sa, sb))
                players.add(a)
                players.add(b)
    if unconfirmed:
        _refuse_unconfirmed(event_ids)

    states, had_later = _states_before(rating_list, cutoff, players)
    affected = players | had_later
    for pid in affected:
        states.setdefault(pid, _PlayerState(0, 0, {}))

    system = rating_list.system
    for i, event in enumerate(events):
        for division_id in sorted(by_event.get(event.pk, ())):
            last_round, rated = by_division[division_id]
            _rate_one_division(
                plan, system, rating_list, event, division_id, last_round, rated, seats[division_id], states
            )
        if progress:
            progress(int(90 * (i + 1) / max(len(events), 1)))
    plan.final = {pid: states[pid] for pid in affected}
    return plan


def _rate_one_division(
    plan, system, rating_list, event: _EventToRate, division_id, last_round, rated, seats, states
) -> None:
    """rated: the division's rated games, flat: round index, player a, player b, score a, score b."""
    # Every round played has a row (byes included); an event may have scheduled more.
    max_rounds = max(event.scheduled_rounds, last_round)
    if not rated:
        return
    cols = np.frombuffer(rated, dtype=np.int64).reshape(-1, 5)
    # Players in seat order (tsh's player numbers), so sums run in the reference's order.
    unseated = 1 << 30
    ids_list = sorted(np.unique(cols[:, 1:3]).tolist(), key=lambda p: (seats.get(p, unseated), p))
    ids = np.array(ids_list, dtype=np.int64)
    by_id = np.argsort(ids, kind="stable")
    a = by_id[np.searchsorted(ids, cols[:, 1], sorter=by_id)]
    b = by_id[np.searchsorted(ids, cols[:, 2], sorter=by_id)]
    before = [states[p] for p in ids_list]
    pre = np.array([s.rating for s in before], dtype=np.float64)
    career = np.array([s.games for s in before], dtype=np.int64)
    try:
        result = rate_division_arrays(
            system,
            pre,
            career,
            [s.state for s in before],
            a,
            b,
            cols[:, 3],
            cols[:, 4],
            cols[:, 0],
            max(max_rounds, int(cols[:, 0].max()) + 1),
            event.third_rated,
            rating_list.settings if isinstance(rating_list.settings, dict) else {},
        )
    except (UnknownSystem, ImportError):
        raise RatingError(f"The {rating_list.get_system_display()} system cannot rate events yet.")
    except BadSettings as error:
        raise RatingError(
            f"The settings of {rating_list.name} do not suit {rating_list.get_system_display()}: {error}."
        )
    played = np.flatnonzero(np.asarray(result.games) != 0)
    if not played.size:
        return
    columns = zip(
        played.tolist(),
        np.asarray(result.games)[played].tolist(),
        np.asarray(result.new_rating)[played].astype(np.int64).tolist(),
        np.asarray(result.expected, dtype=np.float64)[played].tolist(),
        np.asarray(result.actual, dtype=np.float64)[played].tolist(),
        np.asarray(result.k, dtype=np.float64)[played].tolist(),
        np.asarray(result.bonus, dtype=np.float64)[played].tolist(),
        np.asarray(result.feedback, dtype=np.float64)[played].tolist(),
        np.asarray(result.performance, dtype=np.float64)[played].tolist(),
        strict=True,
    )
    changes = plan.changes
    event_pk, day = event.pk, event.starts_on
    for j, games, post, expected, actual, k, bonus, feedback, perf in columns:
        pid = ids_list[j]
        s = before[j]
        deviation = result.deviation[j]
        deviation = None if deviation is None else float(deviation)
        changes.append(
            (
                event_pk,
                division_id,
                pid,
                day,
                s.rating,
                post,
                s.games,
                games,
                None if expected != expected else expected,  # NaN: no expectation
                actual,
                k,
                bonus,
                feedback,
                None if perf != perf else perf,
                s.rating == 0,
                deviation,
                s.state,
            )
        )
        states[pid] = _PlayerState(post, s.games + games, result.state[j], result.deviation[j])


def _is_postgres() -> bool:
    return connection.vendor == "postgresql"


def _copy_rows(table: str, columns: list[str], rows) -> None:
    """Writes rows into a table (its name quoted as needed) with COPY (PostgreSQL)."""
    qn = connection.ops.quote_name
    sql = f"COPY {table} ({', '.join(qn(c) for c in columns)}) FROM STDIN"
    with connection.cursor() as cursor:
        with cursor.cursor.copy(sql) as copy:
            for row in rows:
                copy.write_row(row)


def _json(value) -> str:
    return "{}" if type(value) is dict and not value else json.dumps(value)


def _write_changes(rating_list: RatingList, plan: _Plan, run: RatingRun | None) -> None:
    run_id = run.pk if run is not None else None
    if _is_postgres():
        state_at = CHANGE_FIELDS.index("pre_state")
        columns = [RatingChange._meta.get_field(f).column for f in CHANGE_FIELDS] + ["rating_list_id", "run_id"]
        rows = (
            c[:state_at] + (_json(c[state_at]),) + c[state_at + 1 :] + (rating_list.pk, run_id) for c in plan.changes
        )
        _copy_rows(connection.ops.quote_name(RatingChange._meta.db_table), columns, rows)
        return
    RatingChange.objects.bulk_create(
        (
            RatingChange(run_id=run_id, rating_list_id=rating_list.pk, **dict(zip(CHANGE_FIELDS, c, strict=True)))
            for c in plan.changes
        ),
        batch_size=1000,
    )


_RATING_FIELDS = ["rating", "games", "peak", "last_played", "deviation", "state"]


def _write_ratings(rating_list: RatingList, to_delete: list[int], to_create: list[tuple], to_update: list[tuple]):
    """to_create: (player id, *_RATING_FIELDS); to_update: (pk, *_RATING_FIELDS)."""
    PlayerRating.objects.filter(pk__in=to_delete).delete()
    if not _is_postgres():
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
        _copy_rows(
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
            _copy_rows(
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


def _apply(rating_list: RatingList, plan: _Plan, run: RatingRun | None) -> None:
    """Writes a plan; the caller holds the list's lock inside a transaction."""
    RatingChange.objects.filter(rating_list=rating_list, event_date__gte=plan.cutoff).delete()
    RatingChange.objects.filter(rating_list=rating_list, event_id__in=plan.dropped_event_ids).delete()
    RatedEvent.objects.filter(rating_list=rating_list, event_id__in=plan.dropped_event_ids).delete()
    _write_changes(rating_list, plan, run)

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
    _write_ratings(rating_list, to_delete, to_create, to_update)
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


def _rate(rating_list: RatingList, from_date: date, run: RatingRun | None, new_event: Event | None = None) -> None:
    shown = {"percent": 0, "at": 0.0}

    def progress(percent: int) -> None:
        # At most a few writes a second, whatever the number of events.
        now = time.monotonic()
        if run is not None and percent > shown["percent"] and now - shown["at"] >= 0.5:
            RatingRun.objects.filter(pk=run.pk).update(progress=percent)
            shown.update(percent=percent, at=now)

    # The version is read before the games: a run that writes after this is noticed under the lock.
    rating_list.version = RatingList.objects.values_list("version", flat=True).get(pk=rating_list.pk)
    plan = _compute(rating_list, from_date, new_event, run, progress)
    with transaction.atomic():
        locked = RatingList.objects.select_for_update().get(pk=rating_list.pk)
        if locked.version != plan.version:
            plan = _compute(locked, from_date, new_event, run, None)
        _apply(locked, plan, run)
        rating_list.version = locked.version


# --- public services ----------------------------------------------------------------------


def _new_run(rating_list: RatingList, from_date: date, *, event=None, actor=None, reason="", status=RunStatus.QUEUED):
    return RatingRun.objects.create(
        rating_list=rating_list,
        event=event,
        from_date=from_date,
        reason=reason,
        status=status,
        started_at=timezone.now() if status == RunStatus.RUNNING else None,
        requested_by=actor if actor and actor.is_authenticated else None,
    )


def rate_event(event: Event, *, run: RatingRun | None = None, actor=None) -> RatingRun:
    """Rates the event's divisions on its list (and re-rates every later event there).

    Refuses an event with unconfirmed results, naming them. Rating it again gives the same
    ratings: the event's changes are recomputed, not added twice.
    """
    rating_list = _check_rateable(event)
    _refuse_unconfirmed([event.pk])
    if run is None:
        run = _new_run(
            rating_list, event.starts_on, event=event, actor=actor, reason="Event rated", status=RunStatus.RUNNING
        )
    _rate_or_fail(rating_list, event.starts_on, run, new_event=event)
    # A list the event has left (its rating list was changed) loses it.
    for other in RatingList.objects.filter(rated_events__event=event).exclude(pk=rating_list.pk):
        other_run = _new_run(
            other,
            event.starts_on,
            event=event,
            actor=actor,
            reason="Event moved to another list",
            status=RunStatus.RUNNING,
        )
        _rate_or_fail(other, event.starts_on, other_run)
    return run


def rerate_from(rating_list: RatingList, day: date, *, run: RatingRun | None = None, actor=None) -> RatingRun:
    """Re-rates every event on the list that began on or after `day`, in order, in one transaction."""
    if actor is not None and not is_association_staff(actor):
        raise PermissionDenied("Only association staff can re-rate a list.")
    if run is None:
        run = _new_run(rating_list, day, actor=actor, reason=f"Re-rated from {day:%d %b %Y}", status=RunStatus.RUNNING)
    _rate_or_fail(rating_list, day, run)
    return run


def _rate_or_fail(rating_list: RatingList, day: date, run: RatingRun, new_event: Event | None = None) -> None:
    """Rates; a refusal is recorded on the run (the ratings stay as they were) and raised."""
    try:
        _rate(rating_list, day, run, new_event)
    except ServiceError as error:
        _fail(run, error.message)
        raise
    except Exception:
        _fail(run, UNEXPECTED)
        raise


def _enqueue(run: RatingRun) -> None:
    from ..tasks import run_rating

    transaction.on_commit(lambda: run_rating.delay(run.pk))


def queue_rating_run(event: Event, *, actor=None, reason: str = "") -> RatingRun:
    """Queues rating the event (after it is finalised, or a result of it is corrected).

    Checked now, so a director hears at once about unconfirmed results; the task checks again.
    """
    from events.permissions import can_direct_event

    if actor is not None and not can_direct_event(actor, event):
        raise PermissionDenied("Only the event's directors and association staff can rate it.")
    rating_list = _check_rateable(event)
    _refuse_unconfirmed([event.pk])
    waiting = RatingRun.objects.filter(event=event, rating_list=rating_list, status=RunStatus.QUEUED).first()
    if waiting is not None:
        return waiting  # it has not started, so it will read the latest results
    already = RatedEvent.objects.filter(event=event).exists()
    run = _new_run(
        rating_list,
        event.starts_on,
        event=event,
        actor=actor,
        reason=reason or ("Result corrected: re-rated" if already else "Event finalised"),
    )
    _enqueue(run)
    return run


def queue_rating_if_complete(event: Event, *, actor=None, reason: str = "") -> RatingRun | None:
    """Queues rating the event once it is complete: rated, on a list, every division finalised
    and every result confirmed. Otherwise does nothing (returns None), so a director may finalise
    one division while others still play. Call it after finalising a division and after
    correcting a result of a finalised event."""
    if not (event.rated and event.rating_list_id):
        return None
    divisions = list(Division.objects.filter(event=event).values_list("finalised_at", flat=True))
    if not divisions or any(finalised is None for finalised in divisions):
        return None
    if Game.objects.filter(division__event=event).exclude(status=GameStatus.CONFIRMED).exists():
        return None
    return queue_rating_run(event, actor=actor, reason=reason)


def result_corrected(event: Event, *, actor=None) -> RatingRun | None:
    """A confirmed result of the event was corrected: if the event is complete, it is re-rated with
    every later event on its list (an event rated before that has since left its list is taken off
    it). Never refuses, so it may be called from inside the correction's transaction."""
    try:
        run = queue_rating_if_complete(event, actor=actor, reason="Result corrected: re-rated")
        if run is None and not (event.rated and event.rating_list_id):
            # No longer rated (or no list): the lists that still hold it are re-rated without it.
            for rating_list in RatingList.objects.filter(rated_events__event=event):
                run = _new_run(rating_list, event.starts_on, actor=actor, reason=f"{event.title} is no longer rated")
                _enqueue(run)
        return run
    except ServiceError:
        return None


def queue_rerate(actor, rating_list: RatingList, day: date) -> RatingRun:
    """Staff: re-rate a list from a date in the background."""
    if not is_association_staff(actor):
        raise PermissionDenied("Only association staff can re-rate a list.")
    if day > timezone.localdate():
        raise RatingError("Choose a date that is not in the future.", field="from_date")
    run = _new_run(rating_list, day, actor=actor, reason=f"Re-rated from {day:%d %b %Y}")
    _enqueue(run)
    return run


def execute_run(run_id: int) -> RatingRun | None:
    """The task's body: safe to run twice (a run that is not queued is left alone)."""
    with transaction.atomic():
        run = RatingRun.objects.select_for_update().filter(pk=run_id).first()
        if run is None or run.status != RunStatus.QUEUED:
            return run
        run.status = RunStatus.RUNNING
        run.started_at = timezone.now()
        run.save(update_fields=["status", "started_at"])
    try:
        if run.event_id:
            event = Event.objects.select_related("rating_list").get(pk=run.event_id)
            rate_event(event, run=run)
        else:
            rerate_from(run.rating_list, run.from_date, run=run)
    except ServiceError as error:
        _fail(run, error.message)
    except Exception:
        log.exception("Rating run %s failed", run_id)
        _fail(run, UNEXPECTED)
    run.refresh_from_db()
    return run


def _fail(run: RatingRun, message: str) -> None:
    RatingRun.objects.filter(pk=run.pk, status__in=[RunStatus.QUEUED, RunStatus.RUNNING]).update(
        status=RunStatus.FAILED, error=message, finished_at=timezone.now()
    )


# --- reading -------------------------------------------------------------------------------


def ratings_as_of(
    rating_list: RatingList, day: date, player_ids: list[int] | None = None
) -> dict[int, tuple[int, int]]:
    """(rating, career games) of players on the list at the start of `day` (events that began
    before it), e.g. for placing entrants in divisions by rating. Unrated players are absent."""
    states, _ = _states_before(
        rating_list,
        day,
        set(player_ids)
        if player_ids is not None
        else set(PlayerRating.objects.filter(rating_list=rating_list).values_list("player_id", flat=True)),
    )
    return {
        pid: (s.rating, s.games) for pid, s in states.items() if s.rating and (player_ids is None or pid in player_ids)
    }
