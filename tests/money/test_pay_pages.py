"""What players, teachers and members see: the payment page (PayNow QR, bank transfer, card), a group's
payment student by student, receipts and credit notes (page and PDF) for their owners only, their own
payments, and the Pay now links on the pages where an amount is due, without a query per entry."""

import html
import io
import re
from datetime import date
from decimal import Decimal

import pytest
import zxingcpp
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from clubsite.kit.text import markdown_html
from events import services as events
from events.models import EntryStatus, GroupEntry
from events.services.payments import entry_reference, group_reference
from money import services
from money.core.paynow import check_crc, parse_payload
from money.core.qr import qr_png
from money.models import Method, PaymentSettings
from money.providers import PROVIDERS, Instructions, PayNow, Provider
from players.services import renewal_reference, request_renewal
from tests.events.factories import EventFactory, FeeFactory, fast_passwords, player_with_account  # noqa: F401
from tests.factories import MembershipFactory, UserFactory
from tests.money.test_ledger import entered, seed_event

pytestmark = pytest.mark.django_db


def with_paynow(association):
    return PaymentSettings.objects.create(
        association=association,
        receipt_prefix="SA",
        paynow_proxy="S88SS0001A",
        paynow_name="Scrabble Association",
        gst_registration="M90000001A",
    )


def pay_url(reference):
    return reverse("money:pay", args=[reference])


def payload_in(page: str) -> str:
    found = re.search(r'data-paynow-payload="([^"]+)"', page)
    assert found, "no PayNow code on the page"
    return html.unescape(found.group(1))


def decode(png: bytes) -> str:
    [found] = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    return found.text


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


# The payment page ----------------------------------------------------------------------------------------------


def test_the_payment_page_shows_the_paynow_code_for_the_balance_and_the_reference(client):
    event, category, _, passion = seed_event()
    settings = with_paynow(event.association)
    entry = entered(event, category, passion, concession_proof="P1")
    reference = entry_reference(entry)
    client.force_login(entry.player.user)
    page = client.get(pay_url(reference)).content.decode()
    _, due = services.due_or_error(reference)
    expected, expires = PayNow().payload(due, settings)
    assert payload_in(page) == expected
    assert '<svg role="img"' in page and f"PayNow QR code for {reference}" in page
    assert f'id="pay-reference">{reference}<' in page and "S$2.00" in page
    assert f"{expires:%-d %B %Y}" in page and "The treasurer confirms bank payments" in page
    assert "S88SS0001A (Scrabble Association) and give " in page  # the bank transfer's words
    assert "Pay by card" not in page  # no card provider here


def test_the_code_on_the_page_decodes_to_the_amount_and_the_reference(client):
    event, category, standard, _ = seed_event()
    with_paynow(event.association)
    entry = entered(event, category, standard)
    client.force_login(entry.player.user)
    payload = payload_in(client.get(pay_url(entry_reference(entry))).content.decode())
    text = decode(qr_png(payload))
    fields = parse_payload(text)
    assert text == payload and check_crc(text)
    assert fields["54"] == "3.00" and fields["62"]["01"] == entry_reference(entry)
    assert fields["26"]["02"] == "S88SS0001A" and fields["26"]["03"] == "0"  # the amount cannot be changed


def test_who_may_open_a_payment_page(client):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    url = pay_url(entry_reference(entry))
    assert client.get(url).status_code == 302  # to log in
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404  # someone else's: as if there were none, so none can be guessed
    assert client.get(pay_url("E000999X")).status_code == 404  # not a reference
    client.force_login(event.owner)
    assert client.get(url).status_code == 200  # the organiser
    client.force_login(entry.player.user)
    typed = client.get(pay_url(entry_reference(entry).lower()))
    assert typed.status_code == 302 and typed["Location"] == url


def test_when_nothing_is_due_the_page_says_paid_with_the_receipts(client):
    event, category, standard, _ = seed_event()
    with_paynow(event.association)
    entry = entered(event, category, standard)
    first = services.receive(reference=entry_reference(entry), amount="1.00", method=Method.PAYNOW).payment
    second = services.receive(reference=entry_reference(entry), amount="2.00", method=Method.PAYNOW).payment
    credit = services.refund(event.owner, second, amount="0.50", reason="Lunch not taken")
    client.force_login(entry.player.user)
    page = client.get(pay_url(entry_reference(entry))).content.decode()
    assert "data-paynow-payload" not in page and "<strong>Paid.</strong>" in page
    for number in (first.number, second.number):
        assert reverse("money:receipt", args=[number]) in page
    assert reverse("money:credit_note", args=[credit.number]) in page


