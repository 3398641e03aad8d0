"""The pair-round page and the API pair by the same rules: a seed within one bound, Gibsonization judged against
every prize place of the prize table, players who have not checked in never paired unseen, a swap that makes a
rematch said, and the Gibson note shown once."""

import re

import pytest
from rest_framework.test import APIClient

from events.models import Entry, EntryStatus
from events.play import services as play
from events.play.core.pairing import MAX_SEED, SEED_REFUSAL
from events.play.models import CheckIn, DivisionPlayer, GameKind
from events.play.services import checkin
from tests.events.factories import CategoryFactory, EntryFactory, PrizeFactory
from tests.events.play.test_pairing_pages import pair_and_play
from tests.events.play.test_views_play import page, play_round, url

pytestmark = pytest.mark.django_db

PAIR = {"system": "koth", "max_repeats": 0, "avoid_repeats": "on"}


@pytest.mark.parametrize("seed", ["99999999999999999999999", str(MAX_SEED + 1), "-1"])
def test_a_seed_out_of_range_is_refused_on_the_page_as_by_the_api(client, director, make_division, seed):
    division = make_division(4)
    client.force_login(director)
    html = page(client.post(url("play_pair", division), {**PAIR, "seed": seed}))
    # In a director's words, not a validator's: no bare 2**63 - 1 (issue 23, defect N8).
    assert "A seed is a whole number from 0 to 9,223,372,036,854,775,807 (any number of up to 18 digits" in html
    assert "Ensure this value" not in html
    assert not division.rounds.exists()
    api = APIClient()
    api.force_authenticate(director)
    response = api.post(f"/api/play/divisions/{division.pk}/pair/", {"system": "koth", "seed": seed}, format="json")
    assert response.status_code == 400 and response.json()["seed"] == [SEED_REFUSAL]
    # The largest seed is taken by both doors, and recorded.
    assert client.post(url("play_pair", division), {**PAIR, "seed": MAX_SEED}).status_code == 302
    assert division.rounds.get().pairing_seed == MAX_SEED


def test_the_service_bounds_the_seed_for_every_caller(director, make_division):
    division = make_division(4)
    with pytest.raises(play.PlayError, match="A seed is a whole number from 0") as refused:
        play.pair_round(director, division, "koth", seed=MAX_SEED + 1)
    assert refused.value.field == "seed"


def test_gibson_contention_is_judged_against_every_prize_place(client, director, make_division):
    """Prizes to the top 10 of 8 players: after four rounds of five the 4–0 leader is Gibsonized. The player
    third (2–2, +0) can still finish second (3–1, −270): they are in contention, and so is everyone whose
    prize can still change. The leader plays the lowest-placed player, as when nobody is out of contention."""
    division = make_division(8, games=5)
    PrizeFactory(category=CategoryFactory(event=division.event, name="Open"), rank_from=1, rank_to=10)
    pair_and_play(director, division, "koth", 4)
    table = play.standings(division)
    third = table[2].seat
    assert (table[0].wins, table[1].wins, table[1].spread, table[2].wins, table[2].spread) == (4, 3, -270, 2, 0)
    client.force_login(director)

    html = page(client.post(url("play_pair", division), {**PAIR, "gibson": "on"}, follow=True))

    note = division.rounds.get(number=5).pairing_notes
    assert note.startswith("#1 Player 01 is Gibsonized")
    assert f"#{third.number} {third.player.name}, who is out of prize contention" not in note
    assert "Everyone else is still in prize contention" in note and "#8 Player 08" in note
    leader, last = table[0].seat.player_id, table[-1].seat.player_id
    games = division.rounds.get(number=5).games.filter(kind=GameKind.NORMAL)
    assert any({g.player_a_id, g.player_b_id} == {leader, last} for g in games)
    assert html.count("is Gibsonized") == 1  # issue 40: the note once, not again as a message


def checked_in_division(director, make_division, here=(1, 2)):
    division = make_division(4)
    category = CategoryFactory(event=division.event, name="Open")
    for seat in DivisionPlayer.objects.filter(division=division):
        seat.entry = EntryFactory(event=division.event, category=category, player=seat.player)
        seat.save()
    for seat in DivisionPlayer.objects.filter(division=division, number__in=here).select_related("entry"):
        checkin.check_in(director, seat.entry)
    return division


