"""The day at the venue: check-in at reporting time (seed 004), wall displays, printed round material and the
lucky draw for non-prize-winners."""

import re
from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse
from django.utils.html import escape

from clubsite.kit.errors import NotAllowed
from events.models import EntryStatus, Prize
from events.play import services as play
from events.play.core import draw as pure_draw
from events.play.models import CheckIn, LuckyDraw
from events.play.services import checkin, luckydraw, printing
from players.models import Player
from tests.events.factories import CategoryFactory
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SGT = ZoneInfo("Asia/Singapore")
DAY = date(2015, 9, 6)
BEFORE_CLOSE = datetime(2015, 9, 6, 9, 10, tzinfo=SGT)
IN_GRACE = datetime(2015, 9, 6, 9, 20, tzinfo=SGT)
AFTER_GRACE = datetime(2015, 9, 6, 9, 26, tzinfo=SGT)


# The pure draw ------------------------------------------------------------------------------------------


def test_a_draw_follows_from_its_seed_and_candidates_alone():
    first = pure_draw.draw(42, [5, 9, 2, 7, 11], 2)
    assert first == pure_draw.draw(42, [5, 9, 2, 7, 11], 2)
    assert len(first.winners) == 2 and set(first.winners) <= {5, 9, 2, 7, 11}
    assert pure_draw.check(42, [5, 9, 2, 7, 11], 2, first.winners)
    assert not pure_draw.check(42, [5, 9, 2, 7, 11], 2, tuple(reversed(first.winners)))
    # Some other seed picks other winners (the draw is not a fixed order).
    assert any(pure_draw.draw(s, [5, 9, 2, 7, 11], 2).winners != first.winners for s in range(1, 20))


def test_a_draw_is_stable_across_runs_and_versions():
    # Pinned: SHA-256 tickets depend on nothing but the seed and the list.
    assert pure_draw.draw(2015, [1, 2, 3, 4, 5, 6], 3).winners == tuple(
        c for _, c in sorted((pure_draw.ticket(2015, i, c), c) for i, c in enumerate([1, 2, 3, 4, 5, 6], 1))[:3]
    )


def test_a_draw_refuses_duplicates_and_draws_everyone_when_few():
    with pytest.raises(ValueError):
        pure_draw.draw(1, [1, 1, 2], 1)
    with pytest.raises(ValueError):
        pure_draw.draw(1, [1, 2], 0)
    assert sorted(pure_draw.draw(1, [3, 4], 5).winners) == [3, 4]


# Check-in -----------------------------------------------------------------------------------------------


def test_a_director_checks_players_in_and_sees_who_is_missing(venue):
    event, director, division, entrants, waiting = venue
    with time_machine.travel(BEFORE_CLOSE, tick=False):
        checkin.check_in(director, entrants[0])
        checkin.check_in(director, entrants[0])  # a second tap changes nothing
        checkin.check_in(director, waiting[1])
    report = checkin.check_in_list(event)
    assert [r.entry.player.full_name for r in report.present] == ["Anna Tan"]
    assert [r.entry.player.full_name for r in report.missing] == ["Bala Kumar", "Chen Wei", "Dewi Lim"]
    assert [r.entry.player.full_name for r in report.waiting_present] == ["Farah Ismail"]
    assert report.places_left == 0
    checkin.undo_check_in(director, entrants[0])
    assert not CheckIn.objects.filter(entry=entrants[0]).exists()


