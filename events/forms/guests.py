"""Entering without an account: the entry form (the individual form's fields, with who is entering and the facts a
profile would give), the change of the entrant's details, and "Lost your link?"."""

from django import forms

from clubsite.kit.ui import ServiceFormMixin
from players.models import SchoolLevel

from ..models import GuestEntry
from . import DATE, _helper
from .entering import EntryForm
from .questions import add_question_fields, given_answers

# Where the guest's own fields stand among the individual form's: who enters whom first, the entry's choices after.
GUEST_ORDER = (
    "role",
    "contact_name",
    "email",
    "full_name",
    "date_of_birth",
    "school_level",
    "school",
    "member_number",
    "option",
    "concession_proof",
    "discount_code",
    "phone",
    "name_listed",
    "accept_rules",
    "agreed_version",
)


class GuestEntryForm(EntryForm):
    """The individual entry form (category and fee, concession proof, contact number, the rules) with what an account
    and its profile would have told: who is entering whom, their date of birth and school level."""

    role = forms.ChoiceField(choices=GuestEntry.Role.choices, label="I am entering", widget=forms.RadioSelect)
    contact_name = forms.CharField(max_length=200, label="Your name")
    email = forms.EmailField(
        max_length=254,
        label="Your email",
        help_text="The link to confirm the entry, and to manage it later, goes here.",
    )
    full_name = forms.CharField(
        max_length=200, required=False, label="Entrant's name as on ID", help_text="Leave empty when entering yourself."
    )
    date_of_birth = forms.DateField(widget=DATE, label="Entrant's date of birth")
    school_level = forms.ChoiceField(choices=SchoolLevel.choices, initial=SchoolLevel.NONE, label="School level")
    school = forms.CharField(max_length=200, required=False)
    member_number = forms.CharField(
        max_length=12,
        required=False,
        label="Member no. (if any)",
        help_text="With the date of birth on the member's record. Write “new” for someone not on our records.",
    )
    name_listed = forms.BooleanField(
        required=False,
        label="As the child's parent or guardian, I agree to show their name on the event's public list of entrants.",
        help_text="Otherwise a child under 18 is listed by initials and school.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, rated=False, **kwargs)
        # The organiser's questions (EntryForm adds them) come before agreeing to the rules, as on the entry form.
        asked = [q.field_name for q in self.questions]
        self.order_fields([*GUEST_ORDER[:-2], *asked, *GUEST_ORDER[-2:]])
        self.helper = _helper("Send me the link to confirm")

    def add_service_error(self, error):
        field = {"category": "option", "fee": "option", "students": "full_name"}.get(error.field, error.field)
        self.add_error(field if field in self.fields else None, error.message)


class GuestChangeForm(ServiceFormMixin, forms.Form):
    full_name = forms.CharField(max_length=200, label="Entrant's name as on ID")
    date_of_birth = forms.DateField(widget=DATE, label="Entrant's date of birth")
    school = forms.CharField(max_length=200, required=False)
    phone = forms.CharField(max_length=30, required=False, label="Contact number")

    def __init__(self, *args, questions=(), answers=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.questions = list(questions)
        add_question_fields(self, self.questions, answers)
        self.helper = _helper("Save the changes")

    def answers(self) -> dict:
        return given_answers(self.cleaned_data, self.questions)


class LostLinkForm(ServiceFormMixin, forms.Form):
    email = forms.EmailField(max_length=254, label="The email address you entered with")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = _helper("Email me the links")
