from events.play.core.pairing import PairingOptions, pair_round

from . import bye, field_of, win


def test_no_bye_for_an_even_field() -> None:
    assert pair_round("swiss", field_of(6), [], PairingOptions(round=1)).bye is None


def test_round_one_bye_goes_to_the_lowest_rated() -> None:
    result = pair_round("koth", field_of(7), [], PairingOptions(round=1))
    assert result.bye == 7


def test_bye_goes_to_lowest_ranked_among_fewest_byes() -> None:
    players = field_of(5)
    # Round 1: 5 had the bye. Standings after it: 5 (bye, +50), 1, 2 (wins by 10), 3, 4 (losses).
    history = [bye(1, 5), win(1, 1, 3, 10), win(1, 2, 4, 10)]
    for system in ("koth", "swiss", "random"):
        result = pair_round(system, players, history, PairingOptions(round=2, seed=1))
        # 4 is last of those without a bye.
        assert result.bye == 4, system


def test_everyone_has_had_a_bye_then_lowest_ranked_again() -> None:
    players = field_of(3)
    history = [bye(1, 3), win(1, 1, 2), bye(2, 2), win(2, 1, 3), bye(3, 1), win(3, 2, 3)]
    # All have one bye; standings after round 3: 1 (3 wins), 2 (2 wins), 3 (1 win).
    result = pair_round("koth", players, history, PairingOptions(round=4, max_repeats=5))
    assert result.bye == 3


def test_byes_chosen_from_standings_two_rounds_back() -> None:
    players = field_of(5)
    # Standings after round 1 (5 won big); round 2 is still pending.
    history = [win(1, 5, 1, 300), win(1, 2, 3, 10), bye(1, 4)]
    result = pair_round("swiss", players, history, PairingOptions(round=2, based_on_round=0))
    # Before play, order is by rating: 5 is lowest and has no bye.
    assert result.bye == 5
