"""Live ratings: a division's ratings if its event ended now are what rating the event gives."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from events.models import EventStatus
from events.play import services as play_services
from events.play.models import Division, Game, GameKind, GameStatus, RoundStatus
from players.models import Player
from ratings import services
from ratings.models import RatingChange
from ratings.services.live import live_version, refresh_live_ratings
from tests.factories import PlayerFactory, UserFactory

from .factories import RatedEventFactory, RatingListFactory, days_ago, play, round_robin, seed
from .test_rating_services import engine_ratings

pytestmark = pytest.mark.django_db


def field(rating_list, rated=18, newcomers=2):
    players = PlayerFactory.create_batch(rated + newcomers)
    for i, p in enumerate(players[:rated]):
        seed(rating_list, p, 1300 + 47 * i, games=30 + 10 * i)  # some under 50 career games
    return players


def upsets(n):
    return {(i, j) for i in range(n) for j in range(i + 1, n) if (i * 7 + j * 3) % 5 == 0}


def live_event(rating_list, players, **kwargs):
    """An event in progress today, rated on the list, its round robin all confirmed."""
    event = RatedEventFactory(
        rating_list=rating_list,
        status=EventStatus.IN_PROGRESS,
        starts_on=days_ago(0),
        **kwargs,
    )
    games = round_robin(players, upsets(len(players)))
    division = play(event, games)
    return event, division, games


def stored(event):
    return {c.player_id: (c.pre, c.post, c.games) for c in RatingChange.objects.filter(division__event=event)}


def as_stored(live):
    return {pid: (r.pre, r.rating, r.games) for pid, r in live.players.items() if r.games}


@pytest.mark.parametrize("third_rated", [False, True])
def test_live_ratings_after_the_last_round_are_what_the_rating_run_stores(third_rated):
    rating_list = RatingListFactory()
    players = field(rating_list)
    # An earlier event moves some pre-event ratings and career games away from the seeds.
    earlier = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(20))
    play(earlier, round_robin(players[:6], {(0, 5), (1, 2)}))
    services.rate_event(earlier)
    # 20 players, 19 rounds scheduled (NASPA: two segments), two newcomers.
    event, division, _games = live_event(rating_list, players, number_of_games=19, third_rated=third_rated)

    live = services.live_ratings(division)
    assert live.rated_games == 190
    assert set(live.players) == {p.pk for p in players}

    services.rate_event(event)
    expected = stored(event)
    assert len(expected) == 20
    assert as_stored(live) == expected
    newcomer = live.get(players[-1].pk)
    assert newcomer.pre == 0 and newcomer.rating > 0 and newcomer.change is None and newcomer.is_newcomer


def test_only_confirmed_results_count_and_segments_follow_the_scheduled_rounds():
    rating_list = RatingListFactory()
    players = field(rating_list, rated=20, newcomers=0)
    event, division, games = live_event(rating_list, players, number_of_games=19)
    played_rounds = 12
    Game.objects.filter(division=division, round_number__gt=played_rounds).update(status=GameStatus.SUBMITTED)

    live = services.live_ratings(division)

    so_far = [g for g in games if g[0] <= played_rounds]
    pre = {p.pk: 1300 + 47 * i for i, p in enumerate(players)}
    career = {p.pk: 30 + 10 * i for i, p in enumerate(players)}
    as_run = engine_ratings(pre, so_far, career=career, max_rounds=19)
    assert {pid: r.rating for pid, r in live.players.items()} == as_run
    # Rated as if 12 rounds were all there is, the second segment would not start at round 10.
    assert as_run != engine_ratings(pre, so_far, career=career)
    assert live.rated_games == len(so_far)
    first = live.get(players[0].pk)
    assert first.pre == 1300 and first.change == first.rating - 1300 and first.games == played_rounds


def test_a_player_without_a_rated_game_keeps_the_pre_event_rating():
    rating_list = RatingListFactory()
    players = field(rating_list, rated=4, newcomers=0)
    event = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(0), number_of_games=3)
    division = play(event, [(1, players[0], players[1], 400, 300), (1, players[2], None, 50)], seats=players)

    live = services.live_ratings(division)

    assert live.get(players[2].pk).rating == live.get(players[2].pk).pre == 1394  # a bye: not rated
    assert live.get(players[2].pk).change is None
    assert live.get(players[3].pk).games == 0 and live.get(players[3].pk).rating == 1441
    assert live.get(players[0].pk).change > 0 > live.get(players[1].pk).change


def test_unrated_events_have_no_live_ratings():
    rating_list = RatingListFactory()
    players = field(rating_list, rated=4, newcomers=0)
    event = RatedEventFactory(rating_list=rating_list, rated=False)
    division = play(event, [(1, players[0], players[1], 400, 300)])
    assert services.live_ratings(division) is None


def test_cached_until_a_result_is_confirmed_or_corrected():
    rating_list = RatingListFactory()
    players = field(rating_list, rated=4, newcomers=0)
    event = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(0), number_of_games=3)
    division = play(
        event,
        [(1, players[0], players[1], 400, 300), (1, players[2], players[3], 400, 300)],
        seats=players,
    )
    second = Game.objects.get(division=division, player_a=players[2])
    Game.objects.filter(pk=second.pk).update(status=GameStatus.SUBMITTED)
    first = services.live_ratings(division)
    assert first.get(players[2].pk).games == 0

    with CaptureQueriesContext(connection) as cached:
        again = services.live_ratings(division)
    assert again.players == first.players
    assert len(cached) <= 3  # the version (two aggregates) and the cache

    # Confirmed: counted.
    Game.objects.filter(pk=second.pk).update(status=GameStatus.CONFIRMED, confirmed_at=timezone.now())
    confirmed = services.live_ratings(division)
    assert confirmed.get(players[2].pk).change > 0

    # Corrected by a director (same count of confirmed games, a later confirmation): recomputed.
    Game.objects.filter(pk=second.pk).update(
        score_a=300, score_b=400, confirmed_at=timezone.now() + timedelta(seconds=1)
    )
    corrected = services.live_ratings(division)
    assert corrected.get(players[2].pk).change < 0

    # Made a forfeit: no longer rated.
    Game.objects.filter(pk=second.pk).update(
        kind=GameKind.FORFEIT, score_a=None, score_b=None, confirmed_at=timezone.now() + timedelta(seconds=2)
    )
    assert services.live_ratings(division).get(players[2].pk).games == 0


def test_pre_event_ratings_follow_a_run_elsewhere_on_the_list():
    rating_list = RatingListFactory()
    players = field(rating_list, rated=4, newcomers=0)
    event = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(0), number_of_games=3)
    division = play(event, [(1, players[0], players[1], 400, 300)], seats=players)
    before = services.live_ratings(division).get(players[0].pk).pre

    earlier = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(3))
    play(earlier, [(1, players[0], players[1], 200, 500)])
    services.rate_event(earlier)

    after = services.live_ratings(division).get(players[0].pk)
    assert after.pre < before
    services.rate_event(event)
    assert as_stored(services.live_ratings(division)) == stored(event)


def test_a_correction_reads_the_division_again_not_the_list():
    """The players' standing before the event is kept under the list's version: a corrected result is
    rated again from the division's games alone, and comes out as a recomputation from scratch does."""
    rating_list = RatingListFactory()
    players = field(rating_list, rated=6, newcomers=2)
    event, division, _ = live_event(rating_list, players)
    first = services.live_ratings(division)
    game = Game.objects.filter(division=division, kind=GameKind.NORMAL).order_by("pk").first()
    Game.objects.filter(pk=game.pk).update(
        score_a=game.score_b, score_b=game.score_a, confirmed_at=timezone.now() + timedelta(seconds=1)
    )

    with CaptureQueriesContext(connection) as queries:
        corrected = services.live_ratings(division)
    assert corrected.get(game.player_a_id).rating != first.get(game.player_a_id).rating
    read = " ".join(q["sql"] for q in queries.captured_queries)
    assert "ratings_ratingchange" not in read and "ratings_playerrating" not in read
    cache.clear()
    assert services.live_ratings(division).players == corrected.players


