"""A paid entry withdrawn (issue 23, defect 8): the entrant and the organiser are told, and what it had paid is held
on the event's money page as the refund due, under the event's refund policy. A withdrawal undone (defect 35): the
organiser reinstates it while its place is still free, and the money it had paid counts for it again."""

from datetime import date
from decimal import Decimal

import pytest
from django.core import mail
from django.urls import reverse

from events import services as events
from events.models import Entry, EntryStatus
from events.services.payments import entry_reference, group_reference
from money import services
from money.models import Method, Payment
from tests.events.factories import fast_passwords, player_with_account  # noqa: F401
from tests.money.test_ledger import entered, seed_event

pytestmark = pytest.mark.django_db

POLICY = "Fees are not refunded after the closing date, except when the organisers cancel the event."


@pytest.fixture
def paid(on_commit):
    event, category, standard, _ = seed_event(quota=1, refund_policy=POLICY)
    entry = entered(event, category, standard)
    with on_commit(execute=True):
        payment = services.receive(reference=entry_reference(entry), amount="3.00", method=Method.PAYNOW).payment
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED
    mail.outbox = []
    return event, entry, payment


def withdraw_on_the_page(client, entry, on_commit):
    client.force_login(entry.player.user)
    with on_commit(execute=True):
        answer = client.post(reverse("events:withdraw", args=[entry.pk]))
    assert answer.status_code == 302
    entry.refresh_from_db()


def test_withdrawing_a_paid_entry_tells_both_and_shows_the_refund_due(client, paid, on_commit):
    event, entry, payment = paid
    withdraw_on_the_page(client, entry, on_commit)
    assert entry.status == EntryStatus.WITHDRAWN and entry.amount_paid == 0 and entry.owed == 0
    payment.refresh_from_db()
    assert payment.held == Decimal("3.00") and payment.applied == 0  # the refund due, on the ledger
    [to_player] = [m for m in mail.outbox if m.to == [entry.player.email]]
    assert "Entry withdrawn" in to_player.subject
    assert "You had paid SGD 3.00" in to_player.body and f"The event's refund policy: {POLICY}" in to_player.body
    [to_organiser] = [m for m in mail.outbox if m.to == [event.owner.email]]
    assert f"Refund to decide: {entry.player.full_name} withdrawn" in to_organiser.subject
    assert reverse("money:event_money", args=[event.slug]) + "#held" in to_organiser.body

    client.force_login(event.owner)
    page = client.get(reverse("money:event_money", args=[event.slug])).content.decode()
    held = page[page.index('id="held"') : page.index('id="payments"')]
    assert payment.number in held and "S$3.00" in held and "The entry was withdrawn" in held
    assert POLICY in held and reverse("money:refund", args=[payment.number]) in held
    # Refunded from that page as any payment is: the credit note takes the held money; the entry owes nothing.
    client.post(reverse("money:refund", args=[payment.number]), {"amount": "3.00", "reason": "Withdrew in time"})
    payment.refresh_from_db()
    entry.refresh_from_db()
    assert payment.refunded == Decimal("3.00") and payment.held == 0 and entry.amount_paid == 0


def test_an_unpaid_withdrawal_is_confirmed_to_the_entrant_and_troubles_no_organiser(client, on_commit):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    mail.outbox = []
    withdraw_on_the_page(client, entry, on_commit)
    assert [m.to for m in mail.outbox] == [[entry.player.email]]
    assert "You had paid" not in mail.outbox[0].body


def test_a_group_students_withdrawal_holds_only_that_students_share_of_the_cheque(client, on_commit):
    event, category, standard, _ = seed_event()
    teacher = player_with_account().user
    students = [
        {"full_name": name, "date_of_birth": date(2013, 1, i + 1), "category": category, "fee": standard}
        for i, name in enumerate(("Alice Ong", "Bala Raju"))
    ]
    contact = {
        "role": "teacher",
        "contact_name": "Mrs Tan",
        "address": "1 Jurong West Ave",
        "phone": "61234567",
        "email": "teacher@example.org",
    }
    group = events.register_group(teacher, event, contact=contact, students=students)
    events.record_group_payment(event.owner, group, amount="6.00", method="cheque", reference="400123")
    first, second = group.entries.order_by("accepted_at", "pk")
    mail.outbox = []
    client.force_login(teacher)
    with on_commit(execute=True):
        client.post(reverse("events:withdraw", args=[first.pk]))
    first.refresh_from_db()
    second.refresh_from_db()
    cheque = Payment.objects.get(reference=group_reference(group))
    assert (first.status, first.amount_paid, second.amount_paid) == (EntryStatus.WITHDRAWN, 0, Decimal("3.00"))
    assert (cheque.held, cheque.applied) == (Decimal("3.00"), Decimal("3.00"))
    [to_teacher] = [m for m in mail.outbox if m.to == ["teacher@example.org"]]
    assert to_teacher.body.startswith("Dear Mrs Tan,\n\nThis is about the entry of Alice Ong.")
    assert "You had paid SGD 3.00" in to_teacher.body


