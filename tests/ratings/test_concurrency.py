"""Re-rating is atomic and runs on one list take turns (PostgreSQL, real threads)."""

import threading

import pytest
from django.db import connection

from ratings import services
from ratings.models import PlayerRating, RatingChange, RatingList, RunStatus
from ratings.services import storage as rating_module
from tests.factories import PlayerFactory

from .factories import RatedEventFactory, RatingListFactory, days_ago, play, round_robin, seed

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def rated(postgres):
    rating_list = RatingListFactory()
    players = PlayerFactory.create_batch(6)
    for i, p in enumerate(players):
        seed(rating_list, p, 1900 - 60 * i)
    events = []
    for n, days in enumerate((90, 60, 30)):
        event = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(days))
        play(event, round_robin(players, upsets={(0, 5)} if n == 1 else set()))
        services.rate_event(event)
        events.append(event)
    return rating_list, players, events


def snapshot(rating_list):
    return (
        sorted(PlayerRating.objects.filter(rating_list=rating_list).values_list("player_id", "rating", "games")),
        sorted(RatingChange.objects.filter(rating_list=rating_list).values_list("division_id", "player_id", "post")),
    )


def in_thread(target, errors):
    def run():
        try:
            target()
        except Exception as error:  # asserted on by the test
            errors.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_nobody_sees_a_half_updated_list(rated, monkeypatch):
    rating_list, players, events = rated
    before = snapshot(rating_list)
    # A correction in the first event changes everything after it.
    from events.play.models import Game

    game = Game.objects.filter(division__event=events[0], player_a=players[0]).order_by("pk").first()
    Game.objects.filter(pk=game.pk).update(score_a=100, score_b=600)

    written, release = threading.Event(), threading.Event()
    original = rating_module.apply_plan

    def slow_apply(*args, **kwargs):
        original(*args, **kwargs)
        written.set()  # every row is written, not yet committed
        release.wait(timeout=30)

    monkeypatch.setattr(rating_module, "apply_plan", slow_apply)
    errors: list[Exception] = []
    thread = in_thread(lambda: services.rerate_from(RatingList.objects.get(pk=rating_list.pk), days_ago(100)), errors)
    assert written.wait(timeout=30)
    during = snapshot(rating_list)
    release.set()
    thread.join(timeout=60)

    assert not errors
    assert during == before
    after = snapshot(rating_list)
    assert after != before


def test_two_runs_on_one_list_take_turns(rated):
    rating_list, players, events = rated
    expected = snapshot(rating_list)
    version = RatingList.objects.get(pk=rating_list.pk).version
    start = threading.Barrier(2)
    errors: list[Exception] = []
    runs = []

    def rerate():
        start.wait(timeout=30)
        runs.append(services.rerate_from(RatingList.objects.get(pk=rating_list.pk), days_ago(100)))

    threads = [in_thread(rerate, errors) for _ in range(2)]
    for thread in threads:
        thread.join(timeout=120)

    assert not errors
    assert [r.status for r in runs] == [RunStatus.DONE, RunStatus.DONE]
    assert snapshot(rating_list) == expected
    assert RatingList.objects.get(pk=rating_list.pk).version == version + 2
