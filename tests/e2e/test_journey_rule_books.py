"""Staff publish a new version of the association's rule book; the organiser's event follows it, with amendments of
its own; an entrant on a phone reads the version and its amendments and agrees to it; the organiser sees which
version each entrant agreed to."""

import re
from datetime import date
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from events.models import Entry
from rulebooks import services as rule_books
from rulebooks.models import RuleBook
from tests.e2e.conftest import PHONE, log_in
from tests.e2e.test_accessibility import AXE, violations
from tests.events.factories import CategoryFactory, EventFactory, FeeFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FIRST = """## The game

1. **Time.** Each player has 25 minutes on the clock.
2. **Challenges.** A word challenged and found acceptable scores its player 5 points."""


def test_staff_publish_an_entrant_agrees_to_the_version_the_organiser_sees_it(journey, member):
    staff, _ = member("Siti Staff", player=False)
    staff.is_staff = True
    staff.save()
    organiser, _ = member("Oliver Organiser", organiser=True)
    _, priya = member("Priya Player", date_of_birth=date(1990, 5, 1))
    event = EventFactory(title="Jurong Green Open", slug="jurong-green-open", owner=organiser)
    book = rule_books.save_book(
        staff, RuleBook(association=event.association, title="Scrabble Association Tournament Rules", slug="sa-rules")
    )
    rule_books.publish_version(staff, book, text=FIRST, effective_on=date(2015, 9, 1))
    category = CategoryFactory(event=event, name="Open", quota=20)
    FeeFactory(category=category, name="Standard", amount=Decimal("10.00"))

    # Staff publish version 2, starting from version 1's text.
    j = journey("rule-books")
    page = log_in(j.page, j.base_url, staff.email, next_path="/rules/")
    page.get_by_role("link", name="Scrabble Association Tournament Rules").click()
    expect(page.locator("#version-heading")).to_contain_text("Version 1")
    page.get_by_role("link", name="Publish a new version").click()
    expect(page.locator("#id_text")).to_have_value(FIRST)
    page.fill("#id_text", FIRST + "\n3. **Overtime.** 10 points a minute over the time.")
    page.fill("#id_changes", "Rule 3: overtime costs 10 points a minute.")
    j.shot("staff write version 2")
    page.get_by_role("button", name="Publish this version").click()
    expect(page.locator("#version-heading")).to_contain_text("Version 2")
    expect(page.locator("#changes-heading")).to_have_text("What changed in version 2")
    expect(page.locator(".rulebook-text")).to_contain_text("Overtime.")
    if AXE.exists():
        assert violations(page) == []
    j.shot("version 2 published")
    page.get_by_role("link", name="Version 1", exact=True).click()
    expect(page.locator("#version-heading")).to_contain_text("A past version")
    j.shot("version 1 is still there")

    # The organiser's event follows version 2, with an amendment of its own.
    version = rule_books.current_version(book)
    event.rule_book_version = version
    event.rule_amendments = "Rule 3 does not apply: **no overtime penalty** at this event."
    event.rule_amendments_html = "<p>Rule 3 does not apply: <strong>no overtime penalty</strong> at this event.</p>"
    event.save()

    # An entrant on a phone reads the version and the amendment, and agrees to that version.
    phone = journey("rule-books-entrant", viewport=PHONE)
    page = log_in(phone.page, phone.base_url, priya.email, next_path=event.get_absolute_url())
    expect(page.locator("#rule-book")).to_contain_text("Scrabble Association Tournament Rules, version 2")
    expect(page.locator("#amendments")).to_be_visible()
    phone.shot("the event names the version and its amendments")
    page.goto(phone.base_url + f"/events/{event.slug}/enter/")
    label = page.locator("label[for=id_accept_rules]")
    expect(label).to_contain_text("I agree to Scrabble Association Tournament Rules, version 2 of")
    expect(label.get_by_role("link")).to_have_attribute("href", version.get_absolute_url())
    page.get_by_label("Open: Standard").check()
    page.check("#id_accept_rules")
    if AXE.exists():
        assert violations(page) == []
    phone.shot("the entrant agrees to version 2")
    page.get_by_role("button", name="Enter").click()
    page.wait_for_url(re.compile(r"/events/my-entries/$"))
    assert Entry.objects.get(player=priya).rules_version == version

    # The organiser sees the version each entrant agreed to.
    desk = journey("rule-books-organiser")
    page = log_in(desk.page, desk.base_url, organiser.email, next_path=f"/events/{event.slug}/manage/")
    expect(page.locator(".rules-agreed")).to_have_text("Agreed to Scrabble Association Tournament Rules, version 2")
    desk.shot("the organiser sees the version agreed to")
