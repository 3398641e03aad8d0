"""Card payments: the payment page's button starts a Stripe Checkout Session and sends the payer there; Stripe
tells the webhook when the card was charged, and only then is the money recorded (the payer's return to the
success page proves nothing).

What the webhook answers, and why (Stripe retries any answer but 2xx for days, so a 4xx/5xx means "send it
again"):
- a bad signature or a payload that is not a Stripe event: 400, nothing recorded. Not from Stripe, or a wrong
  STRIPE_WEBHOOK_SECRET; Stripe's retries then show up in its dashboard until the secret is fixed.
- a paid Checkout Session: recorded through money.services.receive with the session's id, so the same event
  delivered twice (or completed and async-succeeded both arriving) counts once; 200 both times. Money for an
  entry that lapsed meanwhile is kept and held by receive for the organiser to refund or reinstate: 200.
- a paid session whose reference names nothing (deleted, another site sharing the Stripe account) or that
  receive refuses: 200, and an error is logged with the session id. Sending it again would never succeed, and
  the money is safe in Stripe, where staff find it by the session id and refund it.
- anything the database could not do (an outage): the error propagates, a 500, and Stripe's retry records it
  later.
- other events, and sessions not yet paid: 200, nothing done.
"""

from __future__ import annotations

import logging
from decimal import Decimal

import stripe
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.urls import NoReverseMatch, path, reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from .. import services
from ..models import Method
from ..payables import resolve
from ..providers import provider_for

log = logging.getLogger("money.card")

PAID_EVENTS = ("checkout.session.completed", "checkout.session.async_payment_succeeded")


class SeeOther(HttpResponseRedirect):
    status_code = 303


def _answer(text: str, status: int = 200) -> HttpResponse:
    """What the webhook tells Stripe (shown in its dashboard's delivery log)."""
    return HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")


def payment_page(reference: str, due=None) -> str:
    """The payment page for a reference (the event's page while that page is not there)."""
    try:
        return reverse("money:pay", args=[reference])
    except NoReverseMatch:
        return (due.url if due is not None else "") or "/"


def _card():
    provider = provider_for(Method.CARD)
    if not provider.available(None):
        raise Http404("Card payments are not available on this site.")
    return provider


@require_POST
def card_checkout(request, reference: str):
    """Starts a card payment for the balance due on `reference`: whoever may see its payment page may pay it.
    Whether someone may is asked before whether the reference names anything, so nothing is learnt from it."""
    card = _card()
    found = resolve(reference)
    if found is None:
        raise Http404(f"{reference!r} is not a payment reference.")
    kind, target_id = found
    if not request.user.is_authenticated:
        return redirect_to_login(payment_page(reference))
    if not kind.may_view(request.user, target_id):
        raise PermissionDenied("This payment is not yours to make.")
    due = kind.due(target_id)
    if due is None:
        raise Http404(f"No amount due has the reference {reference!r}.")
    page = payment_page(due.reference, due)
    if not card.accepted(due):
        messages.error(request, "This event does not take card payments: see the ways to pay below.")
        return SeeOther(page)
    joiner = "&" if "?" in page else "?"
    try:
        url = card.start_checkout(
            due,
            success_url=f"{settings.SITE_URL}{page}{joiner}card=done",
            cancel_url=f"{settings.SITE_URL}{page}{joiner}card=cancelled",
        )
    except services.MoneyError as error:
        messages.error(request, error.message)
        return SeeOther(page)
    return SeeOther(url)


def _paid_session(session: dict) -> HttpResponse:
    session_id = session.get("id") or ""
    reference = session.get("client_reference_id") or (session.get("metadata") or {}).get("reference") or ""
    currency = (session.get("currency") or settings.CURRENCY).upper()
    if currency != settings.CURRENCY.upper():
        log.error(
            "Card payment %s for %r is in %s, not %s: not recorded.", session_id, reference, currency, settings.CURRENCY
        )
        return _answer(f"Not recorded: the payment is in {currency}, not {settings.CURRENCY}.")
    details = session.get("customer_details") or {}
    try:
        received = services.receive(
            reference=reference,
            amount=Decimal(int(session.get("amount_total") or 0)) / 100,
            method=Method.CARD,
            external_id=session_id,
            payer_name=details.get("name") or "",
            payer_email=details.get("email") or session.get("customer_email") or "",
            note="Card payment",
        )
    except services.MoneyError as error:
        log.error(
            "Card payment %s for %r could not be recorded: %s Refund it in Stripe, or record it by hand.",
            session_id,
            reference,
            error.message,
        )
        return _answer(f"Not recorded: {error.message}")
    payment = received.payment
    if received.duplicate:
        return _answer(f"Already recorded as receipt {payment.number}.")
    if payment.held:
        log.warning(
            "Card payment %s for %s: %s of receipt %s is held.", session_id, reference, payment.held, payment.number
        )
    return _answer(f"Recorded as receipt {payment.number}.")


@csrf_exempt
@require_POST
def stripe_webhook(request):
    card = _card()
    try:
        event = card.client().construct_event(
            request.body, request.headers.get("Stripe-Signature"), settings.STRIPE_WEBHOOK_SECRET
        )
        kind = event.type
        session = event.data.object.to_dict() if kind in PAID_EVENTS else {}
    except stripe.SignatureVerificationError as error:
        return _answer(f"Bad Stripe-Signature header: {error.user_message or error}", status=400)
    except (ValueError, TypeError, KeyError, AttributeError):
        return _answer("The request body is not a Stripe event (JSON with a type and data.object).", status=400)
    if kind not in PAID_EVENTS:
        return _answer(f"Ignored: {kind}.")
    if session.get("payment_status") != "paid":
        return _answer("Not paid yet: nothing recorded.")
    return _paid_session(session)


urls = [
    path("pay/<str:reference>/card/", card_checkout, name="card_checkout"),
    path("stripe/webhook/", stripe_webhook, name="stripe_webhook"),
]
