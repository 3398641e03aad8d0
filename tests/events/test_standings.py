from dataclasses import replace
from pathlib import Path

import pytest

from events.play.core.results import Game, GameKind, SpreadRules
from events.play.core.standings import (
    Entrant,
    Standing,
    StandingsOptions,
    compute_standings,
    cross_table,
    format_round_spread_caps,
    gibsonized,
    out_of_contention,
    parse_round_spread_caps,
    round_spread_caps,
    scorecard,
    scorecards,
)

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
TSH = SHARED / "fixtures" / "tsh"


def g(r: int, a: int, b: int, sa: int, sb: int, first: int | None = None) -> Game:
    return Game(round=r, player_a=a, player_b=b, score_a=sa, score_b=sb, first=first)


def entrants(n: int) -> list[Entrant]:
    return [Entrant(id=k, rating=2000 - 10 * k, seed=k) for k in range(1, n + 1)]


def table(standings: list[Standing]) -> list[tuple[int, str, float, int]]:
    return [(s.player, s.rank_label, s.wins, s.spread) for s in standings]


def test_wins_then_spread() -> None:
    games = [g(1, 1, 2, 400, 390), g(1, 3, 4, 500, 300), g(2, 1, 3, 400, 300), g(2, 2, 4, 350, 360)]
    assert table(compute_standings(entrants(4), games)) == [
        (1, "1", 2.0, 110),
        (3, "2", 1.0, 100),
        (4, "3", 1.0, -190),
        (2, "4", 0.0, -20),
    ]


def test_tie_counts_half() -> None:
    games = [g(1, 1, 2, 400, 400), g(1, 3, 4, 401, 400)]
    standings = compute_standings(entrants(4), games)
    assert [(s.player, s.wins, s.losses) for s in standings] == [
        (3, 1.0, 0.0),
        (1, 0.5, 0.5),
        (2, 0.5, 0.5),
        (4, 0.0, 1.0),
    ]


def test_fewer_losses_before_spread() -> None:
    # 2 missed round 2 (void): one win and no loss ranks above 1-1 with a far better spread.
    games = [
        g(1, 1, 3, 600, 300),
        g(1, 2, 4, 401, 400),
        g(2, 4, 1, 310, 300),
        Game(2, 2, kind=GameKind.VOID),
        Game(2, 3, kind=GameKind.BYE),
    ]
    standings = compute_standings(entrants(4), games)
    assert [(s.player, s.wins, s.losses, s.spread) for s in standings] == [
        (2, 1.0, 0.0, 1),
        (1, 1.0, 1.0, 290),
        (4, 1.0, 1.0, 9),
        (3, 1.0, 1.0, -250),
    ]
    assert standings[0].games == 1


def test_byes_and_forfeits_use_event_spreads() -> None:
    games = [Game(1, 1, kind=GameKind.BYE), Game(1, 2, kind=GameKind.FORFEIT), g(1, 3, 4, 350, 300)]
    options = StandingsOptions(spread_rules=SpreadRules(bye_spread=100, forfeit_spread=100))
    by_id = {s.player: s for s in compute_standings(entrants(4), games, options)}
    assert (by_id[1].wins, by_id[1].spread, by_id[1].byes) == (1.0, 100, 1)
    assert (by_id[2].losses, by_id[2].spread) == (1.0, -100)
    assert by_id[1].score == 0  # byes add no points scored


def test_spread_cap_per_round() -> None:
    games = [g(1, 1, 2, 600, 200), g(2, 1, 2, 700, 200)]
    capped = compute_standings(entrants(2), games, StandingsOptions(spread_cap=(200, 300)))
    assert capped[0].spread == 200 + 300
    flat = compute_standings(entrants(2), games, StandingsOptions(spread_cap=250))
    assert flat[0].spread == 500
    # Rounds past the list are not capped.
    short = compute_standings(entrants(2), games, StandingsOptions(spread_cap=(200,)))
    assert short[0].spread == 200 + 500


def test_cumulative_score_before_spread() -> None:
    games = [g(1, 1, 2, 300, 200), g(1, 3, 4, 500, 420)]
    plain = compute_standings(entrants(4), games)
    assert [s.player for s in plain][:2] == [1, 3]
    by_score = compute_standings(entrants(4), games, StandingsOptions(cumulative_score=True))
    assert [s.player for s in by_score][:2] == [3, 1]
    assert by_score[0].score == 500


