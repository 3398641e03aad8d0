"""Swiss pairs as tsh's `ns` does: win groups paired from both ends inwards, each group top half against
bottom half by tsh's search (see `events.play.core.pairing.swiss`)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.play.core import tsh
from events.play.core.pairing import PairingOptions, pair_round
from events.play.core.pairing.core import History
from events.play.core.pairing.swiss import swiss_pairs
from events.play.core.standings import Entrant, compute_standings

from . import bye, field_of, win
from .test_koth_tsh import EIGHT, FIVE, SEVEN
from .tsh_reference import REAL_FILES, SHARED, file_games, games_of, tsh_swiss


def as_sets(pairs):
    return {frozenset(p) for p in pairs}


def shared(name: str) -> tsh.TshFile:
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"{path} is not here (the shared fixtures live beside the project)")
    return tsh.parse_t(tsh.decode_tsh_bytes(path.read_bytes()))


def rounds_of(f: tsh.TshFile, firsts: bool = False):
    """Each round from the second: the standings order of its players, their wins, and the history before it
    (with the recorded starts when `firsts`)."""
    games = file_games(f) if firsts else games_of(f)
    entrants = [Entrant(id=p.number, rating=p.rating, seed=p.number) for p in f.players]
    for r in range(2, f.rounds_played() + 1):
        playing = {p.number for p in f.players if len(p.opponents) >= r and p.opponents[r - 1] > 0}
        past = History(games, r)
        standings = compute_standings(entrants, past.games, through_round=r - 1)
        order = [s.player for s in standings if s.player in playing]
        yield r, order, {s.player: s.wins for s in standings}, past


@pytest.mark.parametrize("firsts", [False, True])
@pytest.mark.parametrize("limit", [0, 1, 2])
@pytest.mark.parametrize("name", REAL_FILES)
def test_real_divisions_round_by_round_as_tsh(name: str, limit: int, firsts: bool) -> None:
    """Each round of a real division, paired again from the standings before it, pair for pair; with
    `firsts`, as tsh pairs when it assigns starts (track_firsts), from the starts the file records."""
    f = shared(name)
    compared = boards = 0
    for r, order, wins, past in rounds_of(f, firsts):
        expected = tsh_swiss(order, wins, past, limit, track_firsts=firsts)
        if expected is None:
            continue
        assert as_sets(swiss_pairs(order, wins, past, limit, firsts)) == as_sets(expected), f"round {r}"
        compared += 1
        boards += len(expected)
    assert compared == f.rounds_played() - 1
    assert boards == sum(len(order) // 2 for _, order, _, _ in rounds_of(f, firsts))
    # The three files: 22 + 5 + 17 rounds, 264 + 105 + 271 boards.
    assert (compared, boards) == {
        "jvc56_tpa_86aeb79_test_data_a.t": (22, 264),
        "e4c5_team_pairings_api_tests_anon1.t": (5, 105),
        "e4c5_team_pairings_tournament1_a.t": (17, 271),
    }[name]


@settings(max_examples=200, deadline=None)
@given(
    n=st.sampled_from([2, 4, 6, 8, 10, 14, 16]),
    steps=st.lists(st.sampled_from([0, 0, 0, 1, 2]), min_size=16, max_size=16),
    meetings=st.lists(st.tuples(st.integers(1, 4), st.integers(0, 15), st.integers(0, 15), st.booleans()), max_size=40),
    limit=st.sampled_from([0, 1, 2]),
    firsts=st.booleans(),
)
def test_swiss_is_tsh_s_search_whenever_the_limit_can_be_kept(n, steps, meetings, limit, firsts) -> None:
    # Wins fall (in half wins) by the drawn steps down the order, so groups of every size occur; each
    # game's winner or loser started, as drawn, so players lean to starting or replying.
    wins, w = {}, 20.0
    for p in range(n):
        w -= steps[p] / 2
        wins[p] = w
    games = [win(r, a, b, first=a if s else b) for r, a, b, s in meetings if a != b and a < n and b < n]
    history = History(games, before_round=5)
    order = list(range(n))
    expected = tsh_swiss(order, wins, history, limit, track_firsts=firsts)
    pairs = swiss_pairs(order, wins, history, limit, firsts)
    if expected is None:
        assert any(history.met(a, b) > limit for a, b in pairs)
    else:
        assert as_sets(pairs) == as_sets(expected)


def test_a_group_of_more_than_twelve_lets_the_most_constrained_choose_first() -> None:
    # One group of 14 (all level); 14 has met 3..13 already and may meet only 1 or 2.
    order = list(range(1, 15))
    wins = dict.fromkeys(order, 3.0)
    history = History([win(r, 14, r + 2) for r in range(1, 12)], before_round=20)
    # 14 has two choices, 3..13 twelve, 1 and 2 thirteen: 14 chooses first and prefers 2 (|14 - 2*12| = 10
    # against 12 for 1); then 3..6 meet the player seven places below (distance 0): 10, 11, 12, 13; 7's best
    # left is 1 (distance 2); 8 v 9 remain.
    assert as_sets(swiss_pairs(order, wins, history, 0)) == as_sets(
        [(14, 2), (3, 10), (4, 11), (5, 12), (6, 13), (7, 1), (8, 9)]
    )


def test_repeats_within_the_limit_keep_the_group_together() -> None:
    # Groups {1, 2} and {3, 4}; 1 and 2 met in round 1. With one repeat allowed tsh keeps the groups
    # (1v2 again, 3v4); with none, 1 takes 3 from the group below and 2 meets 4.
    order = [1, 2, 3, 4]
    wins = {1: 2.0, 2: 2.0, 3: 1.0, 4: 1.0}
    history = History([win(1, 1, 2), win(1, 3, 4)], before_round=3)
    assert as_sets(swiss_pairs(order, wins, history, 1)) == as_sets([(1, 2), (3, 4)])
    assert as_sets(swiss_pairs(order, wins, history, 0)) == as_sets([(1, 3), (2, 4)])


def test_with_starts_assigned_a_player_due_to_reply_meets_one_due_to_start() -> None:
    # One group of four after round 1, in which 1, 3 and 4 started and 2 replied. Half the group away
    # is 1 v 3, 2 v 4; when the event assigns starts tsh first pairs 1 (due to reply) with 2 (due to
    # start), and 3 v 4 are left.
    order = [1, 2, 3, 4]
    wins = dict.fromkeys(order, 1.0)
    history = History([win(1, 1, 5, first=1), win(1, 2, 6, first=6), win(1, 3, 7, first=3), win(1, 4, 8, first=4)], 2)
    assert as_sets(swiss_pairs(order, wins, history, 0)) == as_sets([(1, 3), (2, 4)])
    assert as_sets(swiss_pairs(order, wins, history, 0, firsts=True)) == as_sets([(1, 2), (3, 4)])


# Hand-worked rounds, following tsh's ns step by step (see `events.play.core.pairing.swiss`): the bye
# first (lowest placed of those with fewest rounds without an opponent), then win groups from both ends.


def ns(n, history, round_number, limit):
    return pair_round(
        "swiss", field_of(n), history, PairingOptions(round=round_number, max_repeats=limit, assign_firsts=False)
    )


def test_five_players_by_hand() -> None:
    # After round 2 (test_koth_tsh's FIVE): 1 (2-0 +160), 5 (2-0 +90), 4 (1-1 0), 3 (1-1 -10), 2 (0-2).
    # 2 is the lowest placed of those without a bye (1, 3, 2) and sits out. Groups {1, 5}, {4, 3}.
    # One repeat allowed: 1v5; then {4, 3}, who met in round 1, once, within the limit: 4v3.
    allowed = ns(5, FIVE, 3, 1)
    assert allowed.bye == 2 and as_sets(allowed.pairs) == as_sets([(1, 5), (4, 3)])
    # None allowed: 1v5 leaves {4, 3}, a repeat, so all four are paired as one group [1, 5, 4, 3]: 1
    # may meet 5 or 4 (not 3, round 2) and prefers 4, half the group away; 5v3 is left.
    fresh = ns(5, FIVE, 3, 0)
    assert fresh.bye == 2 and as_sets(fresh.pairs) == as_sets([(1, 4), (5, 3)])


SEVEN_NS = [
    *[win(1, 1, 5, 100), win(1, 2, 6, 80), win(1, 3, 7, 60), bye(1, 4)],
    *[win(2, 1, 3, 30), win(2, 2, 4, 25), win(2, 7, 6, 15), bye(2, 5)],
]


def test_seven_players_by_hand() -> None:
    # After round 2: 1 (2-0 +130), 2 (2-0 +105), 3 (1-1 +30), 4 (1-1 +25, a bye), 7 (1-1 -45), 5 (1-1 -50,
    # a bye), 6 (0-2). 6 is the lowest of those without a bye. Groups {1, 2} and {3, 4, 7, 5}: 1v2, fresh;
    # in [3, 4, 7, 5] 3 may not meet 7 (round 1) and finds 4 (index 1) and 5 (index 3) equally near
    # half the group away (|4 - 2| = |4 - 6| = 2): the higher placed, 4. 7v5 is left.
    fresh = ns(7, SEVEN_NS, 3, 0)
    assert fresh.bye == 6 and as_sets(fresh.pairs) == as_sets([(1, 2), (3, 4), (7, 5)])
    # One repeat allowed: 3 v 7 is allowed and exactly half the group away, but a pair that has met comes
    # after every fresh one: the same pairs.
    assert as_sets(ns(7, SEVEN_NS, 3, 1).pairs) == as_sets(fresh.pairs)
    # test_koth_tsh's SEVEN, after round 3: 1 (3-0), then 5, 3, 6 (2-1), then 7, 2, 4 (1-2); 2 sits out.
    # None allowed: 1 takes 5 from the group below (they met, round 3), then 3 and 6 as well: in
    # [1, 5, 3, 6] 1 may meet only 6 (5 and 3 met), and 5v3; then 7v4. One allowed: 1v5, 3v6, 7v4.
    fresh = ns(7, SEVEN, 4, 0)
    assert fresh.bye == 2 and as_sets(fresh.pairs) == as_sets([(1, 6), (5, 3), (7, 4)])
    assert as_sets(ns(7, SEVEN, 4, 1).pairs) == as_sets([(1, 5), (3, 6), (7, 4)])


def test_eight_players_by_hand() -> None:
    # test_koth_tsh's EIGHT after round 3: 1 (3-0), 5, 3, 2 (2-1), 7, 6, 4 (1-2), 8 (0-3).
    # One repeat allowed: 1 takes 5 (met once); {3, 2} fresh; the bottom, 8, takes 4 (met once); 7v6.
    assert as_sets(ns(8, EIGHT, 4, 1).pairs) == as_sets([(1, 5), (3, 2), (7, 6), (8, 4)])
    # None allowed: 1 has met 5, 3 and 2, so the top group grows to [1, 5, 3, 2, 7, 6] (1v7, 5v2, 3v6),
    # but the bottom, 8, then can meet neither 4 nor anyone else left, so tsh pairs all eight as one
    # group [1, 5, 3, 2, 7, 6, 4, 8]: 1 meets 7 (half the group away); 5 may meet 3, 2, 4 or 8 and
    # prefers 4 (|8 - 2*5| = 2); 3 may meet 2, 6 or 8 and takes 6 (2, before 8 by place); 2v8 is left.
    assert as_sets(ns(8, EIGHT, 4, 0).pairs) == as_sets([(1, 7), (5, 4), (3, 6), (2, 8)])
