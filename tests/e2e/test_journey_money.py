"""Money in a browser: a player pays an entry by PayNow and the treasurer confirms it from the bank statement,
then the player downloads the receipt; a teacher's group of fifteen students is settled by one payment; an
organiser refunds half an entry with a credit note; and the treasurer's page after it all."""

import html
import io
import re
from datetime import date
from decimal import Decimal

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect
from pypdf import PdfReader

from events.models import Entry, EntryStatus, EventKind, GroupEntry
from events.services.payments import entry_reference, group_reference
from money import services
from money.core.paynow import check_crc, parse_payload
from money.models import Method, Payment, PaymentSettings, Refund
from tests.e2e.conftest import PRIMARY, SECONDARY, log_in
from tests.events.factories import CategoryFactory, EventFactory, FeeFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}


def seed_event(owner):
    """Seed 004: two categories, each S$3 standard and S$2 with a Passion Card, both including GST; the
    association takes PayNow to its UEN and is GST-registered."""
    event = EventFactory(
        title="Students' Scrabble Championship",
        slug="students-championship",
        kind=EventKind.STUDENTS,
        owner=owner,
        rules_agreement="I agree to abide by the rules set by the organiser.",
        refund_policy="Half the fee is refunded if you withdraw before the closing date.",
        payment_methods=["paynow", "in_person", "cheque"],
    )
    for position, (name, level) in enumerate(((SECONDARY, "secondary"), (PRIMARY, "primary"))):
        category = CategoryFactory(event=event, name=name, school_level=level, quota=40, position=position)
        FeeFactory(category=category, name="Standard", amount=Decimal("3.00"), note="incl. GST")
        FeeFactory(
            category=category,
            name="Passion Card holder",
            amount=Decimal("2.00"),
            note="incl. GST",
            is_concession=True,
            proof_label="Passion Card number",
        )
    PaymentSettings.objects.create(
        association=event.association,
        receipt_prefix="SA",
        address="Jurong Green Community Club, Singapore 649520",
        paynow_proxy="S88SS0001A",
        paynow_name="Scrabble Association",
        gst_registration="M90000001A",
    )
    return event


def treasurer(member):
    user, _ = member("Teresa Treasurer", player=False)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user


def paynow_fields(page) -> dict:
    """The PayNow payload the page's QR code carries, read from its data attribute and checked."""
    qr = page.locator(".paynow-qr")
    expect(qr.locator("svg")).to_be_visible()
    payload = html.unescape(qr.get_attribute("data-paynow-payload"))
    assert check_crc(payload)
    return parse_payload(payload)


def upload_statement(page, base_url: str, name: str, rows: list[str]):
    page.goto(base_url + "/money/statements/")
    page.set_input_files(
        "#id_file",
        files=[
            {"name": name, "mimeType": "text/csv", "buffer": "\n".join(["date,amount,description", *rows]).encode()}
        ],
    )
    page.get_by_role("button", name="Read the statement").click()
    page.wait_for_url(re.compile(r"/money/statements/\d+/$"))
    expect(page.get_by_text("This is a review: nothing is saved until you confirm")).to_be_visible()


def line_row(page, line_no: int):
    """A statement line by its line number in the file (the header is line 1)."""
    return page.locator(f"#line-{line_no}")


def pdf_text(data: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)


