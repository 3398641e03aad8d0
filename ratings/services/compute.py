"""Reading an event range's games and folding them through the rating engine into change rows.

A list's ratings are the fold of its seeds and its rated events in the order they began
(`starts_on`, then id). A plan starts at a point of that order (`Cutoff`): it reads the games of
every event from there on and each player's standing just before it; `Plan.blocks()` then rates
the events in order and yields each rated division's change rows (a player each), as it goes, so
they can be written while they are computed. Nothing here writes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date

import numpy as np
from django.db import connection
from django.db.models import JSONField, Q, Value
from django.db.models.functions import NullIf

from events.models import Event
from events.play.models import Division

from ..models import PlayerRating, RatedEvent, RatingChange, RatingList
from .checks import RatingError, refuse_unconfirmed
from .division_reads import Seats, division_games, division_seats
from .systems import BadSettings, UnknownSystem, rate_division_arrays

# Systems whose players carry no state from one event to the next.
ELO = ("naspa", "wespa")
# Events whose games are read in one query.
EVENT_BATCH = 500


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
class Standings:
    """Players' standings in arrays, indexed like `ids` (increasing player ids): what the engine reads
    before each division and moves on after it. `peak` and `last` (a day's ordinal) cover the new
    change rows only, 0 where a player has none."""

    ids: np.ndarray
    rating: np.ndarray
    games: np.ndarray
    deviation: np.ndarray  # NaN: none
    state: list[dict]
    peak: np.ndarray
    last: np.ndarray
    any_state: bool = False  # whether any player has a state (a system that keeps one: ABSP, Glicko-2)

    @classmethod
    def of(cls, states: dict[int, PlayerState]) -> Standings:
        ids = np.array(sorted(states), dtype=np.int64)
        rows = [states[p] for p in ids.tolist()]
        return cls(
            ids=ids,
            rating=np.array([r.rating for r in rows], dtype=np.int64),
            games=np.array([r.games for r in rows], dtype=np.int64),
            deviation=np.array([np.nan if r.deviation is None else r.deviation for r in rows], dtype=np.float64),
            state=[r.state for r in rows],
            peak=np.zeros(ids.size, dtype=np.int64),
            last=np.zeros(ids.size, dtype=np.int64),
            any_state=any(r.state for r in rows),
        )

    def at(self, player_ids: np.ndarray) -> np.ndarray:
        """Where these players (all of them known) are in the arrays."""
        return np.searchsorted(self.ids, player_ids)


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
    standings: Standings | None  # every affected player, before the cutoff; then as rated
    affected: set[int]
    row_count: int  # the change rows `blocks()` yields
    by_event: dict[int, list[int]] = field(default_factory=dict)
    by_division: dict[int, list] = field(default_factory=dict)
    seats: dict[int, Seats] = field(default_factory=dict)

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
                last_round, rated, players = self.by_division[division_id]
                block = rate_one_division(self, system, event, division_id, last_round, rated, players)
                if block is not None:
                    yield block
            if progress:
                progress(int(90 * (i + 1) / total))

    @property
    def final(self) -> dict[int, PlayerState]:
        standings = self.standings
        ids = np.array(sorted(self.affected), dtype=np.int64)
        at = standings.at(ids)
        return {
            pid: PlayerState(rating, games, standings.state[i], None if np.isnan(deviation) else deviation)
            for pid, i, rating, games, deviation in zip(
                ids.tolist(),
                at.tolist(),
                standings.rating[at].tolist(),
                standings.games[at].tolist(),
                standings.deviation[at].tolist(),
                strict=True,
            )
        }

    def set_states(self, states: dict[int, PlayerState], affected: set[int]) -> None:
        """The standings before the cutoff: `states` (at least every affected player)."""
        self.standings, self.affected = Standings.of(states), affected

    @property
    def peak(self) -> dict[int, int]:
        """Each player's highest rating in the new rows."""
        rated = self.standings.last > 0
        return dict(zip(self.standings.ids[rated].tolist(), self.standings.peak[rated].tolist(), strict=True))

    @property
    def last(self) -> dict[int, date]:
        """Each player's last event day in the new rows."""
        rated = self.standings.last > 0
        days = [date.fromordinal(d) for d in self.standings.last[rated].tolist()]
        return dict(zip(self.standings.ids[rated].tolist(), days, strict=True))


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
        # An empty state comes back as NULL, so most rows need no JSON decoded.
        .annotate(state=NullIf("pre_state", Value({}, output_field=JSONField())))
        .values_list("player_id", "pre", "career_games", "state")
    )
    if connection.vendor == "postgresql":
        # Each player's first change only: a row a player at most, read at once (a server-side cursor's extra
        # round trips cost the live ratings' small reads more than the rows do).
        rows = later.distinct("player_id")
    else:
        rows = later.iterator(chunk_size=5000)  # every later change, a player's first among them
    for pid, pre, career, pre_state in rows:
        if pid not in states:
            states[pid] = PlayerState(pre, career, pre_state or {}, (pre_state or {}).get("rd"))
    had_later = set(states)
    missing = player_ids - had_later
    if missing:
        # Unordered: the model's ordering would join every player and list to sort rows read into a dict.
        current = (
            PlayerRating.objects.filter(rating_list=rating_list)
            .order_by()
            .annotate(current_state=NullIf("state", Value({}, output_field=JSONField())))  # most are empty
            .values_list("player_id", "rating", "games", "current_state", "deviation")
        )
        if len(missing) <= 5000:
            current = current.filter(player_id__in=missing)
        for pid, rating, games, st, dev in current:
            if pid in missing:
                states[pid] = PlayerState(rating, games, st or {}, dev)
    return states, had_later


