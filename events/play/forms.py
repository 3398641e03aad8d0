"""Forms for running a tournament. They only read input; every rule is in events.play.services."""

import re

from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms

from clubsite.kit.ui import ServiceFormMixin, date_input
from events.play.core.pairing import MAX_SEED, SEED_REFUSAL
from events.play.core.pairing import SYSTEMS as PAIRING_SYSTEMS
from events.play.core.pairing.tsh_commands import system_label
from events.play.core.results import MAX_SCORE
from events.play.models import GameKind, GameStatus
from events.play.services.rounds import ABSENT_CHOICES, ABSENT_REFUSE

OVERTIME = re.compile(r"^\s*(?:(\d{1,3}):)?(\d{1,2})\s*$")


def parse_overtime(value: str) -> int:
    """'1:05' -> 65 seconds; '3' -> 3 minutes; empty -> 0."""
    value = (value or "").strip()
    if not value:
        return 0
    match = OVERTIME.match(value)
    if not match:
        raise forms.ValidationError("Write overtime as minutes:seconds, for example 1:05.")
    minutes, seconds = match.groups()
    if minutes is None:
        return int(seconds) * 60
    if int(seconds) >= 60:
        raise forms.ValidationError("Seconds run from 00 to 59.")
    return int(minutes) * 60 + int(seconds)


def format_overtime(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds else ""


class OvertimeField(forms.CharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 8)
        kwargs.setdefault("help_text", "minutes:seconds over the time control")
        super().__init__(**kwargs)
        self.widget.attrs.update({"inputmode": "numeric", "placeholder": "0:00", "pattern": r"[0-9:]*"})

    def clean(self, value):
        return parse_overtime(super().clean(value))


def _helper(label: str, css: str = "btn-primary") -> FormHelper:
    helper = FormHelper()
    helper.add_input(Submit("submit", label, css_class=css))
    return helper


def score_widget():
    return forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": MAX_SCORE})


def score_field(**kwargs) -> forms.IntegerField:
    """A score as played; the full rule (after penalties too) is the service's, from the pure core."""
    messages = {
        "max_value": "A score above %(limit_value)s cannot be right: please check it.",
        "min_value": "A score as played cannot be negative (time penalties are taken off for you).",
    }
    return forms.IntegerField(
        min_value=0, max_value=MAX_SCORE, widget=score_widget(), error_messages=messages, **kwargs
    )


class TieQuestionMixin:
    """For events that break a tie by the score before the end-of-game tile adjustment: the question is
    asked (shown) only when the scores are level, or when the service says it needs the answer."""

    TIE_FIELD = "ahead_before_tiles"

    def _add_tie_field(self, ahead_choices) -> None:
        self.fields[self.TIE_FIELD] = forms.ChoiceField(
            label="Who was ahead before the end-of-game tile adjustment?",
            choices=[("", "—"), *ahead_choices],
            required=False,
            widget=forms.HiddenInput,
            help_text="The scores are level: the event gives the game to whoever led before the tiles were counted.",
        )

    def ask_tie(self) -> None:
        field = self.fields[self.TIE_FIELD]
        field.widget = forms.RadioSelect(choices=[c for c in field.choices if c[0]])
        self.tie_asked = True

    def add_service_error(self, error):
        if error.field == self.TIE_FIELD:
            self.ask_tie()
        super().add_service_error(error)


class PairRoundForm(ServiceFormMixin, forms.Form):
    # Each system with the tsh command that pairs the same way, and each option with tsh's name for it: directors
    # moving between tsh and the site read "koth 1 3" as one setting.
    system = forms.ChoiceField(choices=[(key, system_label(key)) for key in PAIRING_SYSTEMS])
    based_on_round = forms.IntegerField(
        required=False,
        min_value=0,
        help_text="Pair from the standings after this round (tsh's based-on round, SR; empty: the last one)",
    )
    avoid_repeats = forms.BooleanField(required=False, initial=True)
    max_repeats = forms.IntegerField(
        min_value=0,
        initial=0,
        help_text="How often two players may already have met (tsh's repeats: koth 1 allows one repeat)",
    )
    seed = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        help_text="Random seed (empty: drawn and recorded)",
        error_messages={"max_value": SEED_REFUSAL, "min_value": SEED_REFUSAL},
    )
    gibson = forms.BooleanField(
        label="Gibsonize",
        required=False,
        help_text="Pair a leader who can no longer be caught with a player out of the prizes (tsh's config gibson)",
    )
    initial_snaked = forms.BooleanField(
        label="Initial Fontes groups snaked through the rating bands",
        required=False,
        help_text="Initial Fontes groups: random (tsh's default) or snaked (tsh's initial_snaked). "
        "Pair every round of the block the same way.",
    )
    not_checked_in = forms.ChoiceField(
        label="Players who have not checked in",
        choices=list(ABSENT_CHOICES.items()),
        initial=ABSENT_REFUSE,
        required=False,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, absent=(), **kwargs):
        """`absent`: the players (seat labels) who have not checked in, once the event uses check-in; the
        choice of what to do with them is asked only then."""
        super().__init__(*args, **kwargs)
        if absent:
            self.fields["not_checked_in"].help_text = "Not checked in: " + ", ".join(absent)
        else:
            del self.fields["not_checked_in"]
        self.helper = _helper("Pair the round")

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        return {
            "based_on_round": data["based_on_round"],
            "avoid_repeats": data["avoid_repeats"],
            "max_repeats": data["max_repeats"] or 0,
            "seed": data["seed"],
            "gibson": data["gibson"],
            "initial_snaked": data["initial_snaked"],
            "not_checked_in": data.get("not_checked_in") or ABSENT_REFUSE,
        }