def test_the_organiser_reinstates_a_withdrawal_while_its_place_is_free_and_its_money_counts_again(
    client, paid, on_commit
):
    event, entry, payment = paid
    withdraw_on_the_page(client, entry, on_commit)
    # Not the entrant: only the event's organiser (or association staff) undoes a withdrawal.
    assert client.post(reverse("events:reinstate_entry", args=[entry.pk])).status_code == 403
    client.force_login(event.owner)
    manage = client.get(reverse("events:manage", args=[event.slug])).content.decode()
    assert reverse("events:reinstate_entry", args=[entry.pk]) in manage
    mail.outbox = []
    with on_commit(execute=True):
        client.post(reverse("events:reinstate_entry", args=[entry.pk]))
    entry.refresh_from_db()
    payment.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED and entry.amount_paid == Decimal("3.00") and entry.ended_at is None
    assert payment.held == 0 and payment.applied == Decimal("3.00")
    [told] = [m for m in mail.outbox if m.to == [entry.player.email]]
    assert "Entry reinstated" in told.subject and "counts for it again" in told.body
    page = client.get(reverse("money:event_money", args=[event.slug])).content.decode()
    assert 'id="held"' not in page


def test_a_refunded_withdrawal_reinstated_owes_its_fee_again(client, paid, on_commit):
    event, entry, payment = paid
    withdraw_on_the_page(client, entry, on_commit)
    services.refund(event.owner, payment, amount="3.00", reason="Withdrew in time")
    events.reinstate_withdrawal(event.owner, entry)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.PENDING_PAYMENT and entry.owed == Decimal("3.00") and entry.payment_due_at


def test_a_withdrawal_whose_place_has_gone_cannot_be_reinstated_and_nothing_changes(client, paid, on_commit):
    event, entry, payment = paid
    withdraw_on_the_page(client, entry, on_commit)
    other = entered(event, entry.category, entry.fee)  # the only place is taken meanwhile
    assert other.status == EntryStatus.PENDING_PAYMENT
    client.force_login(event.owner)
    answer = client.post(reverse("events:reinstate_entry", args=[entry.pk]), follow=True)
    assert "is full: refund the held money, or raise the quota first." in answer.content.decode()
    entry.refresh_from_db()
    payment.refresh_from_db()
    assert entry.status == EntryStatus.WITHDRAWN and payment.held == Decimal("3.00")


def test_the_money_pages_reinstate_button_gives_the_place_back_too(client, paid, on_commit):
    event, entry, payment = paid
    withdraw_on_the_page(client, entry, on_commit)
    client.force_login(event.owner)
    client.post(reverse("money:reinstate", args=[payment.number]))
    entry.refresh_from_db()
    payment.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED and payment.held == 0 and entry.amount_paid == Decimal("3.00")


def test_the_api_and_the_admin_reinstate_through_the_same_rule(client, paid, on_commit, admin_client):
    event, entry, payment = paid
    withdraw_on_the_page(client, entry, on_commit)
    url = f"/api/organiser/entries/{entry.pk}/reinstate/"
    client.force_login(entry.player.user)
    assert client.post(url).status_code == 404  # not an entry of an event they organise
    client.force_login(event.owner)
    answer = client.post(url)
    assert answer.status_code == 200 and answer.json()["status"] == EntryStatus.CONFIRMED
    again = client.post(url)
    assert again.status_code == 400 and "only a withdrawn entry can be reinstated" in again.content.decode()
    events.withdraw_entry(event.owner, Entry.objects.get(pk=entry.pk))
    admin_client.post(reverse("admin:events_entry_changelist"), {"action": "reinstate", "_selected_action": [entry.pk]})
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED and entry.amount_paid == Decimal("3.00")