def test_nobody_else_ticks_people_off_and_a_player_needs_the_venue_code_on_the_day(venue):
    event, director, division, entrants, waiting = venue
    stranger = UserFactory()
    with pytest.raises(NotAllowed):
        checkin.check_in(stranger, entrants[0])
    user = UserFactory()
    entrants[1].player.user = user
    entrants[1].player.save()
    with time_machine.travel(BEFORE_CLOSE, tick=False):
        with pytest.raises(play.PlayError, match="not the code"):
            checkin.check_in(user, entrants[1], code="WRONG1")
        made = checkin.check_in(user, entrants[1], code=checkin.venue_code(event).lower())
    assert made.by_self
    with time_machine.travel(datetime(2015, 9, 5, 9, 5, tzinfo=SGT), tick=False):
        CheckIn.objects.all().delete()
        with pytest.raises(play.PlayError, match="on the day"):
            checkin.check_in(user, entrants[1], code=checkin.venue_code(event))
    with time_machine.travel(AFTER_GRACE, tick=False):
        with pytest.raises(play.PlayError, match="Reporting has closed"):
            checkin.check_in(user, entrants[1], code=checkin.venue_code(event))


def test_missing_players_keep_their_places_until_ten_minutes_after_reporting_closes(venue):
    event, director, division, entrants, waiting = venue
    missing = [e.pk for e in entrants[2:]]
    with time_machine.travel(IN_GRACE, tick=False):
        with pytest.raises(play.PlayError, match="until 09:25"):
            checkin.withdraw_no_shows(director, event, missing)
    with time_machine.travel(AFTER_GRACE, tick=False):
        gone = checkin.withdraw_no_shows(director, event, missing)
    assert {e.player.full_name for e in gone} == {"Chen Wei", "Dewi Lim"}
    for entry in entrants[2:]:
        entry.refresh_from_db()
        assert entry.status == EntryStatus.WITHDRAWN and entry.ended_at == AFTER_GRACE
    assert sorted(division.seats.values_list("player__full_name", flat=True)) == ["Anna Tan", "Bala Kumar"]
    assert checkin.check_in_list(event).places_left == 2


def test_a_player_who_arrives_meanwhile_is_not_withdrawn(venue):
    event, director, division, entrants, waiting = venue
    seen_missing = [e.pk for e in entrants[2:]]
    with time_machine.travel(AFTER_GRACE, tick=False):
        checkin.check_in(director, entrants[3])
        with pytest.raises(play.PlayError, match="Dewi Lim checked in meanwhile"):
            checkin.withdraw_no_shows(director, event, seen_missing)
    assert division.seats.count() == 4


def test_no_shows_are_withdrawn_only_before_round_1_is_paired(venue):
    event, director, division, entrants, waiting = venue
    play.pair_round(director, division, "random", seed=1)
    with time_machine.travel(AFTER_GRACE, tick=False):
        report = checkin.check_in_list(event)
        assert report.withdrawable == []
        with pytest.raises(play.PlayError, match="already paired"):
            checkin.withdraw_no_shows(director, event, [entrants[3].pk])
    entrants[3].refresh_from_db()
    assert entrants[3].status == EntryStatus.CONFIRMED


def test_free_places_go_to_present_waiting_list_people_in_order(venue):
    event, director, division, entrants, waiting = venue
    with time_machine.travel(AFTER_GRACE, tick=False):
        with pytest.raises(play.PlayError, match="Check Farah Ismail in first"):
            checkin.seat_from_waiting_list(director, waiting[1])
        checkin.check_in(director, waiting[1])
        with pytest.raises(play.PlayError, match="no free place"):
            checkin.seat_from_waiting_list(director, waiting[1])
        checkin.withdraw_no_shows(director, event, [entrants[3].pk])
        checkin.check_in(director, waiting[0])
        with pytest.raises(play.PlayError, match="Eddie Goh is here and ahead"):
            checkin.seat_from_waiting_list(director, waiting[1])
        seated = checkin.fill_places(director, event)
    assert [p.entry.player.full_name for p in seated] == ["Eddie Goh"]  # one place was free
    seat = seated[0].seat
    assert seat.division == division and seat.number == 4  # the next number after the seats left
    waiting[0].refresh_from_db()
    assert waiting[0].status == EntryStatus.CONFIRMED and waiting[0].division == division
    waiting[1].refresh_from_db()
    assert waiting[1].status == EntryStatus.WAITLISTED
    # Round 1 pairs the players who are here (once check-in is in use, everyone paired has checked in).
    with time_machine.travel(AFTER_GRACE, tick=False):
        for entry in entrants[:3]:
            checkin.check_in(director, entry)
    rnd = play.pair_round(director, division, "random", seed=3)
    paired = {p for g in rnd.games.all() for p in (g.player_a_id, g.player_b_id)}
    assert waiting[0].player_id in paired and entrants[3].player_id not in paired


