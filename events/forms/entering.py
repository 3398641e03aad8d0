"""Entry forms: one player, a group of students (typed, pasted or uploaded as a class list), a name change."""

import csv
import re
from datetime import date, datetime

from django import forms
from django.utils.html import format_html

from clubsite.kit.ui import ServiceFormMixin
from players.models import birth_date_problem

from ..answers import CHOICES
from ..models import Category, GroupEntry, SchoolLevelRequirement
from . import DATE, _helper, option_choices, parse_option
from .questions import add_question_fields, given_answers


def agreement_label(event, lead: str) -> str:
    """The agreement's box names what is agreed to: the rule book version the event follows, linked (with the event's
    amendments), and its rules and indemnity shown above, or only those for an event naming no rule book."""
    version = event.rule_book_version if event.rule_book_version_id else None
    if version is None:
        return f"{lead} the rules and indemnity above."
    return format_html(
        '{} <a href="{}" target="_blank">{}</a>{}{}.',
        lead,
        version.get_absolute_url(),
        str(version),
        " with this event's amendments" if event.rule_amendments else "",
        ", and to the rules and indemnity above" if event.rules_agreement else "",
    )


def ask_agreement(form, event, lead: str) -> None:
    """The agreement's box and the version it was shown with (checked again when entering: services.check_rules), or
    neither for an event that asks for no agreement."""
    if event is None:
        return
    if not event.asks_agreement:
        del form.fields["accept_rules"]
        del form.fields["agreed_version"]
        return
    form.fields["accept_rules"].label = agreement_label(event, lead)
    form.fields["agreed_version"].initial = event.rule_book_version_id


