"""A member on a phone works out their rating after an event with the public calculator."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_a_player_works_out_their_new_rating_on_a_phone(journey):
    j = journey("rating-calculator", viewport=PHONE)
    page = j.goto("/ratings/calculator/")
    page.get_by_label("My rating").fill("1800")
    page.get_by_label("My opponents and results").fill("1700 W")
    j.shot("the form filled in")
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#new-rating strong")).to_have_text("1808", use_inner_text=True)
    expect(page.locator("#calculated-games")).to_contain_text("0.57903", use_inner_text=True)
    j.shot("the new rating")

    page.get_by_label("My rating").fill("")
    page.get_by_label("My opponents and results").fill("1500\n1500\n1500\n1500")
    page.get_by_label("My wins (if not given per game)").fill("2")
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#new-rating strong")).to_have_text("1499", use_inner_text=True)
    j.shot("a newcomer's first rating")
