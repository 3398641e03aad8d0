"""The treasurer's page and its CSV: every payment, refund and amount owed for a period, an event and a way of
paying, totals per event and overall; association staff only; the same few queries however much money."""

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from events.models import Entry
from events.services.payments import entry_reference
from money import services
from money.models import Method, Payment, PaymentSettings
from money.services import reports
from players.services import renewal_reference, request_renewal
from tests.events.factories import fast_passwords, player_with_account  # noqa: F401
from tests.factories import MembershipFactory, UserFactory
from tests.money.test_ledger import entered, seed_event

pytestmark = pytest.mark.django_db


def pay(event, category, fee, amount="3.00", method=Method.PAYNOW, proof="", **extra):
    entry = entered(event, category, fee, concession_proof=proof) if proof else entered(event, category, fee)
    if method == Method.CHEQUE:
        extra.setdefault("payer_reference", "000123")
    return services.receive(reference=entry_reference(entry), amount=amount, method=method, **extra).payment


@pytest.fixture
def staff(client):
    user = UserFactory(is_staff=True, first_name="Tan", last_name="Treasurer")
    client.force_login(user)
    return user


@pytest.fixture
def books():
    """Two events' money this month, one payment last month, a refund, a renewal asked for and unpaid."""
    today = timezone.localdate()
    open_, category, standard, passion = seed_event(title="Burst Open")
    schools, s_category, s_standard, _ = seed_event(title="Schools Cup")
    a = pay(open_, category, standard)
    b = pay(open_, category, passion, amount="2.00", method=Method.CHEQUE, proof="P1")
    c = pay(schools, s_category, s_standard, amount="5.00", method=Method.BANK_TRANSFER)  # 2.00 more than due
    old = pay(open_, category, standard, received_on=today.replace(day=1) - timedelta(days=1))
    credit = services.refund(open_.owner, a, amount="1.50", reason="Withdrew a week before")
    member = player_with_account()
    MembershipFactory(player=member, fee=Decimal("20.00"))
    renewal = request_renewal(member.user, member)
    unpaid = entered(schools, s_category, s_standard)
    return {
        "open": open_, "schools": schools, "a": a, "b": b, "c": c, "old": old, "credit": credit,
        "renewal": renewal, "unpaid": unpaid,
    }  # fmt: skip


def test_the_page_totals_this_month_overall_and_per_event_with_a_refund(client, staff, books):
    page = client.get(reverse("money:treasurer"))
    assert page.status_code == 200
    summary = page.context["summary"]
    assert summary.overall.received == Decimal("10.00") and summary.overall.payments == 3
    assert summary.overall.refunded == Decimal("1.50") and summary.overall.net == Decimal("8.50")
    assert summary.overall.held == Decimal("2.00")
    per_event = {t.title: t for t in summary.events}
    assert (per_event["Burst Open"].received, per_event["Burst Open"].refunded, per_event["Burst Open"].net) == (
        Decimal("5.00"),
        Decimal("1.50"),
        Decimal("3.50"),
    )
    assert (per_event["Schools Cup"].received, per_event["Schools Cup"].held) == (Decimal("5.00"), Decimal("2.00"))
    text = page.content.decode()
    assert books["a"].number in text and books["credit"].number in text and books["old"].number not in text
    assert "Withdrew a week before" in text
    owing = page.context["owing"]
    assert owing["outstanding"] == Decimal("3.00") and owing["outstanding_count"] == 1
    assert owing["renewals_outstanding"] == Decimal("20.00") and owing["renewals_count"] == 1
    assert entry_reference(books["unpaid"]) in text and renewal_reference(books["renewal"]) in text


def test_a_chosen_period_and_event(client, staff, books):
    today = timezone.localdate()
    last_month = books["old"].received_on
    chosen = {"start": last_month.isoformat(), "end": today.isoformat(), "event": books["open"].pk}
    page = client.get(reverse("money:treasurer"), chosen)
    summary = page.context["summary"]
    assert summary.overall.received == Decimal("8.00") and summary.overall.payments == 3
    assert [t.title for t in summary.events] == ["Burst Open"]
    assert page.context["renewals"] is None  # renewals belong to no event
    only_last_month = client.get(
        reverse("money:treasurer"), {"start": last_month.isoformat(), "end": last_month.isoformat()}
    ).context["summary"]
    assert only_last_month.overall.received == Decimal("3.00") and only_last_month.overall.refunded == 0


def test_the_method_filter(client, staff, books):
    page = client.get(reverse("money:treasurer"), {"method": Method.CHEQUE})
    summary = page.context["summary"]
    assert summary.overall.received == Decimal("2.00") and summary.overall.refunded == 0
    assert [p.number for p in page.context["payments"]] == [books["b"].number]
    paynow = client.get(reverse("money:treasurer"), {"method": Method.PAYNOW}).context["summary"]
    assert paynow.overall.received == Decimal("3.00") and paynow.overall.refunded == Decimal("1.50")


def test_bad_filters_are_named_and_the_page_still_shows_this_month(client, staff, books):
    page = client.get(reverse("money:treasurer"), {"start": "2026-02-30", "end": "2020-01-01", "method": "bitcoin"})
    form = page.context["form"]
    assert "start" in form.errors and "method" in form.errors
    assert page.context["summary"].overall.received == Decimal("10.00")
    backwards = client.get(reverse("money:treasurer"), {"start": "2026-03-02", "end": "2026-03-01"})
    assert backwards.context["form"].errors["end"] == ["The period must end on or after the day it starts."]
    answer = client.get(reverse("money:treasurer_csv"), {"start": "2026-03-02", "end": "2026-03-01"})
    assert answer.status_code == 400 and "To: The period must end on or after" in answer.content.decode()


