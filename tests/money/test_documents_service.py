"""What a receipt and a credit note say, made from real payments and refunds: the concession against the standard
fee, the GST the fees include, the issuer as the association's payment settings describe it, a group's part
payment student by student, and the credit note's receipt and reason."""

from datetime import date
from decimal import Decimal

import pytest

from events import services as events
from events.models import GroupEntry
from events.services.payments import entry_reference, group_reference
from money import services
from money.core.documents import render_text
from money.models import Method, PaymentSettings
from money.services.documents import credit_note_document, receipt_document
from players.services import renewal_reference, request_renewal
from tests.events.factories import FeeFactory, fast_passwords, player_with_account  # noqa: F401
from tests.factories import MembershipFactory, UserFactory
from tests.money.test_ledger import entered, seed_event

pytestmark = pytest.mark.django_db
D = Decimal


def payment_settings(association, **fields):
    return PaymentSettings.objects.create(
        association=association,
        receipt_prefix="SA",
        address="1 Example Road #01-01\nSingapore 123456",
        paynow_proxy="S88SS0001A",
        paynow_name="Scrabble Association",
        gst_registration="M90000001A",
        **fields,
    )


def test_a_receipt_for_a_two_dollar_concession_shows_the_standard_fee_the_concession_and_the_gst():
    event, category, _, passion = seed_event()
    payment_settings(event.association)
    entry = entered(event, category, passion, concession_proof="P123")
    payment = services.receive(reference=entry_reference(entry), amount="2.00", method=Method.PAYNOW).payment
    doc = receipt_document(payment)
    assert doc.kind == "receipt" and doc.number == payment.number and doc.issued == payment.received_on
    [line] = doc.lines
    assert (line.standard, line.amount, line.concession) == (D("3.00"), D("2.00"), D("1.00"))
    assert line.note == "Passion Card holder concession"  # the tax is stated once, under the total
    assert doc.total == D("2.00") and doc.tax_rate == D("9") and doc.tax_included == D("0.17")
    assert doc.issuer.name == event.association.name
    assert doc.issuer.lines == (
        "1 Example Road #01-01",
        "Singapore 123456",
        "UEN S88SS0001A",
        "GST reg. no. M90000001A",
    )
    assert doc.payer.name == entry.player.full_name and doc.method == "PayNow"
    assert doc.reference == entry_reference(entry)
    text = render_text(doc)
    assert "  Standard fee SGD 3.00, less Passion Card holder concession SGD 1.00" in text
    assert "Includes GST 9%: SGD 0.17" in text and f"Reference: {entry_reference(entry)}" in text


def test_a_rate_given_in_the_fee_note_is_the_one_stated():
    event, category, _, _ = seed_event()
    payment_settings(event.association)
    fee = FeeFactory(category=category, name="Early", amount=D("3.00"), note="incl. 8% GST")
    entry = entered(event, category, fee)
    payment = services.receive(reference=entry_reference(entry), amount="3.00", method=Method.PAYNOW).payment
    doc = receipt_document(payment)
    assert doc.tax_rate == D("8") and doc.tax_included == D("0.22")
    assert doc.lines[0].note == "incl. 8% GST"  # no concession: the note stays as the fee gives it


def test_no_gst_is_stated_when_no_fee_includes_it_and_a_cheque_number_is_named():
    player = player_with_account()
    MembershipFactory(player=player, fee=D("20.00"))
    renewal = request_renewal(player.user, player)
    staff = UserFactory(is_staff=True)
    payment = services.receive(
        reference=renewal_reference(renewal), amount="20.00", method=Method.CHEQUE, payer_reference="123456",
        actor=staff, by_hand=True,
    ).payment  # fmt: skip
    doc = receipt_document(payment)
    assert doc.tax_rate is None and not any("GST" in line for line in render_text(doc))
    assert doc.method == "Cheque (no. 123456)" and doc.total == D("20.00")
    # No settings made: the association's defaults (its name; no UEN, no GST number).
    assert doc.issuer.lines == ()