def test_player_pays_by_paynow_treasurer_confirms_from_the_statement_player_downloads_the_receipt(journey, member):
    organiser, _ = member("Oliver Organiser", organiser=True, player=False)
    event = seed_event(organiser)
    born = date(event.starts_on.year - 14, 3, 1)
    player, _ = member("Alice Tan", school_level="secondary", school="Yuhua Secondary", date_of_birth=born)
    staff = treasurer(member)
    today = timezone.localdate()

    # The player enters, and is told what to pay and with which reference.
    j = journey("money-paynow")
    page = log_in(j.page, j.base_url, player.email, next_path=event.get_absolute_url())
    page.get_by_role("link", name="Enter myself").click()
    page.get_by_label(f"{SECONDARY}: Standard S$3.00 (incl. GST)").check()
    page.fill("input[name=phone]", "9123 4567")
    page.check("#id_accept_rules")
    j.shot("entry form")
    page.get_by_role("button", name="Enter", exact=True).click()
    page.wait_for_url(re.compile(r"/events/my-entries/$"))
    entry = Entry.objects.get(player__user=player)
    reference = entry_reference(entry)
    expect(page.get_by_text(f"Pay S$3.00 with the reference {reference}")).to_be_visible()
    card = page.locator(".card", has_text=event.title)
    expect(card.get_by_text("Pending payment", exact=True)).to_be_visible()
    expect(card.get_by_text(f"S$3.00 due, reference {reference}")).to_be_visible()
    j.shot("pending payment")

    # Pay now: the PayNow QR for S$3.00 with the entry's reference.
    card.get_by_role("link", name="Pay now").click()
    page.wait_for_url(re.compile(rf"/money/pay/{reference}/$"))
    expect(page.locator("#pay-reference")).to_have_text(reference, use_inner_text=True)
    expect(page.locator("#pay-balance")).to_have_text("S$3.00", use_inner_text=True)
    paynow = page.locator("#pay-paynow")
    expect(paynow.get_by_role("heading", name="PayNow")).to_be_visible()
    expect(paynow.locator("dd", has_text="S$3.00")).to_be_visible()
    expect(paynow.locator("dd", has_text=reference)).to_be_visible()
    fields = paynow_fields(page)
    assert fields["54"] == "3.00" and fields["53"] == "702"  # SGD 3.00
    assert fields["62"]["01"] == reference
    assert "S88SS0001A" in fields["26"].values()
    # The ways the event takes, and no other: PayNow, in person, by cheque (no bank transfer it never offered).
    expect(page.locator("#pay-in_person")).to_contain_text(f"quoting the reference {reference}")
    expect(page.locator("#pay-cheque")).to_contain_text(f"write the reference {reference} on its back")
    expect(page.locator("#pay-bank_transfer")).to_have_count(0)
    j.shot("paynow qr")

    # The treasurer reads the bank's statement: the transfer is matched, an unrelated line is not.
    office = j.new_page(viewport=DESKTOP)
    log_in(office, j.base_url, staff.email)
    upload_statement(
        office,
        j.base_url,
        "dbs-march.csv",
        [
            f"{today.isoformat()},3.00,PAYNOW FROM ALICE TAN {reference}",
            f"{today.isoformat()},25.00,PAYNOW FROM BOB LIM DINNER AT THE CLUB",
        ],
    )
    j.shot("statement review", office)
    expect(line_row(office, 2).get_by_text("paid in full", exact=True)).to_be_visible()
    expect(line_row(office, 2).locator("code")).to_have_text(reference, use_inner_text=True)
    expect(line_row(office, 3).get_by_text("reference unknown", exact=True)).to_be_visible()
    expect(line_row(office, 3).get_by_text("No reference in the description.")).to_be_visible()
    # The box for assigning a reference shows the whole of one as a payer writes it, spaces and all.
    box = line_row(office, 3).get_by_label("Reference for line 3")
    box.fill("E 000 0017 X")
    assert box.evaluate("box => box.scrollWidth <= box.clientWidth"), "the reference does not fit in its box"
    box.fill("")
    assert Payment.objects.count() == 0
    office.get_by_role("button", name="Confirm and record 1 payment").click()
    expect(office.get_by_text("The statement is imported: 1 payment recorded.")).to_be_visible()
    payment = Payment.objects.get()
    assert payment.method == Method.PAYNOW and payment.amount == Decimal("3.00")  # the bank line says PAYNOW
    expect(office.get_by_role("link", name=payment.number)).to_be_visible()
    j.shot("statement confirmed", office)
    assert any(m.to == [player.email] and payment.number in m.subject for m in mail.outbox)

    # The player reloads: paid, the entry confirmed, and the receipt to download.
    page.reload()
    expect(page.locator("#pay-paid").get_by_text("Paid.")).to_be_visible()
    expect(page.locator("#pay-balance")).to_have_text("S$0.00", use_inner_text=True)
    expect(page.locator(".paynow-qr")).to_have_count(0)
    j.shot("paid")
    page.goto(j.base_url + "/events/my-entries/")
    card = page.locator(".card", has_text=event.title)
    expect(card.get_by_text("Confirmed", exact=True)).to_be_visible()
    expect(card.get_by_text("Paid S$3.00.")).to_be_visible()
    j.shot("entry confirmed")
    card.get_by_role("link", name=payment.number).click()
    page.wait_for_url(re.compile(rf"/money/receipts/{payment.number}/$"))
    expect(page.locator("#document-title")).to_be_visible()
    expect(page.get_by_text(payment.number).first).to_be_visible()
    j.shot("receipt page")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download PDF").click()
    assert download.value.suggested_filename == f"{payment.number}.pdf"
    data = open(download.value.path(), "rb").read()
    assert data.startswith(b"%PDF")
    text = pdf_text(data)
    assert payment.number in text and "GST" in text and "M90000001A" in text
    assert Entry.objects.get(pk=entry.pk).status == EntryStatus.CONFIRMED


def class_list(year: int, count: int) -> str:
    rows = ["Name\tDate of birth\tLevel\tMember no.\tPassion card"]
    for i in range(count):
        rows.append(f"Student {i + 1:02d} Ong\t{(i % 27) + 1:02d}/03/{year - 9 - i % 3}\tP{4 + i % 3}\t\t")
    return "\n".join(rows)