def test_a_waiting_list_place_with_a_fee_due_is_held_pending_payment(venue):
    event, director, division, entrants, waiting = venue
    waiting[0].amount_due = Decimal("3.00")
    waiting[0].save()
    with time_machine.travel(AFTER_GRACE, tick=False):
        checkin.withdraw_no_shows(director, event, [entrants[3].pk])
        checkin.check_in(director, waiting[0])
        checkin.seat_from_waiting_list(director, waiting[0])
    waiting[0].refresh_from_db()
    assert waiting[0].status == EntryStatus.PENDING_PAYMENT


def test_the_check_in_page_on_a_phone(client, venue):
    event, director, division, entrants, waiting = venue
    client.force_login(director)
    url = reverse("events:play_check_in", args=[event.slug])
    with time_machine.travel(AFTER_GRACE, tick=False):
        client.post(reverse("events:play_check_in_mark", args=[event.slug, entrants[0].pk]))
        page = client.get(url).content.decode()
        assert "1 of 4 here" in page and "Withdraw 3 missing players" in page
        assert checkin.venue_code(event) in page
        # Without the "called their names" tick nothing happens.
        ids = {"entry": [e.pk for e in entrants[1:]]}
        client.post(reverse("events:play_withdraw_no_shows", args=[event.slug]), ids)
        assert division.seats.count() == 4
        client.post(reverse("events:play_withdraw_no_shows", args=[event.slug]), {**ids, "called": "1"})
        assert division.seats.count() == 1
    assert_no_inline_js(page)
    assert client.get(url + "?q=anna").content.decode().count("list-group-item d-flex") == 1 + 2
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    # Signed out, a director is asked to sign in (as on the other directors' pages), not refused.
    client.logout()
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))


# Wall displays ------------------------------------------------------------------------------------------


def assert_no_inline_js(html: str) -> None:
    assert not re.search(r"\son[a-z]+\s*=", html), "inline event handler"
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline script"


def test_walls_show_published_rounds_only_and_need_no_login(client, make_division, director):
    division = make_division(6)
    event = division.event
    for kind in ("pairings", "standings", "find"):
        page = client.get(reverse("events:play_wall", args=[event.slug, division.pk, kind]))
        assert page.status_code == 200 and "once round 1 is published" in page.content.decode()
    rnd = play.pair_round(director, division, "random", seed=7)
    page = client.get(reverse("events:play_wall", args=[event.slug, division.pk, "pairings"])).content.decode()
    assert "Round 1" not in page  # a draft never shows, not even its players' boards
    play.publish_round(director, rnd)
    page = client.get(reverse("events:play_wall", args=[event.slug, division.pk, "pairings"])).content.decode()
    assert "Round 1" in page and "Player 01" in page
    assert_no_inline_js(page)
    find = client.get(reverse("events:play_wall", args=[event.slug, division.pk, "find"])).content.decode()
    names = re.findall(r"<tr>\s*<td>(Player \d\d)</td>", find)
    assert names == sorted(names) and len(names) == 6
    # A page of names splits evenly into its two columns.
    columns = re.findall(r'<table class="wall-find">.*?</table>', find, re.S)
    assert [len(re.findall(r"<tr>\s*<td>Player \d\d</td>", c)) for c in columns] == [3, 3]
    assert client.get(reverse("events:play_wall", args=[event.slug, division.pk, "nope"])).status_code == 404


