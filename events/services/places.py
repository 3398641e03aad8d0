"""Places: how many an event and its categories have taken, the waiting-list position, and how a new
entry takes a place. Every count that decides a place runs under the event lock (see common.lock_event)."""

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from functools import cache

from django.db import IntegrityError
from django.db.models import Count, Max, Min, Q

from clubsite.kit.prepared import Prepared
from clubsite.kit.status import move

from ..models import PLACE_HOLDING_STATUSES, Category, Entry, EntryStatus, Event, EventStatus
from .common import RegistrationError


@dataclass(frozen=True)
class Places:
    """Places taken per category and in the whole event (pending payment, confirmed or offered)."""

    taken: dict[int, int]
    total: int

    def left_in(self, event: Event, category: Category) -> int | None:
        """Places still free in this category (None: no limit)."""
        limits = []
        if category.quota is not None:
            limits.append(category.quota - self.taken.get(category.pk, 0))
        if event.max_entrants is not None:
            limits.append(event.max_entrants - self.total)
        return max(min(limits), 0) if limits else None

    def left_in_event(self, event: Event, categories) -> int | None:
        if event.max_entrants is not None:
            left = event.max_entrants - self.total
        else:
            left = None
        if categories and all(c.quota is not None for c in categories):
            by_category = sum(max(c.quota - self.taken.get(c.pk, 0), 0) for c in categories)
            left = by_category if left is None else min(left, by_category)
        return None if left is None else max(left, 0)

    def has_room(self, event: Event, category: Category) -> bool:
        left = self.left_in(event, category)
        return left is None or left > 0

    def release(self, category_id: int) -> "Places":
        taken = dict(self.taken)
        taken[category_id] = max(taken.get(category_id, 0) - 1, 0)
        return Places(taken, max(self.total - 1, 0))

    def take(self, category: Category) -> "Places":
        taken = dict(self.taken)
        taken[category.pk] = taken.get(category.pk, 0) + 1
        return Places(taken, self.total + 1)


def shown_status(event: Event, places_left: int | None) -> tuple[str, str]:
    """The event's status as its pages show it, (key, words): while registration is open and no place is left, it
    reads "Full — waiting list open" (or "Full" when the event keeps no list), never a green "Registration open"."""
    if event.status == EventStatus.REGISTRATION_OPEN and places_left == 0:
        return ("full_waiting_list", "Full — waiting list open") if event.keeps_waiting_list else ("full", "Full")
    return event.status, event.get_status_display()


def with_shown_status(events: list[Event]) -> list[Event]:
    """Sets on each event its places taken (`places_taken`) and its status as shown (`shown_status`,
    `shown_label`), in two queries whatever the number of events: every list of events shows the same status the
    event's own page does, "Full — waiting list open" rather than "Registration open" once no place is left."""
    ids = [event.pk for event in events]
    taken: dict[int, dict[int, int]] = {}
    for event_id, category_id, n in (
        Entry.objects.filter(event__in=ids, status__in=PLACE_HOLDING_STATUSES)
        .order_by()
        .values_list("event_id", "category_id")
        .annotate(n=Count("pk"))
    ):
        taken.setdefault(event_id, {})[category_id] = n
    categories: dict[int, list] = {}
    for category in Category.objects.filter(event__in=ids).only("pk", "event_id", "quota").order_by():
        categories.setdefault(category.event_id, []).append(category)
    for event in events:
        current = Places(taken.get(event.pk, {}), sum(taken.get(event.pk, {}).values()))
        event.places_taken = current.total
        event.has_categories = event.pk in categories
        event.shown_status, event.shown_label = shown_status(
            event, current.left_in_event(event, categories.get(event.pk, []))
        )
    return events


def places(event: Event) -> Places:
    rows = (
        Entry.objects.filter(event=event, status__in=PLACE_HOLDING_STATUSES)
        .values("category")
        .annotate(n=Count("pk"))
        .order_by()
    )
    taken = {row["category"]: row["n"] for row in rows}
    return Places(taken, sum(taken.values()))


@dataclass(frozen=True)
class EntryCounts:
    """An event's entries as a new entry finds them under the event lock, counted in one statement."""

    places: Places
    waiting: int  # on the waiting list
    # By category: how many on the waiting list were accepted at or before `moment`, so are ahead of a new entry
    # (None: one was accepted later, by another server's clock, and the list must be counted).
    ahead: dict[int, int | None]
    overdue: bool  # an unpaid place or an offer whose deadline had passed at `moment`
    moment: datetime


@cache
def _entry_counts_query(fields: tuple[str, ...]) -> Prepared:
    """`entry_counts`' query for these deadline fields (one set in practice). Every entry runs it under the event
    lock: compiled once per connection."""
    return Prepared(
        lambda event_id: (
            Entry.objects.filter(event=event_id, status__in=[*PLACE_HOLDING_STATUSES, EntryStatus.WAITLISTED])
            .values("category", "status")
            .annotate(n=Count("pk"), last_accepted=Max("accepted_at"), **{f"first_{f}": Min(f) for f in fields})
            .order_by()
        ),
        int,
    )


