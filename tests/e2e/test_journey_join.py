"""A visitor joins the association: signs up on the way, chooses an adult membership, pays its fee by PayNow, the
treasurer confirms the payment from the bank statement, and the new member sees their member number and
membership on their account page."""

import re
from decimal import Decimal

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from money.models import Method, Payment, PaymentSettings
from players.models import MembershipOffer, Player, RenewalRequest, year_end
from players.services import renewal_reference
from tests.e2e.conftest import log_in
from tests.e2e.test_journey_money import DESKTOP, line_row, paynow_fields, treasurer, upload_statement
from tests.factories import AssociationFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_visitor_signs_up_joins_as_an_adult_pays_by_paynow_and_sees_their_member_number(journey, member):
    association = AssociationFactory()
    MembershipOffer.objects.create(association=association, type="ordinary", fee=Decimal("20.00"), description="adults")
    MembershipOffer.objects.create(
        association=association,
        type="student",
        fee=Decimal("10.00"),
        description="students",
        proof_label="Student card number",
    )
    PaymentSettings.objects.create(
        association=association,
        receipt_prefix="SA",
        address="1 Demo Road, Singapore 123456",
        paynow_proxy="S88SS0001A",
        paynow_name="Scrabble Association",
    )
    staff = treasurer(member)
    today = timezone.localdate()

    # The visitor finds Join, sees the types and fees, and signs up on the way.
    j = journey("join-the-association")
    page = j.goto("/")
    page.get_by_role("link", name="Join", exact=True).click()
    page.wait_for_url(re.compile(r"/members/join/$"))
    expect(page.locator("#offers").get_by_text("Ordinary (adults): S$20.00 a year")).to_be_visible()
    expect(page.locator("#offers").get_by_text("Student (students): S$10.00 a year")).to_be_visible()
    j.shot("join page for a visitor")
    page.get_by_role("link", name="Sign up to join").click()
    page.wait_for_url(re.compile(r"/accounts/signup/"))
    page.fill("input[name=email]", "wei.ling@example.org")
    page.fill("input[name=full_name]", "Goh Wei Ling")
    page.fill("input[name=family_name]", "Goh")
    page.fill("input[name=password1]", "tiles-and-racks-77")
    page.fill("input[name=password2]", "tiles-and-racks-77")
    page.get_by_role("button", name=re.compile("Sign Up", re.I)).click()
    page.wait_for_url(re.compile(r"/accounts/confirm-email/"))
    confirm = next(m for m in mail.outbox if "Confirm" in m.subject)
    j.goto(re.search(r"https?://[^/\s]+(/\S+)", confirm.body).group(1))
    # Confirmed and signed in, the visitor is back on the page they signed up from.
    page.wait_for_url(re.compile(r"/members/join/$"))
    expect(page.locator("#join-form")).to_be_visible()
    j.shot("signed up, back on join")
    page.goto(j.base_url + "/members/me/")
    expect(page.locator("#membership")).to_have_text("Not a member at present.", use_inner_text=True)
    j.shot("not a member yet")

    # The form: a student type without its card is refused beside the field; the adult type is taken.
    page.get_by_role("link", name="join the association").click()
    page.wait_for_url(re.compile(r"/members/join/$"))
    expect(page.locator("#id_full_name")).to_have_value("Goh Wei Ling")
    page.get_by_label("Student (students): S$10.00 a year; needs student card number").check()
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.get_by_text("Student membership needs proof: enter the student card number.")).to_be_visible()
    j.shot("student without proof refused")
    page.get_by_label("Ordinary (adults): S$20.00 a year").check()
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.get_by_text("Your membership is noted. Pay the amount below to complete it.")).to_be_visible()
    joined = RenewalRequest.objects.get(player__user__email="wei.ling@example.org")
    reference = renewal_reference(joined)
    player = Player.objects.get(user__email="wei.ling@example.org")
    assert joined.is_join and joined.amount == Decimal("20.00") and Player.objects.filter(user=player.user).count() == 1
    due = page.locator("#join-due")
    expect(due.get_by_role("heading", name="Waiting for your payment")).to_be_visible()
    expect(page.locator("#join-amount")).to_have_text("S$20.00", use_inner_text=True)
    expect(page.locator("#join-reference")).to_have_text(reference, use_inner_text=True)
    j.shot("join waiting for payment")

    # Pay now: the PayNow QR for S$20.00 with the join's reference.
    due.get_by_role("link", name="Pay now").click()
    page.wait_for_url(re.compile(rf"/money/pay/{reference}/$"))
    expect(page.locator("#pay-balance")).to_have_text("S$20.00", use_inner_text=True)
    paynow = page.locator("#pay-paynow")
    expect(paynow.get_by_role("heading", name="PayNow")).to_be_visible()
    fields = paynow_fields(page)
    assert fields["54"] == "20.00" and fields["53"] == "702" and fields["62"]["01"] == reference
    assert "S88SS0001A" in fields["26"].values()
    j.shot("paynow qr")

    # The treasurer reads the bank's statement: the transfer is matched to the join and recorded.
    office = j.new_page(viewport=DESKTOP)
    log_in(office, j.base_url, staff.email)
    upload_statement(office, j.base_url, "dbs.csv", [f"{today.isoformat()},20.00,PAYNOW FROM GOH WEI LING {reference}"])
    expect(line_row(office, 2).get_by_text("paid in full", exact=True)).to_be_visible()
    office.get_by_role("button", name="Confirm and record 1 payment").click()
    expect(office.get_by_text("The statement is imported: 1 payment recorded.")).to_be_visible()
    payment = Payment.objects.get()
    assert payment.method == Method.PAYNOW and payment.amount == Decimal("20.00")
    j.shot("statement confirmed", office)

    # Paid: the visitor is a member, with their member number, type and expiry on their account page.
    page.reload()
    expect(page.locator("#pay-paid").get_by_text("Paid.")).to_be_visible()
    page.goto(j.base_url + "/members/me/")
    expiry = year_end(today)
    expect(page.locator("#member-number")).to_have_text(str(player.member_number), use_inner_text=True)
    expect(page.locator("#membership")).to_have_text(
        f"Ordinary member until {expiry.day} {expiry:%B %Y}.", use_inner_text=True
    )
    expect(page.get_by_role("link", name="renew my membership")).to_be_visible()
    j.shot("a member")
