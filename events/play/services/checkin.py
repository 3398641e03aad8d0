"""Check-in at reporting time (seed 004): entrants report at the venue; a player not there ten minutes after
reporting closes gives up their place, which goes to people on the waiting list who are present.

A director ticks players off (or a player checks in on their phone with the code shown at the venue; wrong codes
are counted, per account and per client address, and too many in GUESS_WINDOW make the player wait, so the six
characters cannot be guessed).
Once the grace time has passed, the director withdraws the missing entrants in one step: each entry
becomes withdrawn and, as round 1 is not paired yet, its division seat is removed (so the player is
neither paired nor listed). The freed places then go to present waiting-list entrants, first come first
served, each taking a seat in a division. Everything runs under the event lock that every place count
takes (events.services.common.lock_event), then the division lock.

The entries' own withdraw service lets only the entrant or the organiser act, and passes a freed place to
the waiting list by email; at the venue the director acts and the place goes to someone in the hall, so
the moves are made here with the same status rules (clubsite.kit.status.move) and the same place count
(events.services.places).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from clubsite.kit.errors import NotAllowed
from clubsite.kit.status import move
from events.models import Entry, EntryStatus, Event
from events.permissions import can_direct_event
from events.play.models import CheckIn, Division, DivisionPlayer, Round
from events.services.common import lock_event
from events.services.places import place_entry, places

from .common import PlayError, check_open, lock_division, require_director
from .seating import seat_late

GRACE = timedelta(minutes=10)  # seed 004: "fails to turn up ten minutes after the reporting time has lapsed"
# Wrong venue codes allowed in GUESS_WINDOW: per account, and per client address (generous, as a venue's players may
# share one network). Counted in the site's shared cache, as the log-in lockout is.
GUESS_WINDOW = timedelta(minutes=15)
ACCOUNT_GUESSES = 5
ADDRESS_GUESSES = 30
ENTRANT_STATUSES = (EntryStatus.CONFIRMED, EntryStatus.PENDING_PAYMENT)
WAITING_STATUSES = (EntryStatus.WAITLISTED, EntryStatus.OFFERED)


@dataclass(frozen=True)
class Reporting:
    """The reporting window on the first day, in the server's time (None where the event sets no time)."""

    opens_at: datetime | None
    closes_at: datetime | None

    @property
    def places_given_up_at(self) -> datetime | None:
        return self.closes_at + GRACE if self.closes_at else None

    def no_shows_due(self, moment: datetime) -> bool:
        """Whether missing entrants have given up their places (always, when no reporting time is set)."""
        return self.places_given_up_at is None or moment >= self.places_given_up_at


def reporting(event: Event) -> Reporting:
    def at(time):
        return datetime.combine(event.starts_on, time, tzinfo=event.zone) if time else None

    return Reporting(opens_at=at(event.reporting_time), closes_at=at(event.reporting_until or event.reporting_time))


def venue_code(event: Event) -> str:
    """The code shown at the venue that lets a player check themselves in (six letters and digits)."""
    digest = salted_hmac("events.check-in", f"{event.pk}:{event.starts_on.isoformat()}").hexdigest()
    return digest[:6].upper()


@dataclass
class Row:
    entry: Entry
    seat: DivisionPlayer | None
    check_in: CheckIn | None

    @property
    def present(self) -> bool:
        return self.check_in is not None


@dataclass
class CheckInList:
    """Who is expected at the venue and who has reported (four queries)."""

    event: Event
    reporting: Reporting
    entrants: list[Row] = field(default_factory=list)  # holding a place, by name
    waiting: list[Row] = field(default_factory=list)  # the waiting list, in order
    divisions: list[Division] = field(default_factory=list)
    started: set[int] = field(default_factory=set)  # divisions with a round paired (draft or published)
    places_left: int | None = None

    @property
    def present(self) -> list[Row]:
        return [r for r in self.entrants if r.present]

    @property
    def missing(self) -> list[Row]:
        return [r for r in self.entrants if not r.present]

    @property
    def waiting_present(self) -> list[Row]:
        return [r for r in self.waiting if r.present]

    @property
    def withdrawable(self) -> list[Row]:
        """Missing entrants whose division has no round paired yet (so their seat can simply go)."""
        return [r for r in self.missing if r.seat is None or r.seat.division_id not in self.started]


