"""Factories for announcements and entries (members come from tests.factories)."""

from datetime import timedelta
from decimal import Decimal

import factory
import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from clubsite.kit.roles import ORGANISERS_GROUP
from clubsite.kit.text import markdown_html
from events.models import Category, Entry, EntryStatus, Event, EventStatus, Fee, Prize
from tests.factories import AssociationFactory, PlayerFactory, UserFactory


def make_organiser(**kwargs):
    user = UserFactory(**kwargs)
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    user.groups.add(group)
    return user


class EventFactory(factory.django.DjangoModelFactory):
    """An event open for registration: opened a day ago, closing in ten days, starting in twenty."""

    class Meta:
        model = Event

    slug = factory.Sequence(lambda n: f"event-{n}")
    title = factory.Sequence(lambda n: f"Championship {n}")
    owner = factory.LazyFunction(make_organiser)
    association = factory.SubFactory(AssociationFactory)
    status = EventStatus.REGISTRATION_OPEN
    starts_on = factory.LazyFunction(lambda: timezone.localdate() + timedelta(days=20))
    ends_on = factory.LazyAttribute(lambda o: o.starts_on)
    venue = "Jurong Green Community Club"
    registration_opens_at = factory.LazyFunction(lambda: timezone.now() - timedelta(days=1))
    registration_closes_at = factory.LazyFunction(lambda: timezone.now() + timedelta(days=10))
    payment_methods = factory.LazyFunction(lambda: ["in_person", "cheque"])
    payment_hold_hours = 72
    offer_hold_hours = 48
    description = ""
    rules_agreement = ""
    rule_amendments = ""
    payment_instructions = ""
    # Rendered as events.services.render_texts renders them when an event is saved: the HTML its pages show.
    description_html = factory.LazyAttribute(lambda o: markdown_html(o.description))
    rules_agreement_html = factory.LazyAttribute(lambda o: markdown_html(o.rules_agreement))
    rule_amendments_html = factory.LazyAttribute(lambda o: markdown_html(o.rule_amendments))
    payment_instructions_html = factory.LazyAttribute(lambda o: markdown_html(o.payment_instructions))


class CategoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Category

    event = factory.SubFactory(EventFactory)
    name = factory.Sequence(lambda n: f"Category {n}")
    position = factory.Sequence(lambda n: n)


class FeeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Fee

    category = factory.SubFactory(CategoryFactory)
    name = "Standard"
    amount = Decimal("3.00")
    note = "incl. GST"


class PrizeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Prize

    category = factory.SubFactory(CategoryFactory)
    rank_from = 1
    rank_to = 1
    description = "Trophy"


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    category = factory.SubFactory(CategoryFactory)
    event = factory.LazyAttribute(lambda o: o.category.event)
    player = factory.SubFactory(PlayerFactory)
    status = EntryStatus.CONFIRMED
    accepted_at = factory.LazyFunction(timezone.now)


def player_with_account(**player_fields):
    """A player linked to a log-in (what register_entry needs for "enter myself")."""
    user = UserFactory()
    return PlayerFactory(user=user, email=user.email, **player_fields)


def open_event(quota=None, fees=(Decimal("3.00"),), **event_fields):
    """An open event with one category (quota) and its fees; returns (event, category, [fees])."""
    event = EventFactory(**event_fields)
    category = CategoryFactory(event=event, name="Open", quota=quota)
    made = [FeeFactory(category=category, name=f"Fee {i}", amount=amount) for i, amount in enumerate(fees)]
    return event, category, made


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Test accounts need no slow password hashing (import this fixture into a test module)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
