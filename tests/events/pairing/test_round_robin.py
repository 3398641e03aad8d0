from collections import Counter
from itertools import combinations

import pytest

from events.play.core.pairing import PairingError, PairingOptions, pair_round
from events.play.core.pairing.schedules import berger_round, berger_starts, circle_round

from . import assert_complete, field_of, win


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


def test_double_round_robin_plays_each_berger_round_twice_in_a_row_with_the_starts_swapped() -> None:
    # tsh's `rr 2`: rounds 1 and 2 are Berger round 1 (seed 1 v the last seed), rounds 3 and 4 Berger
    # round 2, ...; whoever went first in a pair's first game goes second in its second.
    players = field_of(4)
    games, results = [], []
    for r in range(1, 7):
        result = pair_round("double_round_robin", players, games, PairingOptions(round=r, seed=11))
        results.append(result)
        games += [win(r, a, b, first=a) for a, b in result.pairs]
    rounds = [{frozenset(p) for p in res.pairs} for res in results]
    assert rounds[0] == rounds[1] == {frozenset((1, 4)), frozenset((3, 2))}
    assert rounds[2] == rounds[3] == {frozenset((1, 3)), frozenset((2, 4))}
    assert rounds[4] == rounds[5] == {frozenset((1, 2)), frozenset((3, 4))}
    for first, second in [(0, 1), (2, 3), (4, 5)]:
        assert {(b, a) for a, b in results[first].pairs} == set(results[second].pairs)


def test_player_one_stays_fixed_and_meets_everyone_in_order() -> None:
    slots = [1, 2, 3, 4, 5, 6]
    assert [circle_round(slots, t)[0][0] for t in range(5)] == [1] * 5
    assert [circle_round(slots, t)[0][1] for t in range(5)] == [6, 5, 4, 3, 2]
    assert [berger_round(slots, t)[0] for t in range(5)] == [(1, 6), (1, 5), (1, 4), (1, 3), (1, 2)]


def tsh_berger_schedule(n: int) -> list[set[frozenset[int]]]:
    """tsh's round robin for seeds 1..n, built the way tsh builds it, independently of the site.

    The Berger table for an even count m (n, or n + 1 with seed m the bye) is
    3 5 ... m-1 m m-2 ... 4 2; for seed 1's opponent o (m, m-1, ..., 2 in
    turn) the table is rolled until o leads, seed 1 joins it at the end (or
    at the front, o then moving to the end: the pairs are the same), and the
    table is read from both ends at once: first with last, second with last
    but one, ...
    """
    m = n + n % 2
    table: list[int] = []
    k = m
    while k > 0:
        table.append(k)
        table.insert(0, k - 1)
        k -= 2
    table.pop(0)  # seed 1 is added to each round
    rounds = []
    for opponent in range(m, 1, -1):
        at = table.index(opponent)
        rolled = table[at:] + table[:at] + [1]
        pairs = {frozenset((rolled[i], rolled[m - 1 - i])) for i in range(m // 2)}
        rounds.append({pair for pair in pairs if m not in pair or m == n})
    return rounds


def site_schedule(n: int) -> list[set[frozenset[int]]]:
    per_cycle = n - 1 if n % 2 == 0 else n
    return [set(map(frozenset, r.pairs)) for r in rr_rounds("round_robin", n, per_cycle)]


@pytest.mark.parametrize("n", range(4, 17))
def test_round_robin_is_tsh_schedule_round_by_round(n: int) -> None:
    """Issue 25: every round, every board, for 4 to 16 players (123 rounds, 676 boards)."""
    assert site_schedule(n) == tsh_berger_schedule(n)


def test_round_robin_of_five_by_hand() -> None:
    rounds = [r.pairs for r in rr_rounds("round_robin", 5, 5)]
    byes = [r.bye for r in rr_rounds("round_robin", 5, 5)]
    assert [set(map(frozenset, r)) for r in rounds] == [
        {frozenset({4, 5}), frozenset({2, 3})},
        {frozenset({1, 5}), frozenset({2, 4})},
        {frozenset({1, 4}), frozenset({3, 5})},
        {frozenset({1, 3}), frozenset({2, 5})},
        {frozenset({1, 2}), frozenset({3, 4})},
    ]
    assert byes == [1, 3, 2, 4, 5]


def test_round_robin_of_seven_by_hand() -> None:
    results = rr_rounds("round_robin", 7, 7)
    assert [set(map(frozenset, r.pairs)) for r in results] == [
        {frozenset(p) for p in [(6, 7), (4, 5), (2, 3)]},
        {frozenset(p) for p in [(1, 7), (6, 3), (4, 2)]},
        {frozenset(p) for p in [(1, 6), (2, 7), (3, 5)]},
        {frozenset(p) for p in [(1, 5), (7, 3), (6, 4)]},
        {frozenset(p) for p in [(1, 4), (2, 6), (5, 7)]},
        {frozenset(p) for p in [(1, 3), (5, 2), (7, 4)]},
        {frozenset(p) for p in [(1, 2), (3, 4), (5, 6)]},
    ]
    assert [r.bye for r in results] == [1, 5, 4, 2, 3, 6, 7]


def test_round_robin_of_eight_by_hand_ends_king_of_the_hill() -> None:
    results = rr_rounds("round_robin", 8, 7)
    assert [set(map(frozenset, r.pairs)) for r in results] == [
        {frozenset(p) for p in [(1, 8), (6, 7), (4, 5), (2, 3)]},
        {frozenset(p) for p in [(1, 7), (8, 5), (6, 3), (4, 2)]},
        {frozenset(p) for p in [(1, 6), (4, 8), (2, 7), (3, 5)]},
        {frozenset(p) for p in [(1, 5), (7, 3), (8, 2), (6, 4)]},
        {frozenset(p) for p in [(1, 4), (2, 6), (3, 8), (5, 7)]},
        {frozenset(p) for p in [(1, 3), (5, 2), (7, 4), (8, 6)]},
        {frozenset(p) for p in [(1, 2), (3, 4), (5, 6), (7, 8)]},
    ]


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


def test_berger_starts_follow_tsh_s_row() -> None:
    # Four seeds: tsh's ring is 3, 4, 2. Round 1 (seed 1 meets 4): 4 sits at place 1 (odd), so the row is
    # 1, 2, 3, 4 and its ends pair inwards, the front starting: 1 v 4, 2 v 3. Round 2 (1 meets 3, place 0):
    # 3, 4, 2, 1: 3 v 1, 4 v 2. Round 3 (1 meets 2, place 2): 2, 3, 4, 1: 2 v 1, 3 v 4.
    slots = [1, 2, 3, 4]
    assert [berger_starts(slots, t, False) for t in range(3)] == [
        [(1, 4), (2, 3)],
        [(3, 1), (4, 2)],
        [(2, 1), (3, 4)],
    ]
    # The other way round, every pair starts the other way.
    assert [berger_starts(slots, t, True) for t in range(3)] == [
        [(4, 1), (3, 2)],
        [(1, 3), (2, 4)],
        [(1, 2), (4, 3)],
    ]


def test_berger_starts_turn_every_other_pair_from_the_third() -> None:
    # Six seeds, round 1 (1 meets 6): the ring 3, 5, 6, 4, 2 turned to 6 (place 2, even) with 1 at the
    # back: 6, 4, 2, 3, 5, 1. Pairs 6 v 1, 4 v 5, then 2 v 3 the other way round: 3 starts.
    assert berger_starts([1, 2, 3, 4, 5, 6], 0, False) == [(6, 1), (4, 5), (3, 2)]


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 10, 12, 20])
def test_berger_starts_are_the_berger_pairs_and_balanced_over_the_schedule(n: int) -> None:
    slots = list(range(1, n + 1)) + ([None] if n % 2 else [])
    starts: Counter = Counter()
    for t in range(len(slots) - 1):
        for flip in (False, True):
            assert [frozenset(p) for p in berger_starts(slots, t, flip)] == [
                frozenset(p) for p in berger_round(slots, t)
            ]
        starts.update(a for a, b in berger_starts(slots, t, False) if a is not None and b is not None)
    games = len(slots) - 1 - (n % 2)  # the phantom's opponent sits out once
    # An even field: starts and replies within one of each other. An odd field loses the game each player
    # would have had against the phantom, so tsh's schedule leaves them within two (5 seeds: 1 to 3 of 4).
    slack = 2 if n % 2 else 1
    assert all(abs(starts[p] - (games - starts[p])) <= slack for p in range(1, n + 1))


