"""Card payments through Stripe Checkout, with a local HTTP server standing in for Stripe's API (no network):
the checkout asks for the balance due, Stripe's signed webhook records the payment once however often it comes,
a lapsed entry's money is held, and a refund goes back through Stripe with a credit note."""

import json
import logging
import threading
from datetime import timedelta
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

import pytest
import stripe
from django.contrib.messages import get_messages
from django.core import mail
from django.urls import reverse

from events.models import Entry, EntryStatus
from events.services.payments import entry_reference
from money import services
from money.core.references import make_reference
from money.models import Method, Payment, Refund
from money.providers import payment_ways, provider_for
from tests.events.factories import fast_passwords  # noqa: F401
from tests.factories import UserFactory
from tests.money.test_ledger import entered, seed_event

pytestmark = pytest.mark.django_db

SECRET_KEY = "sk_test_standin"
WEBHOOK_SECRET = "whsec_standin"


class StandIn:
    """What the stand-in Stripe received, and what it answers next."""

    def __init__(self):
        self.received: list[dict] = []
        self.fail: dict[str, tuple[int, dict]] = {}  # path prefix -> (status, error body)
        self.sessions = 0

    def posted(self, path: str) -> list[dict]:
        return [r["form"] for r in self.received if r["method"] == "POST" and r["path"] == path]


def _handler(stand_in: StandIn):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def _answer(self, status: int, body: dict):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _record(self, method: str) -> str:
            path = urlsplit(self.path).path
            length = int(self.headers.get("Content-Length") or 0)
            form = dict(parse_qsl(self.rfile.read(length).decode())) if length else {}
            stand_in.received.append(
                {
                    "method": method,
                    "path": path,
                    "form": form,
                    "authorization": self.headers.get("Authorization"),
                    "idempotency_key": self.headers.get("Idempotency-Key"),
                }
            )
            for prefix, (status, body) in stand_in.fail.items():
                if path.startswith(prefix):
                    self._answer(status, body)
                    return ""
            return path

        def do_POST(self):
            path = self._record("POST")
            if path == "/v1/checkout/sessions":
                stand_in.sessions += 1
                n = stand_in.sessions
                self._answer(
                    200,
                    {
                        "id": f"cs_test_{n}",
                        "object": "checkout.session",
                        "url": f"https://checkout.stripe.test/c/pay/cs_test_{n}",
                        "payment_intent": None,
                        "payment_status": "unpaid",
                    },
                )
            elif path == "/v1/refunds":
                n = len(stand_in.posted("/v1/refunds"))
                self._answer(200, {"id": f"re_test_{n}", "object": "refund", "status": "succeeded"})
            elif path:
                self._answer(404, {"error": {"type": "invalid_request_error", "message": f"No route {path}"}})

        def do_GET(self):
            path = self._record("GET")
            if path.startswith("/v1/checkout/sessions/"):
                session_id = path.rsplit("/", 1)[1]
                self._answer(
                    200,
                    {
                        "id": session_id,
                        "object": "checkout.session",
                        "payment_intent": f"pi_for_{session_id}",
                        "payment_status": "paid",
                    },
                )
            elif path:
                self._answer(404, {"error": {"type": "invalid_request_error", "message": f"No route {path}"}})

    return Handler


@pytest.fixture
def stripe_api(settings, monkeypatch):
    """A stand-in for Stripe's API on a free local port; the card keys set."""
    stand_in = StandIn()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(stand_in))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    monkeypatch.setenv("no_proxy", "127.0.0.1")
    settings.STRIPE_SECRET_KEY = SECRET_KEY
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    settings.STRIPE_API_BASE = f"http://127.0.0.1:{server.server_address[1]}"
    yield stand_in
    server.shutdown()
    server.server_close()
    thread.join(5)


def paid_event(reference, cents, session_id="cs_test_1", *, status="paid", kind="checkout.session.completed"):
    return {
        "id": f"evt_{session_id}",
        "object": "event",
        "type": kind,
        "data": {
            "object": {
                "id": session_id,
                "object": "checkout.session",
                "client_reference_id": reference,
                "metadata": {"reference": reference},
                "amount_total": cents,
                "currency": "sgd",
                "payment_status": status,
                "payment_intent": f"pi_for_{session_id}",
                "customer_details": {"email": "card.payer@example.com", "name": "Card Payer"},
            }
        },
    }


