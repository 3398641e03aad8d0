"""The pages players poll at the venue ("my game", the standings) answer 304 Not Modified while what they show is
unchanged, and the page itself as soon as anything on it changes: a result, a round, the event's settings, the
rating list; never one person's copy to another, never to a director, never over a message waiting to be shown.
A change saved in bulk, past the models' signals, shows within a second (services.polls.POLL_SECONDS)."""

import time

import pytest
from django.urls import reverse

from events.play import services as play
from events.play.models import Game
from events.play.services import polls

pytestmark = pytest.mark.django_db


@pytest.fixture
def venue(director, make_division):
    division = make_division(4, users=True)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    game = rnd.games.select_related("player_a__user", "player_b__user").get(board=1)
    return division, game


def urls(division):
    slug = division.event.slug
    return [
        reverse("events:play_my_game", args=[slug]),
        reverse("events:play_standings", args=[slug, division.pk]),
    ]


def again(client, url, response, **extra):
    return client.get(url, HTTP_IF_NONE_MATCH=response["ETag"], **extra)


def a_poll_later():
    """As long as a poll's fingerprint is trusted: a change saved in bulk shows after it."""
    time.sleep(polls.POLL_SECONDS + 0.1)


@pytest.mark.parametrize("page", [0, 1], ids=["my game", "standings"])
def test_an_unchanged_page_is_not_sent_again_and_costs_a_few_queries(
    client, venue, page, django_assert_max_num_queries, monkeypatch
):
    monkeypatch.setattr(polls, "POLL_SECONDS", 60)  # a slow machine must not see the fingerprints expire meanwhile
    division, game = venue
    url = urls(division)[page]
    client.force_login(game.player_a.user)
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"] and first["Cache-Control"] == "private, no-cache"
    assert "Cookie" in first["Vary"]
    # The cache's reads (a table of the database here, Redis in production) and, for "my game", the session, the
    # player and their games; never the account, nor the event or division once their fingerprints are cached.
    with django_assert_max_num_queries(6 if page == 0 else 2) as queries:
        second = again(client, url, first)
    assert not any('"players_user"' in q["sql"] for q in queries.captured_queries)
    assert second.status_code == 304 and second.content == b""
    assert second["ETag"] == first["ETag"]


@pytest.mark.parametrize("page", [0, 1], ids=["my game", "standings"])
def test_a_result_makes_the_page_new(client, venue, page):
    division, game = venue
    url = urls(division)[page]
    client.force_login(game.player_a.user)
    first = client.get(url)
    play.submit_result(game.player_b.user, Game.objects.get(pk=game.pk), 350, 420)
    changed = again(client, url, first)
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert again(client, url, changed).status_code == 304
    play.confirm_result(game.player_a.user, Game.objects.get(pk=game.pk))
    assert again(client, url, changed).status_code == 200


@pytest.mark.parametrize("page", [0, 1], ids=["my game", "standings"])
def test_the_next_round_and_the_events_settings_make_the_page_new(client, venue, director, page):
    division, game = venue
    url = urls(division)[page]
    client.force_login(game.player_a.user)
    first = client.get(url)
    event = division.event
    event.title = "Renamed Open"
    event.save()
    renamed = again(client, url, first)
    assert renamed.status_code == 200 and "Renamed Open" in renamed.content.decode()
    play.enter_round_results(director, division.rounds.get(number=1), "1 400 2 300\n3 380 4 390")
    play.publish_round(director, play.pair_round(director, division, "koth"))
    assert again(client, url, renamed).status_code == 200


@pytest.mark.parametrize("page", [0, 1], ids=["my game", "standings"])
def test_one_persons_copy_never_answers_another(client, venue, page):
    division, game = venue
    url = urls(division)[page]
    client.force_login(game.player_a.user)
    first = client.get(url)
    client.force_login(game.player_b.user)
    assert again(client, url, first).status_code == 200


def test_a_rating_list_change_makes_the_standings_new(client, director, make_division):
    from tests.ratings.factories import RatingListFactory

    rating_list = RatingListFactory()
    division = make_division(4, users=True)
    type(division.event).objects.filter(pk=division.event.pk).update(rated=True, rating_list=rating_list)
    play.publish_round(director, play.pair_round(director, division, "koth"))
    url = urls(division)[1]
    client.force_login(division.seats.first().player.user)
    first = client.get(url)
    assert again(client, url, first).status_code == 304
    type(rating_list).objects.filter(pk=rating_list.pk).update(version=rating_list.version + 1)
    a_poll_later()
    assert again(client, url, first).status_code == 200


def test_a_change_saved_in_bulk_shows_within_a_poll_interval(client, venue):
    """A seat's rating changed past the models (queryset.update): the fingerprint cached for polls is trusted for
    POLL_SECONDS, then the change shows."""
    division, game = venue
    url = urls(division)[1]
    client.force_login(game.player_a.user)
    first = client.get(url)
    type(division).objects.get(pk=division.pk).seats.filter(player=game.player_b).update(rating=1987)
    a_poll_later()
    changed = again(client, url, first)
    assert changed.status_code == 200 and "1987" in changed.content.decode()


def test_a_director_appointed_is_not_answered_from_the_copy_they_held(client, venue, director):
    """Directors see drafts, which no fingerprint covers: someone made a director after polling gets the page."""
    division, game = venue
    url = urls(division)[1]
    client.force_login(game.player_a.user)
    first = client.get(url)
    assert again(client, url, first).status_code == 304
    division.event.directors.add(game.player_a.user)
    response = again(client, url, first)
    assert response.status_code == 200 and not response.has_header("ETag")


def test_directors_always_get_the_page(client, venue, director):
    division, _ = venue
    client.force_login(director)
    for url in urls(division):
        response = client.get(url)
        assert response.status_code == 200 and not response.has_header("ETag")


