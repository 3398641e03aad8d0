import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.play.core.pairing import SYSTEMS, History, PairingError, PairingOptions, PairingPlayer, pair_round
from events.play.core.results import Game, GameKind

from . import assert_complete, bye, field_of, win


def test_unknown_system_and_duplicate_players() -> None:
    with pytest.raises(ValueError, match="unknown pairing system"):
        pair_round("dutch", field_of(4), [], PairingOptions(round=1))
    players = field_of(3) + [PairingPlayer(id=1)]
    with pytest.raises(ValueError, match="listed twice"):
        pair_round("koth", players, [], PairingOptions(round=1))


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("n", [0, 1, 2, 5, 8])
def test_every_system_pairs_everyone(system: str, n: int) -> None:
    players = field_of(n)
    if system == "initial_fontes" and n < 4:
        with pytest.raises(PairingError):
            pair_round(system, players, [], PairingOptions(round=1))
        return
    # Chew pairings read how many rounds are left, so they need the event's number of rounds.
    result = pair_round(system, players, [], PairingOptions(round=1, seed=1, total_rounds=5))
    assert_complete(result, players)


def test_withdrawn_players_in_history_are_left_out() -> None:
    players = field_of(4)
    history = [win(1, 1, 5), win(1, 2, 3), Game(round=1, player_a=4, kind=GameKind.BYE)]
    result = pair_round("swiss", players, history, PairingOptions(round=2))
    assert_complete(result, players)


def test_games_of_this_round_or_later_are_ignored() -> None:
    players = field_of(4)
    stale = [win(2, 1, 2), win(2, 3, 4)]  # a previous attempt at round 2
    result = pair_round("koth", players, stale, PairingOptions(round=2))
    assert result.repeats == 0
    assert {frozenset(p) for p in result.pairs} == {frozenset((1, 2)), frozenset((3, 4))}


def test_options_are_checked() -> None:
    with pytest.raises(ValueError):
        PairingOptions(round=0)
    with pytest.raises(ValueError):
        PairingOptions(round=3, based_on_round=3)
    with pytest.raises(ValueError):
        PairingOptions(round=3, max_repeats=-1)
    with pytest.raises(ValueError, match="total_rounds"):
        pair_round("koth", field_of(4), [win(1, 1, 2)], PairingOptions(round=2, gibson=True))


@settings(max_examples=60, deadline=None)
@given(
    system=st.sampled_from(["random", "koth", "swiss"]),
    n=st.integers(0, 16),
    rounds=st.integers(0, 6),
    seed=st.integers(0, 10_000),
    max_repeats=st.sampled_from([0, 1]),
)
def test_ranked_systems_pair_everyone_within_the_repeat_limit(system, n, rounds, seed, max_repeats) -> None:
    players = field_of(n)
    rng = random.Random(seed)
    games: list[Game] = []
    for r in range(1, rounds + 1):
        ids = [p.id for p in players]
        rng.shuffle(ids)
        if len(ids) % 2:
            games.append(bye(r, ids.pop()))
        games += [win(r, ids[k], ids[k + 1], rng.randint(-100, 100) or 1) for k in range(0, len(ids), 2)]
    options = PairingOptions(round=rounds + 1, seed=seed, max_repeats=max_repeats)
    try:
        result = pair_round(system, players, games, options)
    except PairingError as error:
        assert error.best is not None
        assert_complete(error.best, players)
        assert any(History(games, rounds + 1).met(a, b) > max_repeats for a, b in error.best.pairs)
        return
    assert_complete(result, players)
    past = History(games, rounds + 1)
    assert all(past.met(a, b) <= max_repeats for a, b in result.pairs)
    assert result.repeats == sum(1 for a, b in result.pairs if past.met(a, b))
