"""The registration clock with no scheduler, the event's lifecycle following play, and the organiser's hand
on both: lapsing unpaid places, naming directors, the dates an event may not be played or rated before."""

from datetime import datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from events import services
from events.models import EntryStatus, EventStatus
from events.play.models import Division
from events.signals import division_finalised, play_started
from tests.events.factories import (
    EntryFactory,
    EventFactory,
    fast_passwords,  # noqa: F401
    make_organiser,
    open_event,
    player_with_account,
)
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


@pytest.fixture
def clock():
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        yield traveller


@pytest.fixture
def full_event(clock):
    """One place, taken and unpaid (72 hours to pay); two people waiting (offers held 48 hours)."""
    event, category, (fee,) = open_event(quota=1, payment_hold_hours=72, offer_hold_hours=48)
    people = [player_with_account() for _ in range(3)]
    entries = [services.register_entry(p.user, event, category=category, fee=fee) for p in people]
    mail.outbox = []
    return event, entries


def statuses(*entries):
    for entry in entries:
        entry.refresh_from_db()
    return [entry.status for entry in entries]


# --- the clock runs with no scheduler --------------------------------------------------------------


def test_an_unpaid_place_lapses_when_anyone_reads_the_event_page(full_event, clock, client, on_commit):
    event, (holder, first, second) = full_event
    clock.shift(timedelta(hours=71))
    html(client.get(event.get_absolute_url()))
    assert statuses(holder, first) == [EntryStatus.PENDING_PAYMENT, EntryStatus.WAITLISTED]

    clock.shift(timedelta(hours=1))
    with on_commit(execute=True):
        html(client.get(event.get_absolute_url()))
    assert statuses(holder, first, second) == [EntryStatus.LAPSED, EntryStatus.OFFERED, EntryStatus.WAITLISTED]
    assert holder.ended_at == holder.payment_due_at
    assert first.offer_expires_at == timezone.now() + timedelta(hours=48)
    subjects = {m.to[0]: m.subject for m in mail.outbox}
    assert subjects[holder.player.email] == f"[Scrabble Association] Your place has lapsed – {event.title}"
    assert subjects[first.player.email] == f"[Scrabble Association] A place is free for you – {event.title}"


def test_an_offer_not_taken_expires_when_the_organiser_opens_the_dashboard(full_event, clock, client, on_commit):
    event, (holder, first, second) = full_event
    services.withdraw_entry(holder.player.user, holder)
    assert statuses(first) == [EntryStatus.OFFERED]
    clock.shift(timedelta(hours=48))
    client.force_login(event.owner)
    with on_commit(execute=True):
        page = html(client.get(reverse("events:manage", args=[event.slug])))
    assert statuses(first, second) == [EntryStatus.EXPIRED, EntryStatus.OFFERED]
    assert "Place offered" in page
    assert {m.to[0] for m in mail.outbox} == {first.player.email, second.player.email}


def test_accepting_an_offer_after_it_ran_out_says_when_it_expired(full_event, clock):
    event, (holder, first, _) = full_event
    services.withdraw_entry(holder.player.user, holder)
    clock.shift(timedelta(hours=49))
    with pytest.raises(services.RegistrationError, match="This offer expired on"):
        services.accept_offer(first.player.user, first)


def test_a_write_applies_the_clock_first(full_event, clock):
    """Recording a payment for a place that has lapsed is refused: the clock ran before the payment."""
    event, (holder, *_) = full_event
    clock.shift(timedelta(hours=73))
    with pytest.raises(services.RegistrationError, match="lapsed"):
        services.record_payment(event.owner, holder, amount="3.00", method="in_person")


def test_registration_closes_on_time_on_read(clock, client):
    event, *_ = open_event()
    clock.move_to(event.registration_closes_at + timedelta(seconds=1))
    page = html(client.get(event.get_absolute_url()))
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION_CLOSED and "Registration closed on" in page


def test_reading_an_event_with_nothing_due_costs_one_query(full_event, django_assert_num_queries):
    event, _ = full_event
    with django_assert_num_queries(1):
        services.refresh_status(event)


