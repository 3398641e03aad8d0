"""The money API: what is due for a reference (an entry, a group entry student by student, a renewal) with
a PayNow payload a banking app can pay, payments and refunds readable by those they belong to and by
organisers and staff, refunds with credit notes, and what entries and renewals show about paying them."""

import os
from datetime import date, timedelta
from decimal import Decimal

import pytest
import schemathesis
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from rest_framework.test import APIClient
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from events import services as events
from events.models import Entry, GroupEntry
from events.services.payments import entry_reference, group_reference
from money import services
from money.core.paynow import check_crc, parse_payload
from money.core.references import make_reference
from money.models import Method, PaymentSettings
from players.services import renewal_reference, request_renewal
from tests.events.factories import (
    fast_passwords,  # noqa: F401
    make_organiser,
    player_with_account,
)
from tests.factories import MembershipFactory, UserFactory, api_token
from tests.money.test_ledger import entered, seed_event

pytestmark = pytest.mark.django_db

UEN = "S88SS0001A"


@pytest.fixture
def api():
    return APIClient(raise_request_exception=False)


def as_user(api, user):
    api.force_authenticate(user)
    return api


def paynow_on(association, **fields):
    return PaymentSettings.objects.update_or_create(
        association=association,
        defaults={"receipt_prefix": "SSA", "paynow_proxy": UEN, "paynow_name": "Scrabble Association", **fields},
    )[0]


def paid_fields(payload: str) -> dict:
    assert check_crc(payload)
    fields = parse_payload(payload)
    return {"amount": fields["54"], "reference": fields["62"]["01"], "proxy": fields["26"]["02"]}


@pytest.fixture
def seed():
    """The seed event (S$3, S$2 with a Passion Card), PayNow set up, one entry at each fee."""
    event, category, standard, passion = seed_event()
    paynow_on(event.association)
    full = entered(event, category, standard)
    concession = entered(event, category, passion, concession_proof="PC-1234")
    return event, full, concession


# --- what is due ---------------------------------------------------------------------------------


def test_the_entrant_reads_what_is_due_with_a_paynow_payload_for_the_balance(api, seed):
    event, full, concession = seed
    reference = entry_reference(concession)
    response = as_user(api, concession.player.user).get(f"/api/money/dues/{reference}/")
    assert response.status_code == 200, response.content
    due = response.json()
    assert due["reference"] == reference and due["kind"] == "E" and due["kind_label"] == "Entry"
    assert (due["total"], due["paid"], due["balance"], due["currency"]) == ("2.00", "0.00", "2.00", "SGD")
    assert due["payable"] is True and due["why_not"] == ""
    assert due["url"] == event.get_absolute_url()
    [line] = due["lines"]
    assert (line["standard"], line["amount"], line["taxed"]) == ("3.00", "2.00", True)
    assert "Passion Card holder concession" in line["note"]
    assert paid_fields(due["paynow_payload"]) == {"amount": "2.00", "reference": reference, "proxy": UEN}
    # The code's validity (7 days), or the day the unpaid place lapses if that comes first.
    deadline = timezone.localtime(concession.payment_due_at, event.zone).date() if concession.payment_due_at else None
    expected = timezone.localdate() + timedelta(days=7)
    assert due["paynow_expires"] == str(min(expected, deadline) if deadline else expected)
    # Typed as people type it: any case, with hyphens.
    typed = f"{reference[0].lower()}-{reference[1:-1]}-{reference[-1].lower()}"
    assert api.get(f"/api/money/dues/{typed}/").json()["reference"] == reference


