"""Seed 004's hall on one 1080p screen (issue 23, defect 43): the secondary and primary divisions' current rounds
side by side, updating themselves as results come in, and one "find my table" across both divisions."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from events.models import EventStatus
from events.play import services as play
from events.play.models import Division, DivisionPlayer
from tests.events.factories import CategoryFactory, EventFactory
from tests.factories import PlayerFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FULL_HD = {"width": 1920, "height": 1080}
SECONDARY = ["Aaron Lee", "Bee Hoon Tan", "Chloe Ng", "Darren Goh", "Elaine Koh", "Farid Rahman", "Grace Ong",
             "Hafiz Osman", "Irene Chua", "Jun Wei Lim", "Kavya Nair", "Liang Tan"]  # fmt: skip
PRIMARY = ["Mei Ling Teo", "Nur Aisyah", "Oliver Sim", "Priya Das", "Qi Hao Wong", "Rachel Yeo", "Samuel Ho",
           "Tanvi Rao", "Umar Iskandar", "Vivian Poh"]  # fmt: skip


def championship():
    director = UserFactory()
    event = EventFactory(
        title="Jurong Green Students' Scrabble Championship",
        slug="jurong-green-students",
        status=EventStatus.IN_PROGRESS,
        starts_on=timezone.localdate(),
        ends_on=timezone.localdate(),
        registration_opens_at=timezone.now() - timedelta(days=40),
        registration_closes_at=timezone.now() - timedelta(days=10),
        number_of_games=5,
        rated=False,
    )
    event.directors.add(director)
    rounds = {}
    for position, (name, people) in enumerate((("Secondary", SECONDARY), ("Primary", PRIMARY))):
        category = CategoryFactory(event=event, name=f"Category {'AB'[position]} – {name}", position=position)
        division = Division.objects.create(event=event, category=category, name=name, position=position)
        for number, full_name in enumerate(people, start=1):
            DivisionPlayer.objects.create(division=division, player=PlayerFactory(full_name=full_name), number=number)
        rnd = play.pair_round(director, division, "random", seed=2015 + position)
        play.publish_round(director, rnd)
        rounds[name] = rnd
    return event, director, rounds


def test_one_screen_shows_every_division_and_finds_anyones_table(journey):
    event, director, rounds = championship()
    j = journey("event-wall", viewport=FULL_HD)
    page = j.page
    # Nobody logs in: the hall's screen just opens the address.
    j.goto(f"/events/{event.slug}/play/wall/pairings/?poll=1")
    expect(page.get_by_role("heading", name="Secondary · Round 1")).to_be_visible()
    expect(page.get_by_role("heading", name="Primary · Round 1")).to_be_visible()
    expect(page.locator(".wall-division")).to_have_count(2)
    expect(page.locator(".wall-division").nth(1).locator("tbody tr")).to_have_count(5)
    # Side by side, both whole on the screen: no scrolling at a 1080p wall.
    for k in range(2):
        expect(page.locator(".wall-division").nth(k)).to_be_in_viewport(ratio=1)
    j.shot("every division on one 1080p screen")

    game = rounds["Primary"].games.filter(player_b__isnull=False).order_by("board").first()
    play.submit_result(director, game, 388, 301)  # entered at the director's table
    primary = page.locator(".wall-division").nth(1)
    expect(primary.get_by_text("388")).to_be_visible(timeout=15000)
    j.shot("a primary result shows by itself")

    j.goto(f"/events/{event.slug}/play/wall/find/")
    names = page.locator("table.wall-find tbody tr td:first-child")
    expect(names).to_have_text(sorted(SECONDARY + PRIMARY, key=str.casefold), use_inner_text=True)
    row = page.locator("table.wall-find tbody tr", has_text="Nur Aisyah")
    expect(row.locator("td").nth(1)).to_have_text("Primary", use_inner_text=True)
    row = page.locator("table.wall-find tbody tr", has_text="Kavya Nair")
    expect(row.locator("td").nth(1)).to_have_text("Secondary", use_inner_text=True)
    j.shot("find my table across divisions")
