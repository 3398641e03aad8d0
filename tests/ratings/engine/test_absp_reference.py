"""The ABSP engine against tsh's ABSP rating written out as tsh works it (absp_reference).

Every new rating tsh gives, for every round of the real files rated through that round, and
for made-up events mixing rated players, newcomers, byes, ties and scores of 0.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from events.play.core.tsh import TshFile, TshPlayer, parse_t, read_t
from ratings.engine.tshrate import rate_tsh
from tests.ratings.engine.absp_reference import tsh_absp, tsh_absp_file

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared" / "fixtures" / "tsh"
REAL_FILES = [
    "jvc56_tpa_86aeb79_test_data_a.t",  # all rated
    "e4c5_team_pairings_api_tests_anon1.t",  # all unrated
    "e4c5_team_pairings_tournament1_a.t",  # all unrated, byes, late entrants, withdrawals
]


def _compare(tfile: TshFile) -> tuple[int, int]:
    """(values equal, values tsh gives) over every round the file is rated through."""
    equal = total = 0
    for through in range(1, tfile.rounds_played() + 1):
        expected = tsh_absp_file(tfile, through)
        rows = rate_tsh(tfile, "absp", through=through)
        for want, row in zip(expected, rows, strict=True):
            if want is None:
                continue
            total += 1
            equal += row.new_rating == want
    return equal, total


def _real(name: str) -> TshFile:
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"shared tsh fixtures not found at {SHARED} (../shared from the project root)")
    return read_t(path)


def _every_third_unrated(tfile: TshFile) -> TshFile:
    players = [dataclasses.replace(p, rating=0) if i % 3 == 2 else p for i, p in enumerate(tfile.players)]
    return dataclasses.replace(tfile, players=players)


def test_real_files_equal_tsh_round_by_round() -> None:
    # 24 x 23 + 42 x 6 + 38 x 18 values, and the first file again with every third player
    # unrated: 2,040 values, all equal (the engine before newcomers were rated as tsh does: 930).
    counts = {}
    for name in REAL_FILES:
        tfile = _real(name)
        counts[name] = _compare(tfile)
        if name.startswith("jvc56"):
            counts[name + " mixed"] = _compare(_every_third_unrated(tfile))
    assert counts == {
        "jvc56_tpa_86aeb79_test_data_a.t": (552, 552),
        "jvc56_tpa_86aeb79_test_data_a.t mixed": (552, 552),
        "e4c5_team_pairings_api_tests_anon1.t": (252, 252),
        "e4c5_team_pairings_tournament1_a.t": (684, 684),
    }


def _random_event(rng: random.Random) -> TshFile:
    n = rng.randint(2, 12)
    rounds = rng.randint(1, 8)
    opponents: list[list[int]] = [[] for _ in range(n)]
    scores: list[list[int]] = [[] for _ in range(n)]
    for _ in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        byes = len(order) % 2 + (2 if rng.random() < 0.2 else 0)
        for bye in order[len(order) - min(byes, len(order)) :]:
            opponents[bye].append(0)
            scores[bye].append(rng.choice([50, 100, -50, 0]))
        order = order[: len(order) - min(byes, len(order))]
        for i, j in zip(order[::2], order[1::2], strict=True):
            opponents[i].append(j + 1)
            opponents[j].append(i + 1)
            si, sj = rng.randint(250, 500), rng.randint(250, 500)
            if rng.random() < 0.1:
                sj = si  # a tie
            if rng.random() < 0.03:
                si = 0  # tsh reads it as no score
            scores[i].append(si)
            scores[j].append(sj)
    players = [
        TshPlayer(
            name=f"Player{i}, P",
            rating=rng.choice([0, 0, rng.randint(1, 60), rng.randint(60, 220)]),
            opponents=opponents[i],
            scores=scores[i],
        )
        for i in range(n)
    ]
    return TshFile(players=players)


@pytest.mark.parametrize("seed", range(8))
def test_made_up_events_equal_tsh(seed: int) -> None:
    # 320 events, 10,426 values over all seeds (the engine before: 3,126 equal).
    rng = random.Random(seed)
    for _ in range(40):
        tfile = _random_event(rng)
        equal, total = _compare(tfile)
        assert equal == total


def test_reference_reads_the_rule_as_written() -> None:
    # The worked example of test_absp (A 150, B 100, newcomers N1 and N2) through the reference.
    ratings = [150, 100, 0, 0]
    pairings = [[3, 2, 4], [4, 1, 3], [1, 4, 2], [2, 3, 1]]
    scores = [[350, 390, 410], [380, 360, 400], [400, 420, 340], [300, 330, 370]]
    assert tsh_absp(ratings, pairings, scores, 2) == [160, 90, 127, 80]


SMALL = """\
Ace, Amy               150 2 0; 400 50
Bay, Ben               140 1 0; 380 100
Dee, Dan               150 0 0; 50 50
Low, Lou                30 0; 100
New, Nan                 0 0; 50
Gone, Gil              120 ;
"""


def test_tsh_rate_rows_for_byes_and_absent_players() -> None:
    rows = rate_tsh(parse_t(SMALL), "absp")
    # Amy beat Ben (140 within 40): 190. Ben: 150 - 50 = 100. Dan had only byes: keeps 150.
    # Lou, only a bye, is raised to 40; Nan, a newcomer with only a bye, is shown at 80 as tsh
    # shows her; Gil has no result: keeps 120.
    assert [(r.old_rating, r.new_rating) for r in rows] == [
        (150, 190),
        (140, 100),
        (150, 150),
        (30, 40),
        (0, 80),
        (120, 120),
    ]
    assert tsh_absp_file(parse_t(SMALL)) == [190, 100, 150, 40, 80, None]
