"""A visitor opens a member's page, compares them with a rival head to head, and replays a game's record;
the rival then attaches a record of another game from a phone."""

from datetime import date

import pytest
from playwright.sync_api import expect

from events.play.demo_records import gcg_text
from events.play.models import Game, GcgRecord
from tests.e2e.conftest import PHONE, log_in
from tests.e2e.test_accessibility import AXE, violations
from tests.events.play.history_helpers import played_event
from tests.factories import PlayerFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def no_new_violations(page) -> list[str]:
    """axe-core's findings, less the one known today on every page (the navbar links' contrast)."""
    if not AXE.exists():
        return []
    return [v for v in violations(page) if not (v.startswith("color-contrast") and "nav" in v)]


def test_head_to_head_between_two_members_and_a_game_record(journey, member):
    user, farid = member("Farid Rahman")
    grace = PlayerFactory(full_name="Grace Teo")
    others = [PlayerFactory(full_name=name) for name in ("Irfan Koh", "Lakshmi Pillai")]
    played_event(
        grace,
        [(farid, 432, 401), (others[0], 388, 360), (farid, 350, 419), (others[1], 460, 300)],
        title="Jurong Green Open",
        starts_on=date(2024, 3, 9),
    )
    played_event(
        grace, [(farid, 510, 322), (others[0], 377, 377)], title="Toa Payoh Masters", starts_on=date(2025, 6, 14)
    )
    recorded = Game.objects.get(division__event__title="Toa Payoh Masters", round_number=1)
    GcgRecord.objects.create(game=recorded, text=gcg_text("Grace Teo", "Farid Rahman", 510, 322))

    j = journey("player-history")
    page = j.goto(f"/members/{grace.member_number}/")
    page.get_by_role("link", name="Every game").click()
    page.get_by_role("heading", name="Grace Teo: games").wait_for()
    expect(page.get_by_text("6 games")).to_be_visible()
    assert no_new_violations(page) == []
    j.shot("every game")

    page.get_by_label("Result").select_option("L")
    page.get_by_role("button", name="Show").click()
    assert "350–419" in page.content() and "432–401" not in page.content()
    j.shot("losses only")

    page.get_by_role("link", name="Head to head", exact=True).click()
    page.get_by_label("Opponent", exact=True).select_option(label="Farid Rahman")
    page.get_by_role("button", name="Compare").click()
    page.get_by_role("heading", name="Grace Teo v Farid Rahman").wait_for()
    summary = page.locator("section dl")
    for figure in ("2–1", "430.7", "380.7"):
        expect(summary).to_contain_text(figure, use_inner_text=True)
    expect(page.locator("table tbody tr")).to_have_count(3)
    assert no_new_violations(page) == []
    j.shot("head to head")

    page.get_by_role("link", name="Records").click()
    assert "High game" in page.content() and "510" in page.content()
    assert no_new_violations(page) == []
    j.shot("records")

    page.get_by_role("link", name="Games", exact=True).click()
    page.get_by_role("link", name="Moves of round 1, Toa Payoh Masters").click()
    page.get_by_role("heading", name="Final board").wait_for()
    board = page.get_by_role("table", name="Final board")
    expect(board.get_by_role("columnheader", name="O")).to_be_visible()
    expect(board.get_by_role("rowheader", name="15")).to_be_visible()
    expect(page.get_by_role("table", name="Moves of the game, in order")).to_contain_text("WAFTED", use_inner_text=True)
    assert no_new_violations(page) == []
    j.shot("game record")

    # Farid, on his phone, attaches the record of his win in round 3 of the first event.
    phone = j.new_page(PHONE)
    log_in(phone, j.base_url, user.email)
    phone.goto(j.base_url + f"/members/{farid.member_number}/games/")
    phone.get_by_role("link", name="Details of round 3, Jurong Green Open").click()
    typo = gcg_text("Grace Teo", "Farid Rahman", 350, 419) + ">p1: AIQ 16A QI +11 361\n"
    phone.get_by_label("Or paste the record").fill(typo)
    phone.get_by_role("button", name="Attach").click()
    # Refused, naming the line, under the field that was used; the pasted text is kept to be corrected.
    error = phone.locator("#id_text").locator("xpath=..")
    expect(error).to_contain_text("line 23: the position '16A' is not a square", use_inner_text=True)
    expect(phone.get_by_label("Or paste the record")).to_have_value(typo)
    j.shot("refused by line", phone)
    phone.get_by_label("Or paste the record").fill(gcg_text("Grace Teo", "Farid Rahman", 350, 419))
    phone.get_by_role("button", name="Attach").click()
    phone.get_by_text("The game record is attached.").wait_for()
    phone.get_by_role("heading", name="Final board").wait_for()
    assert no_new_violations(phone) == []
    j.shot("attached on a phone", phone)