def test_players_who_have_not_checked_in_are_named_before_pairing_and_not_paired_unseen(
    client, director, make_division
):
    division = checked_in_division(director, make_division)
    client.force_login(director)

    html = page(client.get(url("play_division", division)))
    warning = re.search(r'id="not-checked-in">(.*?)</div>', html, re.S).group(1)
    assert "2 players have not checked in" in warning and "#3 Player 03" in warning and "#4 Player 04" in warning

    html = page(client.post(url("play_pair", division), PAIR))  # the page's default: refuse
    assert "2 players have not checked in: #3 Player 03, #4 Player 04" in html
    assert not division.rounds.exists()

    response = client.post(url("play_pair", division), {**PAIR, "not_checked_in": "exclude"})
    assert response.status_code == 302
    rnd = division.rounds.get()
    paired = {p for g in rnd.games.filter(kind=GameKind.NORMAL) for p in (g.player_a_id, g.player_b_id)}
    absent = set(
        DivisionPlayer.objects.filter(division=division, number__in=[3, 4]).values_list("player_id", flat=True)
    )
    assert len(paired) == 2 and not paired & absent
    assert set(rnd.games.filter(kind=GameKind.FORFEIT).values_list("player_a_id", flat=True)) == absent


def test_without_check_in_nobody_is_warned_about(client, director, make_division):
    division = make_division(4)
    client.force_login(director)
    html = page(client.get(url("play_division", division)))
    assert 'id="not-checked-in"' not in html and "not_checked_in" not in html
    assert not CheckIn.objects.exists() and not Entry.objects.filter(status=EntryStatus.CONFIRMED).exists()


def test_a_swap_that_makes_a_rematch_warns_on_the_page_and_in_the_api(client, director, make_division):
    division = make_division(4)
    rnd = play.pair_round(director, division, "koth", seed=1)
    play.publish_round(director, rnd)
    play_round(director, rnd)
    first = rnd.games.filter(kind=GameKind.NORMAL).order_by("board").first()
    nxt = play.pair_round(director, division, "koth", seed=1)
    # Put round 1's first pair together again: swap one of them with the other's opponent in round 2.
    partner = next(
        g.player_b_id if g.player_a_id == first.player_a_id else g.player_a_id
        for g in nxt.games.filter(kind=GameKind.NORMAL)
        if first.player_a_id in (g.player_a_id, g.player_b_id)
    )
    client.force_login(director)
    data = {"player_x": partner, "player_y": first.player_b_id}
    html = page(client.post(url("play_swap", division, nxt.number), data, follow=True))
    assert "is a rematch: they have met once before" in html

    api = APIClient()
    api.force_authenticate(director)
    again = api.post(f"/api/play/rounds/{nxt.pk}/swap/", data, format="json").json()  # swapped back: no rematch
    assert again["warnings"] == []
    once_more = api.post(f"/api/play/rounds/{nxt.pk}/swap/", data, format="json").json()
    assert once_more["warnings"] and all("is a rematch" in w for w in once_more["warnings"])


def test_a_withdrawn_player_cannot_be_swapped_into_a_draft(director, make_division):
    division = make_division(5)
    rnd = play.pair_round(director, division, "koth", seed=1)
    play.publish_round(director, rnd)
    play_round(director, rnd)
    seat = DivisionPlayer.objects.select_related("player").get(division=division, number=5)
    play.withdraw_player(director, seat)
    nxt = play.pair_round(director, division, "koth", seed=1)
    someone = nxt.games.filter(kind=GameKind.NORMAL).first().player_a_id
    with pytest.raises(play.PlayError, match="#5 Player 05 is not in this round"):
        play.swap_players(director, nxt, seat.player_id, someone)


def test_withdrawing_while_a_draft_waits_is_refused(director, make_division):
    division = make_division(4)
    play.pair_round(director, division, "koth", seed=1)
    seat = DivisionPlayer.objects.get(division=division, number=2)
    with pytest.raises(play.PlayError, match="Round 1 is a draft that pairs every player"):
        play.withdraw_player(director, seat)