def test_the_wall_version_changes_with_results_and_pages_split(client, make_division, director):
    division = make_division(8)
    event = division.event
    rnd = play.pair_round(director, division, "random", seed=7)
    url = reverse("events:play_wall_version", args=[event.slug, division.pk])
    before = client.get(url).json()["version"]
    play.publish_round(director, rnd)
    published = client.get(url).json()["version"]
    assert published != before
    game = rnd.games.filter(player_b__isnull=False).first()
    play.submit_result(director, game, 400, 350)
    assert client.get(url).json()["version"] != published
    assert client.get(url).json()["version"] == client.get(url).json()["version"]  # nothing changed
    page = client.get(
        reverse("events:play_wall", args=[event.slug, division.pk, "standings"]) + "?rows=4"
    ).content.decode()
    assert page.count('class="wall-page"') == 2 and 'data-turn="12"' in page


# Printed round material ---------------------------------------------------------------------------------


def test_round_2_scorecards_carry_each_players_record_and_who_goes_first(client, make_division, director):
    division = make_division(4)
    event = division.event
    r1 = play.pair_round(director, division, "random", seed=5)
    play.publish_round(director, r1)
    for game in r1.games.filter(player_b__isnull=False):
        play.submit_result(director, game, 400, 300)
    r2 = play.pair_round(director, division, "koth")
    sheets = printing.round_sheets(division, r2)
    assert len(sheets) == 2
    for sheet in sheets:
        assert sheet.first.goes_first is True and sheet.second.goes_first is False
    records = sorted(str(s.record) for sheet in sheets for s in (sheet.first, sheet.second))
    assert records == ["0–1, -100", "0–1, -100", "1–0, +100", "1–0, +100"]
    client.force_login(director)
    page = client.get(reverse("events:play_print", args=[event.slug, division.pk, 2, "scorecards"])).content.decode()
    assert page.count('class="scorecard-print"') == 4 and "goes first" in page and "1–0, +100" in page
    assert_no_inline_js(page)
    door = client.get(reverse("events:play_print", args=[event.slug, division.pk, 2, "pairings"])).content.decode()
    names = re.findall(r"<tr><td>(Player \d\d)</td>", door)
    assert names == sorted(names) and len(names) == 4
    slips = client.get(reverse("events:play_print", args=[event.slug, division.pk, 2, "slips"])).content.decode()
    assert slips.count('class="slip"') == 2
    # The draft is the director's: the public sees no printout of it.
    client.logout()
    assert client.get(reverse("events:play_print", args=[event.slug, division.pk, 2, "scorecards"])).status_code == 404
    assert client.get(reverse("events:play_print_latest", args=[event.slug, division.pk])).status_code == 302


# Lucky draw ---------------------------------------------------------------------------------------------


def test_wall_standings_and_printed_cards_escape_names_and_set_a_withdrawn_player_apart(
    client, make_division, director
):
    division = make_division(4)
    event = division.event
    seat = division.seats.get(number=1)
    Player.objects.filter(pk=seat.player_id).update(full_name="Ann <b>Bold</b> & Co")
    r1 = play.pair_round(director, division, "random", seed=5)
    play.publish_round(director, r1)
    for game in r1.games.filter(player_b__isnull=False):
        play.submit_result(director, game, 400, 300)
    play.withdraw_player(director, division.seats.get(number=2))
    r2 = play.pair_round(director, division, "koth")
    play.publish_round(director, r2)
    wall = client.get(reverse("events:play_wall", args=[event.slug, division.pk, "standings"])).content.decode()
    rows = re.findall(r"<tr>\s*<td class=\"num rank\">(.*?)</td>\s*<td>(.*?)</td>", wall)
    assert len(rows) == 4
    assert ("–", 'Player 02 <span class="small">(withdrawn)</span>') in rows
    assert "Ann &lt;b&gt;Bold&lt;/b&gt; &amp; Co" in wall and "<b>Bold</b>" not in wall
    client.force_login(director)
    cards = client.get(reverse("events:play_print", args=[event.slug, division.pk, 2, "scorecards"])).content.decode()
    assert cards.count('class="scorecard-print"') == 2
    assert 'aria-label="Scorecard of Ann &lt;b&gt;Bold&lt;/b&gt; &amp; Co"' in cards and "<b>Bold</b>" not in cards
    # Who starts is the round's (a draw between these two, seeded by their ids): each card says it as the board has it.
    game = r2.games.get(player_b__isnull=False)
    starter, other = (game.player_a, game.player_b) if game.first == "a" else (game.player_b, game.player_a)
    assert re.search(rf"{re.escape(escape(starter.name))}</strong> \([^)]*\) · <strong>goes first</strong>", cards)
    assert re.search(rf"{re.escape(escape(other.name))}</strong> \([^)]*\) · goes second", cards)


