"""The organiser's category form and the admin's prize rows: a prize row is kept or refused, never dropped
without a word (issue 23, defect 6); each refusal is shown once (issue 23, defect 23)."""

from decimal import Decimal

import pytest
from django.urls import reverse

from events.models import Prize
from tests.events.factories import fast_passwords, open_event  # noqa: F401

pytestmark = pytest.mark.django_db

CATEGORY = {
    "name": "Secondary",
    "position": 1,
    "fees-TOTAL_FORMS": "1",
    "fees-INITIAL_FORMS": "0",
    "fees-0-name": "Standard",
    "fees-0-amount": "3",
    "prizes-TOTAL_FORMS": "3",
    "prizes-INITIAL_FORMS": "0",
    "prizes-0-kind": "place",
    "prizes-0-rank_from": "1",
    "prizes-0-description": "Shopping voucher S$100 + trophy",
    "prizes-0-amount": "100",
    "prizes-1-kind": "place",
    "prizes-1-rank_from": "2",
    "prizes-1-amount": "80",
    "prizes-2-kind": "place",
}


@pytest.fixture
def organiser_page(client):
    event, _, _ = open_event()
    client.force_login(event.owner)
    return event, reverse("events:category_add", args=[event.slug])


def test_a_prize_with_a_value_but_no_description_is_kept_described_by_its_value(client, organiser_page):
    event, url = organiser_page
    assert client.post(url, CATEGORY).status_code == 302
    prizes = list(event.categories.get(name="Secondary").prizes.order_by("position"))
    assert [(p.ranks_text, p.description, p.amount) for p in prizes] == [
        ("1st", "Shopping voucher S$100 + trophy", Decimal("100")),
        ("2nd", "S$80.00", Decimal("80")),
    ]
    page = client.get(event.get_absolute_url()).content.decode()
    assert "S$80.00" in page


def test_a_prize_row_with_neither_description_nor_value_is_refused_naming_the_row(client, organiser_page):
    event, url = organiser_page
    response = client.post(url, {**CATEGORY, "prizes-2-rank_from": "6", "prizes-2-rank_to": "10"})
    assert response.status_code == 200
    assert "Prize 3: Describe the prize (for example Trophy), or give its value." in response.content.decode()
    assert not event.categories.filter(name="Secondary").exists() and not Prize.objects.exists()


def test_the_admins_prize_row_follows_the_same_rule(admin_client):
    event, category, _ = open_event()
    url = reverse("admin:events_category_change", args=[category.pk])
    data = {
        "event": event.pk,
        "name": category.name,
        "position": 0,
        "school_level": "",
        "fees-TOTAL_FORMS": "0",
        "fees-INITIAL_FORMS": "0",
        "prizes-TOTAL_FORMS": "2",
        "prizes-INITIAL_FORMS": "0",
        "prizes-0-kind": "place",
        "prizes-0-rank_from": "2",
        "prizes-0-amount": "80",
        "prizes-0-position": "0",
        "prizes-1-kind": "place",
        "prizes-1-rank_from": "6",
        "prizes-1-rank_to": "10",
        "prizes-1-position": "1",
    }
    refused = admin_client.post(url, data)
    assert refused.status_code == 200
    errors = refused.context["inline_admin_formsets"][1].formset.errors
    assert errors[1] == {"description": ["Describe the prize (for example Trophy), or give its value."]}
    assert not Prize.objects.exists()
    data["prizes-1-description"] = "Trophy"
    assert admin_client.post(url, data).status_code == 302
    assert sorted(category.prizes.values_list("description", flat=True)) == ["S$80.00", "Trophy"]


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ({"prizes-1-rank_from": "5", "prizes-1-rank_to": "2"}, "higher place to the lower (6 to 10)"),
        ({"prizes-0-rank_to": "99999999999999999999999"}, "Prize 1 (rank to): Ensure this value"),
        ({"prizes-2-class_min_rating": "900"}, "Prize 3: Describe the prize"),
        ({"name": "Open"}, "There is already a category called Open."),
        ({"fees-0-amount": "abc"}, "Enter a number."),
        ({"prizes-TOTAL_FORMS": "61"}, "Please submit at most 60 forms."),
    ],
)
def test_each_refusal_of_the_category_form_is_shown_once(client, organiser_page, typed, message):
    event, url = organiser_page
    response = client.post(url, {**CATEGORY, **typed})
    assert response.status_code == 200
    assert response.content.decode().count(message) == 1
    assert not event.categories.filter(name="Secondary").exists()


def test_the_category_form_shows_every_problem_at_once(client, organiser_page):
    """Defect N5: ages the wrong way round, a negative fee and a prize's ranks upside down are all named on the first
    submit (the fee's came only on the next), and nothing is saved."""
    event, url = organiser_page
    typed = {
        "min_age": "15",
        "max_age": "12",
        "fees-0-amount": "-5",
        "prizes-1-rank_from": "5",
        "prizes-1-rank_to": "2",
    }
    response = client.post(url, {**CATEGORY, **typed})
    assert response.status_code == 200
    page = response.content.decode()
    for message in (
        "The minimum age is above the maximum.",
        "A fee cannot be negative",
        "A prize&#x27;s ranks must run from the higher place to the lower (6 to 10).",
    ):
        assert page.count(message) == 1, message
    assert not event.categories.filter(name="Secondary").exists() and not Prize.objects.exists()
