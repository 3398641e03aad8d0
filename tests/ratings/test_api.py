"""The ratings API: lists, filtered ratings, a player's history, an event's report, runs."""

import pytest
from rest_framework.test import APIClient

from ratings.models import PlayerRating, RatingChange, RatingRun
from tests.factories import ClubFactory, PlayerFactory, UserFactory

from .factories import RatedEventFactory, RatingListFactory, days_ago, play, round_robin
from .test_pages import rated_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def test_rating_lists(api):
    rating_list, _ = rated_list(size=4, events=1)
    data = api.get("/api/rating-lists/").json()
    assert data["results"][0]["slug"] == rating_list.slug
    assert data["results"][0]["system"] == "naspa"


def test_ratings_are_filterable(api):
    club = ClubFactory()
    rating_list, players = rated_list(size=6, events=1)
    players[2].club = club
    players[2].save()
    seed_only = PlayerRating.objects.create(rating_list=rating_list, player=PlayerFactory(), rating=2400, games=5)

    everyone = api.get("/api/ratings/", {"list": rating_list.slug}).json()
    assert everyone["count"] == 6
    assert [r["rank"] for r in everyone["results"]] == [1, 2, 3, 4, 5, 6]
    first = everyone["results"][0]
    assert set(first) >= {"member_number", "name", "club", "rating", "games", "peak", "provisional"}

    by_club = api.get("/api/ratings/", {"list": rating_list.slug, "club": club.slug}).json()
    assert [r["member_number"] for r in by_club["results"]] == [players[2].member_number]
    with_inactive = api.get("/api/ratings/", {"list": rating_list.slug, "all": "true"}).json()
    assert with_inactive["results"][0]["member_number"] == seed_only.player.member_number
    assert with_inactive["results"][0]["provisional"] is True
    band = api.get("/api/ratings/", {"list": rating_list.slug, "min_rating": 1, "max_rating": 1800}).json()
    assert all(r["rating"] <= 1800 for r in band["results"])
    one = api.get("/api/ratings/", {"list": rating_list.slug, "member_number": players[4].member_number}).json()
    assert [r["member_number"] for r in one["results"]] == [players[4].member_number]


def test_a_players_history(api):
    rating_list, players = rated_list(size=4, events=2)
    data = api.get(f"/api/rating-lists/{rating_list.slug}/history/{players[0].member_number}/").json()
    assert len(data) == 2
    assert data[1]["pre"] == data[0]["post"]
    assert data[1]["post"] == PlayerRating.objects.get(rating_list=rating_list, player=players[0]).rating


def test_an_events_report(api):
    rating_list, players = rated_list(size=4, events=1)
    event = RatingChange.objects.first().event
    data = api.get(f"/api/rating-reports/{event.slug}/").json()
    assert data["event"] == event.slug
    assert len(data["rows"]) == 4
    row = data["rows"][0]
    assert row["change"] == row["post"] - row["pre"]
    assert row["performance"] is not None


def test_queuing_runs_is_checked_on_the_server(api, on_commit):
    rating_list = RatingListFactory()
    event = RatedEventFactory(rating_list=rating_list)
    play(event, round_robin(PlayerFactory.create_batch(4)))

    assert api.post("/api/rating-runs/", {"event": event.slug}).status_code in (401, 403)
    api.force_authenticate(UserFactory())
    refused = api.post("/api/rating-runs/", {"event": event.slug})
    assert refused.status_code == 403
    api.force_authenticate(UserFactory(is_staff=True))
    with on_commit(execute=True):
        queued = api.post("/api/rating-runs/", {"event": event.slug})
    assert queued.status_code == 202
    assert RatingRun.objects.get(pk=queued.json()["id"]).status == "done"
    with on_commit(execute=True):
        rerate = api.post("/api/rating-runs/", {"rating_list": rating_list.slug, "from_date": days_ago(5).isoformat()})
    assert rerate.status_code == 202
    assert api.post("/api/rating-runs/", {"rating_list": rating_list.slug}).status_code == 400
    listed = api.get("/api/rating-runs/").json()
    assert listed["count"] == 2


def test_unconfirmed_results_refused_through_the_api(api):
    from events.play.models import Game, GameStatus

    rating_list = RatingListFactory()
    event = RatedEventFactory(rating_list=rating_list)
    division = play(event, round_robin(PlayerFactory.create_batch(4)))
    Game.objects.filter(division=division, round_number=3).update(status=GameStatus.SUBMITTED)
    api.force_authenticate(UserFactory(is_staff=True))
    response = api.post("/api/rating-runs/", {"event": event.slug})
    assert response.status_code == 400
    assert "2 results are not confirmed" in response.json()["detail"]


def test_schema_builds(api):
    assert api.get("/api/schema/").status_code == 200
