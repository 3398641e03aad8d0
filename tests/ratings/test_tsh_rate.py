"""`manage.py tsh_rate`: rating a .t file from the command line, as tsh does."""

import csv
import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from events.play.core.tsh import read_t

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
TPA = SHARED / "fixtures" / "tsh" / "jvc56_tpa_86aeb79_test_data_a.t"


def rate(*args) -> list[dict]:
    out = io.StringIO()
    call_command("tsh_rate", *map(str, args), stdout=out)
    return list(csv.DictReader(io.StringIO(out.getvalue())))


@pytest.fixture
def tpa():
    if not TPA.exists():
        pytest.skip("the shared tsh fixtures are not available next to the project")
    return TPA


def test_header_and_one_line_per_player_in_file_order(tpa):
    rows = rate(tpa)
    players = read_t(tpa).players
    assert list(rows[0]) == ["number", "name", "old_rating", "new_rating", "expected_wins", "actual_wins"]
    assert [(int(r["number"]), r["name"]) for r in rows] == [(p.number, p.name) for p in players]
    assert [int(r["old_rating"]) for r in rows] == [p.rating for p in players]


def test_through_each_round_gives_the_files_own_newr(tpa):
    players = read_t(tpa).players
    rounds = max(len(p.newr) for p in players)
    for r in range(1, rounds + 1):
        rows = rate(tpa, "--through", r)
        expected = [p.newr[r - 1] for p in players if len(p.newr) >= r]
        got = [int(row["new_rating"]) for row, p in zip(rows, players, strict=True) if len(p.newr) >= r]
        assert got == expected, f"round {r}"


def test_actual_wins_count_ties_as_half(tpa):
    rows = rate(tpa, "--through", 3)
    players = read_t(tpa).players
    for row, p in zip(rows, players, strict=True):
        wins = 0.0
        for rnd in range(3):
            opp = p.opponents[rnd]
            if opp > 0:
                mine, theirs = p.scores[rnd], players[opp - 1].scores[rnd]
                wins += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        assert float(row["actual_wins"]) == wins


def test_other_systems_and_options_run(tpa):
    wespa = rate(tpa, "--system", "wespa")
    naspa = rate(tpa, "--max-rounds", 30, "--lifeg-default", 10)
    assert len(wespa) == len(naspa) > 0
    assert [r["new_rating"] for r in wespa] != [r["new_rating"] for r in naspa]


def test_absp_prints_ratings_and_leaves_expected_wins_empty(tpa):
    rows = rate(tpa, "--system", "absp")
    assert len(rows) == 24
    assert {r["expected_wins"] for r in rows} == {""}
    assert all(int(r["new_rating"]) > 0 for r in rows)


def test_a_line_that_does_not_parse_is_named_and_nothing_is_printed(tmp_path):
    bad = tmp_path / "bad.t"
    bad.write_text("Tan, Wei Ling 1500 2; 400\nLim, Bob 1600 x1; 380\n", encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(CommandError) as error:
        call_command("tsh_rate", str(bad), stdout=out)
    assert "line 2" in str(error.value)
    assert "expected an opponent number" in str(error.value)
    assert out.getvalue() == ""


def test_a_missing_file_and_bad_options_are_refused(tmp_path, tpa):
    with pytest.raises(CommandError, match="no such file"):
        call_command("tsh_rate", str(tmp_path / "none.t"), stdout=io.StringIO())
    with pytest.raises(CommandError, match="after the last round"):
        call_command("tsh_rate", str(tpa), "--through", "99", stdout=io.StringIO())
