from decimal import Decimal

import pytest

from events.play.core.prizes import (
    Award,
    ClassPrize,
    HighGamePrize,
    PlacePrize,
    PrizeOptions,
    award_prizes,
    ordinal,
    split_prize_fund,
)
from events.play.core.results import Game, GameKind
from events.play.core.standings import Entrant, Standing, compute_standings

D = Decimal


def standings_from(rows: list[tuple[int, str]]) -> list[Standing]:
    """(player, rank label) rows, best first, as standings."""
    out = []
    for pos, (player, label) in enumerate(rows, start=1):
        rank = int(label.lstrip("="))
        out.append(Standing(player, rank, pos, label.startswith("="), 0.0, 0.0, 0, 0, 0, 0))
    return out


def people(n: int, **classes: str) -> list[Entrant]:
    return [Entrant(k, rating=2000 - 100 * k, seed=k, rating_class=classes.get(f"p{k}", "")) for k in range(1, n + 1)]


def singapore_prizes() -> list[PlacePrize]:
    vouchers = [100, 80, 60, 40, 20]
    prizes = [PlacePrize(k, f"Shopping voucher S${v} + trophy", D(v)) for k, v in enumerate(vouchers, start=1)]
    return prizes + [PlacePrize(k, "Trophy") for k in range(6, 11)]


def winners(awards: list[Award]) -> list[tuple[str, tuple[int, ...], Decimal | None]]:
    return [(a.prize, a.players, a.amount_each) for a in awards]


def test_top_ten_place_prizes() -> None:
    standings = standings_from([(k, str(k)) for k in range(1, 13)])
    awards = award_prizes(standings, people(12), place_prizes=singapore_prizes())
    assert winners(awards)[:3] == [("1st place", (1,), D(100)), ("2nd place", (2,), D(80)), ("3rd place", (3,), D(60))]
    assert [a.players for a in awards] == [(k,) for k in range(1, 11)]
    assert awards[9].description == "Trophy" and awards[9].amount_each is None


def test_tied_players_each_receive_the_highest_shared_prize() -> None:
    standings = standings_from([(1, "1"), (2, "2"), (3, "=3"), (4, "=3"), (5, "5"), (6, "6")])
    awards = award_prizes(standings, people(6), place_prizes=singapore_prizes()[:5])
    assert winners(awards) == [
        ("1st place", (1,), D(100)),
        ("2nd place", (2,), D(80)),
        ("3rd place", (3, 4), D(60)),
        ("4th place", (), None),
        ("5th place", (5,), D(20)),
    ]
    assert awards[2].rank_label == "=3" and "each receives" in awards[2].note
    assert "covered by the tie for =3" in awards[3].note


def test_split_ties_pool_the_cash() -> None:
    standings = standings_from([(1, "1"), (2, "=2"), (3, "=2"), (4, "=2"), (5, "5")])
    prizes = [
        PlacePrize(1, "First", D(100)),
        PlacePrize(2, "Second", D(50)),
        PlacePrize(3, "Third", D(30)),
        PlacePrize(4, "Fourth", D(20)),
    ]
    awards = award_prizes(standings, people(5), place_prizes=prizes, options=PrizeOptions(split_ties=True))
    assert winners(awards) == [
        ("1st place", (1,), D(100)),
        ("2nd place to 4th place", (2, 3, 4), D("33.33")),
    ]
    assert "0.01 left over" in awards[1].note


def test_tie_across_the_last_prize_place() -> None:
    standings = standings_from([(1, "1"), (2, "=2"), (3, "=2"), (4, "4")])
    prizes = [PlacePrize(1, "First", D(100)), PlacePrize(2, "Second", D(50))]
    awards = award_prizes(standings, people(4), place_prizes=prizes)
    assert winners(awards) == [("1st place", (1,), D(100)), ("2nd place", (2, 3), D(50))]
    split = award_prizes(standings, people(4), place_prizes=prizes, options=PrizeOptions(split_ties=True))
    assert winners(split) == [("1st place", (1,), D(100)), ("2nd place", (2, 3), D(25))]


def test_fewer_players_than_prizes() -> None:
    awards = award_prizes(
        standings_from([(1, "1")]), people(1), place_prizes=[PlacePrize(1, "First"), PlacePrize(2, "Second")]
    )
    assert winners(awards) == [("1st place", (1,), None), ("2nd place", (), None)]


def test_class_prizes_by_label_and_by_rating_band() -> None:
    standings = standings_from([(k, str(k)) for k in range(1, 7)])
    field = people(6, p4="B", p5="B", p6="C")
    classes = [
        ClassPrize("Class B", "Best B player", D(30), rating_class="B"),
        ClassPrize("1500 and under", "Best rated 1500 or less", D(25), max_rating=1500),
    ]
    awards = award_prizes(standings, field, place_prizes=[PlacePrize(1, "First", D(100))], class_prizes=classes)
    assert winners(awards) == [("1st place", (1,), D(100)), ("Class B", (4,), D(30)), ("1500 and under", (5,), D(25))]


def test_one_prize_per_player_passes_the_prize_down() -> None:
    standings = standings_from([(k, str(k)) for k in range(1, 7)])
    field = people(6, p2="B", p4="B")
    classes = [ClassPrize("Class B", "Best B player", D(30), rating_class="B")]
    both = award_prizes(standings, field, place_prizes=singapore_prizes()[:2], class_prizes=classes)
    assert winners(both)[-1] == ("Class B", (2,), D(30))
    one = award_prizes(
        standings,
        field,
        place_prizes=singapore_prizes()[:2],
        class_prizes=classes,
        options=PrizeOptions(one_prize_per_player=True),
    )
    assert winners(one)[-1] == ("Class B", (4,), D(30))


