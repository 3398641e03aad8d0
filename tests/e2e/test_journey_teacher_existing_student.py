"""A teacher enters students who are already members: one the site knows for sure (his name, written in the other
order, and his date of birth) is entered under his record; one it is not sure of is offered with her member number,
the teacher writes it in, and no student gets a second member number."""

import re
from datetime import date

import pytest
from playwright.sync_api import expect

from events.models import Entry
from players.models import Player
from tests.e2e.conftest import PHONE
from tests.factories import PlayerFactory

from .test_journey_group_entry import open_group_form, seed_event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_teacher_enters_students_already_on_record_and_the_site_offers_their_records(journey, member):
    organiser, _ = member("Oliver Organiser", organiser=True)
    event = seed_event(organiser)
    year = event.starts_on.year
    member("Mrs Lim", email="lim@example.org", player=False)
    # Entered by another school's teacher last year: records without accounts.
    kow = PlayerFactory(full_name="Tan Ah Kow", family_name="Tan", date_of_birth=date(year - 10, 3, 25), email="")
    mei = PlayerFactory(full_name="Lim Mei Ling", family_name="Lim", date_of_birth=None, email="")
    records = Player.objects.count()

    j = journey("teacher-existing-students", viewport=PHONE)
    page = open_group_form(j, "lim@example.org", event)
    rows = [
        "Name\tDate of birth\tLevel\tMember no.\tPassion card",
        f"Ah Kow Tan\t25/03/{year - 10}\tP5\t\t",
        f"Lim Mei Ling\t14/07/{year - 11}\tP6\t\t",
    ]
    page.fill("#id_class_list", "\n".join(rows))
    page.check("#id_accept_rules")
    page.get_by_role("button", name="Enter these students").click()
    refusal = page.locator("#group-error")
    expect(refusal).to_contain_text(f"may already be a member: member {mei.member_number}")
    expect(refusal).to_contain_text("write the member number in the row's “Member no.”")
    j.shot("a student who may be a member is offered with her number")
    assert not Entry.objects.exists()

    rows[2] = f"Lim Mei Ling\t14/07/{year - 11}\tP6\t{mei.member_number}\t"
    page.fill("#id_class_list", "\n".join(rows))
    page.check("#id_accept_rules")
    page.get_by_role("button", name="Enter these students").click()
    page.wait_for_url(re.compile(r"/events/groups/\d+/$"))
    expect(page.get_by_text("2 students entered.")).to_be_visible()
    # The group page shows each student's member number: the records they already had.
    expect(page.locator("body")).to_contain_text(str(kow.member_number))
    expect(page.locator("body")).to_contain_text(str(mei.member_number))
    j.shot("both entered under their own records")
    assert set(Entry.objects.values_list("player_id", flat=True)) == {kow.pk, mei.pk}
    assert Player.objects.count() == records  # no second member number for anyone
