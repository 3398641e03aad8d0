"""When a club meets: the dates of a series of club nights (weekly, fortnightly, or a list of dates) less its
exceptions (a public holiday off). Pure: no Django.

The rule, `night_dates`:

- weekly: the first night, then every 7 days up to and including the last day;
- fortnightly: the first night, then every 14 days up to and including the last day;
- by dates: the dates listed, each once, in order (the first and last day play no part);
- then every date that is an exception is left out.

`series_problem` says why a series cannot be planned (None when it can), so every door refuses it with one message.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta

WEEKLY, FORTNIGHTLY, DATES = "weekly", "fortnightly", "dates"
STEP = {WEEKLY: 7, FORTNIGHTLY: 14}
# A season: a series longer than this is a slip of the year (2062 for 2026), and its nights would flood the pages.
MAX_SPAN_DAYS = 400
MAX_NIGHTS = 60


def night_dates(
    frequency: str,
    first_on: date | None,
    last_on: date | None,
    dates: Iterable[date] = (),
    exceptions: Iterable[date] = (),
) -> list[date]:
    """The dates the series meets, in order, without its exceptions."""
    off = set(exceptions)
    if frequency == DATES:
        return sorted(set(dates) - off)
    if frequency not in STEP or first_on is None or last_on is None:
        return []
    step = timedelta(days=STEP[frequency])
    found = []
    day = first_on
    while day <= last_on and len(found) <= MAX_NIGHTS + len(off):
        if day not in off:
            found.append(day)
        day += step
    return found


def series_problem(
    frequency: str,
    first_on: date | None,
    last_on: date | None,
    dates: Iterable[date] = (),
    exceptions: Iterable[date] = (),
) -> tuple[str, str] | None:
    """(field, message) saying why the series cannot be planned, or None."""
    dates = list(dates)
    if frequency not in (WEEKLY, FORTNIGHTLY, DATES):
        return "frequency", "Choose weekly, fortnightly or a list of dates."
    if frequency == DATES:
        if not dates:
            return "dates", "List the dates the club meets, one a line (e.g. 2026-03-03)."
        if len(set(dates)) > MAX_NIGHTS:
            return "dates", f"At most {MAX_NIGHTS} dates in one series: plan the rest as another."
        if (max(dates) - min(dates)).days > MAX_SPAN_DAYS:
            return "dates", f"The dates span more than {MAX_SPAN_DAYS} days: check the years."
    else:
        if first_on is None:
            return "first_on", "Enter the date of the first night."
        if last_on is None:
            return "last_on", "Enter the last day of the series."
        if last_on < first_on:
            return "last_on", "The last day is before the first night."
        if (last_on - first_on).days > MAX_SPAN_DAYS:
            return "last_on", f"A series spans at most {MAX_SPAN_DAYS} days: check the year of the last day."
    meets = night_dates(frequency, first_on, last_on, dates, exceptions)
    if not meets:
        return "exceptions", "Every night of the series is an exception: there is no night left to plan."
    if len(meets) > MAX_NIGHTS:
        return "last_on", f"At most {MAX_NIGHTS} nights in one series: end it sooner and plan the rest as another."
    return None


def parse_dates(text: str, field: str = "dates") -> tuple[list[date], str | None]:
    """Dates written one a line or separated by commas, as ISO dates (2026-03-03): (the dates, None) or ([], why)."""
    found = []
    for n, word in enumerate(text.replace(",", "\n").split(), start=1):
        if n > MAX_NIGHTS * 2:
            return [], f"Too many dates in the {field}: at most {MAX_NIGHTS}."
        try:
            found.append(date.fromisoformat(word[:10]) if len(word) == 10 else date.fromisoformat("x"))
        except ValueError:
            shown = word[:20] + ("…" if len(word) > 20 else "")
            return [], f"{shown!r} in the {field} is not a date written as year-month-day (2026-03-03)."
    return found, None


def coming_text(members: int, guests: int) -> str:
    """Who said they are coming to a night, members and the guests they bring counted apart (a member checked in
    still said so): "1 member and 1 guest said they are coming"."""
    if not members and not guests:
        return "Nobody said they are coming yet"
    said = [f"{members} member{'s' if members != 1 else ''}"]
    if guests:
        said.append(f"{guests} guest{'s' if guests != 1 else ''}")
    return f"{' and '.join(said)} said they are coming"
