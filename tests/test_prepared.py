"""Prepared queries (clubsite.kit.prepared) give what the ORM gives, with new values each run, and refuse what
they cannot prepare; the registration's prepared queries keep their errors."""

import threading
from decimal import Decimal

import pytest
from django.db import connections, transaction
from django.db.models import Count, Exists, Max, OuterRef, Subquery
from django.db.transaction import TransactionManagementError
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubsite.kit.prepared import Prepared, PreparedQueryError
from events.models import Category, Entry, EntryStatus, Event, Fee
from players.models import Player
from tests.events.factories import (
    EntryFactory,
    fast_passwords,  # noqa: F401
    open_event,
    player_with_account,
)
from tests.factories import api_token

pytestmark = pytest.mark.django_db


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def _same_instance(prepared, orm) -> None:
    assert type(prepared) is type(orm)
    assert _fields(prepared) == _fields(orm)
    assert (prepared._state.db, prepared._state.adding) == (orm._state.db, orm._state.adding) == ("default", False)


def _compiled(prepared: Prepared, alias: str = "default"):
    return connections[alias].__dict__.get("clubsite_prepared", {}).get(prepared)


EVENT_BY_SLUG = Prepared(lambda slug: Event.objects.filter(slug=slug).order_by(), str)


def test_model_rows_are_the_orms_with_each_runs_values():
    events = [open_event(title=f"Prepared {i}")[0] for i in range(3)]
    for event in events + events[::-1]:
        _same_instance(EVENT_BY_SLUG.get(event.slug), Event.objects.get(slug=event.slug))
    assert EVENT_BY_SLUG.rows("no-such-event") == [] and EVENT_BY_SLUG.first("no-such-event") is None
    with pytest.raises(Event.DoesNotExist, match="Event matching query does not exist."):
        EVENT_BY_SLUG.get("no-such-event")
    # Loaded instances behave as the ORM's: saved as updates, deferred fields none.
    event = EVENT_BY_SLUG.get(events[0].slug)
    event.title = "Renamed"
    event.save(update_fields=["title"])
    assert Event.objects.get(pk=event.pk).title == "Renamed"


def test_select_related_rows_come_with_their_related_objects(django_assert_num_queries):
    player = player_with_account()
    key = Token.objects.create(user=player.user).key
    by_key = Prepared(lambda key: Token.objects.select_related("user").filter(key=key), str)
    token = by_key.get(key)
    with django_assert_num_queries(0):
        user = token.user
    _same_instance(user, Token.objects.select_related("user").get(key=key).user)
    _same_instance(token, Token.objects.get(key=key))

    entries = [EntryFactory(), EntryFactory()]
    with_all = Prepared(lambda pk: Entry.objects.select_related("event", "category", "player").filter(pk=pk), int)
    for entry in entries:
        prepared = with_all.get(entry.pk)
        orm = Entry.objects.select_related("event", "category", "player").get(pk=entry.pk)
        _same_instance(prepared, orm)
        with django_assert_num_queries(0):
            related = (prepared.event, prepared.category, prepared.player)
        for mine, theirs in zip(related, (orm.event, orm.category, orm.player), strict=True):
            _same_instance(mine, theirs)


def test_annotations_are_set_on_the_instances():
    event, with_fees, _ = open_event()
    without = Category.objects.create(event=event, name="Free")
    has_fees = Exists(Fee.objects.filter(category=OuterRef("pk")))
    by_id = Prepared(lambda pk: Category.objects.filter(pk=pk).annotate(has_fees=has_fees).order_by("pk")[:1], int)
    for category in (with_fees, without, with_fees):
        orm = Category.objects.filter(pk=category.pk).annotate(has_fees=has_fees).order_by("pk").first()
        prepared = by_id.first(category.pk)
        _same_instance(prepared, orm)
        assert prepared.has_fees is orm.has_fees is (category == with_fees)


def test_two_values_go_to_their_own_places():
    first, second = open_event()[0], open_event()[0]
    player = player_with_account()
    EntryFactory(event=second, category=second.categories.get(), player=player, status=EntryStatus.WAITLISTED)

    def own(user_id, event_id):
        active = Entry.objects.filter(event=event_id, player=OuterRef("pk")).order_by("pk").values("status")[:1]
        return Player.objects.filter(user=user_id).annotate(active_status=Subquery(active))[:1]

    prepared = Prepared(own, int, int)
    assert prepared.first(player.user_id, first.pk).active_status is None
    assert prepared.first(player.user_id, second.pk).active_status == EntryStatus.WAITLISTED
    assert prepared.first(player_with_account().user_id, second.pk).active_status is None
    assert prepared.first(player.user_id, second.pk).pk == player.pk