def test_ties_stand_share_a_rank_shown_with_equals() -> None:
    # 1 is 2-0; 2, 3 and 4 are 1-1 with 0 spread; 5 is 1-1 with -30; 6 is 0-2.
    games = [
        g(1, 1, 2, 450, 400),
        g(1, 3, 4, 450, 400),
        g(1, 5, 6, 420, 400),
        g(2, 1, 3, 450, 400),
        g(2, 2, 5, 450, 400),
        g(2, 4, 6, 450, 400),
    ]
    standings = compute_standings(entrants(6), games, StandingsOptions(ties_stand=True))
    assert [(s.player, s.rank_label) for s in standings] == [
        (1, "1"),
        (2, "=2"),
        (3, "=2"),
        (4, "=2"),
        (5, "5"),
        (6, "6"),
    ]
    assert [s.rank for s in standings] == [1, 2, 2, 2, 5, 6]
    # The order among tied players is still deterministic: rating, then seed.
    assert [s.position for s in standings] == [1, 2, 3, 4, 5, 6]


def test_tied_players_ordered_by_rating_then_seed() -> None:
    field = [Entrant(1, rating=1500, seed=3), Entrant(2, rating=1600, seed=2), Entrant(3, rating=1600, seed=1)]
    standings = compute_standings(field, [], StandingsOptions(ties_stand=True))
    assert [s.player for s in standings] == [3, 2, 1]
    assert {s.rank_label for s in standings} == {"=1"}
    plain = compute_standings(field, [])
    assert [s.rank_label for s in plain] == ["1", "2", "3"]


def test_through_round_and_pending_games() -> None:
    games = [g(1, 1, 2, 400, 300), g(2, 2, 1, 500, 300), Game(3, 1, 2)]
    assert compute_standings(entrants(2), games, through_round=1)[0].player == 1
    after_two = compute_standings(entrants(2), games, through_round=2)
    assert after_two[0].player == 2 and after_two[0].wins == 1.0
    assert compute_standings(entrants(2), games) == after_two  # the pending game counts for nothing


def test_withdrawn_players_without_a_round_are_listed_apart_in_every_round() -> None:
    field = entrants(3)
    field[0] = Entrant(1, rating=1990, seed=1, withdrawn=True)
    games = [g(1, 1, 2, 500, 300), g(1, 3, 1, 400, 390)]
    standings = compute_standings(field, games, StandingsOptions(ties_stand=True))
    assert [s.player for s in standings] == [3, 2, 1]
    assert [(s.rank, s.rank_label, s.withdrawn) for s in standings] == [
        (1, "1", False),
        (2, "2", False),
        (None, "", True),
    ]


def leader_withdraws_after_round_1() -> tuple[list[Entrant], list[Game]]:
    """Four players; 1 wins round 1 by the most, withdraws, and forfeits rounds 2 and 3."""
    field = entrants(4)
    field[0] = Entrant(1, rating=1990, seed=1, withdrawn_after=1)
    games = [
        g(1, 1, 2, 500, 300),  # 1: +200
        g(1, 3, 4, 400, 350),  # 3: +50
        Game(2, 1, kind=GameKind.FORFEIT),  # 1: a loss, -50
        g(2, 2, 3, 420, 400),  # 2: +20
        Game(2, 4, kind=GameKind.BYE),  # 4: +50
        Game(3, 1, kind=GameKind.FORFEIT),
        g(3, 4, 2, 380, 370),
        Game(3, 3, kind=GameKind.BYE),
    ]
    return field, games


def test_withdrawn_leader_is_ranked_in_the_rounds_they_played() -> None:
    field, games = leader_withdraws_after_round_1()
    assert field[0].withdrawn and field[0].withdrawn_by(2) and not field[0].withdrawn_by(1)
    after_1 = compute_standings(field, games, StandingsOptions(ties_stand=True), through_round=1)
    assert [(s.player, s.rank_label, s.wins, s.spread) for s in after_1] == [
        (1, "1", 1.0, 200),
        (3, "2", 1.0, 50),
        (4, "3", 0.0, -50),
        (2, "4", 0.0, -200),
    ]
    assert not any(s.withdrawn for s in after_1)