class SwapForm(ServiceFormMixin, forms.Form):
    player_x = forms.TypedChoiceField(label="Swap", coerce=int)
    player_y = forms.TypedChoiceField(label="with", coerce=int)

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player_x"].choices = self.fields["player_y"].choices = list(players)
        self.helper = _helper("Swap", "btn-outline-primary")


class ResultForm(TieQuestionMixin, ServiceFormMixin, forms.Form):
    """A director's entry or correction of one game, its players in the round table's order: whoever goes
    first (as recorded) first, and named, not "player A"."""

    OUTCOMES = [
        ("normal", "Played"),
        ("forfeit_a", "Player A forfeits"),
        ("forfeit_b", "Player B forfeits"),
        ("late_forfeit_a", "Player A arrived late (forfeit)"),
        ("late_forfeit_b", "Player B arrived late (forfeit)"),
        (GameKind.VOID.value, "Void"),
    ]
    outcome = forms.ChoiceField(choices=OUTCOMES, initial="normal")
    score_a = score_field(required=False)
    score_b = score_field(required=False)
    overtime_a = OvertimeField()
    overtime_b = OvertimeField()
    first = forms.ChoiceField(choices=[("", "Not recorded"), ("a", "Player A"), ("b", "Player B")], required=False)
    confirm_unusual = forms.BooleanField(label="Yes, these scores are right", required=False, widget=forms.HiddenInput)
    reason = forms.CharField(required=False, max_length=200, help_text="Kept in the audit trail")

    def __init__(self, *args, game=None, **kwargs):
        super().__init__(*args, **kwargs)
        a_name = game.player_a.name if game is not None else "Player A"
        b_name = game.player_b.name if game is not None and game.player_b else "Player B"
        self._add_tie_field([("a", a_name), ("b", b_name), ("level", "Level then too")])
        if game is not None and game.ahead_before_tiles:
            self.ask_tie()
        if game is not None:
            # The round table lists whoever goes first first: so does the form.
            sides = ("b", "a") if game.first == "b" and game.player_b else ("a", "b")
            names = {"a": a_name, "b": game.player_b.name if game.player_b else "—"}
            for side in sides:
                self.fields[f"score_{side}"].label = f"Score of {names[side]}"
                self.fields[f"overtime_{side}"].label = f"Overtime of {names[side]}"
            self.fields["first"].label = "Who went first"
            self.fields["first"].choices = [("", "Not recorded"), *((side, names[side]) for side in sides)]
            # What the game may become (the result rule's, events.play.core.results.check_unplayed): a game
            # without an opponent is not played, and a bye has nobody to forfeit to.
            outcomes = []
            if game.player_b:
                outcomes.append(("normal", "Played"))
                outcomes += [(f"forfeit_{side}", f"{names[side]} forfeits") for side in sides]
                outcomes += [(f"late_forfeit_{side}", f"{names[side]} arrived late (forfeit)") for side in sides]
            elif game.kind != GameKind.BYE:
                outcomes.append(("forfeit_a", f"{a_name} forfeits"))
            outcomes.append((GameKind.VOID.value, "Void"))
            self.fields["outcome"].choices = outcomes
            first, second = sides
            self.order_fields(
                ["outcome", f"score_{first}", f"score_{second}", f"overtime_{first}", f"overtime_{second}", "first"]
            )
            if game.status == GameStatus.CONFIRMED:
                self.fields["reason"].label = "Reason for the change"
                self.fields["reason"].help_text = "Needed to change a confirmed result; kept in the audit trail"
        self.helper = _helper("Save result")

    def ask_unusual(self) -> None:
        """The scores are unusual (0–0): ask the director to say they are right."""
        self.fields["confirm_unusual"].widget = forms.CheckboxInput()

    def add_service_error(self, error):
        if error.field == "confirm_unusual":
            self.ask_unusual()
        super().add_service_error(error)

    def clean(self):
        data = super().clean()
        if data.get("outcome") == "normal":
            for name in ("score_a", "score_b"):
                if data.get(name) is None and name not in self.errors:
                    self.add_error(name, "Enter both scores.")
        return data


