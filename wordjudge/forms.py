from django import forms

from clubsite.kit.ui import ServiceFormMixin


class LexiconUploadForm(ServiceFormMixin, forms.Form):
    name = forms.CharField(max_length=40, help_text="As events name their lexicon, e.g. CSW or NWL.")
    file = forms.FileField(help_text="Plain text, one word a line. Uploading again replaces the list.")


class ChallengeForm(ServiceFormMixin, forms.Form):
    words = forms.CharField(
        label="Words formed by the play",
        max_length=300,
        help_text="Type every word the play formed, with spaces or commas between them.",
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "autocorrect": "off",
                "spellcheck": "false",
                "autofocus": True,
            }
        ),
    )
    board = forms.IntegerField(
        label="Board (optional)", required=False, widget=forms.NumberInput(attrs={"inputmode": "numeric"})
    )
