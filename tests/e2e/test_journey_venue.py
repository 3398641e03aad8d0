"""The day at the venue (seed 004): a director checks players in on a phone, withdraws a no-show and gives the
place to someone on the waiting list before round 1; a wall display updates itself when a result is entered
elsewhere; round 2 scorecards are printed."""

import re
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.utils import timezone
from playwright.sync_api import expect

from events.models import EntryStatus, EventStatus
from events.play import services as play
from events.play.models import Division, DivisionPlayer
from tests.e2e.conftest import PHONE, log_in
from tests.events.factories import CategoryFactory, EntryFactory, EventFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SGT = ZoneInfo("Asia/Singapore")
NAMES = ("Anna Tan", "Bala Kumar", "Chen Wei", "Dewi Lim")


def students_day(member, *, waiting=(), status=EventStatus.REGISTRATION_CLOSED):
    """Seed 004 on the day: reporting 9.00–9.15, Category A of four places, all taken."""
    director, _ = member("Dora Director", player=False)
    event = EventFactory(
        title="Jurong Green Students' Scrabble Championship",
        slug="jurong-green-students",
        status=status,
        starts_on=timezone.localdate(),
        ends_on=timezone.localdate(),
        time_zone="Asia/Singapore",
        reporting_time=time(9, 0),
        reporting_until=time(9, 15),
        registration_opens_at=timezone.now() - timedelta(days=40),
        registration_closes_at=timezone.now() - timedelta(days=10),
        rated=False,
        number_of_games=5,
    )
    event.directors.add(director)
    category = CategoryFactory(event=event, name="Category A – Secondary School Student", quota=4)
    division = Division.objects.create(event=event, category=category, name="Secondary", assignments_published=True)
    entries = {}
    for number, name in enumerate(NAMES, start=1):
        _, player = member(name)
        entry = EntryFactory(category=category, player=player, status=EntryStatus.CONFIRMED, division=division)
        DivisionPlayer.objects.create(division=division, player=player, entry=entry, number=number)
        entries[name] = entry
    for name in waiting:
        _, player = member(name)
        entries[name] = EntryFactory(category=category, player=player, status=EntryStatus.WAITLISTED)
    return event, director, division, entries


def fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_director_checks_players_in_withdraws_a_no_show_and_fills_the_place_before_round_1(journey, member):
    # 9.26 on the day: reporting closed at 9.15, the ten minutes' grace is over.
    moment = datetime.combine(timezone.localdate(), time(9, 26), tzinfo=SGT)
    with time_machine.travel(moment, tick=True):
        event, director, division, entries = students_day(member, waiting=("Eddie Goh", "Farah Ismail"))
        j = journey("venue-check-in", viewport=PHONE)
        page = j.page
        log_in(page, j.base_url, director.email, next_path=f"/events/{event.slug}/play/")
        page.get_by_role("link", name="Check-in").click()
        expect(page.get_by_role("heading", name="Check-in", exact=True)).to_be_visible()
        expect(page.locator("#check-in-summary")).to_have_text(re.compile(r"^0 of 4 here"), use_inner_text=True)
        j.shot("check-in list at reporting time")

        for name in ("Anna Tan", "Bala Kumar", "Chen Wei"):
            page.get_by_role("button", name=f"Check in {name}", exact=True).click()
            expect(page.get_by_text(f"{name} is checked in.")).to_be_visible()
        expect(page.locator("#check-in-summary")).to_have_text(re.compile(r"^3 of 4 here"), use_inner_text=True)
        # Farah is in the hall, Eddie (ahead of her on the list) is not.
        page.get_by_role("button", name="Check in Farah Ismail", exact=True).click()
        assert fits_the_phone(page)
        j.shot("three entrants and a waiting-list player checked in")

        missing = page.locator("#missing")
        expect(missing.get_by_text("Dewi Lim")).to_be_visible()
        missing.get_by_label("I have called their names: they are not here").check()
        j.shot("the missing player, about to be withdrawn")
        missing.get_by_role("button", name="Withdraw 1 missing player").click()
        expect(page.get_by_text("1 withdrawn (not here at reporting time): Dewi Lim.")).to_be_visible()
        expect(page.get_by_text("1 place free.")).to_be_visible()

        page.get_by_role("button", name="Fill free places from the waiting list").click()
        expect(page.get_by_text("Places taken from the waiting list: Farah Ismail (Secondary #4).")).to_be_visible()
        expect(page.locator("#check-in-summary")).to_have_text(re.compile(r"^4 of 4 here"), use_inner_text=True)
        assert fits_the_phone(page)
        j.shot("the free place went to Farah, who is here")

        entries["Dewi Lim"].refresh_from_db()
        entries["Farah Ismail"].refresh_from_db()
        entries["Eddie Goh"].refresh_from_db()
        assert entries["Dewi Lim"].status == EntryStatus.WITHDRAWN
        assert entries["Farah Ismail"].status == EntryStatus.CONFIRMED
        assert entries["Eddie Goh"].status == EntryStatus.WAITLISTED

        # Round 1 pairs the four players who are here.
        page.get_by_role("link", name=event.title).click()
        page.get_by_role("link", name="Pair and run rounds").click()
        players = page.locator("table").last
        expect(players.get_by_text("Farah Ismail")).to_be_visible()
        expect(players.get_by_text("Dewi Lim")).to_have_count(0)
        page.get_by_role("button", name="Pair the round").click()
        expect(page.get_by_text("Round 1 is paired as a draft")).to_be_visible()
        expect(page.locator("table.pairings").get_by_text("Farah Ismail")).to_be_visible()
        j.shot("round 1 paired with the players present")


