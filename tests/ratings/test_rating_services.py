"""Rating events: what the engine gives, in order, atomically, idempotently."""

import pytest

from clubsite.kit.errors import NotAllowed, ServiceError
from events.play.models import Game, GameStatus
from ratings import services
from ratings.engine.naspa import rate_naspa
from ratings.models import PlayerRating, RatedEvent, RatingChange, RatingRun, RunStatus
from tests.factories import PlayerFactory, UserFactory

from .factories import RatedEventFactory, RatingListFactory, days_ago, play, round_robin, seed

pytestmark = pytest.mark.django_db


def ratings_of(rating_list, players):
    rows = dict(PlayerRating.objects.filter(rating_list=rating_list).values_list("player_id", "rating"))
    return [rows.get(p.pk, 0) for p in players]


@pytest.fixture
def rating_list():
    return RatingListFactory()


@pytest.fixture
def four(rating_list):
    players = PlayerFactory.create_batch(4)
    for p, r in zip(players, [1800, 1650, 1500, 1400], strict=True):
        seed(rating_list, p, r, games=120)
    return players


def engine_ratings(pre, games, career=None, third=False, max_rounds=None):
    from ratings.engine.common import RatingOptions

    index = {}
    for g in games:
        for p in (g[1], g[2]):
            index.setdefault(p.pk, len(index))
    ordered = sorted(index, key=index.get)
    result = rate_naspa(
        [pre.get(pid, 0) for pid in ordered],
        [(index[g[1].pk], index[g[2].pk], g[3], g[4], g[0] - 1) for g in games],
        career_games=[(career or {}).get(pid, 0 if not pre.get(pid) else 120) for pid in ordered],
        options=RatingOptions(third_rated=third, max_rounds=max_rounds),
    )
    return {pid: result.players[index[pid]].new_rating for pid in ordered}


def test_ratings_after_an_event_are_what_the_engine_gives(rating_list, four):
    event = RatedEventFactory(rating_list=rating_list)
    games = round_robin(four, upsets={(0, 3)})
    play(event, games)

    run = services.rate_event(event)

    assert run.status == RunStatus.DONE and run.progress == 100
    expected = engine_ratings({p.pk: r for p, r in zip(four, [1800, 1650, 1500, 1400], strict=True)}, games)
    assert ratings_of(rating_list, four) == [expected[p.pk] for p in four]
    changes = {c.player_id: c for c in RatingChange.objects.filter(division__event=event)}
    assert changes[four[3].pk].pre == 1400
    assert changes[four[3].pk].actual == 1.0
    assert changes[four[0].pk].actual == 2.0
    assert changes[four[0].pk].games == 3
    assert changes[four[0].pk].k == 16  # 1800-1999 with 50 games or more
    assert PlayerRating.objects.get(rating_list=rating_list, player=four[0]).games == 123
    assert PlayerRating.objects.get(rating_list=rating_list, player=four[0]).last_played == event.starts_on


def test_newcomers_get_a_rating_and_byes_are_not_rated(rating_list, four):
    newcomer = PlayerFactory()
    event = RatedEventFactory(rating_list=rating_list)
    games = [
        (1, four[0], newcomer, 380, 400),
        (1, four[1], four[2], 400, 380),
        (1, four[3], None, 50),
        (2, newcomer, four[1], 400, 390),
        (2, four[0], four[3], 400, 300),
        (2, four[2], None, 50),
    ]
    play(event, games)
    services.rate_event(event)

    rated = [g for g in games if g[2] is not None]
    pre = {p.pk: r for p, r in zip(four, [1800, 1650, 1500, 1400], strict=True)}
    expected = engine_ratings(pre, rated)
    row = PlayerRating.objects.get(rating_list=rating_list, player=newcomer)
    assert row.rating == expected[newcomer.pk] > 0
    assert row.games == 2
    change = RatingChange.objects.get(player=newcomer)
    assert change.is_newcomer and change.pre == 0 and change.performance is not None
    assert RatingChange.objects.get(player=four[3]).games == 1  # the bye is not a rated game


