import pytest

from events.play.core.divisions import AssignmentError, Band, Candidate, assign_by_bands, split_bands

BANDS = [Band("A", 1800, None), Band("B", 1200, 1799), Band("C", None, 1199, takes_unrated=True)]


def placed(placements):
    return {p.id: p.division for p in placements}


def test_players_go_to_the_band_that_holds_their_rating():
    got = placed(
        assign_by_bands([Candidate(1, 1900), Candidate(2, 1800), Candidate(3, 1799), Candidate(4, 500)], BANDS)
    )
    assert got == {1: "A", 2: "A", 3: "B", 4: "C"}


def test_unrated_players_go_to_the_division_named_for_them():
    bands = [Band("A", 1500, None, takes_unrated=True), Band("B", None, 1499)]
    assert placed(assign_by_bands([Candidate(1, 0)], bands)) == {1: "A"}
    assert placed(assign_by_bands([Candidate(1, 0)], [Band("A", 1500), Band("B", None, 1499)])) == {1: "B"}


def test_play_up_but_never_down():
    got = assign_by_bands([Candidate(1, 1300, play_up_to="A"), Candidate(2, 1900, play_up_to="C")], BANDS)
    assert placed(got) == {1: "A", 2: "A"}
    assert "plays up" in got[0].reason


def test_play_up_one_division():
    from events.play.core.divisions import UP_ONE

    got = placed(assign_by_bands([Candidate(1, 1300, play_up_to=UP_ONE), Candidate(2, 1900, play_up_to=UP_ONE)], BANDS))
    assert got == {1: "A", 2: "A"}


def test_director_override_stands_with_its_reason():
    got = assign_by_bands([Candidate(1, 1900, fixed_to="C", fixed_reason="returning from injury")], BANDS)
    assert got[0].division == "C" and got[0].reason == "returning from injury"


def test_gaps_in_the_bands_are_reported():
    with pytest.raises(AssignmentError, match="No division's band holds rating 1500"):
        assign_by_bands([Candidate(1, 1500)], [Band("A", 1600), Band("B", None, 1400)])


def test_split_into_k_divisions_of_about_equal_size():
    ratings = list(range(1000, 2000, 10))  # 100 players
    bands = split_bands(ratings, ["A", "B", "C"])
    got = placed(assign_by_bands([Candidate(i, r) for i, r in enumerate(ratings)], bands))
    sizes = [sum(1 for d in got.values() if d == name) for name in "ABC"]
    assert max(sizes) - min(sizes) <= 1 and sum(sizes) == 100
    assert min(r for i, r in enumerate(ratings) if got[i] == "A") > max(
        r for i, r in enumerate(ratings) if got[i] == "B"
    )
