"""Money held (paid but counted for no place: more than is now due, or for an entry that holds no place) is shown
wherever an entry's or a group's money is shown, as the event's money page counts it (issue 23, defect 2): the
group page to the teacher and to the organiser, the payment page of the reference, My entries."""

from decimal import Decimal

import pytest
from django.urls import reverse

from events import services
from events.forms import option_value
from money.services import reports
from tests.events.factories import fast_passwords  # noqa: F401
from tests.events.test_entry_doors import contact, pupil_born, students_event
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def group_paid_then_moved(client):
    """Three primary pupils at S$3, paid S$9 by one cheque; the organiser moves one to the Passion Card fee (S$2):
    the S$1 over is held on the ledger."""
    event, _secondary, primary = students_event(payment_methods=["cheque", "in_person"])
    standard = primary.fees.get(is_concession=False)
    students = [
        {"full_name": f"Pupil {n}", "date_of_birth": pupil_born(event), "category": primary.pk, "fee": standard.pk}
        for n in range(3)
    ]
    teacher = UserFactory()
    group = services.register_group(teacher, event, contact=contact(), students=students)
    services.record_group_payment(event.owner, group, amount="9.00", method="cheque", reference="400123")
    entry = group.entries.order_by("pk").first()
    client.force_login(event.owner)
    client.post(
        reverse("events:move_entry", args=[entry.pk]),
        {"option": option_value(primary, primary.fees.get(is_concession=True)), "concession_proof": "PC1234"},
    )
    client.logout()
    [payment] = reports.held(reports.Filters(event_id=event.pk))
    assert payment.held_amount == Decimal("1.00")
    return event, group, teacher, payment


def test_the_group_page_shows_the_money_held_to_the_organiser_with_its_refund(client, group_paid_then_moved):
    event, group, _teacher, payment = group_paid_then_moved
    client.force_login(event.owner)
    page = client.get(reverse("events:group_entry", args=[group.pk])).content.decode()
    assert 'id="group-held">S$1.00<' in page
    note = page[page.index('id="group-held-note"') :]
    assert "S$1.00 is held" in note and reverse("money:refund", args=[payment.number]) in note
    assert 'id="group-balance">S$0.00<' in page  # nothing is owed: the S$1 is not a balance


def test_the_group_page_tells_the_teacher_what_is_held_and_what_happens_to_it(client, group_paid_then_moved):
    event, group, teacher, payment = group_paid_then_moved
    client.force_login(teacher)
    page = client.get(reverse("events:group_entry", args=[group.pk])).content.decode()
    assert 'id="group-held">S$1.00<' in page
    note = page[page.index('id="group-held-note"') :]
    assert "S$1.00 of what you paid is held" in note and "refunds it to you" in note
    assert reverse("money:refund", args=[payment.number]) not in page  # the teacher refunds nothing
    # The group's payment page and My entries say it too.
    reference = services.payments.group_reference(group)
    pay = client.get(reverse("money:pay", args=[reference])).content.decode()
    assert 'id="pay-held"><strong>S$1.00</strong>' in pay
    mine = client.get(reverse("events:my_entries")).content.decode()
    groups = mine[mine.index('id="my-groups"') :]
    assert "S$1.00 held</strong>: paid more than is now due" in groups


def test_nothing_held_shows_nothing(client):
    event, _secondary, primary = students_event(payment_methods=["cheque"])
    standard = primary.fees.get(is_concession=False)
    student = {"full_name": "Pupil", "date_of_birth": pupil_born(event), "category": primary.pk, "fee": standard.pk}
    group = services.register_group(UserFactory(), event, contact=contact(), students=[student])
    services.record_group_payment(event.owner, group, amount="3.00", method="cheque", reference="400124")
    client.force_login(event.owner)
    page = client.get(reverse("events:group_entry", args=[group.pk])).content.decode()
    assert "group-held" not in page
