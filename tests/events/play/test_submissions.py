"""Submitting a result (issue 37): 0–0 is asked about before it is taken, at every door; a player corrects their
own submission until it is confirmed, and is told when a second submission replaces theirs or is refused."""

import pytest
from rest_framework.test import APIClient

from events.play import services as play
from events.play.models import GameKind, GameStatus
from tests.events.play.test_views_play import PHONE, page, url

pytestmark = pytest.mark.django_db


def published_game(director, make_division):
    division = make_division(4, users=True)
    rnd = play.pair_round(director, division, "koth", seed=1)
    play.publish_round(director, rnd)
    return division, rnd.games.filter(kind=GameKind.NORMAL).select_related("player_a", "player_b").first()


def mine(prefix, my_score, opponent_score, **more):
    return {f"{prefix}-my_score": my_score, f"{prefix}-opponent_score": opponent_score, **more}


def test_a_player_is_asked_about_0_0_before_it_is_taken(client, director, make_division):
    division, game = published_game(director, make_division)
    client.force_login(game.player_a.user)
    prefix = f"g{game.pk}"

    html = page(client.post(url("play_submit", division.event, game.pk), mine(prefix, 0, 0), **PHONE))

    assert "Both scores are 0" in html and "Yes, these scores are right" in html
    game.refresh_from_db()
    assert game.status == GameStatus.PAIRED
    sure = mine(prefix, 0, 0, **{f"{prefix}-confirm_unusual": "on"})
    assert client.post(url("play_submit", division.event, game.pk), sure).status_code == 302
    game.refresh_from_db()
    assert (game.status, game.score_a, game.score_b) == (GameStatus.SUBMITTED, 0, 0)


def test_the_api_and_the_director_s_form_ask_too(client, director, make_division):
    division, game = published_game(director, make_division)
    api = APIClient()
    api.force_authenticate(game.player_a.user)
    refused = api.post(f"/api/play/games/{game.pk}/submit/", {"score_a": 0, "score_b": 0}, format="json")
    assert refused.status_code == 400 and "confirm_unusual" in refused.json()
    taken = api.post(
        f"/api/play/games/{game.pk}/submit/", {"score_a": 0, "score_b": 0, "confirm_unusual": True}, format="json"
    )
    assert taken.status_code == 200 and taken.json()["status"] == "submitted"

    client.force_login(director)
    posted = {"outcome": "normal", "score_a": 0, "score_b": 0, "first": "a"}
    html = page(client.post(url("play_game_result", division.event, game.pk), posted))
    assert "Both scores are 0" in html
    game.refresh_from_db()
    assert game.status == GameStatus.SUBMITTED
    response = client.post(url("play_game_result", division.event, game.pk), {**posted, "confirm_unusual": "on"})
    assert response.status_code == 302


def test_fast_entry_names_a_0_0_line(director, make_division):
    division, game = published_game(director, make_division)
    numbers = dict(division.seats.values_list("player_id", "number"))
    line = f"{numbers[game.player_a_id]} 0 {numbers[game.player_b_id]} 0"
    with pytest.raises(play.PlayError, match="Line 1: the game of .*Both scores are 0"):
        play.enter_round_results(director, game.round, line)


def test_the_submitter_corrects_their_own_submission_until_it_is_confirmed(client, director, make_division):
    division, game = published_game(director, make_division)
    client.force_login(game.player_a.user)
    prefix = f"g{game.pk}"
    client.post(url("play_submit", division.event, game.pk), mine(prefix, 400, 300))

    html = page(client.get(url("play_my_game", division.event)))
    assert "Correct my submission" in html and 'value="400"' in html
    response = client.post(url("play_submit", division.event, game.pk), mine(prefix, 410, 300), follow=True)
    assert "Your earlier submission is replaced" in page(response)
    game.refresh_from_db()
    assert (game.status, game.score_a, game.score_b) == (GameStatus.SUBMITTED, 410, 300)
    assert game.changes.filter(action="resubmitted").exists()

    play.confirm_result(game.player_b.user, game)
    html = page(client.get(url("play_my_game", division.event)))
    assert "Correct my submission" not in html


def test_a_second_submission_by_the_opponent_is_refused_and_says_so(client, director, make_division):
    division, game = published_game(director, make_division)
    play.submit_result(game.player_a.user, game, 400, 300)
    client.force_login(game.player_b.user)
    prefix = f"g{game.pk}"
    # B had the form open before A submitted, and sends it now.
    html = page(client.post(url("play_submit", division.event, game.pk), mine(prefix, 350, 400)))
    assert "Your opponent has already submitted a result for this game" in html and "Yours was not saved" in html
    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.submitted_by_id) == (400, 300, game.player_a.user_id)
