"""Forms read and show input; the rules are in events.services. The event, categories and the organiser's
forms are here; the entry forms (one player, a group, a class list) in forms/entering.py."""

from zoneinfo import ZoneInfo

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms
from django.conf import settings
from django.utils import timezone

from clubsite.kit.ui import QuickSelect, ServiceFormMixin, date_input, datetime_input, model_bounds
from events.play.core.standings import format_round_spread_caps, parse_round_spread_caps
from players.models import Club
from rulebooks.services import versions_for

from ..models import (
    BY_HAND_PAYMENT_METHODS,
    Category,
    Event,
    EventKind,
    FeeAudience,
    PaymentMethod,
    PrizeKind,
    PrizeTies,
)
from ..models.event_parts import is_time_zone, validate_one_line, validate_sensible_date
from ..services import AUDIENCES, CATEGORY_FIELDS, EVENT_FIELDS, closing_date_warning, event_problems
from ..templatetags.events_tags import format_money

DATE = date_input()
TIME = forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
DATETIME = datetime_input()
ZONED_FIELDS = ("registration_opens_at", "registration_closes_at")


def _helper(label: str | None = None, tag: bool = True) -> FormHelper:
    helper = FormHelper()
    helper.form_tag = tag
    if label:
        helper.add_input(Submit("submit", label))
    return helper