def test_the_lucky_draw_leaves_out_prize_winners_and_can_be_checked(client, make_division, director):
    division = make_division(6)
    event = division.event
    category = CategoryFactory(event=event, name="A")
    division.category = category
    division.save()
    Prize.objects.create(category=category, rank_from=1, rank_to=2, description="Trophy")
    rnd = play.pair_round(director, division, "random", seed=2)
    play.publish_round(director, rnd)
    for i, game in enumerate(rnd.games.filter(player_b__isnull=False)):
        play.submit_result(director, game, 410 + 10 * i, 300)
    winners = {s.player_id for award in play.prizes.division_prizes(division).awards for s in award.seats}
    assert len(winners) == 2
    pool = luckydraw.eligible(division)
    assert len(pool.candidates) == 4 and not winners & set(pool.candidates)
    draw = luckydraw.run_lucky_draw(director, division, 2, note="Lucky draw prize")
    assert len(draw.winners) == 2 and set(draw.winners) <= set(pool.candidates)
    assert luckydraw.check_lucky_draw(draw)
    assert list(pure_draw.draw(draw.seed, draw.candidates, 2).winners) == draw.winners
    # A second draw leaves out the first draw's winners too.
    second = luckydraw.run_lucky_draw(director, division, 5, seed=99)
    assert sorted(second.winners) == sorted(set(pool.candidates) - set(draw.winners))
    with pytest.raises(play.PlayError, match="Nobody is left"):
        luckydraw.run_lucky_draw(director, division, 1)
    tampered = LuckyDraw.objects.get(pk=draw.pk)
    tampered.winners = list(reversed(tampered.winners))
    assert not luckydraw.check_lucky_draw(tampered)
    page = client.get(reverse("events:play_lucky_draw", args=[event.slug, division.pk])).content.decode()
    assert str(draw.seed) in page and "checked: the seed and list give these winners" in page
    assert "Draw winners" not in page  # only directors draw
    assert_no_inline_js(page)
    with pytest.raises(NotAllowed):
        luckydraw.run_lucky_draw(UserFactory(), division, 1)


def test_a_director_draws_on_the_page(client, make_division, director):
    division = make_division(4)
    rnd = play.pair_round(director, division, "random", seed=2)
    play.publish_round(director, rnd)
    client.force_login(director)
    url = reverse("events:play_lucky_draw", args=[division.event.slug, division.pk])
    response = client.post(url, {"draw-winners": "1", "draw-note": "Voucher"})
    assert response.status_code == 302
    assert LuckyDraw.objects.get().note == "Voucher"  # players of a published round are in the draw


def test_a_player_checks_in_on_their_phone_with_the_venue_code(client, venue):
    event, director, division, entrants, waiting = venue
    user = UserFactory()
    entrants[2].player.user = user
    entrants[2].player.save()
    client.force_login(user)
    url = reverse("events:play_my_check_in", args=[event.slug])
    with time_machine.travel(BEFORE_CLOSE, tick=False):
        page = client.post(url, {"code": "NOPE00"}).content.decode()
        assert "That is not the code shown at the venue." in page and 'for="id_code"' in page
        assert client.post(url, {"code": checkin.venue_code(event)}).status_code == 302
        page = client.get(url).content.decode()
    assert "you checked in at 09:10" in page
    assert_no_inline_js(page)
    assert CheckIn.objects.get(entry=entrants[2]).by_self