def test_the_organiser_lapses_unpaid_places_by_hand(full_event, client, on_commit):
    event, (holder, first, second) = full_event
    client.force_login(event.owner)
    manage = reverse("events:manage", args=[event.slug])
    assert "Lapse 1 unpaid entry now" in html(client.get(manage))
    with on_commit(execute=True):
        page = html(client.post(reverse("events:lifecycle", args=[event.slug, "lapse"]), follow=True))
    assert "1 unpaid entry lapsed; the places go to the waiting list." in page
    assert statuses(holder, first) == [EntryStatus.LAPSED, EntryStatus.OFFERED]
    assert "Lapse 1 unpaid" not in page and "Lapse unpaid entries" not in page
    # Another organiser cannot.
    client.force_login(make_organiser())
    assert client.post(reverse("events:lifecycle", args=[event.slug, "lapse"])).status_code == 403


def test_the_organiser_closes_registration_by_hand(client):
    event, *_ = open_event()
    client.force_login(event.owner)
    page = html(client.post(reverse("events:lifecycle", args=[event.slug, "close"]), follow=True))
    assert "Registration is closed." in page
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION_CLOSED


def test_the_periodic_sweep_still_works_and_is_safe_twice(full_event, clock):
    event, (holder, *_) = full_event
    clock.shift(timedelta(hours=73))
    assert services.lapse_unpaid_entries() == 1
    assert services.lapse_unpaid_entries() == 0
    assert statuses(holder) == [EntryStatus.LAPSED]


# --- the lifecycle follows play --------------------------------------------------------------------


def on_the_day(event):
    return time_machine.travel(datetime.combine(event.starts_on, datetime.min.time(), tzinfo=event.zone))


def closed_event_with_divisions(n=2, **fields):
    event = EventFactory(
        status=EventStatus.REGISTRATION_CLOSED,
        registration_closes_at=timezone.now() - timedelta(days=1),
        registration_opens_at=timezone.now() - timedelta(days=9),
        **fields,
    )
    return event, [Division.objects.create(event=event, name=name) for name in "AB"[:n]]


def test_pairing_the_first_round_puts_the_event_in_progress_on_its_day():
    event, (a, _) = closed_event_with_divisions()
    with pytest.raises(services.EventError, match="you cannot pair a round before then"):
        play_started.send(sender=Division, division=a, actor=event.owner)
    event.refresh_from_db()
    assert event.status == EventStatus.REGISTRATION_CLOSED
    with on_the_day(event):
        play_started.send(sender=Division, division=a, actor=event.owner)
    event.refresh_from_db()
    assert event.status == EventStatus.IN_PROGRESS


def test_the_event_is_completed_when_every_division_is_final(client):
    event, (a, b) = closed_event_with_divisions(rated=True)
    with on_the_day(event):
        for division in (a, b):
            play_started.send(sender=Division, division=division, actor=event.owner)
        a.finalised_at = timezone.now()
        a.save()
        division_finalised.send(sender=Division, division=a, actor=event.owner)
        event.refresh_from_db()
        assert event.status == EventStatus.IN_PROGRESS
        b.finalised_at = timezone.now()
        b.save()
        division_finalised.send(sender=Division, division=b, actor=event.owner)
    event.refresh_from_db()
    assert event.status == EventStatus.COMPLETED
    page = html(client.get(event.get_absolute_url()))
    assert "Completed" in page and "Start the event" not in page
    # Rated: the page links the report once the event is on a rating list.
    assert reverse("ratings:event_report", args=[event.slug]) not in page
    from ratings.models import RatedEvent
    from tests.ratings.factories import RatingListFactory

    RatedEvent.objects.create(
        rating_list=RatingListFactory(), event=event, starts_on=event.starts_on, rated_at=timezone.now()
    )
    assert reverse("ratings:event_report", args=[event.slug]) in html(client.get(event.get_absolute_url()))


