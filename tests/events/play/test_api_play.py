"""The play API: rounds, games, results, standings and exports, with the same rules as the pages."""

import pytest
from django.urls import include, path
from rest_framework.routers import DefaultRouter
from rest_framework.test import APIClient

from events.models import EventStatus
from events.play import api as api_play
from events.play import services as play
from events.play.core import tsh
from events.play.models import GameKind, GameStatus, Round, RoundStatus
from tests.factories import UserFactory

# The play routes on top of the site's own (the site's router adds the same ones through register()).
router = DefaultRouter()
api_play.register(router)
urlpatterns = [path("api/", include(router.urls)), path("", include("clubsite.urls"))]

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


@pytest.fixture
def api():
    return APIClient()


def test_director_pairs_swaps_publishes_and_enters_results(api, director, make_division):
    division = make_division(4)
    api.force_authenticate(director)
    created = api.post(f"/api/play/divisions/{division.pk}/pair/", {"system": "random", "seed": 4}, format="json")
    assert created.status_code == 201, created.content
    rnd = created.json()
    assert (rnd["number"], rnd["status"], rnd["pairing_seed"]) == (1, "draft", 4)
    games = api.get(f"/api/play/rounds/{rnd['id']}/games/").json()
    assert len(games) == 2 and games[0]["board"] == 1 and games[0]["player_a"]["number"]
    x, y = games[0]["player_a"]["id"], games[1]["player_a"]["id"]
    assert api.post(f"/api/play/rounds/{rnd['id']}/swap/", {"player_x": x, "player_y": y}).status_code == 200
    assert api.get(f"/api/play/rounds/{rnd['id']}/games/").json()[0]["player_a"]["id"] == y
    assert api.post(f"/api/play/rounds/{rnd['id']}/publish/").json()["status"] == "published"

    bad = api.post(f"/api/play/rounds/{rnd['id']}/results/", {"text": "1 400 99 300"}, format="json")
    assert bad.status_code == 400 and "Line 1" in bad.json()["text"][0]
    current = api.get(f"/api/play/rounds/{rnd['id']}/games/").json()
    text = "\n".join(f"{g['player_a']['number']} 400 {g['player_b']['number']} 350" for g in current)
    entered = api.post(f"/api/play/rounds/{rnd['id']}/results/", {"text": text}, format="json")
    assert entered.status_code == 200 and {g["status"] for g in entered.json()} == {"confirmed"}
    assert Round.objects.get(pk=rnd["id"]).status == RoundStatus.COMPLETE

    table = api.get(f"/api/play/divisions/{division.pk}/standings/").json()
    assert [row["wins"] for row in table] == [1, 1, 0, 0] and table[0]["spread"] == 50
    assert [row["rank_label"] for row in table] == ["=1", "=1", "=3", "=3"]  # ties stand by default
    assert api.get(f"/api/play/divisions/{division.pk}/standings/?through=x").status_code == 400

    export = api.get(f"/api/play/divisions/{division.pk}/export/")
    assert export.status_code == 200 and export["Content-Type"].startswith("text/plain")
    assert sorted(p.scores[0] for p in tsh.parse_t(export.content.decode()).players) == [350, 350, 400, 400]


def test_rounds_list_hides_drafts_from_the_public(api, director, make_division):
    division = make_division(4)
    play.pair_round(director, division, "koth")
    assert api.get(f"/api/play/divisions/{division.pk}/rounds/").json() == []
    assert api.get("/api/play/rounds/", {"division": division.pk}).json()["results"] == []
    api.force_authenticate(director)
    assert [r["status"] for r in api.get(f"/api/play/divisions/{division.pk}/rounds/").json()] == ["draft"]


def test_refused_pairing_is_a_conflict_carrying_the_best_pairing(api, director, make_division):
    division = make_division(2)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    play.submit_result(director, rnd.games.get(), 400, 300)
    api.force_authenticate(director)
    refused = api.post(f"/api/play/divisions/{division.pk}/pair/", {"system": "koth"}, format="json")
    assert refused.status_code == 409 and refused.json()["best"]["repeats"] == 1
    accepted = api.post(
        f"/api/play/divisions/{division.pk}/pair/", {"system": "koth", "accept_repeats": True}, format="json"
    )
    assert accepted.status_code == 201 and accepted.json()["number"] == 2


