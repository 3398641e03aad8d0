"""The events API: public announcements, my entries, the organiser's entries; the same services as the pages."""

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from events import services
from events.models import Entry, EntryStatus, EventStatus
from tests.events.factories import (
    EventFactory,
    fast_passwords,  # noqa: F401
    open_event,
    player_with_account,
)
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def test_events_categories_and_fees_are_public(api):
    event, category, (fee,) = open_event(quota=10, title="API Championship")
    EventFactory(title="Draft one", status=EventStatus.DRAFT)
    listing = api.get("/api/events/").json()
    assert [e["title"] for e in listing["results"]] == ["API Championship"]
    detail = api.get(f"/api/events/{event.slug}/").json()
    (cat,) = detail["categories"]
    assert cat["name"] == category.name and cat["quota"] == 10 and cat["places_left"] == 10
    assert cat["fees"] == [
        {
            "id": fee.pk,
            "name": fee.name,
            "amount": "3.00",
            "note": "incl. GST",
            "is_concession": False,
            "proof_label": "",
            "audience": "",
            "until": None,
        }
    ]
    assert api.post("/api/events/", {}).status_code in (403, 405)


def test_my_entries_create_withdraw_and_errors(api):
    event, category, (fee,) = open_event(quota=1)
    player = player_with_account()
    api.force_authenticate(player.user)
    created = api.post("/api/my/entries/", {"event": event.slug, "category": category.pk, "fee": fee.pk}, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["status"] == "pending_payment" and created.json()["balance"] == "3.00"
    again = api.post("/api/my/entries/", {"event": event.slug, "category": category.pk, "fee": fee.pk}, format="json")
    assert again.status_code == 400 and "already entered" in again.json()["category"][0]
    entry_id = created.json()["id"]
    assert [e["id"] for e in api.get("/api/my/entries/").json()["results"]] == [entry_id]
    withdrawn = api.post(f"/api/my/entries/{entry_id}/withdraw/")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    # A withdrawn entry owes nothing, as its payment page says; what was due stays on record.
    assert withdrawn.json()["balance"] == "0.00" and withdrawn.json()["amount_due"] == "3.00"
    assert api.get(f"/api/my/entries/{entry_id}/").json()["balance"] == "0.00"


def test_a_waitlisted_entry_sees_its_position_and_accepts_an_offer(api):
    event, category, (fee,) = open_event(quota=1)
    first = services.register_entry(player_with_account().user, event, category=category, fee=fee)
    me = player_with_account()
    api.force_authenticate(me.user)
    mine = api.post(
        "/api/my/entries/", {"event": event.slug, "category": category.pk, "fee": fee.pk}, format="json"
    ).json()
    assert mine["status"] == "waitlisted" and mine["waitlist_position"] == 1
    refused = api.post(f"/api/my/entries/{mine['id']}/accept-offer/")
    assert refused.status_code == 400 and "no offer to accept" in refused.json()["detail"]
    services.withdraw_entry(first.player.user, first)
    accepted = api.post(f"/api/my/entries/{mine['id']}/accept-offer/")
    assert accepted.json()["status"] == "pending_payment"


def test_others_entries_are_not_mine(api):
    event, category, (fee,) = open_event()
    entry = services.register_entry(player_with_account().user, event, category=category, fee=fee)
    api.force_authenticate(UserFactory())
    assert api.post(f"/api/my/entries/{entry.pk}/withdraw/").status_code == 404
    assert api.get("/api/my/entries/").json()["count"] == 0


def test_organiser_lists_entries_and_records_a_payment(api):
    event, category, (fee,) = open_event()
    entry = services.register_entry(player_with_account().user, event, category=category, fee=fee)
    other, other_category, (other_fee,) = open_event()  # someone else's event
    services.register_entry(player_with_account().user, other, category=other_category, fee=other_fee)
    api.force_authenticate(event.owner)
    listing = api.get("/api/organiser/entries/", {"event": event.slug}).json()
    assert [e["id"] for e in listing["results"]] == [entry.pk]
    assert api.get("/api/organiser/entries/").json()["count"] == 1
    bad = api.post(
        f"/api/organiser/entries/{entry.pk}/record-payment/", {"amount": "-3", "method": "cheque"}, format="json"
    )
    assert bad.status_code == 400
    paid = api.post(
        f"/api/organiser/entries/{entry.pk}/record-payment/",
        {"amount": "3.00", "method": "cheque", "reference": "123"},
        format="json",
    )
    assert paid.status_code == 200 and paid.json()["status"] == "confirmed"
    assert Entry.objects.get(pk=entry.pk).amount_paid == Decimal("3.00")


def test_a_player_cannot_record_payments(api):
    event, category, (fee,) = open_event()
    entry = services.register_entry(player_with_account().user, event, category=category, fee=fee)
    api.force_authenticate(entry.player.user)
    response = api.post(f"/api/organiser/entries/{entry.pk}/record-payment/", {"amount": "3", "method": "cheque"})
    assert response.status_code == 404
    assert Entry.objects.get(pk=entry.pk).status == EntryStatus.PENDING_PAYMENT


def test_the_schema_builds(api):
    assert api.get("/api/schema/").status_code == 200