def test_values_rows_are_dicts_tuples_or_flat_as_asked():
    event, category, (fee,) = open_event()
    other = Category.objects.create(event=event, name="Other")
    for status in (EntryStatus.CONFIRMED, EntryStatus.CONFIRMED, EntryStatus.WAITLISTED):
        EntryFactory(event=event, category=category, status=status)
    EntryFactory(event=event, category=other, status=EntryStatus.PENDING_PAYMENT, amount_due=Decimal("3.00"))

    def grouped(event_id):
        return (
            Entry.objects.filter(event=event_id)
            .values("category", "status")
            .annotate(n=Count("pk"), last=Max("accepted_at"))
            .order_by("category", "status")
        )

    dicts = Prepared(grouped, int)
    assert dicts.rows(event.pk) == list(grouped(event.pk)) and len(dicts.rows(event.pk)) == 3
    assert dicts.rows(open_event()[0].pk) == []
    tuples = Prepared(lambda pk: Entry.objects.filter(event=pk).order_by("pk").values_list("pk", "status"), int)
    assert tuples.rows(event.pk) == list(Entry.objects.filter(event=event).order_by("pk").values_list("pk", "status"))
    flat = Prepared(lambda pk: Fee.objects.filter(category__event=pk).values_list("amount", flat=True), int)
    assert flat.rows(event.pk) == list(Fee.objects.filter(category__event=event).values_list("amount", flat=True))
    assert flat.rows(event.pk) == [Decimal("3.00")]


def test_values_are_coerced_as_the_orms_fields_coerce_them():
    event = open_event()[0]
    by_pk = Prepared(lambda pk: Event.objects.filter(pk=pk).order_by(), int)
    assert by_pk.get(str(event.pk)).pk == event.pk
    with pytest.raises(ValueError, match="IS NULL"):
        by_pk.rows(None)
    with pytest.raises(ValueError):
        by_pk.rows("not a number")
    with pytest.raises(TypeError, match="takes 1 values, not 2"):
        by_pk.rows(1, 2)


def test_a_value_the_sql_does_not_carry_as_given_is_refused_when_compiled():
    transformed = Prepared(lambda text: Event.objects.filter(title__contains=text), str)
    with pytest.raises(PreparedQueryError, match="not among the query's parameters .a lookup transformed it"):
        transformed.rows("Open")
    unused = Prepared(lambda text: Event.objects.filter(title="Open"), str)
    with pytest.raises(PreparedQueryError, match="not among the query's parameters .build.. does not use it"):
        unused.rows("Open")
    # A query that differs with the value (built two ways here) is found out by compiling it with two stand-ins.
    shaped = Prepared(lambda text: Event.objects.filter(**{"title" if "-0-" in text else "slug": text}), str)
    with pytest.raises(PreparedQueryError, match="depends on the values"):
        shaped.rows("x")
    with pytest.raises(PreparedQueryError, match="are not supported"):
        Prepared(lambda pk: Event.objects.filter(pk=pk).prefetch_related("categories"), int).rows(1)


def test_a_small_integer_field_cannot_be_prepared(postgres):
    # The integer stand-ins are out of a small field's range on PostgreSQL: the ORM compiles such a lookup to nothing.
    small = Prepared(lambda n: Category.objects.filter(position=n), int)
    with pytest.raises(PreparedQueryError, match="matches nothing"):
        small.rows(1)


@pytest.mark.django_db(transaction=True)
def test_for_update_is_refused_outside_a_transaction(postgres):
    event = open_event()[0]
    locked = Prepared(lambda pk: Event.objects.select_for_update().filter(pk=pk).order_by(), int)
    with pytest.raises(TransactionManagementError, match="select_for_update cannot be used outside of a transaction"):
        locked.get(event.pk)
    with transaction.atomic():
        assert locked.get(event.pk).pk == event.pk
    with pytest.raises(TransactionManagementError):
        locked.get(event.pk)  # compiled by now, and still refused


@pytest.mark.django_db(transaction=True)
def test_each_connection_compiles_its_own():
    event = open_event()[0]
    assert EVENT_BY_SLUG.get(event.slug).pk == event.pk
    mine = _compiled(EVENT_BY_SLUG)
    assert mine is not None
    seen = {}

    def elsewhere():
        try:
            seen["before"] = _compiled(EVENT_BY_SLUG)
            seen["pk"] = EVENT_BY_SLUG.get(event.slug).pk
            seen["after"] = _compiled(EVENT_BY_SLUG)
            seen["connection"] = connections["default"]
        finally:
            connections.close_all()

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert seen["pk"] == event.pk and seen["before"] is None
    assert seen["after"] is not None and seen["after"] is not mine and seen["connection"] is not connections["default"]
    assert _compiled(EVENT_BY_SLUG) is mine


def test_registration_by_token_keeps_the_apis_answers():
    event, category, _ = open_event(fees=())
    player = player_with_account()
    api = APIClient()
    body = {"event": event.slug, "category": category.pk, "accept_rules": True}
    api.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    refused = api.post("/api/my/entries/", body, format="json")
    assert refused.status_code == 401 and refused.json() == {"detail": "Invalid token."}
    api.credentials(HTTP_AUTHORIZATION=f"Token {api_token(player.user)}")
    unknown = api.post("/api/my/entries/", {**body, "event": "no-such-event"}, format="json")
    assert unknown.status_code == 400
    assert unknown.json() == {"event": ["Object with slug=no-such-event does not exist."]}
    created = api.post("/api/my/entries/", body, format="json")
    assert created.status_code == 201, created.content
    assert Entry.objects.get(pk=created.json()["id"]).player == player
    player.user.is_active = False
    player.user.save(update_fields=["is_active"])
    inactive = api.post("/api/my/entries/", body, format="json")
    assert inactive.status_code == 401 and inactive.json() == {"detail": "This account is inactive."}
