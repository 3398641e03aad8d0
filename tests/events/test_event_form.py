"""The event form's scoring fields: one spread cap, and caps per round."""

import pytest

from events.forms import EventForm

pytestmark = pytest.mark.django_db

REQUIRED = {
    "title": "Club championship",
    "kind": "tournament",
    "starts_on": "2030-03-01",
    "time_zone": "Asia/Singapore",
    "number_of_games": "18",
    "pairing_system": "koth",
    "time_control_minutes": "25",
    "payment_hold_hours": "72",
    "offer_hold_hours": "48",
    "max_group_size": "15",
    "bye_spread": "50",
    "forfeit_spread": "50",
    "late_forfeit_spread": "100",
}


def form(**data: str) -> EventForm:
    return EventForm(data={**REQUIRED, **data})


def test_per_round_caps_are_kept_in_one_written_form():
    f = form(spread_cap="700", round_spread_caps="[200, 700 ,, 300]")
    assert f.is_valid(), f.errors
    assert f.service_fields()["round_spread_caps"] == "200,700,,300"
    assert f.service_fields()["spread_cap"] == 700


def test_no_caps_is_fine():
    f = form()
    assert f.is_valid(), f.errors
    assert f.service_fields()["round_spread_caps"] == "" and f.service_fields()["spread_cap"] is None


def test_a_bad_cap_names_the_round():
    f = form(round_spread_caps="200, lots")
    assert not f.is_valid()
    assert f.errors["round_spread_caps"] == [
        "Round 2: 'lots' is not a whole number of points. Write the caps like 200,100,100."
    ]


@pytest.mark.parametrize("typed", ["x" * 100_000, "Mars/Olympus", "../../etc/passwd"])
def test_a_time_zone_that_is_no_time_zone_is_refused_beside_the_field(typed):
    """100,000 characters once reached ZoneInfo as a file name too long: a server error, not this."""
    f = form(time_zone=typed)
    assert not f.is_valid()
    assert "Choose a time zone such as Asia/Singapore." in f.errors["time_zone"]


def test_the_event_keeps_caps_for_the_standings():
    from django.core.exceptions import ValidationError

    from events.models import Event
    from events.models.event_parts import validate_round_spread_caps

    event = Event(number_of_games=4, spread_cap=300, round_spread_caps="200,,100")
    assert event.standings_spread_cap() == (200, 300, 100, 300)
    assert Event(number_of_games=4, spread_cap=300).standings_spread_cap() == 300
    with pytest.raises(ValidationError, match="round 1: 'x'"):
        validate_round_spread_caps("x")
