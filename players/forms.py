from allauth.account.forms import SignupForm as AllauthSignupForm
from crispy_forms.helper import FormHelper
from crispy_forms.layout import Hidden, Submit
from django import forms

from clubsite.kit.errors import ServiceError
from clubsite.kit.money import format_money
from clubsite.kit.ui import QuickSelect, ServiceFormMixin, date_input

from . import services
from .models import Club, PaymentMethod, Player

GUARDIAN_OPT_IN_LABEL = "I am this member's parent or guardian, and I agree to list them in the member directory"


FAMILY_NAME_HELP = (
    "As it begins or ends your full name: Chua for Chua Xavier, Tan for Tan Ah Kow, Smith for John Smith. "
    "Leave it empty if you have no family name (for example Muhammad Irfan): your name is then used as written."
)


class SignupForm(AllauthSignupForm):
    full_name = forms.CharField(label="Full name as on ID", max_length=200)
    family_name = forms.CharField(
        label="Family name (surname)", required=False, max_length=100, help_text=FAMILY_NAME_HELP
    )
    date_of_birth = forms.DateField(
        required=False,
        widget=date_input(),
        help_text="Needed for junior events. Members under 18 are listed in the directory only if a parent or "
        "guardian agrees.",
    )
    # Opt-in, not opt-out: nobody is listed in the directory without having chosen it.
    listed_in_directory = forms.BooleanField(
        label="List me in the member directory (name, club and member number)",
        required=False,
        initial=False,
        help_text="Rating lists and results show every rated player's name and rating either way.",
    )
    guardian_name = forms.CharField(
        label="Parent or guardian's name (members under 18)", required=False, max_length=200
    )
    guardian_opt_in = forms.BooleanField(label=GUARDIAN_OPT_IN_LABEL, required=False)

    PROFILE_FIELDS = (
        "full_name",
        "family_name",
        "date_of_birth",
        "listed_in_directory",
        "guardian_name",
        "guardian_opt_in",
    )

    def clean_email(self):
        # Checked before allauth's own checks, which would take an over-long address (a 500 later).
        try:
            services.validate_email_length(self.data.get(self.add_prefix("email"), ""))
        except ServiceError as error:
            raise forms.ValidationError(error.message) from None
        return super().clean_email()

    def clean(self):
        cleaned = super().clean()
        try:
            services.clean_profile({name: cleaned.get(name) for name in self.PROFILE_FIELDS if name in cleaned})
        except ServiceError as error:
            self.add_error(error.field if error.field in self.fields else None, error.message)
        return cleaned

    def save(self, request):
        user = super().save(request)
        user.first_name = self.cleaned_data["full_name"][:150]
        user.save(update_fields=["first_name"])
        # The player record is made here, with the choices above (the sign-up signal then finds it), unless the person
        # has one already: then the account claims it (services.sign_up_player).
        services.sign_up_player(user, **{f: self.cleaned_data[f] for f in self.PROFILE_FIELDS})
        return user


