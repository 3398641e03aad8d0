"""The public rules section lists each rule the organiser chose, in plain words, and only when it is set."""

from decimal import Decimal

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from events.models import EventKind, PrizeTies
from events.models.event import spread_caps_rule
from tests.events.factories import EventFactory
from tests.events.test_event_form import form
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

BYE = "A bye counts as a win by 50 points of spread."
FORFEIT = "A forfeited game counts as a loss by 50 points of spread (a win by as much for the opponent)."
TIES_STAND = "Players level on wins and spread share their place: ties are not broken."
SPLIT = "Players tied for a place share the prize money of the places their tie covers equally"
ONE_PRIZE = "A player wins at most one prize."
BEFORE_TILES = "A tied game is won by the player who was ahead before the end-of-game tile adjustment."
OVERRUN = "Overrunning the time by 15 minutes forfeits the game"


def rules_html(event) -> str:
    return render_to_string("events/_rules.html", {"event": event})


def test_the_default_rules():
    html = rules_html(EventFactory())
    assert "Tournament rules" in html
    for text in (BYE, FORFEIT, TIES_STAND, SPLIT, ONE_PRIZE):
        assert text in html
    for text in ("A game counts for at most", BEFORE_TILES, OVERRUN, "prize fund"):
        assert text not in html


def test_every_rule_an_organiser_sets():
    event = EventFactory(
        number_of_games=5,
        spread_cap=300,
        round_spread_caps="200,100",
        bye_spread=75,
        forfeit_spread=100,
        late_forfeit_spread=50,
        ties_by_score_before_tiles=True,
        overrun_forfeit=True,
        prize_ties=PrizeTies.DIRECTOR,
        prize_fund=Decimal(1000),
        prize_fund_by_fees=True,
    )
    rules = event.rule_settings()
    assert rules == [
        "A game counts for at most this much spread: 200 in round 1, 100 in round 2, 300 in rounds 3–5.",
        "A bye counts as a win by 75 points of spread.",
        "A forfeited game counts as a loss by 100 points of spread (a win by as much for the opponent).",
        "A player too late for a game forfeits it by 50 points of spread "
        "(a win by as much for the opponent who was on time).",
        TIES_STAND,
        BEFORE_TILES,
        "Overrunning the time by 15 minutes forfeits the game, by the margin at that point "
        "(after time penalties) or 150 points, whichever is greater.",
        "The director decides how players tied for a place share the prizes their tie covers.",
        "The S$1,000.00 prize fund is divided between the divisions in proportion to the fees their players paid.",
        ONE_PRIZE,
    ]
    html = rules_html(event)
    assert "<li>A game counts for at most this much spread: 200 in round 1" in html
    assert "The S$1,000.00 prize fund is divided" in html


def test_rules_left_unset_are_not_listed():
    event = EventFactory(ties_stand=False, one_prize_per_player=False, prize_ties=PrizeTies.HIGHER)
    rules = event.rule_settings()
    assert TIES_STAND not in rules and ONE_PRIZE not in rules
    assert not any("tied for a place" in r for r in rules)  # ties are broken: no tied places to share
    assert event.prize_fund is None and not any("fund" in r for r in rules)
    higher = EventFactory(prize_ties=PrizeTies.HIGHER).rule_settings()
    assert "Players tied for a place each receive the prize of the highest place their tie covers." in higher
    switched_off = EventFactory(prize_fund=Decimal(500), prize_fund_by_fees=False).rule_settings()
    assert not any("fund" in r for r in switched_off)


def test_a_workshop_has_no_playing_rules():
    assert EventFactory(kind=EventKind.WORKSHOP).rule_settings() == []
    assert "Tournament rules" not in rules_html(EventFactory(kind=EventKind.WORKSHOP))


def test_spread_caps_in_words():
    assert spread_caps_rule(None) == ""
    assert spread_caps_rule(250) == "A game counts for at most 250 points of spread."
    assert spread_caps_rule((200, None, None, 100)) == (
        "A game counts for at most this much spread: 200 in round 1, no cap in rounds 2–3, 100 in round 4."
    )


def test_the_entry_page_shows_the_rules(client):
    event = EventFactory(overrun_forfeit=True)
    client.force_login(UserFactory())
    html = client.get(reverse("events:enter", args=[event.slug])).content.decode()
    assert "Tournament rules" in html and OVERRUN in html


def test_the_event_form_keeps_the_prize_settings():
    f = form(prize_ties="director", prize_fund="1200.50", prize_fund_by_fees="on")
    assert f.is_valid(), f.errors
    fields = f.service_fields()
    assert (fields["prize_ties"], fields["prize_fund"], fields["prize_fund_by_fees"]) == (
        "director",
        Decimal("1200.50"),
        True,
    )
    left_out = form()
    assert left_out.is_valid(), left_out.errors
    assert left_out.service_fields()["prize_ties"] == PrizeTies.SPLIT
    assert not form(prize_ties="coin").is_valid()
