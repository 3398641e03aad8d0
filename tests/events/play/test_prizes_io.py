"""Prizes from the event's prize table: rating-band class prizes and the one-prize-per-player setting."""

import pytest

from events.models import PrizeKind
from events.play import services as play
from events.play.models import Division
from events.play.services import prizes as prizes_io
from tests.events.factories import CategoryFactory, PrizeFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(director, make_division):
    """Four players rated 1990, 1980, 1970, 1960; the lowest rated two win their games."""
    division = make_division(4)
    category = CategoryFactory(event=division.event)
    Division.objects.filter(pk=division.pk).update(category=category)
    division.refresh_from_db()
    rnd = play.pair_round(director, division, "random", seed=3)
    play.publish_round(director, rnd)
    for margin, game in zip((150, 100), rnd.games.order_by("board"), strict=True):  # no ties in the standings
        low_first = game.player_a.seats.get().number > game.player_b.seats.get().number
        win, loss = 300 + margin, 300
        play.submit_result(director, game, win if low_first else loss, loss if low_first else win)
    return division, category


def test_a_class_prize_by_rating_band_goes_to_the_best_player_in_the_band(played):
    division, category = played
    PrizeFactory(category=category, rank_from=1, rank_to=1, description="Trophy")
    PrizeFactory(category=category, kind=PrizeKind.CLASS, rank_from=None, rank_to=None, description="Best under 1985",
                 class_min_rating=None, class_max_rating=1985)  # fmt: skip
    report = prizes_io.division_prizes(division)
    winners = {row.description: [s.rating for s in row.seats] for row in report.awards}
    first = winners["Trophy"][0]
    assert first in (1970, 1960)  # a winner of the round
    # One prize each: the class prize goes to the best-placed player in the band who has none yet.
    table = [r.seat.rating for r in play.standings(division)]
    expected = next(r for r in table if r <= 1985 and r != first)
    assert winners["Best under 1985"] == [expected]


def test_the_event_says_whether_a_player_may_win_several_prizes(client, played):
    division, category = played
    PrizeFactory(category=category, rank_from=1, rank_to=1, description="Trophy")
    PrizeFactory(category=category, kind=PrizeKind.CLASS, rank_from=None, rank_to=None, description="Best of all",
                 class_min_rating=0)  # fmt: skip
    from django.urls import reverse

    url = reverse("events:play_prizes", args=[division.event.slug, division.pk])
    assert "A player wins at most one prize" in client.get(url).content.decode()
    division.event.one_prize_per_player = False
    division.event.save()
    assert "Players may win several prizes" in client.get(url).content.decode()
