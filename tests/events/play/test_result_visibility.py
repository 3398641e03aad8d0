"""One rule for who sees a result before it is confirmed (issue 28 F6): the event's directors and the game's two
players. The wall at the venue shows what anybody may see; a game's page shows neither the score nor its record
to anyone else."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from events.play import services as play
from events.play.models import GameKind, GameStatus, GcgRecord
from tests.events.play.test_views_play import page, url
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

GCG = """#player1 a Player A
#player2 b Player B
>a: AEINRST 8D NASTIER +70 70
>b: ?DEIMOU 9C dOMINE +30 30
"""


def submitted_game(director, make_division):
    division = make_division(4, users=True)
    rnd = play.pair_round(director, division, "koth", seed=1)
    play.publish_round(director, rnd)
    game = rnd.games.filter(kind=GameKind.NORMAL).select_related("player_a", "player_b").first()
    play.submit_result(game.player_a.user, game, 487, 321)
    return division, rnd, game


def test_the_wall_shows_a_submitted_score_to_nobody_until_it_is_confirmed(client, director, make_division):
    division, rnd, game = submitted_game(director, make_division)
    wall = url("play_wall", division, "pairings")

    assert "487" not in page(client.get(wall))
    client.force_login(director)  # the wall is seen by the room, whoever's screen shows it
    assert "487" not in page(client.get(wall))

    play.confirm_result(game.player_b.user, game)
    assert "487" in page(client.get(wall))


def test_a_game_page_with_a_record_shows_an_unconfirmed_result_only_to_its_players_and_directors(
    client, director, make_division
):
    division, rnd, game = submitted_game(director, make_division)
    GcgRecord.objects.create(game=game, text=GCG, filename="game.gcg")
    game_url = reverse("events:play_game", args=[division.event.slug, game.pk])

    def sees(user) -> bool:
        web = client.__class__()
        if user:
            web.force_login(user)
        html = page(web.get(game_url))
        shown = "487" in html or "NASTIER" in html
        api = APIClient()
        if user:
            api.force_authenticate(user)
        assert (api.get(f"/api/play/games/{game.pk}/").json()["score_a"] == 487) == shown  # the same rule
        return shown

    assert not sees(None)
    assert not sees(UserFactory())
    assert sees(game.player_a.user) and sees(game.player_b.user) and sees(director)
    anonymous = page(client.get(game_url))
    assert "shown once the result is confirmed" in anonymous

    play.confirm_result(game.player_b.user, game)
    game.refresh_from_db()
    assert game.status == GameStatus.CONFIRMED
    assert sees(None) and sees(UserFactory())