def test_events_are_rated_in_the_order_they_began(rating_list, four):
    later = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(10))
    earlier = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(40))
    play(later, round_robin(four))
    play(earlier, round_robin(list(reversed(four))))

    services.rate_event(later)
    services.rate_event(earlier)  # rated second, but it began first: the later one is re-rated after it

    first = RatingChange.objects.filter(division__event=earlier).values_list("player_id", "post")
    second = dict(RatingChange.objects.filter(division__event=later).values_list("player_id", "pre"))
    for pid, post in first:
        assert second[pid] == post
    assert list(RatedEvent.objects.filter(rating_list=rating_list).values_list("event_id", flat=True)) == [
        earlier.pk,
        later.pk,
    ]


def test_rating_the_same_event_twice_changes_nothing(rating_list, four):
    event = RatedEventFactory(rating_list=rating_list)
    play(event, round_robin(four, upsets={(1, 2)}))
    services.rate_event(event)
    before = list(PlayerRating.objects.values_list("player_id", "rating", "games", "peak", "last_played"))
    changes = list(RatingChange.objects.values_list("player_id", "pre", "post", "expected", "actual"))

    services.rate_event(event)

    assert list(PlayerRating.objects.values_list("player_id", "rating", "games", "peak", "last_played")) == before
    assert list(RatingChange.objects.values_list("player_id", "pre", "post", "expected", "actual")) == changes


def test_unconfirmed_results_are_refused_with_the_list(rating_list, four):
    event = RatedEventFactory(rating_list=rating_list)
    division = play(event, round_robin(four))
    game = Game.objects.filter(division=division, round_number=2).order_by("pk").first()
    game.status = GameStatus.SUBMITTED
    game.save()

    with pytest.raises(ServiceError) as refused:
        services.rate_event(event)

    message = refused.value.message
    assert "1 result is not confirmed" in message
    assert f"division A round 2: {game.player_a.name} v {game.player_b.name} (submitted)" in message
    assert not PlayerRating.objects.filter(rating_list=rating_list).exclude(seed_rating__gt=0).exists()
    assert not RatingChange.objects.exists()


def test_correcting_a_result_re_rates_that_event_and_every_later_one(rating_list, four, on_commit):
    first = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(60))
    second = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(20))
    division = play(first, round_robin(four))
    play(second, round_robin(four))
    services.rate_event(first)
    services.rate_event(second)
    old_second = dict(RatingChange.objects.filter(division__event=second).values_list("player_id", "post"))

    # A director corrects a confirmed result of the first event: the bottom seed won after all.
    game = Game.objects.get(division=division, player_a=four[0], player_b=four[3])
    game.score_a, game.score_b = 300, 500
    game.save()
    with on_commit(execute=True):
        run = services.queue_rating_run(first)

    run.refresh_from_db()
    assert run.status == RunStatus.DONE and run.events_rated == 2
    new_second = dict(RatingChange.objects.filter(division__event=second).values_list("player_id", "post"))
    assert new_second != old_second
    pre_second = dict(RatingChange.objects.filter(division__event=second).values_list("player_id", "pre"))
    post_first = dict(RatingChange.objects.filter(division__event=first).values_list("player_id", "post"))
    assert pre_second == post_first
    assert ratings_of(rating_list, four) == [new_second[p.pk] for p in four]


def test_re_rating_from_a_date_gives_the_same_list(rating_list, four):
    for days in (90, 60, 30):
        event = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(days))
        play(event, round_robin(four, upsets={(0, 1)} if days == 60 else set()))
        services.rate_event(event)
    before = list(PlayerRating.objects.values_list("player_id", "rating", "games", "peak"))
    staff = UserFactory(is_staff=True)

    run = services.rerate_from(rating_list, days_ago(100), actor=staff)

    assert run.events_rated == 3
    assert list(PlayerRating.objects.values_list("player_id", "rating", "games", "peak")) == before
    with pytest.raises(NotAllowed):
        services.rerate_from(rating_list, days_ago(100), actor=UserFactory())