def test_a_card_provider_shows_a_button_and_the_return_says_it_is_being_confirmed(client, monkeypatch):
    class Card(Provider):
        method, label, online = "card", "Card", True

        def instructions(self, due, settings):
            return Instructions(method="card", label="Card", text="Visa, Mastercard.", action_url="/money/card/x/")

    monkeypatch.setitem(PROVIDERS, "card", Card())
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    client.force_login(entry.player.user)
    page = client.get(pay_url(entry_reference(entry))).content.decode()
    assert 'action="/money/card/x/"' in page and "Pay by card" in page and "csrfmiddlewaretoken" in page
    assert "data-paynow-payload" not in page  # this association has no PayNow set up
    returned = client.get(pay_url(entry_reference(entry)) + "?card=done").content.decode()
    assert "Thank you: your card payment is being confirmed" in returned
    services.receive(reference=entry_reference(entry), amount="3.00", method=Method.CARD, external_id="cs_1")
    landed = client.get(pay_url(entry_reference(entry)) + "?card=done").content.decode()
    assert "being confirmed" not in landed and "<strong>Paid.</strong>" in landed


def group_of(event, category, standard, passion, teacher, size=6):
    students = [
        {"full_name": f"Student {i}", "category": category, "fee": passion if i % 2 else standard,
         "concession_proof": f"P{i}" if i % 2 else "", "date_of_birth": date(2010, 1, 1)}
        for i in range(size)
    ]  # fmt: skip
    return events.register_group(
        teacher, event, accept_rules=True,
        contact={"role": GroupEntry.Role.TEACHER, "contact_name": "Mrs Tan", "school": "Yuhua", "address": "1 Road",
                 "phone": "61234567", "email": "teacher@example.org"},
        students=students,
    )  # fmt: skip