def test_bad_input_is_a_400_naming_the_field(api, director, make_division):
    division = make_division(2, users=True)
    api.force_authenticate(director)
    assert "system" in api.post(f"/api/play/divisions/{division.pk}/pair/", {"system": "nope"}).json()
    response = api.post(f"/api/play/divisions/{division.pk}/pair/", {"system": "koth", "based_on_round": 3})
    assert response.status_code == 400 and "based_on_round" in response.json()
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    game = rnd.games.get()
    response = api.post(f"/api/play/games/{game.pk}/submit/", {"score_a": 400, "score_b": 300, "first": "c"})
    assert response.status_code == 400 and "first" in response.json()
    response = api.post(f"/api/play/games/{game.pk}/submit/", {"score_a": 4000, "score_b": 300})
    assert response.status_code == 400 and "score_a" in response.json()
    # A first result needs no reason; changing a confirmed one does.
    assert api.post(f"/api/play/games/{game.pk}/submit/", {"score_a": 400, "score_b": 300}).status_code == 200
    response = api.post(f"/api/play/games/{game.pk}/submit/", {"score_a": 300, "score_b": 400})
    assert response.status_code == 400 and "reason" in response.json()
    changed = api.post(f"/api/play/games/{game.pk}/submit/", {"score_a": 300, "score_b": 400, "reason": "swapped"})
    assert changed.status_code == 200 and changed.json()["score_a"] == 300


def test_player_submits_opponent_confirms_others_are_refused(api, director, make_division):
    division = make_division(4, users=True)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    game, other = rnd.games.order_by("board")
    me, opponent, stranger = game.player_a.user, game.player_b.user, other.player_a.user

    api.force_authenticate(stranger)
    refused = api.post(f"/api/play/games/{game.pk}/submit/", {"score_a": 400, "score_b": 300})
    assert refused.status_code == 403
    api.force_authenticate(me)
    mine = api.get("/api/play/games/", {"mine": 1}).json()["results"]
    assert [g["id"] for g in mine] == [game.pk]
    submitted = api.post(f"/api/play/games/{game.pk}/submit/", {"score_a": 400, "score_b": 300, "overtime_a": 61})
    assert submitted.status_code == 200 and submitted.json()["status"] == "submitted"
    assert submitted.json()["score_a"] == 380  # two minutes' penalty
    assert api.post(f"/api/play/games/{game.pk}/confirm/").status_code == 400  # not your own report

    api.force_authenticate(stranger)
    assert api.get(f"/api/play/games/{game.pk}/").json()["score_a"] is None  # not confirmed yet: not shown
    assert api.post(f"/api/play/games/{game.pk}/confirm/").status_code == 403
    assert api.post(f"/api/play/games/{game.pk}/dispute/").status_code == 403

    api.force_authenticate(opponent)
    confirmed = api.post(f"/api/play/games/{game.pk}/confirm/")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == GameStatus.CONFIRMED
    api.force_authenticate(None)
    assert api.get(f"/api/play/games/{game.pk}/").json()["score_a"] == 380
    assert api.post(f"/api/play/games/{game.pk}/confirm/").status_code in (401, 403)


def test_my_games_are_those_on_either_side_and_none_for_an_account_without_a_player(api, director, make_division):
    division = make_division(4, users=True)
    first = play.pair_round(director, division, "koth")
    play.publish_round(director, first)
    game = first.games.order_by("board").first()
    for user in (game.player_a.user, game.player_b.user):
        api.force_authenticate(user)
        assert [g["id"] for g in api.get("/api/play/games/", {"mine": 1}).json()["results"]] == [game.pk]
    api.force_authenticate(UserFactory())
    assert api.get("/api/play/games/", {"mine": 1}).json()["results"] == []