def test_re_rating_to_the_same_standings_rewrites_no_current_rating(rating_list, four, postgres):
    # An unchanged row written again is a dead row for the vacuum and for every read of the list.
    from django.db import connection

    for days in (60, 30):
        event = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(days))
        play(event, round_robin(four))
        services.rate_event(event)

    def row_versions():
        with connection.cursor() as cursor:
            cursor.execute("SELECT id, xmin::text FROM ratings_playerrating ORDER BY id")
            return cursor.fetchall()

    before = row_versions()
    services.rerate_from(rating_list, days_ago(100))
    assert row_versions() == before
    Game.objects.filter(division__event__starts_on=days_ago(30)).update(score_a=100)  # every later game upset
    services.rerate_from(rating_list, days_ago(100))
    assert all(old != new for old, new in zip(before, row_versions(), strict=True))


def test_third_rated_event(rating_list, four):
    event = RatedEventFactory(rating_list=rating_list, third_rated=True)
    games = round_robin(four, upsets={(0, 3)})
    play(event, games)
    services.rate_event(event)
    expected = engine_ratings({p.pk: r for p, r in zip(four, [1800, 1650, 1500, 1400], strict=True)}, games, third=True)
    assert ratings_of(rating_list, four) == [expected[p.pk] for p in four]


def test_an_unrated_event_or_one_without_a_list_is_refused(rating_list, four):
    unrated = RatedEventFactory(rating_list=rating_list, rated=False)
    with pytest.raises(ServiceError, match="not a rated event"):
        services.rate_event(unrated)
    listless = RatedEventFactory(rating_list=None)
    with pytest.raises(ServiceError, match="no rating list"):
        services.queue_rating_run(listless)


def test_queued_run_is_carried_out_once(rating_list, four, on_commit):
    event = RatedEventFactory(rating_list=rating_list)
    play(event, round_robin(four))
    with on_commit(execute=True):
        run = services.queue_rating_run(event)
    run.refresh_from_db()
    assert run.status == RunStatus.DONE
    ratings = ratings_of(rating_list, four)

    again = services.execute_run(run.pk)  # the task delivered twice

    assert again.status == RunStatus.DONE
    assert ratings_of(rating_list, four) == ratings
    assert RatingRun.objects.count() == 1


def test_a_failed_run_records_why_and_leaves_ratings_alone(rating_list, four, on_commit):
    event = RatedEventFactory(rating_list=rating_list)
    division = play(event, round_robin(four))
    with on_commit(execute=True):
        run = services.queue_rating_run(event)
        # Before the task runs, a result is reopened.
        Game.objects.filter(division=division, round_number=1).update(status=GameStatus.DISPUTED)
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert "not confirmed" in run.error
    assert ratings_of(rating_list, four) == [1800, 1650, 1500, 1400]


def test_ratings_as_of_a_date(rating_list, four):
    event = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(10))
    play(event, round_robin(four))
    services.rate_event(event)
    before = services.ratings_as_of(rating_list, days_ago(11), [p.pk for p in four])
    after = services.ratings_as_of(rating_list, days_ago(0), [p.pk for p in four])
    assert before == {p.pk: (r, 120) for p, r in zip(four, [1800, 1650, 1500, 1400], strict=True)}
    assert after == {p.pk: tuple(PlayerRating.objects.filter(player=p).values_list("rating", "games")[0]) for p in four}


def test_rating_is_queued_only_when_every_division_is_finalised(rating_list, four, on_commit):
    from django.utils import timezone

    event = RatedEventFactory(rating_list=rating_list)
    first = play(event, round_robin(four), name="A")
    second = play(event, round_robin(PlayerFactory.create_batch(4)), name="B", status=GameStatus.SUBMITTED)
    first.finalised_at = timezone.now()
    first.save()
    assert services.queue_rating_if_complete(event) is None  # division B still playing

    Game.objects.filter(division=second).update(status=GameStatus.CONFIRMED)
    second.finalised_at = timezone.now()
    second.save()
    with on_commit(execute=True):
        run = services.queue_rating_if_complete(event)
    run.refresh_from_db()
    assert run.status == RunStatus.DONE
    assert RatingChange.objects.filter(division__event=event).count() == 8


