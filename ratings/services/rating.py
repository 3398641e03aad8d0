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

import logging
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

import numpy as np
from django.db import transaction
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
    changes: list[RatingChange] = field(default_factory=list)
    final: dict[int, _PlayerState] = field(default_factory=dict)


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
    by_event: dict[int, dict[int, list[tuple]]] = defaultdict(lambda: defaultdict(list))
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
            if status != GameStatus.CONFIRMED:
                unconfirmed = True
                continue
            by_event[ev][div].append((rnd, kind, a, b, sa, sb))
            if kind == GameKind.NORMAL and b is not None and sa is not None and sb is not None:
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
        for division_id in sorted(by_event.get(event.pk, {})):
            rows = by_event[event.pk][division_id]
            _rate_one_division(plan, system, rating_list, run, event, division_id, rows, seats[division_id], states)
        if progress:
            progress(int(90 * (i + 1) / max(len(events), 1)))
    plan.final = {pid: states[pid] for pid in affected}
    return plan


def _rate_one_division(plan, system, rating_list, run, event: _EventToRate, division_id, rows, seats, states):
    # Every round played has a row (byes included); an event may have scheduled more.
    max_rounds = max(event.scheduled_rounds, max(r[0] for r in rows))
    rated = [r for r in rows if r[1] == GameKind.NORMAL and r[3] is not None and r[4] is not None and r[5] is not None]
    if not rated:
        return
    cols = np.array([(r[0] - 1, r[2], r[3], r[4], r[5]) for r in rated], dtype=np.int64)
    # Players in seat order (tsh's player numbers), so sums run in the reference's order.
    ids = np.array(sorted({int(p) for p in cols[:, 1:3].reshape(-1)}, key=lambda p: (seats.get(p, 1 << 30), p)))
    position = {p: i for i, p in enumerate(ids.tolist())}
    a = np.array([position[p] for p in cols[:, 1].tolist()], dtype=np.int64)
    b = np.array([position[p] for p in cols[:, 2].tolist()], dtype=np.int64)
    before = [states[int(p)] for p in ids]
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
    for j, pid in enumerate(ids.tolist()):
        if result.games[j] == 0:
            continue
        s = before[j]
        post = int(result.new_rating[j])
        perf = float(result.performance[j])
        plan.changes.append(
            RatingChange(
                run=run,
                rating_list_id=rating_list.pk,
                event_id=event.pk,
                division_id=division_id,
                player_id=pid,
                event_date=event.starts_on,
                pre=s.rating,
                post=post,
                career_games=s.games,
                games=int(result.games[j]),
                expected=None if np.isnan(result.expected[j]) else float(result.expected[j]),
                actual=float(result.actual[j]),
                k=float(result.k[j]),
                bonus=float(result.bonus[j]),
                feedback=float(result.feedback[j]),
                performance=None if np.isnan(perf) else perf,
                is_newcomer=s.rating == 0,
                deviation=result.deviation[j],
                pre_state=s.state,
            )
        )
        states[pid] = _PlayerState(post, s.games + int(result.games[j]), result.state[j], result.deviation[j])


def _apply(rating_list: RatingList, plan: _Plan, run: RatingRun | None) -> None:
    """Writes a plan; the caller holds the list's lock inside a transaction."""
    RatingChange.objects.filter(rating_list=rating_list, event_date__gte=plan.cutoff).delete()
    RatingChange.objects.filter(rating_list=rating_list, event_id__in=plan.dropped_event_ids).delete()
    RatedEvent.objects.filter(rating_list=rating_list, event_id__in=plan.dropped_event_ids).delete()
    RatingChange.objects.bulk_create(plan.changes, batch_size=1000)

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
    for start in range(0, len(player_ids), 5000):
        chunk = player_ids[start : start + 5000]
        earlier = (
            RatingChange.objects.filter(rating_list=rating_list, player_id__in=chunk, event_date__lt=plan.cutoff)
            .values("player_id")
            .annotate(peak=Max("post"), last=Max("event_date"))
            .values_list("player_id", "peak", "last")
        )
        for pid, p, d in earlier:
            peak[pid], last[pid] = p, d
    for c in plan.changes:
        peak[c.player_id] = max(peak.get(c.player_id, 0), c.post)
        last[c.player_id] = max(last[c.player_id], c.event_date) if c.player_id in last else c.event_date

    existing = {r.player_id: r for r in PlayerRating.objects.filter(rating_list=rating_list, player_id__in=player_ids)}
    to_update, to_create, to_delete = [], [], []
    for pid, s in plan.final.items():
        row = existing.get(pid)
        if row is None:
            if s.rating == 0:
                continue
            row = PlayerRating(rating_list=rating_list, player_id=pid)
            to_create.append(row)
        elif s.rating == 0 and row.seed_rating == 0:
            to_delete.append(row.pk)
            continue
        else:
            to_update.append(row)
        row.rating = s.rating
        row.games = s.games
        row.peak = max(peak.get(pid, 0), row.seed_rating, s.rating)
        row.last_played = last.get(pid)
        row.deviation = s.deviation
        row.state = s.state
    PlayerRating.objects.filter(pk__in=to_delete).delete()
    PlayerRating.objects.bulk_create(to_create, batch_size=1000)
    PlayerRating.objects.bulk_update(
        to_update, ["rating", "games", "peak", "last_played", "deviation", "state"], batch_size=1000
    )
    RatingList.objects.filter(pk=rating_list.pk).update(version=rating_list.version + 1)
    rating_list.version += 1

    if run is not None:
        run.status = RunStatus.DONE
        run.progress = 100
        run.finished_at = now
        run.events_rated = len(plan.events)
        run.players_rated = len({c.player_id for c in plan.changes})
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
