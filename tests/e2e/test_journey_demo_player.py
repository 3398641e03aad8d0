"""A newcomer tries the demo: logs in on a phone as the demo player (README's log-in) and finds real entries on My
entries, one paid with its receipt and one still owing, and pays the one owing by PayNow."""

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from players.demo import DEMO_PASSWORD

from .conftest import PHONE, log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_demo_player_finds_a_paid_entry_and_one_to_pay(journey, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("load_demo", stdout=open("/dev/null", "w"))
    j = journey("demo-player", viewport=PHONE)
    page = log_in(j.page, j.base_url, "player@example.org", DEMO_PASSWORD)
    page.get_by_role("link", name="My entries").first.click()
    page.wait_for_url(re.compile(r"/events/my-entries/$"))

    paid = page.locator(".card", has_text="Jurong Green Open")
    expect(paid.get_by_text("Confirmed", exact=True)).to_be_visible()
    expect(paid.get_by_text("Paid S$25.00.")).to_be_visible()
    owing = page.locator(".card", has_text="Toa Payoh Club Night")
    expect(owing.get_by_text("Pending payment", exact=True)).to_be_visible()
    expect(owing.get_by_text(re.compile(r"S\$5\.00 due, reference "))).to_be_visible()
    j.shot("my entries")

    owing.get_by_role("link", name="Pay now").click()
    expect(page.locator("#pay-balance")).to_have_text("S$5.00", use_inner_text=True)
    expect(page.locator(".paynow-qr svg")).to_be_visible()
    j.shot("pay now")
