"""Live ratings: what a division's players would be rated if the event ended now.

The rating a run would give from the division's confirmed results so far, by the run's own code: the
players' standing just before the event in the list's rating order (`compute.states_before` at the
event's cutoff, as `compute.plan` reads it: every event that began earlier, and earlier events of the
same day), their career games and carried state, the event's scheduled rounds (NASPA's segments) and
1/3-rating, newcomers, all through `compute.rate_one_division` and so `systems.rate_division_arrays`.
Byes, forfeits, void games and unconfirmed results do not count, as in a run. Once every result is
in, the live ratings are exactly what rating the event stores.

Cached per division under a version that any confirmation or correction changes (the count, latest
confirmation time and score sums of its confirmed games), with the list's version (a run elsewhere on
the list moves pre-event ratings), the event's rating settings and the seats. The players' standing
before the event is cached apart, under the list's version, so a recomputation reads only the division.
"""

from __future__ import annotations

import hashlib
import json
from array import array
from dataclasses import dataclass

from celery import shared_task
from django.core.cache import cache
from django.db import connection

from clubsite.kit.tasks import enqueue
from events.models import Event
from events.play.models import Division, DivisionPlayer, Game, GameKind, GameStatus

from ..models import RatedEvent, RatingList
from .compute import Cutoff, EventToRate, Plan, PlayerState, rate_one_division, states_before
from .division_reads import seat_tables

# Cached entries are replaced by a new version at once; the timeout only clears old ones away.
CACHE_SECONDS = 6 * 60 * 60


@dataclass(frozen=True)
class LiveRating:
    """One player: rating before the event (0 = unrated), rating if the event ended now (0 = still
    unrated), rated games played so far."""

    pre: int
    rating: int
    games: int
    wins: float = 0.0
    is_newcomer: bool = False

    @property
    def change(self) -> int | None:
        """Against the pre-event rating; None for a newcomer or before a rated game."""
        if not self.games or not self.pre:
            return None
        return self.rating - self.pre


@dataclass(frozen=True)
class LiveRatings:
    division_id: int
    version: str
    system: str
    rated_games: int  # confirmed rated games counted
    players: dict[int, LiveRating]  # every seat of the division, and anyone with a counted game

    def get(self, player_id: int) -> LiveRating | None:
        return self.players.get(player_id)


def _event_of(division: Division) -> Event:
    event = division.event
    if event.rating_list_id and "rating_list" not in event._state.fields_cache:
        event = Event.objects.select_related("rating_list").get(pk=event.pk)
    return event


def live_version(division: Division, event: Event, rating_list: RatingList) -> str:
    """A cheap key that changes whenever the live ratings may (one query: every poll of a player's phone asks it)."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT g.n, g.last, g.sa, g.sb, s.n, s.top
                FROM (SELECT COUNT(*) AS n, MAX(confirmed_at) AS last, SUM(score_a) AS sa, SUM(score_b) AS sb
                      FROM {quote(Game._meta.db_table)} WHERE division_id = %s AND status = %s) g,
                     (SELECT COUNT(*) AS n, MAX(id) AS top
                      FROM {quote(DivisionPlayer._meta.db_table)} WHERE division_id = %s) s""",
            [division.pk, GameStatus.CONFIRMED.value, division.pk],
        )
        confirmed, last, score_a, score_b, seats, top = cursor.fetchone()
    parts = [
        confirmed,
        str(last or ""),  # the time of the latest confirmation, as the database gives it
        score_a,
        score_b,
        seats,
        top,
        rating_list.pk,
        rating_list.version,
        rating_list.system,
        rating_list.settings,
        event.starts_on.isoformat(),
        event.third_rated,
        event.number_of_games,
    ]
    return hashlib.sha1(json.dumps(parts, default=str, sort_keys=True).encode()).hexdigest()[:20]


def live_ratings(division: Division) -> LiveRatings | None:
    """The division's ratings if the event ended now, from its confirmed results; None if the event
    is not rated on a list. Cached until a result is confirmed or corrected."""
    event = _event_of(division)
    if not (event.rated and event.rating_list_id):
        return None
    rating_list = event.rating_list
    version = live_version(division, event, rating_list)
    key = f"live-ratings:{division.pk}:{version}"
    found = cache.get(key)
    if found is not None:
        return found
    found = compute_live_ratings(rating_list, event, division.pk, version)
    cache.set(key, found, CACHE_SECONDS)
    return found


def _cutoff_plan(rating_list: RatingList, event: Event, day_divisions: list[int] | None = None) -> Plan:
    """A plan that starts at the event, as `compute.plan` would for it: the same cutoff and the same
    events of its day counted before it (those that began on that day with a lower id). `day_divisions`:
    the divisions of the others, when known already."""
    cutoff = Cutoff.of_event(event)
    if day_divisions is None:
        same_day = RatedEvent.objects.filter(rating_list=rating_list, starts_on=cutoff.day, event_id__gte=event.pk)
        day_divisions = list(
            Division.objects.filter(event_id__in=same_day.values("event_id")).order_by().values_list("pk", flat=True)
        )
    return Plan(rating_list, cutoff, [], [], day_divisions, None, set(), 0)


