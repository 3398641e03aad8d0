"""The staff page's form: a new version of a rule book. The rules are in rulebooks.services."""

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms

from clubsite.kit.ui import ServiceFormMixin, date_input

from .models import BOOK_TEXT
from .models import RuleBookVersion as Version


class PublishVersionForm(ServiceFormMixin, forms.Form):
    effective_on = forms.DateField(label="Applies from", widget=date_input())
    text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 18}),
        max_length=BOOK_TEXT,
        label="The rule book's text",
        help_text="Markdown: # headings, numbered lists, **bold**, links. The whole book, as this version has it.",
    )
    changes = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        max_length=Version._meta.get_field("changes").validators[0].limit,
        label="What changed",
        help_text="In a few lines, for those who know the version before: shown beside this version.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.add_input(Submit("submit", "Publish this version"))