def test_an_entry_s_payload_in_my_entries_expires_when_its_place_would_lapse_as_what_is_due_says(api, seed):
    event, full, concession = seed
    Entry.objects.filter(pk=concession.pk).update(payment_due_at=timezone.now() + timedelta(days=2))
    concession.refresh_from_db()
    client = as_user(api, concession.player.user)
    due = client.get(f"/api/money/dues/{entry_reference(concession)}/").json()
    listed = {e["id"]: e for e in client.get("/api/my/entries/").json()["results"]}[concession.pk]
    assert listed["paynow_payload"] == due["paynow_payload"]
    # Both codes expire the day the unpaid place lapses, before the code's own 7 days.
    assert due["paynow_expires"] == str(timezone.localtime(concession.payment_due_at, event.zone).date())


def test_a_part_payment_lowers_the_payload_and_a_paid_entry_has_none(api, seed):
    _, full, _ = seed
    reference = entry_reference(full)
    services.receive(reference=reference, amount="1.00", method=Method.PAYNOW, external_id="line-1")
    as_user(api, full.player.user)
    due = api.get(f"/api/money/dues/{reference}/").json()
    assert (due["paid"], due["balance"]) == ("1.00", "2.00")
    assert paid_fields(due["paynow_payload"])["amount"] == "2.00"
    services.receive(reference=reference, amount="2.00", method=Method.PAYNOW, external_id="line-2")
    due = api.get(f"/api/money/dues/{reference}/").json()
    assert due["balance"] == "0.00" and due["paynow_payload"] is None and due["paynow_expires"] is None
    assert due["lines"][0]["status"] == "Confirmed"


def test_without_paynow_set_up_there_is_no_payload(api):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    due = as_user(api, entry.player.user).get(f"/api/money/dues/{entry_reference(entry)}/").json()
    assert due["balance"] == "3.00" and due["paynow_payload"] is None


def test_a_group_entry_is_due_student_by_student(api):
    event, category, standard, passion = seed_event()
    paynow_on(event.association)
    teacher = UserFactory()
    students = [
        {"full_name": f"Student {i}", "category": category, "fee": passion if i % 2 else standard,
         "concession_proof": f"P{i}" if i % 2 else "", "date_of_birth": date(2010, 1, 1)}
        for i in range(4)
    ]  # fmt: skip
    group = events.register_group(
        teacher, event, accept_rules=True,
        contact={"role": GroupEntry.Role.TEACHER, "contact_name": "Mrs Tan", "school": "Yuhua", "address": "1 Road",
                 "phone": "61234567", "email": "teacher@example.org"},
        students=students,
    )  # fmt: skip
    reference = group_reference(group)
    services.receive(reference=reference, amount="4.00", method=Method.PAYNOW, external_id="g-1")
    due = as_user(api, teacher).get(f"/api/money/dues/{reference}/").json()
    assert due["kind"] == "G" and (due["total"], due["paid"], due["balance"]) == ("10.00", "4.00", "6.00")
    assert [(line["amount"], line["paid"], line["balance"], line["status"]) for line in due["lines"]] == [
        ("3.00", "3.00", "0.00", "Confirmed"),
        ("2.00", "1.00", "1.00", "Pending payment"),
        ("3.00", "0.00", "3.00", "Pending payment"),
        ("2.00", "0.00", "2.00", "Pending payment"),
    ]
    assert [line["description"].split(":")[0] for line in due["lines"]] == [f"Student {i}" for i in range(4)]
    assert paid_fields(due["paynow_payload"]) == {"amount": "6.00", "reference": reference, "proxy": UEN}
    # A student's own entry is not the teacher's only way: each entry lists the group's reference too.
    entries = as_user(api, teacher).get("/api/my/entries/").json()["results"]
    assert {e["group_payment_reference"] for e in entries} == {reference}