def _before_event(rating_list: RatingList, event: Event, players: set[int]) -> tuple[list[int], dict]:
    """The divisions of the event's day that `_cutoff_plan` finds, and each player's standing just before the
    event (every one of `players`, unrated ones as such). That is what the list held before the event
    began, which only a write of the list's ratings moves, and each bumps its version: so it is cached
    under that version, and a correction during the event reads only the division's games (reading the
    standing was a third of the recomputation)."""
    digest = hashlib.sha1(array("q", sorted(players)).tobytes()).hexdigest()[:20]
    key = f"live-before:{rating_list.pk}:{rating_list.version}:{event.pk}:{event.starts_on.isoformat()}:{digest}"
    found = cache.get(key)
    if found is None:
        plan = _cutoff_plan(rating_list, event)
        states, _ = states_before(rating_list, plan.changes_from(), players)
        for pid in players:
            states.setdefault(pid, PlayerState(0, 0, {}))
        found = (plan.day_divisions, states)
        cache.set(key, found, CACHE_SECONDS)
    return found


def compute_live_ratings(rating_list: RatingList, event: Event, division_id: int, version: str = "") -> LiveRatings:
    """Rates the division from its confirmed games, the result not cached (see `live_ratings`); the players'
    standing before the event comes from `_before_event`."""
    # Unordered (into a dict): the models' orderings would join the division and its event.
    seats = dict(DivisionPlayer.objects.filter(division_id=division_id).order_by().values_list("player_id", "number"))
    seat_table = seat_tables((division_id, pid, number) for pid, number in seats.items())
    last_round, rated = 0, array("q")
    players: set[int] = set()
    normal = GameKind.NORMAL.value
    rows = Game.objects.filter(division_id=division_id, status=GameStatus.CONFIRMED).order_by()
    for rnd, kind, a, b, sa, sb in rows.values_list(
        "round_number", "kind", "player_a_id", "player_b_id", "score_a", "score_b"
    ):
        last_round = max(last_round, rnd)
        if kind == normal and b is not None and sa is not None and sb is not None:
            rated.extend((rnd - 1, a, b, sa, sb))
            players.add(a)
            players.add(b)
    day_divisions, states = _before_event(rating_list, event, players | set(seats))
    plan = _cutoff_plan(rating_list, event, day_divisions)
    plan.set_states(states, players)
    plan.seats = seat_table
    target = EventToRate(event.pk, event.starts_on, event.third_rated, event.number_of_games or 0)
    before = {pid: states[pid].rating for pid in states}
    out: dict[int, LiveRating] = {pid: LiveRating(before[pid], before[pid], 0) for pid in seats}
    block = rate_one_division(plan, rating_list.system, target, division_id, last_round, rated)
    if block is not None:
        for pid, pre, post, games, actual in zip(
            block.player.tolist(),
            block.pre.tolist(),
            block.post.tolist(),
            block.games.tolist(),
            block.actual.tolist(),
            strict=True,
        ):
            out[pid] = LiveRating(pre, post, games, actual, pre == 0)
    return LiveRatings(division_id, version, rating_list.system, len(rated) // 5, out)


def has_live_ratings(division: Division) -> bool:
    """Whether the division shows live ratings: its event is rated on a rating list, and the division is not
    final yet (then the rating run gives the real ratings)."""
    event = division.event
    return division.finalised_at is None and event.rated and bool(event.rating_list_id)


def division_live_ratings(division: Division) -> LiveRatings | None:
    """The division's live ratings while it is played (`has_live_ratings`); None otherwise."""
    return live_ratings(division) if has_live_ratings(division) else None


# Defined beside the service that queues it (as the other queued tasks are), so no service and task import
# each other. Its name is the one a queue may already hold.
@shared_task(name="ratings.refresh_live_ratings")
def refresh_live_ratings(division_id: int) -> None:
    """Works out a division's live ratings after its results changed, into the cache the play pages read.
    Safe to run twice: the second finds them cached."""
    division = Division.objects.select_related("event__rating_list").filter(pk=division_id).first()
    if division is not None:
        division_live_ratings(division)


def refresh_after_commit(division: Division) -> None:
    """Once the caller's change to the division's results commits, its live ratings are worked out again in
    the background (`refresh_live_ratings`), so whoever looks next, a player refreshing the standings, finds
    them ready rather than waiting for them (a 300-player division: about 10 ms). Nothing is lost if the task
    never runs: the next page works them out itself."""
    if has_live_ratings(division):
        enqueue(refresh_live_ratings, division.pk)