def test_a_message_waiting_is_shown_not_answered_304(client, venue):
    """After a result is submitted, the page the player is sent back to shows "saved": it is never a 304."""
    division, game = venue
    url = urls(division)[0]
    client.force_login(game.player_a.user)
    first = client.get(url)
    submit = reverse("events:play_submit", args=[division.event.slug, game.pk])
    response = client.post(submit, {f"g{game.pk}-my_score": 420, f"g{game.pk}-opponent_score": 350})
    assert response.status_code == 302
    shown = again(client, url, first)
    assert shown.status_code == 200
    assert "message" in shown.content.decode().lower() or shown.context["messages"]


def test_my_game_stays_unchanged_while_other_players_results_come_in(client, venue):
    """A phone polls "my game" every few seconds while the venue's other results arrive: only the player's own games
    (and their live rating) make it new, so those polls are answered 304. The standings change with every result."""
    division, game = venue
    mine, standings = urls(division)
    other = division.rounds.get(number=1).games.select_related("player_a__user", "player_b__user").get(board=2)
    client.force_login(game.player_a.user)
    first_mine, first_table = client.get(mine), client.get(standings)
    play.submit_result(other.player_a.user, Game.objects.get(pk=other.pk), 400, 380)
    play.confirm_result(other.player_b.user, Game.objects.get(pk=other.pk))
    assert again(client, mine, first_mine).status_code == 304
    assert again(client, standings, first_table).status_code == 200
    play.submit_result(game.player_b.user, Game.objects.get(pk=game.pk), 350, 420)
    assert again(client, mine, first_mine).status_code == 200


def test_my_game_follows_the_players_live_rating(client, director, make_division):
    """In a rated event the page shows the player's rating if the event ended now: their own confirmed result
    moves it, and the page with it; another pair's result leaves it, and the page is answered 304."""
    from tests.ratings.factories import RatingListFactory

    rating_list = RatingListFactory()
    division = make_division(4, users=True)
    type(division.event).objects.filter(pk=division.event.pk).update(rated=True, rating_list=rating_list)
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    mine, other = (rnd.games.select_related("player_a__user", "player_b__user").get(board=b) for b in (1, 2))
    url = urls(division)[0]
    client.force_login(mine.player_a.user)
    first = client.get(url)
    play.submit_result(other.player_a.user, Game.objects.get(pk=other.pk), 400, 380)
    play.confirm_result(other.player_b.user, Game.objects.get(pk=other.pk))
    assert again(client, url, first).status_code == 304
    play.submit_result(mine.player_b.user, Game.objects.get(pk=mine.pk), 350, 420)
    submitted = again(client, url, first)
    assert submitted.status_code == 200
    play.confirm_result(mine.player_a.user, Game.objects.get(pk=mine.pk))
    confirmed = again(client, url, submitted)
    assert confirmed.status_code == 200 and "live-rating" in confirmed.content.decode()


def test_the_standings_table_is_worked_out_once_for_everyone_between_two_changes(
    client, venue, django_assert_max_num_queries, monkeypatch
):
    """Everyone polling a division's standings between two changes is sent the table worked out for the first of
    them (the division's read and live ratings are most of the page); a change of any kind, here a seat's rating,
    gives a new table to the next one."""
    division, game = venue
    url = urls(division)[1]
    seat = division.seats.get(player=game.player_b)
    monkeypatch.setattr(polls, "POLL_SECONDS", 60)  # a slow machine must not see the fingerprints expire meanwhile
    client.force_login(game.player_a.user)
    first = client.get(url).content.decode()
    client.force_login(game.player_b.user)
    with django_assert_max_num_queries(14):
        second = client.get(url).content.decode()
    assert second.count("<tr") == first.count("<tr") and f"#{seat.number}</span>" in second
    seat.rating = 1987
    seat.save(update_fields=["rating"])  # saved as the site saves it: the division's fingerprint is forgotten
    assert "1987" in client.get(url).content.decode()
    client.force_login(game.player_a.user)
    assert "1987" in client.get(url).content.decode()


def test_a_players_standings_page_drawn_reads_neither_the_event_nor_the_division(
    client, venue, director, django_assert_max_num_queries, monkeypatch
):
    """A second player drawing the standings between two changes takes the event (with its directors' ids only)
    from the polls' cache, and the division, its rounds and the table from the first player's drawing; a
    director's copy, which lists the draft round, is never kept for the players nor theirs for the director."""
    division, game = venue
    url = urls(division)[1]
    play.pair_round(director, division, "koth")  # round 2, a draft
    monkeypatch.setattr(polls, "POLL_SECONDS", 60)  # a slow machine must not see the fingerprints expire meanwhile
    client.force_login(game.player_a.user)
    first = client.get(url).content.decode()
    assert '<option value="1">' in first and '<option value="2">' not in first
    client.force_login(game.player_b.user)
    # The cache's reads (a table here: the event, the division's fingerprint, the page kept), the session, the
    # account, and whether they organise (the menu).
    with django_assert_max_num_queries(6) as queries:
        second = client.get(url).content.decode()
    read = " ".join(q["sql"] for q in queries.captured_queries)
    for table in ('"events_event"', '"events_event_directors"', '"play_division"', '"play_round"', '"play_game"'):
        assert table not in read, table
    assert '<option value="2">' not in second
    client.force_login(director)
    assert '<option value="2">' in client.get(url).content.decode()
    client.force_login(game.player_a.user)
    assert '<option value="2">' not in client.get(url).content.decode()
    state = polls.event_state(division.event.slug)
    kept = state.event.directors.all()
    assert [d.pk for d in kept] == [director.pk] and kept[0].get_deferred_fields() >= {"password", "email"}
