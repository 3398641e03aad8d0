"""A teacher enters students who are already members: one the site knows for sure (his name, written in the other
order, and his date of birth) is entered under his record; the records one may be are offered to pick from on the
page (on a phone), the teacher picks hers, and no student gets a second member number."""

import re
from datetime import date

import pytest
from playwright.sync_api import expect

from events.models import Entry
from players.models import Player
from tests.e2e.conftest import PHONE
from tests.factories import ClubFactory, PlayerFactory

from .test_journey_group_entry import open_group_form, seed_event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_teacher_enters_students_already_on_record_and_the_site_offers_their_records(journey, member):
    organiser, _ = member("Oliver Organiser", organiser=True)
    event = seed_event(organiser)
    year = event.starts_on.year
    member("Mrs Lim", email="lim@example.org", player=False)
    # Entered by another school's teacher last year: records without accounts.
    kow = PlayerFactory(full_name="Tan Ah Kow", family_name="Tan", date_of_birth=date(year - 10, 3, 25), email="")
    mei = PlayerFactory(
        full_name="Lim Mei Ling", family_name="Lim", date_of_birth=None, email="", school="Raffles Girls' Primary"
    )
    adult = PlayerFactory(
        full_name="Mei Ling Lim",
        date_of_birth=date(year - 40, 6, 2),
        club=ClubFactory(name="Toa Payoh Scrabble Club"),
        email="meiling@example.org",
    )
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
    # Two records of her name: hers, without a date of birth (as last year's school entered her), and a grown-up's of
    # a club, whose date of birth, email and phone the teacher is never shown.
    choices = page.locator("#records-to-choose")
    expect(choices).to_contain_text("A student who may already be a member")
    expect(choices).to_contain_text("Line 3: Lim Mei Ling")
    expect(choices.get_by_label(f"Lim Mei Ling, member {mei.member_number}, Raffles Girls' Primary")).to_be_visible()
    namesake = f"Mei Ling Lim, member {adult.member_number}, Toa Payoh Scrabble Club, born {year - 40}"
    expect(choices.get_by_label(namesake)).to_be_visible()
    expect(choices.get_by_label("A different person: a new record")).to_be_visible()
    expect(page.locator("body")).not_to_contain_text(f"{adult.date_of_birth:%d/%m/%Y}")
    expect(page.locator("body")).not_to_contain_text("meiling@example.org")
    expect(page.locator("#group-error")).to_have_count(0)
    j.shot("a student who may be a member: her records to pick from")
    assert not Entry.objects.exists()

    choices.get_by_label(f"Lim Mei Ling, member {mei.member_number}, Raffles Girls' Primary").check()
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