def test_class_prize_with_nobody_eligible() -> None:
    prizes = [ClassPrize("Class Z", "Z", rating_class="Z")]
    awards = award_prizes(standings_from([(1, "1")]), people(1), class_prizes=prizes)
    assert winners(awards) == [("Class Z", (), None)]
    assert awards[0].note == "nobody eligible in the class"


def test_class_places_share_the_tie_policy() -> None:
    standings = standings_from([(1, "1"), (2, "=2"), (3, "=2"), (4, "4")])
    field = people(4, p2="B", p3="B", p4="B")
    classes = [
        ClassPrize("Class B", "Best B", D(30), rating_class="B"),
        ClassPrize("Class B", "Second B", D(10), place=2, rating_class="B"),
    ]
    awards = award_prizes(standings, field, class_prizes=classes)
    assert winners(awards) == [("Class B", (2, 3), D(30)), ("Class B, 2nd", (), None)]


def games_with_scores() -> list[Game]:
    return [
        Game(1, 1, 2, 520, 400),
        Game(1, 3, 4, 610, 300),
        Game(2, 4, 1, 650, 660),  # 4's 650 is a losing score: it does not count
        Game(2, 2, 3, 610, 600),
        Game(3, 5, kind=GameKind.BYE),
        Game(3, 1, 3, 400, 400),
    ]


def test_high_game_is_the_highest_winning_score() -> None:
    awards = award_prizes(
        standings_from([(k, str(k)) for k in range(1, 6)]),
        people(5),
        games_with_scores(),
        high_game=HighGamePrize("High game trophy", D(20)),
    )
    assert winners(awards) == [("High game", (1,), D(20))]
    assert awards[0].rank_label == "660" and "round 2" in awards[0].note


def test_high_game_ties_are_listed_together() -> None:
    games = [Game(1, 1, 2, 610, 400), Game(1, 3, 4, 610, 500)]
    awards = award_prizes(
        standings_from([(k, str(k)) for k in range(1, 5)]),
        people(4),
        games,
        high_game=HighGamePrize("High game", D(30)),
        options=PrizeOptions(split_ties=True),
    )
    assert winners(awards) == [("High game", (1, 3), D(15))]


def test_high_game_with_one_prize_per_player() -> None:
    standings = standings_from([(k, str(k)) for k in range(1, 6)])
    awards = award_prizes(
        standings,
        people(5),
        games_with_scores(),
        place_prizes=[PlacePrize(1, "First")],
        high_game=HighGamePrize("High game"),
        options=PrizeOptions(one_prize_per_player=True),
    )
    # 1 holds first place; the next best winning scores are 610 by 3 and by 2,
    # listed in standings order.
    assert winners(awards)[-1] == ("High game", (2, 3), None)


def test_no_winning_score() -> None:
    awards = award_prizes(standings_from([(1, "1")]), people(1), [], high_game=HighGamePrize("High game"))
    assert awards[0].players == () and "no winning score" in awards[0].note


def test_prize_fund_split_by_fees() -> None:
    parts = split_prize_fund(D(1000), {"A": D(600), "B": D(300), "C": D(100)})
    assert parts == {"A": D(600), "B": D(300), "C": D(100)}
    uneven = split_prize_fund(D(100), {"A": D(1), "B": D(1), "C": D(1)})
    assert sum(uneven.values()) == D(100)
    assert sorted(uneven.values()) == [D("33.33"), D("33.33"), D("33.34")]
    assert uneven["A"] == D("33.34")  # the leftover cent goes to the first division on a tie
    with pytest.raises(ValueError):
        split_prize_fund(D(100), {"A": D(0)})
    with pytest.raises(ValueError):
        split_prize_fund(D(100), {"A": D(-1), "B": D(5)})


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "101st",
        "111th",
    ]


def test_a_player_withdrawn_before_the_last_round_wins_no_place_or_class_prize() -> None:
    """Final standings with player 1 (the best record) withdrawn after round 1 of 3."""
    field = [
        Entrant(1, rating=1900, seed=1, rating_class="B", withdrawn_after=1),
        *[Entrant(k, rating=2000 - 100 * k, seed=k, rating_class="B") for k in range(2, 5)],
    ]
    games = [
        Game(1, 1, 2, 600, 300),
        Game(1, 3, 4, 400, 390),
        Game(2, 1, kind=GameKind.FORFEIT),
        Game(2, 2, 3, 400, 350),
        Game(2, 4, kind=GameKind.BYE),
        Game(3, 1, kind=GameKind.FORFEIT),
        Game(3, 2, 4, 410, 400),
        Game(3, 3, kind=GameKind.BYE),
    ]
    standings = compute_standings(field, games)
    assert [(s.player, s.rank) for s in standings][-1] == (1, None)
    awards = award_prizes(
        standings,
        field,
        games,
        place_prizes=[PlacePrize(k, f"Prize {k}") for k in range(1, 5)],
        class_prizes=[ClassPrize("Class B", "Book", rating_class="B")],
        high_game=HighGamePrize("Medal"),
    )
    assert [(a.prize, a.players) for a in awards] == [
        ("1st place", (3,)),
        ("2nd place", (2,)),
        ("3rd place", (4,)),
        ("4th place", ()),  # three ranked players: the withdrawn one does not take it
        ("Class B", (3,)),
        ("High game", (1,)),  # a winning score made before withdrawing still counts
    ]