def test_rerate_command(rating_list, four):
    import io

    from django.core.management import call_command

    event = RatedEventFactory(rating_list=rating_list)
    play(event, round_robin(four))
    services.rate_event(event)
    before = ratings_of(rating_list, four)
    out = io.StringIO()
    call_command("rerate_ratings", rating_list.slug, "--from", days_ago(100).isoformat(), stdout=out)
    assert "1 events, 4 players re-rated" in out.getvalue()
    assert ratings_of(rating_list, four) == before


def test_a_division_from_a_tsh_file_is_rated_as_tsh_did(rating_list):
    """The whole of a real 23-round event, rated through the site: tsh's own final ratings."""
    from pathlib import Path

    from events.play.core.tsh import read_t

    path = (
        Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "tsh" / "jvc56_tpa_86aeb79_test_data_a.t"
    )
    if not path.exists():
        pytest.skip("the shared tsh fixtures are not available next to the project")
    tfile = read_t(path)
    people = PlayerFactory.create_batch(len(tfile.players))
    for person, p in zip(people, tfile.players, strict=True):
        if p.rating:
            seed(rating_list, person, p.rating, games=p.lifeg if p.lifeg is not None else 100)
    games = []
    for i, p in enumerate(tfile.players):
        for rnd, (opp, score) in enumerate(zip(p.opponents, p.scores, strict=False), start=1):
            if opp == 0:
                games.append((rnd, people[i], None, score))
            elif opp - 1 > i:
                games.append((rnd, people[i], people[opp - 1], score, tfile.players[opp - 1].scores[rnd - 1]))
    event = RatedEventFactory(rating_list=rating_list, number_of_games=tfile.rounds_played())
    play(event, games, seats=people)

    services.rate_event(event)

    got = dict(PlayerRating.objects.filter(rating_list=rating_list).values_list("player_id", "rating"))
    assert [got.get(person.pk, 0) for person in people] == [p.newr[-1] if p.newr else 0 for p in tfile.players]


def test_asking_twice_before_the_run_starts_queues_one_run(rating_list, four):
    event = RatedEventFactory(rating_list=rating_list)
    play(event, round_robin(four))
    first = services.queue_rating_run(event)  # not committed yet, so not started
    second = services.queue_rating_run(event)
    assert first.pk == second.pk
    assert RatingRun.objects.filter(event=event).count() == 1


def test_finalising_the_last_division_rates_the_event(rating_list, four, on_commit):
    from events.play.services import finalise_division

    event = RatedEventFactory(rating_list=rating_list)
    first = play(event, round_robin(four), name="A")
    second = play(event, round_robin(PlayerFactory.create_batch(4)), name="B")
    with on_commit(execute=True):
        finalise_division(event.owner, first)
    assert not RatingChange.objects.exists()
    with on_commit(execute=True):
        finalise_division(event.owner, second)
    assert RatingChange.objects.filter(division__event=event).count() == 8
    assert RatingRun.objects.get(event=event).status == RunStatus.DONE


def test_a_corrected_result_of_a_rated_event_is_re_rated(rating_list, four, on_commit):
    from django.utils import timezone

    first = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(60))
    second = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(20))
    division = play(first, round_robin(four))
    play(second, round_robin(four))
    for event in (first, second):
        event.divisions.update(finalised_at=timezone.now())
        services.rate_event(event)
    before = dict(RatingChange.objects.filter(division__event=second).values_list("player_id", "post"))

    Game.objects.filter(division=division, player_a=four[0], player_b=four[3]).update(score_a=200, score_b=500)
    with on_commit(execute=True):
        run = services.result_corrected(first)
    run.refresh_from_db()
    assert run.status == RunStatus.DONE and run.reason.startswith("Result corrected")
    assert dict(RatingChange.objects.filter(division__event=second).values_list("player_id", "post")) != before

    # An event made unrated afterwards is taken off the list, and later events re-rated without it.
    type(first).objects.filter(pk=first.pk).update(rated=False)
    first.refresh_from_db()
    with on_commit(execute=True):
        services.result_corrected(first)
    assert not RatingChange.objects.filter(division__event=first).exists()
    pre = dict(RatingChange.objects.filter(division__event=second).values_list("player_id", "pre"))
    assert pre == {p.pk: r for p, r in zip(four, [1800, 1650, 1500, 1400], strict=True)}
