"""Wins and records are written one way (clubsite.kit.wins) on every page, printout and note."""

from django.template import Context, Template
from django.template.defaultfilters import floatformat

from clubsite.kit.wins import format_record, format_wins
from events.play.services.history import Summary
from events.play.services.printing import Record


def test_whole_wins_show_as_whole_numbers_and_a_half_with_its_decimal():
    assert [format_wins(w) for w in (0, 7, 7.0, 0.5, 7.5, 12.5)] == ["0", "7", "7", "0.5", "7.5", "12.5"]


def test_every_whole_and_half_win_shows_as_the_templates_showed_it():
    halves = [n / 2 for n in range(0, 61)]
    assert [format_wins(w) for w in halves] == [floatformat(w, "-1") for w in halves]
    rendered = Template("{% load results_tags %}{{ w|wins }}|{{ none|wins }}").render(Context({"w": 3.5}))
    assert rendered == "3.5|"


def test_a_record_is_wins_then_losses_then_ties_when_counted_apart():
    assert format_record(7, 2) == "7–2"
    assert format_record(7.5, 1.5) == "7.5–1.5"
    assert format_record(7, 2, 1) == "7–2–1"
    assert str(Record(2.5, 0.5, 130)) == "2.5–0.5, +130"
    assert Summary(wins=3, losses=1, ties=1).record == "3–1–1"
