"""Chew pairings (tsh `cp`): the pieces worked by hand, and every door offering the system."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.play.core.pairing import SYSTEMS, History, PairingOptions, pair_round
from events.play.core.pairing.chew import ChewRecord, _Chew, competition_ranks, default_prize_bands, flight_cap
from events.play.core.pairing.tsh_commands import PairedRound, from_tsh_command, system_label, tsh_command
from events.play.core.results import Game
from events.play.core.standings import compute_standings

from . import assert_complete, bye, field_of, win
from .tsh_chew_reference import tsh_chew


def test_the_system_is_named_as_directors_know_it() -> None:
    assert SYSTEMS["chew"] == "Chew pairings (tsh cp)"
    assert system_label("chew") == "Chew pairings (tsh cp)"


def test_tsh_s_default_flight_caps_and_prize_bands() -> None:
    # tsh: 2 contenders with one round left, 4 with two, 8 with three, 12 with four or more.
    assert [flight_cap(r) for r in (0, 1, 2, 3, 4, 10)] == [2, 2, 4, 8, 12, 12]
    # Every place from 1 to a quarter of the field, at least first place.
    assert default_prize_bands(24) == (1, 2, 3, 4, 5, 6)
    assert default_prize_bands(3) == (1,)


def test_ranks_are_shared_by_players_level_on_wins_losses_and_spread() -> None:
    records = {1: ChewRecord(3, 0, 200), 2: ChewRecord(2, 1, 50), 3: ChewRecord(2, 1, 50), 4: ChewRecord(2, 1, 10)}
    assert competition_ranks([1, 2, 3, 4], records) == {1: 1, 2: 2, 3: 2, 4: 4}


def best_finishes(records, round_number, total_rounds):
    order = list(records)
    ranks = competition_ranks(order, records)
    chew = _Chew(order, records, ranks, History([], round_number), round_number, total_rounds, (1,), 500)
    chew.calculate_bpfs(order)
    return chew.max_rank


def test_best_possible_finish_worked_by_hand() -> None:
    # One round left (round 3 of 3). 1: 2 wins +400; 2: 1 win 0; 3: 1 win -100; 4: no win -300.
    records = {1: ChewRecord(2, 0, 400), 2: ChewRecord(1, 1, 0), 3: ChewRecord(1, 1, -100), 4: ChewRecord(0, 2, -300)}
    best = best_finishes(records, 3, 3)
    # Each player's best: they win by 500 (tsh's most spread a game can make); who must lose loses.
    # 2 beats 1: 2 wins +500 against 1's 2 wins -100: first.
    # 3 beats 4 (2 wins +400); 1 would stay level, so 2 beats 1 by just as much, 400: 1 ends 2 wins +0,
    # 2 ends 2 wins +400, level with 3, and tsh puts the player it works out first among level players.
    # 4 beats 3 (1 win +200) and 1 beats 2: 1 has 3 wins, so 4 is at best second.
    assert best == {1: 1, 2: 1, 3: 1, 4: 2}


def test_a_player_out_of_reach_with_one_round_left_is_gibsonized_as_tsh_does() -> None:
    # After round 4 of 5: 1 has 4 wins; 2 has 2 (+100); 3 has 1 (-60); 4 has 1 (-200).
    history = [
        *[win(1, 1, 4, 80), win(1, 2, 3, 50)],
        *[win(2, 1, 3, 30), win(2, 2, 4, 100)],
        *[win(3, 1, 2, 25), win(3, 3, 4, 40)],
        *[win(4, 1, 2, 25), win(4, 4, 3, 20)],
    ]
    result = pair_round("chew", field_of(4), history, PairingOptions(round=5, total_rounds=5, assign_firsts=False))
    # 2 can at best finish second (3 wins against 1's 4), so 1 is a Gibson. The one prize band is first place
    # (a quarter of four players), so 2, 3 and 4 cannot reach a prize. tsh's victim, read from the bottom: 4 and
    # 3 have met 1 once, 2 twice; among the fewest meetings the highest placed who cannot reach a prize is 3.
    # 2 and 4 are left, and met in round 2: the fewest repeats that pair them is one, so they meet again.
    assert {frozenset(p) for p in result.pairs} == {frozenset((1, 3)), frozenset((2, 4))}
    assert any("Gibsonized" in w and ": 1" in w for w in result.warnings)


def test_chew_needs_the_number_of_rounds() -> None:
    with pytest.raises(ValueError, match="number of rounds"):
        pair_round("chew", field_of(4), [], PairingOptions(round=1))


def test_prize_bands_are_checked() -> None:
    with pytest.raises(ValueError, match="prize bands"):
        PairingOptions(round=1, prize_bands=(2, 2))
    with pytest.raises(ValueError, match="prize bands"):
        PairingOptions(round=1, prize_bands=(0, 3))


def test_tsh_s_cp_line_both_ways() -> None:
    line = tsh_command(PairedRound(round=7, system="chew"), "A", 10)
    assert line == (6, "cp", ("6", "A"))
    assert from_tsh_command("cp", ["6", "A"], 7) == [PairedRound(7, "chew", based_on_round=None, max_repeats=None)]
    assert from_tsh_command("ChewPair", ["4", "A"], 7)[0].based_on_round == 4


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 16), rounds=st.integers(0, 7), seed=st.integers(0, 10_000))
def test_chew_pairs_everyone_once(n, rounds, seed) -> None:
    players = field_of(n)
    rng = random.Random(seed)
    games: list[Game] = []
    for r in range(1, rounds + 1):
        ids = [p.id for p in players]
        rng.shuffle(ids)
        if len(ids) % 2:
            games.append(bye(r, ids.pop()))
        games += [win(r, ids[k], ids[k + 1], rng.randint(-300, 300) or 1) for k in range(0, len(ids), 2)]
    result = pair_round("chew", players, games, PairingOptions(round=rounds + 1, total_rounds=8, seed=seed))
    assert_complete(result, players)


FIVE_LAST_ROUND = [
    *[win(1, 1, 2, 100), win(1, 3, 4, 50), bye(1, 5)],
    *[win(2, 1, 3, 50), win(2, 5, 2, 100), bye(2, 4)],
    *[win(3, 5, 1, 30), win(3, 4, 2, 20), bye(3, 3)],
    *[win(4, 1, 4, 60), win(4, 3, 5, 10), bye(4, 2)],
]


def test_five_players_in_the_last_round_by_hand() -> None:
    # After round 4 of 5: 1 (3-1 +180), 5 (3-1 +170), 3 (3-1 +60), 4 (2-2 -40), 2 (1-3 -170). Only 1 has
    # had no bye, so 1 sits out (tsh too: nobody is Gibsonized, as 5 and 3 can still pass 1, and the bye
    # goes to the lowest placed of those with the fewest byes). One prize band, first place (a quarter
    # of five players, at least one), held by 1; the players left, ranked 2nd to 5th, are all below it,
    # so tsh pairs them as its bottom flights: with one round left, players within a win of the last
    # prize place (3 wins less one: 5, 3 and 4) have a faint hope and are paired in flights, which one
    # round left caps at two: first 5 and 3. They met in round 4;
    # a flight takes the fewest repeats that pair it, here one, so they meet again. 4 and 2 are the next
    # flight (also met, round 3): again one repeat. Swiss with no repeats would pair 5v4 and 3v2.
    options = PairingOptions(round=5, total_rounds=5, assign_firsts=False)
    result = pair_round("chew", field_of(5), FIVE_LAST_ROUND, options)
    assert result.bye == 1
    assert {frozenset(p) for p in result.pairs} == {frozenset((5, 3)), frozenset((4, 2))}
    assert result.repeats == 2
    swiss = pair_round("swiss", field_of(5), FIVE_LAST_ROUND, PairingOptions(round=5, assign_firsts=False))
    assert {frozenset(p) for p in swiss.pairs} == {frozenset((5, 4)), frozenset((3, 2))}
    # tsh's procedure written out gives the same.
    standings = compute_standings(field_of(5), FIVE_LAST_ROUND)
    order = [s.player for s in standings if s.player != 1]
    plain = {s.player: (s.wins, s.losses, s.spread) for s in standings}
    expected, gibsons = tsh_chew(order, plain, History(FIVE_LAST_ROUND, 5), 5, 5, (1,))
    assert {frozenset(p) for p in expected} == {frozenset((5, 3)), frozenset((4, 2))} and gibsons == []
