"""The organiser's work: payments, moving entries, cancelling, emailing, exporting; and who may do it."""

from decimal import Decimal

import pytest
from django.core import mail
from django.urls import reverse

from clubsite.kit.errors import NotAllowed
from events import services
from events.models import EntryStatus, Payment
from events.permissions import can_direct_event, can_manage_event
from tests.events.factories import (
    CategoryFactory,
    FeeFactory,
    fast_passwords,  # noqa: F401
    make_organiser,
    open_event,
    player_with_account,
)
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def pending():
    event, category, (fee,) = open_event(quota=5)
    player = player_with_account()
    entry = services.register_entry(player.user, event, category=category, fee=fee)
    mail.outbox = []
    return event, entry


def test_recording_full_payment_confirms_the_entry_and_tells_the_player(pending, on_commit):
    event, entry = pending
    with on_commit(execute=True):
        payment = services.record_payment(event.owner, entry, amount="3.00", method="cheque", reference="123456")
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED and entry.amount_paid == Decimal("3.00") and entry.confirmed_at
    assert payment.reference == "123456" and payment.recorded_by == event.owner
    assert mail.outbox[0].subject == f"[Scrabble Association] Payment received – {event.title}"
    assert "Your entry is confirmed" in mail.outbox[0].body and "123456" in mail.outbox[0].body


def test_a_part_payment_leaves_the_entry_pending(pending):
    event, entry = pending
    services.record_payment(event.owner, entry, amount="1.00", method="in_person")
    entry.refresh_from_db()
    assert entry.status == EntryStatus.PENDING_PAYMENT and entry.balance == Decimal("2.00")


@pytest.mark.parametrize(
    "amount, method, reference, field, message",
    [
        ("-3", "in_person", "", "amount", "more than zero"),
        ("0", "in_person", "", "amount", "more than zero"),
        ("abc", "in_person", "", "amount", "Enter an amount"),
        ("5", "in_person", "", "amount", "more than the 3.00 still due"),
        ("3", "bitcoin", "", "method", "Choose how it was paid"),
        ("3", "cheque", "", "reference", "cheque number"),
    ],
)
def test_bad_payments_are_refused_and_nothing_is_saved(pending, amount, method, reference, field, message):
    event, entry = pending
    with pytest.raises(services.RegistrationError) as refusal:
        services.record_payment(event.owner, entry, amount=amount, method=method, reference=reference)
    assert refusal.value.field == field and message in refusal.value.message
    assert not Payment.objects.exists()
    entry.refresh_from_db()
    assert entry.amount_paid == 0


def test_only_the_owner_or_staff_record_payments(pending):
    event, entry = pending
    with pytest.raises(NotAllowed):
        services.record_payment(make_organiser(), entry, amount="3", method="in_person")
    with pytest.raises(NotAllowed):
        services.record_payment(entry.player.user, entry, amount="3", method="in_person")
    staff = UserFactory(is_staff=True)
    services.record_payment(staff, entry, amount="3", method="in_person")


def test_no_payment_for_a_lapsed_entry(pending):
    event, entry = pending
    services.withdraw_entry(entry.player.user, entry)
    with pytest.raises(services.RegistrationError, match="withdrawn: it holds no place"):
        services.record_payment(event.owner, entry, amount="3", method="in_person")


def test_moving_an_entry_keeps_its_place_in_the_queue_and_frees_the_old_one():
    event, a, (fee_a,) = open_event(quota=1)
    b = CategoryFactory(event=event, name="B", quota=2)
    fee_b = FeeFactory(category=b, amount=Decimal("2"))
    first = services.register_entry(player_with_account().user, event, category=a, fee=fee_a)
    waiting = services.register_entry(player_with_account().user, event, category=a, fee=fee_a)
    moved = services.move_entry(event.owner, first, b)
    assert moved.category == b and moved.fee == fee_b and moved.amount_due == Decimal("2.00")
    assert moved.accepted_at == first.accepted_at
    waiting.refresh_from_db()
    assert waiting.status == EntryStatus.OFFERED


def test_moving_into_a_full_category_is_refused():
    event, a, (fee_a,) = open_event()
    b = CategoryFactory(event=event, name="B", quota=1)
    FeeFactory(category=b)
    services.register_entry(player_with_account().user, event, category=b, fee=b.fees.get())
    entry = services.register_entry(player_with_account().user, event, category=a, fee=fee_a)
    with pytest.raises(services.RegistrationError, match="B has no place left"):
        services.move_entry(event.owner, entry, b)
    entry.refresh_from_db()
    assert entry.category == a


