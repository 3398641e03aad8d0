from django import forms
from django.utils import timezone

from clubsite.kit.ui import QuickSelect, ServiceFormMixin, date_input
from events.play.forms import TshUploadForm
from players.models import Club

from .models import MatchKind


class RatingFilterForm(forms.Form):
    q = forms.CharField(label="Name", required=False, max_length=100)
    club = forms.ModelChoiceField(
        queryset=Club.objects.order_by("name"),
        required=False,
        to_field_name="slug",
        empty_label="All clubs",
        widget=QuickSelect,
    )
    country = forms.CharField(
        label="Country", required=False, max_length=2, widget=forms.TextInput(attrs={"placeholder": "e.g. SG"})
    )
    all = forms.BooleanField(label="Include inactive players", required=False)


class RerateForm(ServiceFormMixin, forms.Form):
    from_date = forms.DateField(
        label="Re-rate events that began on or after",
        widget=date_input(),
    )


class RatingImportForm(ServiceFormMixin, forms.Form):
    file = forms.FileField(label="Ratings file", help_text="Plain text, tab- or space-separated (see below)")
    as_of = forms.DateField(
        label="Ratings valid from",
        initial=timezone.localdate,
        widget=date_input(),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 5 * 1024 * 1024:
            raise forms.ValidationError("That file is larger than 5 MB.")
        data = upload.read()
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return data.decode("iso-8859-1")


class ImportReviewForm(ServiceFormMixin, forms.Form):
    """One choice per doubtful line: one of its close matches, or a new player."""

    def __init__(self, lines, players_by_id, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from .services import NEW_PLAYER

        self.review_lines = [line for line in lines if line.match == MatchKind.REVIEW]
        for line in self.review_lines:
            choices = [("", "— choose —")]
            for pid in line.candidates:
                player = players_by_id.get(pid)
                if player is not None:
                    club = f", {player.club.name}" if player.club_id else ""
                    choices.append((str(pid), f"{player.full_name} (no. {player.member_number}{club})"))
            choices.append((NEW_PLAYER, "New player"))
            self.fields[f"line_{line.pk}"] = forms.ChoiceField(
                label=f"Line {line.line_number}: {line.name} ({line.rating})",
                choices=choices,
                required=False,
                widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
            )

    def field_for(self, line):
        name = f"line_{line.pk}"
        return self[name] if name in self.fields else None

    def decisions(self) -> dict:
        return {line.pk: self.cleaned_data.get(f"line_{line.pk}") for line in self.review_lines}


class PastEventForm(TshUploadForm):
    """A past event's tsh files, with the name and date it is rated under."""

    title = forms.CharField(
        max_length=200, required=False, help_text="Empty: the event_name of config.tsh, else 'Imported event'"
    )
    starts_on = forms.DateField(
        label="Began on", required=False, widget=date_input(), help_text="Empty: the event_date of config.tsh"
    )

    field_order = ["title", "starts_on", "t_file", "config_file", "archive_file", "division_name"]
