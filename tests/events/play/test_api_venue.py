"""The tournament-day API: check-in, lucky draws, prizes and live ratings, through the same services as the
director's pages; each for a director, a player and an anonymous visitor, with the refusals."""

from datetime import date, datetime, time, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db.models import Q
from django.utils import timezone
from rest_framework.test import APIClient

from events.models import EntryStatus, EventStatus, Prize, PrizeTies
from events.play import services as play
from events.play.models import CheckIn, Division, DivisionPlayer, LuckyDraw, PrizeDecision
from events.play.services import checkin
from tests.events.factories import CategoryFactory, EntryFactory, EventFactory, PrizeFactory
from tests.factories import PlayerFactory, UserFactory
from tests.ratings.factories import RatingListFactory, seed

pytestmark = pytest.mark.django_db

SGT = ZoneInfo("Asia/Singapore")
DAY = date(2015, 9, 6)
BEFORE_CLOSE = datetime(2015, 9, 6, 9, 10, tzinfo=SGT)
IN_GRACE = datetime(2015, 9, 6, 9, 20, tzinfo=SGT)
AFTER_GRACE = datetime(2015, 9, 6, 9, 26, tzinfo=SGT)
REFUSED_ANONYMOUS = (401, 403)


@pytest.fixture
def api():
    return APIClient()


def names(rows) -> list[str]:
    return [r["name"] for r in rows]


# Check-in -----------------------------------------------------------------------------------------------


@pytest.fixture
def venue():
    """Reporting 9.00–9.15 on the day; four entrants holding the four places, two on the waiting list."""
    director = UserFactory()
    event = EventFactory(
        status=EventStatus.REGISTRATION_CLOSED,
        starts_on=DAY,
        ends_on=DAY,
        time_zone="Asia/Singapore",
        reporting_time=time(9, 0),
        reporting_until=time(9, 15),
        registration_opens_at=datetime(2015, 8, 1, tzinfo=SGT),
        registration_closes_at=datetime(2015, 8, 27, 23, 59, tzinfo=SGT),
        rated=False,
    )
    event.directors.add(director)
    category = CategoryFactory(event=event, name="Secondary", quota=4)
    division = Division.objects.create(event=event, category=category, name="Secondary")
    entrants = []
    for i, name in enumerate(["Anna Tan", "Bala Kumar", "Chen Wei", "Dewi Lim"], start=1):
        player = PlayerFactory(full_name=name, user=UserFactory())
        entry = EntryFactory(category=category, player=player, status=EntryStatus.CONFIRMED, division=division)
        DivisionPlayer.objects.create(division=division, player=player, entry=entry, number=i)
        entrants.append(entry)
    waiting = [
        EntryFactory(category=category, player=PlayerFactory(full_name=name), status=EntryStatus.WAITLISTED)
        for name in ("Eddie Goh", "Farah Ismail")
    ]
    return event, director, division, entrants, waiting


def check_in_url(event, tail: str = "") -> str:
    return f"/api/play/events/{event.slug}/check-in/{tail}"


