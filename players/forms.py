from allauth.account.forms import SignupForm as AllauthSignupForm
from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms

from .models import Club, Player


class SignupForm(AllauthSignupForm):
    full_name = forms.CharField(label="Full name as on ID", max_length=200)

    def save(self, request):
        user = super().save(request)
        user.first_name = self.cleaned_data["full_name"][:150]
        user.save(update_fields=["first_name"])
        return user


class ServiceFormMixin:
    """Shows a ServiceError on the field it names (or the whole form)."""

    def add_service_error(self, error):
        field = error.field if error.field in self.fields else None
        self.add_error(field, error.message)


class ProfileForm(ServiceFormMixin, forms.ModelForm):
    id_last4 = forms.CharField(
        label="Last four characters of your ID number",
        required=False,
        max_length=40,  # longer input reaches the service, which explains that only four are kept
        help_text="Only the last four characters are kept; never enter the whole number.",
    )

    class Meta:
        model = Player
        fields = [
            "full_name",
            "display_name",
            "date_of_birth",
            "school",
            "school_level",
            "club",
            "country",
            "email",
            "phone",
            "id_last4",
            "listed_in_directory",
        ]
        widgets = {"date_of_birth": forms.DateInput(attrs={"type": "date"})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.form_id = "profile-form"
        self.helper.add_input(Submit("save", "Save profile"))

    def add_service_error(self, error):
        if error.field == "id_last4":
            # Never echo a whole ID number back into the page.
            self.data = self.data.copy()
            self.data["id_last4"] = ""
        super().add_service_error(error)

    def _post_clean(self):
        # Validation of these fields belongs to the service; the model's own checks run there.
        pass


class ClaimForm(forms.Form):
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
    q = forms.CharField(label="Name", required=False)
    club = forms.ModelChoiceField(queryset=Club.objects.all(), required=False, empty_label="All clubs")