def check_in_list(event: Event) -> CheckInList:
    entries = list(
        Entry.objects.filter(event=event, status__in=(*ENTRANT_STATUSES, *WAITING_STATUSES))
        .select_related("player", "category", "check_in")
        .order_by("accepted_at", "pk")
    )
    seats = {
        s.entry_id: s
        for s in DivisionPlayer.objects.filter(division__event=event, entry__isnull=False).select_related("division")
    }
    report = CheckInList(event=event, reporting=reporting(event))
    for entry in entries:
        row = Row(entry, seats.get(entry.pk), getattr(entry, "check_in", None))
        (report.entrants if entry.status in ENTRANT_STATUSES else report.waiting).append(row)
    report.entrants.sort(key=lambda r: (r.entry.player.name.casefold(), r.entry.pk))
    report.divisions = list(event.divisions.order_by("position", "name"))
    report.started = set(Round.objects.filter(division__event=event).values_list("division_id", flat=True))
    report.places_left = places(event).left_in_event(event, list(event.categories.all()))
    return report


def _entry(event: Event, entry_id: int) -> Entry:
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("player", "category")
        .filter(pk=entry_id, event=event)
        .first()
    )
    if entry is None:
        raise PlayError("That entry is not part of this event.")
    entry.event = event
    return entry


class WrongCode(PlayError):
    """A venue code that is not the event's: counted toward the limit on guesses."""


class TooManyGuesses(PlayError):
    """Too many wrong venue codes lately; `wait` is how long until the next try counts (a timedelta)."""

    def __init__(self, message: str, wait: timedelta):
        super().__init__(message, field="code")
        self.wait = wait


def _guess_counters(actor, address: str) -> list[tuple[str, int]]:
    counters = [(f"play:check-in-guesses:account:{actor.pk}", ACCOUNT_GUESSES)]
    if address:
        counters.append((f"play:check-in-guesses:address:{address}", ADDRESS_GUESSES))
    return counters


def _recent(key: str, now: float) -> list[float]:
    """When the wrong codes counted under `key` were given, those within GUESS_WINDOW."""
    found = cache.get(key)
    since = now - GUESS_WINDOW.total_seconds()
    return [t for t in found if isinstance(t, float) and t > since] if isinstance(found, list) else []


def _wait_for_guesses(actor, address: str) -> timedelta:
    """How long until a venue code may be tried again (nothing: now)."""
    now = timezone.now().timestamp()
    wait = 0.0
    for key, limit in _guess_counters(actor, address):
        recent = _recent(key, now)
        if len(recent) >= limit:
            wait = max(wait, recent[-limit] + GUESS_WINDOW.total_seconds() - now)
    return timedelta(seconds=wait)


def _count_wrong_code(actor, address: str) -> None:
    now = timezone.now().timestamp()
    for key, limit in _guess_counters(actor, address):
        cache.set(key, [*_recent(key, now), now][-limit:], int(GUESS_WINDOW.total_seconds()))


