"""A newcomer joins the waiting list of a full event, a place frees, the offer comes by email and is taken."""

import re
from decimal import Decimal

import pytest
from django.core import mail
from playwright.sync_api import expect

from events.models import Entry, EntryStatus
from tests.e2e.conftest import PASSWORD, log_in
from tests.events.factories import CategoryFactory, EntryFactory, EventFactory, FeeFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def mails_to(address: str, subject_start: str):
    return [
        m for m in mail.outbox if address in m.to and m.subject.startswith(f"[Scrabble Association] {subject_start}")
    ]


def test_newcomer_waitlisted_then_offered_a_freed_place_and_takes_it(journey, member):
    # Preconditions: an open event whose only category (two places) is already full.
    event = EventFactory(title="Jurong Green Open", slug="jurong-green-open")
    category = CategoryFactory(event=event, name="Open", quota=2)
    fee = FeeFactory(category=category, name="Standard", amount=Decimal("3.00"), note="incl. GST")
    _, wendy = member("Wendy Withdrawer")
    EntryFactory(category=category, player=wendy, fee=fee, amount_due=fee.amount, amount_paid=fee.amount)
    EntryFactory(category=category, fee=fee, amount_due=fee.amount, amount_paid=fee.amount)

    j = journey("waitlist")
    page = j.goto("/")
    page.get_by_role("link", name="Sign up").click()
    page.fill("input[name=email]", "nora@example.org")
    page.fill("input[name=full_name]", "Nora Newcomer")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    j.shot("sign-up form")
    page.get_by_role("button", name=re.compile("Sign Up", re.I)).click()
    page.wait_for_url(re.compile(r"/accounts/confirm-email/"))
    j.shot("asked to verify the email")

    confirm = next(m for m in mail.outbox if "Confirm" in m.subject)
    j.goto(re.search(r"https?://[^/\s]+(/\S+)", confirm.body).group(1))
    page.wait_for_url(re.compile(r"/members/me/"))
    j.shot("verified and logged in")

    page.get_by_role("link", name="Events", exact=True).click()
    page.get_by_role("link", name="Jurong Green Open").click()
    expect(page.get_by_text("0 of 2 places left")).to_be_visible()
    expect(page.get_by_text("Full: new entries join the waiting list.")).to_be_visible()
    j.shot("the event is full")

    page.get_by_role("link", name="Enter myself").click()
    page.get_by_label("Open: Standard S$3.00 (incl. GST)").check()
    page.fill("input[name=phone]", "9123 4567")
    j.shot("entry form")
    page.get_by_role("button", name="Enter", exact=True).click()
    page.wait_for_url(re.compile(r"/events/my-entries/$"))
    expect(page.get_by_text("Open is full: you are number 1 on the waiting list.")).to_be_visible()
    card = page.locator(".card", has_text="Jurong Green Open")
    expect(card.get_by_text("On the waiting list", exact=True)).to_be_visible()
    expect(card.get_by_text("Number 1 on the waiting list.")).to_be_visible()
    j.shot("waitlisted with position")
    assert mails_to("nora@example.org", "Entry received")

    # Wendy withdraws on her phone, which frees a place.
    phone = j.new_page()
    log_in(phone, j.base_url, wendy.email)
    phone.get_by_role("button", name="Menu").click()
    phone.get_by_role("link", name="My account").click()
    phone.get_by_role("link", name="All my entries").click()
    j.shot("another entrant's entries on a phone", phone)
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.locator(".card", has_text="Jurong Green Open").get_by_role("button", name="Withdraw").click()
    expect(phone.get_by_text("The entry is withdrawn.")).to_be_visible()
    expect(phone.get_by_text("Withdrawn", exact=True)).to_be_visible()
    j.shot("the other entrant has withdrawn", phone)

    offer = mails_to("nora@example.org", "A place is free for you")
    assert len(offer) == 1, [m.subject for m in mail.outbox]
    assert "you are next on the waiting list" in offer[0].body
    j.goto(re.search(r"(/events/my-entries/)", offer[0].body).group(1))
    card = page.locator(".card", has_text="Jurong Green Open")
    expect(card.get_by_text("Place offered", exact=True)).to_be_visible()
    expect(card.get_by_text("A place is offered to you until")).to_be_visible()
    j.shot("the offer on my entries")

    card.get_by_role("button", name="Accept the place").click()
    expect(page.get_by_text("You have taken the place.")).to_be_visible()
    card = page.locator(".card", has_text="Jurong Green Open")
    expect(card.get_by_text("Pending payment", exact=True)).to_be_visible()
    expect(card.get_by_text(re.compile(r"S\$3\.00 due by"))).to_be_visible()
    j.shot("place taken, payment due")

    held = mails_to("nora@example.org", "Your place is held")
    assert held and "Please pay SGD 3.00" in held[0].body
    entry = Entry.objects.get(event=event, player__full_name="Nora Newcomer")
    assert entry.status == EntryStatus.PENDING_PAYMENT
    assert Entry.objects.get(event=event, player=wendy).status == EntryStatus.WITHDRAWN

    j.goto(event.get_absolute_url())
    expect(page.get_by_text("0 of 2 places left")).to_be_visible()
    expect(page.get_by_role("cell", name="Nora Newcomer")).to_be_visible()
    j.shot("on the entrant list")
