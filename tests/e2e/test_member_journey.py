"""A newcomer signs up, verifies the email, logs in, edits the profile and finds themselves."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_sign_up_verify_edit_profile_and_find_self_in_directory(journey):
    j = journey("01-member-sign-up", viewport={"width": 390, "height": 844})
    page = j.goto("/")
    j.shot("home on a phone")
    page.get_by_role("button", name="Menu").click()
    # The menu slides open; the link is followed once it has.
    expect(page.locator("#mainnav")).to_have_class(re.compile(r"\bshow\b"))
    page.get_by_role("link", name="Sign up").click()
    page.wait_for_url(re.compile(r"/accounts/signup/"))
    page.fill("input[name=email]", "nina@example.org")
    page.fill("input[name=full_name]", "Nina Newcomer")
    page.fill("input[name=password1]", "tiles-and-racks-77")
    page.fill("input[name=password2]", "tiles-and-racks-77")
    j.shot("sign-up form")
    page.get_by_role("button", name=re.compile("Sign Up", re.I)).click()
    page.wait_for_url(re.compile(r"/accounts/confirm-email/"))
    j.shot("asked to verify the email")

    confirm = next(m for m in mail.outbox if "Confirm" in m.subject)
    link = re.search(r"https?://[^/\s]+(/\S+)", confirm.body).group(1)
    j.goto(link)
    page.wait_for_url(re.compile(r"/members/me/"))
    j.shot("verified and logged in")

    page.get_by_role("link", name="Edit profile").click()
    page.wait_for_url(re.compile(r"/members/me/profile/"))
    page.fill("input[name=display_name]", "Nina N")
    page.fill("input[name=phone]", "9123 4567")
    page.fill("input[name=id_last4]", "S1234567D")
    page.get_by_role("button", name="Save profile").click()
    expect(page.get_by_text("Only the last four characters of an ID number are kept")).to_be_visible()
    j.shot("whole id number refused")
    page.fill("input[name=id_last4]", "567D")
    page.get_by_role("button", name="Save profile").click()
    expect(page.get_by_text("Your profile is saved.")).to_be_visible()
    expect(page.locator("#profile").get_by_text("Nina Newcomer (known as Nina N)")).to_be_visible()
    j.shot("profile saved")

    j.goto("/members/?q=newcomer")
    expect(page.get_by_role("link", name="Nina Newcomer")).to_be_visible()
    j.shot("found in the directory")
