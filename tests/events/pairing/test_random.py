from events.play.core.pairing import PairingOptions, pair_round

from . import assert_complete, field_of, run_event


def test_same_seed_same_pairing() -> None:
    players = field_of(30)
    a = pair_round("random", players, [], PairingOptions(round=1, seed=1234))
    b = pair_round("random", players, [], PairingOptions(round=1, seed=1234))
    assert a.pairs == b.pairs
    assert a.seed == b.seed == 1234


def test_different_seeds_differ() -> None:
    players = field_of(30)
    pairings = {tuple(pair_round("random", players, [], PairingOptions(round=1, seed=s)).pairs) for s in range(5)}
    assert len(pairings) == 5


def test_seed_is_drawn_and_recorded_when_not_given() -> None:
    players = field_of(12)
    first = pair_round("random", players, [], PairingOptions(round=1))
    assert first.seed is not None
    again = pair_round("random", players, [], PairingOptions(round=1, seed=first.seed))
    assert again.pairs == first.pairs


def test_list_order_does_not_matter() -> None:
    players = field_of(10)
    a = pair_round("random", players, [], PairingOptions(round=1, seed=9))
    b = pair_round("random", list(reversed(players)), [], PairingOptions(round=1, seed=9))
    assert a.pairs == b.pairs


def test_random_rounds_avoid_repeats() -> None:
    players = field_of(11)
    _, results = run_event("random", players, 6, seed=3)
    seen: set[frozenset[int]] = set()
    for result in results:
        assert_complete(result, players)
        pairs = {frozenset(p) for p in result.pairs}
        assert not pairs & seen
        seen |= pairs