def test_a_renewal_is_due_like_an_entry(api):
    player = player_with_account()
    MembershipFactory(player=player, fee=Decimal("20.00"))
    renewal = request_renewal(player.user, player)
    paynow_on(renewal.association)
    reference = renewal_reference(renewal)
    due = as_user(api, player.user).get(f"/api/money/dues/{reference}/").json()
    assert due["kind"] == "M" and due["total"] == "20.00" and due["balance"] == "20.00"
    assert due["title"].startswith("Ordinary membership renewal")
    assert paid_fields(due["paynow_payload"]) == {"amount": "20.00", "reference": reference, "proxy": UEN}
    assert as_user(api, UserFactory(is_staff=True)).get(f"/api/money/dues/{reference}/").status_code == 200
    # Someone else's reference is answered as one that does not exist, as on the payment page: a 403 told a
    # stranger which of the guessable references were real.
    assert as_user(api, UserFactory()).get(f"/api/money/dues/{reference}/").status_code == 404


def test_who_may_read_what_is_due(api, seed):
    event, full, _ = seed
    url = f"/api/money/dues/{entry_reference(full)}/"
    assert api.get(url).status_code in (401, 403)
    assert as_user(api, full.player.user).get(url).status_code == 200
    assert as_user(api, event.owner).get(url).status_code == 200
    assert as_user(api, UserFactory(is_staff=True)).get(url).status_code == 200
    # Anyone else is answered as for a reference that does not exist, as the payment page answers them.
    stranger = as_user(api, UserFactory()).get(url)
    assert stranger.status_code == 404 and "No amount due has this reference" in stranger.json()["detail"]
    assert as_user(api, make_organiser()).get(url).status_code == 404


@pytest.mark.parametrize("kind", ["unknown", "mistyped", "huge", "nonsense"])
def test_an_unknown_or_mistyped_reference_is_not_found(api, seed, kind):
    _, full, _ = seed
    good = entry_reference(full)
    reference = {
        "unknown": make_reference("E", full.pk + 1000),
        "mistyped": good[:-2] + good[-1] + good[-2],
        "huge": make_reference("E", 10**22),
        "nonsense": "hello world",
    }[kind]
    response = as_user(api, UserFactory(is_staff=True)).get(f"/api/money/dues/{reference}/")
    assert response.status_code == 404 and "No amount due has this reference" in response.json()["detail"]


# --- payments and refunds ------------------------------------------------------------------------


@pytest.fixture
def ledger(seed):
    """Two payments in the seed event, one in another organiser's event, one for a renewal."""
    event, full, concession = seed
    other_event, other_category, other_fee, _ = seed_event()
    elsewhere = entered(other_event, other_category, other_fee)
    member = player_with_account()
    MembershipFactory(player=member, fee=Decimal("20.00"))
    renewal = request_renewal(member.user, member)
    payments = {
        "full": services.receive(reference=entry_reference(full), amount="3.00", method=Method.PAYNOW).payment,
        "concession": events.record_payment(
            event.owner, concession, amount="2.00", method="cheque", reference="000123"
        ).money_payment,
        "elsewhere": services.receive(reference=entry_reference(elsewhere), amount="3.00", method=Method.CARD,
                                      external_id="cs_test_1").payment,
        "renewal": services.receive(reference=renewal_reference(renewal), amount="20.00", method=Method.PAYNOW,
                                    external_id="line-9").payment,
    }  # fmt: skip
    people = {
        "entrant": full.player.user,
        "organiser": event.owner,
        "other organiser": other_event.owner,
        "member": member.user,
        "staff": UserFactory(is_staff=True),
        "stranger": UserFactory(),
    }
    return event, payments, people


@pytest.mark.parametrize(
    "who,sees",
    [
        ("entrant", {"full"}),
        ("organiser", {"full", "concession"}),
        ("other organiser", {"elsewhere"}),
        ("member", {"renewal"}),
        ("staff", {"full", "concession", "elsewhere", "renewal"}),
        ("stranger", set()),
    ],
)
def test_payments_are_listed_for_those_they_belong_to(api, ledger, who, sees):
    _, payments, people = ledger
    response = as_user(api, people[who]).get("/api/money/payments/")
    assert response.status_code == 200
    numbers = {row["number"] for row in response.json()["results"]}
    assert numbers == {payments[name].number for name in sees}


