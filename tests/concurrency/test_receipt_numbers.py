"""Receipt numbers have no gaps and no duplicates when payments arrive at once (PostgreSQL, real threads, each
with its own connection): payments for entries in different events of one association (so only the
receipt counter is shared) get 1..N, and a payment that fails after taking its number gives it back."""

import threading
import time
from decimal import Decimal

import pytest
from django.db import connection
from django.utils import timezone

from clubsite.kit.models import Counter
from events.models import Entry, EntryStatus
from events.payables import ENTRY
from events.services.payments import entry_reference
from money import services
from money.models import Method, Payment, PaymentSettings
from tests.events.factories import fast_passwords  # noqa: F401
from tests.money.test_ledger import entered, seed_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

EVENTS, PER_EVENT = 4, 4  # 16 entries: 15 paid at once, one whose payment fails after taking its number


@pytest.fixture
def entries(postgres):
    """Entries at S$3 and S$2 in four events of one association, its payment settings set up."""
    made = []
    for _ in range(EVENTS):
        event, category, standard, passion = seed_event()
        for i in range(PER_EVENT):
            fee = passion if i % 2 else standard
            made.append(entered(event, category, fee, concession_proof="PC" if i % 2 else ""))
    PaymentSettings.objects.get_or_create(association=made[0].event.association, defaults={"receipt_prefix": "SSA"})
    return made


def fire(calls) -> tuple[list[Payment], list[Exception]]:
    """Runs each call in a thread of its own, released together; the payments made and the errors raised."""
    start = threading.Barrier(len(calls))
    made: list[Payment] = []
    errors: list[Exception] = []
    lock = threading.Lock()

    def run(call):
        try:
            start.wait(timeout=30)
            payment = call()
            with lock:
                made.append(payment)
        except Exception as error:  # collected and asserted on below
            with lock:
                errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    return made, errors


def pay(entry: Entry, n: int):
    def call():
        amount = entry.amount_due
        return services.receive(
            reference=entry_reference(entry), amount=amount, method=Method.PAYNOW, external_id=f"line-{n}", notify=False
        ).payment

    return call


def test_payments_at_once_get_receipts_one_to_n_and_a_failed_one_leaves_no_gap(entries, monkeypatch):
    *paid, doomed = entries
    refused = entered(*seed_event()[:3])  # the organiser types too much at the desk
    taken_by_doomed: list[int] = []
    apply = ENTRY.apply

    def failing_apply(target_id, payment, amount, actor):
        if target_id == doomed.pk:  # fails after its receipt number was taken, holding it a moment
            taken_by_doomed.append(payment.sequence)
            time.sleep(0.2)
            raise services.MoneyError("The bank reversed this transfer.", field="amount")
        return apply(target_id, payment, amount, actor)

    monkeypatch.setattr(ENTRY, "apply", failing_apply)

    def refuse():
        return services.receive(
            reference=entry_reference(refused), amount="30.00", method=Method.IN_PERSON,
            actor=refused.event.owner, by_hand=True, notify=False,
        ).payment  # fmt: skip

    calls = [pay(entry, n) for n, entry in enumerate(paid)] + [pay(doomed, 99), refuse]
    made, errors = fire(calls)

    assert sorted(str(e) for e in errors) == [
        "That is more than the 3.00 still due.",  # refused before taking a number
        "The bank reversed this transfer.",  # rolled back after taking one
    ]
    assert all(isinstance(e, services.MoneyError) for e in errors)
    assert len(taken_by_doomed) == 1 and 1 <= taken_by_doomed[0] <= len(paid) + 1
    n = len(paid)
    assert len(made) == n
    year = timezone.localdate().year
    rows = list(Payment.objects.order_by("sequence").values_list("sequence", "number"))
    assert [sequence for sequence, _ in rows] == list(range(1, n + 1))  # no gap, no duplicate
    assert [number for _, number in rows] == [f"SSA-{year}-{i:05d}" for i in range(1, n + 1)]
    assert Counter.objects.get(name__startswith="money:receipt:").value == n
    assert Entry.objects.filter(pk__in=[e.pk for e in paid], status=EntryStatus.CONFIRMED).count() == n
    doomed.refresh_from_db()
    assert doomed.status == EntryStatus.PENDING_PAYMENT and doomed.amount_paid == 0
    assert not Payment.objects.filter(target_id=doomed.pk).exists()
    assert sum(p.amount for p in made) == sum(e.amount_due for e in paid) == Decimal("38.00")  # 8 at S$3, 7 at S$2
