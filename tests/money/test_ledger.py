"""Money received and given back through money.services, whatever the way: receipts numbered without gaps,
a provider's id counted once, money for a lapsed entry held, refunds with credit notes, one reference for a
group, and renewals paid the same way."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core import mail

from clubsite.kit.errors import NotAllowed
from events import services as events
from events.models import Entry, EntryStatus, GroupEntry
from events.services.payments import entry_reference, group_reference
from money import services
from money.models import Method, MoneyLog, Payment
from players.models import RenewalStatus
from players.services import renewal_reference, request_renewal
from tests.events.factories import (
    CategoryFactory,
    EventFactory,
    FeeFactory,
    fast_passwords,  # noqa: F401
    player_with_account,
)
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def seed_event(quota=40, **fields):
    """Seed 004's fees: S$3 standard, S$2 with a Passion Card; paid every way the site knows."""
    event = EventFactory(**{"payment_methods": ["paynow", "bank_transfer", "card", "in_person", "cheque"], **fields})
    category = CategoryFactory(event=event, name="Secondary", quota=quota)
    standard = FeeFactory(category=category, name="Standard", amount=Decimal("3.00"), note="incl. GST")
    passion = FeeFactory(
        category=category,
        name="Passion Card holder",
        amount=Decimal("2.00"),
        is_concession=True,
        proof_label="Passion Card number",
        note="incl. GST",
    )
    return event, category, standard, passion


def entered(event, category, fee, **extra):
    player = player_with_account()
    return events.register_entry(player.user, event, category=category, fee=fee, **extra)


def test_a_payment_by_reference_pays_the_entry_confirms_it_and_issues_receipt_one(on_commit):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    assert entry.status == EntryStatus.PENDING_PAYMENT
    mail.outbox = []
    with on_commit(execute=True):
        received = services.receive(
            reference=entry_reference(entry).lower(), amount="3.00", method=Method.PAYNOW, external_id="bank-1"
        )
    entry.refresh_from_db()
    payment = received.payment
    assert entry.status == EntryStatus.CONFIRMED and entry.amount_paid == Decimal("3.00")
    assert payment.number.endswith(f"-{payment.year}-00001") and payment.applied == Decimal("3.00")
    assert payment.held == 0 and payment.event_id == event.pk
    assert payment.lines[0]["standard"] == "3.00" and payment.lines[0]["taxed"] is True
    assert [m.subject for m in mail.outbox] == [
        f"[Scrabble Association] Receipt {payment.number} – {payment.description}"
    ]
    assert f"/money/receipts/{payment.number}/" in mail.outbox[0].body
    assert MoneyLog.objects.get(payment=payment).action == "received"


def test_receipt_numbers_follow_on_without_gaps_and_a_refused_payment_takes_none():
    event, category, standard, passion = seed_event()
    first, second = entered(event, category, standard), entered(event, category, passion, concession_proof="P1")
    a = services.receive(reference=entry_reference(first), amount="3.00", method=Method.PAYNOW).payment
    with pytest.raises(services.MoneyError):
        services.receive(reference=entry_reference(second), amount="-2", method=Method.PAYNOW)
    with pytest.raises(NotAllowed):
        services.receive(
            reference=entry_reference(second), amount="2.00", method=Method.CHEQUE, payer_reference="1",
            actor=UserFactory(), by_hand=True,
        )  # fmt: skip
    b = services.receive(reference=entry_reference(second), amount="2.00", method=Method.PAYNOW).payment
    assert (a.sequence, b.sequence) == (1, 2)


def test_the_same_provider_id_counts_once():
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    first = services.receive(
        reference=entry_reference(entry), amount="1.00", method=Method.BANK_TRANSFER, external_id="x"
    )
    again = services.receive(
        reference=entry_reference(entry), amount="1.00", method=Method.BANK_TRANSFER, external_id="x"
    )
    entry.refresh_from_db()
    assert again.duplicate and again.payment == first.payment
    assert entry.amount_paid == Decimal("1.00") and Payment.objects.count() == 1


def test_money_for_a_lapsed_entry_is_kept_and_held_then_reinstated(time_machine):
    event, category, standard, _ = seed_event(quota=1)
    entry = entered(event, category, standard)
    Entry.objects.filter(pk=entry.pk).update(payment_due_at=entry.accepted_at + timedelta(hours=1))
    time_machine.move_to(entry.accepted_at + timedelta(hours=2))
    received = services.receive(reference=entry_reference(entry), amount="3.00", method=Method.PAYNOW)
    entry.refresh_from_db()
    payment = received.payment
    assert entry.status == EntryStatus.LAPSED and entry.amount_paid == 0
    assert payment.held == Decimal("3.00") and payment.applied == 0
    services.reinstate(event.owner, payment)
    entry.refresh_from_db()
    payment.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED and payment.held == 0 and entry.amount_paid == Decimal("3.00")