def test_my_payments_page_and_the_payments_list_cost_the_same_queries_for_more_payments(api, client):
    from django.urls import reverse

    counts = {}
    for n in (1, 4):
        member = player_with_account()
        for _ in range(n):
            event, category, standard, _ = seed_event()
            entry = events.register_entry(member.user, event, category=category, fee=standard)
            services.receive(reference=entry_reference(entry), amount="3.00", method=Method.PAYNOW)
        client.force_login(member.user)
        with CaptureQueriesContext(connection) as page:
            listed = client.get(reverse("money:my_payments"))
        with CaptureQueriesContext(connection) as listing:
            rows = as_user(api, member.user).get("/api/money/payments/").json()["results"]
        assert listed.status_code == 200 and len(rows) == n
        counts[n] = (len(page), len(listing))
    assert counts[1] == counts[4]


def test_the_payments_list_filters_by_event_and_reference(api, ledger):
    event, payments, people = ledger
    as_user(api, people["staff"])
    by_event = api.get("/api/money/payments/", {"event": event.slug}).json()["results"]
    assert {row["number"] for row in by_event} == {payments["full"].number, payments["concession"].number}
    typed = payments["concession"].reference.lower()
    by_reference = api.get("/api/money/payments/", {"reference": typed}).json()["results"]
    assert [row["number"] for row in by_reference] == [payments["concession"].number]
    bad = api.get("/api/money/payments/", {"reference": "E1"})
    assert bad.status_code == 400 and "reference" in bad.json()
    assert api.get("/api/money/payments/", {"method": "card"}).json()["count"] == 1
    assert api.get("/api/money/payments/", {"page": "9"}).status_code == 404


def test_a_payment_reads_with_its_receipt_lines_and_refunds(api, ledger):
    event, payments, people = ledger
    payment = payments["concession"]
    services.refund(event.owner, payment, amount="0.50", reason="Overcharged")
    response = as_user(api, people["organiser"]).get(f"/api/money/payments/{payment.number}/")
    assert response.status_code == 200
    body = response.json()
    assert body["receipt_url"] == f"/money/receipts/{payment.number}/"
    assert (body["method"], body["payer_reference"], body["event"]) == ("cheque", "000123", event.slug)
    assert (body["amount"], body["refunded"], body["refundable"]) == ("2.00", "0.50", "1.50")
    assert (body["lines"][0]["standard"], body["lines"][0]["amount"]) == ("3.00", "2.00")
    [refund] = body["refunds"]
    assert refund["reason"] == "Overcharged" and refund["credit_note_url"].startswith("/money/credit-notes/")
    assert as_user(api, people["stranger"]).get(f"/api/money/payments/{payment.number}/").status_code == 403
    assert as_user(api, people["other organiser"]).get(f"/api/money/payments/{payment.number}/").status_code == 403
    assert api.get("/api/money/payments/NOPE-2026-00001/").status_code == 404


