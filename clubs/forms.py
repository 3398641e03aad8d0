"""The club's forms: its page, a series of nights and a night off, RSVP, and the door (a guest, a fee)."""

from datetime import date

from django import forms

from clubsite.kit.ui import ServiceFormMixin, date_input
from money.models import Method

from . import core
from .models import Attendance, ClubPage, Frequency, OfficerRole

MAX_FEE = 9999


class PageForm(ServiceFormMixin, forms.ModelForm):
    map_url = forms.URLField(
        label="Map link",
        max_length=500,
        required=False,
        assume_scheme="https",
        help_text="A link to a map; empty: a map search for the address",
    )

    class Meta:
        model = ClubPage
        fields = ["venue", "address", "map_url", "contact_email", "contact_phone", "about"]
        widgets = {"about": forms.Textarea(attrs={"rows": 5})}


class SeriesForm(ServiceFormMixin, forms.Form):
    title = forms.CharField(max_length=100, initial="Club night")
    frequency = forms.ChoiceField(choices=Frequency.choices, initial=Frequency.WEEKLY, widget=forms.RadioSelect)
    first_on = forms.DateField(label="First night", required=False, widget=date_input())
    last_on = forms.DateField(label="Last day", required=False, widget=date_input(), help_text="Weekly or fortnightly")
    dates = forms.CharField(
        label="Dates",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="For a list of dates: one a line, year-month-day (2026-03-03).",
    )
    off = forms.CharField(
        label="Nights off",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="One a line: the date, then why (2026-03-17 Public holiday).",
    )
    starts_at = forms.TimeField(label="Starts at", widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    ends_at = forms.TimeField(
        label="Ends at", required=False, widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )
    venue = forms.CharField(max_length=200, required=False)
    member_fee = forms.DecimalField(
        label="Member's fee", max_digits=6, decimal_places=2, min_value=0, max_value=MAX_FEE, initial=0
    )
    guest_fee = forms.DecimalField(
        label="Guest's fee", max_digits=6, decimal_places=2, min_value=0, max_value=MAX_FEE, initial=0
    )

    def clean_dates(self) -> list[date]:
        found, problem = core.parse_dates(self.cleaned_data["dates"])
        if problem:
            raise forms.ValidationError(problem)
        return found

    def clean_off(self) -> list[tuple[date, str]]:
        off = []
        for line in self.cleaned_data["off"].splitlines():
            if not line.strip():
                continue
            word, _, reason = line.strip().partition(" ")
            found, problem = core.parse_dates(word, "nights off")
            if problem or not found:
                raise forms.ValidationError(problem or "Start each line with a date.")
            off.append((found[0], reason.strip()[:100]))
            if len(off) > core.MAX_NIGHTS:
                raise forms.ValidationError(f"At most {core.MAX_NIGHTS} nights off.")
        return off


class ExceptionForm(ServiceFormMixin, forms.Form):
    on = forms.DateField(label="Night off on", widget=date_input())
    reason = forms.CharField(max_length=100, required=False, help_text="A public holiday, the hall is booked")


class RsvpForm(ServiceFormMixin, forms.Form):
    guests = forms.TypedChoiceField(
        label="Guests I bring",
        coerce=int,
        choices=[(n, str(n)) for n in range(Attendance.MAX_GUESTS + 1)],
        initial=0,
        widget=forms.Select(attrs={"class": "form-select w-auto"}),
    )


class CheckInForm(forms.Form):
    player = forms.IntegerField(min_value=1, max_value=2**31 - 1, widget=forms.HiddenInput)


class GuestForm(ServiceFormMixin, forms.Form):
    full_name = forms.CharField(label="Guest's full name", max_length=200)
    email = forms.EmailField(label="Email", required=False, help_text="For the receipt, and to know them next time")
    date_of_birth = forms.DateField(label="Date of birth", required=False, widget=date_input())
    guest_of = forms.TypedChoiceField(label="Guest of", coerce=int, required=False, empty_value=None, choices=())
    record = forms.IntegerField(
        label="The association's record of this guest", required=False, min_value=1, max_value=2**31 - 1
    )
    new_person = forms.BooleanField(label="None of these: someone else", required=False)

    def __init__(self, *args, hosts=(), likely=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["guest_of"].choices = [("", "—"), *[(p.pk, p.name) for p in hosts]]
        if likely:
            choices = [(r.member_number, f"member {r.member_number}, {r.full_name}") for r in likely]
            self.fields["record"].widget = forms.RadioSelect(choices=choices)
        else:
            self.fields["record"].widget = forms.HiddenInput()
            self.fields["new_person"].widget = forms.HiddenInput()


class FeeForm(forms.Form):
    method = forms.ChoiceField(choices=[(m.value, m.label) for m in (Method.IN_PERSON, Method.PAYNOW)])


class OfficerForm(ServiceFormMixin, forms.Form):
    member_number = forms.IntegerField(label="Member number", min_value=1, max_value=2**31 - 1)
    role = forms.ChoiceField(label="Office", choices=OfficerRole.choices)
