from events.play.core.pairing import PairingOptions, pair_round
from events.play.core.results import Game

from . import field_of, win


def league(results: list[tuple[int, int, int, int]]) -> list[Game]:
    """(round, winner, loser, margin) rows as games."""
    return [win(r, w, loser, m) for r, w, loser, m in results]


def test_uncatchable_leader_meets_best_placed_player_out_of_contention() -> None:
    players = field_of(6)
    history = league(
        [
            (1, 1, 2, 150),
            (1, 3, 4, 50),
            (1, 5, 6, 50),
            (2, 1, 3, 150),
            (2, 2, 5, 50),
            (2, 4, 6, 50),
            (3, 1, 4, 150),
            (3, 2, 6, 50),
            (3, 3, 5, 50),
            (4, 1, 5, 150),
            (4, 2, 3, 50),
            (4, 6, 4, 50),
        ]
    )
    # After round 4 of 5: 1 (4-0, +600), 2 (3-1, 0), 3 (2-2, -100), 6 (1-3, -100),
    # 4 (1-3, -200), 5 (1-3, -200). 1 leads by one win with one round left and by 600
    # spread: Gibsonized. Prizes for two places: 3 can still catch 2 (one win and 100
    # spread behind); 6, 4 and 5 cannot. The best placed of them is 6.
    options = PairingOptions(round=5, total_rounds=5, gibson=True, prize_places=2, max_repeats=1)
    result = pair_round("koth", players, history, options)
    assert result.gibsonized == 1
    assert {1, 6} in [set(p) for p in result.pairs]
    assert any("Gibsonized" in w for w in result.warnings)
    # The rest as tsh's King of the Hill with one repeat allowed: 2v3 was last round's game
    # but within the limit, so 2v3 and 4v5.
    assert {frozenset(p) for p in result.pairs} == {frozenset(p) for p in [(1, 6), (2, 3), (4, 5)]}


def test_catch_up_allowance_decides_an_equal_lead() -> None:
    players = field_of(6)
    history = league(
        [
            (1, 1, 2, 150),
            (1, 3, 4, 50),
            (1, 5, 6, 50),
            (2, 1, 3, 150),
            (2, 2, 5, 50),
            (2, 4, 6, 50),
            (3, 1, 4, 150),
            (3, 2, 6, 50),
            (3, 3, 5, 50),
            (4, 1, 5, 150),
            (4, 2, 3, 50),
            (4, 6, 4, 50),
        ]
    )
    # The spread lead over 2 is 600: with an allowance of 700 a round, 2 can still catch up.
    options = PairingOptions(round=5, total_rounds=5, gibson=True, gibson_spread=700, max_repeats=1)
    assert pair_round("koth", players, history, options).gibsonized is None


def test_no_gibson_when_the_leader_can_be_caught() -> None:
    players = field_of(4)
    history = league([(1, 1, 2, 50), (1, 3, 4, 50), (2, 1, 3, 50), (2, 2, 4, 50)])
    # 1 leads 3 and 2 by one win with two rounds left.
    options = PairingOptions(round=3, total_rounds=4, gibson=True)
    result = pair_round("koth", players, history, options)
    assert result.gibsonized is None
    assert result.warnings == []


def test_with_one_prize_second_place_is_out_of_contention() -> None:
    players = field_of(4)
    # Last round: 1 leads by one win, with a 200+ spread lead over the closest (2 and 3).
    history = league([(1, 1, 2, 150), (1, 3, 4, 50), (2, 1, 3, 150), (2, 2, 4, 50)])
    options = PairingOptions(round=3, total_rounds=3, gibson=True, max_repeats=1)
    result = pair_round("koth", players, history, options)
    assert result.gibsonized == 1
    # Everyone else is out of contention for the only prize: the best placed, 2 or 3
    # (2 and 3 are 1-1 with 0 spread; 2 rated higher), not a rematch of last round (1v3).
    assert (1, 2) in result.pairs or (2, 1) in result.pairs


def test_gibson_off_by_default() -> None:
    players = field_of(4)
    history = league([(1, 1, 2, 150), (1, 3, 4, 50), (2, 1, 3, 150), (2, 2, 4, 50)])
    result = pair_round("koth", players, history, PairingOptions(round=3, total_rounds=3, max_repeats=1))
    assert result.gibsonized is None
