"""Many entrants type the same discount code at once for its last uses: never used more times than it has
(PostgreSQL, real threads). The uses are counted under the event's lock, as the places are."""

import threading
from decimal import Decimal

import pytest
from django.db import connection

from events import services
from events.models import Entry, Event
from events.services import discounts
from tests.events.factories import fast_passwords, open_event, player_with_account  # noqa: F401

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

USES = 3
ENTRANTS = 20


def test_twenty_at_once_for_three_uses_of_a_code_exactly_three_get_the_discount(postgres):
    event, category, (fee,) = open_event(quota=100, fees=(Decimal("10.00"),))
    code = discounts.save_discount_code(
        event.owner, event, {"code": "LAST", "kind": "amount", "value": "4", "max_uses": USES}
    )
    users = [player_with_account().user for _ in range(ENTRANTS)]
    start = threading.Barrier(len(users))
    refusals: list[str] = []
    errors: list[Exception] = []
    lock = threading.Lock()

    def register(user):
        try:
            start.wait(timeout=30)
            services.register_entry(
                user, Event.objects.get(pk=event.pk), category=category.pk, fee=fee.pk, discount_code="last"
            )
        except services.RegistrationError as refusal:
            with lock:
                refusals.append(refusal.message)
        except Exception as error:  # collected and asserted on below
            with lock:
                errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=register, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    assert refusals == ["The code LAST has been used up."] * (ENTRANTS - USES)
    used = Entry.objects.filter(event=event, discount_code=code)
    assert used.count() == USES == discounts.uses(code)
    assert set(used.values_list("amount_due", flat=True)) == {Decimal("6.00")}
    assert Entry.objects.filter(event=event).count() == USES  # the refused entered nothing