class EventForm(ServiceFormMixin, forms.ModelForm):
    """The announcement. Registration times are entered in the event's own time zone."""

    payment_methods = forms.MultipleChoiceField(
        choices=[c for c in PaymentMethod.choices if c[0] != PaymentMethod.WAIVED],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    time_zone = forms.CharField(initial=settings.TIME_ZONE, help_text="For example Asia/Singapore")
    # Shown (as a box to tick) only once a closing date already past has been asked about.
    keep_past_closing_date = forms.BooleanField(
        required=False, widget=forms.HiddenInput, label="Keep this closing date, although it has passed"
    )

    class Meta:
        model = Event
        fields = list(EVENT_FIELDS)
        widgets = {
            "starts_on": DATE,
            "ends_on": DATE,
            "reporting_time": TIME,
            "reporting_until": TIME,
            "start_time": TIME,
            "estimated_end_time": TIME,
            "prize_presentation_time": TIME,
            "prize_presentation_until": TIME,
            "registration_opens_at": DATETIME,
            "registration_closes_at": DATETIME,
            "description": forms.Textarea(attrs={"rows": 6}),
            "payment_instructions": forms.Textarea(attrs={"rows": 3}),
            "rules_agreement": forms.Textarea(attrs={"rows": 3}),
            "rule_amendments": forms.Textarea(attrs={"rows": 3}),
            "refund_policy": forms.Textarea(attrs={"rows": 2}),
        }
        help_texts = {
            "registration_opens_at": "In the event's time zone. Leave empty to open registration by hand.",
            "registration_closes_at": "In the event's time zone.",
            "description": "Markdown: **bold**, lists, links.",
            "rules_agreement": "What entrants agree to besides the rule book: an indemnity, the organiser's own "
            "rules. Without a rule book, the rules themselves.",
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        model_bounds(self)
        order = list(self.fields)
        order.insert(order.index("registration_closes_at") + 1, order.pop(order.index("keep_past_closing_date")))
        self.order_fields(order)
        self.fields["club"].queryset = Club.objects.order_by("name")
        # The association's rule books and the event's club's (Event.clean refuses another club's).
        self.fields["rule_book_version"].queryset = versions_for(
            self.instance.association_id if self.instance.pk else None, self.instance.club_id
        )
        self.fields["rule_book_version"].empty_label = "None: only the rules and indemnity below"
        self.fields["ends_on"].required = False
        self.fields["prize_ties"].required = False  # left out, the event keeps its rule (by default: split)
        if self.instance.pk:
            zone = self.instance.zone
            for name in ZONED_FIELDS:
                value = getattr(self.instance, name)
                if value:
                    self.initial[name] = timezone.localtime(value, zone).replace(tzinfo=None)
        self.helper = _helper("Save event")

    def clean(self):
        data = super().clean()
        zone_name = data.get("time_zone") or settings.TIME_ZONE
        if not is_time_zone(zone_name):
            self.add_error("time_zone", "Choose a time zone such as Asia/Singapore.")
            return data
        zone = ZoneInfo(zone_name)
        for name in ZONED_FIELDS:
            value = data.get(name)
            if value:
                try:
                    validate_sensible_date(value)
                except forms.ValidationError as error:
                    # Refused before any time-zone arithmetic (year 1 cannot be moved to another zone).
                    self.add_error(name, error)
                    continue
                # Typed as the event's wall-clock time, whatever the site's own zone is.
                data[name] = timezone.make_aware(timezone.make_naive(value), zone)
        if data.get("starts_on") and not data.get("ends_on"):
            data["ends_on"] = data["starts_on"]
        return data

    def clean_prize_ties(self) -> str:
        return self.cleaned_data.get("prize_ties") or self.instance.prize_ties or PrizeTies.SPLIT

    def clean_round_spread_caps(self) -> str:
        """Written back in one form ("200,100"), whatever spacing or brackets were typed."""
        text = self.cleaned_data.get("round_spread_caps") or ""
        try:
            return format_round_spread_caps(parse_round_spread_caps(text))
        except ValueError as error:
            raise forms.ValidationError(f"{str(error).capitalize()}. Write the caps like 200,100,100.") from None

    def _post_clean(self):
        """The service's own checks, run here too, so that one submit shows every problem beside its field with
        the form's own; the service refuses with the same ones when it saves."""
        fields = {name: value for name, value in self.cleaned_data.items() if name in self.Meta.fields}
        event = self.instance if self.instance.pk else None
        refused = set(self.errors)
        for field, message in event_problems(event, fields, skip=refused):
            if field not in refused:
                self.add_error(field if field in self.fields else None, message)
        if "registration_closes_at" not in self.errors:
            warning = closing_date_warning(event, fields.get("registration_closes_at"))
            if warning and not self.cleaned_data.get("keep_past_closing_date"):
                self.add_error("registration_closes_at", warning)
            if warning:
                self.fields["keep_past_closing_date"].widget = forms.CheckboxInput()

    def service_fields(self) -> dict:
        return {name: self.cleaned_data.get(name) for name in self.Meta.fields}


class CategoryForm(ServiceFormMixin, forms.ModelForm):
    class Meta:
        model = Category
        fields = list(CATEGORY_FIELDS)
        help_texts = {"quota": "Places in this category; empty for no limit."}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        model_bounds(self)
        self.helper = _helper(tag=False)

    def _post_clean(self):
        pass


class FeeForm(forms.Form):
    id = forms.IntegerField(required=False, widget=forms.HiddenInput)
    name = forms.CharField(max_length=100, required=False)
    amount = forms.DecimalField(max_digits=8, decimal_places=2, required=False)
    note = forms.CharField(max_length=100, required=False, help_text="e.g. incl. GST")
    is_concession = forms.BooleanField(required=False, label="Concession")
    proof_label = forms.CharField(max_length=100, required=False, label="Proof asked for")
    audience = forms.ChoiceField(
        choices=FeeAudience.choices, required=False, label="For", help_text="Members: valid on the closing date"
    )
    until = forms.DateField(
        required=False, label="Early bird until", widget=DATE, help_text="Its last day; empty: no end"
    )

    def clean(self):
        data = super().clean()
        # A row filled in but for its amount would be dropped on saving: said here instead (a row left as
        # offered is no fee at all).
        typed = self.has_changed() and any(
            data.get(k) for k in ("name", "note", "is_concession", "proof_label", "audience", "until")
        )
        if typed and not data.get("id") and data.get("amount") is None and not data.get("DELETE"):
            self.add_error("amount", "Give this fee an amount, or clear the row.")
        return data


class PrizeForm(forms.Form):
    id = forms.IntegerField(required=False, widget=forms.HiddenInput)
    kind = forms.ChoiceField(choices=PrizeKind.choices, initial=PrizeKind.PLACE)
    rank_from = forms.IntegerField(required=False, min_value=1, label="From")
    rank_to = forms.IntegerField(required=False, min_value=1, label="To")
    description = forms.CharField(max_length=200, required=False)
    amount = forms.DecimalField(max_digits=9, decimal_places=2, required=False, label="Value")
    class_min_rating = forms.IntegerField(required=False, min_value=0, label="Class from rating")
    class_max_rating = forms.IntegerField(required=False, min_value=0, label="Class to rating")


# The most rows a category's fees and prizes have: far more than any real one, and a bound on the forms a
# request builds (a count of 99999999999999999999999 rows once built Django's 2,000 of each, half a minute a page).
MAX_FEES, MAX_PRIZES = 20, 60
BOUNDED = {"can_delete": True, "validate_max": True}
FeeFormSet = forms.formset_factory(FeeForm, extra=2, max_num=MAX_FEES, absolute_max=MAX_FEES, **BOUNDED)
PrizeFormSet = forms.formset_factory(PrizeForm, extra=3, max_num=MAX_PRIZES, absolute_max=MAX_PRIZES, **BOUNDED)
# A new category starts with rows enough for the usual 1st–5th, 6th–10th and a lucky draw.
NewPrizeFormSet = forms.formset_factory(PrizeForm, extra=7, max_num=MAX_PRIZES, absolute_max=MAX_PRIZES, **BOUNDED)


def formset_rows(formset, required: str | None = None) -> list[dict]:
    """The rows of a fees or prizes formset as the service takes them: blank new rows left out, and new rows
    without `required` when it is named. Prizes name nothing: a prize row with anything typed in reaches the service,
    which describes it by its value or refuses it naming the row (it was dropped without a word)."""
    rows = []
    for form in formset.forms:
        if not form.has_changed() and not form.cleaned_data.get("id"):
            continue
        data = dict(form.cleaned_data)
        if data.get("DELETE"):
            if data.get("id"):
                rows.append({"id": data["id"], "delete": True})
            continue
        data.pop("DELETE", None)
        if required and not data.get("id") and data.get(required) in (None, ""):
            continue
        rows.append(data)
    return rows


def option_value(category, fee) -> str:
    return f"{category.pk}:{fee.pk if fee else 0}"


def option_choices(categories) -> list:
    """Category-and-fee choices, grouped by category: choosing a fee chooses its category. A fee's variants (for
    members, non-members, early entries: events.pricing) are one choice, the pricing rule charging the one that
    applies."""
    choices = []
    for category in categories:
        fees = list(category.fees.all())
        if not fees:
            choices.append((option_value(category, None), f"{category.name}: free"))
        kinds: dict = {}
        for fee in fees:
            kinds.setdefault(fee.as_row().kind, []).append(fee)
        for variants in kinds.values():
            fee = variants[0]
            if len(variants) == 1 and not fee.conditions:
                label = f"{category.name}: {fee.name} {format_money(fee.amount)}"
            else:
                shown = ", or ".join(
                    f"{format_money(f.amount)}" + (f" {f.conditions}" if f.conditions else "") for f in variants
                )
                label = f"{category.name}: {fee.name} {shown} (you pay the lowest that applies to you)"
            if fee.note:
                label += f" ({fee.note})"
            if fee.is_concession and fee.proof_label:
                label += f" – needs {fee.proof_label}"
            choices.append((option_value(category, fee), label))
    return choices


def parse_option(value: str) -> tuple[int | None, int | None]:
    try:
        category, fee = (int(part) for part in (value or "").split(":"))
    except ValueError:
        return None, None
    return category, fee or None


class GroupPaymentForm(ServiceFormMixin, forms.Form):
    """One payment (one cheque) for a whole group entry."""

    amount = forms.DecimalField(max_digits=8, decimal_places=2)
    method = forms.ChoiceField(choices=[c for c in BY_HAND_PAYMENT_METHODS if c[0] != PaymentMethod.WAIVED])
    reference = forms.CharField(max_length=100, required=False, help_text="Cheque number or transfer reference")
    note = forms.CharField(max_length=200, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = _helper("Record one payment for the group")


class PaymentForm(ServiceFormMixin, forms.Form):
    amount = forms.DecimalField(
        max_digits=8,
        decimal_places=2,
        required=False,
        help_text="Not needed to waive the fee: all that is due is waived.",
    )
    method = forms.ChoiceField(choices=BY_HAND_PAYMENT_METHODS)
    reference = forms.CharField(max_length=100, required=False, help_text="Cheque number or transfer reference")
    note = forms.CharField(max_length=200, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = _helper("Record payment")


class MoveEntryForm(ServiceFormMixin, forms.Form):
    option = forms.ChoiceField(label="Move to")
    concession_proof = forms.CharField(
        max_length=100,
        required=False,
        label="Concession proof",
        help_text="For a concession fee: the card number (or other proof) it asks for, unless the entry has one.",
    )

    def __init__(self, *args, categories=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["option"].choices = option_choices(categories)
        self.helper = _helper("Move entry")

    def add_service_error(self, error):
        self.add_error("concession_proof" if error.field == "concession_proof" else "option", error.message)


class EmailEntrantsForm(ServiceFormMixin, forms.Form):
    audience = forms.ChoiceField(choices=AUDIENCES, initial="all", required=False, label="Send to")
    category = forms.ModelChoiceField(queryset=Category.objects.none(), required=False, empty_label="Every category")
    subject = forms.CharField(max_length=200)
    body = forms.CharField(widget=forms.Textarea(attrs={"rows": 8}), label="Message")

    def __init__(self, *args, event=None, **kwargs):
        super().__init__(*args, **kwargs)
        if event is not None:
            self.fields["category"].queryset = event.categories.order_by("position", "pk")
        self.helper = _helper("Send")

    def clean_audience(self) -> str:
        return self.cleaned_data.get("audience") or "all"


class DirectorForm(ServiceFormMixin, forms.Form):
    who = forms.CharField(
        max_length=254,
        label="Member number or email address",
        help_text="Of the director's account on this site.",
    )


class CopyEventForm(ServiceFormMixin, forms.Form):
    """The copy's title (the source's, its year moved on, unless changed); every other setting is edited after."""

    title = forms.CharField(
        max_length=Event._meta.get_field("title").max_length,
        validators=[validate_one_line],
        label="Title of the new event",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = _helper("Copy as a draft")


class CancelEventForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), required=False, label="Reason (sent to entrants)"
    )


class EventFilterForm(forms.Form):
    when = forms.ChoiceField(choices=[("upcoming", "Upcoming"), ("past", "Past")], required=False)
    club = forms.ModelChoiceField(
        queryset=Club.objects.order_by("name"), required=False, empty_label="All clubs", widget=QuickSelect
    )
    kind = forms.ChoiceField(choices=[("", "All kinds"), *EventKind.choices], required=False)
    month = forms.DateField(
        required=False, input_formats=["%Y-%m"], widget=forms.DateInput(attrs={"type": "month"}, format="%Y-%m")
    )
