"""Tied places sharing prizes (seed 000: ties are not broken, the organisers decide) and a prize fund
split between divisions by the fees their players paid (seed 002, APSP rules appendix 8)."""

from decimal import Decimal

import pytest

from events.play.core.prizes import (
    TIE_DIRECTOR,
    TIE_HIGHER,
    TIE_SPLIT,
    PlacePrize,
    PrizeOptions,
    award_prizes,
    explain_fund_split,
)
from tests.events.test_prizes import people, singapore_prizes, standings_from, winners

D = Decimal

# Seed 004, Category A: 1st–5th prizes are shopping vouchers of S$100, 80, 60, 40 and 20; 6th–10th trophies.
TIED_FOR_2ND = [(1, "1"), (2, "=2"), (3, "=2"), (4, "4"), (5, "5"), (6, "6")]


def awards_with(policy: str, rows=TIED_FOR_2ND, **decisions: int):
    options = PrizeOptions(ties=policy, decisions={k.replace("_", " "): v for k, v in decisions.items()})
    return award_prizes(standings_from(rows), people(len(rows)), place_prizes=singapore_prizes(), options=options)


def test_two_tied_for_2nd_split_the_2nd_and_3rd_vouchers_equally() -> None:
    awards = awards_with(TIE_SPLIT)
    assert winners(awards)[:3] == [
        ("1st place", (1,), D(100)),
        ("2nd place to 3rd place", (2, 3), D(70)),  # (80 + 60) / 2
        ("4th place", (4,), D(40)),
    ]
    shared = awards[1]
    assert shared.rank_label == "=2" and shared.tied_with == (2, 3)
    assert shared.covers == ("2nd place", "3rd place") and shared.pooled == (D(80), D(60))
    assert isinstance(shared.amount_each, Decimal)


def test_three_tied_for_3rd_split_three_vouchers() -> None:
    rows = [(1, "1"), (2, "2"), (3, "=3"), (4, "=3"), (5, "=3"), (6, "6")]
    awards = awards_with(TIE_SPLIT, rows)
    assert winners(awards)[2] == ("3rd place to 5th place", (3, 4, 5), D(40))  # (60 + 40 + 20) / 3
    assert awards[3].prize == "6th place" and awards[3].players == (6,)


def test_a_tie_across_the_last_voucher_pools_only_the_cash() -> None:
    rows = [(k, str(k)) for k in range(1, 5)] + [(5, "=5"), (6, "=5"), (7, "7")]
    awards = awards_with(TIE_SPLIT, rows)
    shared = awards[4]
    assert shared.players == (5, 6) and shared.amount_each == D(10)  # S$20 voucher; the 6th prize is a trophy
    assert shared.pooled == (D(20),) and "Trophy" in shared.description


def test_the_rounding_remainder_of_a_split_is_reported() -> None:
    rows = [(1, "1"), (2, "=2"), (3, "=2"), (4, "=2")]
    prizes = [PlacePrize(1, "First", D(100)), PlacePrize(2, "Second", D(50)), PlacePrize(3, "Third", D(50))]
    awards = award_prizes(standings_from(rows), people(4), place_prizes=prizes, options=PrizeOptions(ties=TIE_SPLIT))
    assert awards[1].amount_each == D("33.33") and "0.01 left over from rounding" in awards[1].note


def test_each_tied_player_may_receive_the_higher_prize() -> None:
    awards = awards_with(TIE_HIGHER)
    assert winners(awards)[:4] == [
        ("1st place", (1,), D(100)),
        ("2nd place", (2, 3), D(80)),
        ("3rd place", (), None),
        ("4th place", (4,), D(40)),
    ]
    assert "covered by the tie for =2" in awards[2].note


def test_the_director_decides_a_tie() -> None:
    undecided = awards_with(TIE_DIRECTOR)
    assert winners(undecided)[:4] == [
        ("1st place", (1,), D(100)),
        ("2nd place", (), None),
        ("3rd place", (), None),
        ("4th place", (4,), D(40)),
    ]
    assert undecided[1].tied_with == (2, 3) and "the director decides" in undecided[1].note
    decided = awards_with(TIE_DIRECTOR, **{"2nd_place": 3, "3rd_place": 2})
    assert winners(decided)[1:3] == [("2nd place", (3,), D(80)), ("3rd place", (2,), D(60))]
    assert decided[1].decided and decided[1].note == "decided by the director"


def test_a_director_decision_must_name_a_tied_player_once() -> None:
    outsider = awards_with(TIE_DIRECTOR, **{"2nd_place": 4})
    assert outsider[1].players == () and not outsider[1].decided
    twice = awards_with(TIE_DIRECTOR, **{"2nd_place": 2, "3rd_place": 2})  # the latest first
    assert twice[1].players == (2,) and twice[2].players == ()
    moved = awards_with(TIE_DIRECTOR, **{"3rd_place": 2, "2nd_place": 2})
    assert moved[1].players == () and moved[2].players == (2,)
    swapped = awards_with(TIE_DIRECTOR, **{"3rd_place": 2, "2nd_place": 3})
    assert (swapped[1].players, swapped[2].players) == ((3,), (2,))


def test_ties_do_not_matter_without_a_tie() -> None:
    rows = [(k, str(k)) for k in range(1, 7)]
    expected = winners(awards_with(TIE_HIGHER, rows))
    assert winners(awards_with(TIE_SPLIT, rows)) == expected == winners(awards_with(TIE_DIRECTOR, rows))


def test_an_unknown_tie_policy_is_refused() -> None:
    with pytest.raises(ValueError):
        awards_with("coin")


# Seed 002's appendix 8 gives the rule but no numbers: these are made up.


def test_fund_split_by_division_fees_with_its_arithmetic() -> None:
    shares, remainder = explain_fund_split(D(1000), [("Division A", 24, D(720)), ("Division B", 16, D(480))])
    a, b = shares
    assert (a.division, a.players, a.paid, a.percent, a.amount) == ("Division A", 24, D(720), D(60), D(600))
    assert (b.percent, b.amount) == (D(40), D(400))
    assert remainder == 0 and a.extra == b.extra == 0
    assert all(isinstance(v, Decimal) for s in shares for v in (s.paid, s.percent, s.exact, s.amount, s.extra))


def test_the_rounding_remainder_goes_a_cent_at_a_time_to_the_largest_fractions() -> None:
    # S$100 by fees of S$10, S$20 and S$40: 14.2857…, 28.5714…, 57.1428… → 14.28 + 28.57 + 57.14 = 99.99.
    shares, remainder = explain_fund_split(D(100), [("A", 1, D(10)), ("B", 2, D(20)), ("C", 4, D(40))])
    assert remainder == D("0.01")
    assert [(s.amount, s.extra) for s in shares] == [(D("14.29"), D("0.01")), (D("28.57"), 0), (D("57.14"), 0)]
    assert sum(s.amount for s in shares) == D(100)


def test_equal_fees_give_the_odd_cent_to_the_first_division() -> None:
    shares, remainder = explain_fund_split(D(1000), [("A", 10, D(100)), ("B", 10, D(100)), ("C", 10, D(100))])
    assert [s.amount for s in shares] == [D("333.34"), D("333.33"), D("333.33")] and remainder == D("0.01")
    assert shares[0].percent == D("33.33")


def test_a_fund_cannot_be_split_when_nobody_paid() -> None:
    with pytest.raises(ValueError):
        explain_fund_split(D(100), [("A", 3, D(0))])
    with pytest.raises(ValueError):
        explain_fund_split(D(100), [("A", 3, D(5)), ("A", 1, D(5))])
