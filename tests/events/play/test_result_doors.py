"""One rule for a result's scores as stored (after time penalties), whichever way the result enters; and
every page and the API draws whatever a stored result can be.

The audit case: a player submits 380 v 60 with the opponent 10:00 over. 100 off makes the opponent's
stored score -40 (a penalty is not clamped at 0): recorded, and every table still draws."""

import pytest
from django.urls import include, path, reverse
from rest_framework.routers import DefaultRouter
from rest_framework.test import APIClient

from events.play import api as api_play
from events.play import services as play
from events.play.core.results import MIN_STORED_SCORE
from events.play.models import Game, GameStatus
from events.play.services import tsh_io
from tests.factories import AssociationFactory, UserFactory

router = DefaultRouter()
api_play.register(router)
urlpatterns = [path("api/", include(router.urls)), path("", include("clubsite.urls"))]

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


def published_game(director, division):
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    return rnd.games.select_related("player_a", "player_b").get(player_b__isnull=False, board=1)


def assert_every_table_draws(client, director, division):
    client.force_login(director)
    slug = division.event.slug
    for name in ("play_standings", "play_cross_table", "play_scorecards", "play_round", "play_division"):
        args = [slug, division.pk, 1] if name == "play_round" else [slug, division.pk]
        response = client.get(reverse(f"events:{name}", args=args))
        assert response.status_code == 200, name
    api = APIClient()
    api.force_authenticate(director)
    assert api.get(f"/api/play/divisions/{division.pk}/standings/").status_code == 200
    assert api.get(f"/api/play/games/?division={division.pk}").status_code == 200
    rnd2 = play.pair_round(director, division, "koth", accept_repeats=True)  # "pair round 2"
    assert rnd2.number == 2


def test_player_submits_a_penalty_below_zero_it_is_stored_and_every_table_draws(client, director, make_division):
    division = make_division(2, users=True)
    game = published_game(director, division)
    a, b = game.player_a.user, game.player_b.user
    play.submit_result(a, game, 380, 60, overtime_b=600)
    play.confirm_result(b, game)
    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.played_b, game.status) == (380, -40, 60, GameStatus.CONFIRMED)
    standing = {row.player: row for row in play.standings(division)}
    assert standing[game.player_a_id].spread == 420
    assert_every_table_draws(client, director, division)


