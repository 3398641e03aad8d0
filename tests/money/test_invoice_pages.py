"""The pages of quotations and invoices: a teacher asks from the group's page, the document's page and PDF show
the billing details (for its payer, the event's organiser and staff only), a refusal is shown on the form, the
payment page lists each document with where it stands, and the organiser's and the treasurer's pages and CSV
show what was invoiced, paid and outstanding."""

import csv
import io
from decimal import Decimal

import pytest
from django.urls import reverse
from pypdf import PdfReader

from events.services.payments import entry_reference, group_reference
from money import services
from money.models import Invoice, InvoiceStatus, Method
from money.services import invoices, reports
from tests.events.factories import fast_passwords, player_with_account  # noqa: F401
from tests.factories import UserFactory
from tests.money.test_documents_service import payment_settings
from tests.money.test_invoices import BILLING, a_group
from tests.money.test_ledger import entered, seed_event

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def group():
    event, category, standard, passion = seed_event()
    payment_settings(event.association)
    return a_group(event, category, standard, passion, count=3)


def test_a_teacher_asks_for_an_invoice_from_the_group_page_and_sees_it(client, group):
    client.force_login(group.submitted_by)
    page = client.get(reverse("events:group_entry", args=[group.pk])).content.decode()
    ask = reverse("money:ask_invoice", args=[group_reference(group)])
    assert ask in page
    form = client.get(ask).content.decode()
    assert 'value="Yuhua"' in form and ">\n1 Road</textarea>" in form  # the group's school and its address
    answer = client.post(ask, {"document": "invoice", "po_number": "PO-9", **BILLING}, follow=True)
    invoice = Invoice.objects.get()
    assert answer.redirect_chain[-1][0] == reverse("money:invoice", args=[invoice.number])
    text = answer.content.decode()
    assert "Bill to" in text and "Yuhua Secondary School" in text and "Purchase order: PO-9" in text
    assert "Not yet paid" in text
    pdf = client.get(reverse("money:invoice_pdf", args=[invoice.number]))
    assert "no-store" in pdf["Cache-Control"]
    assert invoice.number in PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    pay = client.get(reverse("money:pay", args=[group_reference(group)])).content.decode()
    assert invoice.number in pay and "Issued" in pay
    # Asked again: the last billing details are offered again.
    assert 'value="PO-9"' in client.get(ask).content.decode()


def test_bad_billing_details_are_shown_on_the_form_and_nothing_is_issued(client, group):
    client.force_login(group.submitted_by)
    ask = reverse("money:ask_invoice", args=[group_reference(group)])
    answer = client.post(ask, {"document": "invoice", "billing_name": "Yuhua", "billing_address": "a\x00b"})
    assert answer.status_code == 200 and answer.context["form"].errors["billing_address"]
    assert not Invoice.objects.exists()


def test_someone_else_cannot_ask_or_see(client, group):
    invoice = invoices.issue(group.submitted_by, group_reference(group), document="invoice", **BILLING)
    client.force_login(player_with_account().user)
    ask = reverse("money:ask_invoice", args=[group_reference(group)])
    assert client.get(ask).status_code == 404
    assert client.post(ask, {"document": "invoice", **BILLING}).status_code == 404
    assert client.get(reverse("money:invoice", args=[invoice.number])).status_code == 403
    assert not Invoice.objects.exclude(pk=invoice.pk).exists()


def test_a_paid_invoice_shows_as_paid_with_its_receipt(client, group):
    invoice = invoices.issue(group.submitted_by, group_reference(group), document="invoice", **BILLING)
    payment = services.receive(reference=group_reference(group), amount="8.00", method=Method.PAYNOW).payment
    client.force_login(group.submitted_by)
    page = client.get(reverse("money:invoice", args=[invoice.number])).content.decode()
    assert "Paid: settled on" in page and payment.number in page
    receipt = client.get(reverse("money:receipt", args=[payment.number])).content.decode()
    assert f"For invoice {invoice.number}" in receipt and "Billed to: Yuhua Secondary School" in receipt


