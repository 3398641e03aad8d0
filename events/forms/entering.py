"""Entry forms: one player, a group of students (typed, pasted or uploaded as a class list), a name change."""

import csv
import io
from datetime import date, datetime

from django import forms

from clubsite.kit.ui import ServiceFormMixin

from ..models import Category, GroupEntry, SchoolLevelRequirement
from . import DATE, _helper, option_choices, parse_option


class EntryForm(ServiceFormMixin, forms.Form):
    option = forms.ChoiceField(label="Category and fee", widget=forms.RadioSelect)
    concession_proof = forms.CharField(
        required=False, max_length=100, label="Concession card number", help_text="Only for a concession fee."
    )
    phone = forms.CharField(required=False, max_length=30, label="Contact number")
    play_up = forms.BooleanField(
        required=False,
        label="I ask to play in a higher division than my rating gives",
        help_text="As the rules allow: never a lower one. The director places you.",
    )
    accept_rules = forms.BooleanField(required=False, label="I agree to the rules and indemnity above.")

    def __init__(self, *args, categories=(), event=None, rated=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["option"].choices = option_choices(categories)
        if event is not None and not event.rules_agreement:
            del self.fields["accept_rules"]
        if not rated:
            del self.fields["play_up"]
        self.helper = _helper("Enter")

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
    accept_rules = forms.BooleanField(
        required=False, label="On behalf of the students entered, I agree to the rules and indemnity above."
    )

    def __init__(self, *args, event=None, **kwargs):
        super().__init__(*args, **kwargs)
        if event is not None and not event.rules_agreement:
            del self.fields["accept_rules"]
        self.fields["school"].help_text = "Given once: used for every student without a school of their own."
        self.helper = _helper(tag=False)


class ClassListForm(forms.Form):
    """The class list pasted from a spreadsheet (or uploaded as CSV), one student a line."""

    class_list = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        label="Paste the class list",
        help_text="One student a line, copied from a spreadsheet or typed with commas: name, date of birth, "
        "school level or category, member no. (if any), concession card no. (if any), phone. "
        "A first line of column names is fine.",
    )
    class_file = forms.FileField(required=False, label="or upload it as a CSV file")

    def __init__(self, *args, categories=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.categories = list(categories)

    def clean(self):
        data = super().clean()
        upload = data.get("class_file")
        text = data.get("class_list") or ""
        if upload:
            raw = upload.read(200_000)
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                text = raw.decode("cp1252", errors="replace")
            self.data = self.data.copy()
            self.data["class_list"] = text  # shown back, so a refused row can be fixed in place
        try:
            data["rows"] = parse_class_list(text, self.categories)
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None
        return data


CLASS_LIST_COLUMNS = {
    "full_name": ("name", "full name", "student", "name of student", "name as on id"),
    "date_of_birth": ("date of birth", "dob", "born", "birth date", "birthday"),
    "level": ("level", "school level", "category", "class", "division"),
    "member_number": ("member", "member no", "member no.", "member number"),
    "concession_proof": ("concession", "passion card", "card", "card no", "concession card no.", "proof"),
    "phone": ("phone", "tel", "tel no", "tel no.", "contact", "contact number"),
    "school": ("school",),
}
POSITIONAL = ("full_name", "date_of_birth", "level", "member_number", "concession_proof", "phone")
DATE_FORMATS = ("%Y-%m-%d", "%d/%m/%Y", "%d-%m-%Y", "%d.%m.%Y", "%d %b %Y", "%d %B %Y", "%d/%m/%y")
LEVEL_WORDS = {
    "primary": SchoolLevelRequirement.PRIMARY,
    "pri": SchoolLevelRequirement.PRIMARY,
    "secondary": SchoolLevelRequirement.SECONDARY,
    "sec": SchoolLevelRequirement.SECONDARY,
}


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


def parse_class_list(text: str, categories) -> list[dict]:
    """Student rows (as the group entry service takes them) from a pasted or uploaded class list.

    Tab-separated (copied from a spreadsheet) or comma-separated; the first line may name the columns,
    otherwise they are: name, date of birth, school level or category, member no., card no., phone.
    A line that cannot be read is refused by its row number."""
    categories = list(categories)
    lines = [line for line in (text or "").splitlines() if line.strip(" \t,;")]
    if not lines:
        return []
    delimiter = "\t" if any("\t" in line for line in lines) else ("," if any("," in line for line in lines) else ";")
    records = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter))
    columns = list(POSITIONAL)
    header = [cell.strip().lower().rstrip(":") for cell in records[0]]
    if any(cell in CLASS_LIST_COLUMNS["full_name"] for cell in header):
        columns = [next((k for k, names in CLASS_LIST_COLUMNS.items() if cell in names), "") for cell in header]
        records = records[1:]
    names = ", ".join(c.name for c in categories)
    rows = []
    for number, record in enumerate(records, start=1):
        cells = {key: value.strip() for key, value in zip(columns, record, strict=False) if key}
        name = cells.get("full_name", "")
        label = f"Row {number}"
        who = f"{label} ({name})" if name else label
        if not name and not cells.get("member_number"):
            raise ValueError(f"{label}: give the student's name as on the ID.")
        try:
            born = _read_date(cells.get("date_of_birth", ""))
        except ValueError:
            raise ValueError(
                f"{who}: “{cells.get('date_of_birth')}” is not a date; write it like 2014-03-25 or 25/03/2014."
            ) from None
        category = _category_for(cells.get("level", ""), categories)
        if category is None:
            given = cells.get("level", "")
            shown = f"“{given}” matches no category" if given else "give the school level or category"
            raise ValueError(f"{who}: {shown} (the categories are: {names}).")
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
            }
        )
    return rows


class StudentForm(forms.Form):
    full_name = forms.CharField(max_length=200, required=False, label="Name as on ID")
    school = forms.CharField(max_length=200, required=False)
    phone = forms.CharField(max_length=30, required=False, label="Tel no.")
    member_number = forms.CharField(max_length=12, required=False, label="Member no. (if any)")
    option = forms.ChoiceField(label="Category and fee", required=False)
    concession_proof = forms.CharField(max_length=100, required=False, label="Concession card no.")
    date_of_birth = forms.DateField(required=False, widget=DATE, label="Date of birth")

    def __init__(self, *args, choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["option"].choices = [("", "—")] + list(choices)


class BaseStudentFormSet(forms.BaseFormSet):
    def student_rows(self) -> list[dict]:
        rows = []
        for form in self.forms:
            data = form.cleaned_data
            if not (data.get("full_name") or data.get("member_number")):
                continue
            category, fee = parse_option(data.get("option"))
            rows.append({**data, "category": category, "fee": fee})
        return rows


STUDENT_BLOCKS = 3  # a few students typed one by one; a whole class is pasted as a list


def student_formset(event, choices, data=None):
    size = max(event.max_group_size, 1)
    formset_class = forms.formset_factory(
        StudentForm, formset=BaseStudentFormSet, extra=min(STUDENT_BLOCKS, size), max_num=size, absolute_max=size
    )
    return formset_class(data, prefix="students", form_kwargs={"choices": choices})


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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = _helper("Change the name")
