"""The event form's checks: one bound per number and one message for it (issue 23, defect 24), every problem
shown at once (defect 7), a closing date already past asked about before it is saved (defect 25)."""

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