def in_seat_order(player_ids: np.ndarray, seats: Seats | None) -> np.ndarray:
    """The players (increasing ids) in seat order, those without a seat last by id, so sums run in the
    reference's order."""
    if seats is None or not seats[0].size:
        return player_ids
    seated, numbers = seats
    at = np.minimum(np.searchsorted(seated, player_ids), seated.size - 1)
    seat = np.where(seated[at] == player_ids, numbers[at], np.iinfo(np.int64).max)
    return player_ids[np.lexsort((player_ids, seat))]


def plan(rating_list: RatingList, start: Cutoff, new_event: Event | None = None) -> Plan:
    """Reads what rating the list from `start` needs (refusing unconfirmed results); rates nothing yet."""
    cutoff, events, dropped, same_day = events_to_rate(rating_list, start, new_event)
    day_divisions = None
    if same_day is not None:
        day_divisions = list(Division.objects.filter(event_id__in=same_day).values_list("pk", flat=True))
    event_ids = [e.pk for e in events]

    # Read every game once, refusing before any rating if a result is not confirmed.
    by_event: dict[int, list[int]] = defaultdict(list)  # event -> its divisions with games
    # division -> [last round played (byes included), its rated games (round index, a, b, score a, score b),
    # their players (increasing ids)]
    by_division: dict[int, list] = {}
    seats: dict[int, Seats] = {}
    unconfirmed = False
    played: list[np.ndarray] = []
    row_count = 0
    for begin in range(0, len(event_ids), EVENT_BATCH):
        batch = event_ids[begin : begin + EVENT_BATCH]
        seats.update(division_seats(batch))
        for division in division_games(batch):
            unconfirmed = unconfirmed or division.unconfirmed > 0
            players = np.unique(division.rated[:, 1:3])
            by_division[division.division_id] = [division.last_round, division.rated, players]
            by_event[division.event_id].append(division.division_id)
            row_count += players.size
            played.append(players)
    if unconfirmed:
        refuse_unconfirmed(event_ids)
    players = set(np.unique(np.concatenate(played)).tolist()) if played else set()

    result = Plan(
        rating_list,
        cutoff,
        events,
        dropped,
        day_divisions,
        None,
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
    result.set_states(states, affected)
    return result


def rate_one_division(
    plan: Plan,
    system: str,
    event: EventToRate,
    division_id: int,
    last_round: int,
    rated,
    players: np.ndarray | None = None,
) -> ChangeBlock | None:
    """Rates one division from the players' standings in the plan, moves them on, and returns the
    division's change rows (None if nobody played a rated game).

    rated: the division's rated games, a row (or five numbers) each: round index, player a, player b,
    score a, score b. players: their players in increasing ids, if known."""
    # Every round played has a row (byes included); an event may have scheduled more.
    max_rounds = max(event.scheduled_rounds, last_round)
    if not len(rated):
        return None
    rating_list, standings = plan.rating_list, plan.standings
    cols = np.asarray(rated, dtype=np.int64).reshape(-1, 5)
    ids = in_seat_order(np.unique(cols[:, 1:3]) if players is None else players, plan.seats.get(division_id))
    by_id = np.argsort(ids, kind="stable")
    a = by_id[np.searchsorted(ids, cols[:, 1], sorter=by_id)]
    b = by_id[np.searchsorted(ids, cols[:, 2], sorter=by_id)]
    at = standings.at(ids)
    pre = standings.rating[at]
    career = standings.games[at]
    # The Elo systems keep no state: unless some player has one, there is none to read.
    before_states = [standings.state[i] for i in at.tolist()] if standings.any_state or system not in ELO else []
    try:
        result = rate_division_arrays(
            system,
            pre.astype(np.float64),
            career,
            before_states,
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
    elo = system in ELO  # no deviation and no state: nothing to look through a player at a time
    deviation = (
        np.full(len(result.deviation), np.nan)
        if elo
        else np.array([np.nan if d is None else float(d) for d in result.deviation], dtype=np.float64)
    )
    stateful = any(before_states) or (not elo and any(result.state))
    standings.any_state = standings.any_state or stateful
    pre_state = [before_states[j] for j in played.tolist()] if stateful else None
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
        pre_state=pre_state if pre_state and any(pre_state) else None,
    )

    # Move the players on: their standing after the event is the next event's before.
    moved = at[played]
    standings.rating[moved] = post
    standings.games[moved] += block.games
    standings.deviation[moved] = block.deviation
    if stateful:
        for j, i in zip(played.tolist(), moved.tolist(), strict=True):
            standings.state[i] = result.state[j]
    standings.peak[moved] = np.maximum(standings.peak[moved], post)
    standings.last[moved] = event.starts_on.toordinal()  # events come in date order
    return block
