"""Who starts, against the starts tsh recorded (`p12`) in real divisions, round by round from the
recorded pairs and the starts before them."""

import pytest

from events.play.core import tsh
from events.play.core.pairing.core import History
from events.play.core.pairing.firsts import due_to_start
from events.play.core.results import GameKind

from .tsh_reference import SHARED, games_of


def shared(name: str) -> tsh.TshFile:
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"{path} is not here (the shared fixtures live beside the project)")
    return tsh.parse_t(tsh.decode_tsh_bytes(path.read_bytes()))


def compare(f: tsh.TshFile) -> tuple[int, int, int]:
    """(games tsh's rule decides that the site decides the same way, decided games that differ, draws):
    games whose two players both recorded a start or a reply (p12 1 and 2)."""
    p12 = {p.number: p.p12 for p in f.players}

    def start_of(game):
        if game.kind is not GameKind.NORMAL:
            return None
        mine = p12[game.player_a][game.round - 1] if game.round <= len(p12[game.player_a]) else None
        return game.player_a if mine == 1 else game.player_b if mine == 2 else None

    games = [g._replace(first=start_of(g)) for g in games_of(f)]
    same = differ = draws = 0
    for g in games:
        if g.first is None:
            continue
        other = p12[g.player_b][g.round - 1]
        assert {p12[g.player_a][g.round - 1], other} == {1, 2}, "the two players' p12 must agree"
        starter = due_to_start(g.player_a, g.player_b, History(games, g.round))
        if starter is None:
            draws += 1
        elif starter == g.first:
            same += 1
        else:
            differ += 1
    return same, differ, draws


def test_starts_equal_tsh_s_in_a_real_naspa_division() -> None:
    # 24 players, 23 rounds, no byes: 276 games. Counted from the file's p12 alone, round by round (a
    # separate count that keeps each player's starts and replies): 126 games have a player with fewer
    # starts (or, level, more replies), and tsh started that player in every one; 150 are level on both,
    # which tsh draws at random.
    assert compare(shared("jvc56_tpa_86aeb79_test_data_a.t")) == (126, 0, 150)


def test_starts_equal_tsh_s_in_a_division_with_byes() -> None:
    # 38 players, 18 rounds, byes and withdrawals (opponent 0, neither a start nor a reply); the last
    # round's starts are open (p12 3) and left out: 282 games with a recorded start. The same separate
    # count: 153 decided by the rule, all as recorded; 129 level.
    assert compare(shared("e4c5_team_pairings_tournament1_a.t")) == (153, 0, 129)
