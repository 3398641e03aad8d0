"""The money API's serializers, and what the entry and renewal serializers of other apps add: an amount due's
reference, balance and PayNow payload, with each association's payment settings read once per request."""

from __future__ import annotations

import logging
from datetime import date

from django.conf import settings as django_settings
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from .models import Payment, PaymentSettings, Refund
from .payables import Due
from .providers import PROVIDERS

logger = logging.getLogger(__name__)

# How a reference may be written: E000123K, or in any case with spaces or hyphens (e-000123-k).
REFERENCE_PATTERN = r"^[A-Za-z0-9 -]{1,40}$"
AMOUNT_PATTERN = r"^[0-9]{1,8}(\.[0-9]{1,2})?$"


def receipt_url(number: str) -> str:
    return f"/money/receipts/{number}/"


def credit_note_url(number: str) -> str:
    return f"/money/credit-notes/{number}/"


# --- PayNow payloads for amounts due --------------------------------------------------------------


class PaymentSettingsCache:
    """Every association's payment settings, read in one query the first time one is asked for (a list of
    entries then costs one query for them, whatever its length). Missing settings: PayNow is not set up."""

    def __init__(self):
        self._found: dict[int, PaymentSettings] | None = None

    def get(self, association_id: int) -> PaymentSettings | None:
        if self._found is None:
            self._found = {s.association_id: s for s in PaymentSettings.objects.select_related("association")}
        return self._found.get(association_id)


def settings_cache(context: dict) -> PaymentSettingsCache:
    """The request's cache, kept in the (root) serializer's context so every row of a list shares it."""
    cache = context.get("payment_settings")
    if cache is None:
        cache = context["payment_settings"] = PaymentSettingsCache()
    return cache


def _nothing_to_pay(due: Due) -> bool:
    return not due.payable or due.balance <= 0


def paynow_for(due: Due, settings: PaymentSettings | None) -> tuple[str | None, date | None]:
    """The PayNow payload that pays `due`'s balance, and the last day it can be paid; (None, None) when
    nothing can be paid on it now or the association has no PayNow set up."""
    provider = PROVIDERS.get("paynow")
    if settings is None or provider is None or not provider.available(settings):
        return None, None
    if _nothing_to_pay(due):
        return None, None
    try:
        return provider.payload(due, settings)
    except ValueError as error:  # the association's PayNow details are not usable: shown as not set up
        logger.warning("No PayNow payload for %s: %s", due.reference, error)
        return None, None


def paynow_payload(due: Due, context: dict) -> str | None:
    """`paynow_for`'s payload for a row of an API list or detail; the associations' payment settings (read once per
    request, see settings_cache) are not read at all when nothing can be paid on it."""
    if _nothing_to_pay(due):
        return None
    return paynow_for(due, settings_cache(context).get(due.association_id))[0]


def simple_due(kind: str, target_id: int, association_id: int, total, paid, payable: bool, pay_by=None) -> Due:
    """Just enough of an amount due for its reference, balance and PayNow payload (lists read no more); `pay_by`:
    the last day to pay, which the payload's expiry does not pass."""
    return Due(
        kind=kind,
        target_id=target_id,
        association_id=association_id,
        title="",
        payer_name="",
        payer_email="",
        total=total,
        paid=paid,
        payable=payable,
        pay_by=pay_by,
    )


PAYNOW_PAYLOAD_HELP = (
    "What a PayNow QR code for the balance holds (EMVCo SGQR text, the reference as its bill number); "
    "null when nothing is due now or the association has no PayNow set up"
)


# --- amounts due ---------------------------------------------------------------------------------


class DueLineSerializer(serializers.Serializer):
    """One thing charged: for a group entry, one student."""

    description = serializers.CharField()
    standard = serializers.DecimalField(max_digits=10, decimal_places=2, help_text="The standard fee")
    amount = serializers.DecimalField(max_digits=10, decimal_places=2, help_text="What is charged")
    note = serializers.CharField(help_text="A concession's name, incl. GST, …")
    taxed = serializers.BooleanField(help_text="The amount includes GST")
    status = serializers.CharField(help_text="For a group entry: where this student's entry stands")
    paid = serializers.DecimalField(max_digits=10, decimal_places=2)
    balance = serializers.DecimalField(max_digits=10, decimal_places=2)


