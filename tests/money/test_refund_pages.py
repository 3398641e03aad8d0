"""The organiser's side of money for one event: refunding a payment from its page (a credit note, the entry
charged less), applying held money to a lapsed entry, the event's money page (held money first, refunds due
once cancelled) and the cancel confirmation counting the refunds it will need; strangers get nothing."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events import services as events
from events.models import Entry, EntryStatus, Event
from events.services.payments import entry_reference
from money import services
from money.models import Method, Payment, Refund
from tests.events.factories import fast_passwords  # noqa: F401
from tests.factories import UserFactory
from tests.money.test_ledger import entered, seed_event

pytestmark = pytest.mark.django_db

POLICY = "Full refund up to a week before the event; half after that."


def paid_entry(event, category, fee, amount="3.00", method=Method.PAYNOW):
    entry = entered(event, category, fee)
    payment = services.receive(reference=entry_reference(entry), amount=amount, method=method).payment
    return entry, payment


@pytest.fixture
def paid():
    event, category, standard, _ = seed_event(refund_policy=POLICY)
    entry, payment = paid_entry(event, category, standard)
    return event, entry, payment


def test_the_organiser_refunds_half_an_entry_from_the_page(client, paid, on_commit):
    event, entry, payment = paid
    client.force_login(event.owner)
    url = reverse("money:refund", args=[payment.number])
    page = client.get(url)
    assert page.status_code == 200
    assert page.context["form"].initial["amount"] == Decimal("3.00") and POLICY in page.content.decode()
    with on_commit(execute=True):
        answer = client.post(url, {"amount": "1.50", "reason": "Withdrew a week before"}, follow=True)
    credit = Refund.objects.get()
    assert answer.redirect_chain[-1][0] == reverse("money:event_money", args=[event.slug])
    text = answer.content.decode()
    assert f'credit note <a href="/money/credit-notes/{credit.number}/">{credit.number}</a>' in text
    entry.refresh_from_db()
    payment.refresh_from_db()
    assert payment.refunded == credit.amount == Decimal("1.50") and credit.refunded_by == event.owner
    assert entry.amount_due == entry.amount_paid == Decimal("1.50") and entry.balance == 0
    assert entry.status == EntryStatus.CONFIRMED
    assert credit.number in text and "Withdrew a week before" in text  # listed under the credit notes


@pytest.mark.parametrize("who", ["stranger", "player", "organiser of another event"])
def test_only_the_events_organiser_or_staff_may_refund(client, paid, who):
    event, entry, payment = paid
    user = {
        "stranger": UserFactory(),
        "player": entry.player.user,
        "organiser of another event": seed_event()[0].owner,
    }[who]
    client.force_login(user)
    refund_url = reverse("money:refund", args=[payment.number])
    assert client.get(refund_url).status_code == 403
    assert client.post(refund_url, {"amount": "3.00", "reason": "Mine"}).status_code == 403
    assert client.post(reverse("money:reinstate", args=[payment.number])).status_code == 403
    assert client.get(reverse("money:event_money", args=[event.slug])).status_code == 403
    payment.refresh_from_db()
    entry.refresh_from_db()
    assert payment.refunded == 0 and not Refund.objects.exists() and entry.amount_paid == Decimal("3.00")


def test_association_staff_may_refund_and_the_anonymous_are_sent_to_log_in(client, paid):
    event, entry, payment = paid
    url = reverse("money:refund", args=[payment.number])
    assert client.get(url).status_code == 302
    client.force_login(UserFactory(is_staff=True))
    assert client.post(url, {"amount": "3.00", "reason": "Event moved"}).status_code == 302
    payment.refresh_from_db()
    assert payment.refunded == Decimal("3.00")


@pytest.mark.parametrize(
    "data, message",
    [
        ({"amount": "4.00", "reason": "Too much"}, "At most SGD 3.00 of this payment can still be refunded."),
        ({"amount": "1.00", "reason": "  "}, "This field is required."),
        ({"amount": "-1", "reason": "Why"}, "greater than or equal to 0.01"),
        ({"amount": "abc", "reason": "Why"}, "Enter a number."),
    ],
)
def test_a_refund_the_service_refuses_shows_on_its_field(client, paid, data, message):
    event, entry, payment = paid
    client.force_login(event.owner)
    page = client.post(reverse("money:refund", args=[payment.number]), data)
    assert page.status_code == 200
    form = page.context["form"]
    field = "amount" if "amount" in form.errors else "reason"
    assert any(message in error for error in form.errors[field])
    assert not Refund.objects.exists()


def test_more_than_is_left_after_an_earlier_refund_is_refused_with_what_is_left(client, paid):
    event, entry, payment = paid
    services.refund(event.owner, payment, amount="2.00", reason="Most of it")
    client.force_login(event.owner)
    url = reverse("money:refund", args=[payment.number])
    assert client.get(url).context["form"].initial["amount"] == Decimal("1.00")
    page = client.post(url, {"amount": "1.50", "reason": "Again"})
    assert page.context["form"].errors["amount"] == ["At most SGD 1.00 of this payment can still be refunded."]


def lapsed_and_paid_late(time_machine, quota=1):
    event, category, standard, _ = seed_event(quota=quota)
    entry = entered(event, category, standard)
    Entry.objects.filter(pk=entry.pk).update(payment_due_at=entry.accepted_at + timedelta(hours=1))
    time_machine.move_to(entry.accepted_at + timedelta(hours=2))
    payment = services.receive(reference=entry_reference(entry), amount="3.00", method=Method.PAYNOW).payment
    entry.refresh_from_db()
    assert entry.status == EntryStatus.LAPSED and payment.held == Decimal("3.00")
    return event, entry, payment


def test_money_held_for_a_lapsed_entry_comes_first_and_reinstating_applies_it(client, time_machine):
    event, entry, payment = lapsed_and_paid_late(time_machine)
    client.force_login(event.owner)
    page = client.get(reverse("money:event_money", args=[event.slug])).content.decode()
    attention = page.index("Needs your attention: money held")
    assert attention < page.index('id="payments"')
    held = page[attention : page.index("</section>", attention)]
    assert payment.number in held and "The entry lapsed before this payment arrived." in held
    assert reverse("money:reinstate", args=[payment.number]) in held
    assert reverse("money:refund", args=[payment.number]) in held

    answer = client.post(reverse("money:reinstate", args=[payment.number]), follow=True)
    assert f"The money held on receipt {payment.number} is applied" in answer.content.decode()
    entry.refresh_from_db()
    payment.refresh_from_db()
    assert entry.status == EntryStatus.CONFIRMED and entry.amount_paid == Decimal("3.00") and payment.held == 0
    assert "Needs your attention" not in answer.content.decode()


def test_reinstating_when_the_place_has_gone_says_why_and_changes_nothing(client, time_machine):
    event, entry, payment = lapsed_and_paid_late(time_machine)
    paid_entry(event, entry.category, entry.fee)  # the only place is taken meanwhile
    client.force_login(event.owner)
    answer = client.post(reverse("money:reinstate", args=[payment.number]), follow=True)
    assert "is full: refund the held money" in answer.content.decode()
    payment.refresh_from_db()
    entry.refresh_from_db()
    assert payment.held == Decimal("3.00") and entry.status == EntryStatus.LAPSED


def test_cancelling_an_event_lists_every_refund_due(client):
    event, category, standard, passion = seed_event()
    _, first = paid_entry(event, category, standard)
    _, second = paid_entry(event, category, standard, method=Method.BANK_TRANSFER)
    entered(event, category, standard)  # unpaid: nothing to refund
    client.force_login(event.owner)
    manage = client.get(reverse("events:manage", args=[event.slug])).content.decode()
    assert "2 payments (S$6.00 in all) will need refunding" in manage
    assert reverse("money:event_money", args=[event.slug]) in manage

    events.cancel_event(event.owner, Event.objects.get(pk=event.pk), "Venue closed")
    page = client.get(reverse("money:event_money", args=[event.slug])).content.decode()
    due = page[page.index("Refunds due") : page.index("</section>", page.index("Refunds due"))]
    assert "2 payments still have money to give back, S$6.00 in all" in due
    assert first.number in due and second.number in due

    services.refund(event.owner, first, amount="3.00", reason="Event cancelled")
    page = client.get(reverse("money:event_money", args=[event.slug])).content.decode()
    due = page[page.index("Refunds due") : page.index("</section>", page.index("Refunds due"))]
    assert "1 payment still has money to give back, S$3.00 in all" in due
    assert first.number not in due and second.number in due


def test_the_event_money_page_shows_payments_credit_notes_what_is_owed_and_totals(client):
    event, category, standard, passion = seed_event()
    _, paid = paid_entry(event, category, standard)
    _, over = paid_entry(event, category, standard, amount="5.00")
    part = entered(event, category, standard)
    services.receive(reference=entry_reference(part), amount="1.00", method=Method.PAYNOW)
    credit = services.refund(event.owner, paid, amount="1.00", reason="Passion Card shown late")
    client.force_login(event.owner)
    page = client.get(reverse("money:event_money", args=[event.pk]))  # by number as well as by slug
    totals = page.context["totals"]
    assert totals["received"] == Decimal("9.00") and totals["refunded"] == Decimal("1.00")
    assert totals["net"] == Decimal("8.00") and totals["held"] == Decimal("2.00") and totals["held_count"] == 1
    assert totals["outstanding"] == Decimal("2.00") and totals["outstanding_count"] == 1
    text = page.content.decode()
    assert over.number in text[: text.index('id="payments"')]  # paid more than due: held, first
    assert "Paid more than was due." in text
    assert f'href="/money/credit-notes/{credit.number}/"' in text and "Passion Card shown late" in text
    owed = text[text.index('id="owed"') :]
    assert entry_reference(part) in owed and "S$2.00" in owed


def test_the_manage_page_links_the_money_page_and_the_entry_payment_page_links_refunds(client, paid):
    event, entry, payment = paid
    client.force_login(event.owner)
    manage = client.get(reverse("events:manage", args=[event.slug])).content.decode()
    assert reverse("money:event_money", args=[event.slug]) in manage
    page = client.get(reverse("events:record_payment", args=[entry.pk])).content.decode()
    assert reverse("money:refund", args=[payment.number]) in page and payment.number in page


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_event_money_page_costs_the_same_queries_for_2_or_10_payments(client):
    event, category, standard, _ = seed_event()
    client.force_login(event.owner)
    url = reverse("money:event_money", args=[event.slug])

    def add(n):
        for i in range(n):
            _, payment = paid_entry(event, category, standard, amount="4.00" if i % 2 else "3.00")
            if i % 3 == 0:
                services.refund(event.owner, payment, amount="0.50", reason="Goodwill")
            unpaid = entered(event, category, standard)
            services.receive(reference=entry_reference(unpaid), amount="1.00", method=Method.PAYNOW)

    add(2)
    few = _queries(client, url)
    add(8)
    assert Payment.objects.filter(event=event).count() == 20
    assert _queries(client, url) == few


def test_the_cancelled_event_money_page_costs_the_same_queries_for_2_or_10_payments(client):
    event, category, standard, _ = seed_event()
    client.force_login(event.owner)
    url = reverse("money:event_money", args=[event.slug])
    for _ in range(2):
        paid_entry(event, category, standard)
    events.cancel_event(event.owner, Event.objects.get(pk=event.pk), "Venue closed")
    Payment.objects.update(applied=0)  # held, as money arriving after cancelling would be
    few = _queries(client, url)
    rows = list(Payment.objects.all())
    for i in range(8):
        Payment.objects.create(
            **{
                f.attname: getattr(rows[0], f.attname)
                for f in Payment._meta.concrete_fields
                if f.attname not in ("id", "number", "sequence", "external_id")
            },
            number=f"X-{i}",
            sequence=100 + i,
        )
    assert re.search(r"10 payments still have money", client.get(url).content.decode())
    assert _queries(client, url) == few


def test_a_cancelled_events_refunds_are_made_all_at_once_each_with_a_credit_note(client):
    event, category, standard, passion = seed_event()
    _, first = paid_entry(event, category, standard)
    _, second = paid_entry(event, category, standard)
    services.refund(event.owner, first, amount="1.00", reason="Goodwill")
    url = reverse("money:refund_all", args=[event.slug])
    client.force_login(UserFactory())
    assert client.post(url, {"reason": "x"}).status_code == 403
    client.force_login(event.owner)
    client.post(url, {"reason": "Not cancelled yet"})
    assert Refund.objects.count() == 1  # only a cancelled event's are refunded at once
    events.cancel_event(event.owner, Event.objects.get(pk=event.pk), "Venue closed")
    response = client.post(url, {"reason": "Venue closed"}, follow=True)
    assert "2 payments refunded, each with a credit note." in response.content.decode()
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.refundable == 0 and second.refundable == 0
    assert sorted(r.amount for r in Refund.objects.filter(reason="Venue closed")) == [Decimal("2.00"), Decimal("3.00")]
    page = client.get(reverse("money:event_money", args=[event.slug])).content.decode()
    assert "every payment has been refunded" in page
