"""A member logs in, finds their rating on the list, opens their history chart and their last event's report."""

import re

import pytest
from playwright.sync_api import expect

from ratings import services
from ratings.models import PlayerRating, RatingChange
from tests.e2e.conftest import PASSWORD
from tests.factories import PlayerFactory
from tests.ratings.factories import RatedEventFactory, RatingListFactory, days_ago, play, round_robin, seed

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_member_finds_rating_history_chart_and_last_event_report(journey, member):
    # Preconditions: a rating list on which the member played two rated events.
    ratings = RatingListFactory(name="SA Ratings (CSW)", slug="sa-csw")
    user, mona = member("Mona Member")
    others = [
        PlayerFactory(full_name=name)
        for name in ("Aaron Ang", "Betty Boo", "Carl Chua", "Daisy Dee", "Ethan Eng", "Fiona Foo", "Gary Gan")
    ]
    players = others[:3] + [mona] + others[3:]
    for i, p in enumerate(players):
        seed(ratings, p, 1900 - 60 * i, games=60)
    titles = ("Toa Payoh Masters", "Jurong Green Open")
    for n, title in enumerate(titles):
        event = RatedEventFactory(title=title, rating_list=ratings, starts_on=days_ago(60 - 30 * n))
        # Mona (index 3) also beats the three players above her in the second event: seven wins of seven.
        play(event, round_robin(players, upsets={(0, 3), (1, 3), (2, 3)} if n else set()))
        services.rate_event(event)
    last = RatingChange.objects.get(player=mona, division__event__title="Jurong Green Open")
    standing = PlayerRating.objects.get(rating_list=ratings, player=mona)
    rank = PlayerRating.objects.filter(rating_list=ratings, rating__gt=standing.rating).count() + 1

    j = journey("member-ratings")
    page = j.goto("/")
    page.get_by_role("link", name="Log in").click()
    page.fill("input[name=login]", user.email)
    page.fill("input[name=password]", PASSWORD)
    j.shot("log-in form")
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_url(re.compile(r"/members/me/"))
    j.shot("logged in")

    page.get_by_role("link", name="Ratings", exact=True).click()
    expect(page.get_by_role("heading", name="SA Ratings (CSW)")).to_be_visible()
    expect(page.get_by_role("row", name=re.compile("Mona Member"))).to_be_visible()
    j.shot("the rating list")
    page.get_by_label("Name").fill("mona")
    page.get_by_role("button", name="Show").click()
    rows = page.locator("table tbody tr")
    expect(rows).to_have_count(1)
    cells = rows.first.locator("td").all_inner_texts()
    assert cells[0] == str(rank) and cells[1] == "Mona Member" and cells[4].strip() == str(standing.rating)
    assert cells[5] == "74"  # 60 seeded games and seven in each event
    j.shot("found my rating")

    rows.first.get_by_role("link", name="Mona Member").click()
    expect(page.get_by_role("heading", name=re.compile("Mona Member"))).to_be_visible()
    chart = page.get_by_role("img", name="Rating history chart of Mona Member")
    chart.scroll_into_view_if_needed()
    # Waits for the image to load (it may still be on its way after the scroll); times out if it never does.
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=chart.element_handle())
    svg = page.request.get(chart.evaluate("img => img.src"))
    assert svg.ok and svg.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in svg.text() and "Mona Member" in svg.text()
    history = page.locator("table tbody tr")
    expect(history).to_have_count(2)
    expect(history.last.get_by_role("cell", name=str(standing.rating), exact=True)).to_be_visible()
    j.shot("my history and chart")

    history.last.get_by_role("link", name="Jurong Green Open").click()
    expect(page.get_by_role("heading", name=re.compile("Jurong Green Open"))).to_be_visible()
    expect(page.get_by_text("rating report")).to_be_visible()
    mine = page.get_by_role("row", name=re.compile("Mona Member")).locator("td").all_inner_texts()
    assert mine[2] == "7" and mine[3] == "7"  # she won every game
    assert (int(mine[5]), int(mine[6]), mine[7]) == (last.pre, last.post, f"{last.change:+d}")
    assert last.change > 0
    expect(page.locator("table tbody tr")).to_have_count(8)
    j.shot("last event's rating report")

    # On a phone the rating stands on screen beside the name; club, country and last played wait for a wider screen.
    page.set_viewport_size({"width": 390, "height": 844})
    j.goto("/ratings/")
    header = page.get_by_role("columnheader", name="Rating", exact=True)
    box = header.bounding_box()
    assert box and box["x"] + box["width"] <= 390
    expect(page.get_by_role("columnheader", name="Club")).not_to_be_visible()
    j.shot("the rating list on a phone")