def test_withdrawn_leader_is_listed_apart_after_the_round_they_stopped() -> None:
    field, games = leader_withdraws_after_round_1()
    for through in (2, None):  # None: every recorded round, here through round 3
        standings = compute_standings(field, games, StandingsOptions(ties_stand=True), through_round=through)
        ranked = [s for s in standings if not s.withdrawn]
        # Everyone else is ranked from 1, as if the withdrawn player were not there.
        assert [s.rank for s in ranked] == [1, 2, 3]
        assert (standings[-1].player, standings[-1].rank, standings[-1].rank_label) == (1, None, "")
        assert standings[-1].position == 4 and standings[-1].losses == (1 if through == 2 else 2)
    after_2 = compute_standings(field, games, through_round=2)
    assert [(s.player, s.rank, s.wins, s.losses, s.spread) for s in after_2] == [
        (3, 1, 1.0, 1.0, 30),
        (4, 2, 1.0, 1.0, 0),
        (2, 3, 1.0, 1.0, -180),
        (1, None, 1.0, 1.0, 150),  # one win, one forfeit loss: would be 2nd, but has withdrawn
    ]


def test_standings_are_as_of_the_last_round_with_a_result() -> None:
    """A player withdrawn after round 1, before round 2 has any result: the
    standings (after round 1, whatever round is asked for) still rank them."""
    field, games = leader_withdraws_after_round_1()
    round_1 = [game for game in games if game.round == 1]
    pending = Game(2, 2, 3)  # paired, no result yet
    assert pending.pending
    standings = compute_standings(field, [*round_1, pending], through_round=5)
    assert [(s.player, s.rank) for s in standings][0] == (1, 1)


def test_withdrawal_before_the_first_round() -> None:
    field = [Entrant(1, withdrawn_after=0), Entrant(2), Entrant(3)]
    games = [Game(1, 1, kind=GameKind.FORFEIT), g(1, 2, 3, 400, 300)]
    assert [s.rank for s in compute_standings(field, [], through_round=0)] == [1, 2, 3]
    assert [(s.player, s.rank) for s in compute_standings(field, games)] == [(2, 1), (3, 2), (1, None)]


def test_unknown_player_is_an_error() -> None:
    with pytest.raises(ValueError, match="not an entrant"):
        compute_standings(entrants(2), [g(1, 1, 9, 400, 300)])


def test_cross_table() -> None:
    games = [g(1, 1, 2, 400, 300), g(2, 1, 2, 350, 360), g(2, 3, 4, 400, 380), Game(1, 3, kind=GameKind.BYE)]
    xt = cross_table(entrants(4), games)
    assert xt.players[0] in (1, 3)
    cells = xt.cell(1, 2)
    assert [(c.round, c.own_score, c.opp_score, c.letter) for c in cells] == [(1, 400, 300, "W"), (2, 350, 360, "L")]
    assert [(c.round, c.letter) for c in xt.cell(2, 1)] == [(1, "L"), (2, "W")]
    assert xt.cell(1, 3) == ()
    assert [(c.round, c.letter, c.spread) for c in xt.unopposed[3]] == [(1, "B", 50)]


def test_cross_table_carries_the_standings_it_is_ordered_by() -> None:
    games = [g(1, 1, 2, 400, 300), g(1, 3, 4, 380, 400), g(2, 4, 1, 420, 410), Game(2, 2, kind=GameKind.BYE)]
    for through in (None, 1):
        xt = cross_table(entrants(4), games, through_round=through)
        assert list(xt.standings) == compute_standings(entrants(4), games, through_round=through)
        assert xt.players == tuple(s.player for s in xt.standings)


def test_scorecard_running_totals() -> None:
    games = [
        g(1, 1, 2, 400, 300, first=1),
        Game(2, 1, kind=GameKind.BYE),
        g(3, 3, 1, 420, 380, first=1),
        g(4, 1, 4, 400, 400, first=4),
    ]
    lines = scorecard(1, entrants(4), games, StandingsOptions(spread_cap=(None, None, 30)))
    assert [(ln.round, ln.opponent, ln.went_first, ln.own_score, ln.opp_score, ln.result) for ln in lines] == [
        (1, 2, True, 400, 300, "W"),
        (2, None, None, None, None, "B"),
        (3, 3, True, 380, 420, "L"),
        (4, 4, False, 400, 400, "T"),
    ]
    assert [(ln.running_wins, ln.running_losses, ln.running_spread) for ln in lines] == [
        (1.0, 0.0, 100),
        (2.0, 0.0, 150),
        (2.0, 1.0, 120),
        (2.5, 1.5, 120),
    ]
    assert lines[2].spread == -30  # capped in round 3


