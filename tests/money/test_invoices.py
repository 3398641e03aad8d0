"""Quotations and invoices asked for before paying: numbered in their own series without gaps, addressed to a
billing name and address with a purchase-order number, listing each student's fee and concession; refused for a
cancelled entry or for what is not the asker's, nothing saved; paid by paying the reference (its receipt then
carries the billing details and the invoice number); replaced, never edited, when the entries change."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from events import services as events
from events.models import GroupEntry
from events.services.payments import entry_reference, group_reference
from money import services
from money.core.documents import render_pdf, render_text
from money.models import Invoice, InvoiceStatus, Method
from money.services import invoices
from money.services.documents import invoice_document, receipt_document
from tests.events.factories import fast_passwords, player_with_account  # noqa: F401
from tests.factories import UserFactory
from tests.money.test_documents_service import payment_settings
from tests.money.test_ledger import entered, seed_event

pytestmark = pytest.mark.django_db
D = Decimal
BILLING = {"billing_name": "Yuhua Secondary School", "billing_address": "1 School Road\nSingapore 600001"}


def a_group(event, category, standard, passion, count=4, teacher=None):
    students = [
        {"full_name": f"Student {i}", "category": category, "fee": passion if i % 2 else standard,
         "concession_proof": f"P{i}" if i % 2 else "", "date_of_birth": date(2010, 1, 1)}
        for i in range(count)
    ]  # fmt: skip
    return events.register_group(
        teacher or UserFactory(), event, accept_rules=True,
        contact={"role": GroupEntry.Role.TEACHER, "contact_name": "Mrs Tan", "school": "Yuhua", "address": "1 Road",
                 "phone": "61234567", "email": "teacher@example.org"},
        students=students,
    )  # fmt: skip


def test_a_teacher_asks_a_quotation_then_an_invoice_each_numbered_in_its_own_series():
    event, category, standard, passion = seed_event()
    payment_settings(event.association)
    group = a_group(event, category, standard, passion)
    teacher = group.submitted_by
    quote = invoices.issue(teacher, group_reference(group), document="quotation", po_number="PO-778", **BILLING)
    year = timezone.localdate().year
    assert quote.number == f"SA-Q-{year}-00001" and quote.total == D("10.00") and quote.amount_due == D("10.00")
    # Valid for a month, but never past the day entries close (an invoice holds the places until it is paid).
    closes_on = timezone.localtime(event.registration_closes_at, event.zone).date()
    assert quote.valid_until == min(timezone.localdate() + timedelta(days=invoices.QUOTATION_DAYS), closes_on)
    invoice = invoices.issue(teacher, group_reference(group), document="invoice", po_number="PO-778", **BILLING)
    assert invoice.number == f"SA-INV-{year}-00001" and invoice.status == InvoiceStatus.ISSUED
    # No effect on the ledger: nothing paid, no receipt, the entries still pending.
    assert not services.payments_for("G", group.pk).exists()
    text = render_text(invoice_document(invoice))
    assert text[:2] == ["Invoice", f"Invoice number: {invoice.number}"]
    assert "Purchase order: PO-778" in text and "Bill to: Yuhua Secondary School" in text
    assert "1 School Road" in text and "Singapore 600001" in text
    assert "Student 1: Secondary, " + event.title + ": SGD 2.00" in text
    assert "  Standard fee SGD 3.00, less Passion Card holder concession SGD 1.00" in text
    assert "Amount due: SGD 10.00" in text and f"Pay quoting the reference: {group_reference(group)}" in text
    quote_text = render_text(invoice_document(quote))
    assert quote_text[0] == "Quotation" and any(line.startswith("Valid until: ") for line in quote_text)


def test_the_pdf_of_an_invoice_says_what_its_page_says():
    pypdf = pytest.importorskip("pypdf")
    import io

    event, category, standard, passion = seed_event()
    payment_settings(event.association)
    group = a_group(event, category, standard, passion, count=2)
    invoice = invoices.issue(
        group.submitted_by, group_reference(group), document="invoice", po_number="PO 42/2026", **BILLING
    )
    pdf = render_pdf(invoice_document(invoice))
    text = " ".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    for said in ("Invoice", invoice.number, "Yuhua Secondary School", "Purchase order: PO 42/2026", "Student 0"):
        assert said in text
    assert "Amount due: SGD 5.00" in text


def test_paying_the_invoice_by_paynow_settles_it_and_the_receipt_carries_the_billing_details():
    event, category, standard, passion = seed_event()
    payment_settings(event.association)
    group = a_group(event, category, standard, passion)
    invoice = invoices.issue(
        group.submitted_by, group_reference(group), document="invoice", po_number="PO-1", **BILLING
    )
    part = services.receive(reference=group_reference(group), amount="4.00", method=Method.PAYNOW).payment
    invoice.refresh_from_db()
    assert invoice.status == InvoiceStatus.ISSUED and part.invoice_id == invoice.pk  # part paid: still open
    rest = services.receive(reference=group_reference(group), amount="6.00", method=Method.PAYNOW).payment
    invoice.refresh_from_db()
    assert invoice.status == InvoiceStatus.PAID and invoice.settled_at is not None
    text = render_text(receipt_document(rest))
    assert f"For invoice {invoice.number}" in text and "Billed to: Yuhua Secondary School" in text
    assert "Purchase order: PO-1" in text and "Singapore 600001" in text


def test_an_invoice_for_a_cancelled_entry_is_refused_and_nothing_is_saved():
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    events.cancel_entry(UserFactory(is_staff=True), entry, reason="Duplicate")
    with pytest.raises(services.MoneyError, match="cancelled"):
        invoices.issue(entry.player.user, entry_reference(entry), document="quotation", **BILLING)
    assert not Invoice.objects.exists()


def test_someone_elses_entry_or_group_is_refused():
    event, category, standard, passion = seed_event()
    group = a_group(event, category, standard, passion, count=2)
    stranger = player_with_account().user
    with pytest.raises(NotAllowed):
        invoices.issue(stranger, group_reference(group), document="invoice", **BILLING)
    entry = entered(event, category, standard)
    with pytest.raises(NotAllowed):
        invoices.issue(stranger, entry_reference(entry), document="quotation", **BILLING)
    assert not Invoice.objects.exists()


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"billing_name": " "}, "billing_name"),
        ({"billing_address": ""}, "billing_address"),
        ({"billing_name": "x" * 201}, "billing_name"),
        ({"billing_address": "a\x00b"}, "billing_address"),
        ({"po_number": "PO\n2"}, "po_number"),
        ({"po_number": "9" * 51}, "po_number"),
        ({"document": "receipt"}, "document"),
    ],
)
def test_bad_billing_details_are_named_and_nothing_is_saved(fields, field):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    given = {"document": "invoice", **BILLING, **fields}
    with pytest.raises(services.MoneyError) as refusal:
        invoices.issue(entry.player.user, entry_reference(entry), **given)
    assert refusal.value.field == field
    assert not Invoice.objects.exists()


def test_a_paid_entry_has_nothing_to_invoice():
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    services.receive(reference=entry_reference(entry), amount="3.00", method=Method.PAYNOW)
    with pytest.raises(services.MoneyError, match="Nothing is left to pay"):
        invoices.issue(entry.player.user, entry_reference(entry), document="invoice", **BILLING)


def test_a_withdrawn_student_makes_the_invoice_out_of_date_and_a_new_one_replaces_it_keeping_its_number():
    event, category, standard, passion = seed_event()
    payment_settings(event.association)
    group = a_group(event, category, standard, passion)
    teacher = group.submitted_by
    first = invoices.issue(teacher, group_reference(group), document="invoice", **BILLING)
    assert invoices.out_of_date(first) == ""
    events.withdraw_entry(teacher, group.entries.order_by("pk").last())
    assert "changed" in invoices.out_of_date(first)
    second = invoices.issue(teacher, group_reference(group), document="invoice", **BILLING)
    first.refresh_from_db()
    assert first.status == InvoiceStatus.REPLACED and first.replaced_by == second
    assert first.total == D("10.00") and len(first.lines) == 4  # the issued one is never changed
    assert second.total == D("8.00") and len(second.lines) == 3
    assert [first.sequence, second.sequence] == [1, 2]
    services.receive(reference=group_reference(group), amount="8.00", method=Method.PAYNOW)
    second.refresh_from_db()
    first.refresh_from_db()
    assert second.status == InvoiceStatus.PAID and first.status == InvoiceStatus.REPLACED


def test_a_part_paid_entry_is_invoiced_for_what_is_left():
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    services.receive(reference=entry_reference(entry), amount="1.00", method=Method.PAYNOW)
    invoice = invoices.issue(entry.player.user, entry_reference(entry), document="invoice", **BILLING)
    assert (invoice.total, invoice.paid_before, invoice.amount_due) == (D("3.00"), D("1.00"), D("2.00"))
    text = render_text(invoice_document(invoice))
    assert "Amount due: SGD 2.00" in text and "Paid already: SGD 1.00" in text


def test_the_organiser_may_invoice_and_see_it_a_stranger_may_not_see_it():
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    invoice = invoices.issue(event.owner, entry_reference(entry), document="invoice", **BILLING)
    invoices.assert_may_view(event.owner, invoice)
    invoices.assert_may_view(entry.player.user, invoice)
    with pytest.raises(NotAllowed):
        invoices.assert_may_view(player_with_account().user, invoice)


def test_money_for_a_group_whose_students_all_withdrew_is_held_and_settles_nothing():
    event, category, standard, passion = seed_event()
    group = a_group(event, category, standard, passion, count=2)
    teacher = group.submitted_by
    invoice = invoices.issue(teacher, group_reference(group), document="invoice", **BILLING)
    for entry in group.entries.all():
        events.withdraw_entry(teacher, entry)
    payment = services.receive(reference=group_reference(group), amount="5.00", method=Method.PAYNOW).payment
    invoice.refresh_from_db()
    assert payment.held == D("5.00") and invoice.status == InvoiceStatus.ISSUED
    assert "changed" in invoices.out_of_date(invoice)


def test_a_fee_let_off_after_the_invoice_says_nothing_is_left_to_pay_on_it():
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    invoice = invoices.issue(entry.player.user, entry_reference(entry), document="invoice", **BILLING)
    events.record_payment(event.owner, entry, method="waived", note="Helper at the desk")
    assert invoices.out_of_date(invoice) != ""


def test_a_payment_settling_an_invoice_is_received_from_the_billing_name_and_greets_whoever_asked(on_commit):
    from django.core import mail

    event, category, standard, passion = seed_event()
    payment_settings(event.association)
    teacher = UserFactory(first_name="Mei", last_name="Tan", email="teacher@example.org")
    group = a_group(event, category, standard, passion, count=2, teacher=teacher)
    invoices.issue(teacher, group_reference(group), document="invoice", **BILLING)
    mail.outbox = []
    with on_commit(execute=True):
        payment = services.receive(
            reference=group_reference(group), amount="5.00", method=Method.PAYNOW, payer_name="JURONG WEST SEC"
        ).payment
    text = render_text(receipt_document(payment))
    assert "Received from: Yuhua Secondary School" in text and "JURONG WEST SEC" not in text
    (email,) = mail.outbox
    assert email.body.startswith("Dear Mei Tan,")


def _local_today(event):
    return timezone.localtime(timezone.now(), event.zone).date()


def test_an_invoice_holds_its_places_until_its_pay_by_fourteen_days_on_and_they_do_not_lapse_before():
    from events import tasks
    from events.models import EntryStatus

    with time_machine.travel(timezone.now(), tick=False) as clock:
        event, category, standard, passion = seed_event(
            registration_closes_at=timezone.now() + timedelta(days=40), payment_hold_hours=72
        )
        group = a_group(event, category, standard, passion, count=2)
        today = _local_today(event)
        quotation = invoices.issue(group.submitted_by, group_reference(group), document="quotation", **BILLING)
        assert quotation.valid_until == today + timedelta(days=30)  # not the 72-hour hold
        invoice = invoices.issue(group.submitted_by, group_reference(group), document="invoice", **BILLING)
        assert invoice.pay_by == today + timedelta(days=14)
        assert f"Pay by: {today + timedelta(days=14):%d %B %Y}".replace(": 0", ": ") in render_text(
            invoice_document(invoice)
        )
        clock.shift(timedelta(days=13))
        assert tasks.lapse_unpaid_entries.delay().get() == 0
        assert set(group.entries.values_list("status", flat=True)) == {EntryStatus.PENDING_PAYMENT}
        clock.shift(timedelta(days=2))
        assert tasks.lapse_unpaid_entries.delay().get() == 2


def test_an_invoices_pay_by_is_never_after_registration_closes_and_never_shortens_a_longer_hold():
    event, category, standard, passion = seed_event(registration_closes_at=timezone.now() + timedelta(days=5))
    group = a_group(event, category, standard, passion, count=2)
    invoice = invoices.issue(group.submitted_by, group_reference(group), document="invoice", **BILLING)
    assert invoice.pay_by == timezone.localtime(event.registration_closes_at, event.zone).date()
    assert all(e.payment_due_at <= event.registration_closes_at for e in group.entries.all())
    long_hold, category, standard, _ = seed_event(
        registration_closes_at=timezone.now() + timedelta(days=60), payment_hold_hours=24 * 30
    )
    entry = entered(long_hold, category, standard)
    held = entry.payment_due_at
    invoice = invoices.issue(entry.player.user, entry_reference(entry), document="invoice", **BILLING)
    entry.refresh_from_db()
    assert entry.payment_due_at == held and invoice.pay_by == timezone.localtime(held, long_hold.zone).date()