def deliver(client, event, *, secret=WEBHOOK_SECRET, header=None, body=None):
    """Posts an event to the webhook signed as Stripe signs it (the library's own signing)."""
    payload = body if body is not None else json.dumps(event)
    if header is None:
        header = stripe.WebhookSignature.generate_signature_header(payload, secret)
    extra = {"HTTP_STRIPE_SIGNATURE": header} if header else {}
    return client.post(reverse("money:stripe_webhook"), data=payload, content_type="application/json", **extra)


def checkout(client, entry):
    client.force_login(entry.player.user)
    return client.post(reverse("money:card_checkout", args=[entry_reference(entry)]))


@pytest.mark.parametrize("concession", [False, True], ids=["standard S$3", "Passion Card S$2"])
def test_the_seed_events_entry_is_paid_by_card_confirmed_and_receipted(
    client, stripe_api, settings, on_commit, concession
):
    event, category, standard, passion = seed_event()
    entry = (
        entered(event, category, passion, concession_proof="P123") if concession else entered(event, category, standard)
    )
    reference, cents = entry_reference(entry), 200 if concession else 300
    response = checkout(client, entry)
    assert response.status_code == 303
    assert response["Location"] == "https://checkout.stripe.test/c/pay/cs_test_1"
    (form,) = stripe_api.posted("/v1/checkout/sessions")
    assert form["mode"] == "payment" and form["client_reference_id"] == reference
    assert form["metadata[reference]"] == reference
    assert form["line_items[0][quantity]"] == "1"
    assert form["line_items[0][price_data][unit_amount]"] == str(cents)
    assert form["line_items[0][price_data][currency]"] == "sgd"
    assert form["line_items[0][price_data][product_data][name]"].startswith("Entry: ")
    assert form["customer_email"] == entry.player.email
    assert form["success_url"].startswith(settings.SITE_URL) and form["success_url"].endswith("card=done")
    assert form["cancel_url"].endswith("card=cancelled")
    assert stripe_api.received[0]["authorization"] == f"Bearer {SECRET_KEY}"

    mail.outbox = []
    with on_commit(execute=True):
        response = deliver(client, paid_event(reference, cents))
    assert response.status_code == 200
    entry.refresh_from_db()
    payment = Payment.objects.get()
    assert entry.status == EntryStatus.CONFIRMED and entry.amount_paid == Decimal(cents) / 100
    assert payment.method == Method.CARD and payment.external_id == "cs_test_1"
    assert payment.amount == Decimal(cents) / 100 and payment.held == 0 and payment.note == "Card payment"
    assert payment.payer_email == "card.payer@example.com"
    assert f"Recorded as receipt {payment.number}" in response.content.decode()
    assert [m.subject for m in mail.outbox] == [
        f"[Scrabble Association] Receipt {payment.number} – {payment.description}"
    ]
    assert mail.outbox[0].to == ["card.payer@example.com"]


def test_the_same_event_delivered_twice_counts_once(client, stripe_api, on_commit):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    mail.outbox = []
    with on_commit(execute=True):
        first = deliver(client, paid_event(entry_reference(entry), 300))
        again = deliver(client, paid_event(entry_reference(entry), 300))
        # Stripe sends async_payment_succeeded too for some ways to pay: the same session, still once.
        late = deliver(client, paid_event(entry_reference(entry), 300, kind="checkout.session.async_payment_succeeded"))
    assert (first.status_code, again.status_code, late.status_code) == (200, 200, 200)
    assert "Already recorded" in again.content.decode()
    entry.refresh_from_db()
    assert Payment.objects.count() == 1 and entry.amount_paid == Decimal("3.00")
    assert len(mail.outbox) == 1


