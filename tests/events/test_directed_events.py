"""Whose events are these: one rule (`directed_events`) for the My events page, the account page and the play API."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from rest_framework.test import APIClient

from events.models import EventStatus
from events.permissions import directed_events
from events.play import services as play
from events.play.models import Division, DivisionPlayer
from tests.events.factories import EventFactory, fast_passwords  # noqa: F401
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def events():
    organiser, director = UserFactory(), UserFactory()
    owned = EventFactory(owner=organiser, title="Owned Open")
    directed = EventFactory(title="Directed Cup")
    directed.directors.add(director, organiser)
    both = EventFactory(owner=organiser, title="Both Classic")
    both.directors.add(organiser)  # owned and directed: listed once
    other = EventFactory(title="Someone Else's")
    return organiser, director, {"owned": owned, "directed": directed, "both": both, "other": other}


def test_an_organiser_has_the_events_they_own_or_direct_once_each(events):
    organiser, director, made = events
    assert sorted(directed_events(organiser).values_list("title", flat=True)) == [
        "Both Classic",
        "Directed Cup",
        "Owned Open",
    ]
    assert list(directed_events(director)) == [made["directed"]]
    assert not directed_events(UserFactory()).exists()
    assert not directed_events(AnonymousUser()).exists()
    staff = UserFactory(is_staff=True)
    assert directed_events(staff).count() == 4


def test_the_my_events_page_and_the_account_page_list_the_same_events(client, events):
    organiser, _, made = events
    client.force_login(organiser)
    page = client.get(reverse("events:mine")).content.decode()
    for name in ("owned", "directed", "both"):
        assert page.count(made[name].title) == 1
    assert made["other"].title not in page
    account = client.get(reverse("players:me")).content.decode()
    assert "Events I organise (3)" in account


def test_the_play_api_shows_draft_rounds_to_the_owner_and_the_directors_only(events):
    organiser, director, made = events
    event = made["owned"]
    event.status = EventStatus.IN_PROGRESS
    event.rated = False
    event.save()
    event.directors.add(director)
    division = Division.objects.create(event=event, name="A")
    for number in (1, 2):
        DivisionPlayer.objects.create(division=division, player=PlayerFactory(), number=number, rating=1500)
    play.pair_round(organiser, division, "koth")

    api = APIClient()
    drafts = {}
    for who in (organiser, director, UserFactory()):
        api.force_authenticate(who)
        drafts[who.pk] = [
            r["status"] for r in api.get("/api/play/rounds/", {"division": division.pk}).json()["results"]
        ]
    assert drafts == {organiser.pk: ["draft"], director.pk: ["draft"], list(drafts)[2]: []}


def test_my_events_lists_upcoming_events_soonest_first_then_past_ones_latest_first(client):
    from datetime import timedelta

    from django.utils import timezone

    organiser = UserFactory()
    today = timezone.localdate()
    for title, days in (("Far", 60), ("Near", 7), ("Last month", -30), ("Last year", -365), ("Today", 0)):
        day = today + timedelta(days=days)
        EventFactory(owner=organiser, title=f"{title} Open", starts_on=day, ends_on=day)
    client.force_login(organiser)
    page = client.get(reverse("events:mine")).content.decode()
    order = ["Today Open", "Near Open", "Far Open", "Last month Open", "Last year Open"]
    assert sorted(order, key=page.index) == order
