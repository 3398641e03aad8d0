"""A secondary-school student who signed up on a phone (sign-up asks no school level) opens the students'
championship: the page says the categories ask for her school level and offers to give it; the profile asks it
first, and saving brings her back to the entry, which now offers her category."""

import re

import pytest
from playwright.sync_api import expect

from events.models import Entry, EntryStatus
from tests.events.test_entry_doors import SECONDARY, students_event

from .conftest import PHONE, log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_student_gives_her_school_level_and_comes_back_to_enter(journey, member):
    event, secondary, _ = students_event(title="Jurong Green Students' Scrabble Championship")
    user, player = member("Alice Tan")  # as sign-up made it: not at school, no date of birth
    j = journey("student-gives-school-level", viewport=PHONE)
    page = log_in(j.page, j.base_url, user.email, next_path=event.get_absolute_url())

    give = page.get_by_role("link", name="Give your school level to enter")
    expect(give).to_be_visible()
    expect(page.get_by_text("To enter, give your school level: your profile does not give it yet.")).to_be_visible()
    j.shot("event asks for the school level")
    give.click()

    page.wait_for_url(re.compile(r"/members/me/profile/\?"))
    expect(page.locator("#profile-needed")).to_contain_text("Give your school level below, then save")
    expect(page.locator("#id_school_level")).to_be_focused()
    page.select_option("#id_school_level", "secondary")
    j.shot("profile asks the school level first")
    page.get_by_role("button", name="Save and go back").click()

    page.wait_for_url(re.compile(rf"/events/{event.slug}/enter/$"))
    expect(page.get_by_text("Your profile is saved.")).to_be_visible()
    option = page.get_by_label(re.compile(rf"{re.escape(SECONDARY)}: Standard"))
    expect(option).to_be_visible()
    j.shot("back on the entry")
    option.check()
    page.fill("input[name=phone]", "9123 4567")
    page.get_by_role("button", name="Enter", exact=True).click()
    page.wait_for_url(re.compile(r"/events/my-entries/$"))
    expect(page.locator(".card", has_text=event.title).get_by_text("Pending payment", exact=True)).to_be_visible()
    j.shot("entered")
    entry = Entry.objects.get(player=player)
    assert entry.category == secondary and entry.status == EntryStatus.PENDING_PAYMENT
