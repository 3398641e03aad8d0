"""The demo: players' pages show their games and a head to head; a few games show their moves."""

import io

import pytest
from django.apps import apps
from django.urls import reverse

from events.play.models import GcgRecord
from events.play.services import history
from players import demo
from players.visibility import visible_players

pytestmark = pytest.mark.django_db


def test_demo_players_have_games_head_to_heads_and_game_records(client):
    out = io.StringIO()
    demo.load(out)
    apps.get_app_config("ratings").load_demo(out)
    assert "Attached 3 demo game records." in out.getvalue()

    record = GcgRecord.objects.select_related("game__division__event", "game__player_a").first()
    game = record.game
    page = client.get(reverse("events:play_game", args=[game.division.event.slug, game.pk])).content.decode()
    assert "8D WAFTED" in page and "Final board" in page and "which is not the result" not in page

    listed = visible_players(None)
    player = next(p for p in listed if history.player_games(p).count() >= 10)
    assert client.get(reverse("history:games", args=[player.member_number])).status_code == 200
    opponent = history.opponents(player, None).first()
    page = client.get(reverse("history:versus", args=[player.member_number, opponent.member_number]))
    assert page.status_code == 200 and page.context["summary"].games >= 1
