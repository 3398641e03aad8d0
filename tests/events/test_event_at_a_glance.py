"""What the event list and the event page show first: a full event reads as full (issue 23, defect 21); the fee, the
closing date, the places and the way in come before the details (defect 22)."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from events import services
from tests.events.factories import (
    CategoryFactory,
    FeeFactory,
    fast_passwords,  # noqa: F401
    open_event,
    player_with_account,
)

pytestmark = pytest.mark.django_db


def html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def fill(event, category, fee, places: int) -> None:
    for _ in range(places):
        services.register_entry(player_with_account().user, event, category=category, fee=fee)


@pytest.mark.parametrize(
    ("keeps_waiting_list", "shown"),
    [(True, "Full — waiting list open"), (False, "Full")],
)
def test_a_full_event_reads_full_in_a_warning_colour_on_the_list_and_its_page(client, keeps_waiting_list, shown):
    event, category, (fee,) = open_event(title="Jurong Green Championship", max_entrants=8)
    event.keeps_waiting_list = keeps_waiting_list
    event.save()
    fill(event, category, fee, 8)
    badge = f'<span class="badge bg-warning text-dark align-self-start">{shown}</span>'
    listed = html(client.get(reverse("events:list")))
    assert badge in listed and "8 of 8 places taken" in listed and "Registration open" not in listed
    page = html(client.get(event.get_absolute_url()))
    assert f'<span class="badge bg-warning text-dark">{shown}</span>' in page and "Registration open" not in page


def test_an_event_full_by_its_category_quotas_reads_full_too(client):
    event, category, (fee,) = open_event(quota=2)
    fill(event, category, fee, 2)
    assert "Full — waiting list open" in html(client.get(reverse("events:list")))


def test_an_event_with_room_still_reads_registration_open(client):
    event, category, (fee,) = open_event(max_entrants=8)
    fill(event, category, fee, 7)
    listed = html(client.get(reverse("events:list")))
    assert '<span class="badge bg-success align-self-start">Registration open</span>' in listed and "Full" not in listed


def test_the_list_shows_each_events_fee_and_closing_date(client, django_assert_max_num_queries):
    closes = timezone.now().replace(microsecond=0) + timezone.timedelta(days=10)
    event, secondary, _ = open_event(title="Students Championship", registration_closes_at=closes)
    FeeFactory(category=secondary, name="Passion Card", amount=Decimal("2.00"))
    free, _, _ = open_event(title="Club Night", fees=())
    shown = timezone.localtime(closes, event.zone)
    listed = html(client.get(reverse("events:list")))
    assert "Fees S$2.00–S$3.00" in listed and f"Closing date <strong>{shown:%-d %b %Y, %H:%M}</strong>" in listed
    assert "Free" in listed
    for _ in range(5):
        open_event(quota=3)
    with django_assert_max_num_queries(8):
        client.get(reverse("events:list"))


def test_the_event_page_puts_the_facts_and_the_enter_button_before_the_details(client):
    """On a phone the closing date and the Enter button sat under 5,000 pixels of description, rules and prizes."""
    event, category, (fee,) = open_event(
        title="Jurong Green Championship", description="Long rules. " * 400, max_entrants=40
    )
    FeeFactory(category=category, name="Passion Card", amount=Decimal("2.00"))
    CategoryFactory(event=event, name="Primary")
    client.force_login(player_with_account().user)
    page = html(client.get(event.get_absolute_url()))
    facts = [
        'id="enter"',
        event.starts_on.strftime("%a %-d %b %Y"),
        "Open: <strong>S$2.00</strong> Passion Card · <strong>S$3.00</strong> Fee 0",
        "Primary: Free",
        "<strong>40</strong> places left.",
        "Closing date:",
        "Enter myself",
    ]
    positions = [page.index(fact) for fact in facts]
    assert positions == sorted(positions)
    assert positions[-1] < page.index("Long rules.") and positions[-1] < page.index("Categories, fees and prizes")


def _full_and_open_events():
    full, category, (fee,) = open_event(title="Jurong Green Championship", max_entrants=2)
    fill(full, category, fee, 2)
    roomy, category, (fee,) = open_event(title="Toa Payoh Club Night", max_entrants=8, owner=full.owner)
    fill(roomy, category, fee, 1)
    return full, roomy


def test_the_home_page_shows_a_full_event_as_full(client):
    _full_and_open_events()
    home = html(client.get("/"))
    assert "Full — waiting list open" in home and home.count("Registration open") == 1


def test_my_events_and_the_manage_page_show_a_full_event_as_full(client):
    full, roomy = _full_and_open_events()
    client.force_login(full.owner)
    mine = html(client.get(reverse("events:mine")))
    assert '<span class="badge bg-warning text-dark">Full — waiting list open</span>' in mine
    assert '<span class="badge bg-success">Registration open</span>' in mine
    manage = html(client.get(reverse("events:manage", args=[full.slug])))
    assert '<span class="badge bg-warning text-dark">Full — waiting list open</span>' in manage
    assert "Registration open" not in manage
    money = html(client.get(reverse("money:event_money", args=[full.slug])))
    assert '<span class="badge bg-warning text-dark">Full — waiting list open</span>' in money
    assert "Registration open" not in money


def test_the_home_page_and_my_events_count_places_in_a_constant_number_of_queries(client):
    full, _ = _full_and_open_events()
    client.force_login(full.owner)
    with CaptureQueriesContext(connection) as few:
        client.get("/")
        client.get(reverse("events:mine"))
    for _ in range(3):
        open_event(owner=full.owner)
    with CaptureQueriesContext(connection) as more:
        client.get("/")
        client.get(reverse("events:mine"))
    assert len(more) == len(few)
