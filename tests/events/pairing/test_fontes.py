from collections import Counter
from itertools import combinations

import pytest

from events.play.core.pairing import PairingError, PairingOptions, pair_round
from events.play.core.pairing.schedules import initial_fontes_groups
from events.play.core.results import Game

from . import assert_complete, field_of, win


@pytest.mark.parametrize("n,rounds", [(8, 3), (12, 3), (16, 3), (10, 3), (14, 3), (24, 5), (9, 3), (13, 5)])
def test_initial_fontes_plays_a_round_robin_in_each_group(n: int, rounds: int) -> None:
    players = field_of(n)
    results = [
        pair_round("initial_fontes", players, [], PairingOptions(round=r, fontes_rounds=rounds, seed=1))
        for r in range(1, rounds + 1)
    ]
    met = Counter(frozenset(p) for result in results for p in result.pairs)
    assert set(met.values()) == {1}  # no repeats
    for result in results:
        assert_complete(result, players)
    groups = initial_fontes_groups([p.id for p in players], rounds)
    for group in groups:
        real = [p for p in group if p is not None]
        if len(group) == rounds + 1:
            # A full group meets completely.
            for pair in combinations(real, 2):
                assert met[frozenset(pair)] == 1


def test_groups_take_one_player_from_each_rating_band() -> None:
    groups = initial_fontes_groups(list(range(1, 13)), 3)
    # 12 players, 4 bands of 3: {1,2,3} {4,5,6} {7,8,9} {10,11,12}.
    assert groups == [[1, 4, 7, 10], [2, 5, 8, 11], [3, 6, 9, 12]]


def test_leftovers_join_groups_in_twos() -> None:
    groups = initial_fontes_groups(list(range(1, 11)), 3)
    assert groups == [[1, 3, 5, 7, 9, 10], [2, 4, 6, 8]]


def test_odd_field_gets_a_phantom() -> None:
    groups = initial_fontes_groups(list(range(1, 8)), 3)
    assert groups == [[1, 3, 5, 7], [2, 4, 6, None]]


def test_groups_follow_rating_not_list_order() -> None:
    players = field_of(8)
    a = pair_round("initial_fontes", players, [], PairingOptions(round=1))
    b = pair_round("initial_fontes", list(reversed(players)), [], PairingOptions(round=1, seed=a.seed))
    assert a.pairs == b.pairs


def test_too_few_players_or_rounds_out_of_block() -> None:
    with pytest.raises(PairingError, match="at least 6 players"):
        pair_round("initial_fontes", field_of(4), [], PairingOptions(round=1, fontes_rounds=5))
    with pytest.raises(PairingError, match="covers 3 rounds"):
        pair_round("initial_fontes", field_of(8), [], PairingOptions(round=4))
    with pytest.raises(ValueError, match="odd number"):
        PairingOptions(round=1, fontes_rounds=4)


def test_fontes_pairing_from_two_rounds_back() -> None:
    players = field_of(4)
    # Round 1 played: 4 and 3 won big. Round 2 posted, not played (pending games).
    history = [
        win(1, 4, 1, 200),
        win(1, 3, 2, 100),
        Game(round=2, player_a=4, player_b=3),
        Game(round=2, player_a=1, player_b=2),
    ]
    result = pair_round("koth", players, history, PairingOptions(round=3, based_on_round=1))
    # Order after round 1: 4, 3, 2, 1. 4v3 and 1v2 are round 2's (pending) games,
    # so not again: the closest is 4v2, 3v1.
    assert {frozenset(p) for p in result.pairs} == {frozenset((4, 2)), frozenset((3, 1))}
