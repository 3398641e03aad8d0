"""The self check-in code is six characters: wrong codes are counted per account and per client address, and too
many make the player wait (told how long), on the page and in the API alike; a director is never held back."""

from datetime import datetime, timedelta

import pytest
import time_machine
from django.core.cache import cache
from django.urls import reverse
from rest_framework.test import APIClient

from events.play.models import CheckIn
from events.play.services import checkin
from tests.events.play.test_venue import SGT
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

EARLY = datetime(2015, 9, 6, 8, 30, tzinfo=SGT)  # on the day, before reporting closes


@pytest.fixture(autouse=True)
def clear_counters():
    cache.clear()
    yield
    cache.clear()


def own(entry):
    """The entrant signs in with an account of their own."""
    entry.player.user = UserFactory()
    entry.player.save()
    return entry.player.user


def test_five_wrong_codes_make_the_account_wait_fifteen_minutes_even_with_the_right_code(venue):  # noqa: F811
    event, director, division, entrants, waiting = venue
    user = own(entrants[1])
    code = checkin.venue_code(event)
    with time_machine.travel(EARLY, tick=False):
        for _ in range(checkin.ACCOUNT_GUESSES - 1):
            with pytest.raises(checkin.PlayError, match="^That is not the code shown at the venue.$"):
                checkin.check_in(user, entrants[1], code="WRONG1", address="203.0.113.7")
        with pytest.raises(checkin.TooManyGuesses) as last:
            checkin.check_in(user, entrants[1], code="WRONG1", address="203.0.113.7")
        assert last.value.message == (
            "That is not the code shown at the venue. Too many wrong codes: try again in 15 minutes, or ask a "
            "tournament director to check you in."
        )
        assert last.value.field == "code" and last.value.wait == timedelta(minutes=15)
        with pytest.raises(checkin.TooManyGuesses, match="try again in 15 minutes"):
            checkin.check_in(user, entrants[1], code=code, address="198.51.100.9")  # from another network too
        checkin.check_in(director, entrants[2])  # a director ticks people off meanwhile
    with time_machine.travel(EARLY + timedelta(minutes=10), tick=False):
        with pytest.raises(checkin.TooManyGuesses, match="try again in 5 minutes"):
            checkin.check_in(user, entrants[1], code=code)
    with time_machine.travel(EARLY + timedelta(minutes=15, seconds=1), tick=False):
        assert checkin.check_in(user, entrants[1], code=code).by_self
    assert not CheckIn.objects.filter(entry=entrants[1], by_self=False).exists()


def test_wrong_codes_from_one_address_count_across_accounts(venue, monkeypatch):  # noqa: F811
    monkeypatch.setattr(checkin, "ADDRESS_GUESSES", 3)
    event, director, division, entrants, waiting = venue
    users = [own(entry) for entry in entrants[:3]]
    with time_machine.travel(EARLY, tick=False):
        for user, entry in zip(users[:2], entrants[:2], strict=True):
            with pytest.raises(checkin.PlayError, match="not the code"):
                checkin.check_in(user, entry, code="AAAAAA", address="203.0.113.7")
        with pytest.raises(checkin.TooManyGuesses):
            checkin.check_in(users[2], entrants[2], code="AAAAAA", address="203.0.113.7")
        with pytest.raises(checkin.TooManyGuesses):  # a third player on the same network
            checkin.check_in(users[2], entrants[2], code=checkin.venue_code(event), address="203.0.113.7")
        made = checkin.check_in(users[2], entrants[2], code=checkin.venue_code(event), address="198.51.100.9")
    assert made.by_self


def test_the_page_says_how_long_to_wait(client, venue):  # noqa: F811
    event, director, division, entrants, waiting = venue
    client.force_login(own(entrants[0]))
    url = reverse("events:play_my_check_in", args=[event.slug])
    with time_machine.travel(EARLY, tick=False):
        for _ in range(checkin.ACCOUNT_GUESSES - 1):
            assert "That is not the code shown at the venue." in client.post(url, {"code": "NOPE00"}).content.decode()
        page = client.post(url, {"code": "NOPE00"}).content.decode()
        assert "Too many wrong codes: try again in 15 minutes, or ask a tournament director" in page
        page = client.post(url, {"code": checkin.venue_code(event)}).content.decode()
        assert "Too many wrong codes: try again in 15 minutes" in page
    assert not CheckIn.objects.exists()


def test_the_api_answers_429_with_retry_after(venue):  # noqa: F811
    event, director, division, entrants, waiting = venue
    api = APIClient()
    api.force_authenticate(own(entrants[0]))
    url = f"/api/play/events/{event.slug}/check-in/"
    with time_machine.travel(EARLY, tick=False):
        for _ in range(checkin.ACCOUNT_GUESSES - 1):
            wrong = api.post(url, {"entry": entrants[0].pk, "code": "NOPE00"}, format="json")
            assert wrong.status_code == 400 and wrong.json() == {"code": ["That is not the code shown at the venue."]}
        for code in ("NOPE00", checkin.venue_code(event)):
            refused = api.post(url, {"entry": entrants[0].pk, "code": code}, format="json")
            assert refused.status_code == 429, refused.content
            assert refused["Retry-After"] == "900"
            assert "Too many wrong codes: try again in 15 minutes" in refused.json()["detail"]
    assert not CheckIn.objects.exists()