def test_every_scorecard_at_once_is_each_players_scorecard() -> None:
    games = [
        g(1, 1, 2, 400, 300, first=1),
        Game(1, 3, kind=GameKind.BYE),
        Game(2, 2, 3, kind=GameKind.FORFEIT, award=75),
        g(2, 1, 4, 410, 410, first=4),
        g(3, 3, 1, 420, 380, first=1),
        Game(3, 2, 4, kind=GameKind.VOID),
    ]
    for options in (StandingsOptions(), StandingsOptions(spread_cap=(None, None, 30)), StandingsOptions(spread_cap=50)):
        for through in (None, 2):
            every = scorecards(entrants(5), games, options, through)
            assert set(every) == {1, 2, 3, 4, 5}
            for player in range(1, 6):
                assert every[player] == scorecard(player, entrants(5), games, options, through)
            assert every[5] == []
    assert [ln.result for ln in scorecards(entrants(5), games)[2]] == ["L", "F", "V"]


def st(player: int, wins: float, spread: int) -> Standing:
    return Standing(player, 0, 0, False, wins, 0.0, spread, 0, 0, 0)


def test_gibson_lead_greater_than_rounds_left() -> None:
    assert gibsonized([st(1, 8, 300), st(2, 5, 900)], rounds_left=2) == 1
    assert gibsonized([st(1, 8, 300), st(2, 6, 900)], rounds_left=2) is None  # 2 behind, 2 left: spread decides


def test_gibson_equal_lead_needs_spread_beyond_the_allowance() -> None:
    # Lead of 2 wins with 2 rounds left: spread lead must exceed 200 x 2.
    assert gibsonized([st(1, 8, 1000), st(2, 6, 599)], rounds_left=2) == 1
    assert gibsonized([st(1, 8, 1000), st(2, 6, 600)], rounds_left=2) is None
    assert gibsonized([st(1, 8, 1000), st(2, 6, 700)], rounds_left=2, spread_allowance=100) == 1


def test_gibson_half_wins() -> None:
    assert gibsonized([st(1, 7.5, 0), st(2, 5, 0)], rounds_left=2) == 1
    assert gibsonized([st(1, 7.5, 0), st(2, 5.5, 0)], rounds_left=2) is None


def test_gibson_checks_every_chaser_and_needs_two_players() -> None:
    # The second-best by wins is far behind on spread, but another chaser is close.
    assert gibsonized([st(1, 8, 0), st(2, 7, -1000), st(3, 7, -10)], rounds_left=1) is None
    assert gibsonized([st(1, 8, 0)], rounds_left=1) is None


def test_out_of_contention() -> None:
    standings = [st(1, 9, 500), st(2, 7, 300), st(3, 6, 100), st(4, 5, 200), st(5, 4, 0)]
    # Two prize places, one round left: 3 can still catch 2 (one win back, 200 spread);
    # 4 (two wins back) and 5 cannot.
    assert out_of_contention(standings, rounds_left=1, prize_places=2) == [4, 5]
    assert out_of_contention(standings, rounds_left=3, prize_places=2) == []
    assert out_of_contention(standings, rounds_left=1, prize_places=5) == []


def test_a_prize_place_is_in_contention_even_when_settled() -> None:
    # One round left, three places pay. 2 can be caught by nobody (4 and 3 are a win and 300 or more behind)
    # and cannot catch 1: their second place is settled, but it pays, so they are not out. 3 can still catch
    # 4 for third (level on wins); 5 (a win and 400 behind 4) and 6 (two wins behind) cannot.
    standings = [st(1, 4, 650), st(2, 3, 350), st(4, 2, 50), st(3, 2, -150), st(5, 1, -350), st(6, 0, -550)]
    assert out_of_contention(standings, rounds_left=1, prize_places=3) == [5, 6]
    # With only first place paying, every other player is out, best first.
    assert out_of_contention(standings, rounds_left=1, prize_places=1) == [2, 4, 3, 5, 6]
    # Prizes down to the last place, or beyond the field: nobody is out.
    assert out_of_contention(standings, rounds_left=1, prize_places=6) == []
    assert out_of_contention(standings, rounds_left=1, prize_places=10) == []


# --------------------------------------------------------------------------- real tsh files


