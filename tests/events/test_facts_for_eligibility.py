"""A student whose profile lacks what a category asks (the school level; a date of birth for an age limit) is told
which facts are missing on the event and entry pages, offered the profile page with those fields first, and brought
back to the entry once they are saved (a `next` on this site only)."""

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from events.models import Entry
from players.models import SchoolLevel
from tests.events.factories import CategoryFactory, EventFactory, fast_passwords  # noqa: F401
from tests.events.test_entry_doors import SECONDARY, standard, students_event
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def pupil(client):
    user = UserFactory()
    player = PlayerFactory(user=user, full_name="Alice Tan")  # signed up: no school level, no date of birth
    client.force_login(user)
    return player


def profile_form(player, **fields):
    return {"full_name": player.full_name, "school_level": player.school_level, "country": "SG", **fields}


def test_the_event_and_entry_pages_say_which_facts_are_missing_and_link_to_the_profile(client, pupil):
    event, _, _ = students_event()
    enter = reverse("events:enter", args=[event.slug])
    for url in (event.get_absolute_url(), enter):
        page = client.get(url)
        needed = page.context["facts_needed"]
        assert needed["facts"] == ["school level"]
        link = urlsplit(needed["url"])
        assert link.path == reverse("players:profile")
        assert parse_qs(link.query) == {"next": [enter], "need": ["school_level"]}
        assert "To enter, give your school level: your profile does not give it yet." in page.content.decode()
    assert "You cannot enter a category yourself" not in client.get(event.get_absolute_url()).content.decode()


def test_saving_the_profile_goes_back_to_the_entry_which_then_offers_the_category(client, pupil):
    event, secondary, _ = students_event()
    enter = reverse("events:enter", args=[event.slug])
    profile = f"{reverse('players:profile')}?next={enter}&need=school_level"
    page = client.get(profile)
    form = page.context["form"]
    assert list(form.fields)[0] == "school_level" and form.fields["school_level"].widget.attrs.get("autofocus")
    html = page.content.decode()
    assert "Give your school level below, then save: you go back to the entry." in html
    assert re.search(rf'name="next"\s+value="{enter}"', html), "the form carries the way back"
    response = client.post(profile, {**profile_form(pupil, school_level=SchoolLevel.SECONDARY), "next": enter})
    assert response.status_code == 302 and response["Location"] == enter
    page = client.get(enter)
    assert page.context["facts_needed"] is None
    assert f"{SECONDARY}: Standard" in page.content.decode()
    client.post(enter, {"option": f"{secondary.pk}:{standard(secondary).pk}", "phone": "91234567"})
    assert Entry.objects.get(player=pupil).category == secondary


def test_an_age_limit_asks_for_the_date_of_birth(client, pupil):
    event = EventFactory()
    CategoryFactory(event=event, name="Under 12", max_age=11)
    page = client.get(reverse("events:enter", args=[event.slug]))
    assert page.context["facts_needed"]["facts"] == ["date of birth"]


@pytest.mark.parametrize("target", ["https://elsewhere.example/", "//elsewhere.example/", "/\\elsewhere.example/"])
def test_a_next_off_the_site_is_ignored(client, pupil, target):
    response = client.post(reverse("players:profile") + "?need=school_level", {**profile_form(pupil), "next": target})
    assert response.status_code == 302 and response["Location"] == reverse("players:me")


def test_an_adult_by_date_of_birth_is_not_asked_for_a_school_level(client):
    from datetime import date

    event, _, _ = students_event()
    user = UserFactory()
    PlayerFactory(user=user, full_name="Adrian Goh", date_of_birth=date(1980, 1, 1))
    client.force_login(user)
    assert client.get(reverse("events:enter", args=[event.slug])).context["facts_needed"] is None
