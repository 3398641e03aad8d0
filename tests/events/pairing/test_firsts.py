from events.play.core.pairing import PairingOptions, pair_round
from events.play.core.pairing.core import History
from events.play.core.pairing.firsts import order_for_start
from events.play.core.results import Game, GameKind

from . import field_of, win


def test_fewer_firsts_starts() -> None:
    history = History([win(1, 1, 3, first=1), win(2, 1, 4, first=4)], before_round=3)
    # 1 started once, 2 never.
    assert order_for_start(1, 2, history, seed=0, round_number=3) == (2, 1)
    assert order_for_start(2, 1, history, seed=0, round_number=3) == (2, 1)


def test_equal_firsts_more_seconds_starts() -> None:
    # Both started once; 1 also went second once, 2 never went second (a bye instead).
    history = History(
        [
            win(1, 1, 3, first=1),
            win(2, 4, 1, first=4),
            win(1, 2, 4, first=2),
            Game(round=2, player_a=2, kind=GameKind.BYE),
        ],
        before_round=3,
    )
    assert history.firsts[1] == history.firsts[2] == 1
    assert order_for_start(2, 1, history, seed=0, round_number=3) == (1, 2)


def test_full_tie_is_a_reproducible_draw() -> None:
    history = History([], before_round=1)
    draws = {order_for_start(1, 2, history, seed=s, round_number=1) for s in range(20)}
    assert draws == {(1, 2), (2, 1)}  # both outcomes happen
    for s in range(20):
        assert order_for_start(1, 2, history, seed=s, round_number=1) == order_for_start(2, 1, history, s, 1)


def test_pairing_lists_the_starter_first() -> None:
    players = field_of(4)
    history = [win(1, 1, 2, first=1), win(1, 3, 4, first=3)]
    result = pair_round("koth", players, history, PairingOptions(round=2, seed=5))
    # Winners 1 and 3 both started; losers 2 and 4 both went second.
    for a, b in result.pairs:
        assert {a, b} in ({1, 3}, {2, 4})
    # 1 v 3: both 1 first and 0 seconds: a draw. 2 v 4: likewise.
    again = pair_round("koth", players, history, PairingOptions(round=2, seed=5))
    assert again.pairs == result.pairs


def test_balancing_over_an_event() -> None:
    players = field_of(8)
    games: list[Game] = []
    for r in range(1, 8):
        result = pair_round("round_robin", players, games, PairingOptions(round=r, seed=2))
        games += [win(r, a, b, first=a) for a, b in result.pairs]
    starts = [History(games, before_round=8).firsts[p.id] for p in players]
    # Seven games each: starts stay within one or two of half.
    assert sum(starts) == 28
    assert max(starts) - min(starts) <= 2


def test_without_assignment_higher_placed_player_is_listed_first() -> None:
    players = field_of(4)
    result = pair_round("koth", players, [], PairingOptions(round=1, assign_firsts=False))
    assert result.pairs == [(1, 2), (3, 4)]
