"""Tournament play pages: directors pair, edit, publish and enter results; players report from a phone."""

import re

import pytest
from django.urls import reverse

from events.models import PrizeKind
from events.play import services as play
from events.play.core import tsh
from events.play.models import Division, DivisionPlayer, Game, GameKind, GameStatus, Round, RoundStatus
from tests.events.factories import CategoryFactory, EntryFactory, PrizeFactory, fast_passwords  # noqa: F401
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db
PHONE = {"HTTP_USER_AGENT": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148"}


def url(name, division_or_event, *args):
    event = getattr(division_or_event, "event", division_or_event)
    if isinstance(division_or_event, Division):
        args = (division_or_event.pk, *args)
    return reverse(f"events:{name}", args=[event.slug, *args])


def page(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def play_round(director, rnd, scores=(400, 350)):
    for game in rnd.games.filter(kind=GameKind.NORMAL):
        play.submit_result(director, game, *scores)


def test_director_pairs_swaps_and_publishes(client, director, make_division):
    division = make_division(8)
    client.force_login(director)
    assert "Pair round 1" in page(client.get(url("play_division", division)))
    response = client.post(
        url("play_pair", division), {"system": "random", "seed": 7, "max_repeats": 0, "avoid_repeats": "on"}
    )
    assert response.status_code == 302
    rnd = Round.objects.get(division=division)
    assert response["Location"] == url("play_round", division, 1)
    html = page(client.get(response["Location"]))
    assert "Draft" in html and "Publish round 1" in html and html.count('id="game-') == 4

    game = rnd.games.order_by("board").first()
    other = rnd.games.order_by("board").last()
    x, y = game.player_a_id, other.player_a_id
    response = client.post(url("play_swap", division, 1), {"player_x": x, "player_y": y})
    assert response.status_code == 302
    assert rnd.games.get(board=game.board).player_a_id == y

    # Players cannot see a draft.
    anonymous = client.__class__()
    assert anonymous.get(url("play_round", division, 1)).status_code == 404

    client.post(url("play_publish", division, 1))
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.PUBLISHED
    public = page(anonymous.get(url("play_round", division, 1)))
    assert "Player 0" in public and "Fast entry" not in public
    # A published round shows every seat, so the divisions page does too (assignments never published by hand).
    division.refresh_from_db()
    assert division.assignments_published
    listing = page(anonymous.get(url("play_divisions", division.event)))
    assert "not published yet" not in listing and "Player 08" in listing


def test_draft_can_be_deleted(client, director, make_division):
    division = make_division(4)
    client.force_login(director)
    client.post(url("play_pair", division), {"system": "koth", "max_repeats": 0})
    assert client.post(url("play_delete_draft", division, 1)).status_code == 302
    assert not Round.objects.filter(division=division).exists()


def test_refused_pairing_offers_the_least_repeat_one_to_accept(client, director, make_division):
    division = make_division(2)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    play_round(director, rnd)
    client.force_login(director)
    html = page(client.post(url("play_pair", division), {"system": "koth", "max_repeats": 0, "avoid_repeats": "on"}))
    assert "Pairing refused" in html and "Accept this pairing" in html
    assert Round.objects.filter(division=division).count() == 1
    response = client.post(
        url("play_pair", division), {"system": "koth", "max_repeats": 0, "avoid_repeats": "on", "accept_repeats": "1"}
    )
    assert response.status_code == 302 and Round.objects.filter(division=division).count() == 2


def test_fast_entry_names_the_bad_line_and_saves_nothing(client, director, make_division):
    division = make_division(4)
    rnd = play.pair_round(director, division, "random", seed=3)
    play.publish_round(director, rnd)
    numbers = {s.player_id: s.number for s in division.seats.all()}
    g1, g2 = rnd.games.order_by("board")
    good = f"{numbers[g1.player_a_id]} 400 {numbers[g1.player_b_id]} 350"
    client.force_login(director)
    html = page(client.post(url("play_fast_entry", division, 1), {"text": f"{good}\n9 400 1 300"}))
    assert "Line 2" in html
    # Every bad line is reported, each naming its line.
    bad = f"9 400 1 300\n{good}\nnonsense\n\n{good}"
    html = page(client.post(url("play_fast_entry", division, 1), {"text": bad}))
    assert "Line 1: there is no player number 9" in html
    assert "Line 3: expected" in html and "Line 5: the game of" in html and "entered twice" in html
    assert not Game.objects.filter(round=rnd, status=GameStatus.CONFIRMED).exists()
    second = f"{numbers[g2.player_b_id]} 380 {numbers[g2.player_a_id]} 420"
    assert client.post(url("play_fast_entry", division, 1), {"text": f"{good}\n{second}"}).status_code == 302
    g2.refresh_from_db()
    assert (g2.score_a, g2.score_b, g2.status) == (420, 380, GameStatus.CONFIRMED)
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.COMPLETE


def test_director_enters_and_corrects_a_result_with_overtime_and_forfeits(client, director, make_division):
    division = make_division(4)
    rnd = play.pair_round(director, division, "random", seed=1)
    play.publish_round(director, rnd)
    game = rnd.games.order_by("board").first()
    client.force_login(director)
    result_url = reverse("events:play_game_result", args=[division.event.slug, game.pk])
    assert "Save result" in page(client.get(result_url))
    response = client.post(
        result_url, {"outcome": "normal", "score_a": 410, "score_b": 402, "overtime_a": "1:05", "first": "b"}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.overtime_a, game.first) == (390, 402, 65, "b")
    html = page(client.post(result_url, {"outcome": "normal", "score_a": 410, "overtime_a": "1:75"}))
    assert "Seconds run from 00 to 59" in html and "Enter both scores" in html
    a, b = game.player_a_id, game.player_b_id
    client.post(result_url, {"outcome": "forfeit_b", "reason": "no-show"})
    game.refresh_from_db()
    assert (game.kind, game.player_a_id, game.player_b_id, game.spread_a) == (GameKind.FORFEIT, b, a, -50)
    assert game.changes.filter(reason="no-show").exists()
    # A confirmed result is changed only with a reason, asked for on the form.
    html = page(client.post(result_url, {"outcome": "void"}))
    assert "Give a reason for changing a confirmed result" in html and 'id="error_1_id_reason"' in html
    game.refresh_from_db()
    assert game.kind == GameKind.FORFEIT
    client.post(result_url, {"outcome": "void", "reason": "wrong pairing"})
    game.refresh_from_db()
    assert game.kind == GameKind.VOID


def test_player_submits_and_opponent_confirms_on_a_phone(client, director, make_division):
    division = make_division(2, users=True)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    game = rnd.games.get()
    me, opponent = game.player_a, game.player_b
    client.force_login(me.user)
    html = page(client.get(url("play_my_game", division.event), **PHONE))
    assert opponent.name in html and "You go first" in html and "Submit result" in html
    assert 'name="viewport"' in html
    response = client.post(
        reverse("events:play_submit", args=[division.event.slug, game.pk]),
        {
            f"g{game.pk}-my_score": 420,
            f"g{game.pk}-opponent_score": 380,
            f"g{game.pk}-my_overtime": "0:30",
            f"g{game.pk}-first": "me",
        },
        **PHONE,
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.score_a, game.score_b, game.overtime_a, game.status) == (410, 380, 30, GameStatus.SUBMITTED)
    assert "Waiting for" in page(client.get(url("play_my_game", division.event), **PHONE))

    client.force_login(opponent.user)
    html = page(client.get(url("play_my_game", division.event), **PHONE))
    assert "380 – 410" in html and "Confirm" in html and "Dispute" in html
    client.post(reverse("events:play_confirm", args=[division.event.slug, game.pk]), **PHONE)
    game.refresh_from_db()
    assert game.status == GameStatus.CONFIRMED


def test_opponent_disputes_and_the_director_settles(client, director, make_division):
    division = make_division(2, users=True)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    game = rnd.games.get()
    play.submit_result(game.player_b.user, game, 300, 450)
    client.force_login(game.player_a.user)
    client.post(reverse("events:play_dispute", args=[division.event.slug, game.pk]), {"reason": "I won"})
    game.refresh_from_db()
    assert game.status == GameStatus.DISPUTED
    assert "director will settle" in page(client.get(url("play_my_game", division.event)))
    client.force_login(director)
    assert "1 disputed" in page(client.get(url("play_hub", division.event)))
    assert "Disputed" in page(client.get(url("play_round", division, 1)))
    client.post(reverse("events:play_director_confirm", args=[division.event.slug, game.pk]))
    game.refresh_from_db()
    assert game.status == GameStatus.CONFIRMED


def test_a_player_who_submits_badly_sees_why(client, director, make_division):
    division = make_division(2, users=True)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    game = rnd.games.get()
    client.force_login(game.player_a.user)
    html = page(
        client.post(
            reverse("events:play_submit", args=[division.event.slug, game.pk]),
            {f"g{game.pk}-my_score": 2400, f"g{game.pk}-opponent_score": 380},
        )
    )
    assert "above 1500" in html
    game.refresh_from_db()
    assert game.status == GameStatus.PAIRED


def test_wrong_users_are_forbidden(client, director, make_division):
    division = make_division(4, users=True)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    game = rnd.games.order_by("board").first()
    bystander = rnd.games.order_by("board").last().player_a.user
    client.force_login(bystander)
    submit = reverse("events:play_submit", args=[division.event.slug, game.pk])
    assert client.post(submit, {f"g{game.pk}-my_score": 1, f"g{game.pk}-opponent_score": 2}).status_code == 403
    assert client.post(url("play_pair", division), {"system": "koth", "max_repeats": 0}).status_code == 403
    assert client.get(reverse("events:play_game_result", args=[division.event.slug, game.pk])).status_code == 403
    assert client.get(url("play_download_t", division)).status_code == 403
    assert client.post(url("play_finalise", division)).status_code == 403
    play.submit_result(game.player_a.user, game, 400, 300)
    client.post(reverse("events:play_confirm", args=[division.event.slug, game.pk]))
    game.refresh_from_db()
    assert game.status == GameStatus.SUBMITTED  # a third player cannot confirm it
    client.logout()
    assert client.post(submit).status_code == 302  # to the log-in page


def test_standings_show_shared_ranks_and_can_go_back_a_round(client, director, make_division):
    division = make_division(4, ties_stand=True)
    r1 = play.pair_round(director, division, "random", seed=5)
    play.publish_round(director, r1)
    play_round(director, r1)  # two 50-point winners, two 50-point losers
    html = page(client.get(url("play_standings", division)))
    assert html.count('<td class="rank">=1</td>') == 2 and html.count('<td class="rank">=3</td>') == 2
    assert html.count('<td class="text-end spread">+50</td>') == 2
    r2 = play.pair_round(director, division, "koth")
    play.publish_round(director, r2)
    play_round(director, r2, scores=(500, 300))
    html = page(client.get(url("play_standings", division)))
    assert '<td class="rank">1</td>' in html and "+250" in html
    before = page(client.get(url("play_standings", division) + "?through=1"))
    assert before.count('<td class="rank">=1</td>') == 2 and "+250" not in before


def test_standings_rows_escape_names_and_link_each_scorecard(client, director, make_division):
    division = make_division(4)
    seat = DivisionPlayer.objects.filter(division=division).select_related("player").order_by("number").first()
    seat.player.display_name = '<b>Ann & "Bo"</b>'
    seat.player.save(update_fields=["display_name"])
    seat.rating = 0  # unrated
    seat.save(update_fields=["rating"])
    html = page(client.get(url("play_standings", division)))
    assert "&lt;b&gt;Ann &amp; &quot;Bo&quot;&lt;/b&gt;" in html and "<b>Ann" not in html
    for number in DivisionPlayer.objects.filter(division=division).values_list("number", flat=True):
        assert f'href="{url("play_scorecard", division, number)}"' in html
    assert '<td class="text-end d-none d-sm-table-cell">unrated</td>' in html


def test_cross_table_and_scorecards(client, director, make_division):
    division = make_division(4)
    rnd = play.pair_round(director, division, "random", seed=5)
    play.publish_round(director, rnd)
    play_round(director, rnd)
    html = page(client.get(url("play_cross_table", division)))
    assert "R1" in html and "400–350" in html and "350–400" in html
    # It says what it is, on screen and on paper, and after which round when asked.
    assert re.search(r'<h2 class="h5 mb-2">Cross-table <span class="small text-muted">latest results</span></h2>', html)
    assert "Cross-table after round 1</h2>" in page(client.get(url("play_cross_table", division) + "?through=1"))
    winner = DivisionPlayer.objects.get(division=division, player=rnd.games.first().player_a)
    card = page(client.get(url("play_scorecard", division, winner.number)))
    assert "400–350" in card and "1st" in card and "+50" in card
    assert page(client.get(url("play_scorecards", division))).count('class="scorecard') == 4


def test_cross_table_rows_escape_names_and_show_a_bye_without_an_opponent(client, director, make_division):
    division = make_division(5)
    seat = DivisionPlayer.objects.filter(division=division).select_related("player").order_by("number").first()
    seat.player.display_name = '<b>Ann & "Bo"</b>'
    seat.player.save(update_fields=["display_name"])
    rnd = play.pair_round(director, division, "random", seed=5)
    play.publish_round(director, rnd)
    play_round(director, rnd)
    html = page(client.get(url("play_cross_table", division)))
    assert "&lt;b&gt;Ann &amp; &quot;Bo&quot;&lt;/b&gt;" in html and "<b>Ann" not in html
    cells = re.findall(r'<td class="text-center text-nowrap">(.*?)</td>', html)
    assert len(cells) == 5
    assert len([c for c in cells if re.fullmatch(r"<strong>\w+</strong><br>[+-]\d+", c)]) == 1  # the bye
    assert len([c for c in cells if re.fullmatch(r"<strong>\w+</strong> \d<br>\d+–\d+", c)]) == 4


def test_prizes_from_the_events_prize_table(client, director, make_division):
    division = make_division(6)
    category = CategoryFactory(event=division.event, name="Secondary")
    Division.objects.filter(pk=division.pk).update(category=category)
    PrizeFactory(category=category, rank_from=1, rank_to=1, description="Voucher S$100 + trophy", amount=100)
    PrizeFactory(category=category, rank_from=2, rank_to=3, description="Trophy")
    PrizeFactory(category=category, kind=PrizeKind.HIGH_GAME, rank_from=None, rank_to=None, description="Book")
    PrizeFactory(category=category, kind=PrizeKind.LUCKY_DRAW, rank_from=None, rank_to=None, description="Hamper")
    rnd = play.pair_round(director, division, "random", seed=2)
    play.publish_round(director, rnd)
    games = list(rnd.games.order_by("board"))
    for game, (a, b) in zip(games, [(500, 300), (450, 400), (390, 380)], strict=True):
        play.submit_result(director, game, a, b)
    html = page(client.get(url("play_prizes", division)))
    top = games[0].player_a.name
    assert "1st place" in html and top in html and "S$100.00" in html
    assert "2nd place" in html and "3rd place" in html and "Hamper" in html and "drawn at the event" in html
    # One prize each by default: every winning score belongs to a place winner, so the high game waits.
    assert "High game" in html and "Provisional" in html and "already has a prize" in html
    several = page(client.get(url("play_prizes", division) + "?one_each=0"))
    high_game = several[several.index("High game") :]
    assert top in high_game[:400] and "score 500" in high_game[:600]
    # The other rule is offered to compare to the event's directors, not to everyone.
    assert "Allow several" not in html and "A player wins at most one prize." in html
    client.force_login(director)
    assert "Allow several" in page(client.get(url("play_prizes", division)))


def test_finalise_locks_the_division(client, director, make_division):
    division = make_division(2)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    play_round(director, rnd)
    client.force_login(director)
    assert "Finalise A" in page(client.get(url("play_standings", division)))
    client.post(url("play_finalise", division))
    division.refresh_from_db()
    assert division.finalised_at is not None
    assert "Finalise A" not in page(client.get(url("play_standings", division)))


def test_downloads_round_trip_through_the_tsh_parser(client, director, make_division):
    division = make_division(4)
    rnd = play.pair_round(director, division, "random", seed=9)
    play.publish_round(director, rnd)
    play_round(director, rnd)
    client.force_login(director)
    response = client.get(url("play_download_t", division))
    assert response["Content-Type"].startswith("text/plain") and "attachment" in response["Content-Disposition"]
    parsed = tsh.parse_t(response.content.decode())
    assert len(parsed.players) == 4 and sorted(p.scores[0] for p in parsed.players) == [350, 350, 400, 400]
    by_number = {p.number: p for p in parsed.players}
    assert all(by_number[p.opponents[0]].opponents[0] == p.number for p in parsed.players)
    config = client.get(url("play_download_config", division.event))
    assert tsh.parse_config(config.content.decode()).divisions == {"A": "a.t"}
    archive = client.get(url("play_download_archive", division.event))
    _, files = tsh.parse_archive(archive.content.decode())
    assert [len(f.players) for f in files.values()] == [4]
    hub = page(client.get(url("play_hub", division.event)))
    assert "config.tsh" in hub and "a.t" in hub


def test_each_division_file_is_named_as_config_tsh_names_it(client, director, make_division):
    """tsh finds a division's .t by the name config.tsh gives it: the page's download, the API's and the archive use
    that name, whatever the division is called (spaces, a dash)."""
    from rest_framework.test import APIClient

    division = make_division(2)
    division.name = "Category A – Secondary School Student"
    division.save()
    client.force_login(director)
    config = tsh.parse_config(client.get(url("play_download_config", division.event)).content.decode())
    (named,) = config.divisions.values()
    assert named == "category_a_secondary_school_student.t"
    page_download = client.get(url("play_download_t", division))
    assert page_download["Content-Disposition"] == f'attachment; filename="{named}"'
    api = APIClient()
    api.force_authenticate(director)
    api_download = api.get(f"/api/play/divisions/{division.pk}/export/")
    assert api_download["Content-Disposition"] == f'attachment; filename="{named}"'
    _, files = tsh.parse_archive(client.get(url("play_download_archive", division.event)).content.decode())
    assert list(files) == [named]


@pytest.mark.parametrize("name", ["play_standings", "play_cross_table", "play_round", "play_scorecards", "play_hub"])
def test_pages_run_the_same_queries_for_30_and_100_players(
    client, director, make_division, name, django_assert_max_num_queries, monkeypatch
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from events.play.services import polls

    # A slow machine must not see the polls' fingerprints expire between two requests (the cache table here
    # deletes an expired entry when it is read: a query more).
    monkeypatch.setattr(polls, "POLL_SECONDS", 60)
    counts = []
    client.force_login(director)
    for n in (30, 100):
        division = make_division(n)
        rnd = play.pair_round(director, division, "random", seed=1)
        play.publish_round(director, rnd)
        play_round(director, rnd)
        target = (
            url(name, division, 1)
            if name == "play_round"
            else (url(name, division.event) if name == "play_hub" else url(name, division))
        )
        with CaptureQueriesContext(connection) as queries:
            page(client.get(target))
        counts.append(len(queries))
    assert counts[0] == counts[1]
    with django_assert_max_num_queries(counts[0]):
        page(client.get(target))


def test_divisions_by_rating_assign_override_publish(client, director):
    from tests.events.factories import EventFactory

    event = EventFactory()
    event.directors.add(director)
    category = CategoryFactory(event=event, name="Open")
    players = [PlayerFactory(full_name=f"Entrant {i}", user=UserFactory()) for i in range(6)]
    entries = [EntryFactory(category=category, player=p) for p in players]
    client.force_login(director)
    html = page(client.get(url("play_divisions", event)))
    assert "Assign by rating" in html and "Publish assignments" in html
    response = client.post(url("play_assign", event), {"assign-mode": "split", "assign-split_into": 2})
    assert response.status_code == 302
    assert set(Division.objects.filter(event=event).values_list("name", flat=True)) == {"A", "B"}
    b = Division.objects.get(event=event, name="B")
    client.post(
        url("play_place", event), {"place-entry": entries[0].pk, "place-division": b.pk, "place-reason": "asked"}
    )
    seat = DivisionPlayer.objects.get(entry=entries[0])
    assert seat.division == b and seat.assigned_reason == "asked"
    html = page(client.get(url("play_divisions", event)))
    assert "by hand" in html

    entrant = client.__class__()
    entrant.force_login(players[1].user)
    assert "not published yet" in page(entrant.get(url("play_divisions", event)))
    entrant.post(url("play_play_up", event), {"division_name": "A"})
    assert "Entrant 1 → A" in page(client.get(url("play_divisions", event)))
    client.post(url("play_publish_assignments", event))
    html = page(entrant.get(url("play_divisions", event)))
    assert "You play in" in html and "Entrant 0" in html


def test_director_sets_a_division_band(client, director):
    from tests.events.factories import EventFactory

    event = EventFactory()
    event.directors.add(director)
    client.force_login(director)
    client.post(url("play_save_band", event), {"band-name": "Open", "band-rating_min": 1700})
    client.post(
        url("play_save_band", event), {"band-name": "Reserve", "band-rating_max": 1699, "band-takes_unrated": "on"}
    )
    bands = list(
        Division.objects.filter(event=event).order_by("position").values_list("name", "rating_min", "rating_max")
    )
    assert bands == [("Open", 1700, None), ("Reserve", None, 1699)]
    client.post(url("play_save_band", event), {"band-name": "Open", "band-rating_min": 1800, "band-rating_max": 100})
    assert Division.objects.get(event=event, name="Open").rating_min == 1700


def test_late_entrant_and_withdrawal(client, director, make_division):
    division = make_division(4)
    category = CategoryFactory(event=division.event)
    late = EntryFactory(category=category, player=PlayerFactory(full_name="Late Comer"))
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    client.force_login(director)
    html = page(client.get(url("play_division", division)))
    assert "Add a late entrant" in html and "Late Comer" in html
    client.post(url("play_late_entrant", division), {"late-entry": late.pk, "late-rating": 1500})
    seat = DivisionPlayer.objects.get(division=division, player=late.player)
    assert (seat.number, seat.rating, seat.joined_in_round) == (5, 1500, 2)
    assert Game.objects.get(round=rnd, player_a=late.player).kind == GameKind.FORFEIT
    client.post(url("play_withdraw", division, 1))
    assert DivisionPlayer.objects.get(division=division, number=1).withdrawn_after_round == 1
    assert "withdrawn after round 1" in page(client.get(url("play_division", division)))


def test_account_section_shows_my_published_division(director, make_division):
    from django.template.loader import render_to_string

    from events.play.views import my_division_context

    division = make_division(2, users=True)
    seat = division.seats.get(number=2)
    assert my_division_context(seat.player)["my_division_seats"] == []
    Division.objects.filter(pk=division.pk).update(assignments_published=True)
    context = my_division_context(seat.player)
    html = render_to_string("events/play/_my_division.html", context)
    assert "number 2" in html and division.event.title in html and "My game" in html


def test_class_prize_goes_to_the_best_of_the_class(client, director, make_division):
    division = make_division(4)
    category = CategoryFactory(event=division.event)
    Division.objects.filter(pk=division.pk).update(category=category)
    PrizeFactory(category=category, rank_from=1, rank_to=1, description="Trophy")
    PrizeFactory(category=category, kind=PrizeKind.CLASS, rank_from=None, rank_to=None, description="Class B: book")
    for seat in division.seats.filter(number__gte=3):
        seat.tsh_extras = {"class": ["B"]}
        seat.save()
    rnd = play.pair_round(director, division, "random", seed=2)
    play.publish_round(director, rnd)
    for game, (a, b) in zip(rnd.games.order_by("board"), [(500, 300), (450, 400)], strict=True):
        play.submit_result(director, game, a, b)
    table = play.standings(division)
    best_b = next(row.seat for row in table if row.seat.number >= 3 and row.seat.player_id != table[0].player)
    html = page(client.get(url("play_prizes", division)))
    section = html[html.index("Best in class B") :]
    assert best_b.player.name in section[:300]


def test_ratings_as_of_shows_the_closing_day_in_the_date_picker(client, director):
    """A type=date input shows nothing unless its value is ISO (it showed 21/11/2026, so it looked blank)."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from tests.events.factories import EventFactory

    closes = datetime(2026, 11, 21, 18, 0, tzinfo=ZoneInfo("Asia/Singapore"))
    event = EventFactory(registration_opens_at=None, registration_closes_at=closes, time_zone="Asia/Singapore")
    event.directors.add(director)
    client.force_login(director)
    html = page(client.get(url("play_divisions", event)))
    assert 'type="date"' in html and 'value="2026-11-21"' in html


def test_a_withdrawn_leader_is_ranked_while_they_played_and_every_table_agrees(client, director, make_division):
    """The standings, the cross-table and the prizes read the division once and agree about a withdrawal."""
    import re

    division = make_division(6)
    r1 = play.pair_round(director, division, "koth", seed=1)
    play.publish_round(director, r1)
    games = list(r1.games.filter(kind=GameKind.NORMAL).order_by("board"))
    play.submit_result(director, games[0], 600, 300)  # the leader: +300
    for game in games[1:]:
        play.submit_result(director, game, 400, 350)
    leader = DivisionPlayer.objects.get(division=division, player=games[0].player_a)
    play.withdraw_player(director, leader)
    r2 = play.pair_round(director, division, "koth")
    play.publish_round(director, r2)
    play_round(director, r2)

    def order(html):
        return re.findall(r"#(\d+)</span>", html)

    after_one = page(client.get(url("play_standings", division) + "?through=1"))
    assert order(after_one)[0] == str(leader.number)
    assert '<td class="rank">1</td>' in after_one
    final = page(client.get(url("play_standings", division)))
    assert order(final)[-1] == str(leader.number) and "withdrawn" in final
    cross = page(client.get(url("play_cross_table", division)))
    cross_order = re.findall(r"<td>(\d+)</td><td class=\"text-nowrap\">", cross)
    assert cross_order == order(final)


def test_a_pending_score_is_shown_to_its_players_and_directors_only_on_the_page_and_in_the_api(
    client, director, make_division
):
    """One rule for who sees a submitted score, asked by the round page and the API alike."""
    from rest_framework.test import APIClient

    division = make_division(4, users=True)
    rnd = play.pair_round(director, division, "koth", seed=1)
    play.publish_round(director, rnd)
    game = rnd.games.filter(kind=GameKind.NORMAL).select_related("player_a", "player_b").first()
    play.submit_result(game.player_a.user, game, 432, 321)
    other = rnd.games.filter(kind=GameKind.NORMAL).exclude(pk=game.pk).select_related("player_a").first()

    def sees(user) -> tuple[bool, bool]:
        web, api = client.__class__(), APIClient()
        if user:
            web.force_login(user)
            api.force_authenticate(user)
        on_page = "432" in page(web.get(url("play_round", division, rnd.number)))
        on_api = api.get(f"/api/play/games/{game.pk}/").json()["score_a"] == 432
        return on_page, on_api

    assert sees(game.player_b.user) == (True, True)
    assert sees(director) == (True, True)
    assert sees(other.player_a.user) == (False, False)
    assert sees(None) == (False, False)


def test_before_the_event_day_the_division_page_says_when_pairing_opens(client, director, make_division):
    from datetime import timedelta

    from django.utils import timezone

    from events.models import Event, EventStatus

    later = timezone.localdate() + timedelta(days=20)
    division = make_division(4)
    Event.objects.filter(pk=division.event_id).update(
        status=EventStatus.REGISTRATION_CLOSED, starts_on=later, ends_on=later
    )
    client.force_login(director)
    html = page(client.get(url("play_division", division)))
    assert "you cannot pair a round before then" in html and "Pair the round" not in html


def test_one_result_entered_is_singular(client, director, make_division):
    division = make_division(2)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    game = rnd.games.get()
    numbers = {s.player_id: s.number for s in division.seats.all()}
    client.force_login(director)
    url = reverse("events:play_fast_entry", args=[division.event.slug, division.pk, 1])
    text = f"{numbers[game.player_a_id]} 400 {numbers[game.player_b_id]} 350"
    page = client.post(url, {"text": text}, follow=True).content.decode()
    assert "1 result entered." in page