def test_more_than_due_is_applied_up_to_the_balance_and_the_rest_held():
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    payment = services.receive(reference=entry_reference(entry), amount="5.00", method=Method.PAYNOW).payment
    assert payment.applied == Decimal("3.00") and payment.held == Decimal("2.00")


def test_half_refund_issues_a_credit_note_and_lowers_what_is_charged(on_commit):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    payment = services.receive(reference=entry_reference(entry), amount="3.00", method=Method.PAYNOW).payment
    with pytest.raises(NotAllowed):
        services.refund(entry.player.user, payment, amount="1.50", reason="Withdrew")
    with pytest.raises(services.MoneyError, match="At most SGD 3.00"):
        services.refund(event.owner, payment, amount="4.00", reason="Too much")
    # What the credit note's reason column cannot hold is refused by name, never left to the database.
    for reason, said in (("a\x00b", "holds a NUL character"), ("x" * 301, "at most 300 characters long")):
        with pytest.raises(services.MoneyError, match=said) as refusal:
            services.refund(event.owner, payment, amount="1.00", reason=reason)
        assert refusal.value.field == "reason"
    mail.outbox = []
    with on_commit(execute=True):
        credit = services.refund(event.owner, payment, amount="1.50", reason="Withdrew a week before")
    entry.refresh_from_db()
    payment.refresh_from_db()
    assert credit.number.startswith(payment.number.split("-")[0] + "-CN-") and credit.sequence == 1
    assert payment.refunded == Decimal("1.50") and payment.applied == Decimal("1.50")
    assert entry.amount_paid == Decimal("1.50") and entry.amount_due == Decimal("1.50") and entry.balance == 0
    assert entry.status == EntryStatus.CONFIRMED
    assert mail.outbox[0].subject == f"[Scrabble Association] Credit note {credit.number} – {payment.description}"


def test_one_group_payment_settles_every_entry_and_a_part_payment_shows_student_by_student():
    event, category, standard, passion = seed_event()
    teacher = UserFactory()
    students = [
        {"full_name": f"Student {i}", "category": category, "fee": passion if i % 2 else standard,
         "concession_proof": f"P{i}" if i % 2 else "", "date_of_birth": date(2010, 1, 1)}
        for i in range(15)
    ]  # fmt: skip
    group = events.register_group(
        teacher, event, accept_rules=True,
        contact={"role": GroupEntry.Role.TEACHER, "contact_name": "Mrs Tan", "school": "Yuhua", "address": "1 Road",
                 "phone": "61234567", "email": "teacher@example.org"},
        students=students,
    )  # fmt: skip
    kind, due = services.due_or_error(group_reference(group))
    assert due.total == Decimal("38.00") and len(due.lines) == 15 and due.payer_email == "teacher@example.org"
    part = services.receive(reference=group_reference(group), amount="10.00", method=Method.PAYNOW).payment
    _, due = services.due_or_error(group_reference(group))
    assert [line.paid for line in due.lines[:5]] == [
        Decimal("3.00"),
        Decimal("2.00"),
        Decimal("3.00"),
        Decimal("2.00"),
        0,
    ]
    assert due.balance == Decimal("28.00") and part.applied == Decimal("10.00")
    services.receive(reference=group_reference(group), amount="28.00", method=Method.BANK_TRANSFER, external_id="l2")
    assert set(group.entries.values_list("status", flat=True)) == {EntryStatus.CONFIRMED}
    assert kind.may_view(teacher, group.pk) and not kind.may_view(UserFactory(), group.pk)


def test_a_renewal_is_paid_the_same_way_and_extends_the_membership():
    player = player_with_account()
    MembershipFactory(player=player, fee=Decimal("20.00"))
    renewal = request_renewal(player.user, player)
    payment = services.receive(reference=renewal_reference(renewal), amount="20.00", method=Method.PAYNOW).payment
    renewal.refresh_from_db()
    assert renewal.status == RenewalStatus.PAID and renewal.membership is not None
    assert payment.description.startswith("Ordinary membership renewal")
    services.assert_may_view(player.user, payment)
    with pytest.raises(NotAllowed):
        services.assert_may_view(UserFactory(), payment)


def test_an_unknown_or_mistyped_reference_is_refused_by_name():
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    good = entry_reference(entry)
    # Swap the last two adjacent characters that differ (the last digit may equal the check character, and
    # swapping those would give the reference itself back).
    i = next(i for i in range(len(good) - 2, 0, -1) if good[i] != good[i + 1])
    typo = good[:i] + good[i + 1] + good[i] + good[i + 2 :]
    assert typo != good
    with pytest.raises(services.MoneyError, match="No amount due has the reference") as refused:
        services.receive(reference=typo, amount="3.00", method=Method.PAYNOW)
    assert refused.value.field == "reference"
