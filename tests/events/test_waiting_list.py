"""The waiting list with a controlled clock: lapses, offers, reminders, expiry and passing places on."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from events import services, tasks
from events.models import EntryStatus
from tests.events.factories import fast_passwords, open_event, player_with_account  # noqa: F401
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock():
    """Frozen at a known moment; tests move it with clock.shift(...)."""
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        yield traveller


@pytest.fixture
def full_event(clock):
    """One place, taken and unpaid; two people waiting."""
    event, category, (fee,) = open_event(quota=1, payment_hold_hours=72, offer_hold_hours=48)
    holder, first, second = (player_with_account() for _ in range(3))
    entries = [services.register_entry(p.user, event, category=category, fee=fee) for p in (holder, first, second)]
    mail.outbox = []
    return event, entries


def reload(*entries):
    for entry in entries:
        entry.refresh_from_db()


def test_an_unpaid_place_lapses_after_the_hold_and_goes_to_the_next_in_line(full_event, clock, on_commit):
    event, (holder, first, second) = full_event
    clock.shift(timedelta(hours=71))
    with on_commit(execute=True):
        assert tasks.lapse_unpaid_entries.delay().get() == 0
    reload(holder)
    assert holder.status == EntryStatus.PENDING_PAYMENT

    clock.shift(timedelta(hours=1))
    with on_commit(execute=True):
        assert tasks.lapse_unpaid_entries.delay().get() == 1
        assert tasks.lapse_unpaid_entries.delay().get() == 0  # safe to run twice
    reload(holder, first, second)
    assert holder.status == EntryStatus.LAPSED
    assert first.status == EntryStatus.OFFERED and first.offer_expires_at == timezone.now() + timedelta(hours=48)
    assert second.status == EntryStatus.WAITLISTED and services.waitlist_position(second) == 1
    subjects = {m.to[0]: m.subject for m in mail.outbox}
    assert subjects[holder.player.email].startswith("[Scrabble Association] Your place has lapsed")
    assert subjects[first.player.email].startswith("[Scrabble Association] A place is free for you")
    assert "held for you until" in [m for m in mail.outbox if m.to == [first.player.email]][0].body


def test_a_paid_entry_never_lapses(full_event, clock):
    event, (holder, first, _) = full_event
    services.record_payment(event.owner, holder, amount="3.00", method="in_person")
    clock.shift(timedelta(days=10))
    tasks.lapse_unpaid_entries.delay()
    reload(holder, first)
    assert holder.status == EntryStatus.CONFIRMED and first.status == EntryStatus.WAITLISTED


def test_accepting_an_offer_holds_the_place_pending_payment(full_event, clock, on_commit):
    event, (holder, first, second) = full_event
    services.withdraw_entry(holder.player.user, holder)
    reload(first)
    assert first.status == EntryStatus.OFFERED
    clock.shift(timedelta(hours=47))
    with on_commit(execute=True):
        accepted = services.accept_offer(first.player.user, first)
    assert accepted.status == EntryStatus.PENDING_PAYMENT
    assert accepted.payment_due_at == timezone.now() + timedelta(hours=72)
    assert mail.outbox[-1].subject.startswith("[Scrabble Association] Your place is held")
    services.record_payment(event.owner, accepted, amount="3", method="cheque", reference="000123")
    reload(accepted, second)
    assert accepted.status == EntryStatus.CONFIRMED and second.status == EntryStatus.WAITLISTED


def test_a_reminder_goes_out_before_the_offer_expires_once(full_event, clock, on_commit):
    event, (holder, first, _) = full_event
    services.cancel_entry(event.owner, holder)
    mail.outbox = []
    clock.shift(timedelta(hours=30))
    assert tasks.remind_expiring_offers.delay().get() == 0
    clock.shift(timedelta(hours=7))  # 11 hours left
    with on_commit(execute=True):
        assert tasks.remind_expiring_offers.delay().get() == 1
        assert tasks.remind_expiring_offers.delay().get() == 0
    assert [m.subject for m in mail.outbox] == [
        f"[Scrabble Association] Your offered place expires soon – {event.title}"
    ]
    assert mail.outbox[0].to == [first.player.email]


def test_an_expired_offer_passes_the_place_on(full_event, clock, on_commit):
    event, (holder, first, second) = full_event
    services.withdraw_entry(holder.player.user, holder)
    clock.shift(timedelta(hours=48))
    with pytest.raises(services.RegistrationError, match="This offer expired on"):
        services.accept_offer(first.player.user, first)
    with on_commit(execute=True):
        assert tasks.expire_offers.delay().get() == 1
        assert tasks.expire_offers.delay().get() == 0
    reload(first, second)
    assert first.status == EntryStatus.EXPIRED
    assert second.status == EntryStatus.OFFERED
    assert any(m.to == [second.player.email] and "A place is free" in m.subject for m in mail.outbox)


def test_no_offers_once_registration_has_closed(full_event, clock):
    event, (holder, first, _) = full_event
    services.close_registration(event.owner, event)
    services.withdraw_entry(holder.player.user, holder)
    reload(first)
    assert first.status == EntryStatus.WAITLISTED
    clock.shift(timedelta(days=30))  # and after the closing date too
    tasks.lapse_unpaid_entries.delay()
    tasks.expire_offers.delay()
    reload(first)
    assert first.status == EntryStatus.WAITLISTED


def test_an_offer_made_before_closing_can_still_be_accepted_after(full_event, clock):
    event, (holder, first, _) = full_event
    services.withdraw_entry(holder.player.user, holder)
    services.close_registration(event.owner, event)
    assert services.accept_offer(first.player.user, first).status == EntryStatus.PENDING_PAYMENT


def test_leaving_the_waiting_list_moves_the_others_up(full_event):
    event, (holder, first, second) = full_event
    assert services.waitlist_position(second) == 2
    services.leave_waitlist(first.player.user, first)
    reload(first, second)
    assert first.status == EntryStatus.WITHDRAWN and services.waitlist_position(second) == 1
    with pytest.raises(services.RegistrationError, match="not on the waiting list"):
        services.leave_waitlist(holder.player.user, holder)


def test_declining_an_offer_passes_it_on(full_event):
    event, (holder, first, second) = full_event
    services.withdraw_entry(holder.player.user, holder)
    services.leave_waitlist(first.player.user, first)
    reload(second)
    assert second.status == EntryStatus.OFFERED


def test_only_the_entrant_can_accept_or_leave(full_event):
    event, (holder, first, _) = full_event
    services.withdraw_entry(holder.player.user, holder)
    with pytest.raises(NotAllowed):
        services.accept_offer(UserFactory(), first)
    with pytest.raises(NotAllowed):
        services.withdraw_entry(UserFactory(), first)


def test_an_offer_holds_its_place_against_newcomers(full_event):
    event, (holder, first, second) = full_event
    services.withdraw_entry(holder.player.user, holder)
    category = holder.category
    newcomer = services.register_entry(player_with_account().user, event, category=category, fee=holder.fee)
    assert newcomer.status == EntryStatus.WAITLISTED
    assert services.waitlist_position(newcomer) == 2


def test_raising_the_quota_offers_the_new_places(full_event):
    event, (holder, first, second) = full_event
    services.save_category(event.owner, event, holder.category, quota=3)
    reload(first, second)
    assert first.status == second.status == EntryStatus.OFFERED