def test_the_organiser_refunds_through_the_api_with_a_credit_note(api, ledger):
    event, payments, people = ledger
    payment = payments["full"]
    url = f"/api/money/payments/{payment.number}/refunds/"
    as_user(api, people["organiser"])
    too_much = api.post(url, {"amount": "3.50", "reason": "Withdrew"}, format="json")
    assert too_much.status_code == 400 and "At most SGD 3.00" in too_much.json()["amount"][0]
    for amount in ("abc", "1.001", "-1", "0", 1.1000000001):
        response = api.post(url, {"amount": amount, "reason": "Withdrew"}, format="json")
        assert response.status_code == 400 and "amount" in response.json(), amount
    assert "reason" in api.post(url, {"amount": "1.00", "reason": " "}, format="json").json()
    # The credit note's reason column holds 300 characters: a longer one is refused by name, not a database error.
    long = api.post(url, {"amount": "1.00", "reason": "x" * 301}, format="json")
    assert long.status_code == 400 and "300 characters" in long.json()["reason"][0]
    response = api.post(url, {"amount": "1.50", "reason": "Withdrew a week before"}, format="json")
    assert response.status_code == 201, response.content
    credit = response.json()
    assert credit["number"].startswith("SSA-CN-") and credit["number"].endswith("-00001")
    assert (credit["amount"], credit["payment"], credit["method"]) == ("1.50", payment.number, "paynow")
    payment.refresh_from_db()
    assert payment.refunded == Decimal("1.50")
    # The player sees the refund; strangers and other organisers do not.
    listed = as_user(api, people["entrant"]).get("/api/money/refunds/").json()["results"]
    assert [row["number"] for row in listed] == [credit["number"]]
    assert as_user(api, people["other organiser"]).get("/api/money/refunds/").json()["count"] == 0
    assert api.get(f"/api/money/refunds/{credit['number']}/").status_code == 403
    staff = as_user(api, people["staff"])
    assert staff.get("/api/money/refunds/", {"reference": payment.reference}).json()["count"] == 1
    assert staff.get("/api/money/refunds/", {"payment": payments["renewal"].number}).json()["count"] == 0
    assert staff.get(f"/api/money/refunds/{credit['number']}/").json()["reason"] == "Withdrew a week before"


@pytest.mark.parametrize("who", ["entrant", "stranger", "other organiser"])
def test_only_the_organiser_or_staff_refund(api, ledger, who):
    _, payments, people = ledger
    url = f"/api/money/payments/{payments['full'].number}/refunds/"
    response = as_user(api, people[who]).post(url, {"amount": "abc", "reason": ""}, format="json")
    assert response.status_code == 403
    assert payments["full"].refunds.count() == 0


def test_staff_refund_a_renewal_and_anonymous_is_refused(api, ledger):
    _, payments, people = ledger
    url = f"/api/money/payments/{payments['renewal'].number}/refunds/"
    assert api.post(url, {"amount": "1.00", "reason": "Duplicate"}, format="json").status_code in (401, 403)
    response = as_user(api, people["staff"]).post(url, {"amount": "20.00", "reason": "Duplicate"}, format="json")
    assert response.status_code == 201


# --- entries and renewals show how to pay them ---------------------------------------------------


def test_my_entries_show_reference_amount_balance_and_paynow_payload(api, seed):
    event, full, concession = seed
    as_user(api, concession.player.user)
    [row] = api.get("/api/my/entries/").json()["results"]
    reference = entry_reference(concession)
    assert (row["payment_reference"], row["amount_due"], row["balance"]) == (reference, "2.00", "2.00")
    assert row["group_payment_reference"] is None
    assert paid_fields(row["paynow_payload"]) == {"amount": "2.00", "reference": reference, "proxy": UEN}
    events.record_payment(event.owner, concession, amount="2.00", method="in_person")
    [row] = api.get("/api/my/entries/").json()["results"]
    assert row["balance"] == "0.00" and row["paynow_payload"] is None and row["status"] == "confirmed"
    # The organiser's list shows the same.
    rows = as_user(api, event.owner).get("/api/organiser/entries/", {"event": event.slug}).json()["results"]
    assert {r["payment_reference"]: r["balance"] for r in rows} == {
        entry_reference(full): "3.00",
        reference: "0.00",
    }


def test_the_entries_list_reads_payment_settings_once(api):
    event, category, standard, passion = seed_event(quota=50)
    paynow_on(event.association)
    organiser = event.owner
    as_user(api, organiser)

    def queries() -> list[str]:
        with CaptureQueriesContext(connection) as captured:
            response = api.get("/api/organiser/entries/", {"event": event.slug})
        assert response.status_code == 200
        assert all(row["paynow_payload"] for row in response.json()["results"])
        return [q["sql"] for q in captured]

    entered(event, category, standard)
    one = queries()
    for _ in range(6):
        entered(event, category, passion, concession_proof="P")
    seven = queries()
    assert len(seven) == len(one)
    assert len([sql for sql in seven if "money_paymentsettings" in sql]) == 1