def test_a_bad_signature_or_payload_is_refused_and_nothing_recorded(client, stripe_api):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    paid = paid_event(entry_reference(entry), 300)
    wrong_secret = deliver(client, paid, secret="whsec_someone_else")
    assert wrong_secret.status_code == 400 and "Stripe-Signature" in wrong_secret.content.decode()
    signed_other = stripe.WebhookSignature.generate_signature_header(json.dumps({**paid, "id": "x"}), WEBHOOK_SECRET)
    assert deliver(client, paid, header=signed_other).status_code == 400  # the body was changed after signing
    assert deliver(client, paid, header="").status_code == 400  # no header at all
    assert deliver(client, paid, header="t=abc,v1=zz").status_code == 400
    old = stripe.WebhookSignature.generate_signature_header(json.dumps(paid), WEBHOOK_SECRET, timestamp=1)
    assert deliver(client, paid, header=old).status_code == 400  # replayed long after
    not_json = deliver(client, None, body="{not json")
    assert not_json.status_code == 400 and "not a Stripe event" in not_json.content.decode()
    assert deliver(client, None, body="[1, 2]").status_code == 400
    assert client.get(reverse("money:stripe_webhook")).status_code == 405
    entry.refresh_from_db()
    assert Payment.objects.count() == 0 and entry.status == EntryStatus.PENDING_PAYMENT


def test_a_card_payment_for_a_lapsed_entry_is_held_and_the_entry_stays_lapsed(client, stripe_api, time_machine):
    event, category, standard, _ = seed_event(quota=1)
    entry = entered(event, category, standard)
    Entry.objects.filter(pk=entry.pk).update(payment_due_at=entry.accepted_at + timedelta(hours=1))
    time_machine.move_to(entry.accepted_at + timedelta(hours=2))
    response = deliver(client, paid_event(entry_reference(entry), 300))
    assert response.status_code == 200
    entry.refresh_from_db()
    payment = Payment.objects.get()
    assert payment.held == Decimal("3.00") and payment.applied == 0
    assert entry.status == EntryStatus.LAPSED and entry.amount_paid == 0


def test_a_refund_of_a_card_payment_goes_through_stripe_and_issues_a_credit_note(client, stripe_api, on_commit):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    deliver(client, paid_event(entry_reference(entry), 300, session_id="cs_test_77"))
    payment = Payment.objects.get()
    mail.outbox = []
    with on_commit(execute=True):
        credit = services.refund(event.owner, payment, amount="1.00", reason="Withdrew a week before")
        second = services.refund(event.owner, payment, amount="2.00", reason="Event cancelled")
    assert ("GET", "/v1/checkout/sessions/cs_test_77") in [(r["method"], r["path"]) for r in stripe_api.received]
    first_form, second_form = stripe_api.posted("/v1/refunds")
    assert first_form["payment_intent"] == "pi_for_cs_test_77" and first_form["amount"] == "100"
    assert second_form["amount"] == "200" and first_form["metadata[receipt]"] == payment.number
    keys = [r["idempotency_key"] for r in stripe_api.received if r["path"] == "/v1/refunds"]
    assert keys[0] != keys[1] and all(keys)
    assert (credit.external_id, second.external_id) == ("re_test_1", "re_test_2")
    assert credit.method == Method.CARD and credit.number.split("-")[-1] == "00001"
    payment.refresh_from_db()
    entry.refresh_from_db()
    assert payment.refunded == Decimal("3.00") and entry.amount_paid == 0
    assert [m.subject for m in mail.outbox] == [
        f"[Scrabble Association] Credit note {credit.number} – {payment.description}",
        f"[Scrabble Association] Credit note {second.number} – {payment.description}",
    ]


def test_a_refund_stripe_refuses_records_nothing_and_says_why(client, stripe_api):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    deliver(client, paid_event(entry_reference(entry), 300))
    payment = Payment.objects.get()
    stripe_api.fail["/v1/refunds"] = (
        400,
        {"error": {"type": "invalid_request_error", "message": "Charge ch_1 has already been refunded."}},
    )
    with pytest.raises(services.MoneyError, match="already been refunded.*Nothing was refunded"):
        services.refund(event.owner, payment, amount="3.00", reason="Withdrew")
    payment.refresh_from_db()
    entry.refresh_from_db()
    assert Refund.objects.count() == 0 and payment.refunded == 0 and entry.amount_paid == Decimal("3.00")


def test_checkout_by_someone_who_may_not_view_the_due_is_refused(client, stripe_api):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    url = reverse("money:card_checkout", args=[entry_reference(entry)])
    anonymous = client.post(url)
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    client.force_login(UserFactory())
    assert client.post(url).status_code == 403
    client.force_login(entry.player.user)
    assert client.get(url).status_code == 405  # starting a payment is a POST (the page's button)
    assert client.post(reverse("money:card_checkout", args=[make_reference("E", 999999)])).status_code == 403
    assert client.post(reverse("money:card_checkout", args=["NOTAREF"])).status_code == 404
    assert stripe_api.received == []


