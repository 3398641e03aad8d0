"""Money received and given back: payments (each with a numbered receipt), refunds (each with a numbered
credit note), quotations and invoices asked for before paying (each numbered in its own series), bank
statements awaiting review, an association's payment settings, and a log of every change.

What a payment pays for (an entry, a group entry, a membership renewal) is known to this app only by its kind
and id, through the kinds the other apps register (money.payables); amounts are decimals with a currency."""

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import ExpressionWrapper, F, Q

from clubsite.kit.text import NOTE_TEXT, TextLimit

from .balances import MONEY


class Method(models.TextChoices):
    PAYNOW = "paynow", "PayNow"
    BANK_TRANSFER = "bank_transfer", "Bank transfer"
    CARD = "card", "Card"
    IN_PERSON = "in_person", "In person"
    CHEQUE = "cheque", "Cheque"


# A fee let off: events and players record it as a way of "paying", but no money is received.
WAIVED = "waived"
# Money's ways of paying that another app's list names otherwise, and that name: a membership's "online" payment
# is a card payment, and a list without PayNow records it as the bank transfer it is. The one translation between
# money's methods and the other apps' (events' list has every one of money's).
OTHER_NAMES = {Method.CARD: "online", Method.PAYNOW: Method.BANK_TRANSFER}


def money_method(recorded: str) -> str:
    """Money's method for a way of paying another app records ("online": card); money's own words are its own."""
    if recorded in Method.values:
        return recorded
    return next((method for method, name in OTHER_NAMES.items() if name == recorded), recorded)


def recorded_method(method: str, values) -> str:
    """Money's `method` in another app's list of `values`: itself when the list has it, else its other name."""
    return method if method in values else OTHER_NAMES.get(method, method)


class ProxyType(models.TextChoices):
    UEN = "UEN", "UEN (organisation)"
    MOBILE = "MOBILE", "Mobile number"


class PaymentSettings(models.Model):
    """How an association is paid and what its receipts say."""

    association = models.OneToOneField("players.Association", on_delete=models.CASCADE, related_name="payment_settings")
    receipt_prefix = models.CharField(
        max_length=10, help_text="Starts every receipt and credit note number, for example SSA"
    )
    address = models.TextField(
        blank=True, validators=[TextLimit(NOTE_TEXT, "address")], help_text="Printed on receipts"
    )
    paynow_proxy_type = models.CharField(max_length=6, choices=ProxyType.choices, default=ProxyType.UEN)
    paynow_proxy = models.CharField(
        "PayNow UEN or mobile", max_length=20, blank=True, help_text="Empty: no PayNow QR code is shown"
    )
    paynow_name = models.CharField("name shown by banking apps", max_length=25, blank=True)
    qr_valid_days = models.PositiveSmallIntegerField(default=7, help_text="How long a PayNow QR code can be paid")
    gst_registration = models.CharField("GST registration number", max_length=20, blank=True)
    gst_rate = models.DecimalField(
        "GST rate (%)", max_digits=4, decimal_places=2, default=Decimal("9"), help_text="For fees marked incl. GST"
    )

    class Meta:
        verbose_name_plural = "payment settings"

    def __str__(self):
        return f"Payment settings of {self.association}"