def test_a_director_ticks_players_off_and_settles_the_missing_and_the_waiting_list(api, venue):
    event, director, division, entrants, waiting = venue
    api.force_authenticate(director)
    with time_machine.travel(BEFORE_CLOSE, tick=False):
        for entry in (entrants[0], entrants[1], waiting[1]):
            ticked = api.post(check_in_url(event), {"entry": entry.pk}, format="json")
            assert ticked.status_code == 200, ticked.content
            assert ticked.json()["entry"] == entry.pk and ticked.json()["by_self"] is False
        listed = api.get(check_in_url(event))
    assert listed.status_code == 200
    body = listed.json()
    assert names(body["present"]) == ["Anna Tan", "Bala Kumar"]
    assert names(body["missing"]) == ["Chen Wei", "Dewi Lim"]
    assert names(body["waiting"]) == ["Eddie Goh", "Farah Ismail"]
    assert names(body["waiting_present"]) == ["Farah Ismail"]
    assert body["venue_code"] == checkin.venue_code(event) and body["places_left"] == 0
    assert body["no_shows_due"] is False and body["reporting"]["places_given_up_at"]
    assert body["present"][0]["division"] == division.pk and body["present"][0]["number"] == 1
    assert body["waiting"][0]["division"] is None and body["waiting"][0]["checked_in_at"] is None
    assert sorted(body["withdrawable"]) == [entrants[2].pk, entrants[3].pk]

    undone = api.post(check_in_url(event, "undo/"), {"entry": entrants[1].pk}, format="json")
    assert undone.status_code == 204 and not CheckIn.objects.filter(entry=entrants[1]).exists()

    missing = [entrants[2].pk, entrants[3].pk]
    with time_machine.travel(IN_GRACE, tick=False):
        early = api.post(check_in_url(event, "withdraw-no-shows/"), {"entries": missing}, format="json")
    assert early.status_code == 400 and "until 09:25" in early.json()["detail"]
    with time_machine.travel(AFTER_GRACE, tick=False):
        gone = api.post(check_in_url(event, "withdraw-no-shows/"), {"entries": missing}, format="json")
        assert gone.status_code == 200, gone.content
        assert sorted(names(gone.json())) == ["Chen Wei", "Dewi Lim"]
        assert {r["status"] for r in gone.json()} == {EntryStatus.WITHDRAWN}
        api.post(check_in_url(event), {"entry": waiting[0].pk}, format="json")
        filled = api.post(check_in_url(event, "fill-places/"), {}, format="json")
    assert filled.status_code == 200, filled.content
    assert [(p["name"], p["division"], p["number"]) for p in filled.json()] == [
        ("Eddie Goh", division.pk, 3),
        ("Farah Ismail", division.pk, 4),
    ]
    waiting[0].refresh_from_db()
    assert waiting[0].status == EntryStatus.CONFIRMED and waiting[0].division == division


def test_one_waiting_entrant_takes_a_place_in_the_division_given(api, venue):
    event, director, division, entrants, waiting = venue
    api.force_authenticate(director)
    with time_machine.travel(AFTER_GRACE, tick=False):
        api.post(check_in_url(event, "withdraw-no-shows/"), {"entries": [entrants[3].pk]}, format="json")
        api.post(check_in_url(event), {"entry": waiting[0].pk}, format="json")
        other = Division.objects.create(event=EventFactory(), name="Elsewhere")
        wrong = api.post(check_in_url(event, "fill-places/"), {"entry": waiting[0].pk, "division": other.pk})
        assert wrong.status_code == 400 and list(wrong.json()) == ["division"]
        lone = api.post(check_in_url(event, "fill-places/"), {"division": division.pk}, format="json")
        assert lone.status_code == 400 and list(lone.json()) == ["division"]
        seated = api.post(
            check_in_url(event, "fill-places/"), {"entry": waiting[0].pk, "division": division.pk}, format="json"
        )
    assert seated.status_code == 200 and names(seated.json()) == ["Eddie Goh"]


def test_a_player_checks_in_their_own_entry_with_the_venue_code(api, venue):
    event, director, division, entrants, waiting = venue
    me, someone = entrants[1], entrants[2]
    api.force_authenticate(me.player.user)
    with time_machine.travel(BEFORE_CLOSE, tick=False):
        assert api.get(check_in_url(event)).status_code == 403  # the list is the director's
        wrong = api.post(check_in_url(event), {"entry": me.pk, "code": "WRONG1"}, format="json")
        assert wrong.status_code == 400 and list(wrong.json()) == ["code"]
        theirs = api.post(check_in_url(event), {"entry": someone.pk, "code": checkin.venue_code(event)})
        assert theirs.status_code == 403
        mine = api.post(check_in_url(event), {"entry": me.pk, "code": checkin.venue_code(event).lower()})
        assert mine.status_code == 200 and mine.json()["by_self"] is True
        assert api.post(check_in_url(event, "undo/"), {"entry": me.pk}).status_code == 403
        assert api.post(check_in_url(event, "fill-places/"), {}).status_code == 403
    with time_machine.travel(AFTER_GRACE, tick=False):
        refused = api.post(check_in_url(event, "withdraw-no-shows/"), {"entries": [someone.pk]}, format="json")
        assert refused.status_code == 403
        CheckIn.objects.all().delete()
        late = api.post(check_in_url(event), {"entry": me.pk, "code": checkin.venue_code(event)})
        assert late.status_code == 400 and "Reporting has closed" in late.json()["detail"]