def test_the_treasurer_sees_invoiced_paid_and_outstanding_on_the_page_and_in_the_csv(client, group):
    event = group.event
    paid = invoices.issue(group.submitted_by, group_reference(group), document="invoice", po_number="PO-7", **BILLING)
    services.receive(reference=group_reference(group), amount="8.00", method=Method.PAYNOW)
    entry = entered(event, group.entries.first().category, group.entries.first().fee)
    open_one = invoices.issue(entry.player.user, entry_reference(entry), document="invoice", **BILLING)
    services.receive(reference=entry_reference(entry), amount="1.00", method=Method.PAYNOW)
    invoices.issue(entry.player.user, entry_reference(entry), document="quotation", **BILLING)  # counts nothing
    totals = reports.invoice_totals(reports.Filters())
    assert totals == {"count": 2, "invoiced": D("11.00"), "paid": D("9.00"), "outstanding": D("2.00")}
    client.force_login(UserFactory(is_staff=True))
    page = client.get(reverse("money:treasurer"), {"start": "", "end": ""}).content.decode()
    assert paid.number in page and open_one.number in page and "outstanding" in page
    rows = list(csv.DictReader(io.StringIO(client.get(reverse("money:treasurer_csv")).content.decode())))
    by_number = {row["Document number"]: row for row in rows}
    assert by_number[paid.number]["Kind"] == "invoice" and by_number[paid.number]["Invoice"] == "Paid"
    assert by_number[open_one.number]["Invoice outstanding"] == "2.00"
    assert "PO-7" in by_number[paid.number]["Description"]
    receipts = [row for row in rows if row["Kind"] == "receipt"]
    assert {row["Invoice"] for row in receipts} == {paid.number, open_one.number}
    # The organiser sees the event's invoices on its money page.
    client.force_login(event.owner)
    money = client.get(reverse("money:event_money", args=[event.slug])).content.decode()
    assert paid.number in money and open_one.number in money
    assert InvoiceStatus.PAID.label in money


def test_an_entrant_finds_the_quotation_or_invoice_link_beside_pay_now(client):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    client.force_login(entry.player.user)
    page = client.get(reverse("events:my_entries")).content.decode()
    assert reverse("money:ask_invoice", args=[entry_reference(entry)]) in page
    services.receive(reference=entry_reference(entry), amount="3.00", method=Method.PAYNOW)
    page = client.get(reverse("events:my_entries")).content.decode()
    assert reverse("money:ask_invoice", args=[entry_reference(entry)]) not in page  # paid: nothing to invoice


def test_a_quotation_says_what_it_will_cost_and_a_discount_sits_under_less(client, group):
    quotation = invoices.issue(group.submitted_by, group_reference(group), document="quotation", **BILLING)
    client.force_login(group.submitted_by)
    page = client.get(reverse("money:invoice", args=[quotation.number])).content.decode()
    assert "What it will cost" in page and "What was charged" not in page
    assert "Less (SGD)" in page and "Concession (SGD)" not in page


def test_a_purchase_order_number_is_not_prefixed_twice(client, group):
    invoices.issue(group.submitted_by, group_reference(group), document="invoice", po_number="PO-2026-0457", **BILLING)
    client.force_login(group.submitted_by)
    page = client.get(reverse("money:pay", args=[group_reference(group)])).content.decode()
    assert "PO-2026-0457" in page and "PO PO-" not in page
    invoices.issue(group.submitted_by, group_reference(group), document="quotation", po_number="457", **BILLING)
    assert "PO 457" in client.get(reverse("money:pay", args=[group_reference(group)])).content.decode()


def test_a_group_with_every_entry_withdrawn_has_nothing_to_quote(client, group):
    from events import services as events

    for entry in group.entries.all():
        events.withdraw_entry(group.submitted_by, entry)
    client.force_login(group.submitted_by)
    ask = reverse("money:ask_invoice", args=[group_reference(group)])
    page = client.get(ask).content.decode()
    assert "Nothing to quote" in page and 'name="billing_name"' not in page
    answer = client.post(ask, {"document": "quotation", **BILLING})
    assert answer.status_code == 200 and "Nothing to quote" in answer.content.decode()
    assert not Invoice.objects.exists()
