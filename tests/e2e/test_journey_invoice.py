"""A school's quotation and invoice in a browser: a teacher enters a class of fifteen (answering the organiser's
emergency-contact question for each student in the pasted class list), asks from the group's page
for a quotation addressed to the school with its purchase-order number, then for an invoice, pays it by PayNow
(the treasurer confirms the transfer from the bank statement), and the invoice shows as paid, its receipt
carrying the billing details."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from events.models import Answer, GroupEntry
from events.services.payments import group_reference
from events.services.questions import save_question
from money.models import BillingDocument, Invoice, InvoiceStatus, Payment
from tests.e2e.conftest import PHONE, log_in
from tests.e2e.test_accessibility import AXE, violations
from tests.e2e.test_journey_money import DESKTOP, class_list, line_row, paynow_fields, pdf_text, seed_event, treasurer
from tests.e2e.test_journey_money import upload_statement as read_statement

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCHOOL = "Yuhua Primary School"
ADDRESS = "3 Jurong West Street 91\nSingapore 649037"
PO = "PO-2026-0415"


def no_violations(page):
    if AXE.exists():
        assert violations(page) == []


def ask(page, document_label: str):
    """Fills the quotation-or-invoice form as the school's bursar asked: its name, address and PO number."""
    page.get_by_label(document_label).check()
    page.fill("#id_billing_name", SCHOOL)
    page.fill("#id_billing_address", ADDRESS)
    page.fill("#id_po_number", PO)