def test_director_entry_of_the_same_result_draws_at_once(client, director, make_division):
    division = make_division(2)
    game = published_game(director, division)
    page = reverse("events:play_game_result", args=[division.event.slug, game.pk])
    client.force_login(director)
    response = client.post(page, {"outcome": "normal", "score_a": 380, "score_b": 60, "overtime_b": "10:00"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.score_a, game.score_b) == (380, -40)
    assert_every_table_draws(client, director, division)


def test_a_stored_score_out_of_range_still_draws(client, director, make_division):
    # Whatever reached the database (an old import, a hand edit) is shown, never a 500.
    division = make_division(2)
    game = published_game(director, division)
    play.submit_result(director, game, 400, 300)
    Game.objects.filter(pk=game.pk).update(score_b=-471, score_a=2000)
    assert_every_table_draws(client, director, division)


def test_player_door_refuses_a_stored_score_below_the_range_naming_the_player(director, make_division):
    division = make_division(2, users=True)
    game = published_game(director, division)
    with pytest.raises(play.PlayError) as refused:
        play.submit_result(game.player_a.user, game, 380, 50, overtime_b=26 * 60)  # 50 - 260 = -210
    assert game.player_b.name in refused.value.message and "-210" in refused.value.message
    assert refused.value.field == "score_b"
    assert Game.objects.get(pk=game.pk).status == GameStatus.PAIRED


def test_player_page_shows_the_refusal(client, director, make_division):
    division = make_division(2, users=True)
    game = published_game(director, division)
    side = "a"
    client.force_login(game.player_a.user)
    response = client.post(
        reverse("events:play_submit", args=[division.event.slug, game.pk]),
        {f"g{game.pk}-my_score": 380, f"g{game.pk}-opponent_score": 50, f"g{game.pk}-opponent_overtime": "26:00"},
    )
    assert response.status_code == 200 and side
    assert "would be stored as -210" in response.content.decode()


def test_director_page_names_the_field(client, director, make_division):
    division = make_division(2)
    game = published_game(director, division)
    client.force_login(director)
    page = reverse("events:play_game_result", args=[division.event.slug, game.pk])
    response = client.post(page, {"outcome": "normal", "score_a": 50, "score_b": 300, "overtime_a": "30:00"})
    assert response.status_code == 200
    assert "would be stored as -250" in response.content.decode()
    assert Game.objects.get(pk=game.pk).score_a is None


def test_fast_entry_door_names_the_line(director, make_division):
    division = make_division(4)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    numbers = {s.player_id: s.number for s in division.seats.all()}
    games = list(rnd.games.order_by("board"))
    first = f"{numbers[games[0].player_a_id]} 400 {numbers[games[0].player_b_id]} 300"
    bad = f"{numbers[games[1].player_a_id]} 2000 {numbers[games[1].player_b_id]} 300"
    with pytest.raises(play.PlayError, match="Line 2: .*2000"):
        play.enter_round_results(director, rnd, f"{first}\n{bad}")
    assert not Game.objects.filter(round=rnd, status=GameStatus.CONFIRMED).exists()


def test_api_door_uses_the_same_rule(director, make_division):
    division = make_division(2)
    game = published_game(director, division)
    api = APIClient()
    api.force_authenticate(director)
    response = api.post(
        f"/api/play/games/{game.pk}/submit/", {"score_a": 40, "score_b": 300, "overtime_a": 3000}, format="json"
    )
    assert response.status_code == 400
    assert "stored as" in str(response.json())
    ok = api.post(
        f"/api/play/games/{game.pk}/submit/", {"score_a": 380, "score_b": 60, "overtime_b": 600}, format="json"
    )
    assert ok.status_code == 200 and (ok.json()["score_b"], ok.json()["played_b"]) == (-40, 60)


@pytest.mark.parametrize("bad", [-471, 2000, MIN_STORED_SCORE - 1])
def test_tsh_door_refuses_a_score_out_of_range_naming_the_line(bad):
    AssociationFactory()
    staff = UserFactory(is_staff=True, is_superuser=True)
    text = f"One, Player 1500 2; 400\nTwo, Player 1500 1; {bad}\n"
    with pytest.raises(play.PlayError, match=rf"Line 2: .*{bad}"):
        tsh_io.import_tsh(staff, text, event_slug="bad-scores")
    assert not Game.objects.exists()


def test_tsh_door_accepts_a_penalised_score_in_range():
    AssociationFactory()
    staff = UserFactory(is_staff=True, is_superuser=True)
    report = tsh_io.import_tsh(staff, "One, Player 1500 2; 380\nTwo, Player 1500 1; -40\n", event_slug="neg")
    game = Game.objects.get(division=report.division)
    assert (game.score_a, game.score_b) == (380, -40)


def test_api_correction_keeps_its_reason_and_the_tie_answer(director, make_division):
    division = make_division(2, ties_by_score_before_tiles=True)
    game = published_game(director, division)
    api = APIClient()
    api.force_authenticate(director)
    play.submit_result(director, game, 400, 350)
    level = {"score_a": 400, "score_b": 400}
    refused = api.post(f"/api/play/games/{game.pk}/submit/", level, format="json")
    assert refused.status_code == 400 and "ahead before" in str(refused.json())
    ok = api.post(
        f"/api/play/games/{game.pk}/submit/",
        {**level, "ahead_before_tiles": "b", "reason": "Scoresheet recount"},
        format="json",
    )
    assert ok.status_code == 200 and ok.json()["ahead_before_tiles"] == "b"
    changes = api.get(f"/api/play/games/{game.pk}/changes/").json()
    assert changes[0]["reason"] == "Scoresheet recount" and changes[0]["action"] == "corrected"
    assert "@" not in (changes[0]["changed_by"] or "")
