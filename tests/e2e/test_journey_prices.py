"""Prices in a browser: an organiser adds an early-bird fee to a category and a discount code for the event; an
entrant before the early-bird date, with the code, is asked for the right amount and sees the discount on the entry
page and on the receipt once the organiser records the payment; the treasurer's report lists the discount."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from events.models import DiscountCode, Entry
from money.models import Payment, PaymentSettings
from tests.e2e.conftest import PHONE, log_in
from tests.events.factories import CategoryFactory, EventFactory, FeeFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_early_bird_fee_and_a_code_are_charged_and_shown_on_the_receipt(journey, member):
    organiser, _ = member("Oliver Organiser", organiser=True, player=False)
    entrant, _ = member("Esther Entrant")
    staff, _ = member("Teresa Treasurer", player=False)
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    event = EventFactory(title="Spring Open", slug="spring-open", owner=organiser, payment_methods=["in_person"])
    category = CategoryFactory(event=event, name="Open", quota=30)
    FeeFactory(category=category, name="Standard", amount=Decimal("30.00"), note="")
    PaymentSettings.objects.create(association=event.association, receipt_prefix="SA", address="1 Club Road")
    last_day = timezone.localdate() + timedelta(days=7)

    # The organiser adds an early-bird variant of the standard fee.
    j = journey("prices")
    page = log_in(j.page, j.base_url, organiser.email, next_path=f"/events/{event.slug}/categories/{category.pk}/")
    page.fill("input[name=fees-1-name]", "Standard")
    page.fill("input[name=fees-1-amount]", "24.00")
    page.fill("input[name=fees-1-until]", last_day.isoformat())
    j.shot("early-bird fee")
    page.get_by_role("button", name=re.compile("Save")).click()
    page.wait_for_url(re.compile(rf"/events/{event.slug}/manage/$"))
    assert category.fees.filter(amount=Decimal("24.00"), until=last_day).exists()

    # And a code: 25% off, for 10 entries.
    page.get_by_role("link", name="Discount codes").click()
    page.wait_for_url(re.compile(r"/manage/discount-codes/$"))
    page.fill("#id_code", "spring-friends")
    page.select_option("#id_kind", "percent")
    page.fill("#id_value", "25")
    page.fill("#id_max_uses", "10")
    page.get_by_role("button", name="Add the code").click()
    expect(page.get_by_text("Discount code SPRING-FRIENDS saved.")).to_be_visible()
    codes = page.locator("#discount-codes")
    expect(codes.get_by_text("25% off")).to_be_visible()
    expect(codes.get_by_text("0 of 10")).to_be_visible()
    j.shot("discount codes")
    assert DiscountCode.objects.get(event=event).code == "SPRING-FRIENDS"

    # The entrant, on a phone, before the early-bird date, with the code.
    phone = j.new_page(viewport=PHONE)
    log_in(phone, j.base_url, entrant.email, next_path=event.get_absolute_url())
    expect(phone.get_by_text(f"until {last_day.day} {last_day:%b %Y}").first).to_be_visible()
    phone.get_by_role("link", name="Enter myself").click()
    option = phone.get_by_label(
        re.compile(r"Open: Standard S\$30\.00, or S\$24\.00 until .*lowest that applies to you")
    )
    option.check()
    phone.fill("#id_discount_code", "Spring-Friends")
    j.shot("entry form with a code", phone)
    phone.get_by_role("button", name="Enter", exact=True).click()
    phone.wait_for_url(re.compile(r"/events/my-entries/$"))
    entry = Entry.objects.get(player__user=entrant)
    assert (entry.amount_due, entry.discount) == (Decimal("18.00"), Decimal("6.00"))
    expect(phone.get_by_text(re.compile(r"Pay S\$18\.00 with the reference"))).to_be_visible()
    expect(phone.locator(".entry-price")).to_have_text(
        "Standard S$24.00, less S$6.00 with the code SPRING-FRIENDS: S$18.00.", use_inner_text=True
    )
    j.shot("entry with the discount", phone)

    # The organiser records the payment at the desk; the receipt shows the fee and the code.
    page.goto(j.base_url + f"/events/entries/{entry.pk}/payment/")
    expect(page.locator("#discount")).to_have_text("Discount code SPRING-FRIENDS: less S$6.00.", use_inner_text=True)
    page.fill("#id_amount", "18.00")
    page.get_by_role("button", name=re.compile("Record")).click()
    page.wait_for_url(re.compile(rf"/events/{event.slug}/manage/$"))
    payment = Payment.objects.get()
    phone.goto(j.base_url + "/events/my-entries/")
    phone.get_by_role("link", name=payment.number).click()
    phone.wait_for_url(re.compile(rf"/money/receipts/{payment.number}/$"))
    expect(
        phone.get_by_text(re.compile(r"early-bird fee, discount code SPRING-FRIENDS S\$6\.00 off")).first
    ).to_be_visible()
    j.shot("receipt", phone)

    # The treasurer's report lists the discount given.
    office = j.new_page()
    log_in(office, j.base_url, staff.email, next_path="/money/treasurer/")
    reductions = office.locator("#reductions")
    expect(reductions.get_by_role("link", name="Spring Open")).to_be_visible()
    expect(reductions.get_by_text("S$6.00")).to_be_visible()
    j.shot("treasurer", office)
