"""A club's director on a phone publishes the club's own rule book from the club's edit page (club-play relaxations
of the association's book), then a new version of it; the club page shows it."""

from datetime import date

import pytest
from playwright.sync_api import expect

from clubs import services
from clubs.models import OfficerRole
from rulebooks import services as rule_books
from rulebooks.models import RuleBook
from tests.e2e.conftest import PHONE, log_in
from tests.e2e.test_accessibility import AXE, violations
from tests.factories import AssociationFactory, ClubFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RULES = """1. **Clocks.** The club director says whether games are played on clocks.
2. **Arriving late.** No game is forfeited for arriving late at a club night."""


def no_violations(page) -> None:
    if AXE.exists():
        assert violations(page) == []


def test_a_club_director_publishes_the_club_rule_book(journey, member):
    association = AssociationFactory()
    staff = UserFactory(is_staff=True)
    book = rule_books.save_book(
        staff, RuleBook(association=association, title="Scrabble Association Tournament Rules", slug="sa-rules")
    )
    rule_books.publish_version(staff, book, text="1. Play fair.", effective_on=date(2015, 9, 1))
    club = ClubFactory(association=association, name="Tampines Tile Club", slug="tampines")
    director, dora = member("Dora Director", club=club)
    services.appoint_officer(staff, club, dora, OfficerRole.DIRECTOR)

    j = journey("club-rule-book", viewport=PHONE)
    page = log_in(j.page, j.base_url, director.email, next_path="/clubs/tampines/")
    expect(page.locator("#rules").locator("xpath=..")).to_contain_text("plays by the association's rule books")
    page.goto(j.base_url + "/clubs/tampines/edit/")
    j.shot("the edit page offers the club's rule book")
    page.get_by_role("link", name="Publish the club's rule book").click()
    expect(page.locator("#id_title")).to_have_value("Tampines Tile Club club-play rules")
    page.get_by_label("Amends").select_option(label="Scrabble Association Tournament Rules")
    page.fill("#id_text", RULES)
    no_violations(page)
    j.shot("the director writes the club's rules")
    page.get_by_role("button", name="Publish the club's rule book").click()
    expect(page.locator("#version-heading")).to_contain_text("Version 1")
    no_violations(page)
    j.shot("version 1 published")

    page.goto(j.base_url + "/clubs/tampines/")
    rules = page.locator("#rules").locator("xpath=..")
    expect(rules).to_contain_text("Tampines Tile Club club-play rules")
    expect(rules).to_contain_text("amends Scrabble Association Tournament Rules")
    j.shot("the club page shows its rule book")

    page.goto(j.base_url + "/clubs/tampines/edit/")
    page.get_by_role("link", name="Publish a new version").click()
    page.fill("#id_text", RULES + "\n3. **Tea.** The kettle is on from 7 pm.")
    page.fill("#id_changes", "Rule 3: tea.")
    page.get_by_role("button", name="Publish this version").click()
    expect(page.locator("#version-heading")).to_contain_text("Version 2")
    j.shot("version 2 published")
