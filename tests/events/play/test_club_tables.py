"""Seed 001's multi-player table rule and the club ladder, as pure rules, on hand-worked cases."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events.play.core.ladder import LadderPoints, PairGame, TablePlaces, ladder
from events.play.core.tables import Seat, TableError, order_of_play, rank_table


def _places(result):
    return [(s.player, s.final, s.place_label) for s in result.seats]


# --------------------------------------------------------------------------- the draw


def test_the_tile_nearest_a_starts_and_a_blank_beats_any_letter():
    assert order_of_play({1: "E", 2: "?", 3: "A", 4: "Z"}) == (2, 3, 1, 4)


def test_players_who_drew_the_same_tile_draw_again_and_the_redraw_orders_them():
    assert order_of_play({1: "ek", 2: "EC", 3: "B"}) == (3, 2, 1)


@pytest.mark.parametrize("draws", [{1: "E", 2: "E", 3: "A"}, {1: "E", 2: "EA"}, {1: "EKK", 2: "EKK"}])
def test_a_draw_that_leaves_two_players_level_is_refused(draws):
    with pytest.raises(TableError, match="draw again") as error:
        order_of_play(draws)
    assert error.value.field == "draw"
    assert error.value.player in draws


@pytest.mark.parametrize("drawn", ["", "1", "É", "E\x00", "A" * 11, "=SUM(A1)"])
def test_a_draw_that_is_not_tiles_is_refused_naming_the_player(drawn):
    with pytest.raises(TableError) as error:
        order_of_play({1: "B", 2: drawn})
    assert error.value.player == 2


# --------------------------------------------------------------------------- the end of the game


def test_seed_001_the_player_who_went_out_gains_the_others_tiles_and_they_lose_theirs():
    result = rank_table([Seat(1, 300, 0), Seat(2, 318, 8), Seat(3, 250, 4)], order=(2, 1, 3), went_out=1)
    assert _places(result) == [(1, 312, "1"), (2, 310, "2"), (3, 246, "3")]
    by_player = {s.player: s for s in result.seats}
    assert (by_player[1].adjustment, by_player[2].adjustment, by_player[3].adjustment) == (12, -8, -4)
    assert [s.seat for s in result.by_seat()] == [1, 2, 3]
    assert result.by_seat()[0].player == 2


def test_seed_001_a_tie_on_final_score_goes_to_the_higher_score_before_the_adjustment():
    # Ann went out from 300 and gains Bob's 8 and Cy's 2: 310. Bob had 318 before losing 8: 310 too.
    result = rank_table([Seat(1, 300, 0), Seat(2, 318, 8), Seat(3, 280, 2)], went_out=1)
    assert _places(result) == [(2, 310, "1"), (1, 310, "2"), (3, 278, "3")]
    assert result.winners == (2,)


def test_when_the_hour_is_up_everyone_loses_their_tiles_and_nobody_gains():
    result = rank_table([Seat(1, 300, 10), Seat(2, 295, 3)])
    assert _places(result) == [(2, 292, "1"), (1, 290, "2")]
    assert sum(s.adjustment for s in result.seats) == -13


def test_level_on_both_scores_is_a_shared_place_at_every_place():
    everyone = rank_table([Seat(p, 300, 5) for p in (1, 2, 3, 4)])
    assert [s.place_label for s in everyone.seats] == ["=1"] * 4
    second = rank_table([Seat(1, 400, 0), Seat(2, 305, 5), Seat(3, 305, 5), Seat(4, 200, 1)])
    assert [s.place_label for s in second.seats] == ["1", "=2", "=2", "4"]
    last = rank_table([Seat(1, 400, 0), Seat(2, 300, 0), Seat(3, 250, 2), Seat(4, 250, 2)])
    assert [s.place_label for s in last.seats] == ["1", "2", "=3", "=3"]
    first = rank_table([Seat(1, 400, 4), Seat(2, 400, 4), Seat(3, 100, 0)])
    assert [s.place_label for s in first.seats] == ["=1", "=1", "3"]


def test_two_and_four_players():
    two = rank_table([Seat(1, 350, 0), Seat(2, 360, 10)], went_out=1)
    assert _places(two) == [(1, 360, "1"), (2, 350, "2")]
    four = rank_table([Seat(1, 200, 7), Seat(2, 210, 0), Seat(3, 190, 2), Seat(4, 220, 12)], went_out=2)
    assert _places(four) == [(2, 231, "1"), (4, 208, "2"), (1, 193, "3"), (3, 188, "4")]


@pytest.mark.parametrize(
    ("seats", "went_out", "field", "player"),
    [
        ([Seat(1, 300)], None, "players", None),
        ([Seat(p, 300) for p in range(5)], None, "players", None),
        ([Seat(1, 300), Seat(1, 200)], None, "player", 1),
        ([Seat(1, 300, 3), Seat(2, 200)], 1, "tiles_left", 1),
        ([Seat(1, 300), Seat(2, 200)], 9, "went_out", None),
        ([Seat(1, -1), Seat(2, 200)], None, "score_before", 1),
        ([Seat(1, 300), Seat(2, 10**20)], None, "score_before", 2),
        ([Seat(1, 300), Seat(2, 200, 71)], None, "tiles_left", 2),
        ([Seat(1, 300), Seat(2, True)], None, "score_before", 2),
    ],
)
def test_what_cannot_be_a_table_is_refused_naming_the_player_and_field(seats, went_out, field, player):
    with pytest.raises(TableError) as error:
        rank_table(seats, went_out=went_out)
    assert (error.value.field, error.value.player) == (field, player)


seat_lists = st.lists(st.tuples(st.integers(0, 600), st.integers(0, 30)), min_size=2, max_size=4).map(
    lambda rows: [Seat(n, before, tiles) for n, (before, tiles) in enumerate(rows, start=1)]
)


@given(seat_lists, st.data())
def test_a_table_is_ranked_by_final_then_score_before(seats, data):
    went_out = data.draw(st.sampled_from([None] + [s.player for s in seats]))
    seats = [Seat(s.player, s.score_before, 0) if s.player == went_out else s for s in seats]
    result = rank_table(seats, went_out=went_out)
    keys = [(s.final, s.score_before) for s in result.seats]
    assert keys == sorted(keys, reverse=True)
    for s in result.seats:
        assert s.final == s.score_before + s.adjustment
        assert s.place == 1 + sum(1 for k in keys if k > (s.final, s.score_before))
    if went_out is not None:
        assert sum(s.adjustment for s in result.seats) == 0


# --------------------------------------------------------------------------- the ladder


def test_the_ladder_counts_wins_places_and_each_night_once():
    points = LadderPoints(win=2, tie=1, loss=0, places=(4, 2, 1, 0), attendance=1)
    rows = ladder(
        points,
        attendance=[(1, 10), (1, 11), (1, 12), (2, 10), (2, 13)],
        games=[PairGame(1, 10, 11, 400, 350), PairGame(2, 10, 13, 300, 300), PairGame(2, 13, 12, 310, 310, 12)],
        tables=[TablePlaces(1, ((12, 1), (11, 2), (10, 3)))],
    )
    got = {r.player: (r.points, r.wins, r.games, r.nights) for r in rows}
    # 10: win 2 + tie 1 + third 1 + two nights 2; 11: loss 0 + second 2 + one night 1;
    # 12: first 4 + tie won on the score before the tiles 2 + two nights (the game at night 2 counts); 13: tie 1
    # + loss 0 + one night.
    assert got == {10: (6, 1.5, 3, 2), 11: (3, 0.0, 2, 1), 12: (8, 2.0, 2, 2), 13: (2, 0.5, 2, 1)}
    assert [(r.player, r.rank_label) for r in rows] == [(12, "1"), (10, "2"), (11, "3"), (13, "4")]


def test_players_level_on_points_wins_and_nights_share_the_rank():
    rows = ladder(LadderPoints(), attendance=[(1, 1), (1, 2), (1, 3)], games=[])
    assert [r.rank_label for r in rows] == ["=1", "=1", "=1"]


def test_places_beyond_the_clubs_list_give_nothing_and_bad_points_are_refused():
    assert LadderPoints(places=(3, 1)).for_place(3) == 0
    with pytest.raises(ValueError, match="place 2"):
        LadderPoints(places=(3, -1)).check()
    with pytest.raises(ValueError, match="a win"):
        LadderPoints(win=10**9).check()