def test_a_part_payment_of_a_group_lists_the_students_it_paid_for():
    event, category, standard, passion = seed_event()
    payment_settings(event.association)
    students = [
        {"full_name": f"Student {i}", "category": category, "fee": passion if i % 2 else standard,
         "concession_proof": f"P{i}" if i % 2 else "", "date_of_birth": date(2010, 1, 1)}
        for i in range(6)
    ]  # fmt: skip
    group = events.register_group(
        UserFactory(), event, accept_rules=True,
        contact={"role": GroupEntry.Role.TEACHER, "contact_name": "Mrs Tan", "school": "Yuhua", "address": "1 Road",
                 "phone": "61234567", "email": "teacher@example.org"},
        students=students,
    )  # fmt: skip
    first = services.receive(reference=group_reference(group), amount="9.00", method=Method.PAYNOW).payment
    doc = receipt_document(first)
    # 3 + 2 + 3 in full, then 1.00 of the fourth student's 2.00.
    assert [line.description.split(":")[0] for line in doc.lines] == [f"Student {i}" for i in range(4)]
    assert doc.lines[-1].note == "Passion Card holder concession" and doc.lines[-1].paid == D("1.00")
    # The amount column is what this payment paid, so the lines add up to its total.
    assert content_amounts(doc) == [D("3.00"), D("2.00"), D("3.00"), D("1.00")] == list(paid_column(doc))
    assert "  Part payment of SGD 2.00" in render_text(doc)
    assert doc.total == D("9.00") and doc.payer.name == "Mrs Tan"
    assert doc.footer.startswith("Part payment: SGD 9.00 of SGD 15.00 due.")
    second = services.receive(reference=group_reference(group), amount="6.00", method=Method.PAYNOW).payment
    doc = receipt_document(second)
    assert [line.description.split(":")[0] for line in doc.lines] == ["Student 3", "Student 4", "Student 5"]
    assert doc.lines[0].paid == D("1.00") and sum(content_amounts(doc)) == D("6.00") and doc.footer == "Thank you."


def test_a_held_payment_says_so_and_a_later_refund_leaves_the_receipt_as_it_was():
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    payment = services.receive(reference=entry_reference(entry), amount="5.00", method=Method.PAYNOW).payment
    before = receipt_document(payment)
    assert "SGD 2.00 of this payment is held" in before.footer
    services.refund(event.owner, payment, amount="3.00", reason="Withdrew")
    payment.refresh_from_db()
    after = receipt_document(payment)
    assert after.lines == before.lines and after.total == D("5.00")


def test_a_credit_note_refers_to_the_receipt_and_gives_the_reason():
    event, category, _, passion = seed_event()
    payment_settings(event.association)
    entry = entered(event, category, passion, concession_proof="P1")
    payment = services.receive(reference=entry_reference(entry), amount="2.00", method=Method.PAYNOW).payment
    refund = services.refund(event.owner, payment, amount="2.00", reason="Withdrew a week before")
    doc = credit_note_document(refund)
    assert doc.kind == "credit_note" and doc.number == refund.number and doc.original_number == payment.number
    assert doc.reason == "Withdrew a week before" and doc.total == D("2.00") and doc.tax_included == D("0.17")
    text = render_text(doc)
    assert text[0] == "Credit note" and f"Credit note for receipt {payment.number}" in text
    assert "Reason: Withdrew a week before" in text and "Total credited: SGD 2.00" in text
    assert "Refund method: PayNow" in text and doc.issuer.lines[-1] == "GST reg. no. M90000001A"


def test_a_part_refund_credit_note_shows_what_was_paid_and_what_is_credited():
    event, category, standard, _ = seed_event()
    payment_settings(event.association)
    entry = entered(event, category, standard)
    payment = services.receive(reference=entry_reference(entry), amount="3.00", method=Method.PAYNOW).payment
    refund = services.refund(event.owner, payment, amount="1.50", reason="Half back")
    text = render_text(credit_note_document(refund))
    assert any(line.endswith("SGD 1.50 credited") for line in text) and "  of SGD 3.00 paid" in text
    assert not any("Standard fee" in line or "concession" in line for line in text)


def content_amounts(doc):
    """The amount column of the document, as its page and PDF show it."""
    from money.core.documents import document_content

    return [D(row.amount.replace(",", "")) for row in document_content(doc).rows]


def paid_column(doc):
    return (line.paid if line.paid is not None else line.amount for line in doc.lines)


def test_a_part_payment_of_one_entry_shows_what_it_paid():
    event, category, standard, _ = seed_event()
    payment_settings(event.association)
    entry = entered(event, category, standard)
    payment = services.receive(reference=entry_reference(entry), amount="1.00", method=Method.PAYNOW).payment
    doc = receipt_document(payment)
    assert content_amounts(doc) == [D("1.00")] and doc.total == D("1.00")