def test_pre_event_ratings_follow_a_rating_import():
    """A ratings file seeds the list while an event on it is in progress (nothing on the list rated yet):
    the live ratings start from the imported ratings at once, not from what was cached before."""
    staff = UserFactory(is_staff=True)
    rating_list = RatingListFactory()
    tan, goh = PlayerFactory(full_name="Tan Wei Ling"), PlayerFactory(full_name="Adrian Goh")
    event = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(0), number_of_games=3)
    division = play(event, [(1, tan, goh, 400, 300)], seats=[tan, goh])
    assert services.live_ratings(division).get(tan.pk).pre == 0  # not on the list yet

    text = "name\trating\trank\texpires\tgames\nTan Wei Ling\t1850\t1\t-\t412\nAdrian Goh\t1422\t-\t-\t38\n"
    services.apply_rating_import(staff, services.prepare_rating_import(staff, rating_list, text), {})

    live = services.live_ratings(Division.objects.get(pk=division.pk))  # as the next request reads it
    assert (live.get(tan.pk).pre, live.get(goh.pk).pre) == (1850, 1422)
    assert live.get(tan.pk).change > 0


def _cached(division):
    """The live ratings the cache holds for the division as it stands, or None: what the next page finds."""
    event = Division.objects.select_related("event__rating_list").get(pk=division.pk).event
    version = live_version(division, event, event.rating_list)
    return cache.get(f"live-ratings:{division.pk}:{version}")


