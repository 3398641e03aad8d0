"""Reading an event range's games and folding them through the rating engine into change rows.

A list's ratings are the fold of its seeds and its rated events in the order they began
(`starts_on`, then id). A plan starts at a point of that order (`Cutoff`): it reads the games of
every event from there on and each player's standing just before it; `Plan.blocks()` then rates
the events in order and yields each rated division's change rows (a player each), as it goes, so
they can be written while they are computed. Nothing here writes.
"""

from __future__ import annotations

from array import array
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date

import numpy as np
from django.db import connection
from django.db.models import Q

from events.models import Division, DivisionPlayer, Event, Game, GameKind, GameStatus

from ..models import PlayerRating, RatedEvent, RatingChange, RatingList
from .checks import RatingError, refuse_unconfirmed
from .systems import BadSettings, UnknownSystem, rate_division_arrays

# Events whose games are read in one query.
EVENT_BATCH = 100


@dataclass(frozen=True, order=True)
class Cutoff:
    """A point in a list's rating order: every event that began after `day`, and on `day` those
    whose id is `event_id` or more (0: every event of that day)."""

    day: date
    event_id: int = 0

    @classmethod
    def of_event(cls, event: Event) -> Cutoff:
        return cls(event.starts_on, event.pk)


@dataclass
class PlayerState:
    rating: int
    games: int
    state: dict
    deviation: float | None = None


@dataclass
class ChangeBlock:
    """The change rows of one division: one element per player who played in it, in seat order."""

    division_id: int
    day: date
    player: np.ndarray
    pre: np.ndarray
    post: np.ndarray
    career_games: np.ndarray
    games: np.ndarray
    expected: np.ndarray  # NaN: no expectation
    actual: np.ndarray
    k: np.ndarray
    bonus: np.ndarray
    feedback: np.ndarray
    performance: np.ndarray  # NaN: none
    deviation: np.ndarray  # NaN: none
    pre_state: list[dict] | None  # None: every player's state before was empty

    def __len__(self) -> int:
        return int(self.player.size)


@dataclass(frozen=True)
class EventToRate:
    pk: int
    starts_on: date
    third_rated: bool
    scheduled_rounds: int  # decides NASPA's segments, with the rounds actually played


@dataclass
class Plan:
    rating_list: RatingList
    cutoff: Cutoff
    events: list[EventToRate]  # in rating order
    dropped_event_ids: list[int]  # rated on the list before, no longer
    # On the cutoff's day, the divisions whose rows are from the cutoff on (None: all of that day).
    day_divisions: list[int] | None
    states: dict[int, PlayerState]  # every affected player, before the cutoff; then as rated
    affected: set[int]
    row_count: int  # the change rows `blocks()` yields
    by_event: dict[int, list[int]] = field(default_factory=dict)
    by_division: dict[int, list] = field(default_factory=dict)
    seats: dict[int, dict[int, int]] = field(default_factory=dict)
    # Filled in by blocks(): each player's highest rating and last event day in the new rows.
    peak: dict[int, int] = field(default_factory=dict)
    last: dict[int, date] = field(default_factory=dict)

    def changes_from(self) -> Q:
        """The list's change rows at or after the cutoff (the rows this plan replaces)."""
        day = self.cutoff.day
        if self.day_divisions is None:
            return Q(event_date__gte=day)
        return Q(event_date__gt=day) | Q(event_date=day, division_id__in=self.day_divisions)

    def changes_before(self) -> Q:
        day = self.cutoff.day
        if self.day_divisions is None:
            return Q(event_date__lt=day)
        return Q(event_date__lt=day) | (Q(event_date=day) & ~Q(division_id__in=self.day_divisions))

    def blocks(self, progress: Callable[[int], None] | None = None) -> Iterator[ChangeBlock]:
        """Rates the events in order, yielding each division's change rows as they are computed."""
        system = self.rating_list.system
        total = max(len(self.events), 1)
        for i, event in enumerate(self.events):
            for division_id in sorted(self.by_event.get(event.pk, ())):
                last_round, rated = self.by_division[division_id]
                block = rate_one_division(self, system, event, division_id, last_round, rated)
                if block is not None:
                    yield block
            if progress:
                progress(int(90 * (i + 1) / total))

    @property
    def final(self) -> dict[int, PlayerState]:
        return {pid: self.states[pid] for pid in self.affected}