class Payment(models.Model):
    """Money received, with its receipt number. `applied` is what went to what it paid for; what is neither
    applied nor refunded is held (it arrived for something no longer payable, or more than was due) until
    an organiser refunds it or reinstates what it was for."""

    association = models.ForeignKey("players.Association", on_delete=models.PROTECT, related_name="payments")
    number = models.CharField("receipt number", max_length=40, unique=True)
    year = models.PositiveSmallIntegerField()
    sequence = models.PositiveIntegerField()
    kind = models.CharField(max_length=1)
    target_id = models.PositiveBigIntegerField()
    reference = models.CharField(max_length=25, db_index=True)
    description = models.CharField(max_length=300)
    lines = models.JSONField(default=list, help_text="What the receipt lists, as it was when paid")
    method = models.CharField(max_length=20, choices=Method.choices)
    external_id = models.CharField(
        max_length=200, blank=True, help_text="The provider's id (bank line, card session): counted once"
    )
    payer_reference = models.CharField(max_length=100, blank=True, help_text="A cheque's number, a slip's")
    event = models.ForeignKey(
        "events.Event", null=True, blank=True, on_delete=models.PROTECT, related_name="money_payments"
    )
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    currency = models.CharField(max_length=3)
    applied = models.DecimalField(max_digits=10, decimal_places=2, default=Decimal("0"))
    refunded = models.DecimalField(max_digits=10, decimal_places=2, default=Decimal("0"))
    payer_name = models.CharField(max_length=200, blank=True)
    payer_email = models.EmailField(blank=True)
    received_on = models.DateField()
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    note = models.CharField(max_length=300, blank=True)
    invoice = models.ForeignKey(
        "money.Invoice",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="payments",
        help_text="The invoice this payment paid towards: its receipt carries the invoice's billing details",
    )

    class Meta:
        ordering = ["-recorded_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="money_payment_positive"),
            models.CheckConstraint(condition=Q(applied__gte=0, refunded__gte=0), name="money_payment_parts_positive"),
            models.CheckConstraint(
                condition=Q(amount__gte=F("applied") + F("refunded")), name="money_payment_parts_within_amount"
            ),
            models.UniqueConstraint(fields=["association", "year", "sequence"], name="money_receipt_number_once"),
            # A webhook delivered twice, a statement imported twice: the provider's id counts once.
            models.UniqueConstraint(
                fields=["method", "external_id"], condition=~Q(external_id=""), name="money_payment_external_once"
            ),
        ]
        indexes = [models.Index(fields=["kind", "target_id"]), models.Index(fields=["received_on"])]

    def __str__(self):
        return f"{self.number}: {self.currency} {self.amount}"

    # What is held and what can still be refunded, here and in the database (HELD, REFUNDABLE below).
    @property
    def held(self) -> Decimal:
        return self.amount - self.applied - self.refunded

    @property
    def refundable(self) -> Decimal:
        return self.amount - self.refunded


HELD = ExpressionWrapper(F("amount") - F("applied") - F("refunded"), output_field=MONEY)
REFUNDABLE = ExpressionWrapper(F("amount") - F("refunded"), output_field=MONEY)


class Refund(models.Model):
    """Money given back, with its credit note number. `unapplied` is the part taken back from what the
    payment had paid for (the rest came out of the held part)."""

    payment = models.ForeignKey(Payment, on_delete=models.PROTECT, related_name="refunds")
    number = models.CharField("credit note number", max_length=40, unique=True)
    year = models.PositiveSmallIntegerField()
    sequence = models.PositiveIntegerField()
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    unapplied = models.DecimalField(max_digits=10, decimal_places=2, default=Decimal("0"))
    reason = models.CharField(max_length=300)
    method = models.CharField(max_length=20, choices=Method.choices)
    external_id = models.CharField(max_length=200, blank=True, help_text="The provider's refund id")
    refunded_at = models.DateTimeField()
    refunded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-refunded_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="money_refund_positive"),
            models.CheckConstraint(condition=Q(unapplied__gte=0), name="money_refund_unapplied_positive"),
        ]

    def __str__(self):
        return f"{self.number}: {self.payment.currency} {self.amount}"


class Action(models.TextChoices):
    RECEIVED = "received", "Received"
    REFUNDED = "refunded", "Refunded"
    REINSTATED = "reinstated", "Held money applied"
    HELD = "held", "Applied money held"
    STATEMENT = "statement", "Statement imported"


class MoneyLog(models.Model):
    """Every change to money: who, when, what and why."""

    at = models.DateTimeField()
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=20, choices=Action.choices)
    payment = models.ForeignKey(Payment, null=True, on_delete=models.PROTECT, related_name="log")
    amount = models.DecimalField(max_digits=10, decimal_places=2, default=Decimal("0"))
    why = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()} {self.amount}"


class Statement(models.Model):
    """A bank statement uploaded for reconciliation. Nothing in it counts until the treasurer confirms; the
    file is kept so the review and the confirmation read the same lines."""

    association = models.ForeignKey("players.Association", on_delete=models.PROTECT, related_name="statements")
    filename = models.CharField(max_length=200)
    content = models.TextField()
    mapping = models.CharField(max_length=500, blank=True, help_text="Column mapping for a bank's own export")
    assignments = models.JSONField(default=dict, blank=True, help_text="Line number → reference, set by hand")
    uploaded_at = models.DateTimeField()
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    summary = models.JSONField(default=dict, blank=True, help_text="Outcomes counted when confirmed")

    class Meta:
        ordering = ["-uploaded_at", "-pk"]

    def __str__(self):
        return f"{self.filename} ({self.uploaded_at:%Y-%m-%d})"


