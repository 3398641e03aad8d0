import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.play.core.pairing import PairingError, PairingOptions, pair_round
from events.play.core.pairing.core import History
from events.play.core.pairing.ranked import closest_pairs
from events.play.core.results import Game

from . import assert_complete, field_of, run_event, win


def as_sets(pairs: list[tuple[int, int]]) -> set[frozenset[int]]:
    return {frozenset(p) for p in pairs}


def test_round_one_pairs_by_rating_1v2_3v4() -> None:
    players = field_of(8)
    result = pair_round("koth", players, [], PairingOptions(round=1, seed=1))
    assert as_sets(result.pairs) == as_sets([(1, 2), (3, 4), (5, 6), (7, 8)])
    assert result.repeats == 0


def test_pairs_by_wins_then_spread() -> None:
    players = field_of(4)
    # After round 1: 4 beat 1 by 200, 3 beat 2 by 10. Order: 4, 3, 2, 1.
    history = [win(1, 4, 1, margin=200), win(1, 3, 2, margin=10)]
    result = pair_round("koth", players, history, PairingOptions(round=2, avoid_repeats=False))
    assert as_sets(result.pairs) == as_sets([(4, 3), (2, 1)])
    # Boards in standings order.
    assert set(result.pairs[0]) == {3, 4}


def test_with_repeats_pairs_strictly_by_order() -> None:
    players = field_of(4)
    # Order after round 2: 1 (2-0), 2 and 3 (1-1, level: 2 is rated higher), 4 (0-2).
    history = [win(1, 1, 2), win(1, 3, 4), win(2, 1, 3), win(2, 2, 4)]
    result = pair_round("koth", players, history, PairingOptions(round=3, avoid_repeats=False))
    assert as_sets(result.pairs) == as_sets([(1, 2), (3, 4)])
    assert result.repeats == 2


def test_avoids_a_rematch_with_the_closest_pairing() -> None:
    players = field_of(6)
    # 1 and 2 met in round 1; order after round 2 is 1..6 by rating (equal records).
    history = [win(1, 1, 2), win(1, 4, 3), win(1, 6, 5), win(2, 2, 1), win(2, 3, 6), win(2, 5, 4)]
    result = pair_round("koth", players, history, PairingOptions(round=3))
    # 1v2, 3v6, 4v5 ... are repeats: the closest repeat-free pairing.
    for a, b in result.pairs:
        assert frozenset((a, b)) not in {frozenset(g.players) for g in history}
    assert result.repeats == 0


def test_winners_meet_winners() -> None:
    players = field_of(4)
    history = [win(1, 1, 2), win(1, 3, 4)]
    result = pair_round("koth", players, history, PairingOptions(round=2))
    # Order: the winners 1 and 3 (by rating), then 2 and 4.
    assert as_sets(result.pairs) == as_sets([(1, 3), (2, 4)])


def test_leader_meets_the_nearest_player_that_keeps_the_round_repeat_free() -> None:
    players = field_of(6)
    history = [win(1, 1, 2), win(1, 3, 4), win(1, 5, 6), win(2, 1, 3), win(2, 2, 5), win(2, 4, 6)]
    # Order after round 2: 1 (2-0); 2, 3, 4, 5 at 1-1 and level, by rating; 6 (0-2).
    # 1v2 and 1v3 are repeats, so the leader meets 4; then 2 cannot meet 3 (5v6 would
    # repeat) nor 5 (a repeat): 2v6 and 3v5. Summed gaps would prefer 1v6 2v3 4v5,
    # which is further from King of the Hill at the top.
    result = pair_round("koth", players, history, PairingOptions(round=3))
    assert result.repeats == 0
    assert as_sets(result.pairs) == as_sets([(1, 4), (2, 6), (3, 5)])


def test_no_repeat_free_pairing_fewest_repeats_from_the_top() -> None:
    players = field_of(4)
    # Everyone has met once; standings after round 3: 1 (3-0), 2, 3, 4 (0-3).
    history = [win(1, 1, 2), win(1, 3, 4), win(2, 1, 3), win(2, 2, 4), win(3, 1, 4), win(3, 2, 3)]
    result = pair_round("koth", players, history, PairingOptions(round=4, max_repeats=1))
    # Not round 3's games again; of the two others, the one with 1v2.
    assert as_sets(result.pairs) == as_sets([(1, 2), (3, 4)])
    assert result.repeats == 2


def test_closest_pairing_when_top_pair_is_a_rematch() -> None:
    players = field_of(4)
    # Order after round 2: 1 (2 wins), 2 (1 win, +), 3 (1 win), 4 (0). 1v2 met in round 1.
    history = [win(1, 1, 2, 10), win(1, 3, 4, 10), win(2, 1, 3, 10), win(2, 2, 4, 300)]
    result = pair_round("koth", players, history, PairingOptions(round=3))
    # 1v2 and 3v4 met in round 1, 1v3 and 2v4 in round 2: 1v4 2v3 is the only fresh pairing.
    assert as_sets(result.pairs) == as_sets([(1, 4), (2, 3)])
    assert result.repeats == 0


