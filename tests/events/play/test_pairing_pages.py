"""Pairing as the director sees it: one list of systems, refusals and Gibsonization in people's names."""

import importlib
import re

import pytest
from django.apps import apps
from django.urls import reverse

from events.forms import EventForm
from events.models import Event
from events.play import services as play
from events.play.core import pairing
from tests.events.factories import EventFactory
from tests.events.play.test_views_play import page, play_round, url

pytestmark = pytest.mark.django_db


def options(html: str, select_name: str) -> list[str]:

    select = re.search(rf'<select name="{select_name}".*?</select>', html, re.S).group(0)
    return re.findall(r'<option value="([^"]*)"', select)


def test_the_event_form_and_the_pairing_form_offer_the_same_systems(client, director, make_division):
    assert [value for value, _ in EventForm().fields["pairing_system"].choices] == list(pairing.SYSTEMS)
    division = make_division(4)
    client.force_login(director)
    assert options(page(client.get(url("play_division", division))), "system") == list(pairing.SYSTEMS)


def test_after_round_one_the_event_s_system_is_proposed(client, director, make_division):
    division = make_division(4, pairing_system="swiss")
    client.force_login(director)
    html = page(client.get(url("play_division", division)))
    assert '<option value="random" selected>' in html
    rnd = play.pair_round(director, division, "random", seed=1)
    play.publish_round(director, rnd)
    play_round(director, rnd)
    html = page(client.get(url("play_division", division)))
    assert '<option value="swiss" selected>' in html
    hub = page(client.get(reverse("events:play_hub", args=[division.event.slug])))
    assert "Swiss" in hub


def test_old_pairing_choices_move_to_systems_the_site_pairs_with():
    migration = importlib.import_module("events.migrations.0007_event_pairing_system_from_core_list")
    draw, other, koth = EventFactory(), EventFactory(), EventFactory(pairing_system="round_robin")
    Event.objects.filter(pk=draw.pk).update(pairing_system="australian_draw")
    Event.objects.filter(pk=other.pk).update(pairing_system="other")
    migration.forwards(apps, None)
    assert dict(Event.objects.filter(pk__in=[draw.pk, other.pk, koth.pk]).values_list("pk", "pairing_system")) == {
        draw.pk: "swiss",
        other.pk: "koth",
        koth.pk: "round_robin",
    }


def play_by_seat(director, rnd, big_winner_margin=300):
    """The lower seat number wins each game; seat 1 wins big."""
    seats = {s.player_id: s.number for s in rnd.division.seats.all()}
    for game in rnd.games.filter(kind="normal"):
        a, b = seats[game.player_a_id], seats[game.player_b_id]
        margin = big_winner_margin if 1 in (a, b) else 10
        score_a, score_b = (400 + margin, 400) if a < b else (400, 400 + margin)
        play.submit_result(director, game, score_a, score_b)


def pair_and_play(director, division, system, n):
    for _ in range(n):
        rnd = play.pair_round(director, division, system, seed=3)
        play.publish_round(director, rnd)
        play_by_seat(director, rnd)


def test_a_repeat_refusal_names_players_by_seat_and_name(client, director, make_division):

    division = make_division(4)
    for seat, name in zip(
        division.seats.order_by("number"), ["Chua Xavier", "Muhammad Irfan", "Tan Ah Kow", "Lim Bee"], strict=True
    ):
        seat.player.full_name = name
        seat.player.save()
    pair_and_play(director, division, "koth", 3)  # four players: every pair has met
    client.force_login(director)
    html = page(client.post(url("play_pair", division), {"system": "koth", "max_repeats": 0, "avoid_repeats": "on"}))
    refusal = html.split('id="pairing-refused"', 1)[1].split("</p>", 1)[0]
    assert "Round 4: no pairing avoids every repeat" in refusal
    assert re.search(r"#1 Chua Xavier v #\d|#\d [^;]+ v #1 Chua Xavier", refusal) and "(met once)" in refusal
    assert not re.search(r"(?<![#\w])\d+ v ", refusal)  # no bare ids


def test_the_round_page_says_who_was_gibsonized_and_why(client, director, make_division):
    division = make_division(4, games=3)
    pair_and_play(director, division, "koth", 2)
    client.force_login(director)
    response = client.post(
        url("play_pair", division),
        {"system": "koth", "max_repeats": 0, "avoid_repeats": "on", "gibson": "on"},
        follow=True,
    )
    html = page(response)
    assert "#1 Player 01 is Gibsonized: 1 win ahead of #" in html
    assert "with 1 round left and" in html and "so nobody can catch them for first place" in html
    assert "who is out of prize contention" in html
    rnd = division.rounds.get(number=3)
    assert rnd.pairing_notes.startswith("#1 Player 01 is Gibsonized")
    # Without Gibsonization nothing is noted.
    assert division.rounds.get(number=2).pairing_notes == ""


def test_a_round_robin_posts_tsh_s_schedule(client, director, make_division):
    """Issue 25: the page pairs a round robin of six from tsh's Berger table, seat against seat."""
    division = make_division(6)
    client.force_login(director)
    client.post(url("play_pair", division), {"system": "round_robin", "max_repeats": 0, "avoid_repeats": "on"})
    seats = {s.player_id: s.number for s in division.seats.all()}
    games = division.rounds.get(number=1).games.filter(kind="normal")
    assert {frozenset((seats[g.player_a_id], seats[g.player_b_id])) for g in games} == {
        frozenset({1, 6}),
        frozenset({4, 5}),
        frozenset({2, 3}),
    }


def test_king_of_the_hill_with_one_repeat_allowed_pairs_as_tsh(client, director, make_division):
    """Issue 25: within the limit, the nearest players meet again, as tsh's `koth 1` pairs them."""
    division = make_division(4)
    pair_and_play(director, division, "koth", 2)  # 1v2 3v4, then 1v3 2v4: order 1, 2, 3, 4
    client.force_login(director)
    client.post(url("play_pair", division), {"system": "koth", "max_repeats": 1, "avoid_repeats": "on"})
    seats = {s.player_id: s.number for s in division.seats.all()}
    games = division.rounds.get(number=3).games.filter(kind="normal")
    assert {frozenset((seats[g.player_a_id], seats[g.player_b_id])) for g in games} == {
        frozenset({1, 2}),
        frozenset({3, 4}),
    }