class BillingDocument(models.TextChoices):
    QUOTATION = "quotation", "Quotation"
    INVOICE = "invoice", "Invoice"


class InvoiceStatus(models.TextChoices):
    ISSUED = "issued", "Issued"
    PAID = "paid", "Paid"
    # A newer invoice for the same thing replaces it (its entries changed): the old one keeps its number and says so.
    REPLACED = "replaced", "Replaced"


BILLING_NAME_LENGTH = 200
BILLING_ADDRESS_LENGTH = 500
PO_NUMBER_LENGTH = 50


class Invoice(models.Model):
    """A quotation or an invoice for what a reference names (an entry, a group entry), asked for before paying,
    addressed to a billing name and address with the payer's purchase-order number.

    Both are snapshots: `lines` and the amounts are as they were when it was issued, and an issued one is never
    changed. A quotation has no effect on the ledger and is valid until a date. An invoice is paid by paying its
    reference in any of the usual ways (money.services.billing settles it); when what it is for changes, a new
    invoice replaces it and the old one keeps its number, marked replaced."""

    TRANSITIONS = {
        InvoiceStatus.ISSUED: {InvoiceStatus.PAID, InvoiceStatus.REPLACED},
        InvoiceStatus.PAID: set(),
        InvoiceStatus.REPLACED: set(),
    }

    association = models.ForeignKey("players.Association", on_delete=models.PROTECT, related_name="invoices")
    document = models.CharField(max_length=10, choices=BillingDocument.choices)
    number = models.CharField(max_length=40, unique=True)
    year = models.PositiveSmallIntegerField()
    sequence = models.PositiveIntegerField()
    kind = models.CharField(max_length=1)
    target_id = models.PositiveBigIntegerField()
    reference = models.CharField(max_length=25, db_index=True)
    event = models.ForeignKey(
        "events.Event", null=True, blank=True, on_delete=models.PROTECT, related_name="money_invoices"
    )
    description = models.CharField(max_length=300)
    billing_name = models.CharField(max_length=BILLING_NAME_LENGTH)
    billing_address = models.TextField(max_length=BILLING_ADDRESS_LENGTH)
    po_number = models.CharField("purchase order number", max_length=PO_NUMBER_LENGTH, blank=True)
    email = models.EmailField(blank=True)
    lines = models.JSONField(default=list, help_text="What it lists, as it was when issued")
    total = models.DecimalField(max_digits=10, decimal_places=2, help_text="The fees of its lines")
    paid_before = models.DecimalField(
        max_digits=10, decimal_places=2, default=Decimal("0"), help_text="Paid on its lines before it was issued"
    )
    amount_due = models.DecimalField(max_digits=10, decimal_places=2, help_text="What it asks to be paid")
    currency = models.CharField(max_length=3)
    issued_on = models.DateField()
    valid_until = models.DateField(null=True, blank=True, help_text="A quotation's last day")
    pay_by = models.DateField(null=True, blank=True, help_text="An invoice's last day to pay")
    status = models.CharField(max_length=10, choices=InvoiceStatus.choices, default=InvoiceStatus.ISSUED)
    settled_at = models.DateTimeField(null=True, blank=True)
    replaced_by = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    issued_at = models.DateTimeField()
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-issued_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["association", "document", "year", "sequence"], name="money_invoice_number_once"
            ),
            # One open invoice per thing paid for: asking again replaces it.
            models.UniqueConstraint(
                fields=["kind", "target_id"],
                condition=Q(document="invoice", status="issued"),
                name="money_invoice_one_open",
            ),
            models.CheckConstraint(condition=Q(total__gte=0, amount_due__gte=0), name="money_invoice_not_negative"),
        ]
        indexes = [models.Index(fields=["kind", "target_id"]), models.Index(fields=["issued_on"])]

    def __str__(self):
        return f"{self.get_document_display()} {self.number}: {self.currency} {self.amount_due}"