def test_only_the_organiser_moves_or_cancels(pending):
    event, entry = pending
    other = CategoryFactory(event=event, name="Other")
    with pytest.raises(NotAllowed):
        services.move_entry(entry.player.user, entry, other)
    with pytest.raises(NotAllowed):
        services.cancel_entry(entry.player.user, entry)
    assert services.cancel_entry(event.owner, entry).status == EntryStatus.CANCELLED


def test_withdrawing_twice_says_so(pending):
    event, entry = pending
    services.withdraw_entry(entry.player.user, entry)
    with pytest.raises(services.RegistrationError, match="already withdrawn"):
        services.withdraw_entry(entry.player.user, entry)


def test_email_all_entrants_reaches_each_address_once_after_commit(pending, on_commit):
    event, entry = pending
    services.register_group(
        UserFactory(),
        event,
        contact={"contact_name": "Mr Lim", "address": "x", "phone": "1", "email": "lim@example.org"},
        students=[{"full_name": f"Kid {i}", "category": entry.category, "fee": entry.fee} for i in range(3)],
    )
    mail.outbox = []
    with on_commit(execute=True):
        sent = services.email_entrants(event.owner, event, subject="Venue change", body="We move to hall B.")
    assert sent == 2
    assert sorted(m.to[0] for m in mail.outbox) == sorted([entry.player.email, "lim@example.org"])
    assert all(m.subject == f"[Scrabble Association] Venue change – {event.title}" for m in mail.outbox)
    with pytest.raises(services.RegistrationError) as refusal:
        services.email_entrants(event.owner, event, subject="", body="x")
    assert refusal.value.field == "subject"
    with pytest.raises(NotAllowed):
        services.email_entrants(entry.player.user, event, subject="Hi", body="x")


def test_the_export_lists_every_entry_in_order(pending):
    event, entry = pending
    rows = list(services.entries_for_export(event))
    assert rows[0][:3] == ["Order", "Accepted at", "Status"]
    assert rows[1][2] == "Pending payment" and rows[1][5] == entry.player.full_name


def test_permission_helpers():
    event, *_ = open_event()
    director, stranger, staff = UserFactory(), UserFactory(), UserFactory(is_staff=True)
    event.directors.add(director)
    assert can_manage_event(event.owner, event) and can_manage_event(staff, event)
    assert not can_manage_event(director, event) and can_direct_event(director, event)
    assert not can_direct_event(stranger, event)


def test_cancelling_an_entry_on_the_manage_page_tells_the_entrant_why(client, pending, on_commit):
    from django.urls import reverse

    event, entry = pending
    client.force_login(event.owner)
    manage = client.get(reverse("events:manage", args=[event.slug])).content.decode()
    assert f'id="cancel-reason-{entry.pk}"' in manage and "will be told by email" in manage
    with on_commit(execute=True):
        response = client.post(
            reverse("events:cancel_entry", args=[entry.pk]), {"reason": "Entered twice by mistake."}, follow=True
        )
    assert "has been told by email" in response.content.decode()
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CANCELLED
    (message,) = [m for m in mail.outbox if m.to == [entry.player.email]]
    assert message.subject == f"[Scrabble Association] Entry cancelled – {event.title}"
    assert "has cancelled your entry" in message.body and "Reason: Entered twice by mistake." in message.body


@pytest.mark.parametrize(
    "reason, said",
    [("a\x00b", "holds a NUL character"), ("x" * 2001, "at most 2,000 characters long; this one has 2,001")],
)
def test_a_cancellation_reason_no_email_can_carry_is_refused_by_name(client, pending, on_commit, reason, said):
    """A NUL reached the email written to the outbox, which PostgreSQL refused (a 500); a long reason was cut at 500
    characters without a word. Now both are refused, naming the reason, and the entry stays as it was."""
    from django.urls import reverse

    event, entry = pending
    client.force_login(event.owner)
    with on_commit(execute=True):
        response = client.post(reverse("events:cancel_entry", args=[entry.pk]), {"reason": reason}, follow=True)
    assert response.status_code == 200 and said in response.content.decode()
    entry.refresh_from_db()
    assert entry.status != EntryStatus.CANCELLED and mail.outbox == []


