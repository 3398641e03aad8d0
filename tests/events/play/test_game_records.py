"""A game's page and its GCG record: who may attach one, bad files refused by line, the board drawn."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events.play.models import Game, GameStatus, GcgRecord, RoundStatus
from tests.events.play.history_helpers import played_event
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

GCG = """#player1 ann Ann Tan
#player2 ben Ben Lim
>ann: AEINRST 8D NASTIER +70 70
#note Bingo to open.
>ben: ?DEIMOU 9C dOMINE +30 30
>ann: EGOPRTU F4 GROU. +16 86
>ben: ABCDEFG -ABC +0 30
"""


@pytest.fixture
def game():
    ann = PlayerFactory(full_name="Ann Tan", user=UserFactory())
    ben = PlayerFactory(full_name="Ben Lim", user=UserFactory())
    event = played_event(ann, [(ben, 86, 30)])
    return Game.objects.select_related("division__event", "player_a", "player_b").get(division__event=event)


def page_url(game):
    return reverse("events:play_game", args=[game.division.event.slug, game.pk])


def record_url(game):
    return reverse("events:play_game_record", args=[game.division.event.slug, game.pk])


def test_a_player_of_the_game_attaches_a_file_and_everyone_sees_moves_and_board(client, game):
    client.force_login(game.player_a.user)
    upload = SimpleUploadedFile("game.gcg", GCG.encode(), content_type="application/octet-stream")
    response = client.post(record_url(game), {"file": upload})
    assert response.status_code == 302
    assert GcgRecord.objects.get(game=game).filename == "game.gcg"
    client.logout()
    page = client.get(page_url(game)).content.decode()
    assert "8D NASTIER" in page and "F4 GROU(S)" in page and "Exchange ABC" in page
    assert "Bingo to open." in page
    assert '<th scope="col">O</th>' in page and '<th scope="row">15</th>' in page
    assert 'class="tile blank">D<span class="visually-hidden"> (blank)</span>' in page
    assert "Final: Ann Tan 86, Ben Lim 30" in page
    assert "Attach a game record" not in page  # not for someone signed out


def test_pasted_text_and_a_director_may_attach_and_remove(client, game):
    director = UserFactory()
    game.division.event.directors.add(director)
    client.force_login(director)
    assert client.post(record_url(game), {"text": GCG}).status_code == 302
    assert GcgRecord.objects.filter(game=game).exists()
    assert "Replace the game record" in client.get(page_url(game)).content.decode()
    assert client.post(record_url(game), {"remove": "1"}).status_code == 302
    assert not GcgRecord.objects.filter(game=game).exists()


def test_others_may_not_attach_a_record(client, game):
    stranger = UserFactory()
    PlayerFactory(user=stranger)
    client.force_login(stranger)
    assert "Attach a game record" not in client.get(page_url(game)).content.decode()
    assert client.post(record_url(game), {"text": GCG}).status_code == 403
    assert client.post(record_url(game), {"remove": "1"}).status_code == 403
    assert not GcgRecord.objects.exists()
    client.logout()
    response = client.post(record_url(game), {"text": GCG})
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_a_bad_file_is_refused_naming_the_line(client, game):
    client.force_login(game.player_b.user)
    bad = GCG.replace("+16 86", "+16 96")
    response = client.post(record_url(game), {"text": bad})
    assert response.status_code == 400
    page = response.content.decode()
    assert "line 6: the total 96 does not follow: 70 before, +16 for this move makes 86" in page
    assert not GcgRecord.objects.exists()
    response = client.post(record_url(game), {"text": ""})
    assert "Choose a GCG file or paste its text." in response.content.decode()


def test_a_record_not_ending_at_the_result_is_flagged(client, game):
    Game.objects.filter(pk=game.pk).update(score_a=400, score_b=300)
    GcgRecord.objects.create(game=game, text=GCG)
    page = client.get(page_url(game)).content.decode()
    assert "The record ends 86–30, which is not the result as played (400–300)" in page


def test_games_of_draft_rounds_are_missing_for_all_but_directors(client, game):
    game.round.status = RoundStatus.DRAFT
    game.round.save()
    Game.objects.filter(pk=game.pk).update(status=GameStatus.PAIRED)
    assert client.get(page_url(game)).status_code == 404
    client.force_login(game.player_a.user)
    assert client.post(record_url(game), {"text": GCG}).status_code == 404


def test_the_game_list_links_to_the_moves(client, game):
    GcgRecord.objects.create(game=game, text=GCG)
    page = client.get(reverse("history:games", args=[game.player_a.member_number])).content.decode()
    assert page_url(game) in page and "Moves<span" in page


def test_the_game_page_says_who_went_first(client, game):
    Game.objects.filter(pk=game.pk).update(first="b")
    page = client.get(page_url(game)).content.decode()
    assert f"{game.player_b.name} went first" in page and f"{game.player_a.name} went first" not in page
    Game.objects.filter(pk=game.pk).update(first="")
    assert "went first" not in client.get(page_url(game)).content.decode()


@pytest.mark.parametrize("door", ["file", "text"])
def test_a_file_with_a_nul_byte_is_refused_with_the_line_and_nothing_stored(client, game, door):
    """PostgreSQL cannot store a NUL: such a file made the game's page answer 500."""
    client.force_login(game.player_a.user)
    bad = GCG.replace("#note Bingo to open.", "#note Bingo\x00 to open.")
    if door == "file":
        data = {"file": SimpleUploadedFile("game.gcg", bad.encode(), content_type="application/octet-stream")}
    else:
        data = {"text": bad}
    response = client.post(record_url(game), data)
    assert response.status_code == 400
    page = response.content.decode()
    if door == "file":
        assert "This is not a game record we can read: line 4: this line has a NUL (a zero byte)" in page
    else:  # a form's text field refuses it before the service sees it
        assert "Null characters are not allowed." in page
    assert not GcgRecord.objects.exists()
