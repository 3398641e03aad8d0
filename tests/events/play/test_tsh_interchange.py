"""Real tsh files survive import then export with the same meaning; standings match tsh's own ranks."""

import csv
import io
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from events.play import services as play
from events.play.core import tsh
from events.play.models import Game, GameStatus
from events.play.services import tsh_io
from tests.factories import AssociationFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db
SHARED = Path(__file__).resolve().parents[3] / ".." / "shared" / "fixtures" / "tsh"
REAL_FILES = [
    "jvc56_tpa_86aeb79_test_data_a.t",
    "e4c5_team_pairings_api_tests_anon1.t",
    "e4c5_team_pairings_tournament1_a.t",
]


def shared(name: str) -> str:
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"{path} is not here (the shared fixtures live beside the project)")
    return tsh.decode_tsh_bytes(path.read_bytes())


@pytest.fixture
def staff():
    AssociationFactory()
    return UserFactory(is_staff=True, is_superuser=True)


def meaning(f: tsh.TshFile):
    return [(p.name, p.member_id, p.rating, p.opponents, p.scores, p.extras) for p in f.players]


def seats_of(division) -> list[tuple]:
    """Each seat as a .t line gives it: number, name as written, member id, rating, withdrawal, tsh's own fields."""
    return [
        (s.number, s.tsh_extras.get("_name"), s.tsh_extras.get("_member_id"), s.rating, s.withdrawn_after_round,
         {k: v for k, v in s.tsh_extras.items() if not k.startswith("_")})
        for s in division.seats.order_by("number")
    ]  # fmt: skip


def kinds(division) -> dict[str, int]:
    return dict(Counter(Game.objects.filter(division=division).values_list("kind", flat=True)))


# Per real file: its games by kind (a bye: opponent 0 and a spread above 0; a forfeit: below 0; void: 0), counted
# from the file's opponents and scores apart from the site's reader, and the withdrawals its `off` fields mark.
REAL_FIGURES = {
    "jvc56_tpa_86aeb79_test_data_a.t": ({"normal": 276}, 0),
    "e4c5_team_pairings_api_tests_anon1.t": ({"normal": 126}, 0),
    # 11 byes of 50 or 1, 2 forfeits of -1 or -50, 95 rounds scored 0 (most of them after a withdrawal, off 0)
    "e4c5_team_pairings_tournament1_a.t": ({"normal": 288, "bye": 11, "forfeit": 2, "void": 95}, 7),
}


@pytest.mark.parametrize("name", REAL_FILES)
def test_real_file_survives_import_then_export(staff, name):
    """Import, export, import again: the same .t meaning, the same seats and the same games field by field."""
    text = shared(name)
    report = tsh_io.import_tsh(staff, text, event_slug="roundtrip")
    exported = tsh_io.export_tsh(report.division)
    assert meaning(tsh.parse_t(exported)) == meaning(tsh.parse_t(text))
    again = tsh_io.import_tsh(staff, exported, event_slug="roundtrip-again")
    assert seats_of(again.division) == seats_of(report.division)
    assert games_of(again.division) == games_of(report.division)
    by_kind, withdrawn = REAL_FIGURES[name]
    assert kinds(report.division) == by_kind
    assert report.division.seats.exclude(withdrawn_after_round=None).count() == withdrawn
    assert tsh_io.export_tsh(again.division) == exported


def test_import_matches_members_by_id_then_exact_name(staff):
    known = PlayerFactory(full_name="Adam Logan")
    by_id = PlayerFactory(full_name="Someone Else")
    text = f"Logan, Adam 2100 2; 400\nKeller, Jason:{by_id.member_number} 2000 1; 350\nNew, Person 0 0; 50\n"
    report = tsh_io.import_tsh(staff, text, event_slug="matching")
    matched = {n: p for n, _, p in report.matched}
    assert matched[1] == known and matched[2] == by_id
    assert [(n, name) for n, name, _ in report.created] == [(3, "New, Person")]
    game = Game.objects.get(division=report.division, round_number=1, player_b__isnull=False)
    assert (game.score_a, game.score_b, game.status) == (400, 350, GameStatus.CONFIRMED)
    # Its rounds come in published, so the division's assignments are public as well.
    report.division.refresh_from_db()
    assert report.division.assignments_published