def test_anonymous_visitors_see_no_check_in_and_change_nothing(api, venue):
    event, director, division, entrants, waiting = venue
    assert api.get(check_in_url(event)).status_code == 403
    for tail, body in [("", {"entry": entrants[0].pk}), ("undo/", {"entry": entrants[0].pk}), ("fill-places/", {})]:
        assert api.post(check_in_url(event, tail), body, format="json").status_code in REFUSED_ANONYMOUS
    assert api.get("/api/play/events/no-such-event/check-in/").status_code == 404
    assert not CheckIn.objects.exists()


def test_check_in_input_is_checked(api, venue):
    event, director, division, entrants, waiting = venue
    api.force_authenticate(director)
    elsewhere = EntryFactory(status=EntryStatus.CONFIRMED)
    for body in ({"entry": elsewhere.pk}, {"entry": 2**64}, {"entry": "x"}, {}):
        response = api.post(check_in_url(event), body, format="json")
        assert response.status_code == 400 and list(response.json()) == ["entry"], body
    for entries in ([], [2**64], list(range(1, 2100))):
        response = api.post(check_in_url(event, "withdraw-no-shows/"), {"entries": entries}, format="json")
        assert response.status_code == 400 and list(response.json()) == ["entries"]
    draft = EventFactory(status=EventStatus.DRAFT)
    api.force_authenticate(UserFactory())
    assert api.get(check_in_url(draft)).status_code == 404  # not public and not theirs


# Lucky draw ---------------------------------------------------------------------------------------------


@pytest.fixture
def played(director, make_division):
    """Six players with users, a round played, 1st and 2nd place prizes."""
    division = make_division(6, users=True)
    category = CategoryFactory(event=division.event, name="A")
    division.category = category
    division.save()
    Prize.objects.create(category=category, rank_from=1, rank_to=2, description="Trophy")
    rnd = play.pair_round(director, division, "random", seed=2)
    play.publish_round(director, rnd)
    for i, game in enumerate(rnd.games.filter(player_b__isnull=False)):
        play.submit_result(director, game, 410 + 10 * i, 300)
    return division


def test_a_director_draws_and_anyone_can_check_the_draw(api, director, played):
    url = f"/api/play/divisions/{played.pk}/lucky-draws/"
    prize_winners = {s.player_id for a in play.prizes.division_prizes(played).awards for s in a.seats}
    api.force_authenticate(director)
    drawn = api.post(url, {"winners": 2, "seed": 2015, "note": "Lucky draw prize"}, format="json")
    assert drawn.status_code == 201, drawn.content
    draw = drawn.json()
    assert draw["seed"] == 2015 and draw["checked"] is True and draw["note"] == "Lucky draw prize"
    assert len(draw["winners"]) == 2 and len(draw["candidates"]) == 4
    assert {w["player"] for w in draw["candidates"]}.isdisjoint(prize_winners)
    assert sorted(draw["excluded"]) == sorted(prize_winners)
    assert all(w["name"] and w["number"] for w in draw["winners"])

    api.force_authenticate(None)
    listed = api.get(url)
    assert listed.status_code == 200 and [d["id"] for d in listed.json()] == [draw["id"]]
    assert listed.json()[0]["winners"] == draw["winners"] and listed.json()[0]["checked"] is True
    tampered = LuckyDraw.objects.get(pk=draw["id"])
    tampered.winners = list(reversed(tampered.winners))
    tampered.save()
    assert api.get(url).json()[0]["checked"] is False


