"""Forms of the player's game pages: the game-list filters, choosing an opponent, a game record upload."""

from django import forms

from clubsite.kit.ui import ServiceFormMixin
from events.play.core import gcg

from .services.history import RESULTS, GameFilters


class GameFilterForm(forms.Form):
    """GET filters of a player's game list; choices are the years and lexicons the player has games in."""

    year = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="Year")
    lexicon = forms.ChoiceField(required=False, label="Lexicon")
    opponent = forms.CharField(required=False, max_length=100, label="Opponent's name")
    result = forms.ChoiceField(required=False, label="Result", choices=[("", "Any result"), *RESULTS.items()])

    def __init__(self, *args, years=(), lexicons=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["year"].choices = [("", "Any year"), *((y, y) for y in years)]
        self.fields["lexicon"].choices = [("", "Any lexicon"), *((x, x or "—") for x in lexicons)]

    def filters(self) -> GameFilters:
        if not self.is_valid():
            return GameFilters()
        data = self.cleaned_data
        return GameFilters(year=data["year"], lexicon=data["lexicon"], opponent=data["opponent"], result=data["result"])


class OpponentForm(forms.Form):
    """Head to head: an opponent met (a select), or part of a name."""

    opponent = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="Opponent")
    name = forms.CharField(required=False, max_length=100, label="Or find by name")

    def __init__(self, *args, opponents=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["opponent"].choices = [("", "Choose an opponent"), *((p.member_number, p.name) for p in opponents)]


class GameRecordForm(ServiceFormMixin, forms.Form):
    file = forms.FileField(label="GCG file", required=False, help_text="A .gcg file from your scoring program.")
    text = forms.CharField(
        label="Or paste the record", required=False, widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"})
    )

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload and upload.size > gcg.MAX_FILE_BYTES:
            raise forms.ValidationError(f"The file is larger than {gcg.MAX_FILE_BYTES // 1000} kB.")
        if not upload and not data.get("text", "").strip():
            raise forms.ValidationError("Choose a GCG file or paste its text.")
        return data

    def content(self) -> tuple[bytes | str, str]:
        upload = self.cleaned_data.get("file")
        if upload:
            return upload.read(), upload.name
        return self.cleaned_data["text"], ""