def events_to_rate(
    rating_list: RatingList, start: Cutoff, new_event: Event | None
) -> tuple[Cutoff, list[EventToRate], list[int], list[int] | None]:
    """The cutoff, the events to (re-)rate from it in order, the events leaving the list (no
    longer rated on it), and the ledger's events on the cutoff's day from the cutoff on."""
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
    cutoff = start
    if new_event is not None:
        cutoff = min(cutoff, Cutoff.of_event(new_event))
    # An event that moved across the cutoff pulls it back, so its old changes are recomputed.
    changed = True
    while changed:
        changed = False
        for eid, was, now, *_ in ledger:
            low, high = sorted((Cutoff(was, eid), Cutoff(now, eid)))
            if high >= cutoff > low:
                cutoff = low
                changed = True
    keep: dict[int, EventToRate] = {}
    dropped = []
    same_day = None if cutoff.event_id == 0 else []
    for eid, was, now, third, rounds, rated, list_id in ledger:
        if max(Cutoff(was, eid), Cutoff(now, eid)) < cutoff:
            continue
        if same_day is not None and was == cutoff.day:
            same_day.append(eid)
        if rated and list_id == rating_list.pk:
            keep[eid] = EventToRate(eid, now, third, rounds or 0)
        else:
            dropped.append(eid)
    if new_event is not None:
        keep[new_event.pk] = EventToRate(
            new_event.pk, new_event.starts_on, new_event.third_rated, new_event.number_of_games or 0
        )
    return cutoff, sorted(keep.values(), key=lambda e: (e.starts_on, e.pk)), dropped, same_day


