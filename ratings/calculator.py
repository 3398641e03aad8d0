"""The public rating calculator page: a form in, the engine's answer out (ratings.services.calculator)."""

from django import forms
from django.shortcuts import render

from clubsite.kit.ui import ServiceFormMixin, run_service

from .models import RatingList, RatingSystem
from .services import calculator


class CalculatorForm(ServiceFormMixin, forms.Form):
    rating_list = forms.ModelChoiceField(
        queryset=RatingList.objects.all(),
        required=False,
        empty_label="None: NASPA rules",
        help_text="The list's rating system is used; without a list, NASPA's.",
    )
    rating = forms.IntegerField(
        label="My rating",
        required=False,
        min_value=calculator.LOWEST_RATING,
        max_value=calculator.HIGHEST_RATING,
        help_text="Leave empty if you are unrated.",
    )
    career_games = forms.IntegerField(
        label="My rated games before this event",
        required=False,
        min_value=0,
        help_text=f"Sets the multiplier (fewer than 50 is higher). Empty: {calculator.DEFAULT_CAREER_GAMES} assumed.",
    )
    games = forms.CharField(
        label="My opponents and results",
        max_length=3000,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "placeholder": "1650 W\n1720 L\n1580 T"}),
        help_text="One game a line, in the order played: the opponent's rating, then W, L or T. "
        "Or only the ratings, and your total of wins below.",
    )
    wins = forms.DecimalField(
        label="My wins (if not given per game)",
        required=False,
        min_value=0,
        max_digits=4,
        decimal_places=1,
        help_text="A tie counts ½ (0.5).",
    )
    third_rated = forms.BooleanField(
        label="1/3-rated event", required=False, help_text="The change is divided by 3, no bonus, at most ±50."
    )


def _calculate(data):
    rating_list = data["rating_list"]
    return calculator.calculate(
        data["rating"],
        calculator.parse_opponents(data["games"]),
        wins=float(data["wins"]) if data["wins"] is not None else None,
        career_games=data["career_games"],
        system=rating_list.system if rating_list else RatingSystem.NASPA,
        settings=rating_list.settings if rating_list else None,
        third_rated=data["third_rated"],
    )


def rating_calculator(request):
    """Public: what my rating would be after these games."""
    chosen = request.GET.get("rating_list", "")
    initial = {"rating_list": int(chosen)} if chosen.isdigit() else {}
    form = CalculatorForm(request.GET if "games" in request.GET else None, initial=initial)
    result = None
    if form.is_bound and form.is_valid():
        result = run_service(request, lambda: _calculate(form.cleaned_data), form=form) or None
    rating_list = form.cleaned_data.get("rating_list") if form.is_bound and hasattr(form, "cleaned_data") else None
    context = {
        "form": form,
        "result": result,
        "system_name": rating_list.get_system_display() if rating_list else RatingSystem.NASPA.label,
        "elo": result is not None and result.system in calculator.EXPECTATION,
    }
    return render(request, "ratings/calculator.html", context)
