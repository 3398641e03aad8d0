"""Announcing: drafting, categories with fees and prizes, publishing, and the lifecycle to the end."""

from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from clubsite.kit.errors import NotAllowed
from clubsite.kit.status import TransitionRefused
from events import services
from events.models import Category, EntryStatus, Event, EventStatus, Fee, Prize
from tests.events.factories import (
    EventFactory,
    fast_passwords,  # noqa: F401
    make_organiser,
    open_event,
    player_with_account,
)
from tests.factories import AssociationFactory, UserFactory

pytestmark = pytest.mark.django_db
SGT = ZoneInfo("Asia/Singapore")


def draft_fields(**overrides):
    AssociationFactory()
    return {
        "title": "Students' Scrabble Championship",
        "organisers": "Jurong Green CC Management Committee, Scrabble Club, South West CDC",
        "starts_on": date(2031, 9, 6),
        "venue": "Jurong Green Community Club",
        "registration_opens_at": datetime(2031, 7, 1, 9, 0, tzinfo=SGT),
        "registration_closes_at": datetime(2031, 8, 27, 23, 59, tzinfo=SGT),
        **overrides,
    }


def test_an_organiser_drafts_an_event_that_only_they_see(client):
    organiser = make_organiser()
    event = services.create_event(organiser, **draft_fields())
    assert event.status == EventStatus.DRAFT and event.owner == organiser
    assert event.slug == "students-scrabble-championship-2031" and event.ends_on == event.starts_on
    assert client.get(event.get_absolute_url()).status_code == 404
    client.force_login(organiser)
    assert "Draft" in client.get(event.get_absolute_url()).content.decode()


def test_only_organisers_announce_events():
    with pytest.raises(NotAllowed):
        services.create_event(UserFactory(), **draft_fields())
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    "overrides, field, message",
    [
        (
            {"registration_opens_at": datetime(2031, 9, 1, tzinfo=SGT)},
            "registration_opens_at",
            "Registration must open before it closes.",
        ),
        ({"ends_on": date(2031, 9, 5)}, "ends_on", "cannot end before it starts"),
        ({"title": "  "}, "title", "title"),
        ({"time_zone": "Mars/Olympus"}, "time_zone", "time zone"),
        ({"time_zone": "x" * 100_000}, "time_zone", "time zone"),
        ({"time_zone": "../../../etc/passwd"}, "time_zone", "time zone"),
        ({"max_entrants": -1}, "max_entrants", "greater than or equal to 1"),
        ({"max_group_size": 0}, "max_group_size", "greater than or equal to 1"),
        ({"payment_methods": ["barter"]}, "payment_methods", "Unknown payment method"),
    ],
)
def test_bad_announcements_are_refused_and_nothing_is_saved(overrides, field, message):
    with pytest.raises(services.EventError) as refusal:
        services.create_event(make_organiser(), **draft_fields(**overrides))
    assert refusal.value.field == field and message in refusal.value.message
    assert not Event.objects.exists()


def test_an_opening_time_after_the_closing_date_is_refused_on_edit_too():
    event, *_ = open_event()
    with pytest.raises(services.EventError, match="open before it closes"):
        services.update_event(
            event.owner, event, registration_opens_at=event.registration_closes_at + timedelta(days=1)
        )
    event.refresh_from_db()
    assert event.registration_opens_at < event.registration_closes_at


def test_a_category_with_fees_and_prizes_as_on_the_entry_form():
    event = services.create_event(make_organiser(), **draft_fields())
    category = services.save_category(
        event.owner,
        event,
        name="Category A – Secondary School Student",
        quota=40,
        school_level="secondary",
        fees=[
            {"name": "Standard", "amount": "3", "note": "incl. GST"},
            {"name": "Passion Card holder", "amount": "2", "is_concession": True, "proof_label": "Passion Card number"},
        ],
        prizes=[
            {"rank_from": 1, "rank_to": 1, "description": "Shopping voucher S$100 + trophy", "amount": "100"},
            {"rank_from": 6, "rank_to": 10, "description": "Trophy"},
            {"kind": "lucky_draw", "description": "Lucky draw prizes for non-prize winners"},
        ],
    )
    # In the order the organiser entered them, as on the paper form.
    assert [(f.name, f.amount) for f in category.fees.all()] == [
        ("Standard", Decimal("3.00")),
        ("Passion Card holder", Decimal("2.00")),
    ]
    assert [p.ranks_text for p in category.prizes.all()] == ["1st", "6th–10th", "Lucky draw"]
    fee = category.fees.get(name="Standard")
    services.save_category(event.owner, event, category, fees=[{"id": fee.pk, "amount": "4"}])
    fee.refresh_from_db()
    assert fee.amount == Decimal("4.00")


@pytest.mark.parametrize(
    "fees, prizes, message",
    [
        ([{"name": "Standard", "amount": "-3"}], [], "A fee cannot be negative."),
        ([{"name": "Standard", "amount": "three"}], [], "as a number"),
        ([], [{"rank_from": 10, "rank_to": 6, "description": "Trophy"}], "higher place to the lower"),
        ([], [{"rank_from": 1, "description": "Cash", "amount": "-5"}], "cannot be negative"),
        ([], [{"description": "Trophy"}], "Give the place"),
    ],
)
def test_bad_fees_and_prizes_are_refused_and_nothing_is_saved(fees, prizes, message):
    event = services.create_event(make_organiser(), **draft_fields())
    with pytest.raises(services.EventError, match=message):
        services.save_category(event.owner, event, name="A", fees=fees, prizes=prizes)
    assert not Category.objects.exists() and not Fee.objects.exists() and not Prize.objects.exists()


