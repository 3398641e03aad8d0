"""What people see of a result: who changed it and why, before and after; penalties, overrun forfeits and
ties decided before the tile adjustment; a forfeited board in its place; who confirms a submission."""

import pytest
from django.contrib.admin.sites import site
from django.test import RequestFactory
from django.urls import reverse

from events.play import services as play
from events.play.admin import GameChangeAdmin
from events.play.models import Game, GameChange, GameKind, GameStatus

pytestmark = pytest.mark.django_db


def published_game(director, division):
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    return rnd.games.select_related("player_a", "player_b").get(player_b__isnull=False, board=1)


def html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def round_url(division, number=1):
    return reverse("events:play_round", args=[division.event.slug, division.pk, number])


def test_a_correction_keeps_its_reason_and_shows_who_and_before_after(client, director, make_division):
    director.first_name, director.last_name = "Tess", "Director"
    director.save()
    division = make_division(2)
    game = published_game(director, division)
    page = reverse("events:play_game_result", args=[division.event.slug, game.pk])
    client.force_login(director)
    client.post(page, {"outcome": "normal", "score_a": 400, "score_b": 350})
    client.post(page, {"outcome": "normal", "score_a": 410, "score_b": 350, "reason": "Scoresheet recount"})
    change = GameChange.objects.filter(game=game).order_by("-pk").first()
    assert (change.action, change.reason) == ("corrected", "Scoresheet recount")
    text = html(client.get(page))
    assert "Scoresheet recount" in text and "by Tess Director" in text and director.email not in text
    a, b = game.player_a.name, game.player_b.name
    assert f"{a} 400–350 {b} · confirmed → {a} 410–350 {b} · confirmed" in text
    round_page = html(client.get(round_url(division)))
    assert "Scoresheet recount" in round_page and f"{a} 410–350 {b}" in round_page
    assert director.email not in round_page
    admin = GameChangeAdmin(GameChange, site)
    assert admin.before_text(change).startswith(f"{a} 400–350 {b}")
    assert admin.who(change) == "Tess Director"
    request = RequestFactory().get("/")
    request.user = director
    assert "who" in admin.get_list_display(request)


def test_the_submitter_is_told_who_confirms(client, director, make_division):
    division = make_division(2, users=True)
    game = published_game(director, division)
    Game.objects.filter(pk=game.pk)  # both players have accounts here
    client.force_login(game.player_a.user)
    response = client.post(
        reverse("events:play_submit", args=[division.event.slug, game.pk]),
        {f"g{game.pk}-my_score": 400, f"g{game.pk}-opponent_score": 350},
        follow=True,
    )
    assert f"{game.player_b.name} confirms it now" in html(response)


def test_without_an_account_the_opponent_is_not_said_to_confirm(client, director, make_division):
    division = make_division(2, users=True)
    game = published_game(director, division)
    opponent = game.player_b
    opponent.user = None
    opponent.save()
    client.force_login(game.player_a.user)
    response = client.post(
        reverse("events:play_submit", args=[division.event.slug, game.pk]),
        {f"g{game.pk}-my_score": 400, f"g{game.pk}-opponent_score": 350},
        follow=True,
    )
    text = html(response)
    assert "a director confirms it" in text and f"{opponent.name} confirms it now" not in text


def test_penalties_are_shown_to_the_round_the_player_and_the_confirming_opponent(client, director, make_division):
    division = make_division(2, users=True)
    game = published_game(director, division)
    play.submit_result(game.player_a.user, game, 380, 60, overtime_b=600)
    client.force_login(game.player_b.user)  # the opponent who confirms
    text = html(client.get(reverse("events:play_my_game", args=[division.event.slug])))
    assert "-40 – 380" in text and "As played: 60 – 380" in text and "time penalty: −100" in text
    assert "A loss" in text and "Confirm" in text
    client.force_login(game.player_a.user)
    text = html(client.get(reverse("events:play_my_game", args=[division.event.slug])))
    assert "380 – -40" in text and f"{game.player_b.name}’s time penalty: −100" in text
    client.force_login(director)
    text = html(client.get(round_url(division)))
    assert "played 60, −100 time" in text


def test_a_forfeited_board_stays_in_the_board_table(client, director, make_division):
    division = make_division(4)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    game = rnd.games.get(board=2)
    play.set_unplayed(director, game, GameKind.FORFEIT, reason="no-show")
    client.force_login(director)
    text = html(client.get(round_url(division)))
    table = text[text.index("<table") : text.index("</table>")]
    assert f'id="game-{game.pk}"' in table and "Forfeit loss" in table


def test_overrun_forfeit_entered_by_the_director_is_shown(client, director, make_division):
    division = make_division(2, overrun_forfeit=True)
    game = published_game(director, division)
    page = reverse("events:play_game_result", args=[division.event.slug, game.pk])
    client.force_login(director)
    client.post(page, {"outcome": "normal", "score_a": 400, "score_b": 300, "overtime_a": "15:00"})
    game.refresh_from_db()
    # Seed 002: 150 off at 15 minutes puts A at 250, 50 behind: the margin is 150.
    assert (game.score_a, game.score_b, game.played_a, game.overrun) == (150, 300, 400, "a")
    assert f"{game.player_a.name} overran: game forfeited" in html(client.get(page))
    assert "overran: forfeit" in html(client.get(round_url(division)))
    table = {row.player: row for row in play.standings(division)}
    assert (table[game.player_a_id].losses, table[game.player_a_id].spread) == (1, -150)


