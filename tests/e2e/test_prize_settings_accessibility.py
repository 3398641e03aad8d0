"""The new prize settings pass axe-core: the event form with them, the prizes page as a director deciding a
tie and showing a fund split by fees, and the entry page's rules section."""

import json
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.conftest import skip_or_fail

from .conftest import log_in
from .test_accessibility import AXE, violations

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def director_event(member):
    if not AXE.exists():
        skip_or_fail("needs axe-core in node_modules (make test runs npm ci)")
    from events.models import EventStatus, PrizeTies
    from events.play import services as play
    from events.play.models import Division, DivisionPlayer
    from tests.events.factories import CategoryFactory, EntryFactory, EventFactory, PrizeFactory
    from tests.factories import PlayerFactory

    user, _ = member("Dana Director", organiser=True)
    event = EventFactory(
        owner=user,
        status=EventStatus.IN_PROGRESS,
        rated=False,
        prize_ties=PrizeTies.DIRECTOR,
        prize_fund=Decimal(1000),
        prize_fund_by_fees=True,
    )
    event.directors.add(user)
    category = CategoryFactory(event=event, name="Category A")
    for place, amount in enumerate((100, 80, 60, 40, 20), start=1):
        PrizeFactory(category=category, rank_from=place, rank_to=place, amount=Decimal(amount),
                     description=f"Shopping voucher S${amount}", position=place)  # fmt: skip
    division = Division.objects.create(event=event, name="A", category=category)
    other = Division.objects.create(event=event, name="B", position=1)
    for n in range(1, 7):
        player = PlayerFactory(full_name=f"Player {n:02d}")
        entry = EntryFactory(category=category, event=event, player=player, amount_paid=Decimal(30))
        DivisionPlayer.objects.create(division=division, player=player, number=n, rating=2000 - n, entry=entry)
    for n in range(1, 3):
        player = PlayerFactory(full_name=f"Player B{n}")
        entry = EntryFactory(category=category, event=event, player=player, amount_paid=Decimal(30))
        DivisionPlayer.objects.create(division=other, player=player, number=n, entry=entry)
    rnd = play.pair_round(user, division, "random", seed=3)
    play.publish_round(user, rnd)
    for margin, game in zip((150, 100, 100), rnd.games.order_by("board"), strict=True):
        play.submit_result(user, game, 300 + margin, 300)
    open_event = EventFactory(
        overrun_forfeit=True,
        spread_cap=300,
        round_spread_caps="200",
        ties_by_score_before_tiles=True,
        prize_fund=Decimal(500),
        prize_fund_by_fees=True,
    )
    CategoryFactory(event=open_event)
    return user, event, division, open_event


def test_prize_settings_pages_pass_axe(director_event, journey, live_server):
    user, event, division, open_event = director_event
    trip = journey("axe-prize-settings")
    log_in(trip.page, live_server.url, user.email)
    prizes = f"/events/{event.slug}/play/division/{division.pk}/prizes/"
    found = {}

    def check(path: str, label: str) -> None:
        problems = violations(trip.page)
        trip.shot(label)
        if problems:
            found[path] = problems

    for path in (f"/events/{event.slug}/edit/", prizes, f"/events/{open_event.slug}/enter/"):
        response = trip.page.goto(live_server.url + path)
        assert response.status == 200, f"{path} answered {response.status}"
        check(path, path)

    trip.page.goto(live_server.url + prizes)
    expect(trip.page.get_by_role("heading", name="Tied prizes: your decision")).to_be_visible()
    expect(trip.page.get_by_role("heading", name="Prize fund by division fees")).to_be_visible()
    form = trip.page.locator("form.prize-decision").first
    form.get_by_label("Receives 2nd place").select_option(index=1)
    form.get_by_label("Why").fill("Higher cumulative score, as announced")
    form.get_by_role("button", name="Decide").click()
    trip.page.wait_for_load_state()
    assert "Decided by the director: Higher cumulative score, as announced" in trip.page.content()
    check(prizes + "#decided", "after a decision")

    trip.page.goto(live_server.url + f"/events/{open_event.slug}/enter/")
    expect(trip.page.get_by_role("heading", name="Tournament rules")).to_be_visible()
    assert found == {}, json.dumps(found, indent=1)
