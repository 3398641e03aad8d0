"""Many people press "Enter" at once for the last places: never oversold (PostgreSQL, real threads).

Each thread has its own database connection. The control test turns the event lock off and holds
every thread between counting the places and taking one, which shows the race the lock prevents.
"""

import threading
import time

import pytest
from django.db import connection

from events import services
from events.models import PLACE_HOLDING_STATUSES, Entry, EntryStatus, Event
from events.services import entries, status
from tests.events.factories import fast_passwords, open_event, player_with_account  # noqa: F401

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PLACES = 10
ENTRANTS = 50


def fire_registrations(event: Event, category_id: int, fee_id: int, users) -> tuple[list[str], list[Exception]]:
    """Starts one thread per user, releases them together, and waits for all."""
    start = threading.Barrier(len(users))
    statuses: list[str] = []
    errors: list[Exception] = []
    lock = threading.Lock()

    def register(user):
        try:
            start.wait(timeout=30)
            entry = services.register_entry(user, Event.objects.get(pk=event.pk), category=category_id, fee=fee_id)
            with lock:
                statuses.append(entry.status)
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
    return statuses, errors


def pause_before_taking_a_place(monkeypatch, pause) -> None:
    """Runs `pause` after the places are counted and before the new entry takes one."""
    decide = entries.new_entry_status

    def paused(*args, **kwargs):
        pause()
        return decide(*args, **kwargs)

    monkeypatch.setattr(entries, "new_entry_status", paused)


@pytest.fixture
def crowd(postgres):
    event, category, (fee,) = open_event(quota=PLACES)
    users = [player_with_account().user for _ in range(ENTRANTS)]
    return event, category, fee, users


def test_fifty_at_once_for_ten_places_exactly_ten_hold_places(crowd, monkeypatch):
    event, category, fee, users = crowd
    # Widen the window between counting and inserting: the lock must still keep it to one at a time.
    pause_before_taking_a_place(monkeypatch, lambda: time.sleep(0.005))
    statuses, errors = fire_registrations(event, category.pk, fee.pk, users)
    assert errors == []
    assert len(statuses) == ENTRANTS
    assert statuses.count(EntryStatus.PENDING_PAYMENT) == PLACES
    assert statuses.count(EntryStatus.WAITLISTED) == ENTRANTS - PLACES
    assert Entry.objects.filter(event=event, status__in=PLACE_HOLDING_STATUSES).count() == PLACES
    waiting = Entry.objects.filter(event=event, status=EntryStatus.WAITLISTED).order_by("accepted_at", "pk")
    assert [services.waitlist_position(e) for e in waiting] == list(range(1, ENTRANTS - PLACES + 1))


def test_control_without_the_lock_the_same_crowd_oversells(crowd, monkeypatch):
    event, category, fee, users = crowd
    counted = threading.Barrier(len(users))

    def everyone_has_counted():
        try:
            counted.wait(timeout=20)
        except threading.BrokenBarrierError:
            pass

    # Read the event without its row lock: nothing then keeps the counts one at a time.
    monkeypatch.setattr(status, "lock_event", lambda event_id: Event.objects.get(pk=event_id))
    pause_before_taking_a_place(monkeypatch, everyone_has_counted)
    statuses, errors = fire_registrations(event, category.pk, fee.pk, users)
    assert errors == []
    holding = Entry.objects.filter(event=event, status__in=PLACE_HOLDING_STATUSES).count()
    assert holding > PLACES, f"expected overselling without the lock, got {holding} places taken"
    print(f"without the lock: {holding} places taken of {PLACES}")
    assert statuses.count(EntryStatus.PENDING_PAYMENT) == holding


def test_one_player_pressing_twice_at_once_gets_one_entry(postgres):
    event, category, (fee,) = open_event(quota=PLACES)
    user = player_with_account().user
    statuses, errors = fire_registrations(event, category.pk, fee.pk, [user, user, user])
    assert len(statuses) == 1 and len(errors) == 2
    assert all(isinstance(e, services.RegistrationError) and "already entered" in e.message for e in errors)
    assert Entry.objects.filter(event=event).count() == 1