def test_nothing_to_pay_or_stripe_refusing_sends_the_payer_back_with_a_message(client, stripe_api):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    stripe_api.fail["/v1/checkout/sessions"] = (
        400,
        {"error": {"type": "invalid_request_error", "message": "Invalid currency."}},
    )
    response = checkout(client, entry)
    assert response.status_code == 303 and "card" not in response["Location"]
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "The card payment could not be started (Invalid currency). Try again in a moment, or pay another way."
    ]
    stripe_api.fail.clear()
    services.receive(reference=entry_reference(entry), amount="3.00", method=Method.PAYNOW)
    response = checkout(client, entry)
    assert response.status_code == 303
    assert "Nothing is left to pay" in str(list(get_messages(response.wsgi_request))[-1])
    assert len(stripe_api.posted("/v1/checkout/sessions")) == 1


def test_an_unknown_reference_is_answered_200_and_logged_for_staff(client, stripe_api, caplog):
    with caplog.at_level(logging.ERROR, logger="money.card"):
        response = deliver(client, paid_event(make_reference("E", 999999), 300, session_id="cs_test_lost"))
    assert response.status_code == 200 and "Not recorded" in response.content.decode()
    assert "cs_test_lost" in caplog.text and "Refund it in Stripe" in caplog.text
    assert Payment.objects.count() == 0


def test_a_payment_in_another_currency_is_not_counted_as_dollars(client, stripe_api, caplog):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    usd = paid_event(entry_reference(entry), 300, session_id="cs_test_usd")
    usd["data"]["object"]["currency"] = "usd"
    with caplog.at_level(logging.ERROR, logger="money.card"):
        response = deliver(client, usd)
    assert response.status_code == 200 and "in USD, not SGD" in response.content.decode()
    assert "cs_test_usd" in caplog.text and Payment.objects.count() == 0


def test_unpaid_sessions_and_other_events_record_nothing(client, stripe_api):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    unpaid = deliver(client, paid_event(entry_reference(entry), 300, status="unpaid"))
    other = deliver(client, {**paid_event(entry_reference(entry), 300), "type": "payment_intent.created"})
    assert (unpaid.status_code, other.status_code) == (200, 200)
    assert Payment.objects.count() == 0


def test_card_is_offered_only_when_both_keys_are_set(client, settings):
    event, category, standard, _ = seed_event()
    entry = entered(event, category, standard)
    settings_row = services.settings_for(event.association)
    settings_row.paynow_proxy = "S88SS0001A"  # a UEN: PayNow is offered either way
    settings_row.save()
    due = services.due_or_error(entry_reference(entry))[1]
    for secret, webhook in (("", ""), ("sk_test_x", ""), ("", "whsec_x")):
        settings.STRIPE_SECRET_KEY, settings.STRIPE_WEBHOOK_SECRET = secret, webhook
        assert [i.method for i in payment_ways(due, settings_row)] == [
            Method.PAYNOW,
            Method.BANK_TRANSFER,
            Method.IN_PERSON,
            Method.CHEQUE,
        ]
    client.force_login(entry.player.user)
    assert client.post(reverse("money:card_checkout", args=[entry_reference(entry)])).status_code == 404
    assert deliver(client, paid_event(entry_reference(entry), 300), secret="whsec_x").status_code == 404

    settings.STRIPE_SECRET_KEY, settings.STRIPE_WEBHOOK_SECRET = SECRET_KEY, WEBHOOK_SECRET
    card = next(i for i in payment_ways(due, settings_row) if i.method == Method.CARD)
    assert card.action_url == reverse("money:card_checkout", args=[entry_reference(entry)])
    assert provider_for(Method.CARD).instructions(due, settings_row).action_url == card.action_url


def test_an_event_that_takes_no_cards_starts_no_checkout(client, stripe_api):
    event, category, standard, _ = seed_event(payment_methods=["paynow", "in_person"])
    entry = entered(event, category, standard)
    client.force_login(entry.player.user)
    response = client.post(reverse("money:card_checkout", args=[entry_reference(entry)]))
    assert response.status_code == 303 and response["Location"].startswith(
        reverse("money:pay", args=[entry_reference(entry)])
    )
    assert stripe_api.received == []
