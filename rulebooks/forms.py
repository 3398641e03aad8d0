"""The publishing pages' forms: a new version of a rule book, and a club's own rule book. The rules are in
rulebooks.services."""

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms
from django.utils import timezone

from clubsite.kit.ui import ServiceFormMixin, date_input

from .models import BOOK_TEXT, RuleBook
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


class ClubBookForm(ServiceFormMixin, forms.Form):
    title = forms.CharField(max_length=RuleBook._meta.get_field("title").max_length, label="Title")
    based_on = forms.ModelChoiceField(
        queryset=RuleBook.objects.none(),
        required=False,
        label="Amends",
        empty_label="None: the club's own rules, whole",
        help_text="The association's rule book whose club-play relaxations these are, if any.",
    )
    effective_on = forms.DateField(label="Applies from", widget=date_input())
    text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 14}),
        max_length=BOOK_TEXT,
        label="The rule book's text",
        help_text="Markdown: # headings, numbered lists, **bold**, links. What club play relaxes or adds.",
    )

    def __init__(self, *args, club, **kwargs):
        kwargs.setdefault("initial", {}).update(
            {"title": f"{club.name} club-play rules"[:200], "effective_on": timezone.localdate()}
        )
        super().__init__(*args, **kwargs)
        self.fields["based_on"].queryset = RuleBook.objects.filter(
            association_id=club.association_id, club__isnull=True
        ).order_by("position", "title")
        self.helper = FormHelper()
        self.helper.add_input(Submit("submit", "Publish the club's rule book"))
