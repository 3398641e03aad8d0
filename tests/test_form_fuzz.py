"""Property-based tests of the forms people fill in: whatever is typed, a form answers with
validation errors, never an exception (the organiser's event form, the entry form, the group entry
form and its students, the director's result form, the ratings import form).
"""

import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils.datastructures import MultiValueDict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.forms import EventForm, parse_option
from events.forms.entering import EntryForm, GroupContactForm, student_formset
from events.play.forms import ResultForm
from ratings.forms import RatingImportForm
from tests.events.factories import EventFactory, open_event

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "40")),
    deadline=None,
    database=None,
    derandomize="FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=list(HealthCheck),
)

# What people type, and what a crafted request sends: text, NUL, huge and odd numbers, dates, times.
typed = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["", " ", "\x00", "a\x00b", "²", "١٢", "-1", "0", "1e9", "NaN", "9" * 30, str(2**63), "0:61"]),
    st.integers().map(str),
    st.dates().map(str),
    st.times().map(lambda t: t.strftime("%H:%M")),
    st.datetimes().map(lambda d: d.strftime("%Y-%m-%dT%H:%M")),
    st.sampled_from(["Asia/Singapore", "UTC", "../../etc/passwd", "Mars/Olympus"]),
)


def form_data(field_names, extra=()):
    """A strategy of request data giving each field (and each extra key) a typed value, or leaving it out."""
    names = list(field_names) + list(extra)
    return st.dictionaries(st.sampled_from(names), st.lists(typed, min_size=1, max_size=2), max_size=len(names)).map(
        MultiValueDict
    )


def test_the_event_form():
    names = list(EventForm().fields)

    @FUZZ
    @given(form_data(names))
    def check(data):
        form = EventForm(data=data)
        if form.is_valid():
            form.service_fields()

    check()


def test_the_entry_form():
    event, category, fees = open_event()
    choices = [value for value, _ in EntryForm(categories=[category], event=event).fields["option"].choices]

    @FUZZ
    @given(form_data(EntryForm(categories=[category], event=event).fields), st.sampled_from(choices + ["1:", ":", "x"]))
    def check(data, option):
        if "option" not in data:
            data["option"] = option
        form = EntryForm(data=data, categories=[category], event=event)
        if form.is_valid():
            parse_option(form.cleaned_data["option"])

    check()


def test_the_group_entry_form():
    event = EventFactory(max_group_size=2, rules_agreement="Be nice.")
    fields = [
        f"students-{i}-{name}" for i in range(2) for name in ("full_name", "member_number", "option", "date_of_birth")
    ]
    management = ["students-TOTAL_FORMS", "students-INITIAL_FORMS", "students-MAX_NUM_FORMS"]

    @FUZZ
    @given(form_data(GroupContactForm(event=event).fields), form_data(fields, management))
    def check(contact, students):
        GroupContactForm(data=contact, event=event).is_valid()
        formset = student_formset(event, [("1:2", "Open: Standard")], data=students)
        if formset.is_valid():
            formset.student_rows()

    check()


def test_the_result_form():
    @FUZZ
    @given(form_data(ResultForm().fields))
    def check(data):
        ResultForm(data=data).is_valid()

    check()


def test_the_ratings_import_form():
    @FUZZ
    @given(
        form_data(["as_of"]),
        st.one_of(st.binary(max_size=200), st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass"))),
        st.sampled_from(["ratings.txt", "", "a\x00.txt", "../x.txt"]),
    )
    def check(data, content, name):
        files = MultiValueDict({"file": [SimpleUploadedFile(name, content)]}) if name else MultiValueDict()
        form = RatingImportForm(data=data, files=files)
        if form.is_valid():
            assert isinstance(form.cleaned_data["file"], str)

    check()
