"""A player at a rated event watches, on a phone, their rating if the event ended now move once the director
confirms their result; the latest standings show every player's live rating."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from events.models import EventStatus
from events.play import services as play
from events.play.models import Division, DivisionPlayer
from ratings.models import PlayerRating, RatingList
from tests.e2e.conftest import PHONE, log_in
from tests.e2e.test_accessibility import AXE
from tests.events.factories import EventFactory
from tests.factories import AssociationFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FIELD = (("Priya Raman", 1600), ("Bala Kumar", 1750), ("Chen Wei", 1500), ("Dewi Lim", 0))


def rated_day(member):
    director, _ = member("Dora Director", player=False)
    rating_list = RatingList.objects.create(association=AssociationFactory(), name="National ratings", slug="national")
    today = timezone.localdate()
    event = EventFactory(
        title="Club Rated Open",
        slug="club-rated-open",
        status=EventStatus.IN_PROGRESS,
        starts_on=today,
        ends_on=today,
        registration_opens_at=timezone.now() - timedelta(days=20),
        registration_closes_at=timezone.now() - timedelta(days=2),
        rated=True,
        rating_list=rating_list,
        number_of_games=3,
    )
    event.directors.add(director)
    division = Division.objects.create(event=event, name="Open")
    players = {}
    for number, (name, rating) in enumerate(FIELD, start=1):
        user, player = member(name)
        if rating:
            PlayerRating.objects.create(
                rating_list=rating_list, player=player, rating=rating, games=120, seed_rating=rating, seed_games=120
            )
        DivisionPlayer.objects.create(division=division, player=player, number=number, rating=rating)
        players[name] = (user, player)
    return event, director, division, players


def card(page):
    return page.locator(".live-rating-card")


def axe_findings(page, selector: str) -> list[str]:
    if not AXE.exists():
        return []
    page.evaluate(AXE.read_text())
    found = page.evaluate(f"async () => (await axe.run({{include: [[{selector!r}]]}})).violations")
    return [f"{v['id']}: {v['help']}" for v in found]


def fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_player_watches_their_live_rating_move_as_the_director_confirms(journey, member):
    event, director, division, players = rated_day(member)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    priya_user, priya = players["Priya Raman"]
    game = rnd.games.get(player_a=priya) if rnd.games.filter(player_a=priya).exists() else rnd.games.get(player_b=priya)
    opponent = game.player_b if game.player_a_id == priya.pk else game.player_a
    opponent_user = next(u for u, p in players.values() if p.pk == opponent.pk)

    j = journey("live-rating", viewport=PHONE)
    my_game = reverse("events:play_my_game", args=[event.slug])
    page = log_in(j.page, j.base_url, priya_user.email, next_path=my_game)
    j.goto(my_game)
    expect(card(page)).to_contain_text("Your rating if the event ended now", use_inner_text=True)
    expect(card(page)).to_contain_text("1600 before this event", use_inner_text=True)
    assert fits_the_phone(page)
    j.shot("before the game: the rating before the event")

    # The opponent reports Priya's win; it does not count until it is confirmed.
    win = (430, 380) if game.player_a_id == priya.pk else (380, 430)
    play.submit_result(opponent_user, game, *win)
    page.reload()
    expect(card(page)).to_contain_text("1600 before this event", use_inner_text=True)
    assert "Confirm" in page.content()
    j.shot("result reported, not yet confirmed: no change")

    # The director confirms at the desk; Priya reloads her page.
    play.confirm_result(director, game)
    page.reload()
    now = int(page.locator(".live-rating-card .live-now").inner_text())
    assert now > 1600
    expect(card(page)).to_contain_text(f"+{now - 1600} from 1600", use_inner_text=True)
    expect(card(page)).to_contain_text("From 1 confirmed rated game", use_inner_text=True)
    assert axe_findings(page, ".live-rating-card") == []
    assert fits_the_phone(page)
    j.shot("confirmed: rating if the event ended now, with the change")

    # The standings show everybody's live rating.
    j.goto(reverse("events:play_standings", args=[event.slug, division.pk]))
    expect(page.get_by_role("columnheader", name="Live rating")).to_be_visible()
    row = page.locator("tr", has_text="Priya Raman")
    expect(row.locator(".live-rating")).to_have_text(re.compile(rf"^{now}\s+\+{now - 1600}$"), use_inner_text=True)
    assert axe_findings(page, ".standings") == []
    assert fits_the_phone(page)
    j.shot("standings with the live rating column")

    # The director finds the scores were entered the wrong way round and corrects them: once the correction
    # commits the live ratings are worked out again, and Priya's page shows the loss.
    play.submit_result(director, game, win[1], win[0], reason="scores entered the wrong way round")
    j.goto(my_game)
    corrected = int(page.locator(".live-rating-card .live-now").inner_text())
    assert corrected < 1600
    expect(card(page)).to_contain_text(f"−{1600 - corrected} from 1600", use_inner_text=True)
    j.shot("corrected by the director: the live rating follows")
