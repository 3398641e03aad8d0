"""The table of measured figures in docs/pairing-and-ratings.md ("How closely the site pairs as tsh"),
measured again: every row of the table must be a row measured here, and every row measured here must be
in the table, figure for figure."""

from collections import Counter
from pathlib import Path

import pytest

from events.play.core import tsh
from events.play.core.pairing import PairingOptions, pair_round
from events.play.core.pairing.chew import ChewRecord, chew_pairs, competition_ranks, default_prize_bands
from events.play.core.pairing.core import History
from events.play.core.pairing.ranked import koth_pairs
from events.play.core.pairing.swiss import swiss_pairs
from events.play.core.standings import Entrant, StandingsOptions, compute_standings

from . import test_firsts_tsh, test_fontes, test_round_robin
from .tsh_chew_reference import tsh_chew
from .tsh_reference import REAL_FILES, SHARED, file_games, games_of, tsh_koth, tsh_swiss

DOC = Path(__file__).resolve().parents[3] / "docs" / "pairing-and-ratings.md"
MARK = "<!-- measured by tests/events/pairing/test_figures.py -->"
REAL = "tsh's rules as the tests write them out, 3 real divisions"
T1 = "e4c5_team_pairings_tournament1_a.t"


def shared(name: str) -> tsh.TshFile:
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"{path} is not here (the shared fixtures live beside the project)")
    return tsh.parse_t(tsh.decode_tsh_bytes(path.read_bytes()))


def as_sets(pairs):
    return {frozenset(p) for p in pairs}


