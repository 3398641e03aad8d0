"""On a phone (390x844): a parent sees what the group owes without scrolling sideways, each student's status and
money under the name. An organiser's questions table wraps a label that is one long unbroken string instead of
pushing its columns off the screen."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, log_in
from tests.e2e.test_journey_group_entry import open_group_form, seed_event

DESK = {"width": 1280, "height": 900}

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def on_screen(page, selector: str, width: int = PHONE["width"]) -> bool:
    """Whether the element lies wholly inside the screen's width (nothing scrolled sideways)."""
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width


def test_a_parent_sees_the_groups_money_on_a_phone(journey, member):
    organiser, _ = member("Oliver Organiser", organiser=True)
    event = seed_event(organiser)
    year = event.starts_on.year
    member("Mrs Tan", email="tan@example.org", player=False)
    j = journey("group-money-on-a-phone", viewport=PHONE)
    page = open_group_form(j, "tan@example.org", event)
    page.fill("#id_class_list", f"Alice Ong\t04/05/{year - 9}\tP4")
    page.check("#id_accept_rules")
    page.get_by_role("button", name="Enter these students").click()
    page.wait_for_url(re.compile(r"/events/groups/\d+/$"))
    summary = page.locator("#group-summary")
    expect(summary).to_contain_text("Balance", use_inner_text=True)
    expect(summary).to_contain_text("S$3.00", use_inner_text=True)
    assert on_screen(page, "#group-summary")
    student = page.locator("tbody tr").first
    expect(student).to_contain_text("Due S$3.00", use_inner_text=True)
    expect(student.get_by_text("Pending payment").first).to_be_visible()
    assert on_screen(page, "tbody tr .d-sm-none .badge")
    j.shot("the group's money on a phone")


def test_a_long_unbroken_question_label_wraps_in_the_questions_table(journey, member):
    organiser, _ = member("Oliver Organiser", organiser=True)
    event = seed_event(organiser)
    j = journey("long-question-label", viewport=DESK)
    page = log_in(j.page, j.base_url, organiser.email, next_path=f"/events/{event.slug}/questions/")
    page.fill("#id_label", "W" * 190)
    page.select_option("#id_kind", "short")
    page.get_by_role("button", name="Save the question").click()
    expect(page.get_by_text("Question added.")).to_be_visible()
    scrolled = page.evaluate("(e => e.scrollWidth - e.clientWidth)(document.querySelector('.table-responsive'))")
    assert scrolled <= 0, f"the questions table scrolls {scrolled}px sideways"
    assert on_screen(page, "tbody .btn", DESK["width"])
    j.shot("the long question wraps")
    # On a phone the table does not scroll either: what it asks and of whom is under the question, its buttons in
    # sight.
    page.set_viewport_size(PHONE)
    expect(page.locator("tbody tr").first).to_contain_text("Short text · Every entrant · optional", use_inner_text=True)
    scrolled = page.evaluate("(e => e.scrollWidth - e.clientWidth)(document.querySelector('.table-responsive'))")
    assert scrolled <= 0, f"the questions table scrolls {scrolled}px sideways on a phone"
    assert on_screen(page, "tbody .btn")
    j.shot("the questions on a phone")
