"""Swiss pairs as tsh's `ns` does: win groups paired from both ends inwards, each group top half against
bottom half by tsh's search (see `events.play.core.pairing.swiss`)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.play.core import tsh
from events.play.core.pairing.core import History
from events.play.core.pairing.swiss import swiss_pairs
from events.play.core.standings import Entrant, compute_standings

from . import win
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
