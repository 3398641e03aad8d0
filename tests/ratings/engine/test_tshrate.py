"""Rating a `.t` file: which games count, and the rows a command prints."""

from __future__ import annotations

import pytest

from events.play.core.tsh import parse_t
from ratings.engine.naspa import rate_naspa
from ratings.engine.tshrate import division_input, rate_tsh

# Round 1: 1-2, 3 has a bye. Round 2: 1-3, 2 forfeits (0 opponent, -50).
# Round 3: 2-3 paired, only 2's score entered so far.
SMALL = """\
Alpha, Ann            1600 2 3; 420 380
Beta, Bob             1500 1 0 3; 350 -50 400
Gamma, Gil               0 0 1 2; 50 410; lifeg 7
"""


def test_each_game_once_and_only_played_games() -> None:
    inp = division_input(parse_t(SMALL))
    games = list(zip(inp.player_a, inp.player_b, inp.score_a, inp.score_b, inp.round_index, strict=True))
    assert games == [(0, 1, 420, 350, 0), (0, 2, 380, 410, 1)]
    assert list(inp.career_games) == [100, 100, 7]  # lifeg, else the default
    assert list(inp.pre_ratings) == [1600, 1500, 0]


def test_through_limits_the_rounds() -> None:
    inp = division_input(parse_t(SMALL), through=1)
    assert list(inp.round_index) == [0]


def test_rows_match_the_engine() -> None:
    tfile = parse_t(SMALL)
    rows = rate_tsh(tfile, "naspa")
    direct = rate_naspa([1600, 1500, 0], [(0, 1, 420, 350, 0), (0, 2, 380, 410, 1)], [100, 100, 7])
    assert [r.new_rating for r in rows] == [p.new_rating for p in direct.players]
    assert [(r.number, r.name, r.old_rating) for r in rows] == [
        (1, "Alpha, Ann", 1600),
        (2, "Beta, Bob", 1500),
        (3, "Gamma, Gil", 0),
    ]
    assert [r.actual_wins for r in rows] == [1.0, 0.0, 1.0]
    assert rows[0].expected_wins == pytest.approx(direct.players[0].expected_wins)


def test_lifeg_default_and_systems() -> None:
    tfile = parse_t(SMALL)
    assert rate_tsh(tfile, "naspa", lifeg_default=10) != rate_tsh(tfile, "naspa")
    assert len(rate_tsh(tfile, "wespa")) == 3
    absp = rate_tsh(tfile, "absp")
    assert absp[0].expected_wins is None
    with pytest.raises(ValueError, match="unknown"):
        rate_tsh(tfile, "elo")
