"""King of the Hill with a repeat limit pairs as tsh's `koth` does (issue 25).

Within the limit, nearest-placed players meet even when they have met before,
last round included; only pairs beyond the limit are avoided.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.play.core import tsh
from events.play.core.pairing import PairingError, PairingOptions, pair_round
from events.play.core.pairing.core import History
from events.play.core.pairing.ranked import koth_pairs
from events.play.core.standings import Entrant, compute_standings

from . import bye, field_of, win
from .tsh_reference import REAL_FILES, SHARED, games_of, tsh_koth


def as_sets(pairs):
    return {frozenset(p) for p in pairs}


def koth(n, history, round_number, limit):
    return pair_round(
        "koth", field_of(n), history, PairingOptions(round=round_number, max_repeats=limit, assign_firsts=False)
    )


def test_last_round_s_opponents_meet_again_when_one_repeat_is_allowed() -> None:
    # After round 2: 1 (2-0), 2 and 3 (1-1, level, 2 rated higher), 4 (0-2); 1v2 and 3v4 were last round.
    history = [win(1, 1, 3), win(1, 2, 4), win(2, 1, 2), win(2, 3, 4)]
    assert as_sets(koth(4, history, 3, 1).pairs) == as_sets([(1, 2), (3, 4)])
    assert as_sets(koth(4, history, 3, 0).pairs) == as_sets([(1, 4), (2, 3)])


FIVE = [win(1, 1, 2, 100), win(1, 3, 4, 50), bye(1, 5), win(2, 1, 3, 60), win(2, 5, 2, 40), bye(2, 4)]


def test_five_players_by_hand() -> None:
    # Order after round 2: 1, 5, 4, 3, 2. 2 is the lowest placed without a bye and sits out.
    # One repeat allowed: 1v5, then 4v3 although they met in round 1.
    allowed = koth(5, FIVE, 3, 1)
    assert allowed.bye == 2 and as_sets(allowed.pairs) == as_sets([(1, 5), (3, 4)])
    # None allowed: 1v5 would leave 4v3, a repeat, so 1 meets the next nearest fresh opponent.
    fresh = koth(5, FIVE, 3, 0)
    assert fresh.bye == 2 and as_sets(fresh.pairs) == as_sets([(1, 4), (5, 3)])


SEVEN = [
    *[win(1, 1, 2, 100), win(1, 3, 4, 90), win(1, 5, 6, 80), bye(1, 7)],
    *[win(2, 1, 3, 70), win(2, 5, 7, 60), win(2, 2, 4, 50), bye(2, 6)],
    *[win(3, 1, 5, 20), win(3, 3, 7, 20), win(3, 6, 2, 20), bye(3, 4)],
]


def test_seven_players_by_hand() -> None:
    # Order after round 3: 1, 5, 3, 6, 7, 2, 4; 2 has the bye (1, 5, 3 and 2 have none yet, 2 is lowest).
    allowed = koth(7, SEVEN, 4, 1)
    assert allowed.bye == 2 and as_sets(allowed.pairs) == as_sets([(1, 5), (3, 6), (7, 4)])
    # 1 met 5 in round 3 and 3 in round 2: 1v6, and the rest pair fresh from the top.
    fresh = koth(7, SEVEN, 4, 0)
    assert fresh.bye == 2 and as_sets(fresh.pairs) == as_sets([(1, 6), (5, 3), (7, 4)])


EIGHT = [
    *[win(1, 1, 2, 100), win(1, 3, 4, 90), win(1, 5, 6, 80), win(1, 7, 8, 70)],
    *[win(2, 1, 3, 60), win(2, 5, 7, 50), win(2, 2, 4, 40), win(2, 6, 8, 30)],
    *[win(3, 1, 5, 20), win(3, 3, 7, 20), win(3, 2, 6, 20), win(3, 4, 8, 20)],
]


def test_eight_players_by_hand() -> None:
    # Order after round 3: 1, 5, 3, 2, 7, 6, 4, 8.
    allowed = koth(8, EIGHT, 4, 1)
    assert as_sets(allowed.pairs) == as_sets([(1, 5), (3, 2), (7, 6), (4, 8)])
    assert allowed.repeats == 2
    # Fresh only: 1 has met 5, 3 and 2, so meets 7; 5v3; 2 has met 6 and 4, so meets 8; 6v4.
    fresh = koth(8, EIGHT, 4, 0)
    assert as_sets(fresh.pairs) == as_sets([(1, 7), (5, 3), (2, 8), (6, 4)])
    assert fresh.repeats == 0


def test_beyond_the_limit_is_still_refused_with_the_fewest_repeats() -> None:
    # Four players who have all met twice cannot be paired within one repeat.
    history = [win(r, a, b) for r in (1, 4) for a, b in [(1, 2), (3, 4)]]
    history += [win(r, a, b) for r in (2, 5) for a, b in [(1, 3), (2, 4)]]
    history += [win(r, a, b) for r in (3, 6) for a, b in [(1, 4), (2, 3)]]
    with pytest.raises(PairingError, match="over the limit") as caught:
        koth(4, history, 7, 1)
    assert caught.value.best is not None and caught.value.best.repeats == 2


def shared(name: str) -> tsh.TshFile:
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"{path} is not here (the shared fixtures live beside the project)")
    return tsh.parse_t(tsh.decode_tsh_bytes(path.read_bytes()))


@pytest.mark.parametrize("limit", [0, 1, 2])
@pytest.mark.parametrize("name", REAL_FILES)
def test_real_divisions_round_by_round_as_tsh(name: str, limit: int) -> None:
    """Each round of a real division, paired again from the standings before it, board for board."""
    f = shared(name)
    games = games_of(f)
    entrants = [Entrant(id=p.number, rating=p.rating, seed=p.number) for p in f.players]
    compared = 0
    for r in range(2, f.rounds_played() + 1):
        playing = {p.number for p in f.players if len(p.opponents) >= r and p.opponents[r - 1] > 0}
        past = History(games, r)
        standings = compute_standings(entrants, past.games, through_round=r - 1)
        order = [s.player for s in standings if s.player in playing]
        expected = tsh_koth(order, past, limit)
        if expected is None:
            continue
        assert as_sets(koth_pairs(order, past, True, limit)) == as_sets(expected), f"round {r}"
        compared += 1
    assert compared == f.rounds_played() - 1


@settings(max_examples=150, deadline=None)
@given(
    n=st.sampled_from([2, 4, 6, 8, 10]),
    meetings=st.lists(st.tuples(st.integers(1, 4), st.integers(0, 9), st.integers(0, 9)), max_size=24),
    limit=st.sampled_from([0, 1, 2]),
)
def test_koth_is_tsh_s_search_whenever_the_limit_can_be_kept(n, meetings, limit) -> None:
    games = [win(r, a, b) for r, a, b in meetings if a != b and a < n and b < n]
    history = History(games, before_round=5)
    order = list(range(n))
    expected = tsh_koth(order, history, limit)
    pairs = koth_pairs(order, history, True, limit)
    if expected is None:
        assert any(history.met(a, b) > limit for a, b in pairs)
    else:
        assert pairs == expected
