"""How each round was paired travels with config.tsh as tsh's `autopair` lines, both ways (issue 25)."""

import pytest

from events.play import services as play
from events.play.core import tsh
from events.play.core.pairing.tsh_commands import PairedRound, from_tsh_command, system_label, tsh_command
from events.play.models import Round
from events.play.services import tsh_io
from tests.factories import AssociationFactory, UserFactory

from .test_tsh_interchange import shared


def normalised(lines):
    return sorted(" ".join(line.split()) for line in lines)


def test_an_autopair_line_is_read_into_its_parts_and_written_back() -> None:
    line = tsh.parse_autopair("autopair  A 3 4 KOTH 1 3 A")
    assert line == tsh.Autopair("A", 3, 4, "koth", ("1", "3", "A"))
    assert line.line == "autopair A 3 4 koth 1 3 A"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("autopair A 3", "expected 'autopair DIVISION"),
        ("autopair A x 4 koth 0 3 A", "based-on round must be a whole number, found 'x'"),
        ("autopair A 4 4 koth 0 4 A", "round 4 cannot be paired from the results of round 4"),
        ("autopair A 0 0 rr A", "the round to pair must be 1 to"),
        ("autopair A 0 99999999999 rr A", "the round must be a whole number"),
    ],
)
def test_a_bad_autopair_line_is_refused_with_its_line_number(text, reason) -> None:
    with pytest.raises(tsh.TshParseError) as caught:
        tsh.parse_config(f"division A a.t\n\n{text}\n")
    assert caught.value.line == 3
    assert reason in caught.value.reason


def test_each_system_is_named_with_tsh_s_command() -> None:
    assert system_label("koth") == "King of the Hill (tsh koth)"
    assert system_label("swiss") == "Swiss (tsh ns)"
    assert system_label("random") == "Random (tsh rp)"
    assert system_label("round_robin") == "Round robin (tsh rr)"
    assert system_label("double_round_robin") == "Double round robin (tsh rr 2)"
    assert system_label("initial_fontes") == "Initial Fontes (tsh if)"


@pytest.mark.parametrize(
    ("paired", "expected"),
    [
        (PairedRound(4, "koth", max_repeats=1), (3, "koth", ("1", "3", "A"))),
        (PairedRound(5, "swiss", based_on_round=3, max_repeats=0), (3, "ns", ("0", "3", "A"))),
        (PairedRound(2, "random", max_repeats=None), (1, "rp", ("7", "1", "A"))),  # no limit: the event's rounds
        (PairedRound(1, "round_robin"), (0, "rr", ("A",))),
        (PairedRound(1, "double_round_robin"), (0, "rr", ("2", "A"))),
        (PairedRound(1, "initial_fontes", fontes_rounds=3), (0, "if", ("3", "A"))),
        (PairedRound(3, "round_robin"), None),  # paired by round 1's line
        (PairedRound(2, "tsh"), None),  # an imported round whose pairing is not known
    ],
)
def test_a_round_as_tsh_s_command(paired, expected) -> None:
    assert tsh_command(paired, "A", 7) == expected
    if expected is not None and paired.max_repeats is not None:
        assert from_tsh_command(expected[1], expected[2], paired.round)[0] == paired


def test_initial_fontes_s_line_stands_for_its_rounds_and_an_unknown_command_is_named() -> None:
    assert [p.round for p in from_tsh_command("if", ["3", "A"], 1)] == [1, 2, 3]
    with pytest.raises(ValueError, match="the site does not pair with tsh's 'brack'"):
        from_tsh_command("brack", ["3", "A"], 4)


@pytest.fixture
def staff(db):
    AssociationFactory()
    return UserFactory(is_staff=True, is_superuser=True)


