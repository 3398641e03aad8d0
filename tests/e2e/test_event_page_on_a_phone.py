"""A student on a phone opens the seed 004 championship: the list gives its fee and closing date, and the event page
shows the date, the closing date, the fees, the places and the Enter button on the first screen, before the long
announcement (issue 23, defect 22)."""

from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from events.models import EventKind, Prize
from tests.e2e.conftest import PHONE, PRIMARY, SECONDARY, VOUCHERS, log_in
from tests.events.factories import CategoryFactory, EventFactory, FeeFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RULES = "\n\n".join(
    f"{n}. **Rule {n}:** each player keeps score for both players and checks the plays." for n in range(1, 14)
)


def seed_004(owner):
    event = EventFactory(
        title="Jurong Green Scrabble Championship",
        slug="jurong-green-2026",
        kind=EventKind.STUDENTS,
        owner=owner,
        max_entrants=80,
        description=RULES,
    )
    for position, (name, level) in enumerate(((SECONDARY, "secondary"), (PRIMARY, "primary"))):
        category = CategoryFactory(event=event, name=name, school_level=level, quota=40, position=position)
        FeeFactory(category=category, name="Standard", amount=Decimal("3.00"), note="incl. GST")
        FeeFactory(category=category, name="Passion Card holder", amount=Decimal("2.00"), is_concession=True)
        for rank, amount in enumerate(VOUCHERS[name], start=1):
            Prize.objects.create(
                category=category, rank_from=rank, rank_to=rank, description=f"Voucher S${amount} + trophy"
            )
    return event


def test_a_student_on_a_phone_sees_the_fee_closing_date_and_enter_button_first(journey, member):
    organiser, _ = member("Oliver Organiser", organiser=True)
    event = seed_004(organiser)
    member("Priya Student", email="priya@example.org")
    closes = timezone.localtime(event.registration_closes_at, event.zone)

    j = journey("event-page-on-a-phone", viewport=PHONE)
    page = log_in(j.page, j.base_url, "priya@example.org", next_path="/events/")
    listed = page.locator(".list-group-item", has_text="Jurong Green Scrabble Championship")
    expect(listed).to_contain_text("Fees S$2.00–S$3.00")
    expect(listed).to_contain_text(f"Closing date {closes.day} {closes:%b %Y, %H:%M}")
    j.shot("the list with fee and closing date")

    listed.click()
    expect(page.get_by_role("heading", name="Jurong Green Scrabble Championship")).to_be_visible()
    box = page.locator("#enter")
    for shown in (
        box.get_by_text(f"{event.starts_on:%a} {event.starts_on.day} {event.starts_on:%b %Y}"),
        box.get_by_text(f"Closing date: {closes.day} {closes:%B %Y, %H:%M}"),
        box.get_by_text("80 places left."),
        box.get_by_role("link", name="Enter students (teacher, parent or guardian)"),
    ):
        expect(shown).to_be_in_viewport()
    expect(box).to_contain_text(f"{SECONDARY}: S$2.00 Passion Card holder · S$3.00 Standard", use_inner_text=True)
    expect(page.get_by_text("Rule 13:")).not_to_be_in_viewport()
    page.screenshot(path=str(j.folder / "first-screen.png"))
    j.shot("the whole event page")
