"""Forms of play at a club night: a one-on-one game, a table from the referee's sheet, the club's play rules and a
club tournament. Each only reads what was typed; the services (clubs.services.play) judge it."""

from django import forms

from clubsite.kit.ui import ServiceFormMixin, date_input, model_bounds
from events.play.core.results import MAX_SCORE
from events.play.core.tables import MAX_DRAWS, MAX_PLAYERS, MAX_RACK_VALUE
from players.models import Player

from .models import AHEAD, SIDES, ClubPlayRules
from .services.play import RULE_FIELDS


def _people(queryset):
    field = forms.ModelChoiceField(queryset=queryset, required=False, empty_label="—")
    field.label_from_instance = lambda player: player.name
    return field


class GameForm(ServiceFormMixin, forms.Form):
    player_a = forms.ModelChoiceField(queryset=Player.objects.none(), required=False, label="Player A")
    score_a = forms.IntegerField(min_value=0, max_value=MAX_SCORE, label="Player A's score")
    player_b = forms.ModelChoiceField(queryset=Player.objects.none(), required=False, label="Player B")
    score_b = forms.IntegerField(min_value=0, max_value=MAX_SCORE, label="Player B's score")
    first = forms.ChoiceField(choices=[("", "Not recorded"), *SIDES], required=False, label="Who went first")
    ahead_before_tiles = forms.ChoiceField(
        choices=[("", "—"), *AHEAD],
        required=False,
        label="If the scores are level: who was ahead before the tile adjustment",
    )
    confirm_unusual = forms.BooleanField(required=False, widget=forms.HiddenInput, label="Yes, the scores are right")

    def __init__(self, *args, attendees=None, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("player_a", "player_b"):
            self.fields[name] = _people(attendees if attendees is not None else Player.objects.none())
            self.fields[name].label = "Player A" if name == "player_a" else "Player B"
        if self.errors.get("confirm_unusual") if self.is_bound else False:
            self.fields["confirm_unusual"].widget = forms.CheckboxInput()

    def add_service_error(self, error) -> None:
        super().add_service_error(error)
        if error.field == "confirm_unusual":
            self.fields["confirm_unusual"].widget = forms.CheckboxInput()


class TableForm(ServiceFormMixin, forms.Form):
    """Up to four lines of the referee's sheet, and who went out."""

    went_out = forms.ModelChoiceField(queryset=Player.objects.none(), required=False)

    def __init__(self, *args, attendees=None, **kwargs):
        super().__init__(*args, **kwargs)
        attendees = attendees if attendees is not None else Player.objects.none()
        for n in range(1, MAX_PLAYERS + 1):
            self.fields[f"player_{n}"] = _people(attendees)
            self.fields[f"player_{n}"].label = f"Player {n}"
            self.fields[f"drawn_{n}"] = forms.CharField(
                max_length=MAX_DRAWS,
                required=False,
                label="Tile drawn",
                help_text="A letter, ? for a blank; after a redraw both, e.g. EK",
            )
            self.fields[f"score_before_{n}"] = forms.IntegerField(
                min_value=0, max_value=MAX_SCORE, required=False, label="Score before the tiles"
            )
            self.fields[f"tiles_left_{n}"] = forms.IntegerField(
                min_value=0, max_value=MAX_RACK_VALUE, required=False, label="Tiles left (value)"
            )
        self.fields["went_out"] = _people(attendees)
        self.fields["went_out"].label = "Who went out (empty: the time ran out)"
        self.order_fields([*(f for f in self.fields if f != "went_out"), "went_out"])

    def rows(self):
        """The sheet's lines as the template lays them out: (player, drawn, score, tiles) bound fields."""
        return [
            (self[f"player_{n}"], self[f"drawn_{n}"], self[f"score_before_{n}"], self[f"tiles_left_{n}"])
            for n in range(1, MAX_PLAYERS + 1)
        ]


class PlayRulesForm(ServiceFormMixin, forms.ModelForm):
    class Meta:
        model = ClubPlayRules
        fields = list(RULE_FIELDS)  # what the service saves, named once
        widgets = {"season_starts_on": date_input()}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        model_bounds(self)


class ClubTournamentForm(ServiceFormMixin, forms.Form):
    title = forms.CharField(max_length=200)
    starts_on = forms.DateField(label="Date", widget=date_input())
    venue = forms.CharField(max_length=200, required=False)
    club_members_only = forms.BooleanField(required=False, label="Only the club's members may enter")
