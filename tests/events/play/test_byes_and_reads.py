"""A bye cannot be forfeited or marked late (issue 28 F3), and every read of a division survives whatever is
stored: the standings (page and API), cross-table, scorecards, the wall and pairing the next round."""

import re

import pytest
from rest_framework.test import APIClient

from events.play import services as play
from events.play.models import Game, GameKind, GameStatus
from tests.events.play.test_views_play import page, play_round, url

pytestmark = pytest.mark.django_db


def division_with_a_bye(director, make_division):
    division = make_division(5)
    rnd = play.pair_round(director, division, "koth", seed=1)
    play.publish_round(director, rnd)
    play_round(director, rnd)
    return division, rnd.games.get(kind=GameKind.BYE)


@pytest.mark.parametrize("kind", ["late_forfeit", "forfeit"])
def test_a_bye_cannot_be_forfeited_or_marked_late_through_the_api(director, make_division, kind):
    division, bye = division_with_a_bye(director, make_division)
    api = APIClient()
    api.force_authenticate(director)

    response = api.post(f"/api/play/games/{bye.pk}/unplayed/", {"kind": kind, "reason": "x"}, format="json")

    assert response.status_code == 400
    assert "A bye cannot be forfeited or marked late" in str(response.json())
    bye.refresh_from_db()
    assert (bye.kind, bye.spread_a) == (GameKind.BYE, 50)
    assert api.get(f"/api/play/divisions/{division.pk}/standings/").status_code == 200


def test_a_bye_may_still_be_made_void(director, make_division):
    _, bye = division_with_a_bye(director, make_division)
    api = APIClient()
    api.force_authenticate(director)
    response = api.post(f"/api/play/games/{bye.pk}/unplayed/", {"kind": "void", "reason": "missed"}, format="json")
    assert response.status_code == 200 and response.json()["kind"] == "void"


def test_the_result_page_offers_a_bye_only_void_and_refuses_a_late_forfeit(client, director, make_division):
    division, bye = division_with_a_bye(director, make_division)
    client.force_login(director)
    html = page(client.get(url("play_game_result", division.event, bye.pk)))
    outcomes = re.search(r'<select name="outcome".*?</select>', html, re.S).group(0)
    assert re.findall(r'<option value="([^"]*)"', outcomes) == ["void"]
    posted = {"outcome": "late_forfeit_a", "reason": "x"}
    html = page(client.post(url("play_game_result", division.event, bye.pk), posted))
    assert "Select a valid choice" in html
    bye.refresh_from_db()
    assert bye.kind == GameKind.BYE


def test_every_read_of_a_division_survives_a_late_forfeit_stored_on_a_bye(client, director, make_division):
    """As stored before the rule refused it (or written by hand): the late player still loses, by the spread
    stored, and every page and pairing the next round still work."""
    division, bye = division_with_a_bye(director, make_division)
    Game.objects.filter(pk=bye.pk).update(kind=GameKind.LATE_FORFEIT, spread_a=-100, status=GameStatus.CONFIRMED)
    api = APIClient()

    standings = api.get(f"/api/play/divisions/{division.pk}/standings/")
    assert standings.status_code == 200
    late = next(row for row in standings.json() if row["player"] == bye.player_a_id)
    assert (late["wins"], late["losses"], late["spread"]) == (0, 1, -100)
    for name in ("play_standings", "play_cross_table", "play_scorecards"):
        page(client.get(url(name, division)))
    page(client.get(url("play_wall", division, "standings")))
    page(client.get(url("play_wall", division, "pairings")))
    client.force_login(director)
    response = client.post(url("play_pair", division), {"system": "koth", "max_repeats": 1, "avoid_repeats": "on"})
    assert response.status_code == 302
    assert division.rounds.count() == 2