def test_a_teachers_group_of_fifteen_is_settled_by_one_payment(journey, member):
    organiser, _ = member("Oliver Organiser", organiser=True, player=False)
    event = seed_event(organiser)
    teacher, _ = member("Tan Mei Ling", email="tan@example.org", player=False)
    staff = treasurer(member)
    today = timezone.localdate()

    # The teacher pastes the class list of fifteen.
    j = journey("money-group")
    page = log_in(j.page, j.base_url, teacher.email, next_path=f"/events/{event.slug}/enter-group/")
    page.fill("#id_school", "Yuhua Primary")
    page.fill("#id_address", "Yuhua Primary School, Jurong West")
    page.fill("#id_phone", "6123 4567")
    page.fill("#id_class_list", class_list(event.starts_on.year, 15))
    page.check("#id_accept_rules")
    j.shot("class list of fifteen")
    page.get_by_role("button", name="Enter these students").click()
    page.wait_for_url(re.compile(r"/events/groups/\d+/$"))
    expect(page.get_by_text("15 students entered.")).to_be_visible()
    group = GroupEntry.objects.get()
    reference = group_reference(group)
    expect(page.locator("#group-total")).to_have_text("S$45.00", use_inner_text=True)
    expect(page.locator("#group-payment").get_by_text(reference)).to_be_visible()
    expect(page.get_by_text("S$45.00 to pay: one payment with this reference settles the whole group.")).to_be_visible()
    j.shot("the group one total one reference")
    group_url = page.url

    # The group's pay page: one total, one reference, one QR; the students listed.
    page.locator("#group-payment").get_by_role("link", name="Pay now").click()
    page.wait_for_url(re.compile(rf"/money/pay/{reference}/$"))
    expect(page.locator("#pay-reference")).to_have_text(reference, use_inner_text=True)
    expect(page.locator("#pay-balance")).to_have_text("S$45.00", use_inner_text=True)
    expect(page.locator("#pay-lines tbody tr")).to_have_count(15)
    expect(page.locator(".paynow-qr")).to_have_count(1)
    fields = paynow_fields(page)
    assert fields["54"] == "45.00" and fields["62"]["01"] == reference
    expect(page.locator("#pay-paynow dd", has_text="S$45.00")).to_be_visible()
    j.shot("the group's pay page")

    # One transfer for the whole total, confirmed from the statement.
    office = j.new_page(viewport=DESKTOP)
    log_in(office, j.base_url, staff.email)
    upload_statement(
        office, j.base_url, "march.csv", [f"{today.isoformat()},45.00,PAYNOW FROM TAN MEI LING {reference}"]
    )
    j.shot("statement review group", office)
    expect(line_row(office, 2).get_by_text("paid in full", exact=True)).to_be_visible()
    office.get_by_role("button", name="Confirm and record 1 payment").click()
    expect(office.get_by_text("The statement is imported: 1 payment recorded.")).to_be_visible()
    j.shot("statement confirmed group", office)
    payment = Payment.objects.get()
    assert payment.amount == Decimal("45.00") and payment.applied == Decimal("45.00")

    # Student by student, every one paid and confirmed: the teacher's view and the organiser's.
    def every_student_paid(view):
        rows = view.locator("table tbody tr")
        expect(rows).to_have_count(15)
        for i in range(15):
            cells = rows.nth(i).locator("td")
            expect(cells.nth(1)).to_have_text(f"Student {i + 1:02d} Ong", use_inner_text=True)
            expect(cells.nth(2)).to_have_text(re.compile(r"^\d+$"))  # each student's member number
            expect(cells.nth(4)).to_have_text("Confirmed", use_inner_text=True)
            for c, amount in zip((5, 6, 7), ("S$3.00", "S$3.00", "S$0.00"), strict=True):
                expect(cells.nth(c)).to_have_text(amount, use_inner_text=True)
        expect(view.locator("#group-balance")).to_have_text("S$0.00", use_inner_text=True)

    page.goto(group_url)
    every_student_paid(page)
    expect(page.locator("#group-payment").get_by_role("link", name=payment.number)).to_be_visible()
    j.shot("every student paid teacher")
    manager = j.new_page(viewport=DESKTOP)
    log_in(manager, j.base_url, organiser.email)
    manager.goto(group_url)
    every_student_paid(manager)
    j.shot("every student paid organiser", manager)
    assert set(group.entries.values_list("status", "amount_paid")) == {(EntryStatus.CONFIRMED, Decimal("3.00"))}

    page.locator("#group-payment").get_by_role("link", name="Payments and receipts").click()
    expect(page.locator("#pay-paid")).to_contain_text(f"Paid. Receipt: {payment.number}.")
    expect(page.locator("#pay-lines tbody tr td:nth-child(3)")).to_have_text(["Confirmed"] * 15)
    expect(page.locator("#pay-payments tbody tr")).to_have_count(1)
    j.shot("the group's payment page paid")


