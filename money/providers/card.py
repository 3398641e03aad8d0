"""Card payments through Stripe Checkout: the payer is sent to Stripe's page for the balance due, and Stripe's
webhook (money.views.card) records the money through money.services.receive with the Checkout Session's id,
so a delivery twice counts once. Offered only when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set."""

from __future__ import annotations

import logging
from decimal import Decimal

import stripe
from django.conf import settings as conf
from django.urls import reverse

from clubsite.kit.money import format_money

from ..models import Method, PaymentSettings
from ..payables import Due
from ..services.ledger import MoneyError
from . import Instructions, Provider

log = logging.getLogger("money.card")

TIMEOUT = (5, 20)  # seconds to connect, to read: the payer is waiting
RETRIES = 1  # the library adds an idempotency key, so a retried request never charges or refunds twice


def cents(amount: Decimal) -> int:
    return int((Decimal(amount) * 100).to_integral_value())


def _field(obj, name: str):
    """A field of a Stripe object, or None when the answer lacks it."""
    return obj[name] if name in obj else None


def _problem(error: stripe.StripeError) -> str:
    if isinstance(error, stripe.APIConnectionError):
        return "Stripe could not be reached"
    return (error.user_message or str(error) or "Stripe refused it").strip().rstrip(".")


class Card(Provider):
    method = Method.CARD
    label = "Card"
    online = True

    @staticmethod
    def enabled() -> bool:
        return bool(conf.STRIPE_SECRET_KEY and conf.STRIPE_WEBHOOK_SECRET)

    def available(self, settings: PaymentSettings | None = None) -> bool:
        return self.enabled()

    def client(self) -> stripe.StripeClient:
        if not conf.STRIPE_SECRET_KEY:
            raise MoneyError("Card payments are not set up on this site (STRIPE_SECRET_KEY is not set).")
        base = conf.STRIPE_API_BASE
        return stripe.StripeClient(
            conf.STRIPE_SECRET_KEY,
            base_addresses={"api": base} if base else None,
            http_client=stripe.RequestsClient(timeout=TIMEOUT),
            max_network_retries=RETRIES,
        )

    def instructions(self, due: Due, settings: PaymentSettings) -> Instructions | None:
        if not due.payable or due.balance <= 0:
            return None
        return Instructions(
            method=self.method,
            label="Credit or debit card",
            text=(
                f"Pay {format_money(due.balance, code=True)} by card on Stripe's secure page; you come back here "
                "when it is done and the receipt is emailed to you."
            ),
            action_url=reverse("money:card_checkout", args=[due.reference]),
        )

    def start_checkout(self, due: Due, success_url: str, cancel_url: str) -> str:
        """A Checkout Session for the balance of `due`; the address of its page, where the payer goes next."""
        if not due.payable:
            raise MoneyError(due.why_not or "Nothing can be paid on this now.")
        if due.balance <= 0:
            raise MoneyError(f"Nothing is left to pay on {due.reference}.")
        reference = due.reference
        params = {
            "mode": "payment",
            "line_items": [
                {
                    "quantity": 1,
                    "price_data": {
                        "currency": conf.CURRENCY.lower(),
                        "unit_amount": cents(due.balance),
                        "product_data": {"name": due.title[:250]},
                    },
                }
            ],
            "client_reference_id": reference,
            "metadata": {"reference": reference},
            "payment_intent_data": {
                "description": f"{reference}: {due.title}"[:1000],
                "metadata": {"reference": reference},
            },
            "success_url": success_url,
            "cancel_url": cancel_url,
        }
        if due.payer_email:
            params["customer_email"] = due.payer_email
        try:
            session = self.client().v1.checkout.sessions.create(params)
        except stripe.StripeError as error:
            log.warning("Stripe refused a Checkout Session for %s: %s", reference, error)
            raise MoneyError(
                f"The card payment could not be started ({_problem(error)}). Try again in a moment, or pay another way."
            ) from None
        url = _field(session, "url")
        if not url:
            log.error("Stripe's Checkout Session %s for %s has no page address", _field(session, "id"), reference)
            raise MoneyError("The card payment could not be started: Stripe gave no page to pay on.")
        return url

    def payment_intent(self, payment) -> str:
        """The PaymentIntent a payment's Checkout Session made (what a refund is made against)."""
        if not payment.external_id:
            raise MoneyError(
                f"Payment {payment.number} has no Stripe Checkout Session to refund through: refund it in Stripe's "
                "dashboard."
            )
        try:
            session = self.client().v1.checkout.sessions.retrieve(payment.external_id)
        except stripe.StripeError as error:
            log.warning("Stripe could not give Checkout Session %s: %s", payment.external_id, error)
            raise MoneyError(f"The refund could not be made ({_problem(error)}). Nothing was refunded.") from None
        intent = _field(session, "payment_intent")
        intent = getattr(intent, "id", intent)  # the id, or the object when expanded
        if not intent:
            raise MoneyError(
                f"Stripe has no card payment for session {payment.external_id}: refund it in Stripe's dashboard."
            )
        return intent

    def refund(self, payment, amount) -> str:
        """Gives `amount` of a card payment back to the card; Stripe's refund id. Called by
        money.services.refund inside its transaction, before the credit note is numbered: the idempotency key
        names the payment and what it had refunded so far, so if that transaction is rolled back and the refund
        asked again, Stripe answers with the same refund instead of giving the money back twice."""
        intent = self.payment_intent(payment)
        params = {
            "payment_intent": intent,
            "amount": cents(amount),
            "metadata": {"reference": payment.reference, "receipt": payment.number},
        }
        key = f"refund-{payment.number}-{cents(payment.refunded)}-{cents(amount)}"
        try:
            refund = self.client().v1.refunds.create(params, {"idempotency_key": key})
        except stripe.StripeError as error:
            log.warning("Stripe refused a refund of %s on %s: %s", amount, payment.number, error)
            raise MoneyError(f"The refund could not be made ({_problem(error)}). Nothing was refunded.") from None
        if _field(refund, "status") == "failed":
            raise MoneyError("Stripe could not refund the card. Nothing was refunded.")
        return refund.id