def test_a_real_config_s_autopair_lines_survive_import_then_export(staff) -> None:
    """e4c5's config pairs every round by tsh's ns: no repeats up to round 9, then up to three."""
    text = shared("e4c5_team_pairings_tournament1_a.t")
    config_text = shared("e4c5_team_pairings_tournament1_config.tsh")
    report = tsh_io.import_tsh(staff, text, config_text=config_text, event_slug="autopaired")
    rounds = list(Round.objects.filter(division=report.division).order_by("number"))
    assert [(r.pairing_system, r.based_on_round, r.max_repeats) for r in rounds] == [
        ("swiss", None, 0 if r.number <= 9 else 3) for r in rounds
    ]
    assert all(r.gibson for r in rounds)  # config gibson = 1
    exported = tsh.parse_config(tsh_io.export_config(report.event))
    assert normalised(exported.autopair) == normalised(tsh.parse_config(config_text).autopair)
    assert exported.settings["gibson"] == "1"


def test_rounds_paired_here_are_written_as_paired_and_the_rest_by_the_event_s_system(
    staff, django_assert_max_num_queries
):
    report = tsh_io.import_tsh(staff, "One, A 1500\nTwo, B 1400\nThree, C 1300\nFour, D 1200\n", event_slug="here")
    event = report.event
    event.number_of_games, event.pairing_system = 4, "koth"
    event.save()
    division = report.division
    play.pair_round(staff, division, "random", seed=5)
    first = division.rounds.get(number=1)
    assert (first.pairing_system, first.max_repeats, first.gibson) == ("random", 0, False)
    with django_assert_max_num_queries(4):
        config = tsh.parse_config(tsh_io.export_config(event))
    assert config.autopair == [
        "autopair A 0 1 rp 0 0 A",
        "autopair A 1 2 koth 0 1 A",
        "autopair A 2 3 koth 0 2 A",
        "autopair A 3 4 koth 0 3 A",
    ]


def test_snaked_initial_fontes_travels_with_config_tsh(staff) -> None:
    players = "".join(f"P{k}, X {2000 - 10 * k} 0 0 0; 0 0 0\n" for k in range(1, 9))
    config_text = "division A a.t\nconfig initial_snaked = 1\nautopair A 0 1 if 3 A\nautopair A 3 4 koth 0 3 A\n"
    text = players.replace(" 0 0 0; 0 0 0", "")  # no rounds played yet: the plan is all the config carries
    report = tsh_io.import_tsh(staff, text, config_text=config_text, event_slug="snaked")
    assert not Round.objects.filter(division=report.division).exists()
    # Played rounds take the config's word for how they were paired.
    played = tsh_io.import_tsh(
        staff,
        "A, A 1500 2 3 4; 400 400 400\nB, B 1400 1 4 3; 300 300 300\nC, C 1300 4 1 2; 300 300 300\n"
        "D, D 1200 3 2 1; 400 400 400\n",
        config_text=config_text,
        event_slug="snaked-played",
    )
    rounds = list(Round.objects.filter(division=played.division).order_by("number"))
    assert [(r.pairing_system, r.initial_snaked) for r in rounds] == [("initial_fontes", True)] * 3
    exported = tsh.parse_config(tsh_io.export_config(played.event))
    assert exported.settings["initial_snaked"] == "1"
    assert "autopair A 0 1 if 3 A" in exported.autopair


@pytest.mark.django_db
def test_a_later_round_of_initial_fontes_keeps_the_block_s_snaked_groups(make_division, director) -> None:
    division = make_division(8, games=5)
    first = play.pair_round(director, division, "initial_fontes", initial_snaked=True)
    play.publish_round(director, first)
    # The form's box left unticked for round 2: the block's groups are still snaked, from round 1's seed.
    second = play.pair_round(director, division, "initial_fontes", initial_snaked=False)
    assert second.initial_snaked and second.pairing_seed == first.pairing_seed
    seat = {s.player_id: s.number for s in division.seats.all()}
    pairs = {frozenset((seat[g.player_a_id], seat[g.player_b_id])) for g in second.games.exclude(player_b=None)}
    assert pairs == {frozenset(p) for p in [(2, 6), (3, 7), (1, 5), (4, 8)]}  # tsh's round 2 of snaked groups of 8
