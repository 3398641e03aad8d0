"""The director's round page at the venue, on a phone (390 px): results, the fast-entry form and its
refusal all fit the width, with no sideways scrolling of the page."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from events.models import EventStatus
from events.play import services as play
from events.play.models import Division, DivisionPlayer
from tests.e2e.conftest import PHONE, log_in
from tests.events.factories import EventFactory
from tests.factories import PlayerFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# What sticks out past the phone's width: outside a scrolling table, or absolutely positioned (which
# escapes a scroll area that is not itself positioned).
WIDEST = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll("body *")]
    .filter((el) => el.getBoundingClientRect().right > width + 1)
    .filter((el) => !el.closest(".table-responsive") || getComputedStyle(el).position === "absolute")
    .map((el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + "." + [...el.classList].join("."))
    .slice(0, 8);
}"""


def test_the_directors_round_page_fits_a_phone(journey, member):
    director, _ = member("Dora Director", player=False)
    today = timezone.localdate()
    event = EventFactory(
        title="Jurong Green Students' Scrabble Championship 2026",
        status=EventStatus.IN_PROGRESS,
        starts_on=today,
        ends_on=today,
        number_of_games=12,
    )
    event.directors.add(director)
    division = Division.objects.create(event=event, name="Open Championship")
    names = ["Muhammad Irfan bin Abdullah", "Xavier Pillai Ramasamy", "Anna Tan Siew Ling", "Bala Kumar"]
    for number, name in enumerate(names * 3, start=1):
        player = PlayerFactory(full_name=f"{name} {number}")
        DivisionPlayer.objects.create(division=division, player=player, number=number, rating=2000 - number)
    for _ in range(11):  # many rounds: the round links must wrap
        rnd = play.pair_round(director, division, "random", seed=7, accept_repeats=True)
        play.publish_round(director, rnd)
        for game in rnd.games.all():
            play.submit_result(director, game, 455, 380, overtime_a=75)
    rnd = play.pair_round(director, division, "koth", accept_repeats=True)
    play.publish_round(director, rnd)
    first = rnd.games.order_by("board").first()
    play.submit_result(director, first, 401, 388)
    play.submit_result(director, first, 388, 401, reason="The scores were written the wrong way round on the slip")

    j = journey("director-round-phone", viewport=PHONE)
    page = j.page
    log_in(page, j.base_url, director.email)
    j.goto(f"/events/{event.slug}/play/division/{division.pk}/round/{rnd.number}/")
    page.locator("#result-changes summary").click()
    j.shot("round page with results on a phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, page.evaluate(WIDEST)

    page.fill("textarea[name=text]", "1 400 2 350\n99 400 3 300\nnonsense-without-any-spaces-at-all-to-wrap-here")
    page.get_by_role("button", name="Enter these results").click()
    expect(page.get_by_text("Line 2: there is no player number 99")).to_be_visible()
    j.shot("fast entry refused on a phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, page.evaluate(WIDEST)