def test_an_event_finalised_without_play_being_announced_still_completes():
    event, (a,) = closed_event_with_divisions(n=1)
    a.finalised_at = timezone.now()
    a.save()
    division_finalised.send(sender=Division, division=a, actor=event.owner)
    event.refresh_from_db()
    assert event.status == EventStatus.COMPLETED


def test_no_withdrawal_once_play_has_started():
    event, (a,) = closed_event_with_divisions(n=1)
    entry = EntryFactory(category__event=event, event=event, player=player_with_account())
    assert services.withdrawal_refusal(event) is None
    with on_the_day(event):
        play_started.send(sender=Division, division=a, actor=event.owner)
    event.refresh_from_db()
    refusal = services.withdrawal_refusal(event)
    assert refusal == "The event has started: ask the tournament director."
    with pytest.raises(services.RegistrationError, match=refusal):
        services.withdraw_entry(entry.player.user, entry)


def test_the_start_button_is_offered_only_from_the_event_day(client):
    event, _ = closed_event_with_divisions(n=1)
    client.force_login(event.owner)
    manage = reverse("events:manage", args=[event.slug])
    assert "Start the event" not in html(client.get(manage))
    page = html(client.post(reverse("events:lifecycle", args=[event.slug, "start"]), follow=True))
    assert "you cannot start it before then" in page
    with on_the_day(event):
        client.force_login(event.owner)  # the session has run out by then
        assert "Start the event" in html(client.get(manage))


def test_the_date_rule_reads_the_event_time_zone():
    event = EventFactory(time_zone="Pacific/Auckland")
    moment = datetime.combine(event.starts_on, datetime.min.time(), tzinfo=event.zone)
    with time_machine.travel(moment - timedelta(minutes=1)):
        assert services.before_event_refusal(event, "rate it").endswith("you cannot rate it before then.")
    with time_machine.travel(moment):
        assert services.before_event_refusal(event, "rate it") is None


# --- directors -------------------------------------------------------------------------------------


def test_the_organiser_names_directors_who_then_see_the_event_in_my_events(client):
    event, *_ = open_event()
    by_email = UserFactory(email="dora@example.org", first_name="Dora", last_name="Director")
    by_number = PlayerFactory(user=UserFactory(first_name="Nina", last_name="Number")).member_number
    directors = reverse("events:directors", args=[event.slug])
    client.force_login(event.owner)
    page = html(client.post(directors, {"who": "DORA@example.org"}, follow=True))
    assert "Dora Director now directs this event." in page
    html(client.post(directors, {"who": str(by_number)}, follow=True))
    assert set(event.directors.values_list("first_name", flat=True)) == {"Dora", "Nina"}

    page = html(client.post(directors, {"who": "nobody@example.org"}))
    assert "No account has the member number or email address nobody@example.org." in page
    page = html(client.post(directors, {"who": "dora@example.org"}))
    assert "Dora Director already directs this event." in page

    client.force_login(by_email)
    mine = html(client.get(reverse("events:mine")))
    assert event.title in mine and "director" in mine and "No events yet" not in mine
    assert reverse("events:play_hub", args=[event.slug]) in mine
    assert reverse("events:create") not in mine
    # A director does not manage the event nor choose other directors.
    assert client.post(directors, {"who": str(by_number)}).status_code == 403

    client.force_login(event.owner)
    html(client.post(directors, {"remove": str(by_email.pk)}, follow=True))
    assert list(event.directors.values_list("first_name", flat=True)) == ["Nina"]
    client.force_login(by_email)
    assert event.title not in html(client.get(reverse("events:mine")))


def test_my_events_lists_what_an_organiser_owns_and_directs():
    organiser = make_organiser()
    owned, *_ = open_event(owner=organiser, title="Owned Open")
    directed, *_ = open_event(title="Directed Open")
    directed.directors.add(organiser)
    open_event(title="Someone Else's Open")
    from django.test import Client

    client = Client()
    client.force_login(organiser)
    page = html(client.get(reverse("events:mine")))
    assert "Owned Open" in page and "Directed Open" in page and "Someone Else" not in page