def rows(page: str, table_id: str) -> list[list[str]]:
    body = page.split(f'id="{table_id}"')[1].split("</tbody>")[0]
    return [
        [re.sub(r"<[^>]+>", " ", cell).split() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", body.split("<tbody>")[1], re.S)
    ]


def test_a_part_paid_group_is_shown_student_by_student(client):
    event, category, standard, passion = seed_event()
    with_paynow(event.association)
    teacher = UserFactory()
    group = group_of(event, category, standard, passion, teacher)
    services.receive(reference=group_reference(group), amount="9.00", method=Method.PAYNOW)
    client.force_login(teacher)
    page = client.get(pay_url(group_reference(group))).content.decode()
    table = rows(page, "pay-lines")
    assert [row[1][:2] for row in table] == [["Student", f"{i}:"] for i in range(6)]
    # Due, paid, balance: 3 + 2 + 3 paid in full, 1.00 of the fourth's 2.00, nothing for the last two.
    assert [(row[3], row[4], row[5]) for row in table] == [
        (["S$3.00"], ["S$3.00"], ["S$0.00"]),
        (["S$2.00"], ["S$2.00"], ["S$0.00"]),
        (["S$3.00"], ["S$3.00"], ["S$0.00"]),
        (["S$2.00"], ["S$1.00"], ["S$1.00"]),
        (["S$3.00"], ["S$0.00"], ["S$3.00"]),
        (["S$2.00"], ["S$0.00"], ["S$2.00"]),
    ]
    assert "part paid" in " ".join(table[3][2]) and "part paid" not in " ".join(table[4][2])
    assert 'id="pay-balance">S$6.00<' in page
    _, due = services.due_or_error(group_reference(group))
    assert '"54"' not in page and parse_payload(payload_in(page))["54"] == "6.00"
    assert due.balance == Decimal("6.00")
    assert ", 6 entries, " in due.title


# Receipts and credit notes ------------------------------------------------------------------------------------


def test_a_receipt_page_and_pdf_are_for_the_payer_and_the_organiser_only(client):
    event, category, _, passion = seed_event()
    with_paynow(event.association)
    entry = entered(event, category, passion, concession_proof="P1")
    payment = services.receive(reference=entry_reference(entry), amount="2.00", method=Method.PAYNOW).payment
    page_url = reverse("money:receipt", args=[payment.number])
    pdf_url = reverse("money:receipt_pdf", args=[payment.number])
    assert page_url == f"/money/receipts/{payment.number}/" and pdf_url == f"/money/receipts/{payment.number}.pdf"
    for url in (page_url, pdf_url):
        assert client.get(url)["Location"].startswith(reverse("account_login"))
    client.force_login(UserFactory())
    assert [client.get(url).status_code for url in (page_url, pdf_url)] == [403, 403]
    assert client.get(reverse("money:receipt", args=["SA-2000-00009"])).status_code == 404
    for user in (entry.player.user, event.owner):
        client.force_login(user)
        assert [client.get(url).status_code for url in (page_url, pdf_url)] == [200, 200]
    client.force_login(entry.player.user)
    page = client.get(page_url).content.decode()
    for text in (
        f"Receipt number: {payment.number}", "Received from", entry.player.full_name, "UEN S88SS0001A",
        "GST reg. no. M90000001A", "Passion Card holder concession", "-1.00", "Total: SGD 2.00",
        "Includes GST 9%: SGD 0.17", "Payment method: PayNow", f"Reference: {entry_reference(entry)}",
    ):  # fmt: skip
        assert text in html.unescape(page), text
    assert f'href="{pdf_url}"' in page and "Download PDF" in page and "@media print" in page
    response = client.get(pdf_url)
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'attachment; filename="{payment.number}.pdf"'
    text = pdf_text(response.content)
    assert payment.number in text and "Includes GST 9%: SGD 0.17" in text


def test_a_credit_note_page_and_pdf(client):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    payment = services.receive(reference=entry_reference(entry), amount="3.00", method=Method.PAYNOW).payment
    credit = services.refund(event.owner, payment, amount="1.50", reason="Withdrew a week before")
    page_url = reverse("money:credit_note", args=[credit.number])
    pdf_url = reverse("money:credit_note_pdf", args=[credit.number])
    client.force_login(UserFactory())
    assert [client.get(url).status_code for url in (page_url, pdf_url)] == [403, 403]
    client.force_login(entry.player.user)
    page = html.unescape(client.get(page_url).content.decode())
    assert f"Credit note for receipt {payment.number}" in page and "Reason: Withdrew a week before" in page
    assert "Total credited: SGD 1.50" in page
    text = pdf_text(client.get(pdf_url).content)
    assert credit.number in text and payment.number in text and "GST" in text
    assert client.get(reverse("money:credit_note", args=["SA-CN-2000-00001"])).status_code == 404


# My payments ----------------------------------------------------------------------------------------------------


def test_my_payments_lists_only_ones_own(client):
    event, category, standard, passion = seed_event()
    mine = entered(event, category, standard)
    theirs = entered(event, category, standard)
    own = services.receive(reference=entry_reference(mine), amount="3.00", method=Method.PAYNOW).payment
    other = services.receive(reference=entry_reference(theirs), amount="3.00", method=Method.PAYNOW).payment
    credit = services.refund(event.owner, own, amount="1.00", reason="Discount")
    # A group entry the same person submitted, and their membership renewal.
    group = group_of(event, category, standard, passion, mine.player.user, size=2)
    for_group = services.receive(reference=group_reference(group), amount="5.00", method=Method.PAYNOW).payment
    MembershipFactory(player=mine.player, fee=Decimal("20.00"))
    renewal = request_renewal(mine.player.user, mine.player)
    renewed = services.receive(reference=renewal_reference(renewal), amount="20.00", method=Method.PAYNOW).payment
    client.force_login(mine.player.user)
    page = client.get(reverse("money:my_payments")).content.decode()
    for payment in (own, for_group, renewed):
        assert reverse("money:receipt", args=[payment.number]) in page
    assert reverse("money:credit_note", args=[credit.number]) in page
    assert other.number not in page
    client.force_login(event.owner)  # an organiser's own page has none of the entrants' payments
    assert own.number not in client.get(reverse("money:my_payments")).content.decode()


# Pay now where an amount is due ------------------------------------------------------------------------------


def account_page_queries(client, user) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("players:me"))
    assert response.status_code == 200
    return len(queries), response.content.decode()


