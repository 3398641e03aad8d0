"""A club night's play on phones: the club director enters a three-player table (seed 001's rules: a tie on final
score goes to the higher score before the tile adjustment) and a one-on-one game; a member submits her own game and
her opponent confirms it; the member then finds the club's ladder and her club rating on her page."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clubs import services as clubs
from clubs.models import ClubNight, Officer, OfficerRole
from tests.e2e.conftest import PHONE, log_in
from tests.e2e.test_journey_live_rating import axe_findings, fits_the_phone
from tests.factories import ClubFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def a_club_night(member):
    from datetime import time

    from django.utils import timezone

    club = ClubFactory(name="Tel Aviv Scrabble Club", slug="tel-aviv")
    director, evan = member("Evan Cohen", club=club)
    Officer.objects.create(club=club, player=evan, role=OfficerRole.DIRECTOR)
    people = {name: member(name, club=club) for name in ("Ann Lee", "Bob Tan", "Cy Ng")}
    night = ClubNight.objects.create(club=club, on=timezone.localdate(), starts_at=time(19, 30))
    for _, player in people.values():
        clubs.check_in(director, night, player)
    return club, night, director, people


def test_a_club_director_enters_a_table_and_games_and_the_member_sees_the_ladder(journey, member):
    club, night, director, people = a_club_night(member)
    games_page = reverse("clubs:night_play", args=[club.slug, night.pk])

    j = journey("club_games", viewport=PHONE)
    page = log_in(j.page, j.base_url, director.email, next_path=games_page)
    page.get_by_role("link", name="Enter a table").click()
    rows = (("Ann Lee", "E", "300", "0"), ("Bob Tan", "?", "318", "8"), ("Cy Ng", "B", "280", "2"))
    for n, (name, drawn, before, tiles) in enumerate(rows, start=1):
        page.get_by_label(f"Player {n}", exact=True).select_option(label=name)
        page.fill(f"#id_drawn_{n}", drawn)
        page.fill(f"#id_score_before_{n}", before)
        page.fill(f"#id_tiles_left_{n}", tiles)
    page.get_by_label("Who went out").select_option(label="Ann Lee")
    j.shot("the referee's sheet typed in")
    page.get_by_role("button", name="Enter table").click()
    table = page.locator("[id^=table-]").first
    # Ann went out from 300 and gains Bob's 8 and Cy's 2: 310; Bob had 318 before his 8 went: 310. Bob led before
    # the tiles, so he wins; he drew the blank, so he sat first.
    expect(table.locator("tbody tr").nth(0)).to_contain_text("Bob Tan (seat 1, drew ?)")
    expect(table.locator("tbody tr").nth(0)).to_contain_text("310")
    expect(table.locator("tbody tr").nth(1)).to_contain_text("Ann Lee (seat 3, drew E)")
    expect(table.locator("tbody tr").nth(1).locator("td").first).to_have_text("2")
    expect(table.locator("tbody tr").nth(2)).to_contain_text("Cy Ng")
    assert fits_the_phone(page)
    assert axe_findings(page, "main") == []
    j.shot("the table ranked by seed 001")

    page.get_by_label("Player A", exact=True).select_option(label="Cy Ng")
    page.get_by_label("Player A's score").fill("402")
    page.get_by_label("Player B", exact=True).select_option(label="Bob Tan")
    page.get_by_label("Player B's score").fill("377")
    page.get_by_role("button", name="Enter game").click()
    expect(page.get_by_text("Game entered.")).to_be_visible()
    expect(page.locator("[id^=game-]").first).to_contain_text("Cy Ng 402–377 Bob Tan")
    expect(page.locator("[id^=game-]").first).to_contain_text("Confirmed")
    j.shot("the director's game is confirmed as entered")

    ann_user, ann = people["Ann Lee"]
    ann_page = log_in(j.new_page(), j.base_url, ann_user.email, next_path=games_page)
    ann_page.get_by_label("Player B", exact=True).select_option(label="Bob Tan")
    ann_page.get_by_label("Player A's score").fill("415")
    ann_page.get_by_label("Player B's score").fill("388")
    ann_page.get_by_role("button", name="Submit game").click()
    expect(ann_page.get_by_text("Game submitted: Bob Tan confirms it.")).to_be_visible()
    j.shot("Ann submits her game", ann_page)

    bob_user, _ = people["Bob Tan"]
    bob_page = log_in(j.new_page(), j.base_url, bob_user.email, next_path=games_page)
    waiting = bob_page.locator("[id^=game-]", has_text="Ann Lee 415–388 Bob Tan")
    expect(waiting).to_contain_text("Waiting for confirmation")
    j.shot("Bob is asked to confirm", bob_page)
    waiting.get_by_role("button", name="Confirm").click()
    expect(bob_page.get_by_text("Game confirmed.")).to_be_visible()
    expect(bob_page.locator("[id^=game-]", has_text="Ann Lee 415–388 Bob Tan")).to_contain_text("Confirmed")

    ann_page.goto(j.base_url + reverse("players:detail", args=[ann.member_number]))
    standing = ann_page.locator(".club-standing")
    # Ann: second at the table 2 + a win 2 + the night 1 = 5; Bob: first 4 + two losses + the night = 5; Cy: third
    # 1 + a win 2 + the night = 4. Ann and Bob are level on points and wins (Bob's win is his first place): shared.
    expect(standing).to_contain_text("Club ladder: =1 of 3, 5 points (1 night, 2 games)")
    expect(standing).to_contain_text("Club rating:")
    expect(standing).not_to_contain_text("unrated")
    assert axe_findings(ann_page, "main") == []
    j.shot("Ann's page shows her ladder place and club rating", ann_page)
    standing.get_by_role("link", name="the ladder").click()
    expect(ann_page.locator("table.ladder tbody tr")).to_have_count(3)
    expect(ann_page.locator("table.ladder tbody tr").nth(2)).to_contain_text("Cy Ng")
    assert fits_the_phone(ann_page)
    # The club rating is in sight on the phone (a narrow one too), not past the table's own sideways scroll.
    ann_page.set_viewport_size({"width": 320, "height": 740})
    rating = ann_page.locator("table.ladder thead th", has_text="Rating")
    expect(rating).to_be_visible()
    box = rating.bounding_box()
    assert box is not None and box["x"] + box["width"] <= ann_page.viewport_size["width"] + 1, box
    j.shot("the club's ladder", ann_page)
