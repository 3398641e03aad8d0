"""The organiser's questions on the forms: the organiser's form for a question, and each question as an input of the
entry forms. The inputs only bound what may be sent; what an answer may be is judged by the service
(events.services.questions.check_answers, through events.answers.clean_answer), the same for every door."""

from django import forms

from clubsite.kit.ui import ServiceFormMixin
from events import answers as rules

from ..models import QuestionKind
from . import DATE, _helper

YES_NO = [("yes", "Yes"), ("no", "No")]


def answer_field(question, *, category_note: bool = True) -> forms.Field:
    """The input for one question. Never required by the form itself: a question of one category is asked only of
    that category's entrants, which the service knows once the category is chosen."""
    label = question.label + (" *" if question.required else "")
    help_text = question.help_text
    if category_note and question.category_id:
        only = f"Only for {question.category.name}."
        help_text = f"{help_text} {only}".strip()
    common = {"label": label, "help_text": help_text, "required": False}
    kind = question.kind
    if kind == rules.LONG:
        return forms.CharField(max_length=rules.MAX_LONG, widget=forms.Textarea(attrs={"rows": 3}), **common)
    if kind == rules.CHOICE:
        return forms.ChoiceField(choices=[("", "—")] + [(c, c) for c in question.choices], **common)
    if kind == rules.CHOICES:
        return forms.MultipleChoiceField(
            choices=[(c, c) for c in question.choices], widget=forms.CheckboxSelectMultiple, **common
        )
    if kind == rules.YES_NO:
        return forms.ChoiceField(choices=[("", "—"), *YES_NO], **common)
    if kind == rules.DATE:
        return forms.DateField(widget=DATE, **common)
    if kind == rules.NUMBER:
        return forms.CharField(max_length=30, widget=forms.TextInput(attrs={"inputmode": "decimal"}), **common)
    return forms.CharField(max_length=rules.MAX_SHORT, **common)


def initial_value(question, value: str):
    """A stored answer as its input shows it."""
    if question.kind == rules.CHOICES:
        return value.split("\n") if value else []
    return value


def add_question_fields(form: forms.Form, questions, answers: dict | None = None) -> None:
    """Adds an input for each question to `form` (at its end), showing the stored `answers` ({question id: value})."""
    for question in questions:
        form.fields[question.field_name] = answer_field(question)
        if answers and question.pk in answers:
            form.initial[question.field_name] = initial_value(question, answers[question.pk])


def given_answers(cleaned_data: dict, questions) -> dict[int, object]:
    """The answers a form was given, by question id, for the service to judge."""
    return {q.pk: cleaned_data.get(q.field_name) for q in questions if q.field_name in cleaned_data}


class QuestionForm(ServiceFormMixin, forms.Form):
    label = forms.CharField(max_length=rules.MAX_LABEL, label="Question")
    kind = forms.ChoiceField(choices=QuestionKind.choices, label="Kind of answer")
    choices = forms.CharField(
        required=False,
        max_length=rules.MAX_CHOICES * (rules.MAX_CHOICE + 2),
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=f"For one or several choices: the choices, one a line (at most {rules.MAX_CHOICES}).",
    )
    help_text = forms.CharField(
        max_length=rules.MAX_HELP, required=False, label="Help text", help_text="Shown under the question."
    )
    required = forms.BooleanField(required=False, label="An answer is required")
    category = forms.ChoiceField(required=False, label="Asked of")
    position = forms.IntegerField(
        required=False, min_value=0, max_value=10_000, label="Order", help_text="Lower numbers come first."
    )

    def __init__(self, *args, categories=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = [("", "Every entrant")] + [
            (str(c.pk), f"Entrants of {c.name} only") for c in categories
        ]
        self.helper = _helper("Save the question")

    def service_fields(self) -> dict:
        data = self.cleaned_data
        return {
            "label": data["label"],
            "kind": data["kind"],
            "choices": data.get("choices") or "",
            "help_text": data.get("help_text") or "",
            "required": data.get("required", False),
            "category": int(data["category"]) if data.get("category") else None,
            "position": data.get("position"),
        }


def question_initial(question) -> dict:
    return {
        "label": question.label,
        "kind": question.kind,
        "choices": "\n".join(question.choices or []),
        "help_text": question.help_text,
        "required": question.required,
        "category": str(question.category_id or ""),
        "position": question.position,
    }


class AnswersForm(ServiceFormMixin, forms.Form):
    """An entry's answers, changed by the entrant, the adult who entered them, or the organiser."""

    def __init__(self, *args, questions=(), answers=None, read_only=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.questions = list(questions)
        add_question_fields(self, self.questions, answers)
        if read_only:
            for field in self.fields.values():
                field.disabled = True
        self.helper = _helper(None if read_only else "Save the answers")