def _too_many(wait: timedelta, lead: str = "") -> TooManyGuesses:
    minutes = max(1, -(-int(wait.total_seconds()) // 60))
    return TooManyGuesses(
        f"{lead}Too many wrong codes: try again in {minutes} minute{'s' if minutes != 1 else ''}, or ask a "
        "tournament director to check you in.",
        wait,
    )


def check_in(actor, entry: Entry, *, code: str | None = None, address: str = "") -> CheckIn:
    """Marks an entrant (or a waiting-list entrant) present. A director may tick anyone off; a player checks
    in their own entry with the code shown at the venue, until their place is given up. A wrong code counts
    against the player's account and the client `address` (clubsite.kit.ip.client_ip); after ACCOUNT_GUESSES
    (or ADDRESS_GUESSES) of them in GUESS_WINDOW, codes are refused (TooManyGuesses, saying how long to wait)."""
    try:
        return _check_in(actor, entry, code=code, address=address)
    except WrongCode as wrong:
        _count_wrong_code(actor, address)  # after the rollback, so that it stays counted
        wait = _wait_for_guesses(actor, address)
        if wait:
            raise _too_many(wait, f"{wrong.message} ") from None
        raise


@transaction.atomic
def _check_in(actor, entry: Entry, *, code: str | None, address: str) -> CheckIn:
    event = lock_event(entry.event_id)
    entry = _entry(event, entry.pk)
    director = can_direct_event(actor, event)
    if not director:
        if not (actor and actor.is_authenticated and entry.player.user_id == actor.id):
            raise NotAllowed("Only a director can check someone else in.")
        if wait := _wait_for_guesses(actor, address):
            raise _too_many(wait)
        if (code or "").strip().upper() != venue_code(event):
            raise WrongCode("That is not the code shown at the venue.", field="code")
        if timezone.localdate(timezone.now(), event.zone) != event.starts_on:
            raise PlayError("Check-in is open on the day of the event.")
        due = reporting(event).places_given_up_at
        if due and timezone.now() >= due and entry.status in ENTRANT_STATUSES:
            raise PlayError("Reporting has closed: see the tournament director.")
    if entry.status not in (*ENTRANT_STATUSES, *WAITING_STATUSES):
        raise PlayError(f"This entry is {entry.get_status_display().lower()}.")
    existing = CheckIn.objects.filter(entry=entry).first()
    if existing:
        return existing
    return CheckIn.objects.create(entry=entry, checked_in_at=timezone.now(), checked_in_by=actor, by_self=not director)


@transaction.atomic
def undo_check_in(actor, entry: Entry) -> None:
    """A director's tick taken back (a mistaken name)."""
    event = lock_event(entry.event_id)
    require_director(actor, event)
    CheckIn.objects.filter(entry_id=entry.pk).delete()


@transaction.atomic
def withdraw_no_shows(actor, event: Event, entry_ids: list[int]) -> list[Entry]:
    """The missing entrants listed (as the director saw them) give up their places: each entry is withdrawn
    and its division seat removed. Refused before the grace time is up, for anyone who has checked in
    since, and once a round of their division is paired."""
    event = lock_event(event.pk)
    require_director(actor, event)
    moment = timezone.now()
    times = reporting(event)
    if not times.no_shows_due(moment):
        due = timezone.localtime(times.places_given_up_at, event.zone).strftime("%H:%M")
        raise PlayError(f"Players keep their places until {due}, ten minutes after reporting closes.")
    entries = list(
        Entry.objects.select_for_update(of=("self",))
        .filter(event=event, pk__in=entry_ids, status__in=ENTRANT_STATUSES)
        .select_related("player")
        .order_by("pk")
    )
    if not entries:
        raise PlayError("Nobody to withdraw: everyone listed has checked in or already left.")
    here = set(CheckIn.objects.filter(entry__in=entries).values_list("entry_id", flat=True))
    arrived = [e.player.full_name for e in entries if e.pk in here]
    if arrived:
        raise PlayError(f"{', '.join(arrived)} checked in meanwhile: look at the list again.")
    seats = list(DivisionPlayer.objects.filter(entry__in=entries))
    for division_id in sorted({s.division_id for s in seats}):
        division = lock_division(division_id)
        check_open(division)
        if division.rounds.exists():
            raise PlayError(
                f"Round 1 of {division.name} is already paired: delete the draft first, "
                "or withdraw the player from the division page."
            )
    DivisionPlayer.objects.filter(pk__in=[s.pk for s in seats]).delete()
    for entry in entries:
        move(entry, EntryStatus.WITHDRAWN)
        entry.ended_at = moment
        entry.save(update_fields=["status", "ended_at"])
    return entries


def _division_for(event: Event, entry: Entry, division: Division | None) -> Division | None:
    """The division a waiting-list entrant takes a seat in: the one given, else the only one of their category or
    of the event. None while the event has no divisions: there is nothing to choose from, and the entrant joins
    the field as every other entrant does, placed when divisions are assigned."""
    if division is not None:
        if division.event_id != event.pk:
            raise PlayError("That division is not part of this event.", field="division")
        return division
    divisions = list(event.divisions.all())
    if not divisions:
        return None
    same = [d for d in divisions if d.category_id == entry.category_id]
    if len(same) == 1:
        return same[0]
    if len(divisions) == 1:
        return divisions[0]
    raise PlayError(f"Choose the division {entry.player.full_name} plays in.", field="division")


@dataclass(frozen=True)
class Placed:
    """A waiting-list entrant who took a free place, with their seat; no seat while the event has no divisions."""

    entry: Entry
    seat: DivisionPlayer | None

    def __str__(self) -> str:
        name = self.entry.player.name
        if self.seat is None:
            return f"{name} (joins the field: divisions are not assigned yet)"
        return f"{name} ({self.seat.division.name} #{self.seat.number})"


@transaction.atomic
def seat_from_waiting_list(actor, entry: Entry, division: Division | None = None) -> Placed:
    """A present waiting-list entrant takes a free place, and a seat before round 1 of the division is paired.

    The place is counted as every place is (category quota and event limit); the entry becomes confirmed,
    or pending payment while a fee is still due (paid at the desk and recorded as any payment). Before the
    event has divisions there is no seat to take: the entrant simply joins the field. A seat is numbered by
    rating among the division's seats, as assignment numbers them (`seating.seat_late`)."""
    event = lock_event(entry.event_id)
    require_director(actor, event)
    entry = _entry(event, entry.pk)
    if entry.status not in WAITING_STATUSES:
        raise PlayError(f"{entry.player.full_name} is not on the waiting list.")
    if not CheckIn.objects.filter(entry=entry).exists():
        raise PlayError(f"Check {entry.player.full_name} in first: places go to people who are here.")
    ahead = (
        Entry.objects.filter(event=event, status__in=WAITING_STATUSES, category=entry.category, check_in__isnull=False)
        .filter(accepted_at__lte=entry.accepted_at)
        .exclude(pk=entry.pk)
        .exclude(accepted_at=entry.accepted_at, pk__gt=entry.pk)
        .select_related("player")
        .first()
    )
    if ahead:
        raise PlayError(f"{ahead.player.full_name} is here and ahead on the waiting list.")
    if entry.status == EntryStatus.WAITLISTED:
        if not places(event).has_room(event, entry.category):
            raise PlayError(f"{entry.category.name} has no free place: withdraw the missing players first.")
        move(entry, EntryStatus.OFFERED)
        entry.offered_at = timezone.now()
    chosen = _division_for(event, entry, division)
    division = lock_division(chosen.pk) if chosen is not None else None
    if division is not None:
        check_open(division)
        if division.rounds.exists():
            raise PlayError(f"Round 1 of {division.name} is already paired: add a late entrant from the division page.")
    moment = timezone.now()
    place_entry(entry, EntryStatus.CONFIRMED if entry.balance <= 0 else EntryStatus.PENDING_PAYMENT, moment)
    entry.division = division
    entry.save(update_fields=["status", "offered_at", "payment_due_at", "confirmed_at", "division"])
    if division is None:
        return Placed(entry, None)
    seat = seat_late(division, entry.player, entry=entry, reason="took a free place at reporting time")
    return Placed(entry, seat)


@transaction.atomic
def fill_places(actor, event: Event) -> list[Placed]:
    """Every free place to the present waiting-list entrants, in waiting-list order, while places last."""
    event = lock_event(event.pk)
    require_director(actor, event)
    seated = []
    for row in check_in_list(event).waiting_present:
        if not places(event).has_room(event, row.entry.category) and row.entry.status == EntryStatus.WAITLISTED:
            continue
        seated.append(seat_from_waiting_list(actor, row.entry))
    if not seated:
        raise PlayError("No free place for anyone present on the waiting list.")
    return seated