def test_a_round_robin_keeps_its_schedule_s_way_round() -> None:
    players = field_of(4)
    first = pair_round("round_robin", players, [], PairingOptions(round=1, seed=11))
    flipped = {a for a, _ in first.pairs} == {4, 3}
    assert {a for a, _ in first.pairs} == ({4, 3} if flipped else {1, 2})
    games = [win(1, a, b, first=a) for a, b in first.pairs]
    second = pair_round("round_robin", players, games, PairingOptions(round=2, seed=99))
    # Round 2 of the schedule is 3 v 1 and 4 v 2: 3 and 4 start unless the block runs the other way.
    assert {a for a, _ in second.pairs} == ({1, 2} if flipped else {3, 4})


def test_earlier_meetings_of_the_first_two_seeds_set_the_way_round() -> None:
    # Seeds 1 and 2 met before the block and 1 started: tsh's schedule runs the other way round, so
    # round 1 of the block has 4 starting against 1 and 3 against 2, and its last round 1 against 2.
    players = field_of(4)
    before = [win(1, 1, 2, first=1), win(1, 3, 4, first=3)]
    for seed in range(6):
        block = pair_round("round_robin", players, before, PairingOptions(round=2, start_round=2, seed=seed))
        assert sorted(block.pairs) == [(3, 2), (4, 1)]
    games = before + [win(2, a, b, first=a) for a, b in block.pairs]
    games += [win(3, 1, 3, first=1), win(3, 2, 4, first=2)]
    last = pair_round("round_robin", players, games, PairingOptions(round=4, start_round=2, seed=0))
    assert sorted(last.pairs) == [(1, 2), (4, 3)]


def test_boards_go_by_the_higher_placed_player_of_each_pair() -> None:
    # Round 1 (1 v 6, 4 v 5, 2 v 3): 6 beat 1 by 100, 5 beat 4 by 50, 3 beat 2 by 10: standings 6, 5, 3,
    # 2, 4, 1. Round 2 of the Berger schedule is 1 v 5, 6 v 3, 4 v 2; their higher-placed players stand
    # 2nd, 1st and 4th, so the boards are 6 v 3, then 1 v 5, then 4 v 2 (tsh's pairings list numbers
    # them the same way).
    players = field_of(6)
    games = [win(1, 6, 1, 100, first=6), win(1, 5, 4, 50, first=4), win(1, 3, 2, 10, first=3)]
    result = pair_round("round_robin", players, games, PairingOptions(round=2, seed=0))
    assert [frozenset(p) for p in result.pairs] == [frozenset({6, 3}), frozenset({1, 5}), frozenset({4, 2})]
    # Round 1 started as the schedule's row runs (6, 4 and 3), so round 2 does too: the row is 1, 6, 4, 2,
    # 3, 5, giving 1 v 5 and 6 v 3 front first, and the third pair the other way round: 2 starts against 4.
    assert result.pairs == [(6, 3), (1, 5), (2, 4)]
