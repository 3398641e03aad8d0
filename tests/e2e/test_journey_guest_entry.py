"""A parent enters a child without an account, on a phone: the form, the emailed link (read from the outbox row the
site wrote), confirming, paying by PayNow (the treasurer confirms it from the bank statement), then changing the
child's school and withdrawing, all from the same link."""

import re
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from events.models import Entry, EntryStatus, GuestEntry
from events.services.payments import entry_reference
from money.models import Payment
from outbox.models import Message
from players.models import Player
from tests.e2e.conftest import PHONE, PRIMARY, log_in
from tests.e2e.test_accessibility import AXE, violations
from tests.e2e.test_journey_money import DESKTOP, line_row, paynow_fields, seed_event, treasurer, upload_statement

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PARENT = "mary.lim@example.org"


def emailed_link(subject: str) -> str:
    """The link in the latest email of that subject to the parent, as the outbox holds it."""
    message = Message.objects.filter(to=PARENT, subject__contains=subject).order_by("-pk").first()
    assert message is not None, f"no email '{subject}' to {PARENT}"
    return re.search(r"(/events/entries/guest/[^/\s]+/)", message.body).group(1)


def accessible(page) -> None:
    if AXE.exists():
        assert violations(page) == []


def test_a_parent_enters_a_child_without_an_account_and_manages_the_entry_from_the_emailed_link(journey, member):
    organiser, _ = member("Oliver Organiser", organiser=True, player=False)
    event = seed_event(organiser)
    event.allows_guest_entries = True
    event.save(update_fields=["allows_guest_entries"])
    born = f"{event.starts_on.year - 10}-03-01"
    staff = treasurer(member)

    # The parent, on a phone and without an account, finds the way in on the event's page.
    j = journey("guest-entry", viewport=PHONE)
    page = j.goto(event.get_absolute_url())
    page.get_by_role("link", name="Enter without an account").click()
    page.wait_for_url(re.compile(r"/enter-without-account/$"))
    page.get_by_label("My child", exact=True).check()
    page.get_by_label("Your name").fill("Mary Lim")
    page.get_by_label("Your email").fill(PARENT)
    page.get_by_label("Entrant's name as on ID").fill("Lim Wei Ling")
    page.get_by_label("Entrant's date of birth").fill(born)
    page.get_by_label("School level").select_option("primary")
    page.get_by_label("School", exact=True).fill("Rosyth School")
    page.get_by_label(f"{PRIMARY}: Standard S$3.00 (incl. GST)").check()
    page.get_by_label("Contact number").fill("9123 4567")
    page.check("#id_name_listed")
    page.check("#id_accept_rules")
    accessible(page)
    j.shot("guest form")
    page.get_by_role("button", name="Send me the link to confirm").click()
    expect(page.get_by_text(f"we have emailed a link to {PARENT}")).to_be_visible()
    assert Entry.objects.count() == 0 and Player.objects.filter(full_name="Lim Wei Ling").count() == 0
    j.shot("link emailed")

    # The emailed link: opening it changes nothing; the button confirms the entry, which takes its place then.
    link = emailed_link("Confirm your entry")
    page = j.goto(link)
    expect(page.get_by_text("Waiting for you to confirm")).to_be_visible()
    accessible(page)
    j.shot("confirm")
    page.get_by_role("button", name="Confirm the entry").click()
    expect(page.get_by_text("Your entry is confirmed.")).to_be_visible()
    entry = Entry.objects.get()
    reference = entry_reference(entry)
    expect(page.locator("#guest-status").get_by_text("Pending payment")).to_be_visible()
    expect(page.locator("#guest-owed")).to_contain_text(f"S$3.00 to pay, reference {reference}")
    assert entry.player.full_name == "Lim Wei Ling" and entry.player.user_id is None
    assert entry.guest == GuestEntry.objects.get() and entry.name_listed_on is not None
    accessible(page)
    j.shot("confirmed")

    # Pay now: the PayNow QR for S$3.00 with the entry's reference, without logging in.
    page.get_by_role("link", name="Pay now").click()
    page.wait_for_url(re.compile(r"/pay/$"))
    expect(page.locator("#pay-reference")).to_have_text(reference, use_inner_text=True)
    fields = paynow_fields(page)
    assert fields["54"] == "3.00" and fields["62"]["01"] == reference
    j.shot("paynow qr")

    # The treasurer reads the bank's statement: the transfer is matched to the entry.
    office = j.new_page(viewport=DESKTOP)
    log_in(office, j.base_url, staff.email)
    today = timezone.localdate().isoformat()
    upload_statement(office, j.base_url, "dbs.csv", [f"{today},3.00,PAYNOW FROM MARY LIM {reference}"])
    expect(line_row(office, 2).get_by_text("paid in full", exact=True)).to_be_visible()
    office.get_by_role("button", name="Confirm and record 1 payment").click()
    expect(office.get_by_text("The statement is imported: 1 payment recorded.")).to_be_visible()
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED and entry.amount_paid == Decimal("3.00")
    # The receipt goes to the parent, who paid.
    assert Message.objects.filter(to=PARENT, subject__contains=Payment.objects.get().number).exists()

    page.reload()
    expect(page.locator("#pay-paid").get_by_text("Paid.")).to_be_visible()
    j.shot("paid")

    # Later, from the same link: the child's school changes, then the entry is withdrawn.
    page = j.goto(link)
    expect(page.locator("#guest-status").get_by_text("Confirmed")).to_be_visible()
    page.get_by_role("link", name="Change the entrant's details").click()
    page.get_by_label("School").fill("Nanyang Primary School")
    accessible(page)
    j.shot("change")
    page.get_by_role("button", name="Save the changes").click()
    expect(page.get_by_text("The entry is changed.")).to_be_visible()
    entry.refresh_from_db()
    assert entry.school == "Nanyang Primary School"
    # The button asks first: dismissed, nothing changes; accepted, the entry is withdrawn.
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Withdraw the entry").click()
    expect(page.locator("#guest-status").get_by_text("Confirmed")).to_be_visible()
    assert asked and "Only the organiser can give the place back." in asked[0]
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Withdraw the entry").click()
    expect(page.get_by_text("The entry is withdrawn.")).to_be_visible()
    expect(page.locator("#guest-status").get_by_text("Withdrawn")).to_be_visible()
    entry.refresh_from_db()
    assert entry.status == EntryStatus.WITHDRAWN
    assert Message.objects.filter(to=PARENT, subject__contains="Entry withdrawn").exists()
    j.shot("withdrawn")
