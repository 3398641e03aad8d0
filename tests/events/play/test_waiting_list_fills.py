"""Places filled from the waiting list at reporting time, and late entrants (issue 23, defects 16 and 33): before
divisions exist the filled player simply joins the field; a player who joins a division late is seeded by rating."""

import pytest
import time_machine
from django.urls import reverse
from rest_framework.test import APIClient

from events.models import EntryStatus
from events.play import services as play
from events.play.models import Division, DivisionPlayer
from events.play.services import checkin
from ratings.models import PlayerRating, RatingList
from tests.events.play.test_venue import AFTER_GRACE

pytestmark = pytest.mark.django_db


def rate(event, ratings: dict) -> None:
    """Ratings on the list the event's entrants are known by."""
    rating_list = RatingList.objects.create(association=event.association, name="Ratings", slug="r", lexicon="CSW")
    for player, rating in ratings.items():
        PlayerRating.objects.create(
            rating_list=rating_list, player=player, rating=rating, games=30, peak=rating, seed_rating=rating,
            seed_games=30,
        )  # fmt: skip


def check_in_url(event) -> str:
    return reverse("events:play_check_in", args=[event.slug])


def fill_url(event) -> str:
    return reverse("events:play_fill_places", args=[event.slug])


def test_before_divisions_exist_a_filled_place_joins_the_field_without_a_division_question(client, venue):
    event, director, division, entrants, waiting = venue
    division.delete()  # the morning of the event: divisions are made once everyone has reported
    client.force_login(director)
    with time_machine.travel(AFTER_GRACE, tick=False):
        checkin.withdraw_no_shows(director, event, [entrants[3].pk])
        checkin.check_in(director, waiting[0])
        page = client.get(check_in_url(event)).content.decode()
        assert 'name="division"' not in page  # nothing to choose from, and nothing asked
        response = client.post(fill_url(event), {"entry": waiting[0].pk}, follow=True)
    text = response.content.decode()
    assert "Choose the division" not in text
    assert "Eddie Goh (joins the field: divisions are not assigned yet)" in text
    waiting[0].refresh_from_db()
    assert waiting[0].status == EntryStatus.CONFIRMED and waiting[0].division is None
    # Divisions made afterwards place them with everyone else.
    play.assign_divisions(director, event)
    seat = DivisionPlayer.objects.get(entry=waiting[0])
    assert seat.division.event_id == event.pk


def test_the_api_fills_a_place_before_divisions_exist(venue):
    event, director, division, entrants, waiting = venue
    division.delete()
    api = APIClient()
    api.force_authenticate(director)
    with time_machine.travel(AFTER_GRACE, tick=False):
        checkin.withdraw_no_shows(director, event, [entrants[3].pk])
        checkin.check_in(director, waiting[0])
        filled = api.post(f"/api/play/events/{event.slug}/check-in/fill-places/", {}, format="json")
    assert filled.status_code == 200, filled.content
    assert [(p["name"], p["division"], p["number"], p["seat"]) for p in filled.json()] == [
        ("Eddie Goh", None, None, None)
    ]


def test_a_filled_place_is_seeded_by_rating_not_by_arrival(client, venue):
    event, director, division, entrants, waiting = venue
    # Seed numbers as assignment gives them: by rating.
    rate(
        event, {e.player: r for e, r in zip(entrants, (1500, 1450, 1200, 810), strict=True)} | {waiting[0].player: 1377}
    )
    play.assign_divisions(director, event)
    client.force_login(director)
    with time_machine.travel(AFTER_GRACE, tick=False):
        checkin.withdraw_no_shows(director, event, [entrants[2].pk])
        checkin.check_in(director, waiting[0])
        client.post(fill_url(event), {"entry": waiting[0].pk})
    seats = list(DivisionPlayer.objects.filter(division__event=event).order_by("number"))
    assert [(s.number, s.player.full_name, s.rating) for s in seats] == [
        (1, "Anna Tan", 1500),
        (2, "Bala Kumar", 1450),
        (3, "Eddie Goh", 1377),
        (4, "Dewi Lim", 810),
    ]
    division = Division.objects.get(event=event)
    page = client.get(reverse("events:play_division", args=[event.slug, division.pk])).content.decode()
    assert page.index("Eddie Goh") < page.index("Dewi Lim")


def test_a_late_entrant_is_seeded_by_the_rating_on_the_events_list(client, venue):
    event, director, division, entrants, waiting = venue
    late = waiting[0]
    rate(event, {e.player: r for e, r in zip(entrants, (1500, 1450, 1200, 810), strict=True)} | {late.player: 1377})
    play.assign_divisions(director, event)
    division = Division.objects.get(event=event)
    late.status = EntryStatus.CONFIRMED  # entered by the organiser after divisions were made
    late.save(update_fields=["status"])
    client.force_login(director)

    url = reverse("events:play_late_entrant", args=[event.slug, division.pk])
    client.post(url, {"late-entry": late.pk, "late-rating": ""})  # no rating typed: the list's

    seat = DivisionPlayer.objects.get(division=division, player=late.player)
    assert (seat.rating, seat.number) == (1377, 3)
    assert list(division.seats.order_by("number").values_list("rating", flat=True)) == [1500, 1450, 1377, 1200, 810]