def test_a_directors_correction_leaves_the_live_ratings_ready(on_commit):
    """Worked out again once the correction commits, so the next look at the standings does not wait."""
    rating_list = RatingListFactory()
    players = field(rating_list, rated=6, newcomers=2)
    event, division, _ = live_event(rating_list, players)
    before = services.live_ratings(division)
    game = Game.objects.filter(division=division, kind=GameKind.NORMAL).order_by("pk").first()

    with on_commit(execute=True):
        play_services.submit_result(event.owner, game, game.score_b, game.score_a, reason="scores swapped")
    ready = _cached(division)
    assert ready is not None
    assert ready.get(game.player_a_id).rating != before.get(game.player_a_id).rating
    cache.clear()
    assert services.live_ratings(division).players == ready.players  # as worked out from scratch

    # A forfeit recorded and a player's confirmation leave them ready too.
    with on_commit(execute=True):
        play_services.set_unplayed(event.owner, game, GameKind.FORFEIT, reason="did not play")
    assert _cached(division).get(game.player_a_id).games == before.get(game.player_a_id).games - 1


def test_a_players_confirmation_leaves_them_ready_and_a_round_entered_at_once_refreshes_once(on_commit):
    rating_list = RatingListFactory()
    players = field(rating_list, rated=4, newcomers=0)
    event = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(0), number_of_games=3)
    event.status = EventStatus.IN_PROGRESS
    event.save(update_fields=["status"])
    division = play(
        event,
        [(1, players[0], players[1], None, None), (1, players[2], players[3], None, None)],
        status=GameStatus.PAIRED,
        seats=players,
    )
    rnd = division.rounds.get()
    with on_commit(execute=False) as queued:
        play_services.enter_round_results(event.owner, rnd, "1 420 2 350\n3 390 4 400")
    refreshes = [c for c in queued if getattr(c, "args", ())[:2] == (refresh_live_ratings, division.pk)]
    assert len(refreshes) == 1  # once for the round, not once a game
    for callback in queued:
        callback()
    assert _cached(division).get(players[0].pk).change > 0

    # A player's own result, confirmed by the opponent (their accounts), in round 2.
    r2 = division.rounds.create(number=2, status=RoundStatus.PUBLISHED)
    game = Game.objects.create(division=division, round=r2, round_number=2, player_a=players[0], player_b=players[2])
    a, b = (UserFactory() for _ in range(2))
    Player.objects.filter(pk=players[0].pk).update(user=a)
    Player.objects.filter(pk=players[2].pk).update(user=b)
    play_services.submit_result(a, game, 300, 450)
    assert _cached(division).get(players[0].pk).games == 1  # submitted is not counted: nothing new to show
    with on_commit(execute=True):
        play_services.confirm_result(b, game)
    assert _cached(division).get(players[0].pk).games == 2


def test_no_refresh_is_queued_for_an_unrated_event(on_commit):
    players = PlayerFactory.create_batch(2)
    event = RatedEventFactory(rated=False, rating_list=None, starts_on=days_ago(0), status=EventStatus.IN_PROGRESS)
    division = play(event, [(1, players[0], players[1], 400, 300)])
    game = Game.objects.get(division=division)
    with on_commit(execute=False) as queued:
        play_services.submit_result(event.owner, game, 300, 400, reason="scores swapped")
    assert not [c for c in queued if refresh_live_ratings in getattr(c, "args", ())]


@pytest.mark.parametrize("system", ["glicko2", "wespa"])
def test_live_ratings_of_other_systems_are_what_the_run_stores(system):
    rating_list = RatingListFactory(system=system, settings={"tau": 0.5} if system == "glicko2" else {})
    players = field(rating_list, rated=6, newcomers=2)
    earlier = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(150))
    play(earlier, round_robin(players[:4], {(0, 3)}))
    services.rate_event(earlier)  # Glicko-2: some deviations then widen over the idle months
    event, division, _ = live_event(rating_list, players, number_of_games=7)

    live = services.live_ratings(division)
    services.rate_event(event)
    assert as_stored(live) == stored(event)