def test_malformed_file_names_the_line_and_imports_nothing(staff):
    from events.models import Event
    from players.models import Player

    before = Player.objects.count()
    with pytest.raises(play.PlayError, match="Line 2"):
        tsh_io.import_tsh(staff, "Good, One 1500 2; 400\nBad, Two notarating 1; 300\n", event_slug="bad")
    with pytest.raises(play.PlayError, match="line 2 does not pair 2 with 1"):
        tsh_io.import_tsh(staff, "Good, One 1500 2; 400\nOther, Two 1500 0; 300\n", event_slug="bad")
    assert Player.objects.count() == before and not Event.objects.filter(slug="bad").exists()


def test_standings_after_every_round_equal_tsh_ranks(staff):
    text = shared("jvc56_tpa_86aeb79_test_data_a.t")
    f = tsh.parse_t(text)
    report = tsh_io.import_tsh(staff, text, event_slug="ranks")
    rounds = f.rounds_played()
    for r in range(1, rounds + 1):
        rows = play.standings(report.division, through_round=r)
        ours = {row.seat.number: row.rank for row in rows}  # tied players share a rank, as in tsh
        theirs = {p.number: p.rrank[r] for p in f.players}
        assert ours == theirs, f"after round {r}"


def test_commands_import_export_and_print_standings(staff, tmp_path):
    text = shared("jvc56_tpa_86aeb79_test_data_a.t")
    source = tmp_path / "a.t"
    source.write_text(text, encoding="latin-1")
    out = io.StringIO()
    call_command("tsh_import", str(source), "--event", "cmd-event", "--division", "A", stdout=out)
    assert "Imported 24 players, 23 rounds" in out.getvalue()

    exported = tmp_path / "out.t"
    call_command("tsh_export", "cmd-event", "--division", "A", "--output", str(exported))
    assert meaning(tsh.parse_t(exported.read_text())) == meaning(tsh.parse_t(text))

    out = io.StringIO()
    call_command("standings", "cmd-event", "--division", "A", "--through", "3", stdout=out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert list(rows[0]) == ["rank", "number", "name", "wins", "losses", "spread"]
    assert len(rows) == 24 and float(rows[0]["wins"]) >= float(rows[-1]["wins"])
    total_games = sum(float(r["wins"]) + float(r["losses"]) for r in rows)
    assert total_games == 24 * 3

    with pytest.raises(CommandError, match="no division"):
        call_command("standings", "cmd-event", "--division", "Z")


def standings_csv(slug: str, through: int) -> list[dict[str, str]]:
    out = io.StringIO()
    call_command("standings", slug, "--division", "A", "--through", str(through), stdout=out)
    return list(csv.DictReader(io.StringIO(out.getvalue())))


def test_standings_command_prints_tsh_ranks_round_by_round_with_a_withdrawal(staff):
    """The real division, its leader after round 10 marked `off` as tsh leaves it: no rrank after 10.

    Through round 10 the command prints tsh's own rank for every player; after it the
    withdrawn player comes last with no rank and those tsh ranked below them move up one.
    """
    f = tsh.parse_t(shared("jvc56_tpa_86aeb79_test_data_a.t"))
    theirs = {p.number: p.rrank for p in f.players}
    leader = next(p for p in f.players if p.rrank[10] == 1)
    leader.extras["off"] = ["0"]
    leader.extras["rrank"] = leader.extras["rrank"][:11] + ["00"] * (len(leader.extras["rrank"]) - 11)
    report = tsh_io.import_tsh(staff, tsh.write_t(f), event_slug="withdrawal", division_name="A")
    assert report.division.seats.get(number=leader.number).withdrawn_after_round == 10
    compared = 0
    for r in range(1, f.rounds_played() + 1):
        rows = standings_csv("withdrawal", r)
        printed = {int(row["number"]): row["rank"] for row in rows}
        if r <= 10:
            expected = {n: str(ranks[r]) for n, ranks in theirs.items()}
        else:
            above = theirs[leader.number][r]
            expected = {n: str(ranks[r] - (above < ranks[r])) for n, ranks in theirs.items()}
            expected[leader.number] = ""
            assert int(rows[-1]["number"]) == leader.number
        assert printed == expected, f"after round {r}"
        compared += len(printed)
    assert compared == 23 * 24


def test_import_with_config_keeps_withdrawals_and_round_spread_caps(staff):
    text = shared("e4c5_team_pairings_tournament1_a.t")
    config_text = shared("e4c5_team_pairings_tournament1_config.tsh")
    report = tsh_io.import_tsh(staff, text, config_text=config_text, event_slug="capped")
    event = report.event
    assert event.round_spread_caps == "200" + ",700" * 17 and event.spread_cap is None
    assert event.standings_spread_cap() == (200,) + (700,) * 17
    withdrawn = dict(
        report.division.seats.exclude(withdrawn_after_round=None).values_list("number", "withdrawn_after_round")
    )
    assert withdrawn == {10: 10, 11: 14, 14: 10, 32: 9, 33: 10, 36: 14, 38: 0}
    # The round trip: the exported config.tsh carries the same caps.
    assert tsh.parse_config(tsh_io.export_config(event)).spread_cap == tsh.parse_config(config_text).spread_cap

    # Where the file has ranks (after rounds 15 to 17), the command prints them for every
    # player still playing; those who withdrew earlier have no rank.
    f = tsh.parse_t(text)
    compared = 0
    for r in (15, 16, 17):
        printed = {int(row["number"]): row["rank"] for row in standings_csv("capped", r)}
        for p in f.players:
            if p.off is not None:
                assert printed[p.number] == "", f"player {p.number} after round {r}"
            else:
                assert printed[p.number] == str(p.rrank[r]), f"player {p.number} after round {r}"
                compared += 1
    assert compared == 3 * 31


def test_export_marks_a_player_withdrawn_here_as_off(staff):
    report = tsh_io.import_tsh(staff, "One, A 1500 2; 400\nTwo, B 1500 1; 300\n", event_slug="off-mark")
    seat = report.division.seats.get(number=2)
    seat.withdrawn_after_round = 1
    seat.save()
    exported = tsh.parse_t(tsh_io.export_tsh(report.division))
    assert exported.players[1].off == -report.event.forfeit_spread
    assert exported.players[0].off is None
    assert exported.players[1].withdrawn_after == 1


def game_row(g: Game) -> tuple:
    """Everything a game holds that a .t file carries, the players by seat number. A played game's sides are
    put in seat order (tsh has no player A and B); a forfeit's player A is the one who forfeited."""
    number = {s.player_id: s.number for s in g.division.seats.all()}
    sides = {"a": number[g.player_a_id], "b": number.get(g.player_b_id)}
    sided = {
        side: (sides[side], getattr(g, f"score_{side}"), getattr(g, f"played_{side}"), getattr(g, f"overtime_{side}"))
        for side in "ab"
    }
    order = "ba" if g.kind == "normal" and sides["b"] < sides["a"] else "ab"
    who = {"a": sides["a"], "b": sides["b"], "level": "level", "": None}
    return (
        g.round_number,
        g.kind,
        sided[order[0]],
        sided[order[1]],
        g.spread_a,
        who[g.first] if g.kind == "normal" else None,  # a game not played had nobody going first (tsh: p12 0)
        who[g.overrun],
        who[g.ahead_before_tiles],
        g.board,
        g.status,
    )


def games_of(division) -> list[tuple]:
    return sorted(game_row(g) for g in Game.objects.filter(division=division))


def test_time_penalties_forfeits_and_boards_played_here_survive_export_then_import(staff, director, make_division):
    """A game with a time penalty, a late-arrival forfeit and a forfeit against a present opponent, played on the
    site, go out in tsh's terms (scores after the penalty, forfeits as opponent 0 with the spread each side gets)
    with the site's own fields beside them, and come back as the same games."""
    division = make_division(4, late_forfeit_spread=100, forfeit_spread=50)
    rnd = play.pair_round(director, division, "koth", seed=1)
    play.publish_round(director, rnd)
    timed, late = rnd.games.order_by("board")
    # 61 seconds over costs 20 points (10 a minute or part of one): 420 as played is 400 stored.
    play.submit_result(director, timed, 420, 380, overtime_a=61)
    play.set_unplayed(director, late, "late_forfeit", reason="late")
    rnd2 = play.pair_round(director, division, "koth", seed=1)
    play.publish_round(director, rnd2)
    forfeit, other = rnd2.games.order_by("board")
    play.set_unplayed(director, forfeit, "forfeit", reason="left", forfeited_by="b")
    play.submit_result(director, other, 350, 351)
    forfeit.refresh_from_db()

    line = {s.player_id: s.number for s in division.seats.all()}  # seats 1-4 are lines 1-4
    f = tsh.parse_t(tsh_io.export_tsh(division))
    a, b = f.players[line[timed.player_a_id] - 1], f.players[line[timed.player_b_id] - 1]
    assert (a.scores[0], b.scores[0]) == (400, 380)  # tsh counts the win and +20 / -20 from these
    assert (a.extras["played"][0], b.extras["played"][0]) == ("420", "380")
    assert a.extras["overtime"] == ["61"] and "overtime" not in b.extras
    assert (a.extras["board"][0], b.extras["board"][0]) == ("1", "1")
    slow, on_time = f.players[line[late.player_a_id] - 1], f.players[line[late.player_b_id] - 1]
    assert (slow.opponents[0], slow.scores[0], on_time.opponents[0], on_time.scores[0]) == (0, -100, 0, 100)
    assert slow.extras["lateopp"] == [str(on_time.number)] and on_time.extras["lateopp"] == [str(slow.number)]
    quitter = f.players[line[forfeit.player_a_id] - 1]
    assert (quitter.opponents[1], quitter.scores[1]) == (0, -50)
    assert quitter.extras["forfeitopp"] == ["0", str(line[forfeit.player_b_id])]

    report = tsh_io.import_tsh(staff, tsh_io.export_tsh(division), event_slug="back")
    assert games_of(report.division) == games_of(division)
    back = Game.objects.get(division=report.division, round_number=1, board=1)
    timed_side = "a" if report.division.seats.get(player=back.player_a).number == line[timed.player_a_id] else "b"
    assert (back.penalty(timed_side), back.played(timed_side), getattr(back, f"score_{timed_side}")) == (20, 420, 400)
    late_back = Game.objects.get(division=report.division, round_number=1, kind="late_forfeit")
    assert (line[late_back.player_a_id], late_back.spread_a) == (line[late.player_a_id], -100)
    ours = {r.seat.number: (r.wins, r.spread) for r in play.standings(division)}
    theirs = {r.seat.number: (r.wins, r.spread) for r in play.standings(report.division)}
    assert ours == theirs
    # And out again: the same file.
    assert tsh_io.export_tsh(report.division) == tsh_io.export_tsh(division)


@pytest.mark.parametrize(
    "lines,match",
    [
        (["A, One 1500 0; -100; lateopp 2", "B, Two 1500 0; 100"], "Line 1: round 1's lateopp 2, but line 2"),
        (["A, One 1500 0; -100; lateopp 2", "B, Two 1500 0; 50; lateopp 1"], "spreads must be opposite"),
        (["A, One 1500 2; 400; played 2000", "B, Two 1500 1; 350"], "Line 1: round 1's score as played of 2000"),
        (["A, One 1500 2; 400; overtime -5", "B, Two 1500 1; 350"], "Line 1: round 1's overtime cannot be negative"),
        (["A, One 1500 2; 400; overrun 7", "B, Two 1500 1; 350"], "Line 1: round 1's overrun must be one of 0, 1"),
        (["A, One 1500 2; 400; lateopp 2", "B, Two 1500 1; 350"], "not a scored forfeit"),
    ],
    ids=["one-sided", "unequal", "played", "overtime", "overrun", "paired"],
)
def test_the_sites_fields_are_checked_at_import(staff, lines, match):
    with pytest.raises(play.PlayError, match=match):
        tsh_io.import_tsh(staff, "\n".join(lines) + "\n", event_slug="fields")
    assert not Game.objects.exists()


def test_a_tie_decided_before_the_tile_adjustment_and_an_overrun_come_back(staff):
    text = "A, One 1500 2 0; 400 -150; ahead 1; played 400\nB, Two 1500 1 0; 400 150; ahead 0 0; overrun 0\n"
    text += "C, Three 1500 4; 250; overrun 1; overtime 600\nD, Four 1500 3; 400\n"
    report = tsh_io.import_tsh(staff, text, event_slug="ties")
    tie = Game.objects.get(division=report.division, round_number=1, score_a=400)
    assert (tie.ahead_before_tiles, tie.played_a, tie.played_b) == ("a", 400, None)
    overrun = Game.objects.get(division=report.division, round_number=1, score_a=250)
    assert (overrun.overrun, overrun.overtime_a) == ("a", 600)
    assert tsh.parse_t(tsh_io.export_tsh(report.division)).players[2].extras == {"overrun": ["1"], "overtime": ["600"]}


def prize_rows(category) -> list[tuple]:
    return [
        (p.kind, p.rank_from, p.rank_to or p.rank_from, p.description, p.amount, p.class_min_rating, p.class_max_rating)
        for p in category.prizes.order_by("position", "pk")
        if p.kind != "lucky_draw"
    ]


def test_config_carries_prizes_bye_spread_and_the_rating_system_both_ways(staff, director, make_division):
    from decimal import Decimal

    from events.models import Category, Prize
    from players.models import Association
    from ratings.models import RatingList

    division = make_division(4, bye_spread=30)
    event = division.event
    event.rating_list = RatingList.objects.create(association=event.association, name="W", slug="w", system="wespa")
    event.rated = True
    event.save()
    category = Category.objects.create(event=event, name="Open")
    division.category = category
    division.save()
    for i, (kind, low, high, text, amount, min_r, max_r) in enumerate(
        [
            ("place", 1, 1, "Trophy and S$100", Decimal("100.00"), None, None),
            ("place", 3, 5, "Book voucher", Decimal("20.00"), None, None),
            ("high_game", None, None, "High game", None, None, None),
            ("class", 1, None, "Class B: medal", None, None, None),
            ("class", 1, None, "Under 1975", Decimal("15.00"), None, 1974),
            ("lucky_draw", None, None, "Lucky draw", None, None, None),
        ]
    ):
        Prize.objects.create(
            category=category, kind=kind, rank_from=low, rank_to=high, description=text, amount=amount,
            class_min_rating=min_r, class_max_rating=max_r, position=i,
        )  # fmt: skip
    config = tsh.parse_config(tsh_io.export_config(event))
    assert config.rating_system == "wespa" and config.settings["bye_spread"] == "30"
    assert [(p.kind, p.args) for p in config.prizes] == [
        ("rank", ["1", "A", "Trophy and S$100", "amount=100.00"]),
        ("rank", ["3", "A", "Book voucher", "amount=20.00"]),
        ("rank", ["4", "A", "Book voucher", "amount=20.00"]),
        ("rank", ["5", "A", "Book voucher", "amount=20.00"]),
        ("highwin", ["1", "A", "High game"]),
        ("rank", ["1", "A", "Class B: medal", "class=B", "groupname=Class B"]),
        ("rank", ["1", "A", "Under 1975", "class=0_1974", "groupname=Class 0_1974", "maxrating=1974", "amount=15.00"]),
    ]
    # make_division rates player i at 2000 - 10i: players 3 and 4 (1970, 1960) are under 1975, in its class.
    t = tsh.parse_t(tsh_io.export_tsh(division))
    assert [p.extras.get("class") for p in t.players] == [None, None, ["0_1974"], ["0_1974"]]

    first = Association.objects.order_by("pk").first()  # imported events belong to the first association
    wespa = RatingList.objects.filter(association=first, system="wespa").first() or RatingList.objects.create(
        association=first, name="WESPA", slug="wespa-list", system="wespa"
    )
    report = tsh_io.import_tsh(
        staff, tsh_io.export_tsh(division), config_text=tsh_io.export_config(event), event_slug="prized"
    )
    back = report.event
    back.refresh_from_db()
    assert (back.bye_spread, back.rating_list, back.rated) == (30, wespa, False)  # named, not rated unasked
    assert prize_rows(report.division.category) == prize_rows(category)
    assert tsh.parse_config(tsh_io.export_config(back)).prizes == config.prizes
    assert tsh_io.export_tsh(report.division) == tsh_io.export_tsh(division)


def test_the_real_config_survives_import_then_export(staff):
    """e4c5's config.tsh: every prize line, bye_spread, the spread caps, max_rounds, gibson and the autopair lines
    come back as written; its 'aus' rating system has no list here and is noted."""
    text, config_text = (
        shared("e4c5_team_pairings_tournament1_a.t"),
        shared("e4c5_team_pairings_tournament1_config.tsh"),
    )
    report = tsh_io.import_tsh(staff, text, config_text=config_text, event_slug="real-config")
    original, exported = tsh.parse_config(config_text), tsh.parse_config(tsh_io.export_config(report.event))
    assert len(original.prizes) == 13
    assert [(p.kind, [a.casefold() for a in p.args]) for p in exported.prizes] == [
        (p.kind, [a.casefold() for a in p.args]) for p in original.prizes
    ]
    assert report.event.bye_spread == 1 and exported.settings["bye_spread"] == "1"
    assert exported.spread_cap == original.spread_cap == (200,) + (700,) * 17
    assert exported.max_rounds == original.max_rounds == 18
    assert exported.settings["gibson"] == "1"
    assert len(exported.autopair) == len(original.autopair) == 18
    assert any("'aus'" in note for note in report.notes)


def test_the_real_archive_survives_import_then_export(staff):
    """liwords' archive (two divisions and its config lines) into one event, out again as an archive, and in again:
    the same divisions, rating system, players and games."""
    from events.play.services.tsh_archive import import_archive
    from players.models import Association
    from ratings.models import RatingList

    text = shared("liwords_wtf5-tsh.golden.tsh")
    naspa = RatingList.objects.create(association=Association.objects.order_by("pk").first(), name="N", slug="n")
    reports = import_archive(staff, text, event_slug="woogles")
    assert [(r.division.name, len(r.created), r.games) for r in reports] == [("CSW", 4, 8), ("NWL", 8, 16)]
    event = reports[0].event
    assert event.rating_list == naspa  # config rating_system = "nsa2008"
    opening = Game.objects.get(division=reports[0].division, round_number=1, board=None, score_a=473)
    assert (opening.score_b, opening.player_b.full_name) == (309, "nchagti")  # jellomochas 4 ...; 473 v nchagti's 309

    config, files = tsh.parse_archive(tsh_io.export_archive(event))
    original_config, original = tsh.parse_archive(text)
    assert list(config.divisions) == list(original_config.divisions) == ["CSW", "NWL"]
    assert config.rating_system == original_config.rating_system == "nsa2008"
    assert [meaning(f) for f in files.values()] == [meaning(f) for f in original.values()]

    again = import_archive(staff, tsh_io.export_archive(event), event_slug="woogles-again")
    for first, second in zip(reports, again, strict=True):
        assert seats_of(second.division) == seats_of(first.division)
        assert games_of(second.division) == games_of(first.division)


def test_tsh_spread_penalties_are_kept_and_named_not_counted(staff):
    """tsh's `penalty` field takes spread from one side only (tsh adds it to the player's spread, the opponent's
    unchanged): the site has no such thing, so it is written back as it came and the director is told."""
    text = "A, One 1500 2; 400; penalty -10\nB, Two 1500 1; 350\n"
    report = tsh_io.import_tsh(staff, text, event_slug="penalty")
    assert any("penalty field) of players 1 are kept" in note for note in report.notes)
    assert tsh.parse_t(tsh_io.export_tsh(report.division)).players[0].extras == {"penalty": ["-10"]}
    assert {r.seat.number: r.spread for r in play.standings(report.division)} == {1: 50, 2: -50}


def test_an_event_that_exists_keeps_its_bye_spread(staff):
    first = tsh_io.import_tsh(staff, "A, One 1500 0; 50\n", config_text="config bye_spread = 30\n", event_slug="kept")
    assert first.event.bye_spread == 30  # made by the import: config.tsh's
    second = tsh_io.import_tsh(
        staff, "B, Two 1500 0; 50\n", config_text="config bye_spread = 75\n", event=first.event, division_name="B"
    )
    first.event.refresh_from_db()
    assert first.event.bye_spread == 30
    assert "config.tsh gives a bye 75 points of spread; the event keeps its own 30." in second.notes