def test_the_manage_page_shows_entries_fifty_at_a_time_for_the_same_queries(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from tests.events.factories import EntryFactory

    counts = {}
    for size in (3, 60):
        event, category, _fees = open_event()
        entries = [EntryFactory(category=category) for _ in range(size)]
        client.force_login(event.owner)
        url = reverse("events:manage", args=[event.slug])
        with CaptureQueriesContext(connection) as queries:
            first = client.get(url)
        counts[size] = len(queries)
    second = client.get(url, {"page": 2})
    assert [e.pk for e in first.context["page"]] + [e.pk for e in second.context["page"]] == [e.pk for e in entries]
    assert len(first.context["page"]) == 50 and entries[-1].player.full_name in second.content.decode()
    assert counts[3] == counts[60]


def test_moving_an_entry_to_a_concession_fee_asks_for_its_proof_as_entering_does(client):
    event, a, (fee_a,) = open_event()
    card = FeeFactory(category=a, name="Passion Card", amount=Decimal("2"), is_concession=True, proof_label="card no.")
    entry = services.register_entry(player_with_account().user, event, category=a, fee=fee_a)

    with pytest.raises(services.RegistrationError, match="asks for the card no.") as refused:
        services.move_entry(event.owner, entry, a, card)
    assert refused.value.field == "concession_proof"
    entry.refresh_from_db()
    assert entry.fee == fee_a and entry.concession_proof == ""

    # Through the organiser's page: the refusal sits on the proof field; with the card number the move is made.
    from events.forms import option_value

    client.force_login(event.owner)
    url = reverse("events:move_entry", args=[entry.pk])
    page = client.post(url, {"option": option_value(a, card)})
    assert page.status_code == 200 and "asks for the card no." in page.content.decode()
    assert "concession_proof" in page.context["form"].errors
    assert client.post(url, {"option": option_value(a, card), "concession_proof": "PC 1234"}).status_code == 302
    entry.refresh_from_db()
    assert (entry.fee, entry.concession_proof, entry.amount_due) == (card, "PC 1234", Decimal("2.00"))

    # Back to the standard fee: the proof is no longer needed and is not kept.
    services.move_entry(event.owner, entry, a, fee_a)
    entry.refresh_from_db()
    assert (entry.fee, entry.concession_proof) == (fee_a, "")


def test_an_entry_with_its_concession_proof_moves_to_another_concession_fee_without_asking_again():
    event, a, _ = open_event(fees=())
    b = CategoryFactory(event=event, name="B")
    card_a = FeeFactory(category=a, name="Card", amount=Decimal("2"), is_concession=True, proof_label="card no.")
    card_b = FeeFactory(category=b, name="Card", amount=Decimal("1"), is_concession=True, proof_label="card no.")
    entry = services.register_entry(player_with_account().user, event, category=a, fee=card_a, concession_proof="PC 77")
    moved = services.move_entry(event.owner, entry, b)
    assert (moved.category, moved.fee, moved.concession_proof) == (b, card_b, "PC 77")


def test_a_category_form_names_only_its_first_new_fee(client):
    """A new category is offered one fee named "Standard"; the blank rows after it are blank, and a category
    that has fees shows them as they are."""
    event, category, (fee,) = open_event(quota=5)
    client.force_login(event.owner)
    new = client.get(reverse("events:category_add", args=[event.slug])).content.decode()
    assert new.count('value="Standard"') == 1 and 'name="fees-0-name"' in new and 'name="fees-2-name"' in new
    fee.name = "Members"
    fee.save()
    existing = client.get(reverse("events:category_edit", args=[event.slug, category.pk])).content.decode()
    assert 'value="Members"' in existing and 'value="Standard"' not in existing


def test_a_fee_row_filled_in_but_for_its_amount_is_refused_not_dropped(client):
    event, _, _ = open_event(quota=5)
    client.force_login(event.owner)
    url = reverse("events:category_add", args=[event.slug])
    data = {
        "name": "Under 18",
        "position": 2,
        "fees-TOTAL_FORMS": "3",
        "fees-INITIAL_FORMS": "1",
        "fees-MIN_NUM_FORMS": "0",
        "fees-MAX_NUM_FORMS": "1000",
        "fees-0-name": "Standard",
        "fees-1-name": "Student",
        "fees-1-is_concession": "on",
        "prizes-TOTAL_FORMS": "0",
        "prizes-INITIAL_FORMS": "0",
        "prizes-MIN_NUM_FORMS": "0",
        "prizes-MAX_NUM_FORMS": "1000",
    }
    refused = client.post(url, data)
    assert refused.status_code == 200 and "Give this fee an amount, or clear the row." in refused.content.decode()
    assert not event.categories.filter(name="Under 18").exists()
    # The row offered as "Standard", left as it was, is no fee: the category is free.
    del data["fees-1-name"], data["fees-1-is_concession"]
    assert client.post(url, data).status_code == 302
    assert not event.categories.get(name="Under 18").fees.exists()


def test_the_manage_table_gives_each_entrants_email_and_phone(client):
    event, category, (fee,) = open_event(quota=5)
    player = player_with_account()
    services.register_entry(player.user, event, category=category, fee=fee, phone="9123 4567")
    client.force_login(event.owner)
    page = client.get(reverse("events:manage", args=[event.slug])).content.decode()
    assert f"{player.email}<br>9123 4567</td>" in page


def test_only_saved_fee_and_prize_rows_offer_delete(client):
    event, category, (fee,) = open_event(quota=5)
    client.force_login(event.owner)
    new = client.get(reverse("events:category_add", args=[event.slug])).content.decode()
    assert 'name="fees-0-DELETE"' not in new and 'name="prizes-0-DELETE"' not in new
    existing = client.get(reverse("events:category_edit", args=[event.slug, category.pk])).content.decode()
    assert 'name="fees-0-DELETE"' in existing and 'name="fees-1-DELETE"' not in existing


CATEGORY = {
    "name": "Under 18",
    "position": 2,
    "fees-TOTAL_FORMS": "1",
    "fees-INITIAL_FORMS": "0",
    "fees-0-name": "Standard",
    "fees-0-amount": "3",
    "prizes-TOTAL_FORMS": "1",
    "prizes-INITIAL_FORMS": "0",
    "prizes-0-kind": "place",
    "prizes-0-rank_from": "1",
    "prizes-0-rank_to": "3",
    "prizes-0-description": "Trophy",
}


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("prizes-0-rank_to", "99999999999999999999999", "Prize 1 (rank to): Ensure this value is less than or"),
        ("prizes-0-class_max_rating", "99999999999999999999999", "Prize 1 (class max rating): Ensure this value"),
    ],
)
def test_a_prize_out_of_its_columns_range_is_refused_on_the_page(client, field, value, message):
    """The service checks each fee and prize against its own limits: a rank of 99999999999999999999999 once
    reached the database, and the category page answered a server error."""
    event, _, _ = open_event()
    client.force_login(event.owner)
    response = client.post(reverse("events:category_add", args=[event.slug]), {**CATEGORY, field: value})
    assert response.status_code == 200 and message in response.content.decode()
    assert not event.categories.filter(name="Under 18").exists()


