"""Whole-number columns read at once (a binary COPY on PostgreSQL), as the values_list they replace."""

import numpy as np
import pytest
from django.db import connection

from events.play.models import Division, DivisionPlayer
from players.models import Player
from ratings.services.columns import int_columns
from tests.events.factories import EventFactory
from tests.factories import PlayerFactory, UserFactory


@pytest.mark.django_db
def test_int_columns_are_the_values_list():
    # On PostgreSQL (CI) through the binary COPY; elsewhere through values_list.
    players = PlayerFactory.create_batch(5)
    division = Division.objects.create(event=EventFactory(), name="A")
    for number, player in enumerate(players, start=1):
        DivisionPlayer.objects.create(division=division, player=player, number=number * 3, rating=1000)
    seated = DivisionPlayer.objects.filter(division=division)
    expected = sorted(seated.values_list("division_id", "player_id", "number"))
    found = int_columns(seated, "division_id", "player_id", "number")
    assert found.dtype == np.int64 and found.shape == (5, 3)
    assert sorted(map(tuple, found.tolist())) == expected
    assert int_columns(seated.filter(number__gt=99), "player_id", "number").shape == (0, 2)
    assert sorted(int_columns(Player.objects.all(), "pk")[:, 0].tolist()) == sorted(p.pk for p in players)


@pytest.mark.django_db
def test_a_null_is_refused_not_left_out():
    PlayerFactory(user=None)
    PlayerFactory(user=UserFactory())
    if connection.vendor == "postgresql":
        with pytest.raises(ValueError, match="NULL"):
            int_columns(Player.objects.all(), "pk", "user_id")
    assert int_columns(Player.objects.exclude(user=None), "pk", "user_id").shape == (1, 2)