def test_organiser_refunds_half_an_entry_with_a_credit_note_then_the_treasurers_page(journey, member):
    organiser, _ = member("Oliver Organiser", organiser=True, player=False)
    event = seed_event(organiser)
    born = date(event.starts_on.year - 14, 3, 1)
    player, _ = member("Alice Tan", school_level="secondary", date_of_birth=born)
    staff = treasurer(member)
    from events import services as events

    category = event.categories.get(school_level="secondary")
    entry = events.register_entry(
        player, event, category=category, fee=category.fees.get(name="Standard"), accept_rules=True
    )
    paid = services.receive(
        reference=entry_reference(entry),
        amount="3.00",
        method=Method.PAYNOW,
        external_id="bank-1",
        payer_name="Alice Tan",
    ).payment

    # The organiser opens the event's money page and refunds half of Alice's payment.
    j = journey("money-refund")
    page = log_in(j.page, j.base_url, organiser.email, next_path=f"/money/events/{event.slug}/")
    expect(page.locator("#totals").get_by_text("S$3.00").first).to_be_visible()
    row = page.locator("#payments tbody tr", has_text=paid.number)
    expect(row.get_by_text("Alice Tan")).to_be_visible()
    j.shot("the event's money")
    row.get_by_role("link", name=f"Refund {paid.number}").click()
    page.wait_for_url(re.compile(rf"/money/payments/{paid.number}/refund/$"))
    expect(page.get_by_text("Half the fee is refunded if you withdraw before the closing date.")).to_be_visible()
    expect(page.locator("#id_amount")).to_have_value("3.00")
    page.fill("#id_amount", "1.50")
    page.fill("#id_reason", "Withdrew before the closing date: half the fee back")
    j.shot("refund form")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Refund").click()
    page.wait_for_url(re.compile(rf"/money/events/{event.slug}/$"))
    credit = Refund.objects.get()
    message = page.get_by_text(f"Refunded SGD 1.50 of receipt {paid.number}: credit note {credit.number}.")
    expect(message).to_be_visible()
    credits = page.locator("#credit-notes tbody tr", has_text=credit.number)
    expect(credits.get_by_text("Withdrew before the closing date: half the fee back")).to_be_visible()
    j.shot("refunded with a credit note")

    # The credit note: the amount and the reason.
    page.get_by_role("link", name=credit.number).first.click()
    page.wait_for_url(re.compile(rf"/money/credit-notes/{credit.number}/$"))
    document = page.locator(".money-document")
    expect(document.get_by_text(credit.number).first).to_be_visible()
    expect(document.get_by_text("1.50").first).to_be_visible()
    expect(document.get_by_text("Withdrew before the closing date: half the fee back")).to_be_visible()
    j.shot("the credit note")
    assert any(m.to == [player.email] and credit.number in m.subject for m in mail.outbox)

    # The player sees the credit note beside the receipt on the payment page.
    mine = j.new_page()
    log_in(mine, j.base_url, player.email, next_path=f"/money/pay/{entry_reference(entry)}/")
    refunds = mine.locator("#pay-payments tbody tr", has_text=paid.number)
    refunds.get_by_role("link", name=credit.number).scroll_into_view_if_needed()  # the table scrolls on a phone
    expect(refunds.get_by_role("link", name=credit.number)).to_be_visible()
    expect(refunds.get_by_text("(S$1.50)")).to_be_visible()
    j.shot("the player sees the credit note", mine)
    mine.get_by_role("link", name=credit.number).click()
    mine.wait_for_url(re.compile(rf"/money/credit-notes/{credit.number}/$"))
    j.shot("the player's credit note", mine)

    # The treasurer's page: what came in, what went back.
    office = j.new_page(viewport=DESKTOP)
    log_in(office, j.base_url, staff.email, next_path="/money/treasurer/")
    totals = office.locator("#totals")
    expect(totals.get_by_text("Received (1)")).to_be_visible()
    expect(totals.get_by_text("Refunded (1)")).to_be_visible()
    per_event = office.locator("#per-event tbody tr", has_text=event.title)
    expect(per_event.locator("td")).to_have_text(
        ["Students' Scrabble Championship", "1", "S$3.00", "S$1.50", "S$1.50", "S$0.00"]
    )
    j.shot("the treasurer's page", office)
    with office.expect_download() as download:
        office.get_by_role("link", name="Download CSV").click()
    sheet = open(download.value.path(), encoding="utf-8").read()
    assert paid.number in sheet and credit.number in sheet and "1.50" in sheet
    assert Entry.objects.get(pk=entry.pk).status == EntryStatus.CONFIRMED
