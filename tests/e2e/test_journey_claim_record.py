"""A newcomer signs up, then claims the member record the association already has of them."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from clubsite.kit.mail import subject as mail_subject
from tests.e2e.conftest import PASSWORD, log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def sign_up_and_verify(j, email: str, full_name: str):
    page = j.goto("/accounts/signup/")
    page.fill("input[name=email]", email)
    page.fill("input[name=full_name]", full_name)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.get_by_role("button", name=re.compile("Sign Up", re.I)).click()
    page.wait_for_url(re.compile(r"/accounts/confirm-email/"))
    confirm = next(m for m in mail.outbox if "Confirm" in m.subject and email in m.to)
    j.goto(re.search(r"https?://[^/\s]+(/\S+)", confirm.body).group(1))
    page.wait_for_url(re.compile(r"/members/me/"))
    return page


def existing_record(full_name: str, email: str):
    from players.models import Player
    from players.services import allocate_member_number
    from tests.factories import MembershipFactory

    record = Player.objects.create(full_name=full_name, email=email, member_number=allocate_member_number())
    MembershipFactory(player=record)
    return record


def test_newcomer_claims_an_existing_record_and_staff_approve_it(journey, member):
    from players.models import Player

    record = existing_record("Aisha Rahman", "aisha.old@example.org")  # an address she no longer uses
    staff, _ = member("Sam Staff", email="staff@example.org", player=False)
    staff.is_staff = staff.is_superuser = True
    staff.save()

    j = journey("claim-record-staff-approve", viewport={"width": 390, "height": 844})
    page = sign_up_and_verify(j, "aisha@example.org", "Aisha Rahman")
    new_number = Player.objects.get(user__email="aisha@example.org").member_number
    expect(page.get_by_text(f"Member number {new_number}")).to_be_visible()
    j.shot("my account with a new member number")

    page.fill("#claim-form input[name=member_number]", str(record.member_number))
    page.fill("#claim-form textarea[name=message]", "I played in the 2019 nationals under this record.")
    page.locator("#claim-form").scroll_into_view_if_needed()
    j.shot("claim form filled in")
    page.get_by_role("button", name="Ask to claim this record").click()
    page.get_by_text("Your claim is waiting for association staff to approve it.").wait_for()
    expect(page.get_by_text(f"Aisha Rahman ({record.member_number}): Waiting for approval")).to_be_visible()
    expect(page.get_by_text("This field is required")).not_to_be_visible()
    j.shot("claim waiting for staff")

    staff_page = j.new_page(viewport={"width": 1280, "height": 900})
    log_in(staff_page, j.base_url, "staff@example.org", next_path="/admin/players/playerclaim/")
    staff_page.wait_for_url(re.compile(r"/admin/players/playerclaim/"))
    row = staff_page.locator("tr", has_text="aisha@example.org")
    expect(row.get_by_text(str(record.member_number))).to_be_visible()
    expect(row.get_by_text("I played in the 2019 nationals")).to_be_visible()
    row.locator("input[name=_selected_action]").check()
    staff_page.select_option("select[name=action]", "approve")
    j.shot("staff select the claim to approve", page=staff_page)
    staff_page.locator("button[name=index]").click()
    staff_page.get_by_text("Approved 1 claim; the members are told by email.").wait_for()
    expect(staff_page.locator("tr", has_text="aisha@example.org").get_by_text("Approved")).to_be_visible()
    j.shot("staff approved the claim", page=staff_page)
    staff_page.context.close()

    approved = next(m for m in mail.outbox if m.subject == mail_subject("Your member record is linked"))
    assert approved.to == ["aisha@example.org"]
    page.reload()
    expect(page.get_by_text(f"Member number {record.member_number}")).to_be_visible()
    expect(page.get_by_text(f"Aisha Rahman ({record.member_number}): Approved")).to_be_visible()
    j.shot("my account now shows the claimed record")
    record.refresh_from_db()
    assert record.user.email == "aisha@example.org"


def test_signing_up_with_the_address_on_a_record_links_that_record_once_the_address_is_confirmed(journey):
    """The one matching rule: the same name and address as a record without an account is that person, so sign-up
    makes no new member; confirming the address (the proof the claim link asked for) links the record."""
    from players.models import Player

    record = existing_record("Ben Tan", "ben@example.org")  # the same address he signs up with
    before = Player.objects.count()

    j = journey("claim-record-email-link", viewport={"width": 390, "height": 844})
    page = sign_up_and_verify(j, "ben@example.org", "Ben Tan")
    expect(page.get_by_text(f"Member number {record.member_number}")).to_be_visible()
    expect(page.get_by_text(f"Ben Tan ({record.member_number}): Approved")).to_be_visible()
    j.shot("record linked once the address is confirmed")
    record.refresh_from_db()
    assert record.user.email == "ben@example.org" and Player.objects.count() == before
