"""Chew pairings pair as tsh's `cp` does, round by round on real divisions and on generated fields, against
tsh's procedure written out as its Perl runs (`tsh_chew_reference`)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.play.core.pairing.chew import ChewRecord, chew_pairs, competition_ranks, default_prize_bands
from events.play.core.pairing.core import History
from events.play.core.standings import Entrant, compute_standings

from . import bye, win
from .test_swiss_tsh import shared
from .tsh_chew_reference import tsh_chew
from .tsh_reference import REAL_FILES, file_games, games_of


def as_sets(pairs):
    return {frozenset(p) for p in pairs}


def compare(order, standings, past, round_number, total_rounds, bands, firsts=False):
    records = {s.player: ChewRecord(s.wins, s.losses, s.spread) for s in standings}
    ranks = competition_ranks([s.player for s in standings], records)
    got, gibsons = chew_pairs(order, records, ranks, past, round_number, total_rounds, bands, firsts=firsts)
    plain = {s.player: (s.wins, s.losses, s.spread) for s in standings}
    expected, expected_gibsons = tsh_chew(order, plain, past, round_number, total_rounds, bands, firsts)
    return as_sets(got), as_sets(expected), gibsons, expected_gibsons


@pytest.mark.parametrize("firsts", [False, True])
@pytest.mark.parametrize("bands", [None, (1, 2, 3, 4, 8)])
@pytest.mark.parametrize("name", REAL_FILES)
def test_real_divisions_round_by_round_as_tsh(name, bands, firsts) -> None:
    """With `firsts`, from the starts the file records, as tsh pairs when it assigns starts."""
    f = shared(name)
    games = file_games(f) if firsts else games_of(f)
    entrants = [Entrant(id=p.number, rating=p.rating, seed=p.number) for p in f.players]
    total = f.rounds_played()
    bands = bands or default_prize_bands(len(f.players))
    boards = 0
    for r in range(2, total + 1):
        playing = {p.number for p in f.players if len(p.opponents) >= r and p.opponents[r - 1] > 0}
        past = History(games, r)
        standings = compute_standings(entrants, past.games, through_round=r - 1)
        order = [s.player for s in standings if s.player in playing]
        got, expected, gibsons, expected_gibsons = compare(order, standings, past, r, total, bands, firsts)
        assert got == expected, f"round {r}"
        assert gibsons == expected_gibsons, f"round {r}"
        boards += len(got)
    assert boards == sum(
        sum(1 for p in f.players if len(p.opponents) >= r and p.opponents[r - 1] > 0) // 2 for r in range(2, total + 1)
    )


@settings(max_examples=60, deadline=None)
@given(
    n=st.sampled_from([2, 4, 6, 8, 10, 12, 14]),
    played=st.integers(0, 7),
    extra=st.integers(0, 3),
    seed=st.integers(0, 10_000),
    bands=st.sampled_from([None, (1,), (1, 2, 4), (1, 2, 3, 6)]),
    firsts=st.booleans(),
)
def test_generated_fields_as_tsh(n, played, extra, seed, bands, firsts) -> None:
    rng = random.Random(seed)
    entrants = [Entrant(id=k, rating=2000 - k, seed=k) for k in range(1, n + 1)]
    games = []
    for r in range(1, played + 1):
        ids = list(range(1, n + 1))
        rng.shuffle(ids)
        if rng.random() < 0.2:
            games.append(bye(r, ids.pop()))
            ids.pop()  # and one sits out, as a late entrant would
        games += [
            win(r, ids[k], ids[k + 1], rng.choice([1, 30, 120, 260, 480]), first=rng.choice(ids[k : k + 2]))
            for k in range(0, len(ids) - 1, 2)
        ]
    total = played + 1 + extra
    past = History(games, played + 1)
    standings = compute_standings(entrants, past.games, through_round=played)
    order = [s.player for s in standings]
    got, expected, gibsons, expected_gibsons = compare(
        order, standings, past, played + 1, total, bands or default_prize_bands(n), firsts
    )
    assert got == expected
    assert gibsons == expected_gibsons
