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
    from clubsite.errors import ServiceError

    with pytest.raises(ServiceError, match="tau, initial_rd and initial_volatility must be numbers"):
        setup("glicko2", tau="fast")
    assert not RatingChange.objects.exists()
