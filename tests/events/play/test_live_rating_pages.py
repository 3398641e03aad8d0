"""Live ratings on the play pages: a player's own game page and the standings show each rating if the
event ended now, moving as results are confirmed."""

import re
from datetime import timedelta

import pytest
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from events.models import EventStatus
from events.play import services as play
from events.play.models import Division, DivisionPlayer
from tests.events.factories import EventFactory
from tests.factories import PlayerFactory, UserFactory
from tests.ratings.factories import RatingListFactory, seed

pytestmark = pytest.mark.django_db
PHONE = {"HTTP_USER_AGENT": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148"}


@pytest.fixture
def rated_division(director):
    rating_list = RatingListFactory(name="National ratings")
    today = timezone.localdate()
    event = EventFactory(
        status=EventStatus.IN_PROGRESS,
        number_of_games=3,
        rated=True,
        rating_list=rating_list,
        starts_on=today,
        ends_on=today,
        registration_opens_at=timezone.now() - timedelta(days=5),
        registration_closes_at=timezone.now() - timedelta(days=1),
    )
    event.directors.add(director)
    division = Division.objects.create(event=event, name="A")
    for i, rating in enumerate([1700, 1600, 1500, 0], start=1):
        player = PlayerFactory(full_name=f"Player {i:02d}", user=UserFactory())
        if rating:
            seed(rating_list, player, rating, games=120)
        DivisionPlayer.objects.create(division=division, player=player, number=i, rating=rating)
    return division


@pytest.fixture
def director():
    return UserFactory(email="td-live@example.org")


def page(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def live_cell(html: str, name: str) -> str:
    row = re.search(rf"{name}</a>.*?</tr>", html, re.S).group(0)
    return re.sub(
        r"\s+", " ", re.sub(r"<[^>]+>", " ", re.search(r'class="[^"]*live-rating[^"]*">(.*?)</td>', row, re.S).group(1))
    ).strip()


def test_player_sees_their_rating_move_when_a_result_is_confirmed(client, director, rated_division):
    division = rated_division
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    game = rnd.games.get(Q(player_a__full_name="Player 01") | Q(player_b__full_name="Player 01"))
    me = DivisionPlayer.objects.get(division=division, number=1).player
    my_game = reverse("events:play_my_game", args=[division.event.slug])
    client.force_login(me.user)

    html = page(client.get(my_game, **PHONE))
    assert "Your rating if the event ended now" in html
    assert "1700" in html and "before this event" in html

    # A loss, entered (and so confirmed) by the director.
    play.submit_result(director, game, *((380, 450) if game.player_a_id == me.pk else (450, 380)))
    html = page(client.get(my_game, **PHONE))
    now = re.search(r'class="fs-4 live-now">(\d+)<', html).group(1)
    assert int(now) < 1700
    assert f"−{1700 - int(now)}" in html and "from 1700" in html and "1 confirmed rated game" in html

    standings = reverse("events:play_standings", args=[division.event.slug, division.pk])
    html = page(client.get(standings, **PHONE))
    assert "Live rating" in html and "National ratings" in html
    # The rating beside it is the one each player was seeded by, and its heading says so.
    assert "Seed rating</abbr></th>" in html
    assert live_cell(html, "Player 01") == f"{now} −{1700 - int(now)}"
    # Not yet played: the rating before the event.
    assert live_cell(html, "Player 03") == "1500"
    # Standings after an earlier round are as they were then: no live column.
    assert "Live rating" not in page(client.get(standings + "?through=1"))


def test_a_newcomer_sees_a_first_rating_and_finalised_divisions_show_none(client, director, rated_division):
    division = rated_division
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    for game in rnd.games.all():
        play.submit_result(director, game, 420, 400)
    newcomer = DivisionPlayer.objects.get(division=division, number=4).player
    client.force_login(newcomer.user)
    my_game = reverse("events:play_my_game", args=[division.event.slug])
    html = page(client.get(my_game, **PHONE))
    assert "your first rating" in html
    standings = reverse("events:play_standings", args=[division.event.slug, division.pk])
    assert "new" in live_cell(page(client.get(standings)), "Player 04")

    division.finalised_at = timezone.now()
    division.save(update_fields=["finalised_at"])
    assert "Your rating if the event ended now" not in page(client.get(my_game, **PHONE))
    assert "Live rating" not in page(client.get(standings))


def test_unrated_events_show_no_live_ratings(client, director, rated_division):
    division = rated_division
    division.event.rated = False
    division.event.save(update_fields=["rated"])
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    player = rnd.games.first().player_a
    client.force_login(player.user)
    assert "Your rating if the event ended now" not in page(
        client.get(reverse("events:play_my_game", args=[division.event.slug]), **PHONE)
    )
    standings = reverse("events:play_standings", args=[division.event.slug, division.pk])
    assert "Live rating" not in page(client.get(standings))