class ProfileForm(ServiceFormMixin, forms.ModelForm):
    id_last4 = forms.CharField(
        label="Last four characters of your ID number",
        required=False,
        max_length=40,  # longer input reaches the service, which explains that only four are kept
        help_text="Only the last four characters are kept; never enter the whole number.",
    )

    class Meta:
        model = Player
        # The profile's fields are the service's list; the guardian's opt-in is a form field of its own.
        fields = [name for name in services.PROFILE_FIELDS if name != "guardian_opt_in"]
        widgets = {"date_of_birth": date_input(), "club": QuickSelect}
        help_texts = {"family_name": FAMILY_NAME_HELP}

    guardian_opt_in = forms.BooleanField(label=GUARDIAN_OPT_IN_LABEL, required=False)

    def __init__(self, *args, next_url: str | None = None, need: tuple[str, ...] = (), **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance and self.instance.pk:
            self.fields["guardian_opt_in"].initial = self.instance.guardian_opted_in_on is not None
        # Asked for by the page the member came from (an entry needing the school level): shown first, the cursor in
        # the first of them.
        self.needed = [name for name in need if name in self.fields]
        if self.needed:
            self.order_fields([*self.needed, *(name for name in self.fields if name not in self.needed)])
            self.fields[self.needed[0]].widget.attrs["autofocus"] = True
        # Two addresses: the profile's gets the event mail, the account's is for logging in. Say which is which.
        login = getattr(self.instance.user, "email", "") if self.instance and self.instance.user_id else ""
        self.fields["email"].label = "Email for event mail"
        self.fields["email"].help_text = "Entries, waiting-list offers, payments and results are sent here." + (
            f" You log in with {login}: change that under Email addresses." if login else ""
        )
        self.helper = FormHelper()
        self.helper.form_id = "profile-form"
        if next_url:
            self.helper.add_input(Hidden("next", next_url))
        self.helper.add_input(Submit("save", "Save and go back" if next_url else "Save profile"))

    def add_service_error(self, error):
        if error.field == "id_last4":
            # Never echo a whole ID number back into the page.
            self.data = self.data.copy()
            self.data["id_last4"] = ""
        super().add_service_error(error)

    def _post_clean(self):
        # Validation of these fields belongs to the service; the model's own checks run there.
        pass


class ClaimForm(ServiceFormMixin, forms.Form):
    member_number = forms.CharField(label="Member number", max_length=12)
    message = forms.CharField(
        label="Message for the staff (optional)",
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        help_text="For example the events you played under that record.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        # The claim has its own view: without an action the form would post to the profile form of the same page.
        self.helper.form_action = "players:claim"
        self.helper.form_id = "claim-form"
        self.helper.add_input(Submit("claim", "Ask to claim this record"))


class DirectorySearchForm(forms.Form):
    q = forms.CharField(label="Name", required=False, max_length=100)  # as long as any name searched for
    club = forms.ModelChoiceField(
        queryset=Club.objects.all(), required=False, empty_label="All clubs", widget=QuickSelect
    )


class RenewalPaymentForm(forms.Form):
    """Staff record a renewal's payment (players.services.record_renewal_payment checks it)."""

    method = forms.ChoiceField(
        label="Paid by",
        choices=PaymentMethod.choices,
        initial=PaymentMethod.BANK_TRANSFER,
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )
    reference = forms.CharField(
        label="Reference", required=False, max_length=100, widget=forms.TextInput(attrs={"class": "form-control"})
    )
    paid_on = forms.DateField(label="Paid on", required=False, widget=date_input(**{"class": "form-control"}))


class MergeForm(ServiceFormMixin, forms.Form):
    """Which of two records of one person is kept, and why they are one (players.merging)."""

    keep = forms.ChoiceField(label="Keep the record of", widget=forms.RadioSelect)
    reason = forms.CharField(
        label="Why these are one person",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Kept with the merge: for example, the same date of birth and school, confirmed with the parent.",
    )

    def __init__(self, *args, records=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["keep"].choices = [
            (str(p.member_number), f"member {p.member_number}, {p.full_name}") for p in records
        ]
        self.helper = FormHelper()
        self.helper.add_input(Submit("merge", "Merge the two records"))


class MembersUploadForm(ServiceFormMixin, forms.Form):
    file = forms.FileField(
        label="Members file",
        help_text="CSV, as a spreadsheet saves it (“CSV UTF-8”, comma or semicolon separated), the column names on "
        "the first line.",
    )


class MembersMappingForm(ServiceFormMixin, forms.Form):
    """Which column of the file holds which of the site's fields, and the rating list for a rating column. The file
    itself travels signed in `data`, so what is confirmed is what was previewed."""

    data = forms.CharField(widget=forms.HiddenInput, max_length=4 * 1024 * 1024)
    rating_list = forms.TypedChoiceField(
        label="Put the ratings on",
        required=False,
        coerce=int,
        empty_value=None,
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )

    def __init__(self, header: tuple[str, ...], lists: list[tuple[int, str]], *args, **kwargs):
        super().__init__(*args, **kwargs)
        from .memberfile import FIELDS

        columns = [("", "— not in the file —")] + [
            (str(i), f"Column {i + 1}: {name or '(no name)'}") for i, name in enumerate(header)
        ]
        for f in FIELDS:
            self.fields[f"col_{f.key}"] = forms.TypedChoiceField(
                label=f.label.capitalize(),
                choices=columns,
                required=False,
                coerce=int,
                empty_value=None,
                widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
            )
        self.fields["rating_list"].choices = [("", "— no rating list —"), *((str(i), n) for i, n in lists)]
        self.order_fields([f"col_{f.key}" for f in FIELDS] + ["rating_list", "data"])

    def column_fields(self):
        return [self[name] for name in self.fields if name.startswith("col_")]

    def mapping(self) -> dict[str, int]:
        return {
            name.removeprefix("col_"): value
            for name, value in self.cleaned_data.items()
            if name.startswith("col_") and value is not None
        }


class OfferChoice(forms.ModelChoiceField):
    def label_from_instance(self, offer):
        # Each type says what joining it asks for, so nobody learns it from a refusal.
        needs = [
            "date of birth" if offer.asks_date_of_birth else "",
            f"aged {offer.min_age} or over" if offer.min_age is not None else "",
            f"aged {offer.max_age} or under" if offer.max_age is not None else "",
            offer.proof_label.lower(),
        ]
        needs = ", ".join(n for n in needs if n)
        described = f" ({offer.description})" if offer.description else ""
        label = f"{offer.get_type_display()}{described}: {format_money(offer.fee)} a year"
        return f"{label}; needs {needs}" if needs else label


class JoinForm(ServiceFormMixin, forms.Form):
    """Joining online (players.joining.join checks what each type needs and says which field is wrong)."""

    offer = OfferChoice(label="Membership type", queryset=None, widget=forms.RadioSelect, empty_label=None)
    full_name = forms.CharField(label="Full name as on ID", max_length=200)
    family_name = forms.CharField(
        label="Family name (surname)", required=False, max_length=100, help_text=FAMILY_NAME_HELP
    )
    date_of_birth = forms.DateField(
        required=False, widget=date_input(), help_text="Needed for the types with an age limit or asking for it."
    )
    proof = forms.CharField(
        label="Proof the type asks for",
        required=False,
        max_length=100,
        help_text="For example your student card's number, for the types that need one. Never a whole ID number.",
    )

    def __init__(self, *args, offers, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["offer"].queryset = offers
        self.helper = FormHelper()
        # No form_id: crispy's radio buttons take the helper's attributes too, which would give the id twice (the
        # page wraps the form in an element with the id instead).
        self.helper.add_input(Submit("join", "Join"))