def states_before(
    rating_list: RatingList, changes_from: Q, player_ids: set[int]
) -> tuple[dict[int, PlayerState], set[int]]:
    """Each player's standing just before the change rows `changes_from` selects, and the players
    who have such rows. A player's rows in id order are in rating order (see RatingChange)."""
    states: dict[int, PlayerState] = {}
    later = (
        RatingChange.objects.filter(changes_from, rating_list=rating_list)
        .order_by("player_id", "event_date", "pk")
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
        current = PlayerRating.objects.filter(rating_list=rating_list).values_list(
            "player_id", "rating", "games", "state", "deviation"
        )
        if len(missing) <= 5000:
            current = current.filter(player_id__in=missing)
        for pid, rating, games, st, dev in current:
            if pid in missing:
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


def plan(rating_list: RatingList, start: Cutoff, new_event: Event | None = None) -> Plan:
    """Reads what rating the list from `start` needs (refusing unconfirmed results); rates nothing yet."""
    cutoff, events, dropped, same_day = events_to_rate(rating_list, start, new_event)
    day_divisions = None
    if same_day is not None:
        day_divisions = list(Division.objects.filter(event_id__in=same_day).values_list("pk", flat=True))
    event_ids = [e.pk for e in events]

    # Read every game once, refusing before any rating if a result is not confirmed.
    by_event: dict[int, list[int]] = defaultdict(list)  # event -> its divisions with games
    # division -> [last round played (byes included), its rated games flat: round index, a, b, score a, score b]
    by_division: dict[int, list] = {}
    confirmed, normal = GameStatus.CONFIRMED.value, GameKind.NORMAL.value
    seats: dict[int, dict[int, int]] = defaultdict(dict)  # division -> player -> seat number
    unconfirmed = False
    players: set[int] = set()
    for begin in range(0, len(event_ids), EVENT_BATCH):
        batch = event_ids[begin : begin + EVENT_BATCH]
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

    row_count = 0
    for _last, rated in by_division.values():
        if rated:
            cols = np.frombuffer(rated, dtype=np.int64).reshape(-1, 5)
            row_count += np.unique(cols[:, 1:3]).size
    result = Plan(
        rating_list,
        cutoff,
        events,
        dropped,
        day_divisions,
        {},
        set(),
        row_count,
        by_event,
        by_division,
        seats,
    )
    states, had_later = states_before(rating_list, result.changes_from(), players)
    affected = players | had_later
    for pid in affected:
        states.setdefault(pid, PlayerState(0, 0, {}))
    result.states, result.affected = states, affected
    return result


def rate_one_division(
    plan: Plan, system: str, event: EventToRate, division_id: int, last_round: int, rated
) -> ChangeBlock | None:
    """Rates one division from the players' standings in the plan, moves them on, and returns the
    division's change rows (None if nobody played a rated game).

    rated: the division's rated games, flat: round index, player a, player b, score a, score b."""
    # Every round played has a row (byes included); an event may have scheduled more.
    max_rounds = max(event.scheduled_rounds, last_round)
    if not rated:
        return None
    rating_list, states, seats = plan.rating_list, plan.states, plan.seats[division_id]
    cols = np.frombuffer(rated, dtype=np.int64).reshape(-1, 5)
    # Players in seat order (tsh's player numbers), so sums run in the reference's order.
    unseated = 1 << 30
    ids_list = sorted(np.unique(cols[:, 1:3]).tolist(), key=lambda p: (seats.get(p, unseated), p))
    ids = np.array(ids_list, dtype=np.int64)
    by_id = np.argsort(ids, kind="stable")
    a = by_id[np.searchsorted(ids, cols[:, 1], sorter=by_id)]
    b = by_id[np.searchsorted(ids, cols[:, 2], sorter=by_id)]
    before = [states[p] for p in ids_list]
    pre = np.array([s.rating for s in before], dtype=np.int64)
    career = np.array([s.games for s in before], dtype=np.int64)
    try:
        result = rate_division_arrays(
            system,
            pre.astype(np.float64),
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
            day=event.starts_on,
        )
    except (UnknownSystem, ImportError):
        raise RatingError(f"The {rating_list.get_system_display()} system cannot rate events yet.")
    except BadSettings as error:
        raise RatingError(
            f"The settings of {rating_list.name} do not suit {rating_list.get_system_display()}: {error}."
        )
    games = np.asarray(result.games, dtype=np.int64)
    played = np.flatnonzero(games != 0)
    if not played.size:
        return None
    post = np.asarray(result.new_rating).astype(np.int64)[played]
    deviation = np.array([np.nan if d is None else float(d) for d in result.deviation], dtype=np.float64)
    pre_state = [before[j].state for j in played.tolist()]
    block = ChangeBlock(
        division_id=division_id,
        day=event.starts_on,
        player=ids[played],
        pre=pre[played],
        post=post,
        career_games=career[played],
        games=games[played],
        expected=np.asarray(result.expected, dtype=np.float64)[played],
        actual=np.asarray(result.actual, dtype=np.float64)[played],
        k=np.asarray(result.k, dtype=np.float64)[played],
        bonus=np.asarray(result.bonus, dtype=np.float64)[played],
        feedback=np.asarray(result.feedback, dtype=np.float64)[played],
        performance=np.asarray(result.performance, dtype=np.float64)[played],
        deviation=deviation[played],
        pre_state=pre_state if any(pre_state) else None,
    )

    # Move the players on: their standing after the event is the next event's before.
    peak, last = plan.peak, plan.last
    day = event.starts_on
    new_state, new_deviation = result.state, result.deviation
    moved = zip(played.tolist(), block.player.tolist(), post.tolist(), block.games.tolist(), strict=True)
    for j, pid, after, count in moved:
        states[pid] = PlayerState(after, before[j].games + count, new_state[j], new_deviation[j])
        if after > peak.get(pid, 0):
            peak[pid] = after
        last[pid] = day  # events come in date order
    return block
