"""The seed event's fees (S$3 standard, S$2 with a Passion Card, both incl. GST) paid through every way there
is: PayNow (a bank statement line), a bank transfer and a payment at the desk recorded by the organiser, a
cheque with its number, and a card. Each entry is paid and confirmed and gets a receipt, numbered on from
the last one, that lists the standard fee and what was charged."""

from decimal import Decimal

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from events import services as events
from events.models import EntryStatus
from events.services.payments import entry_reference
from money import services
from money.models import Method, Payment, PaymentSettings
from tests.events.factories import fast_passwords  # noqa: F401
from tests.money.test_ledger import entered, seed_event

pytestmark = pytest.mark.django_db


def by_paynow(event, entry, amount, n):
    """As the statement import does: the bank line's id makes a second import of it count nothing."""
    line = f"DBS-{timezone.localdate():%Y%m%d}-{n:04d}"
    received = services.receive(
        reference=entry_reference(entry), amount=amount, method=Method.PAYNOW, external_id=line, payer_name="TAN A"
    )
    again = services.receive(reference=entry_reference(entry), amount=amount, method=Method.PAYNOW, external_id=line)
    assert again.duplicate and again.payment == received.payment
    return received.payment, {"external_id": line}


def by_bank_transfer(event, entry, amount, n):
    """The organiser matches a transfer by hand and records it."""
    row = events.record_payment(event.owner, entry, amount=amount, method="bank_transfer", reference=f"FAST{n}")
    return row.money_payment, {"payer_reference": f"FAST{n}", "recorded_by": event.owner}


def in_person(event, entry, amount, n):
    """Paid at the desk: the organiser records it from their phone through the API."""
    api = APIClient()
    api.force_authenticate(event.owner)
    response = api.post(
        f"/api/organiser/entries/{entry.pk}/record-payment/", {"amount": amount, "method": "in_person"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "confirmed" and response.json()["balance"] == "0.00"
    return entry.payments.get().money_payment, {"recorded_by": event.owner}


def by_cheque(event, entry, amount, n):
    number = f"{400100 + n}"
    row = events.record_payment(event.owner, entry, amount=amount, method="cheque", reference=number)
    assert row.reference == number
    return row.money_payment, {"payer_reference": number}


def by_card(event, entry, amount, n):
    """What the card provider's webhook records (the webhook itself is tested with the provider)."""
    session = f"cs_test_a1B2c3D4e5F6g7H8i9J0{n:02d}"
    reference = entry_reference(entry)
    received = services.receive(reference=reference, amount=amount, method=Method.CARD, external_id=session)
    again = services.receive(reference=reference, amount=amount, method=Method.CARD, external_id=session)
    assert again.duplicate
    return received.payment, {"external_id": session}


WAYS = {
    Method.PAYNOW: by_paynow,
    Method.BANK_TRANSFER: by_bank_transfer,
    Method.IN_PERSON: in_person,
    Method.CHEQUE: by_cheque,
    Method.CARD: by_card,
}


@pytest.fixture
def seed():
    event, category, standard, passion = seed_event()
    PaymentSettings.objects.create(
        association=event.association, receipt_prefix="SSA", paynow_proxy="S88SS0001A", paynow_name="SSA"
    )
    return event, category, standard, passion


def pay_and_check(method, event, entry, amount, n):
    """Pays `entry` the way `method` names; checks it is confirmed and its receipt; the receipt's sequence."""
    payment, expected = WAYS[method](event, entry, amount, n)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED and entry.balance == 0
    assert entry.amount_paid == Decimal(amount)
    assert payment.method == method and payment.amount == Decimal(amount) and payment.applied == Decimal(amount)
    assert payment.held == 0 and payment.reference == entry_reference(entry) and payment.event_id == event.pk
    assert payment.number == f"SSA-{payment.year}-{payment.sequence:05d}"
    for name, value in expected.items():
        assert getattr(payment, name) == value, name
    [line] = payment.lines
    assert line["standard"] == "3.00" and line["amount"] == amount and line["taxed"] is True
    if amount == "2.00":
        assert line["note"] == "Passion Card holder concession, incl. GST"
    else:
        assert line["note"] == "incl. GST"
    # The entrant reads the payment and its receipt's address.
    api = APIClient()
    api.force_authenticate(entry.player.user)
    [row] = api.get("/api/money/payments/", {"reference": entry_reference(entry)}).json()["results"]
    assert row["number"] == payment.number and row["receipt_url"] == f"/money/receipts/{payment.number}/"
    assert (row["lines"][0]["standard"], row["lines"][0]["amount"]) == ("3.00", amount)
    return payment.sequence


@pytest.mark.parametrize("method", list(WAYS))
def test_both_seed_fees_are_paid_this_way_with_consecutive_receipts(seed, method):
    event, category, standard, passion = seed
    full = entered(event, category, standard)
    concession = entered(event, category, passion, concession_proof="PC-1234")
    assert (full.amount_due, concession.amount_due) == (Decimal("3.00"), Decimal("2.00"))
    sequences = [
        pay_and_check(method, event, full, "3.00", 1),
        pay_and_check(method, event, concession, "2.00", 2),
    ]
    assert sequences == [1, 2]


def test_every_way_in_one_event_numbers_the_receipts_one_to_ten(seed):
    event, category, standard, passion = seed
    sequences = []
    for n, method in enumerate(WAYS):
        full = entered(event, category, standard)
        concession = entered(event, category, passion, concession_proof=f"PC-{n}")
        sequences.append(pay_and_check(method, event, full, "3.00", 2 * n))
        sequences.append(pay_and_check(method, event, concession, "2.00", 2 * n + 1))
    assert sequences == list(range(1, 11))
    assert sorted(Payment.objects.values_list("method", flat=True)) == sorted([m.value for m in WAYS] * 2)
    assert sum(Payment.objects.values_list("amount", flat=True)) == Decimal("25.00")
    assert event.entries.filter(status=EntryStatus.CONFIRMED).count() == 10
