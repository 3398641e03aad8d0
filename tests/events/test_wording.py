"""Words on the event pages a tester found wrong: plurals, the end of an event, refusals that repeat
the category name, prize amounts shown twice."""

from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from events.models import EventKind, EventStatus
from players.models import SchoolLevel
from tests.events.factories import (
    CategoryFactory,
    EntryFactory,
    EventFactory,
    FeeFactory,
    PrizeFactory,
    fast_passwords,  # noqa: F401
    player_with_account,
)

pytestmark = pytest.mark.django_db


def test_a_completed_event_says_it_is_over(client):
    event = EventFactory(status=EventStatus.COMPLETED)
    entry = EntryFactory(category=CategoryFactory(event=event), player=player_with_account())
    client.force_login(entry.player.user)
    assert "The event is over." in client.get(reverse("events:my_entries")).content.decode()
    client.logout()
    page = client.get(event.get_absolute_url()).content.decode()
    assert "This event is over." in page and "already started" not in page


def test_a_refusal_names_the_category_once(client):
    event = EventFactory(kind=EventKind.STUDENTS)
    category = CategoryFactory(event=event, name="Category A – Secondary School Student", school_level="secondary")
    FeeFactory(category=category)
    CategoryFactory(event=event, name="Open")  # so the entry page has a category to offer
    adult = player_with_account(date_of_birth=date(1980, 1, 1), school_level=SchoolLevel.NONE)
    client.force_login(adult.user)
    page = client.get(reverse("events:enter", args=[event.slug])).content.decode()
    assert "Category A – Secondary School Student is for" in page
    assert page.count("Category A – Secondary School Student") == 1


def test_a_prize_amount_is_not_shown_twice(client):
    category = CategoryFactory(event=EventFactory())
    PrizeFactory(category=category, description="S$80", amount=Decimal("80"))
    PrizeFactory(category=category, description="Trophy and voucher", amount=Decimal("50"), rank_from=2, rank_to=2)
    page = client.get(category.event.get_absolute_url()).content.decode()
    assert "S$80.00" not in page and "S$80" in page
    assert "Trophy and voucher" in page and "S$50.00" in page


def test_times_on_the_event_page_are_24_hour(client):
    from datetime import time

    event = EventFactory(reporting_time=time(8, 30), start_time=time(13, 5), estimated_end_time=time(18, 0))
    page = client.get(event.get_absolute_url()).content.decode()
    assert "08:30" in page and "13:05 – 18:00" in page and "p.m." not in page and "a.m." not in page
