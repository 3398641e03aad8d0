"""A group paid S$15 for five students at S$3; the organiser moves one to the Passion Card fee (S$2). The S$1 over is
held on the ledger, to refund or keep, and every page says so: the entry (due 2.00, paid 2.00), the group (14.00 of
14.00) and the organiser's money page (held S$1.00); refunding it gives the S$1 back without touching the fee."""

from decimal import Decimal

import pytest
from django.urls import reverse

from events import services
from events.forms import option_value
from events.models import Entry
from events.payables import ENTRY, GROUP
from money import services as money
from money.services import reports
from tests.events.factories import fast_passwords  # noqa: F401
from tests.events.test_entry_doors import contact, pupil_born, students_event
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_moving_a_paid_student_to_the_concession_holds_the_difference_everywhere(client):
    event, secondary, primary = students_event(payment_methods=["cheque", "in_person"])
    students = [
        {
            "full_name": f"Pupil {n}",
            "date_of_birth": pupil_born(event),
            "category": primary.pk,
            "fee": primary.fees.get(is_concession=False).pk,
        }
        for n in range(5)
    ]
    group = services.register_group(UserFactory(), event, contact=contact(), students=students)
    services.record_group_payment(event.owner, group, amount="15.00", method="cheque", reference="400123")
    entry = group.entries.order_by("pk").first()
    passion = primary.fees.get(is_concession=True)

    client.force_login(event.owner)
    client.post(
        reverse("events:move_entry", args=[entry.pk]),
        {"option": option_value(primary, passion), "concession_proof": "PC1234"},
    )
    entry = Entry.objects.get(pk=entry.pk)
    assert (entry.fee, entry.amount_due, entry.amount_paid, entry.balance) == (passion, Decimal("2.00"), 2, 0)
    shown = ENTRY.due(entry.pk)
    assert (shown.total, shown.paid, shown.balance) == (Decimal("2.00"), Decimal("2.00"), 0)
    shown = GROUP.due(group.pk)
    assert (shown.total, shown.paid, shown.balance) == (Decimal("14.00"), Decimal("14.00"), 0)
    totals = reports.event_totals(event)
    assert (totals["received"], totals["applied"], totals["held"]) == (15, 14, Decimal("1.00"))
    page = client.get(reverse("money:event_money", args=[event.slug])).content.decode()
    assert "Paid more than the group" in page  # the held payment, with why
    [treasurer] = reports.summary(reports.Filters(event_id=event.pk)).events
    assert treasurer.held == Decimal("1.00")

    [payment] = reports.held(reports.Filters(event_id=event.pk))
    money.refund(event.owner, payment, amount="1.00", reason="Passion Card holder")
    entry.refresh_from_db()
    assert (entry.amount_due, entry.amount_paid) == (Decimal("2.00"), Decimal("2.00"))
    assert reports.event_totals(event)["held"] == 0
