"""What rating reads of many events, a division at a time: on PostgreSQL (CI) packed by the database, elsewhere
built from the ORM's rows; either way the same numbers as the games and seats hold."""

import numpy as np
import pytest

from events.play.models import Game, GameKind, GameStatus
from ratings.services.division_reads import division_games, division_seats
from tests.events.factories import EventFactory
from tests.factories import PlayerFactory

from .factories import play


@pytest.mark.django_db
def test_each_divisions_rated_games_in_round_order_with_what_is_not_rated_left_out():
    p = PlayerFactory.create_batch(4)
    event = EventFactory()
    # Entered out of round order, with a bye, a forfeit and a result not yet confirmed.
    first = play(event, [(2, p[0], p[1], 400, 410), (1, p[2], p[3], -5, 350), (1, p[0], p[1], 380, 300)])
    Game.objects.filter(division=first, round_number=2).update(round_number=3)
    second = play(event, [(1, p[0], None, 50), (1, p[1], p[2], 390, 390), (2, p[1], p[2], 400, 300)], name="B")
    Game.objects.filter(division=second, round_number=2).update(kind=GameKind.FORFEIT)
    third = play(EventFactory(), [(1, p[0], p[3], 400, 300), (2, p[0], p[3], 410, 300)], name="C")
    Game.objects.filter(division=third, round_number=2).update(status=GameStatus.SUBMITTED)
    play(EventFactory(), [(1, p[0], p[1], 400, 300)], name="elsewhere")

    found = {d.division_id: d for d in division_games([first.event_id, third.event_id])}

    assert set(found) == {first.pk, second.pk, third.pk}
    a = found[first.pk]
    assert (a.event_id, a.last_round, a.unconfirmed) == (event.pk, 3, 0)
    assert a.rated.dtype == np.int64
    # Round index (0-based), player a, player b, score a, score b: round 1's two games in the order entered.
    assert a.rated.tolist() == [
        [0, p[2].pk, p[3].pk, -5, 350],
        [0, p[0].pk, p[1].pk, 380, 300],
        [2, p[0].pk, p[1].pk, 400, 410],
    ]
    b = found[second.pk]
    assert (b.last_round, b.unconfirmed) == (2, 0)
    assert b.rated.tolist() == [[0, p[1].pk, p[2].pk, 390, 390]]  # neither the bye nor the forfeit
    c = found[third.pk]
    assert (c.last_round, c.unconfirmed) == (2, 1)
    assert c.rated.tolist() == [[0, p[0].pk, p[3].pk, 400, 300]]
    assert division_games([]) == []


@pytest.mark.django_db
def test_each_divisions_seats_by_increasing_player_id():
    p = PlayerFactory.create_batch(3)
    division = play(EventFactory(), [(1, p[2], p[0], 400, 300), (1, p[1], None, 50)])
    empty = play(EventFactory(), [], name="B")

    seats = division_seats([division.event_id, empty.event_id])

    assert set(seats) == {division.pk}
    players, numbers = seats[division.pk]
    assert players.tolist() == sorted(q.pk for q in p)
    by_player = dict(zip(players.tolist(), numbers.tolist(), strict=True))
    assert by_player == {p[2].pk: 1, p[0].pk: 2, p[1].pk: 3}  # numbered in order of appearance