def test_only_directors_draw_and_the_number_of_winners_is_bounded(api, director, played):
    url = f"/api/play/divisions/{played.pk}/lucky-draws/"
    assert api.post(url, {"winners": 1}, format="json").status_code in REFUSED_ANONYMOUS
    api.force_authenticate(played.seats.first().player.user)
    assert api.get(url).status_code == 200
    assert api.post(url, {"winners": 1}, format="json").status_code == 403
    api.force_authenticate(director)
    for body, field in [
        ({"winners": 0}, "winners"),
        ({"winners": 501}, "winners"),
        ({"winners": 1, "seed": 2**63}, "seed"),
    ]:
        response = api.post(url, body, format="json")
        assert response.status_code == 400 and list(response.json()) == [field], body
    api.post(url, {"winners": 4}, format="json")
    empty = api.post(url, {"winners": 1}, format="json")
    assert empty.status_code == 400 and "Nobody is left" in empty.json()["detail"]
    assert LuckyDraw.objects.count() == 1


# Prizes -------------------------------------------------------------------------------------------------


@pytest.fixture
def tied(director, make_division):
    """Six players, one round won by 150, 100 and 100: one 1st, two tied for 2nd (=2), two for 4th (=4)."""
    division = make_division(6, users=True)
    category = CategoryFactory(event=division.event)
    Division.objects.filter(pk=division.pk).update(category=category)
    division.refresh_from_db()
    for place, amount in enumerate([100, 80, 60, 40, 20], start=1):
        PrizeFactory(category=category, rank_from=place, rank_to=place, description=f"Voucher S${amount}",
                     amount=Decimal(amount), position=place)  # fmt: skip
    rnd = play.pair_round(director, division, "random", seed=3)
    play.publish_round(director, rnd)
    for margin, game in zip((150, 100, 100), rnd.games.order_by("board"), strict=True):
        play.submit_result(director, game, 300 + margin, 300)
    return division


def test_prizes_are_listed_as_the_prizes_page_shows_them(api, tied):
    response = api.get(f"/api/play/divisions/{tied.pk}/prizes/")
    assert response.status_code == 200
    body = response.json()
    assert (body["final"], body["ties"], body["one_prize_per_player"], body["fund"]) == (False, "split", True, None)
    rows = [(a["prize"], a["rank_label"], a["amount_each"], len(a["winners"])) for a in body["awards"]]
    assert rows == [
        ("1st place", "1", "100.00", 1),
        ("2nd place to 3rd place", "=2", "70.00", 2),
        ("4th place to 5th place", "=4", "30.00", 2),
    ]
    first, second = names(body["awards"][1]["winners"])
    assert (
        body["awards"][1]["sharing"] == f"=2 {first} and {second} share 2nd and 3rd: S$80.00 + S$60.00 → S$70.00 each"
    )
    assert api.get(f"/api/play/divisions/{tied.pk}/prizes/", {"one_each": "2"}).status_code == 400


