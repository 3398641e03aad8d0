"""The player's result form on "my game" is drawn once a process for a blank form and given each game's prefix:
it must be exactly what drawing it for that game gives, and a form with anything in it is always drawn afresh."""

from django.template.loader import render_to_string

from events.play.forms import MyResultForm
from events.play.templatetags.results_tags import FIELDS_TEMPLATE, my_result_fields


def drawn(form) -> str:
    return render_to_string(FIELDS_TEMPLATE, {"form": form})


def test_a_blank_form_is_what_drawing_it_for_its_game_gives():
    for pk in (5, 77, 123456):
        form = MyResultForm(prefix=f"g{pk}")
        assert my_result_fields(form) == drawn(MyResultForm(prefix=f"g{pk}"))
        assert f'name="g{pk}-my_score"' in my_result_fields(form) and "987654321" not in my_result_fields(form)


def test_a_form_with_something_in_it_is_drawn_afresh():
    typed = MyResultForm({"g5-my_score": "abc", "g5-opponent_score": "", "g5-first": "me"}, prefix="g5")
    typed.is_valid()
    assert my_result_fields(typed) == drawn(typed) and "Enter a whole number" in my_result_fields(typed)
    mine = MyResultForm(prefix="g6", initial={"my_score": 412, "opponent_score": 388, "first": "me"})
    assert 'value="412"' in my_result_fields(mine)
    asked = MyResultForm(prefix="g7")
    asked.ask_tie()
    assert my_result_fields(asked) == drawn(asked) and "ahead before the end-of-game" in my_result_fields(asked)