def test_last_round_s_game_is_repeated_when_within_the_limit_as_tsh_does() -> None:
    players = field_of(4)
    history = [win(1, 1, 3), win(1, 2, 4), win(2, 1, 2), win(2, 3, 4)]
    # 1v2 and 3v4 were last round; with one repeat allowed they are the nearest pairs.
    result = pair_round("koth", players, history, PairingOptions(round=3, max_repeats=1))
    assert as_sets(result.pairs) == as_sets([(1, 2), (3, 4)])


def test_error_carries_the_least_repeat_pairing() -> None:
    players = field_of(4)
    history = [win(1, 1, 2), win(1, 3, 4), win(2, 1, 3), win(2, 2, 4), win(3, 1, 4), win(3, 2, 3)]
    with pytest.raises(PairingError) as caught:
        pair_round("koth", players, history, PairingOptions(round=4))
    best = caught.value.best
    assert best is not None
    assert_complete(best, players)
    assert best.repeats == 2
    assert "over the limit" in str(caught.value) and "Allow more repeats" in str(caught.value)
    # Round 3's games are not repeated.
    assert not as_sets(best.pairs) & as_sets([(1, 4), (2, 3)])
    # With one repeat allowed the same pairing is returned.
    allowed = pair_round("koth", players, history, PairingOptions(round=4, max_repeats=1))
    assert as_sets(allowed.pairs) == as_sets(best.pairs)


def test_pending_round_counts_as_a_meeting() -> None:
    players = field_of(4)
    pending = [Game(round=1, player_a=1, player_b=2), Game(round=1, player_a=3, player_b=4)]
    result = pair_round("koth", players, pending, PairingOptions(round=2, based_on_round=0))
    assert not as_sets(result.pairs) & as_sets([(1, 2), (3, 4)])


def test_whole_event_without_repeats() -> None:
    players = field_of(20)
    games, results = run_event("koth", players, 7, seed=5)
    seen: set[frozenset[int]] = set()
    for result in results:
        assert_complete(result, players)
        assert result.repeats == 0
        assert not as_sets(result.pairs) & seen
        seen |= as_sets(result.pairs)


def perfect_matchings(items: list[int]):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, other in enumerate(rest):
        for tail in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


@settings(max_examples=120, deadline=None)
@given(
    n=st.sampled_from([2, 4, 6, 8]),
    meetings=st.lists(st.tuples(st.integers(1, 3), st.integers(0, 7), st.integers(0, 7)), max_size=14),
    max_repeats=st.sampled_from([0, 1, None]),
)
def test_closest_pairs_is_the_top_down_closest_of_the_fewest_repeat_pairings(n, meetings, max_repeats) -> None:
    """What random pairing uses, and what King of the Hill offers when the limit cannot be kept."""
    games = [win(r, a, b) for r, a, b in meetings if a != b and a < n and b < n]
    history = History(games, before_round=4)
    order = list(range(n))
    pairs = closest_pairs(order, history, True, max_repeats)

    def levels(a: int, b: int) -> tuple[int, int, int]:
        met = history.met(a, b)
        return int(max_repeats is not None and met > max_repeats), int(history.met_last_round(a, b)), met * met

    def key(matching: list[tuple[int, int]]) -> tuple[tuple[int, ...], list[int]]:
        totals = tuple(sum(levels(a, b)[k] for a, b in matching) for k in range(3))
        return totals, [b for a, b in sorted(matching)]

    best = min(perfect_matchings(order), key=key)
    assert key([tuple(sorted(p)) for p in pairs]) == key(best)  # type: ignore[misc]


@settings(max_examples=150, deadline=None)
@given(
    n=st.sampled_from([2, 4, 6, 8]),
    meetings=st.lists(st.tuples(st.integers(1, 3), st.integers(0, 7), st.integers(0, 7)), max_size=14),
    max_repeats=st.sampled_from([0, 1]),
)
def test_within_the_limit_the_leader_meets_the_nearest_player_the_rest_allows(n, meetings, max_repeats) -> None:
    """King of the Hill within its limit, against every pairing of a small field: from the top, each player meets
    the nearest one below with whom the rest can all be paired within the limit; none such, the fewest repeats.
    (Neighbours all within the limit are taken without a matching: this holds that shortcut to the search.)"""
    from events.play.core.pairing.ranked import koth_pairs

    games = [win(r, a, b) for r, a, b in meetings if a != b and a < n and b < n]
    history = History(games, before_round=4)
    order = list(range(n))
    within = [m for m in perfect_matchings(order) if all(history.met(a, b) <= max_repeats for a, b in m)]
    pairs = koth_pairs(order, history, True, max_repeats)
    if not within:
        assert pairs == closest_pairs(order, history, True, max_repeats)
        return

    def from_the_top(matching: list[tuple[int, int]]) -> list[int]:
        """Each player's partner, the highest-placed first, as the top-down choice reads it."""
        partner = {**{a: b for a, b in matching}, **{b: a for a, b in matching}}
        seen, choices = set(), []
        for p in order:
            if p not in seen:
                seen |= {p, partner[p]}
                choices.append(partner[p])
        return choices

    assert from_the_top([tuple(p) for p in pairs]) == min(from_the_top(m) for m in within)
