"""A rating run whose worker dies is picked up again and ends with the right list; a correction
re-rates only from its event on; a large re-rate that builds the table afresh gives the same rows."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from events.play.models import Game
from ratings import services
from ratings.models import PlayerRating, RatingChange, RatingRun, RunStatus
from ratings.services import runs, storage
from tests.factories import PlayerFactory

from .factories import RatedEventFactory, RatingListFactory, days_ago, play, round_robin, seed

pytestmark = pytest.mark.django_db


@pytest.fixture
def history():
    rating_list = RatingListFactory()
    players = PlayerFactory.create_batch(6)
    for i, p in enumerate(players):
        seed(rating_list, p, 1900 - 60 * i, games=120)
    events = []
    for n, days in enumerate((90, 60, 30)):
        event = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(days))
        play(event, round_robin(players, upsets={(0, 5)} if n == 1 else set()))
        services.rate_event(event)
        events.append(event)
    return rating_list, players, events


def listing(rating_list):
    return (
        sorted(
            PlayerRating.objects.filter(rating_list=rating_list).values_list("player_id", "rating", "games", "peak")
        ),
        sorted(
            RatingChange.objects.filter(rating_list=rating_list).values_list(
                "division_id", "player_id", "pre", "post", "career_games", "expected", "bonus"
            )
        ),
    )


def correct_first_game(event, player):
    game = Game.objects.filter(division__event=event, player_a=player).order_by("pk").first()
    Game.objects.filter(pk=game.pk).update(score_a=100, score_b=600)


def the_right_list(rating_list, day):
    """The list as a re-rate from scratch gives it."""
    services.rerate_from(rating_list, day)
    return listing(rating_list)


def test_a_run_left_running_with_a_stale_heartbeat_is_finished(history, on_commit):
    rating_list, players, events = history
    correct_first_game(events[0], players[0])
    # The correction's run started, reached 49% and its worker was killed: nothing was written.
    long_ago = timezone.now() - timedelta(hours=1)
    run = RatingRun.objects.create(
        rating_list=rating_list,
        event=events[0],
        from_date=events[0].starts_on,
        reason="Result corrected: re-rated",
        status=RunStatus.RUNNING,
        progress=49,
        started_at=long_ago,
        heartbeat_at=long_ago,
        attempts=1,
    )
    stale = listing(rating_list)

    with on_commit(execute=True):
        assert services.sweep_stale_runs(force=True) == [run.pk]

    run.refresh_from_db()
    assert run.status == RunStatus.DONE and run.progress == 100 and run.attempts == 2
    assert run.events_rated == 3
    after = listing(rating_list)
    assert after != stale
    assert after == the_right_list(rating_list, days_ago(100))


def test_a_running_run_with_a_fresh_heartbeat_is_left_to_its_worker(history, on_commit):
    rating_list, players, events = history
    now = timezone.now()
    run = RatingRun.objects.create(
        rating_list=rating_list,
        event=events[0],
        from_date=events[0].starts_on,
        status=RunStatus.RUNNING,
        started_at=now,
        heartbeat_at=now,
        attempts=1,
    )
    with on_commit(execute=True):
        assert services.sweep_stale_runs(force=True) == []
        assert services.execute_run(run.pk).status == RunStatus.RUNNING  # the task delivered again
    run.refresh_from_db()
    assert run.status == RunStatus.RUNNING and run.attempts == 1


def test_a_run_lost_again_and_again_is_failed_with_a_way_out(history, on_commit):
    rating_list, players, events = history
    before = listing(rating_list)
    long_ago = timezone.now() - timedelta(hours=1)
    run = RatingRun.objects.create(
        rating_list=rating_list,
        from_date=days_ago(100),
        status=RunStatus.RUNNING,
        started_at=long_ago,
        heartbeat_at=long_ago,
        attempts=runs.MAX_ATTEMPTS,
    )
    with on_commit(execute=True):
        assert services.sweep_stale_runs(force=True) == []
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert "Re-rate the list from" in run.error
    assert listing(rating_list) == before


def test_a_queued_run_whose_task_never_came_is_sent_again(history, on_commit):
    rating_list, players, events = history
    correct_first_game(events[1], players[1])
    long_ago = timezone.now() - timedelta(hours=1)
    run = RatingRun.objects.create(rating_list=rating_list, event=events[1], from_date=events[1].starts_on)
    RatingRun.objects.filter(pk=run.pk).update(created_at=long_ago, heartbeat_at=long_ago)
    with on_commit(execute=True):
        assert services.sweep_stale_runs(force=True) == [run.pk]
    run.refresh_from_db()
    assert run.status == RunStatus.DONE and run.events_rated == 2
    assert listing(rating_list) == the_right_list(rating_list, days_ago(100))


def test_a_correction_re_rates_from_its_event_not_its_day(on_commit):
    rating_list = RatingListFactory()
    players = PlayerFactory.create_batch(4)
    for i, p in enumerate(players):
        seed(rating_list, p, 1800 - 100 * i, games=120)
    day = days_ago(10)
    earlier_that_day = RatedEventFactory(rating_list=rating_list, starts_on=day)
    corrected = RatedEventFactory(rating_list=rating_list, starts_on=day)
    later = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(5))
    for event in (earlier_that_day, corrected, later):
        play(event, round_robin(players))
        services.rate_event(event)
    untouched = list(
        RatingChange.objects.filter(division__event=earlier_that_day).order_by("pk").values_list("pk", "post")
    )
    correct_first_game(corrected, players[0])

    with on_commit(execute=True):
        run = services.queue_rating_run(corrected)

    run.refresh_from_db()
    assert run.status == RunStatus.DONE and run.events_rated == 2
    assert (
        list(RatingChange.objects.filter(division__event=earlier_that_day).order_by("pk").values_list("pk", "post"))
        == untouched
    )
    assert listing(rating_list) == the_right_list(rating_list, days_ago(20))


def schema():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = %s::regclass "
            "ORDER BY conname",
            [RatingChange._meta.db_table],
        )
        constraints = cursor.fetchall()
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s ORDER BY indexname",
            [RatingChange._meta.db_table],
        )
        return constraints, cursor.fetchall()


def test_a_large_re_rate_builds_the_table_afresh_with_the_same_rows_and_schema(history, postgres, monkeypatch):
    rating_list, players, events = history
    other = RatingListFactory()
    seed(other, players[0], 1500)
    other_event = RatedEventFactory(rating_list=other, starts_on=days_ago(40))
    play(other_event, round_robin(players[:4]))
    services.rate_event(other_event)
    correct_first_game(events[0], players[0])
    others_before = listing(other)
    before = schema()

    services.rerate_from(rating_list, days_ago(100))  # in the live table: delete and copy
    expected = listing(rating_list)
    last_id = RatingChange.objects.order_by("-pk").values_list("pk", flat=True)[0]
    monkeypatch.setattr(storage, "SWAP_MIN_ROWS", 0)

    services.rerate_from(rating_list, days_ago(100))  # built afresh

    assert listing(rating_list) == expected
    assert listing(other) == others_before
    assert schema() == before
    # New rows follow the old ones (a player's rows in id order are in rating order).
    assert RatingChange.objects.filter(rating_list=rating_list).order_by("pk").first().pk > last_id
    # And the table takes new rows as before.
    correct_first_game(events[2], players[3])
    monkeypatch.setattr(storage, "SWAP_MIN_ROWS", 10**9)
    services.rerate_from(rating_list, days_ago(100))
    assert listing(rating_list) != expected