def test_the_service_refuses_a_fee_or_prize_beyond_its_limits_for_every_door():
    event, _, _ = open_event()
    with pytest.raises(services.EventError) as refusal:
        services.save_category(event.owner, event, name="Under 18", prizes=[{"description": "x" * 201, "rank_from": 1}])
    assert refusal.value.field == "prizes" and refusal.value.message.startswith("Prize 1 (description): Ensure")
    with pytest.raises(services.EventError) as refusal:
        services.save_category(event.owner, event, name="Under 18", fees=[{"name": "x" * 101, "amount": "3"}])
    assert refusal.value.field == "fees" and refusal.value.message.startswith("Fee 1 (name): Ensure")
    assert not event.categories.filter(name="Under 18").exists()


def test_a_crafted_row_count_builds_no_more_rows_than_a_category_may_have(client):
    """A row count of 99999999999999999999999 once built Django's 2,000 fee and 2,000 prize rows: half a minute a
    request. The count is bounded by the most rows a category has, and refused beyond it."""
    from events.forms import MAX_FEES, MAX_PRIZES

    event, _, _ = open_event()
    client.force_login(event.owner)
    huge = "99999999999999999999999"
    data = {**CATEGORY, "fees-TOTAL_FORMS": huge, "prizes-TOTAL_FORMS": huge}
    response = client.post(reverse("events:category_add", args=[event.slug]), data)
    assert response.status_code == 200
    assert len(response.context["fees"].forms) == MAX_FEES and len(response.context["prizes"].forms) == MAX_PRIZES
    assert not event.categories.filter(name="Under 18").exists()
