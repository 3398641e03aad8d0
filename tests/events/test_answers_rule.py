"""The one reading of an answer to an organiser's question (events.answers.clean_answer), whatever door it comes
through: any value in gives a stored answer within its bounds, or a refusal a person can act on, never a crash; and a
stored answer reads back as itself."""

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events import answers as rules

SIZES = rules.Spec(rules.CHOICES, "T-shirt sizes", choices=("S", "M", "L", "XL"))
ONE = rules.Spec(rules.CHOICE, "Diet", choices=("None", "Vegetarian", "Halal"))
ANY_RAW = st.one_of(
    st.none(),
    st.text(max_size=3000),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.dates(),
    st.lists(st.text(max_size=50), max_size=40),
    st.decimals(allow_nan=True, allow_infinity=True),
)
# Choices as an organiser writes them: a word or a number each, none twice (whatever the case).
CHOICE_TEXT = st.text(alphabet=st.characters(categories=["L", "N"]), min_size=1, max_size=20)
SPECS = st.builds(
    rules.Spec,
    kind=st.sampled_from(list(rules.KINDS)),
    label=st.just("Q"),
    required=st.booleans(),
    choices=st.lists(CHOICE_TEXT, min_size=2, max_size=5, unique_by=str.casefold).map(tuple),
)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # a busy machine is no failure
@given(spec=SPECS, raw=ANY_RAW)
def test_any_value_is_stored_within_bounds_or_refused_with_a_message(spec, raw):
    try:
        value = rules.clean_answer(spec, raw)
    except rules.AnswerError as refusal:
        assert str(refusal)
        return
    assert isinstance(value, str) and len(value) <= rules.MAX_LONG and "\x00" not in value
    assert value or not spec.required
    # A stored answer read again is itself: changing nothing on the answers page changes nothing.
    again = value.split("\n") if spec.kind == rules.CHOICES else value
    assert rules.clean_answer(spec, again) == value


@pytest.mark.parametrize(
    ("spec", "raw", "stored"),
    [
        (rules.Spec(rules.SHORT, "Contact"), "  Mrs  Tan\t9123 4567 ", "Mrs Tan 9123 4567"),
        (rules.Spec(rules.LONG, "Notes"), "line one\r\nline two", "line one\nline two"),
        (ONE, "vegetarian", "Vegetarian"),
        (SIZES, "xl, s", "S\nXL"),
        (SIZES, ["M", "L"], "M\nL"),
        (rules.Spec(rules.YES_NO, "Consent"), True, "yes"),
        (rules.Spec(rules.YES_NO, "Consent"), "No", "no"),
        (rules.Spec(rules.DATE, "Born"), "25/03/2014", "2014-03-25"),
        (rules.Spec(rules.DATE, "Born"), date(2014, 3, 25), "2014-03-25"),
        (rules.Spec(rules.NUMBER, "Age"), "1,200.50", "1200.5"),
        (rules.Spec(rules.NUMBER, "Age"), Decimal("-3"), "-3"),
        (rules.Spec(rules.SHORT, "Optional"), "   ", ""),
    ],
)
def test_answers_are_stored_in_one_readable_form(spec, raw, stored):
    assert rules.clean_answer(spec, raw) == stored


@pytest.mark.parametrize(
    ("spec", "raw", "says"),
    [
        (rules.Spec(rules.SHORT, "Contact", required=True), "", "needs an answer"),
        (rules.Spec(rules.SHORT, "Contact"), "x" * 201, "at most 200 characters"),
        (rules.Spec(rules.LONG, "Notes"), "x" * 2001, "at most 2,000 characters"),
        (rules.Spec(rules.SHORT, "Contact"), "a\x00b", "NUL"),
        (ONE, "Vegan", "not one of the choices"),
        (SIZES, "M, XXL", "“XXL” is not one of the choices"),
        (rules.Spec(rules.YES_NO, "Consent"), "maybe", "yes or no"),
        (rules.Spec(rules.DATE, "Born"), "31/02/2014", "is not a date"),
        (rules.Spec(rules.DATE, "Born"), "1800-01-01", "between the years 1900 and 2100"),
        (rules.Spec(rules.NUMBER, "Age"), "ten", "not a number"),
        (rules.Spec(rules.NUMBER, "Age"), "1e400", "between"),
        (rules.Spec(rules.NUMBER, "Age"), "Infinity", "not a number"),
        (rules.Spec(rules.NUMBER, "Age"), "0.000001", "decimal places"),
    ],
)
def test_bad_answers_are_refused_saying_what_to_do(spec, raw, says):
    with pytest.raises(rules.AnswerError, match=says):
        rules.clean_answer(spec, raw)


def test_a_question_is_bounded_and_choices_belong_to_questions_with_choices():
    assert rules.question_problems(rules.SHORT, "Emergency contact", "", []) == []
    fields = {f for f, _ in rules.question_problems(rules.CHOICE, "", "h" * 501, ["only one"])}
    assert fields == {"label", "help_text", "choices"}
    assert rules.question_problems(rules.SHORT, "Q", "", ["a", "b"])[0][0] == "choices"
    many = [f"c{i}" for i in range(rules.MAX_CHOICES + 1)]
    assert "at most 30 choices" in rules.question_problems(rules.CHOICES, "Q", "", many)[0][1]
    assert rules.choice_list("S\n m \n\nS\nL") == ["S", "m", "L"]