def tsh_division(path: Path):
    """A real `.t` file as (players, entrants, games, rounds played).

    A player's number (its 1-based line) is its id and seed.
    """
    if not path.exists():
        pytest.skip(f"shared tsh fixtures not found at {path} (the shared folder sits beside the project)")
    tsh = pytest.importorskip("events.play.core.tsh", reason="events.play.core.tsh (the .t reader) is not available")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("iso-8859-1")  # tsh's default encoding
    players = tsh.parse_t(text).players
    people = [
        Entrant(n, rating=p.rating, seed=n, withdrawn_after=p.withdrawn_after) for n, p in enumerate(players, start=1)
    ]
    games: list[Game] = []
    for n, p in enumerate(players, start=1):
        firsts = p.extras.get("p12", [])
        for k, (opp, score) in enumerate(zip(p.opponents, p.scores, strict=False)):  # scores may lag
            r = k + 1
            if opp < 0:  # not paired yet
                continue
            if opp == 0:  # no opponent: the score is the spread awarded
                if score > 0:
                    games.append(Game(r, n, kind=GameKind.BYE, award=score))
                elif score < 0:
                    games.append(Game(r, n, kind=GameKind.FORFEIT, award=-score))
                else:
                    games.append(Game(r, n, kind=GameKind.VOID))
            elif n < opp:
                start = firsts[k] if k < len(firsts) else ""
                first = n if start == "1" else opp if start == "2" else None
                games.append(Game(r, n, opp, score, players[opp - 1].scores[k], first=first))
    rounds = max((len(p.scores) for p in players), default=0)
    return players, people, games, rounds


def rrank_values(player) -> list[int | None]:
    return [None if v == "00" else int(v) for v in player.extras.get("rrank", [])]


def test_tsh_rrank_is_reproduced_after_every_round() -> None:
    """tsh's `rrank` (index r: rank after round r; index 0: before play, by rating).

    tsh ranks by wins, then spread, and players level on both share a rank.
    """
    players, people, games, rounds = tsh_division(TSH / "jvc56_tpa_86aeb79_test_data_a.t")
    assert rounds == 23
    for r in range(rounds + 1):
        standings = compute_standings(people, games, StandingsOptions(ties_stand=True), through_round=r)
        # Before play everyone is level: tsh lists the pairing order (rating, then seed).
        got = {s.player: (s.position if r == 0 else s.rank) for s in standings}
        expected = {n: rrank_values(p)[r] for n, p in enumerate(players, start=1)}
        assert got == expected, f"rank after round {r}"


def test_a_player_withdrawn_mid_event_is_ranked_as_tsh_ranked_them_then_set_apart() -> None:
    """The real division with its leader after round 10 marked withdrawn after that round.

    Through round 10 every player, the withdrawn one included, has exactly tsh's
    `rrank`. After it the withdrawn player is listed apart, unranked, and every
    player tsh ranked below them moves up one place, the others keep theirs.
    """
    players, people, games, rounds = tsh_division(TSH / "jvc56_tpa_86aeb79_test_data_a.t")
    options = StandingsOptions(ties_stand=True)
    leader = next(s.player for s in compute_standings(people, games, options, through_round=10) if s.rank == 1)
    people = [replace(e, withdrawn_after=10) if e.id == leader else e for e in people]
    rrank = {n: rrank_values(p) for n, p in enumerate(players, start=1)}
    compared = 0
    for r in range(1, rounds + 1):
        got = {s.player: s.rank for s in compute_standings(people, games, options, through_round=r)}
        if r <= 10:
            expected = {n: ranks[r] for n, ranks in rrank.items()}
        else:
            theirs = rrank[leader][r]
            expected = {n: ranks[r] - (theirs < ranks[r]) for n, ranks in rrank.items()}
            expected[leader] = None
        assert got == expected, f"after round {r}"
        compared += len(got)
    assert compared == 23 * 24


