"""Forms of the money pages: asking for a quotation or an invoice, the organiser's refund, and the treasurer's
filters."""

from decimal import Decimal

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms

from clubsite.kit.ui import ServiceFormMixin, date_input

from .models import (
    BILLING_ADDRESS_LENGTH,
    BILLING_NAME_LENGTH,
    PO_NUMBER_LENGTH,
    BillingDocument,
    Method,
    Payment,
)
from .payables import events
from .services.reports import Filters, this_month


class BillingForm(ServiceFormMixin, forms.Form):
    """A quotation or an invoice, and whom it is addressed to (money.services.invoices.issue checks it)."""

    document = forms.ChoiceField(
        label="What you need",
        choices=[
            (BillingDocument.QUOTATION, "A quotation: what it will cost, to get a purchase approved"),
            (BillingDocument.INVOICE, "An invoice: to pay against"),
        ],
        widget=forms.RadioSelect,
    )
    billing_name = forms.CharField(
        label="Bill to", max_length=BILLING_NAME_LENGTH, help_text="The school, company or person who pays"
    )
    billing_address = forms.CharField(
        label="Billing address", max_length=BILLING_ADDRESS_LENGTH, widget=forms.Textarea(attrs={"rows": 3})
    )
    po_number = forms.CharField(
        label="Purchase order number",
        max_length=PO_NUMBER_LENGTH,
        required=False,
        help_text="If your school or company gave one: printed on the document and on the receipt",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.add_input(Submit("submit", "Issue it", css_class="btn-primary"))


class RefundForm(ServiceFormMixin, forms.Form):
    amount = forms.DecimalField(
        max_digits=10, decimal_places=2, min_value=Decimal("0.01"), help_text="At most what can still be refunded."
    )
    reason = forms.CharField(
        max_length=300,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Printed on the credit note and emailed to the payer.",
    )

    def __init__(self, *args, payment: Payment, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["amount"].label = f"Amount ({payment.currency})"
        self.helper = FormHelper()
        self.helper.attrs = {"data-confirm": f"Refund this payment ({payment.number})? A credit note is issued."}
        self.helper.add_input(Submit("submit", "Refund", css_class="btn-danger"))


class TreasurerFilterForm(forms.Form):
    """The period (received or refunded from … to, both days included), an event, a way of paying."""

    start = forms.DateField(label="From", required=False, widget=date_input(**{"class": "form-control"}))
    end = forms.DateField(label="To", required=False, widget=date_input(**{"class": "form-control"}))
    event = forms.ModelChoiceField(
        queryset=None,  # the events with payments (from the kinds that belong to events), set below
        required=False,
        empty_label="Every event",
        widget=forms.Select(attrs={"class": "form-select"}),
    )
    method = forms.ChoiceField(
        choices=[("", "Every way")] + list(Method.choices),
        required=False,
        widget=forms.Select(attrs={"class": "form-select"}),
    )

    def __init__(self, data=None, **kwargs):
        start, end = this_month()
        data = data.copy() if data is not None else {}
        data.setdefault("start", start.isoformat())
        data.setdefault("end", end.isoformat())
        super().__init__(data, **kwargs)
        self.default_period = (start, end)
        self.fields["event"].queryset = events().choices(Payment.objects.exclude(event=None).values("event_id"))

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end and start > end:
            self.add_error("end", "The period must end on or after the day it starts.")
        return cleaned

    def filters(self) -> Filters:
        """The filters asked for; on bad input, this month's money of every event and way."""
        if not self.is_valid():
            start, end = self.default_period
            return Filters(start=start, end=end)
        event = self.cleaned_data["event"]
        return Filters(
            start=self.cleaned_data["start"],
            end=self.cleaned_data["end"],
            event_id=event.pk if event else None,
            method=self.cleaned_data["method"],
        )