class EntryForm(ServiceFormMixin, forms.Form):
    option = forms.ChoiceField(label="Category and fee", widget=forms.RadioSelect)
    concession_proof = forms.CharField(
        required=False, max_length=100, label="Concession card number", help_text="Only for a concession fee."
    )
    phone = forms.CharField(required=False, max_length=30, label="Contact number")
    discount_code = forms.CharField(
        required=False, max_length=40, label="Discount code", help_text="If the organisers gave you one."
    )
    play_up = forms.BooleanField(
        required=False,
        label="I ask to play in a higher division than my rating gives",
        help_text="As the rules allow: never a lower one. The director places you.",
    )
    accept_rules = forms.BooleanField(required=False, label="I agree to the rules and indemnity above.")
    agreed_version = forms.IntegerField(required=False, widget=forms.HiddenInput, max_value=2**31 - 1, min_value=1)

    def __init__(self, *args, categories=(), event=None, rated=False, questions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["option"].choices = option_choices(categories)
        ask_agreement(self, event, "I agree to")
        if not rated:
            del self.fields["play_up"]
        # The organiser's questions come before agreeing to the rules, the form's last word.
        self.questions = list(questions)
        add_question_fields(self, self.questions)
        self.order_fields([name for name in self.fields if name != "accept_rules"])
        self.helper = _helper("Enter")

    def answers(self) -> dict:
        return given_answers(self.cleaned_data, self.questions)

    def add_service_error(self, error):
        field = {"category": "option", "fee": "option"}.get(error.field, error.field)
        self.add_error(field if field in self.fields else None, error.message)


class GroupContactForm(ServiceFormMixin, forms.Form):
    role = forms.ChoiceField(choices=GroupEntry.Role.choices, label="I am the")
    contact_name = forms.CharField(max_length=200, label="Your name")
    school = forms.CharField(max_length=200, required=False)
    address = forms.CharField(max_length=300)
    phone = forms.CharField(max_length=30, label="Contact number")
    email = forms.EmailField(label="Email address")
    discount_code = forms.CharField(
        required=False,
        max_length=40,
        label="Discount code",
        help_text="If the organisers gave you one: each student entered uses it once.",
    )
    accept_rules = forms.BooleanField(
        required=False, label="On behalf of the students entered, I agree to the rules and indemnity above."
    )
    agreed_version = forms.IntegerField(required=False, widget=forms.HiddenInput, max_value=2**31 - 1, min_value=1)
    names_listed = forms.BooleanField(
        required=False,
        label="Their parents or guardians agreed to show the students' names on the event's public list of entrants.",
        help_text="Otherwise a student under 18 is listed there by initials and school; the organisers see every "
        "name either way.",
    )

    def __init__(self, *args, event=None, **kwargs):
        super().__init__(*args, **kwargs)
        ask_agreement(self, event, "On behalf of the students entered, I agree to")
        self.fields["school"].help_text = "Given once: used for every student without a school of their own."
        self.helper = _helper(tag=False)


# The columns of a class list in their order when it has no first line of names, under the headings the form's
# help text shows them by: a teacher who copies these headings as the first line has every column read.
CLASS_LIST_HEADINGS = (
    ("full_name", "Name"),
    ("date_of_birth", "Date of birth"),
    ("level", "School level or category"),
    ("member_number", "Member no. (if any)"),
    ("concession_proof", "Concession card no. (if any)"),
    ("phone", "Phone"),
)


class ClassListForm(forms.Form):
    """The class list pasted from a spreadsheet (or uploaded as CSV), one student a line."""

    class_list = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        label="Paste the class list",
        help_text="One student a line, copied from a spreadsheet or typed with commas: "
        + ", ".join(heading.lower() for _, heading in CLASS_LIST_HEADINGS)
        + ". A first line of column names is fine.",
    )
    class_file = forms.FileField(
        required=False,
        label="or upload it as a CSV file",
        help_text="At most 200 kB, saved as CSV UTF-8 (or plain CSV from a spreadsheet on Windows).",
    )

    def __init__(self, *args, categories=(), questions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.categories = list(categories)
        self.questions = list(questions)
        if self.questions:
            # Each question is a column of its own, by its wording; without a first line of names, after the phone.
            columns = "; ".join(f"“{q.label}”" for q in self.questions)
            self.fields["class_list"].help_text += f" The organiser's questions are columns too: {columns}."

    def clean(self):
        data = super().clean()
        upload = data.get("class_file")
        text = data.get("class_list") or ""
        try:
            if upload:
                if upload.size > MAX_CLASS_LIST_BYTES:
                    raise ValueError(_too_large(f"The file {upload.name}", upload.size))
                text = read_class_file(upload.read(MAX_CLASS_LIST_BYTES + 1))
                self.data = self.data.copy()
                self.data["class_list"] = text  # shown back, so a refused line can be fixed in place
            elif len(text.encode()) > MAX_CLASS_LIST_BYTES:
                raise ValueError(_too_large("The class list", len(text.encode())))
            data["rows"] = parse_class_list(text, self.categories, self.questions)
        except ClassListError as error:
            raise forms.ValidationError(error.problems) from None
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None
        return data


# Other spellings of the same columns, as class lists kept in schools name them.
CLASS_LIST_COLUMNS = {
    "full_name": ("name", "full name", "student", "name of student", "name as on id"),
    "date_of_birth": ("date of birth", "dob", "born", "birth date", "birthday"),
    "level": ("level", "school level", "category", "category and fee", "class", "division"),
    "member_number": ("member", "member no", "member no.", "member number"),
    "concession_proof": ("concession", "concession card", "passion card", "card", "proof"),
    "phone": ("phone", "tel", "tel no", "tel no.", "contact", "contact number"),
    "school": ("school",),
}
# "(if any)" and a trailing "no", "no.", "number" or "#" name the same column: "Concession card no." is
# "Concession card".
_HEADER_NOTE = re.compile(r"\([^)]*\)")
_HEADER_NUMBER = re.compile(r"\s*(?:no\.?|number|num|#)$")


def _header_key(cell: str) -> str:
    text = _HEADER_NOTE.sub(" ", " ".join(cell.split()).lower()).strip(" :.")
    return _HEADER_NUMBER.sub("", text).strip(" :.")


def column_for(cell: str, categories=(), questions=()) -> str:
    """The one header rule, for every way a class list comes in: which field a column heading names ("" none).
    Case, spacing, "(if any)" and a trailing "no."/"number" do not matter, and the proof a concession fee of the
    event asks for ("Passion Card number") names the card column too. An organiser's question is named by its
    wording (before the site's own columns: the organiser's "School" question is the organiser's)."""
    key = _header_key(cell)
    for question in questions:
        if key and key == _header_key(question.label):
            return question.field_name
    for field, heading in CLASS_LIST_HEADINGS:
        if key == _header_key(heading):
            return field
    for field, names in CLASS_LIST_COLUMNS.items():
        if key in {_header_key(name) for name in names}:
            return field
    labels = {_header_key(fee.proof_label) for c in categories for fee in c.fees.all() if fee.proof_label}
    return "concession_proof" if key and key in labels else ""


POSITIONAL = tuple(field for field, _ in CLASS_LIST_HEADINGS)
DATE_FORMATS = ("%Y-%m-%d", "%d/%m/%Y", "%d-%m-%Y", "%d.%m.%Y", "%d %b %Y", "%d %B %Y", "%d/%m/%y")
LEVEL_WORDS = {
    "primary": SchoolLevelRequirement.PRIMARY,
    "pri": SchoolLevelRequirement.PRIMARY,
    "secondary": SchoolLevelRequirement.SECONDARY,
    "sec": SchoolLevelRequirement.SECONDARY,
}


MAX_CLASS_LIST_BYTES = 200_000  # a class of forty is under 4 kB
MAX_PROBLEMS_SHOWN = 20
# Control characters other than tab and the line breaks: no class list has them (a NUL, a binary file read as text).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class ClassListError(ValueError):
    """Lines of a class list that cannot be read, each named by its line number (`problems`)."""

    def __init__(self, problems: list[str]):
        shown = problems[:MAX_PROBLEMS_SHOWN]
        if len(problems) > len(shown):
            shown.append(f"and {len(problems) - len(shown)} more lines.")
        super().__init__(" ".join(shown))
        self.problems = shown


def _too_large(what: str, size: int) -> str:
    return (
        f"{what} is {size:,} bytes; a class list may be at most {MAX_CLASS_LIST_BYTES:,} bytes "
        f"({MAX_CLASS_LIST_BYTES // 1000} kB). Nothing was entered: send the students in several group entries."
    )


def read_class_file(data: bytes) -> str:
    """The text of an uploaded class list, its encoding decided on the whole file: UTF-8, with or without a
    byte-order mark; UTF-16 with its byte-order mark (a spreadsheet's "Unicode text"); else Windows-1252 (a
    spreadsheet's plain "CSV" on Windows), tried only when the file is not UTF-8, so UTF-8 is never misread.
    A file over MAX_CLASS_LIST_BYTES, or in none of these, is refused (ValueError)."""
    if len(data) > MAX_CLASS_LIST_BYTES:
        raise ValueError(_too_large("The file", len(data)))
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        encodings = ("utf-16",)
    else:
        encodings = ("utf-8-sig", "cp1252")
    for encoding in encodings:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ValueError(
        "The file is not text we can read (neither UTF-8 nor Windows-1252): in the spreadsheet, save it as "
        "“CSV UTF-8” and upload that."
    )


def _read_date(text: str) -> date | None:
    text = " ".join(text.split())
    if not text:
        return None
    for fmt in DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise ValueError


def _level_of(text: str) -> str | None:
    """primary / secondary from "Primary", "P5", "Pri 4", "Sec 2", "S3"."""
    word = text.lower().replace(".", " ").split()
    if not word:
        return None
    head = word[0]
    if head in LEVEL_WORDS:
        return LEVEL_WORDS[head]
    if len(head) == 2 and head[1].isdigit() and head[0] in "ps":
        return SchoolLevelRequirement.PRIMARY if head[0] == "p" else SchoolLevelRequirement.SECONDARY
    return None


def _category_for(text: str, categories: list) -> Category | None:
    text = " ".join(text.split()).lower()
    if not text:
        return categories[0] if len(categories) == 1 else None
    for category in categories:
        if category.name.lower() == text:
            return category
    level = _level_of(text)
    if level:
        matches = [c for c in categories if c.school_level == level]
        matches = matches or [c for c in categories if c.school_level == SchoolLevelRequirement.STUDENT]
        if matches:
            return matches[0]
    starting = [c for c in categories if c.name.lower().startswith(text)]
    return starting[0] if len(starting) == 1 else None


def _fee_for(category: Category, proof: str):
    fees = list(category.fees.all())
    if not fees:
        return None
    wanted = [f for f in fees if f.is_concession == bool(proof)]
    return (wanted or fees)[0]


def _cells(line: str, number: int, delimiter: str) -> list[str]:
    """One line's cells; a line is one student, so a quote must close on the line it opens."""
    if control := _CONTROL.search(line):
        name = "a NUL (a zero byte)" if control[0] == "\x00" else f"the control character U+{ord(control[0]):04X}"
        raise ValueError(f"Line {number} has {name}, which no class list has: is this the right file?")
    try:
        return next(csv.reader([line], delimiter=delimiter, strict=True), [])
    except csv.Error as error:
        if str(error) == "unexpected end of data":
            raise ValueError(
                f'Line {number}: a quote (") opened on this line is never closed: close it, or take it out.'
            ) from None
        raise ValueError(
            f'Line {number}: a quote (") stands inside a cell: put the whole cell in quotes, or take it out.'
        ) from None


def parse_class_list(text: str, categories, questions=()) -> list[dict]:
    """Student rows (as the group entry service takes them) from a pasted or uploaded class list.

    Tab-separated (copied from a spreadsheet) or comma-separated; the first line may name the columns,
    otherwise they are: name, date of birth, school level or category, member no., card no., phone.
    Every line that cannot be read (a quote never closed, no name, no date of birth or a wrong one, no
    category) is refused by its line number, all of them at once (ClassListError); then no row is given.
    The organiser's `questions` are columns named by their wording (after the phone without a first line of names);
    their answers are judged by the service, which names the line and the question."""
    categories, questions = list(categories), list(questions)
    lines = [(number, line) for number, line in enumerate((text or "").splitlines(), start=1) if line.strip(" \t,;")]
    if not lines:
        return []
    delimiter = (
        "\t" if any("\t" in line for _, line in lines) else ("," if any("," in line for _, line in lines) else ";")
    )
    problems: list[tuple[int, str]] = []
    records = []
    for number, line in lines:
        try:
            records.append((number, _cells(line, number, delimiter)))
        except ValueError as error:
            problems.append((number, str(error)))
    columns = list(POSITIONAL) + [q.field_name for q in questions]
    header = [column_for(cell, categories, questions) for cell in records[0][1]] if records else []
    if records and records[0][0] == lines[0][0] and "full_name" in header:
        columns = header
        records = records[1:]
    names = ", ".join(c.name for c in categories)
    rows = []
    for number, record in records:
        cells = {key: value.strip() for key, value in zip(columns, record, strict=False) if key}
        name = cells.get("full_name", "")
        label = f"Line {number}"
        who = f"{label} ({name})" if name else label
        if not name and not cells.get("member_number"):
            problems.append((number, f"{label}: give the student's name as on the ID."))
            continue
        given = cells.get("date_of_birth", "")
        try:
            born = _read_date(given)
        except ValueError:
            problems.append((number, f"{who}: “{given}” is not a date; write it like 2014-03-25 or 25/03/2014."))
            continue
        if born is None:
            problems.append((number, f"{who}: give the date of birth, like 2014-03-25 or 25/03/2014."))
            continue
        if problem := birth_date_problem(born):
            problems.append((number, f"{who}: {problem}"))
            continue
        category = _category_for(cells.get("level", ""), categories)
        if category is None:
            level = cells.get("level", "")
            shown = f"“{level}” matches no category" if level else "give the school level or category"
            problems.append((number, f"{who}: {shown} (the categories are: {names})."))
            continue
        proof = cells.get("concession_proof", "")
        fee = _fee_for(category, proof)
        rows.append(
            {
                "row": label,
                "full_name": name,
                "date_of_birth": born,
                "member_number": cells.get("member_number", ""),
                "concession_proof": proof,
                "phone": cells.get("phone", ""),
                "school": cells.get("school", ""),
                "category": category.pk,
                "fee": fee.pk if fee else None,
                "answers": {q.pk: cells[q.field_name] for q in questions if q.field_name in cells},
            }
        )
    if problems:
        raise ClassListError([problem for _, problem in sorted(problems)])
    return rows


class StudentForm(forms.Form):
    full_name = forms.CharField(max_length=200, required=False, label="Name as on ID")
    school = forms.CharField(max_length=200, required=False)
    phone = forms.CharField(max_length=30, required=False, label="Tel no.")
    member_number = forms.CharField(
        max_length=12,
        required=False,
        label="Member no. (if any)",
        help_text="A student already entered once has one: the group page shows it. Write “new” for a student "
        "who is not the member the site suggests.",
    )
    option = forms.ChoiceField(label="Category and fee", required=False)
    concession_proof = forms.CharField(max_length=100, required=False, label="Concession card no.")
    date_of_birth = forms.DateField(required=False, widget=DATE, label="Date of birth")

    def __init__(self, *args, choices=(), questions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["option"].choices = [("", "—")] + list(choices)
        self.questions = list(questions)
        add_question_fields(self, self.questions)

    def question_fields(self):
        """The organiser's questions' inputs, for the row's template."""
        return [self[q.field_name] for q in self.questions]


class BaseStudentFormSet(forms.BaseFormSet):
    def student_rows(self) -> list[dict]:
        rows = []
        for form in self.forms:
            data = form.cleaned_data
            if not (data.get("full_name") or data.get("member_number")):
                continue
            category, fee = parse_option(data.get("option"))
            answers = given_answers(data, form.questions)
            rows.append({**data, "category": category, "fee": fee, "answers": answers})
        return rows


STUDENT_BLOCKS = 3  # a few students typed one by one; a whole class is pasted as a list
STUDENTS = "students"


def student_formset(event, choices, data=None, questions=()):
    """The students typed one by one: never more rows than a group entry may have (the event's max_group_size),
    whatever row count a request sends. Each row asks the organiser's `questions`."""
    form_kwargs = {"choices": choices, "questions": questions}
    return _student_formset_class(event)(data, prefix=STUDENTS, form_kwargs=form_kwargs)


def _student_formset_class(event, extra: int = STUDENT_BLOCKS):
    size = max(event.max_group_size, 1)
    return forms.formset_factory(
        StudentForm, formset=BaseStudentFormSet, extra=min(extra, size), max_num=size, absolute_max=size
    )


def student_formset_with_another_row(event, choices, data, questions=()):
    """The students' rows as typed so far and one more, unbound (nothing is checked or saved yet): the form's
    "Add a student" button, which works without JavaScript too (with it, site.js adds the row in the page). At the
    bound the rows stay as they are."""
    size = max(event.max_group_size, 1)
    try:
        typed = min(max(int(data.get(f"{STUDENTS}-TOTAL_FORMS", 0)), 0), size)
    except (TypeError, ValueError):
        typed = 0
    initial = [
        {
            **{name: data.get(f"{STUDENTS}-{i}-{name}", "") for name in StudentForm.base_fields},
            **{q.field_name: _typed_answer(data, f"{STUDENTS}-{i}-{q.field_name}", q) for q in questions},
        }
        for i in range(typed)
    ]
    form_kwargs = {"choices": choices, "questions": questions}
    formset = _student_formset_class(event, extra=1)(initial=initial, prefix=STUDENTS, form_kwargs=form_kwargs)
    if len(formset.forms) > typed:
        formset.forms[-1].fields["full_name"].widget.attrs["autofocus"] = True  # the browser scrolls to the new row
    return formset


def _typed_answer(data, name: str, question):
    """What was typed for a question in a row, as its input shows it again (several choices are a list)."""
    return data.getlist(name) if question.kind == CHOICES and hasattr(data, "getlist") else data.get(name, "")


class ReplaceStudentForm(ServiceFormMixin, forms.Form):
    full_name = forms.CharField(max_length=200, label="Name as on ID")
    date_of_birth = forms.DateField(
        required=False, widget=DATE, label="Date of birth", help_text="Needed for a category by school level or age."
    )
    school = forms.CharField(max_length=200, required=False)
    phone = forms.CharField(max_length=30, required=False)
    member_number = forms.CharField(
        max_length=12, required=False, label="Member no. (if any)", help_text="With the member's date of birth."
    )
    name_listed = forms.BooleanField(
        required=False,
        label="Their parent or guardian agreed to show the student's name on the event's public list of entrants.",
        help_text="Otherwise a student under 18 is listed there by initials and school.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = _helper("Change the name")
