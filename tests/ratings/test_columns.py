"""Whole-number columns read at once (a binary COPY on PostgreSQL), as the values_list they replace."""

import numpy as np
import pytest

from events.models import Division, DivisionPlayer
from players.models import Player
from ratings.services.columns import _parse, int_columns
from tests.events.factories import EventFactory
from tests.factories import PlayerFactory


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


def test_a_null_or_another_type_is_refused_not_misread():
    signature = b"PGCOPY\n\xff\r\n\x00" + bytes(8)
    row = (2).to_bytes(2, "big") + (8).to_bytes(4, "big") + (7).to_bytes(8, "big")
    null_row = (2).to_bytes(2, "big") + (8).to_bytes(4, "big") + (7).to_bytes(8, "big")
    good = signature + row + (4).to_bytes(4, "big") + (3).to_bytes(4, "big") + b"\xff\xff"
    assert _parse(good, 2).tolist() == [[7, 3]]
    with_null = signature + row + (4).to_bytes(4, "big") + (3).to_bytes(4, "big")
    with_null += null_row + (-1).to_bytes(4, "big", signed=True) + b"\xff\xff"
    with pytest.raises(ValueError, match="NULL"):
        _parse(with_null, 2)
    text = signature + (1).to_bytes(2, "big") + (5).to_bytes(4, "big") + b"hello" + b"\xff\xff"
    with pytest.raises(ValueError, match="whole number"):
        _parse(text, 1)
