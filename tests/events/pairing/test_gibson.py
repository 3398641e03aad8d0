import pytest

from events.play.core.pairing import PairingOptions, pair_round
from events.play.core.results import Game

from . import bye, field_of, win


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


ROUND_ROBIN = league([(1, 1, 4, 200), (1, 2, 3, 50), (2, 1, 3, 200), (2, 2, 4, 50), (3, 1, 2, 200), (3, 3, 4, 50)])
# After three rounds of four: 1 (3-0, +600), 2 (2-1, -100), 3 (1-2, -200), 4 (0-3, -300). 1 leads by one win
# with one round left and by 700 spread: Gibsonized. 1 has met everyone once.


def gibson_round_4(prize_places: int):
    options = PairingOptions(round=4, total_rounds=4, gibson=True, prize_places=prize_places, max_repeats=1)
    return pair_round("koth", field_of(4), ROUND_ROBIN, options)


def test_with_one_prize_the_best_placed_of_the_rest_plays_the_leader() -> None:
    # Only first place pays: nobody else can finish in the money, so 2 (the highest-placed of them) plays 1.
    result = gibson_round_4(prize_places=1)
    assert result.gibsonized == 1
    assert {frozenset(p) for p in result.pairs} == {frozenset((1, 2)), frozenset((3, 4))}


def test_the_leader_plays_someone_who_cannot_reach_the_last_prize_place() -> None:
    # Two places pay: 3 can still catch 2 (one win and 100 spread behind); 4 (two wins behind) cannot.
    result = gibson_round_4(prize_places=2)
    assert {frozenset(p) for p in result.pairs} == {frozenset((1, 4)), frozenset((2, 3))}
    assert result.warnings[0] == "1 is Gibsonized and plays 4, who is out of prize contention"


@pytest.mark.parametrize("places", [3, 4, 6])
def test_prizes_reaching_the_whole_field_leave_nobody_out(places: int) -> None:
    # Three places: 4 can still catch 3 (one win, 100 spread). Four or more (to the foot of the field and
    # beyond): everyone is in the money. The leader then plays the lowest-placed player.
    result = gibson_round_4(prize_places=places)
    assert {frozenset(p) for p in result.pairs} == {frozenset((1, 4)), frozenset((2, 3))}
    assert "every other player is still in prize contention" in result.warnings[0]


SECOND_SETTLED = league(
    [
        *[(1, 1, 2, 150), (1, 3, 4, 50), (1, 5, 6, 50)],
        *[(2, 1, 3, 200), (2, 2, 5, 200), (2, 4, 6, 150)],
        *[(3, 1, 4, 150), (3, 2, 6, 200), (3, 3, 5, 100)],
        *[(4, 1, 6, 150), (4, 2, 3, 100), (4, 4, 5, 100)],
    ]
)
# After four rounds of five: 1 (4-0, +650), 2 (3-1, +350), 4 (2-2, +50), 3 (2-2, -150), 5 (1-3, -350),
# 6 (0-4, -550). 2 is 300 spread behind 1 with one round left: 1 is Gibsonized. Nobody can catch 2 (4 and 3
# are a win and 300 or more behind) and 2 cannot catch 1: second place is settled, but it pays.


def test_a_settled_prize_place_is_still_in_contention() -> None:
    # The defect: 2, sure of second place and its prize, was taken as out of contention and met the leader.
    # Three places pay: 3 can still catch 4 for third; 5 and 6 cannot. 1 met 2, 3, 4 and 6, never 5.
    options = PairingOptions(round=5, total_rounds=5, gibson=True, prize_places=3, max_repeats=1)
    result = pair_round("koth", field_of(6), SECOND_SETTLED, options)
    assert result.gibsonized == 1
    assert frozenset((1, 5)) in {frozenset(p) for p in result.pairs}
    assert frozenset((1, 2)) not in {frozenset(p) for p in result.pairs}


def test_an_odd_field_gives_the_bye_to_the_gibsonized_leader() -> None:
    # Five players, byes to 5, 4 and 3 in rounds 1-3. After round 3: 1 (3-0, +600), 3 (2-1, -100),
    # 5 (2-1, -100; rated lower than 3), 4 (1-2, -50), 2 (1-2, -200). 1 is Gibsonized (a win and 700 spread
    # ahead, one round left); tsh gives an odd field's bye to the Gibsonized player, not to 2 (lowest
    # without a bye).
    history = [
        *league([(1, 1, 2, 200), (1, 3, 4, 50), (2, 1, 3, 200), (2, 5, 2, 50), (3, 1, 5, 200), (3, 2, 4, 50)]),
        bye(1, 5),
        bye(2, 4),
        bye(3, 3),
    ]
    options = PairingOptions(round=4, total_rounds=4, gibson=True, prize_places=2)
    result = pair_round("koth", field_of(5), history, options)
    assert result.bye == 1 and result.gibsonized == 1
    assert all(1 not in pair for pair in result.pairs)
    assert result.warnings[0] == "1 is Gibsonized and takes the bye"
    # Without Gibsonization the bye goes to 2.
    assert pair_round("koth", field_of(5), history, PairingOptions(round=4, total_rounds=4)).bye == 2


def test_gibson_off_by_default() -> None:
    players = field_of(4)
    history = league([(1, 1, 2, 150), (1, 3, 4, 50), (2, 1, 3, 150), (2, 2, 4, 50)])
    result = pair_round("koth", players, history, PairingOptions(round=3, total_rounds=3, max_repeats=1))
    assert result.gibsonized is None