def test_the_account_page_has_pay_now_and_receipts_and_its_queries_do_not_grow_with_entries(client):
    player = player_with_account()
    client.force_login(player.user)
    entries = []
    for i in range(5):
        event = EventFactory()
        fee = FeeFactory(category__event=event, amount=Decimal("3.00"))
        entries.append(events.register_entry(player.user, event, category=fee.category, fee=fee))
        if i == 0:
            services.receive(reference=entry_reference(entries[0]), amount="3.00", method=Method.PAYNOW)
            one, page = account_page_queries(client, player.user)
    assert entries[1].status == EntryStatus.PENDING_PAYMENT
    five, page = account_page_queries(client, player.user)
    assert five == one
    for entry in entries[1:]:
        assert f'href="{pay_url(entry_reference(entry))}"' in page and entry_reference(entry) in page
    assert page.count(">Pay now<") == 4
    paid = services.payments_for("E", entries[0].pk).get()
    assert reverse("money:receipt", args=[paid.number]) in page and reverse("money:my_payments") in page


def test_my_entries_the_group_page_and_the_renewal_page_link_to_payment(client):
    event, category, standard, passion = seed_event()
    entry = entered(event, category, standard)
    client.force_login(entry.player.user)
    page = client.get(reverse("events:my_entries")).content.decode()
    assert f'href="{pay_url(entry_reference(entry))}"' in page and ">Pay now<" in page

    teacher = UserFactory()
    group = group_of(event, category, standard, passion, teacher, size=2)
    client.force_login(teacher)
    page = client.get(reverse("events:group_entry", args=[group.pk])).content.decode()
    assert f'href="{pay_url(group_reference(group))}"' in page and group_reference(group) in page
    paid = services.receive(reference=group_reference(group), amount="5.00", method=Method.PAYNOW).payment
    page = client.get(reverse("events:group_entry", args=[group.pk])).content.decode()
    assert ">Pay now<" not in page and reverse("money:receipt", args=[paid.number]) in page
    page = client.get(reverse("events:my_entries")).content.decode()
    assert reverse("money:receipt", args=[paid.number]) in page

    member = player_with_account()
    MembershipFactory(player=member, fee=Decimal("20.00"))
    renewal = request_renewal(member.user, member)
    client.force_login(member.user)
    page = client.get(reverse("players:renew")).content.decode()
    assert f'href="{pay_url(renewal_reference(renewal))}"' in page and renewal_reference(renewal) in page
    services.receive(reference=renewal_reference(renewal), amount="20.00", method=Method.PAYNOW)
    page = client.get(reverse("players:renew")).content.decode()
    receipt = services.payments_for("M", renewal.pk).get()
    assert reverse("money:receipt", args=[receipt.number]) in page


def test_the_demo_association_is_paid_by_paynow(client):
    from io import StringIO

    from players import demo

    demo.load(StringIO())
    settings = PaymentSettings.objects.get(association__slug="sa")
    assert (settings.paynow_proxy_type, settings.paynow_proxy, settings.receipt_prefix) == ("UEN", "S88SS0001A", "SA")
    event, category, standard, _ = seed_event()
    assert event.association_id == settings.association_id
    entry = entered(event, category, standard)
    client.force_login(entry.player.user)
    page = client.get(pay_url(entry_reference(entry))).content.decode()
    assert parse_payload(payload_in(page))["59"] == "Scrabble Association"


def test_the_code_cannot_be_paid_after_the_place_lapses(client):
    """The QR's expiry is the entry's payment deadline when that comes before the code's own validity."""
    from datetime import timedelta

    from django.utils import timezone

    from events.models import Entry

    event, category, standard, _ = seed_event()
    with_paynow(event.association)
    entry = entered(event, category, standard)
    deadline = timezone.now() + timedelta(days=2)
    Entry.objects.filter(pk=entry.pk).update(payment_due_at=deadline)
    client.force_login(entry.player.user)
    page = client.get(pay_url(entry_reference(entry))).content.decode()
    last_day = timezone.localtime(deadline, event.zone).date()
    assert parse_payload(payload_in(page))["26"]["04"] == last_day.strftime("%Y%m%d")
    assert f"Pay by {last_day.day} {last_day:%B %Y}: an unpaid place lapses after that." in page


