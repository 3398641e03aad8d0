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


def test_a_forfeit_is_neither_a_start_nor_a_reply() -> None:
    # Round 1: 1 forfeits to 3 (a start recorded on it all the same); 2 starts against 4.
    # tsh writes a forfeit as opponent 0 (p12 0), so 1 has no start and 2 has one: 1 starts.
    history = History(
        [
            Game(round=1, player_a=1, player_b=3, kind=GameKind.FORFEIT, first=1),
            win(1, 2, 4, first=2),
        ],
        before_round=2,
    )
    assert (history.firsts[1], history.seconds[1]) == (0, 0)
    assert (history.firsts[3], history.seconds[3]) == (0, 0)
    for seed in range(10):
        assert order_for_start(2, 1, history, seed=seed, round_number=2) == (1, 2)


def test_unknown_starts_decide_only_beyond_doubt() -> None:
    # 1 started twice; 2 replied once and has one game with no start recorded (tsh's p12 4).
    # Even had that game been a start, 2 has 1 start to 1's 2: 2 starts.
    history = History([win(1, 1, 3, first=1), win(2, 1, 4, first=1), win(1, 2, 5, first=5), win(2, 2, 6)], 3)
    assert history.unknown_firsts[2] == 1 and history.unknown_firsts[1] == 0
    assert order_for_start(1, 2, history, seed=0, round_number=3) == (2, 1)


def test_unknown_start_that_could_level_is_a_draw() -> None:
    # 1 started once; 2's one game has no start recorded. Had 2 started it, both have one start and no
    # reply: tsh cannot tell and draws, where counting recorded starts alone would let 2 start.
    history = History([win(1, 1, 3, first=1), win(1, 2, 4)], 2)
    draws = {order_for_start(1, 2, history, seed=s, round_number=2) for s in range(20)}
    assert draws == {(1, 2), (2, 1)}


def test_unknown_starts_then_replies() -> None:
    # 1: one start. 2: two replies and one unknown game. Starts: 1 - 0 = 1, exactly 2's one unknown game;
    # replies: 2 has 2 more than 1, more than 1's unknown games (none): 2 starts.
    history = History([win(1, 1, 3, first=1), win(1, 2, 4, first=4), win(2, 2, 5, first=5), win(3, 2, 6)], 4)
    assert order_for_start(1, 2, history, seed=0, round_number=4) == (2, 1)
