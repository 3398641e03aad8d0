"""tsh `.t`, `config.tsh` and archive reading and writing."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.play.core.tsh import (
    UNPAIRED,
    UNSET,
    TshConfig,
    TshFile,
    TshParseError,
    TshPlayer,
    parse_archive,
    parse_config,
    parse_t,
    read_t,
    write_archive,
    write_config,
    write_t,
)

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "tsh"


def fixture(name: str) -> Path:
    path = FIXTURES / name
    if not path.exists():
        pytest.skip(f"shared tsh fixtures not found at {FIXTURES} (../shared from the project root)")
    return path


def t_fixtures() -> list[str]:
    names = sorted(p.name for p in FIXTURES.glob("*.t")) if FIXTURES.is_dir() else []
    return names or ["(fixtures absent)"]


# --------------------------------------------------------------------------- real files


@pytest.mark.parametrize("name", t_fixtures())
def test_every_fixture_parses_and_round_trips(name: str) -> None:
    parsed = read_t(fixture(name))
    assert parsed.players
    assert [p.number for p in parsed.players] == list(range(1, len(parsed.players) + 1))
    for p in parsed.players:
        assert len(p.scores) <= len(p.opponents)
        assert all(0 <= o <= len(parsed.players) or o == UNPAIRED for o in p.opponents)
    assert parse_t(write_t(parsed)) == parsed


def test_rated_division_fields() -> None:
    f = read_t(fixture("jvc56_tpa_86aeb79_test_data_a.t"))
    assert len(f.players) == 24
    assert f.rounds_played() == 23
    first = f.players[0]
    assert (first.name, first.rating, first.member_id) == ("Logan, Adam", 2182, None)
    assert first.opponents[:3] == [21, 16, 11]
    assert first.scores[:3] == [526, 460, 417]
    assert first.lifeg == 766
    assert first.newr[-1] == 2208
    assert first.extras["class"] == ["A"]
    assert first.extras["excwins"] == ["2.45394589055584"]
    assert len(first.p12) == 23
    assert first.off is None


def test_empty_field_and_must_draw() -> None:
    f = read_t(fixture("e4c5_team_pairings_api_tests_anon1.t"))
    first = f.players[0]
    assert first.name == "Cynthia Gonzalez"
    assert first.rating == 0
    assert first.extras == {"p12": ["3"] * 6}


def test_withdrawn_players_byes_and_unset_ranks() -> None:
    f = read_t(fixture("e4c5_team_pairings_tournament1_a.t"))
    assert len(f.players) == 38
    cox = next(p for p in f.players if p.name == "Jon Cox")
    assert cox.off == 0
    first = f.players[0]
    assert first.opponents[9] == 0 and first.scores[9] == 50  # a bye
    assert first.rrank[0] == UNSET
    assert first.extra_ints("rcrank")[:2] == [UNSET, 13]


def test_when_a_withdrawn_player_withdrew() -> None:
    """A `.t` file does not say: the last round with a recorded rrank, else the last
    round before the run of trailing forfeits (no opponent, scored 0 or less)."""
    f = parse_t(
        "Active, Ann 1500 2 3; 400 380\n"
        "Ranked, Rob 1500 1 0 0; 300 -50 -50; off -50; rrank 2 2 00 00\n"
        "Forfeits, Fay 1500 0 1 0 0; 50 420 -50 0; off -50\n"
        "Late, Lee 1500 0 0; 0 0; off 0\n"
        "Unpaired, Ula 1500 0 0 00; 50 -50; off -50\n"
    )
    assert [p.withdrawn_after for p in f.players] == [None, 1, 2, 0, 1]
    real = read_t(fixture("e4c5_team_pairings_tournament1_a.t"))
    withdrawn = {p.number: p.withdrawn_after for p in real.players if p.off is not None}
    # 11 had a bye of 1 in round 14 (present), 14 a forfeit of -1 (the run of forfeits starts there).
    assert withdrawn == {10: 10, 11: 14, 14: 10, 32: 9, 33: 10, 36: 14, 38: 0}


def test_spread_cap_in_config() -> None:
    config = parse_config("config spread_cap = [200, 700, 0, 300]\n")
    assert config.spread_cap == (200, 700, None, 300)
    config.spread_cap = (200, None, 100)
    assert config.settings["spread_cap"] == "[200, 0, 100]"
    assert parse_config(write_config(config)).spread_cap == (200, None, 100)
    config.spread_cap = 250
    assert parse_config(write_config(config)).spread_cap == 250
    config.spread_cap = None
    assert "spread_cap" not in config.settings and config.spread_cap is None
    with pytest.raises(ValueError, match="not a whole number"):
        _ = parse_config("config spread_cap = 'wide'\n").spread_cap


def test_config_fixture() -> None:
    config = parse_config(fixture("e4c5_team_pairings_tournament1_config.tsh").read_text("utf-8"))
    assert config.divisions == {"a": "a.t"}
    assert config.max_rounds == 18
    assert config.rating_system == "aus"
    assert len(config.autopair) == 18
    assert config.autopair[0] == "autopair a 0 1 ns 0 0 a"
    assert len(config.prizes) == 13
    assert (config.prizes[0].kind, config.prizes[0].args) == ("rank", ["1", "a", "25pts"])
    assert config.prizes[-1].args == ["1", "a", "Potential Trophy & Certificate at yearend"]
    assert config.settings["bye_spread"] == "1"
    assert config.settings["gibson"] == "'strict'"  # the later line wins
    assert config.settings["prize_bands{'A'}"] == "[1, 12]"
    assert config.settings["spread_cap"].startswith("[200, 700")
    assert config.spread_cap == (200,) + (700,) * 17
    assert parse_config(write_config(config)) == config


def test_archive_fixture() -> None:
    config, files = parse_archive(fixture("liwords_wtf5-tsh.golden.tsh").read_text("utf-8"))
    assert config.divisions == {"CSW": "CSW.t", "NWL": "NWL.t"}
    assert config.rating_system == "nsa2008"
    assert config.settings == {"archive_source_type": "'tsh'"}
    assert list(files) == ["CSW.t", "NWL.t"]
    assert [p.name for p in files["CSW.t"].players] == [
        "jellomochas",
        "xeroexpert",
        "curtis_smith",
        "nchagti",
    ]
    ibex = files["NWL.t"].players[6]
    assert (ibex.name, ibex.rating, ibex.opponents) == ("IBex7", 333, [4, 2, 3, 2])
    assert parse_archive(write_archive(config, files)) == (config, files)


# --------------------------------------------------------------------------- format details


def test_line_structure() -> None:
    text = "# a comment\n\nSmith, Jo:NA123456,  1500 2 0 00; 412 50; p12 1 0; zz 1; board 3 4\n"
    text += "Second Player 1400 1 3; 380\n"
    text += "Third 0 0 2; -50\n"
    f = parse_t(text)
    smith = f.players[0]
    assert (smith.name, smith.member_id, smith.rating) == ("Smith, Jo", "NA123456", 1500)
    assert smith.opponents == [2, 0, UNPAIRED]
    assert smith.scores == [412, 50]
    assert smith.extras == {"p12": ["1", "0"], "zz": ["1"], "board": ["3", "4"]}
    assert f.players[2].scores == [-50]
    assert f.rounds_played() == 2
    written = write_t(f)
    # Extras are written sorted by key; unknown keys survive.
    assert written.splitlines()[0].endswith("; board 3 4; p12 1 0; zz 1")
    assert parse_t(written) == f


def test_names_ending_in_a_digit_get_a_comma() -> None:
    f = TshFile(
        players=[
            TshPlayer("Player 2", 1500, [2], [400], number=1),
            TshPlayer("Jones", 1400, [1], [300], member_id="NA000123", number=2),
        ]
    )
    lines = write_t(f).splitlines()
    assert lines[0].startswith("Player 2,")
    assert lines[1].startswith("Jones:NA000123,")
    assert parse_t("\n".join(lines)) == f


def test_unwritable_names_are_refused() -> None:
    for name in ("Team 2 Alpha", "", "a;b", "#x"):
        with pytest.raises(ValueError, match="cannot write"):
            write_t(TshFile(players=[TshPlayer(name, 1500, [], [], number=1)]))


def test_any_mix_of_line_breaks_and_encodings() -> None:
    raw = "Ael, Zoë 1500 2; 400\r\nB 1400 1; 300\rC 0;\n".encode("iso-8859-1")
    f = read_t(raw)
    assert [p.name for p in f.players] == ["Ael, Zoë", "B", "C"]
    assert read_t("Ael, Zoë 1500 2; 400\r\nB 1400 1; 300\rC 0;\n".encode()) == f
    assert read_t("\ufeffAel, Zoë 1500 2; 400\nB 1400 1; 300\nC 0;".encode("utf-8")) == f


def test_line_without_scores_or_semicolon() -> None:
    f = parse_t("Alpha 1500 2\nBeta 1400 1\n")
    assert f.players[0].opponents == [2] and f.players[0].scores == []


def test_escaped_semicolons_in_extras() -> None:
    f = TshFile(players=[TshPlayer("A", 1500, [], [], extras={"note": ["a;b", "c\\d"]}, number=1)])
    assert parse_t(write_t(f)) == f


def test_trailing_line_number_comment_is_dropped() -> None:
    assert parse_t("Alpha 1500 2; 400; # 12\nBeta 1400 1; 300\n").players[0].extras == {}


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("Smith, John ; 400 300", "expected a rating after the name"),
        ("Smith, John 1500 2 x3; 400", "expected an opponent number, found 'x3'"),
        ("Smith, John 1500 2; 400 300", "expected at most 1 scores (one per opponent), found 2"),
        ("1500 2; 400", "expected a name before the rating"),
        (":NA1 1500 2; 400", "expected a name before the rating"),
        ("Smith 1500.5 2; 400", "expected an integer rating, found '1500.5'"),
        ("Smith 1500 2; 4x00", "expected an integer score, found '4x00'"),
        ("Smith 1500 9; 400", "expected an opponent number from 1 to 2, found 9"),
    ],
)
def test_malformed_lines_name_the_line(line: str, reason: str) -> None:
    text = "# header\n\nGood, Player 1500 2; 350\n" + line + "\n"
    with pytest.raises(TshParseError) as caught:
        parse_t(text)
    assert caught.value.line == 4
    assert caught.value.reason == reason
    assert str(caught.value) == f"line 4: {reason}"


def test_scores_may_lag_opponents() -> None:
    f = parse_t("A 1500 2 2 2; 400\nB 1400 1 1 1; 300\n")
    assert f.players[0].opponents == [2, 2, 2] and f.players[0].scores == [400]


def test_archive_errors_use_archive_line_numbers() -> None:
    text = "division A a.t\n#begin_file name=a.t\nA 1500 2; 400\nB 1400 x; 300\n#end_file name=a.t\n"
    with pytest.raises(TshParseError) as caught:
        parse_archive(text)
    assert caught.value.line == 4
    with pytest.raises(TshParseError, match="line 1: expected #end_file name=a.t to close"):
        parse_archive("#begin_file name=a.t\nA 1500;\n")


def test_config_errors() -> None:
    with pytest.raises(TshParseError, match="line 2: expected an integer max_rounds"):
        parse_config("division A a.t\nconfig max_rounds = lots\n")
    with pytest.raises(TshParseError, match="line 1: expected 'division NAME FILE'"):
        parse_config("division A\n")


def test_config_keeps_other_lines() -> None:
    config = parse_config('config max_rounds = 7\nconfig rating_system = "nsa2008"\nfoo bar\n')
    assert config == TshConfig(max_rounds=7, rating_system="nsa2008", other=["foo bar"])


# --------------------------------------------------------------------------- round trip


_word = st.text(alphabet="abcdefghijklmnopqrstuvwxyzÀé'-.", min_size=1, max_size=8)


@st.composite
def tsh_files(draw: st.DrawFn) -> TshFile:
    n = draw(st.integers(min_value=1, max_value=6))
    rounds = draw(st.integers(min_value=0, max_value=5))
    players = []
    for number in range(1, n + 1):
        words = draw(st.lists(_word, min_size=1, max_size=3))
        if draw(st.booleans()):
            words[-1] += str(draw(st.integers(0, 99)))  # a name ending in a digit
        opponents = draw(st.lists(st.integers(-1, n), min_size=rounds, max_size=rounds))
        played = draw(st.integers(max(0, rounds - 1), rounds))
        scores = draw(st.lists(st.integers(-200, 800), min_size=played, max_size=played))
        keys = draw(st.lists(st.sampled_from(["p12", "board", "newr", "zz", "team"]), unique=True))
        extras = {k: draw(st.lists(st.text(alphabet="0123456789;x\\", min_size=1), max_size=3)) for k in keys}
        member = draw(st.one_of(st.none(), st.from_regex(r"[A-Z]{2}[0-9]{6}", fullmatch=True)))
        players.append(
            TshPlayer(
                name=" ".join(words),
                rating=draw(st.integers(0, 2500)),
                opponents=opponents,
                scores=scores,
                member_id=member,
                extras=extras,
                number=number,
            )
        )
    return TshFile(players=players)


@settings(max_examples=200, deadline=None)
@given(tsh_files())
def test_write_then_parse_gives_the_same_file(f: TshFile) -> None:
    assert parse_t(write_t(f)) == f
