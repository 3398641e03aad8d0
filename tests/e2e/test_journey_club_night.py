"""A club night in a browser: the club director plans weekly nights (the first tonight) with one week off, a member
on a phone says they are coming with a guest, the director checks in two members and the guest she said she brings at
the door on a phone, the guest pays the session fee by PayNow (the QR code of its reference) and the treasurer sees
the night's takings."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubs import services
from clubs.models import Attendance, ClubNight, NightStatus, OfficerRole
from money.models import Method, Payment, PaymentSettings
from tests.e2e.conftest import PHONE, log_in
from tests.e2e.test_accessibility import AXE, violations
from tests.factories import AssociationFactory, ClubFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def no_violations(page) -> None:
    if AXE.exists():
        assert violations(page) == []


def test_a_club_night_from_planning_to_takings(journey, member):
    association = AssociationFactory()
    PaymentSettings.objects.create(
        association=association, receipt_prefix="SA", paynow_proxy="S88SS0001A", paynow_name="Scrabble Association"
    )
    club = ClubFactory(association=association, name="Tampines Tile Club", slug="tampines")
    staff = UserFactory(is_staff=True)
    director, dora = member("Dora Director", club=club)
    treasurer, toby = member("Toby Treasurer", club=club)
    mei_user, mei = member("Mei Lim", club=club)
    _, ken = member("Ken Ong", club=club)
    services.appoint_officer(staff, club, dora, OfficerRole.DIRECTOR)
    services.appoint_officer(staff, club, toby, OfficerRole.TREASURER)
    today = timezone.localdate()
    tuesday = today  # the first night is today: the door opens only on the night's day

    # The club director plans weekly nights from tonight for six weeks, the second one off.
    j = journey("club-night", viewport=PHONE)
    page = log_in(j.page, j.base_url, director.email, next_path="/clubs/tampines/")
    page.get_by_role("link", name="Plan club nights").click()
    page.fill("#id_title", "Tuesday club night")
    page.get_by_label("Weekly").check()
    page.fill("#id_first_on", tuesday.isoformat())
    page.fill("#id_last_on", (tuesday + timedelta(weeks=5)).isoformat())
    page.fill("#id_off", f"{(tuesday + timedelta(weeks=1)).isoformat()} Public holiday")
    page.fill("#id_starts_at", "19:30")
    page.fill("#id_ends_at", "22:30")
    page.fill("#id_venue", "Tampines Hub, Room 3")
    page.fill("#id_member_fee", "5")
    page.fill("#id_guest_fee", "8")
    j.shot("plan weekly nights")
    page.get_by_role("button", name="Plan the nights").click()
    expect(page.get_by_text("The nights are planned.")).to_be_visible()
    series = page.locator(".card", has_text="Tuesday club night: weekly")
    expect(series.get_by_text(f"Off: {tuesday + timedelta(weeks=1):%-d %b %Y} (Public holiday)")).to_be_visible()
    j.shot("nights planned")
    no_violations(page)
    assert list(ClubNight.objects.filter(status=NightStatus.SCHEDULED).order_by("on").values_list("on", flat=True)) == [
        tuesday + timedelta(weeks=n) for n in (0, 2, 3, 4, 5)
    ]
    night = ClubNight.objects.order_by("on").first()
    assert night.status == NightStatus.SCHEDULED and night.guest_fee == Decimal("8.00")

    # A member on a phone says they are coming, bringing a guest.
    phone = j.new_page(viewport=PHONE)
    log_in(phone, j.base_url, mei_user.email, next_path="/clubs/tampines/")
    expect(phone.get_by_role("heading", name="Coming club nights")).to_be_visible()
    phone.get_by_role("link", name=f"{tuesday:%a %-d %b %Y}").click()
    phone.get_by_label("Guests I bring").select_option("1")
    j.shot("member says coming", phone)
    phone.get_by_role("button", name="I'm coming").click()
    expect(phone.get_by_text("You are coming: see you there.")).to_be_visible()
    expect(phone.locator("#my-answer")).to_contain_text("Coming, with 1 guest")
    j.shot("member is coming", phone)
    no_violations(phone)

    # At the door on a phone: the member who said so, another member, and the guest.
    page.goto(j.base_url + night.get_absolute_url())
    page.get_by_role("link", name="At the door: check people in").click()
    expect(page.locator("#coming-list")).to_contain_text("Mei Lim + 1 guest")
    j.shot("door")
    no_violations(page)
    page.get_by_role("button", name="Check in Mei Lim").click()
    expect(page.get_by_text("Mei Lim is checked in.")).to_be_visible()
    page.get_by_role("button", name="Check in Ken Ong").click()
    expect(page.get_by_text("Ken Ong is checked in.")).to_be_visible()
    # The guest Mei said she brings waits at the door as hers, after she is checked in.
    j.shot("expected guest waits")
    page.get_by_label("Guest of Mei Lim: full name").fill("Gina Guest")
    page.get_by_role("button", name="Check in the guest of Mei Lim").click()
    expect(page.get_by_text("Gina Guest is checked in as a guest.")).to_be_visible()
    gina = page.locator("#checked-in li", has_text="Gina Guest")
    expect(gina.get_by_text("Guest of Mei Lim")).to_be_visible()
    expect(gina.get_by_text("S$8.00 to pay")).to_be_visible()
    j.shot("three checked in")

    # The guest scans the PayNow code of their fee's reference, then the director records it.
    guest = Attendance.objects.get(night=night, is_guest=True)
    reference = services.session_reference(guest)
    gina.get_by_role("link", name="PayNow QR").click()
    page.wait_for_url(re.compile(rf"/money/pay/{reference}/$"))
    expect(page.locator("#pay-balance")).to_have_text("S$8.00", use_inner_text=True)
    expect(page.locator(".paynow-qr")).to_have_count(1)
    j.shot("paynow qr for the guest")
    page.go_back()
    page.get_by_role("button", name="Gina Guest paid PayNow").click()
    expect(page.get_by_text(re.compile(r"Gina Guest paid S\$8\.00: receipt "))).to_be_visible()
    page.get_by_role("button", name="Mei Lim paid In person").click()
    expect(page.locator("#checked-in li", has_text="Gina Guest").get_by_text("Paid S$8.00")).to_be_visible()
    j.shot("fees paid")
    payment = Payment.objects.get(reference=reference)
    assert payment.method == Method.PAYNOW and payment.amount == Decimal("8.00") and payment.kind == "C"
    assert guest.player.full_name == "Gina Guest" and guest.player.club_id is None
    page.goto(j.base_url + night.get_absolute_url())
    expect(page.locator("#night-counts")).to_have_text("2 members and 1 guest said they are coming")

    # The treasurer sees the night's takings.
    office = j.new_page(viewport=PHONE)
    log_in(office, j.base_url, treasurer.email, next_path="/clubs/tampines/")
    office.get_by_role("link", name="Takings per night").click()
    row = office.locator("#takings tbody tr", has_text=f"{tuesday:%a %-d %b %Y}")
    expect(row.locator("td").nth(1)).to_have_text("3")
    expect(row.locator("td").nth(2)).to_have_text("1")
    expect(row.locator("td").nth(3)).to_have_text("S$13.00")
    expect(row.locator("td").nth(4)).to_have_text("In person S$5.00; PayNow S$8.00")
    j.shot("treasurer takings", office)
    no_violations(office)