def test_tsh_file_with_byes_late_entrants_and_withdrawals() -> None:
    """A real event with byes of varied spreads (50, 1, -1, -50, 0), late entrants,
    withdrawn players ("off") and a spread cap of 200 in round 1, 700 after
    (from its config.tsh). Its `rrank` is set for rounds 15 to 17 only; those
    ranks are reproduced with the cap and with withdrawn players left out.
    """
    players, people, games, rounds = tsh_division(TSH / "e4c5_team_pairings_tournament1_a.t")
    options = StandingsOptions(spread_cap=(200,) + (700,) * 17, ties_stand=True)
    checked = 0
    for r in range(rounds + 1):
        standings = compute_standings(people, games, options, through_round=r)
        assert len(standings) == len(people)
        rank_of = {s.player: s.rank for s in standings}
        for n, p in enumerate(players, start=1):
            values = rrank_values(p)
            if r >= len(values) or values[r] is None:
                continue
            if "off" in p.extras:
                assert rank_of[n] is None, f"withdrawn player {n} after round {r}"
                continue
            assert rank_of[n] == values[r], f"player {n} after round {r}"
            checked += 1
    assert checked == 3 * sum(1 for p in players if "off" not in p.extras)
    final = compute_standings(people, games, options)
    assert final[0].player == 1 and not people[0].withdrawn
    # When each withdrew (no rrank for them: the last round before their trailing forfeits).
    assert {e.id: e.withdrawn_after for e in people if e.withdrawn} == {
        10: 10,
        11: 14,
        14: 10,
        32: 9,
        33: 10,
        36: 14,
        38: 0,
    }
    # Before withdrawing they are ranked with everyone: David Baker led after round 2, was 2nd after round 9.
    after_2 = compute_standings(people, games, options, through_round=2)
    assert (after_2[0].player, after_2[0].rank, after_2[0].wins) == (32, 1, 2.0)
    after_9 = {s.player: s.rank for s in compute_standings(people, games, options, through_round=9)}
    assert after_9[32] == 2 and after_9[38] is None
    assert [s.player for s in compute_standings(people, games, options, through_round=10) if s.withdrawn] == [32, 38]


def test_tsh_file_record_ranks_match_its_rcrank_when_nobody_is_set_apart() -> None:
    """That file's `rcrank` (written by its exporter, not by tsh) ranks every player on
    their record after every round, withdrawn or not. With nobody set apart, the
    ranking by record (200 cap in round 1, byes of 1, late entrants) gives the same."""
    players, people, games, rounds = tsh_division(TSH / "e4c5_team_pairings_tournament1_a.t")
    options = StandingsOptions(spread_cap=(200,) + (700,) * 17, ties_stand=True)
    everyone = [replace(e, withdrawn=False, withdrawn_after=None) for e in people]
    compared = 0
    for r in range(1, rounds + 1):
        got = {s.player: s.rank for s in compute_standings(everyone, games, options, through_round=r)}
        expected = {n: int(p.extras["rcrank"][r]) for n, p in enumerate(players, start=1)}
        assert got == expected, f"after round {r}"
        compared += len(got)
    assert compared == 18 * 38


# --------------------------------------------------------------------------- per-round spread caps


def test_round_spread_caps_are_read_and_written_back() -> None:
    assert parse_round_spread_caps("200, 700, , 300") == (200, 700, None, 300)
    assert parse_round_spread_caps("[200, 700, 0, 300]") == (200, 700, None, 300)  # tsh's config list
    assert parse_round_spread_caps("") == parse_round_spread_caps(" [ ] ") == ()
    assert parse_round_spread_caps("200,,") == (200,)
    assert format_round_spread_caps((200, None, 300)) == "200,,300"
    assert parse_round_spread_caps(format_round_spread_caps((200, None, 300))) == (200, None, 300)
    with pytest.raises(ValueError, match="round 2: '-5'"):
        parse_round_spread_caps("200,-5")
    with pytest.raises(ValueError, match="round 1: 'abc'"):
        parse_round_spread_caps("abc")


def test_round_spread_caps_with_one_cap_for_the_other_rounds() -> None:
    assert round_spread_caps((), None) is None
    assert round_spread_caps((), 300) == 300
    assert round_spread_caps((None, None), 300) == 300
    # 200 in round 1, 700 in every other round of an 18-game event (the seed's config.tsh).
    assert round_spread_caps((200,), 700, rounds=18) == (200,) + (700,) * 17
    assert round_spread_caps((200, None, 100), None, rounds=4) == (200, None, 100, None)


def test_per_round_caps_from_the_seed_config_in_the_standings() -> None:
    # Round 1 capped at 200, round 2 at 700: a 350-point win counts 200, then 350.
    cap = round_spread_caps(parse_round_spread_caps("[200, 700]"), None)
    games = [g(1, 1, 2, 550, 200), g(2, 2, 1, 550, 200)]
    by_id = {s.player: s for s in compute_standings(entrants(2), games, StandingsOptions(spread_cap=cap))}
    assert (by_id[1].spread, by_id[2].spread) == (200 - 350, 350 - 200)
