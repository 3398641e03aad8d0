"""Series of club nights and their exceptions: the nights are made when the series is planned (clubs.core says
which dates), so each has its own page, RSVPs and door."""

from datetime import date
from decimal import Decimal

from django.db import transaction

from clubsite.kit.money import parse_amount
from clubsite.kit.status import move
from clubsite.kit.text import check_free_text

from .. import core
from ..models import AttendanceStatus, ClubNight, NightException, NightSeries, NightStatus
from .common import ClubError, require_director

MAX_FEE_DIGITS = 8  # the fee columns' digits


def _fee(value, field: str, what: str) -> Decimal:
    return parse_amount(value, field=field, what=what, zero=True, max_digits=MAX_FEE_DIGITS, error=ClubError)


@transaction.atomic
def plan_series(
    actor,
    club,
    *,
    frequency: str,
    starts_at,
    first_on: date | None = None,
    last_on: date | None = None,
    dates: list[date] = (),
    exceptions: list[tuple[date, str]] = (),
    ends_at=None,
    title: str = "Club night",
    venue: str = "",
    member_fee=Decimal("0"),
    guest_fee=Decimal("0"),
) -> NightSeries:
    """A series of club nights and every night of it (all or nothing): weekly or fortnightly from `first_on` to
    `last_on`, or on `dates`, less `exceptions` (each a date and why it is off)."""
    require_director(actor, club)
    dates = sorted(set(dates))
    off = {
        day: check_free_text(reason, "reason for the night off", 100, ClubError, "exceptions")
        for day, reason in exceptions
    }
    if problem := core.series_problem(frequency, first_on, last_on, dates, off):
        raise ClubError(problem[1], field=problem[0])
    if starts_at is None:
        raise ClubError("Enter the time the nights start.", field="starts_at")
    if ends_at is not None and ends_at <= starts_at:
        raise ClubError("The nights end after they start: check the end time.", field="ends_at")
    meets = core.night_dates(frequency, first_on, last_on, dates, off)
    extra = sorted(set(off) - set(core.night_dates(frequency, first_on, last_on, dates)))
    if extra:
        raise ClubError(f"The series does not meet on {extra[0]:%A %-d %B %Y}: it is no exception.", field="exceptions")
    title = check_free_text(title, "title", 100, ClubError, "title") or "Club night"
    venue = check_free_text(venue, "venue", 200, ClubError, "venue")
    member_fee = _fee(member_fee, "member_fee", "member's fee")
    guest_fee = _fee(guest_fee, "guest_fee", "guest's fee")
    series = NightSeries.objects.create(
        club=club,
        title=title,
        frequency=frequency,
        first_on=meets[0] if frequency == core.DATES else first_on,
        last_on=meets[-1] if frequency == core.DATES else last_on,
        dates=[day.isoformat() for day in dates] if frequency == core.DATES else [],
        starts_at=starts_at,
        ends_at=ends_at,
        venue=venue,
        member_fee=member_fee,
        guest_fee=guest_fee,
        created_by=actor if getattr(actor, "pk", None) else None,
    )
    NightException.objects.bulk_create(NightException(series=series, on=day, reason=why) for day, why in off.items())
    # A night off is made too, as off, so the club's page tells members there is no club that week.
    ClubNight.objects.bulk_create(
        ClubNight(
            club=club,
            series=series,
            on=day,
            title=title,
            starts_at=starts_at,
            ends_at=ends_at,
            venue=venue,
            member_fee=member_fee,
            guest_fee=guest_fee,
            status=NightStatus.CANCELLED if day in off else NightStatus.SCHEDULED,
            note=(off[day] or "No club night") if day in off else "",
        )
        for day in sorted({*meets, *off})
    )
    return series


@transaction.atomic
def add_exception(actor, series: NightSeries, on: date, reason: str = "") -> NightException:
    """A night of the series is off (a public holiday): the exception is kept and the night cancelled. A night
    someone was checked in at has happened, and is refused."""
    require_director(actor, series.club)
    reason = check_free_text(reason, "reason", 100, ClubError, "reason")
    if on is None:
        raise ClubError("Enter the date that is off.", field="on")
    night = ClubNight.objects.select_for_update().filter(series=series, on=on).first()
    if night is None:
        raise ClubError(f"{series.title} does not meet on {on:%A %-d %B %Y}.", field="on")
    if night.status == NightStatus.CANCELLED:
        raise ClubError(f"The night of {on:%-d %B %Y} is off already.", field="on")
    if night.attendances.filter(status=AttendanceStatus.CHECKED_IN).exists():
        raise ClubError(f"People were checked in on {on:%-d %B %Y}: that night happened.", field="on")
    move(night, NightStatus.CANCELLED)
    night.note = reason or "No club night"
    night.save(update_fields=["status", "note"])
    exception, _ = NightException.objects.get_or_create(series=series, on=on, defaults={"reason": reason})
    return exception