def test_overrun_forfeit_submitted_by_a_player(director, make_division):
    division = make_division(2, users=True, overrun_forfeit=True)
    game = published_game(director, division)
    play.submit_result(game.player_b.user, game, 300, 420, overtime_a=16 * 60)
    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.overrun, game.status) == (150, 420, "a", GameStatus.SUBMITTED)


def test_overrun_without_the_setting_is_only_penalised(director, make_division):
    division = make_division(2)
    game = published_game(director, division)
    play.submit_result(director, game, 400, 300, overtime_a=15 * 60)
    game.refresh_from_db()
    assert (game.score_a, game.overrun) == (250, "")


def test_tie_is_asked_only_when_level_and_decides_the_game(client, director, make_division):
    division = make_division(2, users=True, ties_by_score_before_tiles=True)
    game = published_game(director, division)
    client.force_login(game.player_a.user)
    my_page = reverse("events:play_my_game", args=[division.event.slug])
    assert "ahead before the end-of-game tile adjustment" not in html(client.get(my_page))
    submit = reverse("events:play_submit", args=[division.event.slug, game.pk])
    data = {f"g{game.pk}-my_score": 400, f"g{game.pk}-opponent_score": 400}
    text = html(client.post(submit, data))
    assert "Who was ahead before the end-of-game tile adjustment?" in text
    assert Game.objects.get(pk=game.pk).status == GameStatus.PAIRED
    response = client.post(submit, {**data, f"g{game.pk}-ahead_before_tiles": "me"})
    assert response.status_code == 302
    play.confirm_result(game.player_b.user, game)
    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.ahead_before_tiles) == (400, 400, "a")
    table = {row.player: row for row in play.standings(division)}
    assert (table[game.player_a_id].wins, table[game.player_b_id].wins) == (1, 0)
    assert "Level: I win" in html(client.get(my_page))


def test_without_the_tie_option_a_level_game_is_a_tie(director, make_division):
    division = make_division(2)
    game = published_game(director, division)
    play.submit_result(director, game, 400, 400, ahead_before_tiles="a")
    game.refresh_from_db()
    assert game.ahead_before_tiles == ""
    table = {row.player: row for row in play.standings(division)}
    assert table[game.player_a_id].wins == 0.5


def test_director_form_asks_the_tie_question_when_level(client, director, make_division):
    division = make_division(2, ties_by_score_before_tiles=True)
    game = published_game(director, division)
    page = reverse("events:play_game_result", args=[division.event.slug, game.pk])
    client.force_login(director)
    text = html(client.post(page, {"outcome": "normal", "score_a": 380, "score_b": 380}))
    assert "say who was ahead before the end-of-game tile adjustment" in text
    response = client.post(page, {"outcome": "normal", "score_a": 380, "score_b": 380, "ahead_before_tiles": "b"})
    assert response.status_code == 302
    assert Game.objects.get(pk=game.pk).ahead_before_tiles == "b"


def test_scorecard_shows_the_score_as_played_and_the_penalty(client, director, make_division):
    division = make_division(2, overrun_forfeit=True)
    game = published_game(director, division)
    play.submit_result(director, game, 380, 60, overtime_b=600)
    number_a = division.seats.get(player=game.player_a).number
    page = reverse("events:play_scorecard", args=[division.event.slug, division.pk, number_a])
    text = html(client.get(page))
    assert "380–-40" in text and "played 380–60, opponent's time −100" in text
    text = html(client.get(reverse("events:play_scorecards", args=[division.event.slug, division.pk])))
    assert "played 60–380, own time −100" in text


def test_the_board_table_escapes_names_and_gives_the_director_each_games_actions(client, director, make_division):
    division = make_division(3)
    player = division.seats.get(number=1).player
    player.display_name = '<b>O\'Neil & "Co"</b>'
    player.save()
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    game = rnd.games.get(player_b__isnull=False)
    Game.objects.filter(pk=game.pk).update(status=GameStatus.SUBMITTED, score_a=400, score_b=350)
    text = html(client.get(round_url(division)))
    table = text[text.index("<tbody>") : text.index("</tbody>")]
    assert "&lt;b&gt;O&#x27;Neil &amp; &quot;Co&quot;&lt;/b&gt;" in table and "<b>O" not in table
    assert "400" not in table and "Submitted" in table and "director-confirm" not in table  # scores once confirmed
    client.force_login(director)
    table = html(client.get(round_url(division)))
    table = table[table.index("<tbody>") : table.index("</tbody>")]
    result = reverse("events:play_game_result", args=[division.event.slug, game.pk])
    confirm = reverse("events:play_director_confirm", args=[division.event.slug, game.pk])
    assert f'<a class="btn btn-sm btn-outline-primary" href="{result}">Correct</a>' in table
    assert f'action="{confirm}"' in table and 'name="csrfmiddlewaretoken"' in table
    assert '<td class="text-end">400</td>' in table


def test_a_submitted_score_shows_on_the_round_page_only_to_its_players_and_directors(client, director, make_division):
    division = make_division(4, users=True)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    game, other = rnd.games.select_related("player_a", "player_b").order_by("board")
    Game.objects.filter(pk=game.pk).update(status=GameStatus.SUBMITTED, score_a=432, score_b=321)
    for user, sees in ((game.player_b.user, True), (director, True), (other.player_a.user, False), (None, False)):
        client.logout()
        if user:
            client.force_login(user)
        text = html(client.get(round_url(division)))
        row = text[text.index(f'id="game-{game.pk}"') :]
        row = row[: row.index("</tr>")]
        assert ("432" in row and "321" in row) is sees, user
