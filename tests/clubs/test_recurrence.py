"""The recurrence rule of club nights (clubs.core), on hand-worked cases."""

from datetime import date

from clubs import core
from clubs.core import DATES, FORTNIGHTLY, WEEKLY, night_dates, parse_dates, series_problem


def test_weekly_tuesdays_with_a_public_holiday_off():
    # 3 March 2026 is a Tuesday; 31 March is the last; 17 March is off.
    assert night_dates(WEEKLY, date(2026, 3, 3), date(2026, 3, 31), exceptions=[date(2026, 3, 17)]) == [
        date(2026, 3, 3),
        date(2026, 3, 10),
        date(2026, 3, 24),
        date(2026, 3, 31),
    ]


def test_the_last_day_counts_when_a_night_falls_on_it_and_not_otherwise():
    assert night_dates(WEEKLY, date(2026, 3, 3), date(2026, 3, 10)) == [date(2026, 3, 3), date(2026, 3, 10)]
    assert night_dates(WEEKLY, date(2026, 3, 3), date(2026, 3, 9)) == [date(2026, 3, 3)]


def test_fortnightly_across_a_month_and_a_year_end():
    assert night_dates(FORTNIGHTLY, date(2026, 12, 17), date(2027, 1, 28)) == [
        date(2026, 12, 17),
        date(2026, 12, 31),
        date(2027, 1, 14),
        date(2027, 1, 28),
    ]


def test_fortnightly_across_29_february():
    assert night_dates(FORTNIGHTLY, date(2028, 2, 15), date(2028, 3, 14)) == [
        date(2028, 2, 15),
        date(2028, 2, 29),
        date(2028, 3, 14),
    ]


def test_an_exception_on_a_day_the_series_does_not_meet_changes_nothing():
    assert night_dates(WEEKLY, date(2026, 3, 3), date(2026, 3, 10), exceptions=[date(2026, 3, 4)]) == [
        date(2026, 3, 3),
        date(2026, 3, 10),
    ]


def test_a_list_of_dates_each_once_in_order_less_exceptions():
    listed = [date(2026, 5, 9), date(2026, 4, 4), date(2026, 5, 9), date(2026, 4, 18)]
    assert night_dates(DATES, None, None, listed, exceptions=[date(2026, 4, 18)]) == [
        date(2026, 4, 4),
        date(2026, 5, 9),
    ]


def test_problems_are_named_by_field():
    assert series_problem(WEEKLY, date(2026, 3, 3), date(2026, 3, 1)) == (
        "last_on",
        "The last day is before the first night.",
    )
    assert series_problem(WEEKLY, None, date(2026, 3, 1))[0] == "first_on"
    assert series_problem(DATES, None, None, [])[0] == "dates"
    assert series_problem("daily", date(2026, 3, 3), date(2026, 3, 4))[0] == "frequency"
    assert series_problem(WEEKLY, date(2026, 3, 3), date(2062, 3, 3))[0] == "last_on"  # a slip of the year
    assert series_problem(WEEKLY, date(2026, 3, 3), date(2026, 3, 3), exceptions=[date(2026, 3, 3)])[0] == "exceptions"
    assert series_problem(WEEKLY, date(2026, 3, 3), date(2026, 3, 31)) is None


def test_at_most_a_season_of_nights():
    first = date(2026, 1, 1)
    assert series_problem(DATES, None, None, [date.fromordinal(first.toordinal() + n) for n in range(61)])[0] == "dates"
    assert len(night_dates(WEEKLY, first, date(2027, 1, 31))) <= core.MAX_NIGHTS + 1


def test_dates_are_read_one_a_line_or_by_commas():
    assert parse_dates("2026-03-03\n2026-03-10, 2026-03-24") == (
        [date(2026, 3, 3), date(2026, 3, 10), date(2026, 3, 24)],
        None,
    )
    found, problem = parse_dates("2026-03-03\n3/10/2026")
    assert found == [] and "'3/10/2026'" in problem
    assert parse_dates("2026-02-30")[1] is not None