def test_dispute_then_director_forfeit(api, director, make_division):
    division = make_division(2, users=True)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    game = rnd.games.get()
    api.force_authenticate(game.player_a.user)
    api.post(f"/api/play/games/{game.pk}/submit/", {"score_a": 400, "score_b": 300})
    api.force_authenticate(game.player_b.user)
    disputed = api.post(f"/api/play/games/{game.pk}/dispute/", {"reason": "I won"})
    assert disputed.json()["status"] == "disputed"
    assert api.post(f"/api/play/games/{game.pk}/unplayed/", {"kind": "forfeit"}).status_code == 403
    api.force_authenticate(director)
    forfeit = api.post(f"/api/play/games/{game.pk}/unplayed/", {"kind": "forfeit", "forfeited_by": "b"})
    assert forfeit.status_code == 200
    body = forfeit.json()
    assert body["kind"] == GameKind.FORFEIT and body["player_a"]["id"] == game.player_b_id and body["spread_a"] == -50


def test_export_is_for_directors_and_draft_events_are_hidden(api, director, make_division):
    division = make_division(2)
    assert api.get(f"/api/play/divisions/{division.pk}/export/").status_code == 403
    api.force_authenticate(UserFactory())
    assert api.get(f"/api/play/divisions/{division.pk}/export/").status_code == 403
    division.event.status = EventStatus.DRAFT
    division.event.save()
    assert api.get(f"/api/play/divisions/{division.pk}/").status_code == 404
    api.force_authenticate(director)
    assert api.get(f"/api/play/divisions/{division.pk}/").status_code == 200
    listed = api.get("/api/play/divisions/", {"event": division.event.slug}).json()["results"]
    assert [d["name"] for d in listed] == ["A"]


def test_standings_query_count_does_not_grow(api, director, make_division, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for n in (30, 100):
        division = make_division(n)
        rnd = play.pair_round(director, division, "random", seed=1)
        play.publish_round(director, rnd)
        for game in rnd.games.filter(kind=GameKind.NORMAL):
            play.submit_result(director, game, 400, 300)
        with CaptureQueriesContext(connection) as queries:
            assert api.get(f"/api/play/divisions/{division.pk}/standings/").status_code == 200
            assert api.get(f"/api/play/rounds/{rnd.pk}/games/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_bye_in_a_draft_round_does_not_count_in_the_standings(api, director, make_division):
    division = make_division(3)
    first = play.pair_round(director, division, "random", seed=1)
    play.publish_round(director, first)
    for game in first.games.filter(kind=GameKind.NORMAL):
        play.submit_result(director, game, 400, 300)
    play.pair_round(director, division, "random", seed=2)  # a draft, with a bye already confirmed
    url = f"/api/play/divisions/{division.pk}/standings/"
    for who in (None, director):
        api.force_authenticate(who)
        table = api.get(url).json()
        assert sum(row["games"] for row in table) == 3 and sum(row["byes"] for row in table) == 1
        assert api.get(url, {"through": 2}).json() == table


def test_the_audit_trail_names_who_changed_a_result_without_their_email(api, director, make_division):
    division = make_division(2, users=True)
    director.first_name, director.last_name = "Tess", "Director"
    director.save()
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    game = rnd.games.get()
    play.submit_result(game.player_a.user, game, 400, 300)
    play.submit_result(director, game, 410, 300)
    url = f"/api/play/games/{game.pk}/changes/"
    api.force_authenticate(game.player_a.user)
    assert api.get(url).status_code == 403
    api.force_authenticate(director)
    response = api.get(url)
    assert response.status_code == 200
    assert [c["changed_by"] for c in response.json()] == ["Tess Director", game.player_a.name]
    assert "@" not in response.content.decode()


def test_games_of_draft_rounds_and_draft_events_are_listed_for_their_directors_only(api, director, make_division):
    division = make_division(4, users=True)
    first = play.pair_round(director, division, "koth")
    play.publish_round(director, first)
    play.pair_round(director, division, "koth")  # round 2, a draft
    player = first.games.order_by("board").first().player_a
    seats = dict(division.seats.values_list("player_id", "number"))

    def listed(user, **query):
        api.force_authenticate(user)
        return [(g["round"], g["player_a"]["number"]) for g in api.get("/api/play/games/", query).json()["results"]]

    assert listed(player.user, mine=1) == [(1, seats[player.pk])]
    assert sorted(r for r, _ in listed(director, division=division.pk)) == [1, 1, 2, 2]
    division.event.status = EventStatus.DRAFT
    division.event.save()
    assert listed(player.user, mine=1) == []
    assert len(listed(director, division=division.pk)) == 4
