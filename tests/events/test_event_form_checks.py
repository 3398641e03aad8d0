"""The event form's checks: one bound per number and one message for it (issue 23, defect 24), every problem
shown at once (defect 7), a closing date already past asked about before it is saved (defect 25)."""

import html
from datetime import date

import pytest
from django.urls import reverse

from events import services
from events.models import Event
from tests.events.factories import fast_passwords, make_organiser  # noqa: F401
from tests.events.test_organiser_input import FORM
from tests.factories import AssociationFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(client):
    AssociationFactory()
    user = make_organiser(email="org@example.org")
    client.force_login(user)
    return user


def field_errors(response, name: str) -> list[str]:
    assert response.status_code == 200, response.status_code
    return list(response.context["form"].errors.get(name, []))


@pytest.mark.parametrize(
    ("field", "typed", "message"),
    [
        ("max_entrants", ("-3", "0"), "Ensure this value is greater than or equal to 1."),
        ("max_group_size", ("-1", "0"), "Ensure this value is greater than or equal to 1."),
        ("payment_hold_hours", ("-5", "0"), "Ensure this value is greater than or equal to 1."),
        ("max_entrants", ("100001", str(10**30)), "Ensure this value is less than or equal to 100000."),
    ],
)
def test_a_number_has_one_bound_and_one_message_on_every_try(client, organiser, field, typed, message):
    for value in typed:
        response = client.post(reverse("events:create"), {**FORM, field: value})
        assert field_errors(response, field) == [message], value
    assert not Event.objects.exists()
    page = client.get(reverse("events:create")).content.decode()
    assert 'name="max_entrants" min="1" max="100000"' in page


def test_the_service_says_the_same_for_every_other_door(organiser):
    event = services.create_event(organiser, title="Cup", starts_on=date(2030, 2, 13))
    for value in (-3, 0):
        with pytest.raises(services.EventError) as refusal:
            services.update_event(organiser, event, max_entrants=value)
        assert (refusal.value.field, refusal.value.message) == (
            "max_entrants",
            "Ensure this value is greater than or equal to 1.",
        )


def test_every_problem_of_the_event_form_is_shown_at_once(client, organiser):
    """Nine problems took nine submits: the form showed its own, then the service's one at a time."""
    typed = {
        **FORM,
        "title": "Rapid Cup\r\nBcc: everyone@example.org",
        "ends_on": "2027-02-10",
        "registration_opens_at": "2027-02-07T09:00",
        "registration_closes_at": "2027-02-06T23:59",
        "max_entrants": "0",
        "number_of_games": "0",
        "offer_hold_hours": "1000",
        "round_spread_caps": "200, lots",
        "prize_fund_by_fees": "on",
    }
    response = client.post(reverse("events:create"), typed)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert errors == {
        "title": ["Write this on one line, without line breaks or tabs."],
        "ends_on": ["The event cannot end before it starts."],
        "registration_opens_at": ["Registration must open before it closes."],
        "max_entrants": ["Ensure this value is greater than or equal to 1."],
        "number_of_games": ["Ensure this value is greater than or equal to 1."],
        "offer_hold_hours": ["Ensure this value is less than or equal to 720."],
        "round_spread_caps": ["Round 2: 'lots' is not a whole number of points. Write the caps like 200,100,100."],
        "prize_fund": ["Enter the prize fund to divide between the divisions."],
    }
    page = html.unescape(response.content.decode())
    assert all(message in page for messages in errors.values() for message in messages)
    assert not Event.objects.exists()


def test_the_edit_form_shows_every_problem_at_once_and_the_service_refuses_with_them_all(client, organiser):
    event = services.create_event(organiser, title="Cup", starts_on=date(2027, 2, 13), max_entrants=10)
    edit = reverse("events:edit", args=[event.slug])
    typed = {**FORM, "title": "Cup", "ends_on": "2027-02-01", "registration_closes_at": "2027-02-14T09:00"}
    errors = client.post(edit, typed).context["form"].errors
    assert errors == {
        "ends_on": ["The event cannot end before it starts."],
        "registration_closes_at": ["Registration must close before the event starts."],
    }
    with pytest.raises(services.EventError) as refusal:
        services.update_event(organiser, event, title=" ", ends_on=date(2027, 2, 1), max_entrants=0)
    assert refusal.value.problems == [
        ("title", "Give the event a title."),
        ("ends_on", "The event cannot end before it starts."),
        ("max_entrants", "Ensure this value is greater than or equal to 1."),
    ]
    event.refresh_from_db()
    assert (event.title, event.ends_on, event.max_entrants) == ("Cup", date(2027, 2, 13), 10)


SEED_004 = {**FORM, "title": "Jurong Green Scrabble Championship", "starts_on": "2015-09-06"}
PAST_CLOSING = "This closing date, 27 August 2015, 23:59, has already passed: nobody could enter."


def test_a_closing_date_already_past_is_asked_about_before_it_is_saved(client, organiser):
    """The paper's closing date, typed for a new announcement, was taken without a word: the event then showed
    registration closed. The form asks; ticking the box keeps it (an event already held is announced to record it)."""
    typed = {**SEED_004, "registration_opens_at": "2015-08-01T09:00", "registration_closes_at": "2015-08-27T23:59"}
    asked = client.post(reverse("events:create"), typed)
    assert field_errors(asked, "registration_closes_at")[0].startswith(PAST_CLOSING)
    page = html.unescape(asked.content.decode())
    assert 'type="checkbox" name="keep_past_closing_date"' in page and "Keep this closing date" in page
    assert not Event.objects.exists()
    assert client.post(reverse("events:create"), {**typed, "keep_past_closing_date": "on"}).status_code == 302
    event = Event.objects.get()
    # Editing the event again does not ask about the closing date it already has.
    edit = reverse("events:edit", args=[event.slug])
    assert client.post(edit, {**typed, "venue": "Jurong Green CC"}).status_code == 302
    # A closing date still to come is not asked about, and the box stays out of sight.
    fresh = client.get(reverse("events:create")).content.decode()
    assert 'type="hidden" name="keep_past_closing_date"' in fresh