def read_csv(response) -> list[dict]:
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_the_csv_has_a_row_per_payment_and_refund_and_adds_up_to_the_page(client, staff, books):
    rows = read_csv(client.get(reverse("money:treasurer_csv")))
    assert list(rows[0]) == reports.CSV_HEADER
    by_number = {row["Document number"]: row for row in rows}
    assert set(by_number) == {books["a"].number, books["b"].number, books["c"].number, books["credit"].number}
    receipt, credit = by_number[books["a"].number], by_number[books["credit"].number]
    assert (receipt["Kind"], receipt["Amount"], receipt["GST included"]) == ("receipt", "3.00", "0.25")
    assert (credit["Kind"], credit["Amount"], credit["GST included"]) == ("credit note", "-1.50", "-0.12")
    assert credit["Reference"] == books["a"].reference and credit["Event"] == "Burst Open"
    assert credit["Recorded by"] == books["open"].owner.email and credit["Method"] == "PayNow"
    assert "Withdrew a week before" in credit["Description"] and books["a"].number in credit["Description"]
    assert by_number[books["b"].number]["Method"] == "Cheque" and receipt["Currency"] == "SGD"
    assert [row["Date"] for row in rows] == sorted(row["Date"] for row in rows)
    net = sum(Decimal(row["Amount"]) for row in rows)
    assert net == client.get(reverse("money:treasurer")).context["summary"].overall.net == Decimal("8.50")


def test_the_csv_follows_the_filters_and_the_associations_gst_rate(client, staff, books):
    PaymentSettings.objects.filter(association=books["a"].association).update(gst_rate=Decimal("8"))
    rows = read_csv(client.get(reverse("money:treasurer_csv"), {"method": Method.PAYNOW}))
    assert [(row["Kind"], row["Amount"], row["GST included"]) for row in rows] == [
        ("receipt", "3.00", "0.22"),
        ("credit note", "-1.50", "-0.11"),
    ]


def test_a_renewal_and_a_formula_looking_name_in_the_csv(client, staff):
    member = player_with_account(full_name="=HYPERLINK(1)")
    MembershipFactory(player=member, fee=Decimal("20.00"))
    renewal = request_renewal(member.user, member)
    services.receive(reference=renewal_reference(renewal), amount="20.00", method=Method.PAYNOW)
    (row,) = read_csv(client.get(reverse("money:treasurer_csv")))
    assert row["Event"] == "" and row["Payer"] == "'=HYPERLINK(1)" and row["GST included"] == "0.00"


@pytest.mark.parametrize("who", ["player", "organiser"])
def test_only_association_staff_see_the_treasurers_page(client, books, who):
    payer = Entry.objects.get(pk=books["a"].target_id).player.user
    user = {"player": payer, "organiser": books["open"].owner}[who]
    client.force_login(user)
    assert client.get(reverse("money:treasurer")).status_code == 403
    assert client.get(reverse("money:treasurer_csv")).status_code == 403


def test_the_anonymous_are_sent_to_log_in(client):
    assert client.get(reverse("money:treasurer")).status_code == 302
    assert client.get(reverse("money:treasurer_csv")).status_code == 302


def test_the_treasurers_page_costs_the_same_queries_for_2_or_10_payments(client, staff):
    event, category, standard, passion = seed_event()
    other, o_category, o_standard, _ = seed_event()
    url = reverse("money:treasurer")

    def add(n):
        for i in range(n):
            payment = pay(*((event, category, standard) if i % 2 else (other, o_category, o_standard)))
            if i % 3 == 0:
                services.refund(staff, payment, amount="1.00", reason="Goodwill")
            entered(event, category, standard)
            member = player_with_account()
            MembershipFactory(player=member, fee=Decimal("20.00"))
            request_renewal(member.user, member)

    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    add(2)
    few = queries()
    add(8)
    assert Payment.objects.count() == 10
    assert queries() == few


@pytest.mark.parametrize(
    "query",
    [
        {"event": "9" * 30},
        {"event": "x"},
        {"start": "\x00"},
        {"end": "99999-01-01"},
        {"method": ["paynow", "cheque"]},
        {"page": "-1", "owed": "x", "credits": "9" * 30},
    ],
)
def test_odd_filters_get_a_page_or_a_named_refusal_never_an_error(client, staff, query):
    assert client.get(reverse("money:treasurer"), query).status_code == 200
    assert client.get(reverse("money:treasurer_csv"), query).status_code in (200, 400)


@pytest.mark.parametrize("key", ["9" * 30, "²", "no-such-event"])
def test_an_unknown_event_money_page_is_not_found(client, staff, key):
    assert client.get(reverse("money:event_money", args=[key])).status_code == 404


def test_a_discount_code_on_many_lines_is_said_once_with_the_count():
    lines = [{"amount": "0", "discount": "5.00", "discount_note": "code SCHOOL10"}] * 15
    lines += [{"amount": "0", "discount": "2.00", "discount_note": "code EARLY"}]
    assert reports.line_discounts(lines) == (Decimal("77.00"), "code SCHOOL10 × 15; code EARLY")