class FastEntryForm(ServiceFormMixin, forms.Form):
    text = forms.CharField(
        label="Results",
        widget=forms.Textarea(attrs={"rows": 8, "class": "font-monospace", "spellcheck": "false"}),
        help_text="One game a line: player-number score player-number score, for example 3 412 8 377",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = _helper("Enter these results")


class MyResultForm(TieQuestionMixin, ServiceFormMixin, forms.Form):
    """A player's report of their own game, from their own side."""

    my_score = score_field(label="My score")
    opponent_score = score_field(label="Opponent's score")
    my_overtime = OvertimeField(label="My overtime")
    opponent_overtime = OvertimeField(label="Opponent's overtime")
    first = forms.ChoiceField(
        label="Who went first?",
        choices=[("", "Not sure"), ("me", "I did"), ("opponent", "My opponent")],
        required=False,
        widget=forms.RadioSelect,
    )

    confirm_unusual = forms.BooleanField(label="Yes, these scores are right", required=False, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._add_tie_field([("me", "I was"), ("opponent", "My opponent was"), ("level", "Level then too")])
        self.helper = _helper("Submit result", "btn-success btn-lg w-100")

    def for_side(self, side: str) -> dict:
        """The service's arguments (scores as A and B) for a player on `side`."""
        d = self.cleaned_data
        mine, theirs = ("a", "b") if side == "a" else ("b", "a")
        first = {"me": mine, "opponent": theirs}.get(d.get("first") or "", "")
        ahead = {"me": mine, "opponent": theirs, "level": "level"}.get(d.get(self.TIE_FIELD) or "")
        return {
            "ahead_before_tiles": ahead,
            f"score_{mine}": d["my_score"],
            f"score_{theirs}": d["opponent_score"],
            f"overtime_{mine}": d["my_overtime"],
            f"overtime_{theirs}": d["opponent_overtime"],
            "first": first,
            "confirm_unusual": bool(d.get("confirm_unusual")),
        }

    def add_service_error(self, error):
        # The service names A/B fields; a player sees "my" and "opponent's".
        if error.field == "confirm_unusual":
            self.fields["confirm_unusual"].widget = forms.CheckboxInput()
            self.add_error("confirm_unusual", error.message)
        elif error.field == self.TIE_FIELD:
            self.ask_tie()
            self.add_error(self.TIE_FIELD, error.message)
        else:
            self.add_error(None, error.message)


class DisputeForm(forms.Form):
    reason = forms.CharField(required=False, max_length=200, label="What is wrong?")


class AssignForm(ServiceFormMixin, forms.Form):
    MODES = [
        ("bands", "By each division's rating band"),
        ("split", "Split into K divisions in all, by rating within each category (at least one each)"),
    ]
    mode = forms.ChoiceField(choices=MODES, widget=forms.RadioSelect, initial="bands")
    split_into = forms.IntegerField(label="K", required=False, min_value=1, max_value=26)
    as_of = forms.DateField(
        label="Ratings as of",
        required=False,
        widget=date_input(),
        help_text="The rating list snapshot date (empty: the day registration closes)",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = _helper("Assign divisions")

    def clean(self):
        data = super().clean()
        if data.get("mode") == "split" and not data.get("split_into"):
            self.add_error("split_into", "Say how many divisions.")
        return data


class PlaceForm(ServiceFormMixin, forms.Form):
    entry = forms.TypedChoiceField(label="Entrant", coerce=int)
    division = forms.TypedChoiceField(coerce=int)
    reason = forms.CharField(max_length=200)

    def __init__(self, *args, entries=(), divisions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = [(e.pk, e.player.full_name) for e in entries]
        self.fields["division"].choices = [(d.pk, d.name) for d in divisions]
        self.helper = _helper("Place by hand", "btn-outline-primary")


class LateEntrantForm(ServiceFormMixin, forms.Form):
    entry = forms.TypedChoiceField(label="Entrant", coerce=int)
    rating = forms.IntegerField(
        min_value=0,
        max_value=3000,
        required=False,
        help_text="Empty: their rating on the event's list; 0 for unrated",
    )

    def __init__(self, *args, entries=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = [(e.pk, e.player.full_name) for e in entries]


class DivisionBandForm(ServiceFormMixin, forms.Form):
    name = forms.CharField(max_length=50)
    rating_min = forms.IntegerField(required=False, min_value=0)
    rating_max = forms.IntegerField(required=False, min_value=0)
    takes_unrated = forms.BooleanField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = _helper("Save division", "btn-outline-primary")


class TshUploadForm(ServiceFormMixin, forms.Form):
    """A director's tsh files to import into a new division of their event."""

    t_file = forms.FileField(label="The division's .t file", required=False)
    config_file = forms.FileField(
        label="config.tsh (optional)",
        required=False,
        help_text="Its spread caps, withdrawals' scoring and autopair lines come with the division",
    )
    archive_file = forms.FileField(
        label="Or a tsh archive",
        required=False,
        help_text="tsh's archive of an event (its config and every division's .t file): name the division below",
    )
    division_name = forms.CharField(
        label="Division", max_length=50, required=False, help_text="Empty: as config.tsh names it, else A"
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = _helper("Read the file")
        self.helper.form_tag = False

    def clean(self):
        data = super().clean()
        if bool(data.get("t_file")) == bool(data.get("archive_file")):
            raise forms.ValidationError("Choose a .t file (with its config.tsh if you have it), or a tsh archive.")
        return data
