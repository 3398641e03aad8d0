"""Completing an event settles the entries still open (issue 23, defect 20): a player given a place from the waiting
list who played unpaid is confirmed, still owing the fee, with no lapse deadline; an unpaid entrant not seated while
others were lapses; whoever is still waiting (or offered a place not taken) is not admitted. The manage page and the
money page show it."""

from decimal import Decimal

import pytest
from django.urls import reverse

from events import services
from events.models import Entry, EntryStatus, Event, EventStatus
from events.play.models import Division, DivisionPlayer
from tests.events.factories import fast_passwords, open_event, player_with_account  # noqa: F401

pytestmark = pytest.mark.django_db


def enter(event, category, fee, name):
    player = player_with_account(full_name=name)
    return services.register_entry(player.user, event, category=category, fee=fee)


def seat(division, entry, number):
    DivisionPlayer.objects.create(division=division, player=entry.player, entry=entry, number=number)


def test_completing_the_event_confirms_who_played_unpaid_and_closes_the_waiting_list(client):
    event, category, (fee,) = open_event(quota=2)
    first = enter(event, category, fee, "Tan Wei Ling")
    no_show = enter(event, category, fee, "Lim Jun Jie")
    from_list = enter(event, category, fee, "Nur Aisyah")
    waiting = enter(event, category, fee, "Ravi Kumar")
    services.withdraw_entry(first.player.user, first)
    services.accept_offer(from_list.player.user, Entry.objects.get(pk=from_list.pk))
    from_list.refresh_from_db()
    assert from_list.status == EntryStatus.PENDING_PAYMENT and from_list.payment_due_at
    # The day itself: play runs on the site and seats the players who came.
    Event.objects.filter(pk=event.pk).update(status=EventStatus.IN_PROGRESS)
    division = Division.objects.create(event=event, name="A")
    seat(division, from_list, 1)

    client.force_login(event.owner)
    answer = client.post(reverse("events:lifecycle", args=[event.slug, "complete"]), follow=True)
    page = answer.content.decode()
    assert "1 entry played unpaid: confirmed, still owing the fee" in page
    from_list.refresh_from_db()
    no_show.refresh_from_db()
    waiting.refresh_from_db()
    assert from_list.status == EntryStatus.CONFIRMED and from_list.payment_due_at is None
    assert from_list.owed == Decimal("3.00")
    assert no_show.status == EntryStatus.LAPSED and waiting.status == EntryStatus.NOT_ADMITTED
    manage = client.get(reverse("events:manage", args=[event.slug])).content.decode()
    notice = manage[manage.index('id="completed-entries"') :].split("</div>")[0]
    assert "1 entry played and still owes the fee" in notice and "1 on the waiting list" in notice
    assert "Pending payment</span>" not in manage and "On the waiting list</span>" not in manage
    money = client.get(reverse("money:event_money", args=[event.slug])).content.decode()
    owed = money[money.index('id="owed"') :]
    assert "Nur Aisyah" in owed and "Confirmed" in owed and "Lim Jun Jie" not in owed


def test_an_event_played_off_the_site_confirms_every_unpaid_entry_as_owing():
    """Nobody is seated (the results were kept on paper): every unpaid entrant is taken to have played."""
    event, category, (fee,) = open_event(quota=1)
    unpaid = enter(event, category, fee, "Tan Wei Ling")
    waiting = enter(event, category, fee, "Lim Jun Jie")
    Event.objects.filter(pk=event.pk).update(status=EventStatus.IN_PROGRESS)
    done = services.complete_event(event.owner, Event.objects.get(pk=event.pk))
    assert done.settled == {EntryStatus.CONFIRMED: 1, EntryStatus.NOT_ADMITTED: 1}
    unpaid.refresh_from_db()
    waiting.refresh_from_db()
    assert (unpaid.status, unpaid.owed, waiting.status) == (EntryStatus.CONFIRMED, fee.amount, "not_admitted")


def test_a_completed_events_entries_stay_settled_even_for_the_organiser():
    event, category, (fee,) = open_event(quota=1)
    unpaid = enter(event, category, fee, "Tan Wei Ling")
    Event.objects.filter(pk=event.pk).update(status=EventStatus.IN_PROGRESS)
    services.complete_event(event.owner, Event.objects.get(pk=event.pk))
    for end in (services.withdraw_entry, services.cancel_entry):
        with pytest.raises(services.RegistrationError, match="The event is over."):
            end(event.owner, Entry.objects.get(pk=unpaid.pk))
    unpaid.refresh_from_db()
    assert unpaid.status == EntryStatus.CONFIRMED