def test_a_teacher_gets_a_quotation_then_an_invoice_and_pays_it_by_paynow(journey, member):
    organiser, _ = member("Oliver Organiser", organiser=True, player=False)
    event = seed_event(organiser)
    save_question(organiser, event, kind="short", label="Emergency contact", required=True)
    teacher, _ = member("Tan Mei Ling", email="tan@example.org", player=False)
    staff = treasurer(member)
    today = timezone.localdate()

    # The teacher enters the class of fifteen, on a phone.
    j = journey("money-invoice", viewport=PHONE)
    page = log_in(j.page, j.base_url, teacher.email, next_path=f"/events/{event.slug}/enter-group/")
    page.fill("#id_school", "Yuhua Primary")
    page.fill("#id_address", "Yuhua Primary School, Jurong West")
    page.fill("#id_phone", "6123 4567")
    rows = class_list(event.starts_on.year, 15).split("\n")
    rows = [rows[0] + "\tEmergency contact"] + [f"{row}\tParent {n} 9000 {n:04d}" for n, row in enumerate(rows[1:], 1)]
    page.fill("#id_class_list", "\n".join(rows))
    page.check("#id_accept_rules")
    page.get_by_role("button", name="Enter these students").click()
    page.wait_for_url(re.compile(r"/events/groups/\d+/$"))
    group = GroupEntry.objects.get()
    assert Answer.objects.filter(entry__group=group).count() == 15
    reference = group_reference(group)
    group_url = page.url
    expect(page.locator("#group-total")).to_have_text("S$45.00", use_inner_text=True)

    # A quotation for the school's purchase approval, with its PO number.
    page.locator("#group-ask-invoice").click()
    page.wait_for_url(re.compile(rf"/money/pay/{reference}/quotation-or-invoice/$"))
    expect(page.locator("#ask-owed")).to_have_text("S$45.00", use_inner_text=True)
    ask(page, "A quotation: what it will cost, to get a purchase approved")
    j.shot("asking for a quotation")
    no_violations(page)
    page.get_by_role("button", name="Issue it").click()
    quotation = Invoice.objects.get(document=BillingDocument.QUOTATION)
    page.wait_for_url(re.compile(rf"/money/invoices/{quotation.number}/$"))
    document = page.locator(".money-document")
    expect(document.get_by_role("heading", name="Quotation")).to_be_visible()
    expect(document.get_by_text(f"Purchase order: {PO}")).to_be_visible()
    expect(document.get_by_text(SCHOOL)).to_be_visible()
    expect(document.get_by_text("Amount due: SGD 45.00")).to_be_visible()
    expect(document.locator("tbody tr")).to_have_count(15)
    expect(page.locator("#document-standing")).to_contain_text("nothing to pay against it")
    j.shot("the quotation")
    no_violations(page)
    with page.expect_download() as download:
        page.get_by_role("link", name="Download PDF").click()
    text = pdf_text(open(download.value.path(), "rb").read())
    assert "Quotation" in text and quotation.number in text and PO in text and "Valid until" in text

    # Approved: now the invoice, the school's details offered again.
    page.get_by_role("link", name="The payment page").click()
    page.wait_for_url(re.compile(rf"/money/pay/{reference}/$"))
    expect(page.locator("#billing-documents").get_by_role("link", name=f"Quotation {quotation.number}")).to_be_visible()
    page.locator("#ask-invoice").click()
    expect(page.locator("#id_po_number")).to_have_value(PO)
    expect(page.locator("#id_billing_name")).to_have_value(SCHOOL)
    page.get_by_label("An invoice: to pay against").check()
    page.get_by_role("button", name="Issue it").click()
    invoice = Invoice.objects.get(document=BillingDocument.INVOICE)
    page.wait_for_url(re.compile(rf"/money/invoices/{invoice.number}/$"))
    expect(page.locator(".money-document").get_by_role("heading", name="Invoice")).to_be_visible()
    expect(page.locator(".money-document").get_by_text(f"Pay quoting the reference: {reference}")).to_be_visible()
    expect(page.locator("#document-standing")).to_contain_text(f"Not yet paid: pay quoting {reference}")
    j.shot("the invoice")
    no_violations(page)

    # Paid by PayNow: the QR carries the invoice's amount and the reference.
    page.get_by_role("link", name="The payment page").click()
    page.wait_for_url(re.compile(rf"/money/pay/{reference}/$"))
    fields = paynow_fields(page)
    assert fields["54"] == "45.00" and fields["62"]["01"] == reference
    expect(page.locator("#billing-documents tbody tr").first).to_contain_text("Issued")
    j.shot("paying the invoice by paynow")

    # The treasurer confirms the transfer from the bank statement.
    office = j.new_page(viewport=DESKTOP)
    log_in(office, j.base_url, staff.email)
    read_statement(office, j.base_url, "april.csv", [f"{today.isoformat()},45.00,PAYNOW FROM YUHUA PRI {reference}"])
    expect(line_row(office, 2).get_by_text("paid in full", exact=True)).to_be_visible()
    office.get_by_role("button", name="Confirm and record 1 payment").click()
    expect(office.get_by_text("The statement is imported: 1 payment recorded.")).to_be_visible()
    payment = Payment.objects.get()
    invoice.refresh_from_db()
    assert invoice.status == InvoiceStatus.PAID and payment.invoice_id == invoice.pk

    # The invoice shows as paid, with its receipt; the receipt carries the billing details and the invoice.
    page.goto(f"{j.base_url}/money/invoices/{invoice.number}/")
    expect(page.locator("#document-standing")).to_contain_text("Paid: settled on")
    j.shot("the invoice paid")
    page.locator("#document-standing").get_by_role("link", name=payment.number).click()
    page.wait_for_url(re.compile(rf"/money/receipts/{payment.number}/$"))
    receipt = page.locator(".money-document")
    expect(receipt.get_by_text(f"For invoice {invoice.number}")).to_be_visible()
    expect(receipt.get_by_text(f"Billed to: {SCHOOL}")).to_be_visible()
    expect(receipt.get_by_text(f"Purchase order: {PO}")).to_be_visible()
    j.shot("the receipt with the billing details")
    page.goto(group_url)
    expect(page.locator("#group-balance")).to_have_text("S$0.00", use_inner_text=True)

    # The treasurer's page: invoiced, paid, nothing outstanding.
    office.goto(f"{j.base_url}/money/treasurer/?start=&end=")
    expect(office.locator("#invoice-totals")).to_contain_text("S$45.00 invoiced, S$45.00 paid, S$0.00 outstanding")
    j.shot("the treasurer's invoices", office)
    no_violations(office)