def entry_counts(event: Event, moment: datetime, deadlines: dict[str, str]) -> EntryCounts:
    """The places taken, the waiting list and whether anything is overdue, in one query grouped by category and
    status. `deadlines`: the date after which an entry in each status is overdue (status.DEADLINES)."""
    rows = _entry_counts_query(tuple(sorted(set(deadlines.values())))).rows(event.pk)
    taken, ahead, waiting, overdue = {}, {}, 0, False
    for row in rows:
        category, status, n = row["category"], row["status"], row["n"]
        if status == EntryStatus.WAITLISTED:
            waiting += n
            ahead[category] = n if row["last_accepted"] <= moment else None
        else:
            taken[category] = taken.get(category, 0) + n
        deadline = deadlines.get(status) and row[f"first_{deadlines[status]}"]
        overdue = overdue or bool(deadline and deadline <= moment)
    return EntryCounts(Places(taken, sum(taken.values())), waiting, ahead, overdue, moment)


def waitlist_position(entry: Entry) -> int | None:
    """1 for the next in line (in the entry's category), None when not on the waiting list."""
    if entry.status != EntryStatus.WAITLISTED:
        return None
    ahead = Entry.objects.filter(
        Q(accepted_at__lt=entry.accepted_at) | Q(accepted_at=entry.accepted_at, pk__lt=entry.pk),
        event_id=entry.event_id,
        category_id=entry.category_id,
        status=EntryStatus.WAITLISTED,
    ).count()
    return ahead + 1


def waitlist_positions(entries) -> dict[int, int]:
    """`waitlist_position` of each waitlisted entry among `entries`, by entry id: one query for a whole list
    (its categories' waiting lists), where asking each entry costs a query each."""
    waiting = {e.pk for e in entries if e.status == EntryStatus.WAITLISTED}
    if not waiting:
        return {}
    queues = (
        Entry.objects.filter(
            category_id__in={e.category_id for e in entries if e.pk in waiting}, status=EntryStatus.WAITLISTED
        )
        .order_by("event_id", "category_id", "accepted_at", "pk")
        .values_list("pk", "event_id", "category_id")
    )
    positions, line, place = {}, None, 0
    for pk, event_id, category_id in queues:
        place = place + 1 if line == (event_id, category_id) else 1
        line = (event_id, category_id)
        if pk in waiting:
            positions[pk] = place
    return positions


def ratings_list_of(event: Event):
    """The rating list an event's entrants are known by: its own, else the association's first. An unrated event (a
    schools' championship) still has rating bands and divisions by rating, and they use the ratings its entrants list
    shows. The list's id, or a subquery giving it (for a filter)."""
    from ratings.models import RatingList

    return event.rating_list_id or RatingList.objects.order_by("position", "name").values("pk")[:1]


def player_ratings(event: Event, player_ids) -> dict[int, int]:
    """Current ratings by player id on the event's rating list (`ratings_list_of`); unrated left out. One query."""
    from ratings.models import PlayerRating

    rows = PlayerRating.objects.filter(
        rating_list_id=ratings_list_of(event), player_id__in=list(player_ids), rating__gt=0
    )
    return dict(rows.order_by().values_list("player_id", "rating"))  # no default ordering: it joins players


def player_rating(event: Event, player_id: int) -> int | None:
    """One player's current rating as `player_ratings` gives it (None: unrated), in one query."""
    from ratings.models import PlayerRating

    rows = PlayerRating.objects.filter(rating_list_id=ratings_list_of(event), player_id=player_id, rating__gt=0)
    return rows.order_by().values_list("rating", flat=True).first()


def new_entry_status(event: Event, category: Category, current: Places, amount_due: Decimal):
    """Where a new entry goes: a place (pending payment, or confirmed when there is nothing to pay) or the list."""
    if current.has_room(event, category):
        return EntryStatus.CONFIRMED if amount_due <= 0 else EntryStatus.PENDING_PAYMENT
    if not event.keeps_waiting_list:
        raise RegistrationError(f"{category.name} is full and this event keeps no waiting list.", field="category")
    return EntryStatus.WAITLISTED


def insert_entry(entry: Entry) -> Entry:
    """Saves a new entry; the one-active-entry constraint turns a duplicate into a clear refusal.

    No savepoint of its own: the refusal ends the caller's transaction (it is raised out of it)."""
    try:
        entry.save(force_insert=True)
    except IntegrityError:
        raise RegistrationError(f"{entry.player} has already entered this event.", field="player") from None
    return entry


def place_entry(entry: Entry, status: str, moment) -> None:
    move(entry, status)
    if status == EntryStatus.PENDING_PAYMENT:
        entry.payment_due_at = moment + timedelta(hours=entry.event.payment_hold_hours)
    elif status == EntryStatus.CONFIRMED:
        entry.confirmed_at = moment


def hold_for_invoice(entries, last_day: date) -> None:
    """An invoice's pay-by holds its unpaid places (a school's purchase order takes longer than the usual hold):
    each is held to the end of `last_day` in the event's time zone, never past registration's close and never
    for less than it already was. The lapse job and the registration clock read the same payment_due_at."""
    for entry in entries:
        if entry.status != EntryStatus.PENDING_PAYMENT or entry.payment_due_at is None:
            continue
        event = entry.event
        until = datetime.combine(last_day, time(23, 59, 59), tzinfo=event.zone)
        if event.registration_closes_at:
            until = min(until, event.registration_closes_at)
        if until > entry.payment_due_at:
            entry.payment_due_at = until
            entry.save(update_fields=["payment_due_at"])