def test_a_director_decides_a_tied_prize_with_a_reason(api, director, tied):
    tied.event.prize_ties = PrizeTies.DIRECTOR
    tied.event.save()
    url = f"/api/play/divisions/{tied.pk}/prize-decisions/"
    second = api.get(f"/api/play/divisions/{tied.pk}/prizes/").json()["awards"][1]
    assert (second["prize"], second["awaits_director"], second["winners"]) == ("2nd place", True, [])
    alice, bob = second["tied"]
    decision = {"prize": "2nd place", "seat": bob["seat"], "reason": "Higher cumulative score"}

    assert api.post(url, decision, format="json").status_code in REFUSED_ANONYMOUS
    api.force_authenticate(DivisionPlayer.objects.get(pk=alice["seat"]).player.user)
    assert api.post(url, decision, format="json").status_code == 403
    api.force_authenticate(director)
    leader = api.get(f"/api/play/divisions/{tied.pk}/prizes/").json()["awards"][0]["winners"][0]
    wrong = api.post(url, {**decision, "seat": leader["seat"]}, format="json")
    assert wrong.status_code == 400 and "Choose one of the players tied for =2" in wrong.json()["detail"]
    assert api.post(url, {**decision, "reason": ""}, format="json").status_code == 400
    assert list(api.post(url, {**decision, "seat": 2**64}, format="json").json()) == ["seat"]
    assert not PrizeDecision.objects.exists()

    made = api.post(url, decision, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["seat"]["seat"] == bob["seat"] and made.json()["reason"] == "Higher cumulative score"
    awards = api.get(f"/api/play/divisions/{tied.pk}/prizes/").json()
    assert awards["awards"][1]["winners"] == [bob] and awards["awards"][1]["decided"] is True
    assert awards["awards"][1]["decision_reason"] == "Higher cumulative score"
    assert [d["prize"] for d in awards["decisions"]] == ["2nd place"]  # the director sees every decision
    api.force_authenticate(None)
    public = api.get(f"/api/play/divisions/{tied.pk}/prizes/").json()
    assert public["decisions"] == [] and public["awards"][1]["decision_reason"] == "Higher cumulative score"


def test_the_prize_fund_divided_by_fees_is_shown(api):
    event = EventFactory(prize_fund=Decimal(100), prize_fund_by_fees=True)
    divisions = [Division.objects.create(event=event, name=name, position=i) for i, name in enumerate("AB")]
    category = CategoryFactory(event=event)
    for division, fees in zip(divisions, ([30, 30], [40]), strict=True):
        for number, fee in enumerate(fees, start=1):
            entry = EntryFactory(category=category, event=event, player=PlayerFactory(), amount_paid=Decimal(fee))
            DivisionPlayer.objects.create(division=division, player=entry.player, number=number, entry=entry)
    fund = api.get(f"/api/play/divisions/{divisions[0].pk}/prizes/").json()["fund"]
    assert (fund["fund"], fund["paid"], fund["problem"]) == ("100.00", "100.00", "")
    assert [(s["division"], s["players"], s["amount"]) for s in fund["shares"]] == [
        ("Division A", 2, "60.00"),
        ("Division B", 1, "40.00"),
    ]


# Live ratings -------------------------------------------------------------------------------------------


@pytest.fixture
def rated_division(director):
    rating_list = RatingListFactory(name="National ratings")
    today = timezone.localdate()
    event = EventFactory(
        status=EventStatus.IN_PROGRESS,
        number_of_games=3,
        rated=True,
        rating_list=rating_list,
        starts_on=today,
        ends_on=today,
        registration_opens_at=timezone.now() - timedelta(days=5),
        registration_closes_at=timezone.now() - timedelta(days=1),
    )
    event.directors.add(director)
    division = Division.objects.create(event=event, name="A")
    for i, rating in enumerate([1700, 1600, 1500, 0], start=1):
        player = PlayerFactory(full_name=f"Player {i:02d}", user=UserFactory())
        if rating:
            seed(rating_list, player, rating, games=120)
        DivisionPlayer.objects.create(division=division, player=player, number=i, rating=rating)
    return division


def test_live_ratings_move_as_results_are_confirmed_and_are_public(api, director, rated_division):
    division = rated_division
    url = f"/api/play/divisions/{division.pk}/live-ratings/"
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    me = DivisionPlayer.objects.get(division=division, number=1).player
    game = rnd.games.get(Q(player_a=me) | Q(player_b=me))
    play.submit_result(director, game, *((380, 450) if game.player_a_id == me.pk else (450, 380)))

    for user in (None, me.user, director):
        api.force_authenticate(user)
        response = api.get(url)
        assert response.status_code == 200
        rows = {r["name"]: r for r in response.json()}
        assert [r["number"] for r in response.json()] == [1, 2, 3, 4]
        mine = rows["Player 01"]
        assert mine["player"] == me.pk and mine["pre_event"] == 1700 and mine["games"] == 1
        assert mine["rating"] < 1700 and mine["change"] == mine["rating"] - 1700
        assert (rows["Player 03"]["pre_event"], rows["Player 03"]["change"]) == (1500, None)  # not played yet


def test_no_live_ratings_for_an_unrated_event_or_a_final_division(api, director, rated_division, make_division):
    assert api.get(f"/api/play/divisions/{make_division(4).pk}/live-ratings/").json() == []
    Division.objects.filter(pk=rated_division.pk).update(finalised_at=timezone.now())
    assert api.get(f"/api/play/divisions/{rated_division.pk}/live-ratings/").json() == []
    hidden = Division.objects.create(event=EventFactory(status=EventStatus.DRAFT), name="B")
    assert api.get(f"/api/play/divisions/{hidden.pk}/live-ratings/").status_code == 404
