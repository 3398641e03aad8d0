"""Reading an event range's games and folding them through the rating engine into a plan.

A list's ratings are the fold of its seeds and its rated events in the order they began
(`starts_on`, then id). A plan holds the change rows of every event from a cutoff onwards and
each affected player's standing after them; it reads the database but writes nothing.
"""

from __future__ import annotations

from array import array
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

import numpy as np
from django.db import connection

from events.models import DivisionPlayer, Event, Game, GameKind, GameStatus

from ..models import PlayerRating, RatedEvent, RatingChange, RatingList, RatingRun
from .checks import RatingError, refuse_unconfirmed
from .systems import BadSettings, UnknownSystem, rate_division_arrays

# Events whose games are read in one query.
EVENT_BATCH = 100


@dataclass
class PlayerState:
    rating: int
    games: int
    state: dict
    deviation: float | None = None


@dataclass
class Plan:
    rating_list_id: int
    version: int
    cutoff: date
    events: list[tuple[int, date]]  # (event id, starts_on), in rating order
    dropped_event_ids: list[int]
    # One row per player and rated division, in CHANGE_FIELDS order (run and list are the plan's).
    changes: list[tuple] = field(default_factory=list)
    final: dict[int, PlayerState] = field(default_factory=dict)


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
class EventToRate:
    pk: int
    starts_on: date
    third_rated: bool
    scheduled_rounds: int  # decides NASPA's segments, with the rounds actually played


def events_to_rate(
    rating_list: RatingList, from_date: date, new_event: Event | None
) -> tuple[date, list[EventToRate], list[int]]:
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
    keep: dict[int, EventToRate] = {}
    dropped = []
    for eid, was, now, third, rounds, rated, list_id in ledger:
        if max(was, now) < cutoff:
            continue
        if rated and list_id == rating_list.pk:
            keep[eid] = EventToRate(eid, now, third, rounds or 0)
        else:
            dropped.append(eid)
    if new_event is not None:
        keep[new_event.pk] = EventToRate(
            new_event.pk, new_event.starts_on, new_event.third_rated, new_event.number_of_games or 0
        )
    return cutoff, sorted(keep.values(), key=lambda e: (e.starts_on, e.pk)), dropped


def states_before(
    rating_list: RatingList, cutoff: date, player_ids: set[int]
) -> tuple[dict[int, PlayerState], set[int]]:
    """Each player's standing just before `cutoff`, and the players who have changes from it."""
    states: dict[int, PlayerState] = {}
    later = (
        RatingChange.objects.filter(rating_list=rating_list, event_date__gte=cutoff)
        .order_by("player_id", "event_date", "event_id", "pk")
        .values_list("player_id", "pre", "career_games", "pre_state")
    )
    if connection.vendor == "postgresql":
        later = later.distinct("player_id")  # each player's first change only
    for pid, pre, career, pre_state in later.iterator(chunk_size=5000):
        if pid not in states:
            states[pid] = PlayerState(pre, career, pre_state or {}, (pre_state or {}).get("rd"))
    had_later = set(states)
    missing = player_ids - had_later
    if missing:
        current = PlayerRating.objects.filter(rating_list=rating_list, player_id__in=missing).values_list(
            "player_id", "rating", "games", "state", "deviation"
        )
        for pid, rating, games, st, dev in current:
            states[pid] = PlayerState(rating, games, st or {}, dev)
    return states, had_later


def read_games(event_ids: list[int]) -> list[tuple]:
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


def compute(
    rating_list: RatingList,
    from_date: date,
    new_event: Event | None,
    run: RatingRun | None,
    progress: Callable[[int], None] | None,
) -> Plan:
    cutoff, events, dropped = events_to_rate(rating_list, from_date, new_event)
    plan = Plan(rating_list.pk, rating_list.version, cutoff, [(e.pk, e.starts_on) for e in events], dropped)
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
        for ev, div, rnd, kind, status, a, b, sa, sb in read_games(batch):
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
        refuse_unconfirmed(event_ids)

    states, had_later = states_before(rating_list, cutoff, players)
    affected = players | had_later
    for pid in affected:
        states.setdefault(pid, PlayerState(0, 0, {}))

    system = rating_list.system
    for i, event in enumerate(events):
        for division_id in sorted(by_event.get(event.pk, ())):
            last_round, rated = by_division[division_id]
            rate_one_division(
                plan, system, rating_list, event, division_id, last_round, rated, seats[division_id], states
            )
        if progress:
            progress(int(90 * (i + 1) / max(len(events), 1)))
    plan.final = {pid: states[pid] for pid in affected}
    return plan


def rate_one_division(
    plan, system, rating_list, event: EventToRate, division_id, last_round, rated, seats, states
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
        states[pid] = PlayerState(post, s.games + games, result.state[j], result.deviation[j])
