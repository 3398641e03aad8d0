"""Lists kept with other systems: WESPA, ABSP and Glicko-2 rate through the same runs."""

import pytest

from ratings import services
from ratings.engine import absp, glicko2
from ratings.engine.common import DivisionInput, RatingOptions
from ratings.engine.wespa import rate_wespa
from ratings.models import PlayerRating, RatingChange
from tests.factories import PlayerFactory

from .factories import RatedEventFactory, RatingListFactory, days_ago, play, round_robin, seed

pytestmark = pytest.mark.django_db

PRE = [1800, 1650, 1500, 1400]


def setup(system, **settings):
    rating_list = RatingListFactory(system=system, settings=settings)
    players = PlayerFactory.create_batch(4)
    for p, r in zip(players, PRE, strict=True):
        seed(rating_list, p, r, games=120)
    event = RatedEventFactory(rating_list=rating_list)
    games = round_robin(players, upsets={(0, 3)})
    play(event, games)
    services.rate_event(event)
    index = {p.pk: i for i, p in enumerate(players)}
    return rating_list, players, [(index[g[1].pk], index[g[2].pk], g[3], g[4], g[0] - 1) for g in games]


def current(rating_list, players):
    rows = dict(PlayerRating.objects.filter(rating_list=rating_list).values_list("player_id", "rating"))
    return [rows[p.pk] for p in players]


def test_wespa_list_is_rated_as_the_engine_does():
    rating_list, players, games = setup("wespa")
    a, b, sa, sb, rnd = zip(*games, strict=True)
    expected = rate_wespa(DivisionInput(PRE, [120] * 4, a, b, sa, sb, rnd), RatingOptions())
    assert current(rating_list, players) == [p.new_rating for p in expected.players]


def test_absp_list_averages_game_values():
    rating_list, players, games = setup("absp")
    a, b, sa, sb, _ = zip(*games, strict=True)
    event = absp.rate_event([float(r) for r in PRE], a, b, sa, sb)
    for i, _p in enumerate(players):
        values = [float(PRE[i])] * 120 + event[i].game_values
        assert current(rating_list, players)[i] == int(absp.published_rating(values[-150:]) + 0.5)
    change = RatingChange.objects.get(player=players[0])
    assert change.expected is None
    assert change.performance == pytest.approx(sum(event[0].game_values) / 3)


def test_glicko2_list_keeps_deviation_and_re_rates_the_same():
    rating_list, players, games = setup("glicko2", tau=0.5)
    mine = [glicko2.Glicko2Rating(r, 350.0, 0.06) for r in PRE]
    opponents = {i: [] for i in range(4)}
    for x, y, sx, sy, _ in games:
        w = 1.0 if sx > sy else 0.0
        opponents[x].append((mine[y], w))
        opponents[y].append((mine[x], 1.0 - w))
    expected = [
        glicko2.update(mine[i], [o for o, _ in opponents[i]], [s for _, s in opponents[i]], 0.5) for i in range(4)
    ]
    assert current(rating_list, players) == [int(e.rating + 0.5) for e in expected]
    row = PlayerRating.objects.get(rating_list=rating_list, player=players[0])
    assert row.deviation == pytest.approx(expected[0].rd)

    # A second event starts from the carried deviation; re-rating reproduces it exactly.
    second = RatedEventFactory(rating_list=rating_list, starts_on=days_ago(5))
    play(second, round_robin(players))
    services.rate_event(second)
    after = list(PlayerRating.objects.values_list("player_id", "rating", "deviation", "state"))
    services.rerate_from(rating_list, days_ago(365))
    assert list(PlayerRating.objects.values_list("player_id", "rating", "deviation", "state")) == after


def test_settings_a_system_cannot_use_are_refused_clearly():
    from clubsite.kit.errors import ServiceError

    with pytest.raises(ServiceError, match="tau, initial_rd and initial_volatility must be numbers"):
        setup("glicko2", tau="fast")
    assert not RatingChange.objects.exists()


def glicko2_seasons(first_day, second_day, **settings):
    """Two round robins of the same four players on a Glicko-2 list: each player's state after the
    first, and their ratings and deviations stored after the second."""
    rating_list = RatingListFactory(system="glicko2", settings={"tau": 0.5, **settings})
    players = PlayerFactory.create_batch(4)
    first = RatedEventFactory(rating_list=rating_list, starts_on=first_day)
    play(first, round_robin(players, upsets={(0, 3)}))
    services.rate_event(first)
    states = dict(PlayerRating.objects.filter(rating_list=rating_list).values_list("player_id", "state"))
    after_first = {
        c.player_id: glicko2.Glicko2Rating(c.post, states[c.player_id]["rd"], states[c.player_id]["vol"])
        for c in RatingChange.objects.filter(division__event=first)
    }
    second = RatedEventFactory(rating_list=rating_list, starts_on=second_day)
    games = round_robin(players)
    play(second, games)
    services.rate_event(second)
    stored = {c.player_id: (c.post, c.deviation) for c in RatingChange.objects.filter(division__event=second)}
    return rating_list, players, games, after_first, stored, states


def expected_after(players, games, start):
    opponents = {p.pk: [] for p in players}
    for _, x, y, sx, sy in games:
        w = 1.0 if sx > sy else 0.0
        opponents[x.pk].append((start[y.pk], w))
        opponents[y.pk].append((start[x.pk], 1.0 - w))
    out = {}
    for p in players:
        new = glicko2.update(start[p.pk], [o for o, _ in opponents[p.pk]], [s for _, s in opponents[p.pk]], 0.5)
        out[p.pk] = (int(new.rating + 0.5), new.rd)
    return out


def test_glicko2_deviation_grows_over_the_months_a_player_did_not_play():
    from datetime import date

    _list, players, games, after_first, stored, states = glicko2_seasons(date(2024, 1, 20), date(2024, 5, 3))
    assert {s["month"] for s in states.values()} == {2024 * 12}
    # February, March and April passed without play: three idle periods, every player's (and so
    # every opponent's) deviation widened three times before May's event.
    start = {pid: glicko2.idle(r, 3, 350.0) for pid, r in after_first.items()}
    assert all(start[pid].rd > after_first[pid].rd for pid in start)
    expected = expected_after(players, games, start)
    assert {pid: post for pid, (post, _) in stored.items()} == {pid: post for pid, (post, _) in expected.items()}
    for pid, (_, rd) in stored.items():
        assert rd == pytest.approx(expected[pid][1], rel=1e-12)


@pytest.mark.parametrize(
    "second_day, options",
    [("2024-01-28", {}), ("2024-02-03", {}), ("2024-03-30", {"rating_period_months": 3})],
    ids=["same month", "next month", "same quarter"],
)
def test_glicko2_deviation_does_not_grow_without_an_idle_period(second_day, options):
    from datetime import date

    day = date.fromisoformat(second_day)
    _list, players, games, after_first, stored, _ = glicko2_seasons(date(2024, 1, 20), day, **options)
    expected = expected_after(players, games, after_first)
    assert {pid: post for pid, (post, _) in stored.items()} == {pid: post for pid, (post, _) in expected.items()}
    for pid, (_, rd) in stored.items():
        assert rd == pytest.approx(expected[pid][1], rel=1e-12)


def test_glicko2_rating_period_must_be_whole_months():
    from clubsite.kit.errors import ServiceError

    with pytest.raises(ServiceError, match="rating_period_months must be a whole number of months"):
        setup("glicko2", rating_period_months=0.5)
