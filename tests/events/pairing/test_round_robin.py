from collections import Counter
from itertools import combinations

import pytest

from events.play.core.pairing import PairingError, PairingOptions, pair_round
from events.play.core.pairing.schedules import circle_round

from . import assert_complete, field_of


def rr_rounds(system: str, n: int, rounds: int, start_round: int = 1) -> list:
    players = field_of(n)
    results = []
    for r in range(start_round, start_round + rounds):
        result = pair_round(system, players, [], PairingOptions(round=r, start_round=start_round, seed=3))
        assert_complete(result, players)
        results.append(result)
    return results


@pytest.mark.parametrize("n", range(2, 15))
def test_every_pair_meets_exactly_once_per_cycle(n: int) -> None:
    per_cycle = n - 1 if n % 2 == 0 else n
    results = rr_rounds("round_robin", n, per_cycle)
    met = Counter(frozenset(pair) for result in results for pair in result.pairs)
    assert set(met) == {frozenset(c) for c in combinations(range(1, n + 1), 2)}
    assert set(met.values()) == {1}
    byes = [result.bye for result in results if result.bye is not None]
    if n % 2:
        assert sorted(byes) == list(range(1, n + 1))  # each player sits out exactly once
    else:
        assert byes == []


@pytest.mark.parametrize("n", [4, 7, 10])
def test_double_round_robin_meets_twice(n: int) -> None:
    per_cycle = n - 1 if n % 2 == 0 else n
    results = rr_rounds("double_round_robin", n, 2 * per_cycle)
    met = Counter(frozenset(pair) for result in results for pair in result.pairs)
    assert set(met.values()) == {2}
    assert len(met) == n * (n - 1) // 2


def test_player_one_stays_fixed_and_meets_everyone_in_order() -> None:
    slots = [1, 2, 3, 4, 5, 6]
    assert [circle_round(slots, t)[0][0] for t in range(5)] == [1] * 5
    assert [circle_round(slots, t)[0][1] for t in range(5)] == [6, 5, 4, 3, 2]


def test_round_robin_past_its_end_is_an_error() -> None:
    with pytest.raises(PairingError, match="has 3 rounds"):
        pair_round("round_robin", field_of(4), [], PairingOptions(round=4))


def test_round_robin_can_start_later_in_the_event() -> None:
    early = rr_rounds("round_robin", 6, 5)
    late = rr_rounds("round_robin", 6, 5, start_round=4)
    assert [set(map(frozenset, r.pairs)) for r in early] == [set(map(frozenset, r.pairs)) for r in late]


def test_schedule_follows_seed_not_list_order() -> None:
    players = field_of(6)
    shuffled = [players[3], players[0], players[5], players[1], players[4], players[2]]
    a = pair_round("round_robin", players, [], PairingOptions(round=2, seed=1))
    b = pair_round("round_robin", shuffled, [], PairingOptions(round=2, seed=1))
    assert set(map(frozenset, a.pairs)) == set(map(frozenset, b.pairs))