def test_a_fee_with_entries_cannot_be_removed_nor_a_quota_lowered_below_the_entries():
    event, category, (fee,) = open_event(quota=5)
    for _ in range(3):
        services.register_entry(player_with_account().user, event, category=category, fee=fee)
    with pytest.raises(services.EventError, match="has entries"):
        services.save_category(event.owner, event, category, fees=[{"id": fee.pk, "delete": True}])
    with pytest.raises(services.EventError, match="3 entrants already hold places"):
        services.save_category(event.owner, event, category, quota=2)
    with pytest.raises(services.EventError, match="has entries"):
        services.delete_category(event.owner, category)


def test_another_organiser_cannot_touch_the_event():
    event, category, _ = open_event()
    intruder = make_organiser()
    for call in (
        lambda: services.update_event(intruder, event, title="Mine"),
        lambda: services.save_category(intruder, event, category, quota=1),
        lambda: services.publish_event(intruder, event),
        lambda: services.close_registration(intruder, event),
        lambda: services.cancel_event(intruder, event),
    ):
        with pytest.raises(NotAllowed):
            call()


def test_publishing_needs_a_category_and_a_closing_date():
    organiser = make_organiser()
    event = services.create_event(organiser, **draft_fields(registration_closes_at=None))
    with pytest.raises(services.EventError, match="at least one category"):
        services.publish_event(organiser, event)
    services.save_category(organiser, event, name="Open")
    with pytest.raises(services.EventError, match="closing date"):
        services.publish_event(organiser, event)
    services.update_event(organiser, event, registration_closes_at=datetime(2031, 8, 27, 23, 59, tzinfo=SGT))
    published = services.publish_event(organiser, event)
    assert published.status == EventStatus.PUBLISHED and published.published_at
    with pytest.raises(services.EventError, match="already published"):
        services.publish_event(organiser, event)


def test_publishing_after_the_opening_time_opens_registration_at_once():
    organiser = make_organiser()
    event = services.create_event(
        organiser,
        **draft_fields(
            starts_on=timezone.localdate() + timedelta(days=30),
            registration_opens_at=timezone.now() - timedelta(hours=1),
            registration_closes_at=timezone.now() + timedelta(days=10),
        ),
    )
    services.save_category(organiser, event, name="Open")
    assert services.publish_event(organiser, event).status == EventStatus.REGISTRATION_OPEN


def test_open_now_close_early_start_and_complete():
    event, category, (fee,) = open_event(status=EventStatus.PUBLISHED, registration_opens_at=None)
    owner = event.owner
    assert services.open_registration(owner, event).status == EventStatus.REGISTRATION_OPEN
    services.register_entry(player_with_account().user, event, category=category, fee=fee)
    closed = services.close_registration(owner, event)
    assert closed.status == EventStatus.REGISTRATION_CLOSED and closed.registration_closed_at
    with pytest.raises(services.RegistrationError, match="Registration closed on"):
        services.register_entry(player_with_account().user, event, category=category, fee=fee)
    with pytest.raises(services.EventError, match="you cannot start it before then"):
        services.start_event(owner, event)
    with time_machine.travel(datetime.combine(event.starts_on, datetime.min.time(), tzinfo=event.zone)):
        assert services.start_event(owner, event).status == EventStatus.IN_PROGRESS
        assert services.complete_event(owner, event).status == EventStatus.COMPLETED
    with pytest.raises(TransitionRefused, match="A completed event cannot become cancelled"):
        services.cancel_event(owner, event)


def test_opening_after_the_closing_date_asks_for_a_later_one():
    event, *_ = open_event(
        status=EventStatus.PUBLISHED,
        registration_opens_at=None,
        registration_closes_at=timezone.now() - timedelta(hours=1),
    )
    with pytest.raises(services.EventError, match="closing date has passed"):
        services.open_registration(event.owner, event)


def test_cancelling_tells_every_entrant_once_after_commit(on_commit):
    event, category, (fee,) = open_event(quota=1, refund_policy="Refunds within 14 days.")
    holder = services.register_entry(player_with_account().user, event, category=category, fee=fee)
    waiting = services.register_entry(player_with_account().user, event, category=category, fee=fee)
    services.record_payment(event.owner, holder, amount="3", method="in_person")
    mail.outbox = []
    with on_commit(execute=True):
        services.cancel_event(event.owner, event, "The hall is closed for repairs.")
    holder.refresh_from_db()
    waiting.refresh_from_db()
    assert holder.status == waiting.status == EntryStatus.CANCELLED
    assert sorted(m.to[0] for m in mail.outbox) == sorted([holder.player.email, waiting.player.email])
    paid_mail = next(m for m in mail.outbox if m.to == [holder.player.email])
    assert "hall is closed for repairs" in paid_mail.body and "Refunds within 14 days." in paid_mail.body
    with pytest.raises(services.RegistrationError, match="cancelled"):
        services.register_entry(player_with_account().user, event, category=category, fee=fee)


def test_the_event_limit_cannot_drop_below_the_entries():
    event, category, (fee,) = open_event()
    for _ in range(2):
        services.register_entry(player_with_account().user, event, category=category, fee=fee)
    with pytest.raises(services.EventError, match="2 entrants already hold places"):
        services.update_event(event.owner, event, max_entrants=1)


def test_event_factory_defaults_are_open():
    assert EventFactory().status == EventStatus.REGISTRATION_OPEN