class DueSerializer(serializers.Serializer):
    reference = serializers.CharField(help_text="What the payer quotes: the bank transfer's reference")
    kind = serializers.CharField(help_text="E an entry, G a group entry, M a membership renewal")
    kind_label = serializers.CharField()
    title = serializers.CharField()
    payer_name = serializers.CharField()
    total = serializers.DecimalField(max_digits=10, decimal_places=2, help_text="Charged in all")
    paid = serializers.DecimalField(max_digits=10, decimal_places=2)
    balance = serializers.DecimalField(
        max_digits=10, decimal_places=2, help_text="Still to pay (nothing while it cannot be paid: see payable)"
    )
    currency = serializers.CharField()
    payable = serializers.BooleanField(help_text="False: money arriving now is held (the entry lapsed, …)")
    why_not = serializers.CharField(help_text="Why nothing can be paid on it now (empty when payable)")
    url = serializers.CharField(help_text="The page of what is paid for")
    lines = DueLineSerializer(many=True)
    paynow_payload = serializers.CharField(allow_null=True, help_text=PAYNOW_PAYLOAD_HELP)
    paynow_expires = serializers.DateField(allow_null=True, help_text="The last day the PayNow payload can be paid")


def due_data(kind, due: Due, settings: PaymentSettings | None) -> dict:
    payload, expires = paynow_for(due, settings)
    return {
        "reference": due.reference,
        "kind": due.kind,
        "kind_label": kind.label,
        "title": due.title,
        "payer_name": due.payer_name,
        "total": due.total,
        "paid": due.paid,
        "balance": due.owed,
        "currency": django_settings.CURRENCY,
        "payable": due.payable,
        "why_not": "" if due.payable else due.why_not,
        "url": due.url,
        "lines": due.lines,
        "paynow_payload": payload,
        "paynow_expires": expires,
    }


# --- payments and refunds ------------------------------------------------------------------------


class RefundSerializer(serializers.ModelSerializer):
    payment = serializers.CharField(source="payment.number", read_only=True, help_text="The receipt number")
    credit_note_url = serializers.SerializerMethodField()
    method = serializers.CharField(read_only=True, help_text="How it was paid back: as the payment came")

    class Meta:
        model = Refund
        fields = [
            "number",
            "credit_note_url",
            "payment",
            "amount",
            "unapplied",
            "reason",
            "method",
            "external_id",
            "refunded_at",
        ]
        read_only_fields = fields

    def get_credit_note_url(self, refund) -> str:
        return credit_note_url(refund.number)


class PaymentRefundSerializer(RefundSerializer):
    """A refund as listed under its payment."""

    class Meta(RefundSerializer.Meta):
        fields = [f for f in RefundSerializer.Meta.fields if f != "payment"]
        read_only_fields = fields


METHODS = ", ".join(f"{value} ({label})" for value, label in Payment._meta.get_field("method").choices)


class MoneyPaymentSerializer(serializers.ModelSerializer):
    receipt_url = serializers.SerializerMethodField()
    event = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    lines = DueLineSerializer(many=True, read_only=True, help_text="What the receipt lists, as it was when paid")
    # Plain text in the schema (the refund's method is the same list): one of METHODS.
    method = serializers.CharField(read_only=True, help_text=METHODS)
    held = serializers.DecimalField(
        max_digits=10, decimal_places=2, read_only=True, help_text="Received but neither applied nor refunded"
    )
    refundable = serializers.DecimalField(max_digits=10, decimal_places=2, read_only=True)
    refunds = PaymentRefundSerializer(many=True, read_only=True)

    class Meta:
        model = Payment
        fields = [
            "number",
            "receipt_url",
            "reference",
            "kind",
            "description",
            "event",
            "lines",
            "method",
            "external_id",
            "payer_reference",
            "amount",
            "currency",
            "applied",
            "refunded",
            "held",
            "refundable",
            "payer_name",
            "payer_email",
            "received_on",
            "recorded_at",
            "note",
            "refunds",
        ]
        read_only_fields = fields

    def get_receipt_url(self, payment) -> str:
        return receipt_url(payment.number)


@extend_schema_field({"type": "string", "pattern": AMOUNT_PATTERN, "example": "1.50"})
class AmountField(serializers.CharField):
    """An amount of money as text ("1.50"): never a float. money.services reads and checks it."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 20)
        super().__init__(**kwargs)


class RefundRequestSerializer(serializers.Serializer):
    amount = AmountField(help_text="How much to give back, in dollars and cents, for example 1.50")
    reason = serializers.CharField(max_length=300, help_text="Printed on the credit note")


__all__ = [
    "AMOUNT_PATTERN",
    "PAYNOW_PAYLOAD_HELP",
    "REFERENCE_PATTERN",
    "DueSerializer",
    "MoneyPaymentSerializer",
    "PaymentSettingsCache",
    "RefundRequestSerializer",
    "RefundSerializer",
    "due_data",
    "paynow_for",
    "paynow_payload",
    "settings_cache",
    "simple_due",
]
