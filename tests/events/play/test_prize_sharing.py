"""Tied places share prizes as the event says (seed 000: ties are not broken, the organisers decide), and
a prize fund divided between divisions by the fees their players paid (seed 002, appendix 8)."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from events.models import PrizeTies
from events.play import services as play
from events.play.models import Division, DivisionPlayer, PrizeDecision
from events.play.services import prizes as prizes_io
from tests.events.factories import CategoryFactory, EntryFactory, EventFactory, PrizeFactory
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

D = Decimal
VOUCHERS = [100, 80, 60, 40, 20]  # seed 004, Category A: 1st–5th prizes


@pytest.fixture
def tied(director, make_division):
    """Six players, one round won by 150, 100 and 100: one 1st, two tied for 2nd (=2), two for 4th (=4)."""
    division = make_division(6)
    category = CategoryFactory(event=division.event)
    Division.objects.filter(pk=division.pk).update(category=category)
    division.refresh_from_db()
    for place, amount in enumerate(VOUCHERS, start=1):
        PrizeFactory(category=category, rank_from=place, rank_to=place, description=f"Shopping voucher S${amount}",
                     amount=D(amount), position=place)  # fmt: skip
    rnd = play.pair_round(director, division, "random", seed=3)
    play.publish_round(director, rnd)
    for margin, game in zip((150, 100, 100), rnd.games.order_by("board"), strict=True):
        play.submit_result(director, game, 300 + margin, 300)
    return division


def set_ties(division, policy: str) -> None:
    division.event.prize_ties = policy
    division.event.save()


def page(client, division) -> str:
    response = client.get(reverse("events:play_prizes", args=[division.event.slug, division.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_tied_players_split_the_money_of_the_places_they_cover(client, tied):
    assert tied.event.prize_ties == PrizeTies.SPLIT  # the usual rule, by default
    report = prizes_io.division_prizes(tied)
    rows = [(a.prize, a.rank_label, a.amount_each) for a in report.awards]
    assert rows == [
        ("1st place", "1", D(100)),
        ("2nd place to 3rd place", "=2", D(70)),  # (S$80 + S$60) / 2
        ("4th place to 5th place", "=4", D(30)),  # (S$40 + S$20) / 2
    ]
    first, second = (s.player.name for s in report.awards[1].seats)
    html = page(client, tied)
    assert f"=2 {first} and {second} share 2nd and 3rd: S$80.00 + S$60.00 → S$70.00 each" in html
    assert "Players tied for a place share the prize money" in html


def test_each_tied_player_may_receive_the_higher_prize(tied):
    set_ties(tied, PrizeTies.HIGHER)
    report = prizes_io.division_prizes(tied)
    assert [(a.prize, len(a.seats), a.amount_each) for a in report.awards] == [
        ("1st place", 1, D(100)),
        ("2nd place", 2, D(80)),
        ("3rd place", 0, None),
        ("4th place", 2, D(40)),
        ("5th place", 0, None),
    ]


def test_the_director_decides_tied_prizes_with_a_reason(client, director, tied):
    set_ties(tied, PrizeTies.DIRECTOR)
    report = prizes_io.division_prizes(tied)
    waiting = report.awaiting_director
    assert [a.prize for a in waiting] == ["2nd place", "3rd place", "4th place", "5th place"]
    alice, bob = waiting[0].tied_seats
    assert "The director decides who receives it" in page(client, tied)

    client.force_login(director)
    assert "Tied prizes: your decision" in page(client, tied)
    url = reverse("events:play_prizes", args=[tied.event.slug, tied.pk])
    client.post(url, {"prize": "2nd place", "seat": bob.pk, "reason": "Higher cumulative score, as announced"})
    client.post(url, {"prize": "3rd place", "seat": alice.pk, "reason": "Higher cumulative score, as announced"})
    decision = PrizeDecision.objects.get(prize="2nd place")
    assert (decision.seat, decision.decided_by, decision.reason) == (
        bob,
        director,
        "Higher cumulative score, as announced",
    )
    assert decision.decided_at is not None
    rows = {a.prize: ([s.pk for s in a.seats], a.amount_each) for a in prizes_io.division_prizes(tied).awards}
    assert rows["2nd place"] == ([bob.pk], D(80)) and rows["3rd place"] == ([alice.pk], D(60))
    html = page(client, tied)
    assert "Decided by the director: Higher cumulative score, as announced" in html
    assert "Decisions made, newest first" in html

    # A later decision counts; the earlier one is kept.
    client.post(url, {"prize": "2nd place", "seat": alice.pk, "reason": "Coin toss witnessed by both"})
    assert PrizeDecision.objects.filter(prize="2nd place").count() == 2
    rows = {a.prize: [s.pk for s in a.seats] for a in prizes_io.division_prizes(tied).awards}
    assert rows["2nd place"] == [alice.pk] and rows["3rd place"] == []  # Alice cannot take both
    assert "a later decision gave that player another of its prizes" in page(client, tied)
    client.post(url, {"prize": "3rd place", "seat": bob.pk, "reason": "Coin toss witnessed by both"})
    rows = {a.prize: [s.pk for s in a.seats] for a in prizes_io.division_prizes(tied).awards}
    assert rows["2nd place"] == [alice.pk] and rows["3rd place"] == [bob.pk]  # swapped


def test_a_decision_names_a_tied_player_and_a_reason(client, director, tied):
    set_ties(tied, PrizeTies.DIRECTOR)
    waiting = prizes_io.division_prizes(tied).awaiting_director
    leader = prizes_io.division_prizes(tied).awards[0].seats[0]
    url = reverse("events:play_prizes", args=[tied.event.slug, tied.pk])
    client.force_login(director)
    refused = client.post(url, {"prize": "2nd place", "seat": leader.pk, "reason": "Best player"}, follow=True)
    assert "Choose one of the players tied for =2" in refused.content.decode()
    client.post(url, {"prize": "2nd place", "seat": waiting[0].tied_seats[0].pk, "reason": "  "})
    client.post(url, {"prize": "1st place", "seat": leader.pk, "reason": "Not a tie"})
    assert not PrizeDecision.objects.exists()


def test_only_directors_decide_and_only_when_the_event_says_so(client, director, tied):
    seat = prizes_io.division_prizes(tied).awards[1].seats[0]
    url = reverse("events:play_prizes", args=[tied.event.slug, tied.pk])
    client.force_login(UserFactory())
    set_ties(tied, PrizeTies.DIRECTOR)
    assert client.post(url, {"prize": "2nd place", "seat": seat.pk, "reason": "x"}).status_code == 403
    set_ties(tied, PrizeTies.SPLIT)
    with pytest.raises(play.PlayError, match="not by the director"):
        prizes_io.decide_prize(director, tied, "2nd place", seat.pk, "Coin toss")
    assert not PrizeDecision.objects.exists()


# The prize fund. Seed 002's appendix 8 states the rule without numbers: these are made up.


def seat_paying(division, amount) -> None:
    player = PlayerFactory()
    category = division.category or CategoryFactory(event=division.event)
    entry = EntryFactory(category=category, event=division.event, player=player, amount_paid=D(amount))
    number = division.seats.count() + 1
    DivisionPlayer.objects.create(division=division, player=player, number=number, entry=entry)


def fund_event(fund, **divisions):
    event = EventFactory(prize_fund=D(fund), prize_fund_by_fees=True)
    made = {}
    for position, (name, fees) in enumerate(divisions.items()):
        made[name] = Division.objects.create(event=event, name=name, position=position)
        for amount in fees:
            seat_paying(made[name], amount)
    return event, made


def test_the_fund_is_divided_by_the_fees_each_division_paid(client):
    event, divisions = fund_event(1000, A=[30, 30, 30], B=[30, 30])
    split = prizes_io.prize_fund_split(event)
    assert [(s.division, s.players, s.paid, s.amount) for s in split.shares] == [
        ("Division A", 3, D(90), D(600)),
        ("Division B", 2, D(60), D(400)),
    ]
    html = page(client, divisions["A"])
    assert "Prize fund by division fees" in html
    assert "Division A: 3 players paid S$90.00 of S$150.00 → 60% of the S$1,000.00 fund = S$600.00" in html
    assert "Division B: 2 players paid S$60.00 of S$150.00 → 40% of the S$1,000.00 fund = S$400.00" in html
    assert "rounded down to the cent" not in html


def test_the_rounding_remainder_is_explained(client):
    event, divisions = fund_event(100, A=[10], B=[10], C=[10])
    html = page(client, divisions["B"])
    assert "Division A: 1 player paid S$10.00 of S$30.00 → 33.33% of the S$100.00 fund = S$33.34" in html
    assert "(with S$0.01 of the rounding remainder)" in html
    assert "Division C: 1 player paid S$10.00 of S$30.00 → 33.33% of the S$100.00 fund = S$33.33" in html
    assert "rounded down to the cent; that leaves S$0.01" in html


def test_no_fund_split_until_fees_are_paid_or_when_switched_off(client):
    event, divisions = fund_event(500, A=[0, 0])
    assert prizes_io.prize_fund_split(event).problem == "No fees have been recorded as paid yet."
    assert "No fees have been recorded as paid yet." in page(client, divisions["A"])
    event.prize_fund_by_fees = False
    event.save()
    assert prizes_io.prize_fund_split(event) is None
    assert "Prize fund by division fees" not in page(client, divisions["A"])


def test_the_switch_needs_a_fund():
    event = EventFactory(prize_fund=None, prize_fund_by_fees=True)
    with pytest.raises(ValidationError) as refused:
        event.clean()
    assert "prize_fund" in refused.value.message_dict
