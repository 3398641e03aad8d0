"""Invoice and quotation numbers have no gaps and no duplicates when they are asked for at once (PostgreSQL, real
threads, each with its own connection): entrants of different events of one association (so only the series'
counter is shared) get invoices 1..N, an invoice that fails after taking its number gives it back, quotations
keep their own series, and two invoices asked for one entry at once leave one open and the other replaced."""

import pytest
from django.db import connection
from django.utils import timezone

from clubsite.kit.models import Counter
from events.services.payments import entry_reference
from money.models import BillingDocument, Invoice, InvoiceStatus, PaymentSettings
from money.services import invoices
from tests.concurrency.test_receipt_numbers import fire
from tests.events.factories import fast_passwords  # noqa: F401
from tests.money.test_ledger import entered, seed_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

BILLING = {"billing_name": "Yuhua Secondary School", "billing_address": "1 School Road"}


@pytest.fixture
def entries(postgres):
    made = []
    for _ in range(4):
        event, category, standard, passion = seed_event()
        made += [entered(event, category, standard) for _ in range(3)]
    PaymentSettings.objects.get_or_create(association=made[0].event.association, defaults={"receipt_prefix": "SSA"})
    return made


def ask(entry, document: str = "invoice"):
    def call():
        return invoices.issue(entry.player.user, entry_reference(entry), document=document, **BILLING)

    return call


def test_invoices_asked_at_once_are_numbered_one_to_n_and_a_failed_one_leaves_no_gap(entries, monkeypatch):
    *asked, doomed = entries
    snapshot = invoices.snapshot_lines

    def failing_snapshot(lines):  # fails after the number was taken
        if any(doomed.player.full_name in line.description for line in lines):
            raise invoices.MoneyError("The billing system is down.")
        return snapshot(lines)

    monkeypatch.setattr(invoices, "snapshot_lines", failing_snapshot)
    calls = [ask(entry) for entry in asked] + [ask(doomed)] + [ask(entry, "quotation") for entry in asked[:4]]
    made, errors = fire(calls)
    connection.close()

    assert [str(e) for e in errors] == ["The billing system is down."]
    year = timezone.localdate().year
    for document, count, middle in ((BillingDocument.INVOICE, len(asked), "INV"), (BillingDocument.QUOTATION, 4, "Q")):
        rows = list(Invoice.objects.filter(document=document).order_by("sequence").values_list("sequence", "number"))
        assert [sequence for sequence, _ in rows] == list(range(1, count + 1))  # no gap, no duplicate
        assert [number for _, number in rows] == [f"SSA-{middle}-{year}-{i:05d}" for i in range(1, count + 1)]
        assert Counter.objects.get(name__startswith=f"money:{document}:").value == count
    assert not Invoice.objects.filter(target_id=doomed.pk).exists()


def test_two_invoices_for_one_entry_at_once_leave_one_open(entries):
    entry = entries[0]
    made, errors = fire([ask(entry), ask(entry)])
    connection.close()
    assert errors == [] and len(made) == 2
    statuses = sorted(Invoice.objects.filter(target_id=entry.pk).values_list("status", flat=True))
    assert statuses == [InvoiceStatus.ISSUED, InvoiceStatus.REPLACED]
    assert sorted(Invoice.objects.values_list("sequence", flat=True)) == [1, 2]