def test_a_wall_display_updates_itself_when_a_result_is_entered_elsewhere(journey, member):
    event, director, division, entries = students_day(member, status=EventStatus.IN_PROGRESS)
    rnd = play.pair_round(director, division, "random", seed=4)
    play.publish_round(director, rnd)
    game = rnd.games.filter(player_b__isnull=False).order_by("board").first()

    j = journey("venue-wall", viewport={"width": 1280, "height": 720})
    page = j.page
    # Nobody logs in: the projector's browser just opens the address.
    j.goto(f"/events/{event.slug}/play/division/{division.pk}/wall/pairings/?poll=1")
    expect(page.get_by_role("heading", name="Pairings · Round 1")).to_be_visible()
    row = page.locator("table.wall-pairings tbody tr").first
    expect(row.locator("td.board")).to_have_text("1", use_inner_text=True)
    expect(row.locator("td.num").first).not_to_have_text(re.compile(r"\d{3}"), use_inner_text=True)
    j.shot("wall pairings before any result")

    play.submit_result(director, game, 412, 377)  # the director enters it on another device
    # The page's own script reloads it (no eval in the test: the site's CSP forbids it).
    expect(page.locator("table.wall-pairings tbody tr td.num").first).to_have_text("412", timeout=15000)
    expect(row.get_by_text("377")).to_be_visible()
    j.shot("the wall shows the result without a reload by hand")

    # Standings page through by themselves when the list is long.
    j.goto(f"/events/{event.slug}/play/division/{division.pk}/wall/standings/?rows=2&seconds=3&poll=1")
    counter = page.locator("[data-page-counter]")
    expect(counter).to_have_text("Page 1 of 2", use_inner_text=True)
    expect(page.locator(".wall-page").nth(1)).to_be_hidden()
    expect(page.locator("table.wall-standings tbody tr").first.locator(".wins")).to_have_text("1", use_inner_text=True)
    j.shot("wall standings page 1")
    expect(counter).to_have_text("Page 2 of 2", timeout=15000)
    j.shot("wall standings page 2 by itself")

    j.goto(f"/events/{event.slug}/play/division/{division.pk}/wall/find/")
    expect(page.locator("table.wall-find tbody tr td:first-child")).to_have_text(sorted(NAMES), use_inner_text=True)
    j.shot("find my table")


def test_round_2_scorecards_print_from_the_browser(journey, member):
    event, director, division, entries = students_day(member, status=EventStatus.IN_PROGRESS)
    r1 = play.pair_round(director, division, "random", seed=4)
    play.publish_round(director, r1)
    for i, game in enumerate(r1.games.filter(player_b__isnull=False).order_by("board")):
        play.submit_result(director, game, 420 + 10 * i, 360)
    play.pair_round(director, division, "koth")

    j = journey("venue-print")
    page = j.page
    log_in(page, j.base_url, director.email, next_path=f"/events/{event.slug}/play/")
    page.get_by_role("link", name="Print round").click()
    expect(page.get_by_role("heading", name="Print round 2: scorecards")).to_be_visible()
    cards = page.locator("section.scorecard-print")
    expect(cards).to_have_count(4)
    expect(cards.first.get_by_text("goes first")).to_be_visible()
    expect(cards.first.get_by_text(re.compile(r"\(1–0, \+\d+\)")).first).to_be_visible()
    j.shot("round 2 scorecards on screen")

    page.emulate_media(media="print")
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
    j.shot("round 2 scorecards as printed")
    for paper in ("A4", "Letter"):
        pdf = page.pdf(path=str(j.folder / f"round-2-scorecards-{paper.lower()}.pdf"), format=paper)
        pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
        assert pages == 2, f"{paper}: {pages} pages for 4 cards (two a page)"
    page.emulate_media(media="screen")

    page.get_by_role("link", name="Pairings by name").click()
    expect(page.locator("table.door-pairings tbody tr td:first-child")).to_have_text(sorted(NAMES), use_inner_text=True)
    j.shot("pairings by name for the door")
    page.get_by_role("link", name="Result slips").click()
    expect(page.locator("section.slip")).to_have_count(2)
    j.shot("result slips")
