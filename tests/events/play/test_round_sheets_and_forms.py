"""What directors print and fill in: printed pairings leave out players who withdrew (issue 42); the correction
form lists the players as the round table does and knows who went first (issue 14); per-round spread caps stop
where the single cap stops (issue 36)."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from events.models import Event
from events.models.event_parts import validate_round_spread_caps
from events.play import services as play
from events.play.core import standings, tsh
from events.play.models import DivisionPlayer, Game, GameKind
from events.play.services import tsh_io
from tests.events.factories import make_organiser
from tests.events.play.test_views_play import page, play_round, url
from tests.events.test_organiser_input import FORM
from tests.factories import AssociationFactory

pytestmark = pytest.mark.django_db


def test_printed_pairings_and_the_wall_say_a_withdrawn_players_round_as_the_round_page(client, director, make_division):
    """Not left out, which read as if they had no result that round: listed without a board, with what the
    round counts for, in the round page's words (issue 23, defect N4)."""
    division = make_division(5)
    rnd = play.pair_round(director, division, "koth", seed=1)
    play.publish_round(director, rnd)
    play_round(director, rnd)
    gone = DivisionPlayer.objects.select_related("player").get(division=division, number=2)
    play.withdraw_player(director, gone)
    for _ in range(2):
        later = play.pair_round(director, division, "koth", seed=1, accept_repeats=True)
        play.publish_round(director, later)
        play_round(director, later)
    assert later.games.filter(player_a=gone.player, kind=GameKind.FORFEIT).exists()  # scored as a missed round
    client.force_login(director)

    printed = page(client.get(url("play_print", division, later.number, "pairings")))
    wall = page(client.get(url("play_wall", division, "find")))
    pairings = page(client.get(url("play_wall", division, "pairings")))

    said = "Withdrawn after round 1: forfeit loss (-50)"
    assert f"{gone.number}. {gone.player.name}: {said}" in page(client.get(url("play_round", division, later.number)))
    for html in (printed, wall, pairings):
        assert gone.player.name in html and said in html
        assert html.count(said) == 1
    assert "Player 01" in printed and "Player 01" in wall
    # Round 1, which they played, still lists them.
    assert gone.player.name in page(client.get(url("play_print", division, 1, "pairings")))


def imported_game_whose_first_is_on_the_second_line(director):
    """A .t file whose p12 says who went first only on player 2's line (real files do this)."""
    AssociationFactory()
    text = "Alpha, Ann 1500 2; 400\nBeta, Ben 1400 1; 350; p12 1\n"
    report = tsh_io.import_tsh(director, text, event_slug="imported")
    report.event.directors.add(director)
    return report.division, Game.objects.select_related("player_a", "player_b").get(division=report.division)


def test_the_correction_form_lists_the_players_as_the_round_table_and_says_who_went_first(client, director):
    division, game = imported_game_whose_first_is_on_the_second_line(director)
    assert game.first == "b"  # Ben, on line 2, went first
    client.force_login(director)

    table = page(client.get(url("play_round", division, 1)))
    form = page(client.get(url("play_game_result", division.event, game.pk)))

    row = re.search(r'<tr id="game-\d+">(.*?)</tr>', table, re.S).group(1)
    assert row.index("Beta") < row.index("Alpha")  # the one who went first, first
    assert form.index("Score of Ben Beta") < form.index("Score of Ann Alpha")
    first = re.search(r'<select name="first".*?</select>', form, re.S).group(0)
    assert re.search(r'<option value="b" selected>Ben Beta</option>', first)
    assert first.index("Ben Beta") < first.index("Ann Alpha")
    exported = tsh.parse_t(tsh_io.export_tsh(division))
    assert (exported.players[0].p12, exported.players[1].p12) == ([2], [1])


def test_per_round_spread_caps_stop_where_the_single_cap_stops(client):
    with pytest.raises(ValidationError, match="round 2: a cap of 99999999999999999999999 is not between 1 and 1000"):
        validate_round_spread_caps("200,99999999999999999999999")
    validate_round_spread_caps(f"200,{standings.MAX_SPREAD_CAP}")
    config = tsh.parse_config("config spread_cap = 5000\n")
    with pytest.raises(ValueError, match="spread_cap: a cap of 5000"):
        assert config.spread_cap

    AssociationFactory()
    client.force_login(make_organiser())
    form = {**FORM, "round_spread_caps": "200,99999999999999999999999"}
    html = client.post(reverse("events:create"), form).content.decode()
    assert "is not between 1 and 1000" in html
    assert not Event.objects.exists()
