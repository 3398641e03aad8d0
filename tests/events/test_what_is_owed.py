"""Only a place taken owes its fee (issue 23, defect N3): a place offered from the waiting list and not yet accepted
owes nothing (its email says the fee is due after accepting), and neither does a place on the waiting list, on the
event's money page ("Still owed"), the director's check-in page and the group page."""

from decimal import Decimal

import pytest
from django.urls import reverse

from events import services
from events.models import EntryStatus
from money.services import reports
from tests.events.factories import fast_passwords, open_event, player_with_account  # noqa: F401
from tests.events.test_entry_doors import contact, pupil_born, students_event
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def offered():
    """One place at S$25, paid; two people waiting. The holder withdraws: the first waiting is offered the place."""
    event, category, (fee,) = open_event(quota=1, fees=(Decimal("25.00"),), payment_methods=["in_person"])
    holder, first, second = (
        services.register_entry(player_with_account().user, event, category=category, fee=fee) for _ in range(3)
    )
    services.record_payment(event.owner, holder, amount="25.00", method="in_person")
    services.withdraw_entry(holder.player.user, holder)
    for entry in (first, second):
        entry.refresh_from_db()
    assert (first.status, second.status) == (EntryStatus.OFFERED, EntryStatus.WAITLISTED)
    return event, first, second


def test_an_offer_not_yet_accepted_is_not_still_owed_on_the_money_page(client, offered):
    event, first, _second = offered
    client.force_login(event.owner)
    page = client.get(reverse("money:event_money", args=[event.slug])).content.decode()
    assert 'S$0.00</div><div class="small">Still owed (0 entries)' in page
    owed = page[page.index('id="owed"') :]
    assert first.player.full_name not in owed and "Nothing is owed." in owed
    # Accepted, the place is taken: now its fee is owed.
    services.accept_offer(first.player.user, first)
    assert reports.outstanding_totals(event.pk) == {"outstanding_count": 1, "outstanding": Decimal("25.00")}
    page = client.get(reverse("money:event_money", args=[event.slug])).content.decode()
    assert first.player.full_name in page[page.index('id="owed"') :]


def test_the_check_in_page_says_nobody_waiting_owes_anything(client, offered):
    event, first, second = offered
    client.force_login(event.owner)
    page = client.get(reverse("events:play_check_in", args=[event.slug])).content.decode()
    waiting = page[page.index('id="waiting"') :]
    assert first.player.name in waiting and second.player.name in waiting
    assert "owes" not in waiting


def test_the_group_page_owes_nothing_for_a_student_offered_a_place_not_yet_accepted(client):
    event, _secondary, primary = students_event(payment_methods=["cheque"])
    primary.quota = 1
    primary.save()
    standard = primary.fees.get(is_concession=False)
    students = [
        {"full_name": f"Pupil {n}", "date_of_birth": pupil_born(event), "category": primary.pk, "fee": standard.pk}
        for n in range(2)
    ]
    teacher = UserFactory()
    group = services.register_group(teacher, event, contact=contact(), students=students)
    first, second = group.entries.order_by("pk")
    services.withdraw_entry(teacher, first)
    second.refresh_from_db()
    assert second.status == EntryStatus.OFFERED
    client.force_login(teacher)
    page = client.get(reverse("events:group_entry", args=[group.pk])).content.decode()
    assert 'id="group-total">S$0.00<' in page and 'id="group-balance">S$0.00<' in page
    services.accept_offer(teacher, second)
    page = client.get(reverse("events:group_entry", args=[group.pk])).content.decode()
    assert 'id="group-total">S$3.00<' in page and 'id="group-balance">S$3.00<' in page
