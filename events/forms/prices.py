"""The organiser's forms about prices: a discount code, a free place."""

from django import forms

from clubsite.kit.ui import ServiceFormMixin

from ..models import DiscountKind
from . import DATE, _helper


class DiscountCodeForm(ServiceFormMixin, forms.Form):
    code = forms.CharField(max_length=40, help_text="What entrants type: letters, digits and dashes")
    category = forms.ChoiceField(required=False, help_text="Empty: every category")
    kind = forms.ChoiceField(choices=DiscountKind.choices, label="Discount")
    value = forms.DecimalField(
        max_digits=8, decimal_places=2, min_value=0, help_text="The amount off, or the percentage off (up to 100)"
    )
    max_uses = forms.IntegerField(
        required=False, min_value=1, max_value=100_000, label="Number of uses", help_text="Empty: no limit"
    )
    expires_on = forms.DateField(required=False, widget=DATE, label="Last day", help_text="Empty: no end")
    note = forms.CharField(required=False, max_length=200, help_text="For the organisers: who it was given to")

    def __init__(self, *args, categories=(), label: str = "Add the code", **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = [("", "Every category")] + [(str(c.pk), c.name) for c in categories]
        self.helper = _helper(label)

    def service_data(self) -> dict:
        data = dict(self.cleaned_data)
        data["category"] = int(data["category"]) if data.get("category") else None
        return data


class FreePlaceForm(ServiceFormMixin, forms.Form):
    reason = forms.CharField(max_length=100, label="Why the place is free", help_text="For example: helper, volunteer")

    def __init__(self, *args, action: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = _helper("Give a free place")
        self.helper.form_action = action
        self.helper.form_id = "free-place-form"