def test_a_renewal_waiting_for_payment_is_on_the_account_page_and_once_paid_the_renew_page_says_so(client):
    player = player_with_account()
    MembershipFactory(player=player, fee=Decimal("20.00"))
    renewal = request_renewal(player.user, player)
    client.force_login(player.user)
    reference = renewal_reference(renewal)
    account = client.get(reverse("players:me")).content.decode()
    assert 'id="renewal-due"' in account and pay_url(reference) in account
    services.receive(reference=reference, amount="20.00", method=Method.PAYNOW)
    renew = client.get(reverse("players:renew")).content.decode()
    assert "Renewed: your next ordinary membership runs from" in renew and "Renew my membership</button>" not in renew
    assert 'id="renewal-due"' not in client.get(reverse("players:me")).content.decode()


def test_the_payment_page_offers_only_the_ways_the_event_accepts(client):
    """The seed event's form takes payment in person or by cheque only: its pay page shows no QR code, and
    says how to pay the organiser instead."""
    event, category, standard, _ = seed_event(payment_methods=["in_person", "cheque"])
    with_paynow(event.association)
    entry = entered(event, category, standard)
    client.force_login(entry.player.user)
    page = client.get(pay_url(entry_reference(entry))).content.decode()
    assert "data-paynow-payload" not in page and 'id="pay-paynow"' not in page
    assert 'id="pay-in_person"' in page and 'id="pay-cheque"' in page
    event.payment_methods = ["bank_transfer"]  # a PayNow transfer is a bank transfer
    event.save(update_fields=["payment_methods"])
    assert "data-paynow-payload" in client.get(pay_url(entry_reference(entry))).content.decode()


def test_the_seed_events_payment_page_says_what_its_form_says_and_offers_nothing_else(client):
    """Issue 23, defect 10: seed 004 takes payment in person at Jurong Green CC, by cheque payable to its
    management committee, and (on the site) by PayNow. Its pay page offers those three, with the organiser's own
    instructions (the cheque's payee) and the venue to pay at; no bank transfer, which it never offered."""
    from events.demo import PAYMENT

    event, category, standard, _ = seed_event(
        payment_methods=["in_person", "cheque", "paynow"],
        payment_instructions=PAYMENT,
        payment_instructions_html=markdown_html(PAYMENT),
        venue="Jurong Green Community Club",
        address="No. 6 Jurong West Avenue 1, Singapore 649520",
    )
    with_paynow(event.association)
    entry = entered(event, category, standard)
    reference = entry_reference(entry)
    client.force_login(entry.player.user)
    page = client.get(pay_url(reference)).content.decode()
    shown = re.findall(r'<section class="card mb-3" id="pay-([a-z_]+)"', page)
    assert shown == ["instructions", "paynow", "in_person", "cheque"]
    assert "<em>Jurong Green Community Club Management Committee</em>" in page  # the payee, as the organiser wrote it
    assert (
        "Pay in person at Jurong Green Community Club, No. 6 Jurong West Avenue 1, Singapore 649520, quoting the "
        f"reference {reference}." in html.unescape(page)
    )
    assert f"write the reference {reference} on its back" in page
    assert "Bank transfer" not in page and f"give {reference} as the reference" not in page


def test_a_withdrawn_entry_owes_nothing_on_its_payment_page_and_in_the_api(client):
    """What a withdrawn entry was charged stays on record, but nothing is asked of the payer: the page's balance
    and the API's agree with the entry's own (Entry.owed)."""
    from events import services as events

    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    events.withdraw_entry(entry.player.user, entry)
    client.force_login(entry.player.user)
    reference = entry_reference(entry)
    page = client.get(pay_url(reference)).content.decode()
    assert 'id="pay-balance">S$0.00<' in page and "This entry is withdrawn" in page
    due = client.get(f"/api/money/dues/{reference}/").json()
    assert due["balance"] == "0.00" and due["total"] == "3.00" and due["payable"] is False


def test_a_group_of_one_is_one_entry_in_its_title():
    from events import services as events

    event, category, standard, passion = seed_event()
    group = group_of(event, category, standard, passion, UserFactory())
    for entry in group.entries.order_by("pk")[1:]:
        events.withdraw_entry(group.submitted_by, entry)
    _, due = services.due_or_error(group_reference(group))
    assert ", 1 entry, " in due.title