def documented() -> dict[tuple[str, str], tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    assert MARK in text, "the measured table is gone from the documentation"
    rows = {}
    for line in text.split(MARK, 1)[1].lstrip().splitlines()[2:]:
        if not line.startswith("|"):
            break
        what, against, rounds, equal = (cell.strip() for cell in line.strip("|").split("|"))
        rows[what, against] = (rounds, equal)
    return rows


def ratio(same: int, total: int, unit: str = "") -> str:
    return f"{same}/{total}" + (f" {unit}" if unit else "")


def real_rounds(firsts: bool):
    """Each round from the second of each real division: players in standings order, standings, history."""
    for name in REAL_FILES:
        f = shared(name)
        games = file_games(f) if firsts else games_of(f)
        entrants = [Entrant(id=p.number, rating=p.rating, seed=p.number) for p in f.players]
        for r in range(2, f.rounds_played() + 1):
            playing = {p.number for p in f.players if len(p.opponents) >= r and p.opponents[r - 1] > 0}
            past = History(games, r)
            standings = compute_standings(entrants, past.games, through_round=r - 1)
            yield f, r, [s.player for s in standings if s.player in playing], standings, past


def against_reference(pair, firsts: bool = False) -> tuple[str, str]:
    rounds = same = boards = total = 0
    for f, r, order, standings, past in real_rounds(firsts):
        got, expected = pair(f, r, order, standings, past)
        assert expected is not None, "the reference refused a round"
        rounds += 1
        same += as_sets(got) == as_sets(expected)
        boards += len(as_sets(got) & as_sets(expected))
        total += len(expected)
    return ratio(same, rounds), ratio(boards, total, "boards")


def koth(limit):
    return lambda f, r, order, standings, past: (koth_pairs(order, past, True, limit), tsh_koth(order, past, limit))


def ns(limit, firsts):
    def pair(f, r, order, standings, past):
        wins = {s.player: s.wins for s in standings}
        return swiss_pairs(order, wins, past, limit, firsts), tsh_swiss(order, wins, past, limit, firsts)

    return pair


def cp(bands, firsts):
    def pair(f, r, order, standings, past):
        b = bands or default_prize_bands(len(f.players))
        records = {s.player: ChewRecord(s.wins, s.losses, s.spread) for s in standings}
        ranks = competition_ranks([s.player for s in standings], records)
        got, _ = chew_pairs(order, records, ranks, past, r, f.rounds_played(), b, firsts=firsts)
        plain = {s.player: (s.wins, s.losses, s.spread) for s in standings}
        expected, _ = tsh_chew(order, plain, past, r, f.rounds_played(), b, firsts)
        return got, expected

    return pair


def tournament1():
    """tournament1's rounds from the second, with the config's caps and the file's starts and byes."""
    f = shared(T1)
    options = StandingsOptions(
        spread_cap=tsh.parse_config(
            tsh.decode_tsh_bytes((SHARED / "e4c5_team_pairings_tournament1_config.tsh").read_bytes())
        ).spread_cap
    )
    games = file_games(f)
    entrants = [Entrant(id=p.number, rating=p.rating, seed=p.number) for p in f.players]
    for r in range(2, f.rounds_played() + 1):
        recorded = {frozenset((p.number, p.opponents[r - 1])) for p in f.players if p.opponents[r - 1] > 0}
        unopposed = [p.number for p in f.players if p.opponents[r - 1] == 0 and p.scores[r - 1] != 0]
        bye = unopposed[0] if len(unopposed) == 1 else None  # round 10's and 14's were entered by hand
        past = History(games, r)
        standings = compute_standings(entrants, past.games, options, through_round=r - 1)
        playing = {n for pair in recorded for n in pair}
        order = [s.player for s in standings if s.player in playing]
        yield r, recorded, bye, order, standings, past, games, entrants, options


def recorded_swiss(firsts: bool) -> tuple[str, str]:
    same = boards = total = 0
    for r, recorded, _, order, standings, past, *_ in tournament1():
        wins = {s.player: s.wins for s in standings}
        got = as_sets(swiss_pairs(order, wins, past, 0 if r <= 9 else 3, firsts))
        same += got == recorded
        boards += len(got & recorded)
        total += len(recorded)
    return ratio(same, 17), ratio(boards, total, "boards")


def recorded_koth() -> tuple[str, str]:
    same = boards = total = 0
    for r, recorded, _, order, _, past, *_ in tournament1():
        if r >= 17:
            got = as_sets(koth_pairs(order, past, True, 3))
            same += got == recorded
            boards += len(got & recorded)
            total += len(recorded)
    return ratio(same, 2), ratio(boards, total, "boards")


def recorded_byes_and_gibsons(allowance: int) -> tuple[int, int, int]:
    """(byes as recorded, rounds Gibsonized as recorded, rounds) with the site's whole pairing."""
    byes = gibsons = rounds = 0
    for r, recorded, bye, _, _, _, games, entrants, options in tournament1():
        present = {n for pair in recorded for n in pair} | ({bye} if bye else set())
        result = pair_round(
            "swiss",
            [e for e in entrants if e.id in present],
            games,
            PairingOptions(
                round=r,
                total_rounds=18,
                max_repeats=0 if r <= 9 else 3,
                gibson=True,
                gibson_spread=allowance,
                prize_places=12,
                seed=1,
                standings=options,
            ),
        )
        rounds += 1
        byes += bye is not None and result.bye == bye
        # tsh Gibsonized the leader once, in round 18 (they took the bye); in every other round the
        # leader met a contender.
        gibsons += result.gibsonized == (1 if r == 18 else None)
    return byes, gibsons, rounds


def measured() -> dict[tuple[str, str], tuple[str, str]]:
    rows: dict[tuple[str, str], tuple[str, str]] = {}
    for limit in (0, 1, 2):
        rows[f"King of the Hill `koth`, repeats {limit}", REAL] = against_reference(koth(limit))
    for firsts in (False, True):
        starts = ", starts assigned" if firsts else ""
        for limit in (0, 1, 2):
            rows[f"Swiss `ns`, repeats {limit}{starts}", REAL] = against_reference(ns(limit, firsts), firsts)
        for bands in (None, (1, 2, 3, 4, 8)):
            label = "default prize bands" if bands is None else "prize bands 1, 2, 3, 4, 8"
            rows[f"Chew `cp`, {label}{starts}", REAL] = against_reference(cp(bands, firsts), firsts)
    recorded = "tournament1's recorded pairings, rounds 2-18"
    rows["Swiss `ns` as configured (repeats 0, then 3), starts assigned", recorded] = recorded_swiss(True)
    rows["Swiss `ns` as configured, starts not used (as before)", recorded] = recorded_swiss(False)
    rows["King of the Hill `koth`, repeats 3", "tournament1's recorded rounds 17-18"] = recorded_koth()

    rr_rounds = rr_same = rr_boards = rr_total = 0
    for n in range(4, 17):
        site, berger = test_round_robin.site_schedule(n), test_round_robin.tsh_berger_schedule(n)
        rr_rounds += len(berger)
        rr_same += sum(a == b for a, b in zip(site, berger, strict=True))
        rr_boards += sum(len(a & b) for a, b in zip(site, berger, strict=True))
        rr_total += sum(len(b) for b in berger)
    rows["Round robin `rr`, 4 to 16 players", "tsh's Berger tables"] = (
        ratio(rr_same, rr_rounds),
        ratio(rr_boards, rr_total, "boards"),
    )

    blocks = complete = 0
    for n, rounds in [(8, 3), (9, 3), (10, 3), (11, 3), (13, 3), (14, 3), (13, 5), (17, 5), (24, 5)]:
        for snaked in (False, True):
            results = test_fontes.block(n, rounds=rounds, initial_snaked=snaked, seed=5)
            met = Counter(frozenset(p) for result in results for p in result.pairs)
            blocks += 1
            complete += set(met.values()) == {1}
    rows["Initial Fontes `if`, random and snaked", "generated blocks, 8 to 24 players: groups meet in full"] = (
        "-",
        ratio(complete, blocks, "blocks"),
    )

    byes, gibsons, rounds = recorded_byes_and_gibsons(500)
    rows["Byes", "tournament1's recorded byes"] = ("-", ratio(byes, 8, "byes"))
    rows["Gibsonization, tsh's allowance (500 a round)", "tournament1's recorded rounds 2-18"] = (
        ratio(gibsons, rounds),
        "-",
    )
    _, gibsons, rounds = recorded_byes_and_gibsons(200)
    rows["Gibsonization, the site's allowance (200 a round)", "tournament1's recorded rounds 2-18"] = (
        ratio(gibsons, rounds),
        "-",
    )
    for name, label in [("jvc56_tpa_86aeb79_test_data_a.t", "jvc56's"), (T1, "tournament1's")]:
        same, differ, _ = test_firsts_tsh.compare(shared(name))
        rows["Who goes first", f"{label} recorded starts that the rule decides"] = (
            "-",
            ratio(same, same + differ, "starts"),
        )
    return rows


def test_the_documented_figures_are_measured() -> None:
    assert documented() == measured()