def test_my_renewals_show_reference_balance_and_payload(api):
    player = player_with_account()
    MembershipFactory(player=player, fee=Decimal("20.00"))
    renewal = request_renewal(player.user, player)
    paynow_on(renewal.association)
    as_user(api, player.user)
    [row] = api.get("/api/my/renewals/").json()["results"]
    reference = renewal_reference(renewal)
    assert (row["payment_reference"], row["amount_due"], row["balance"], row["status"]) == (
        reference,
        "20.00",
        "20.00",
        "requested",
    )
    assert paid_fields(row["paynow_payload"]) == {"amount": "20.00", "reference": reference, "proxy": UEN}
    services.receive(reference=reference, amount="20.00", method=Method.PAYNOW)
    row = api.get(f"/api/my/renewals/{renewal.pk}/").json()
    assert row["status"] == "paid" and row["balance"] == "0.00" and row["paynow_payload"] is None
    assert row["expires_on"] is not None
    assert as_user(api, UserFactory()).get(f"/api/my/renewals/{renewal.pk}/").status_code == 404
    assert APIClient().get("/api/my/renewals/").status_code in (401, 403)


# --- no input answers a server error -------------------------------------------------------------

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "6"))


@pytest.fixture
def _keep_the_test_connection():
    """As in tests/test_api_fuzz.py: calls go straight into the WSGI application, whose request signals would
    close the test's own database connection."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.usefixtures("_keep_the_test_connection")
@pytest.mark.parametrize("who", ["anonymous", "member", "organiser", "staff"])
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=["valid", "invalid"])
def test_the_money_api_keeps_to_its_schema(ledger, who, mode):
    """Every money operation (and the renewals list), fed valid and invalid input, with real references and
    receipt numbers half the time: never a server error, and valid requests answer as documented."""
    from clubsite.wsgi import application

    event, payments, people = ledger
    user = {"anonymous": None, "member": people["member"], "organiser": people["organiser"]}.get(who, people["staff"])
    headers = {"Authorization": f"Token {api_token(user)}"} if user else {}
    real = {
        "reference": [p.reference for p in payments.values()],
        "number": [p.number for p in payments.values()],
    }
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
    schema = schema.include(path_regex=r"^/api/(money/|my/renewals/)")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 9  # with joining online (POST /api/my/renewals/join/)
    failures = []
    for operation in operations:
        fixed = {p.name: real[p.name] for p in operation.path_parameters if p.name in real}
        strategy = operation.as_strategy(generation_mode=mode)
        if fixed:
            chosen = st.fixed_dictionaries({name: st.sampled_from(values) for name, values in fixed.items()})
            with_real = chosen.flatmap(lambda p, op=operation: op.as_strategy(mode, path_parameters=p))
            strategy = st.one_of(strategy, with_real)

        @settings(
            max_examples=EXAMPLES, deadline=None, database=None, derandomize="FUZZ_EXAMPLES" not in os.environ,
            suppress_health_check=list(HealthCheck),
        )  # fmt: skip
        @given(case=strategy)
        def call(case):
            response = case.call(headers=headers)
            checks = [not_a_server_error, content_type_conformance]
            if mode == GenerationMode.POSITIVE:
                checks.append(response_schema_conformance)
            case.validate_response(response, checks=checks, headers=headers)

        try:
            call()
        except Unsatisfiable:
            assert mode == GenerationMode.NEGATIVE, operation.label
        except (Exception, BaseExceptionGroup) as failure:  # every operation runs; all failures reported together
            failures.append(f"{operation.label} as {who}: {str(failure)[:2000]}")
    assert not failures, "\n\n".join(failures)
