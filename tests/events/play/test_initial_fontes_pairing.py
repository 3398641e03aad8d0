"""Initial Fontes from the pair-round page and the API: tsh's random or snaked groups, one block, one seed."""

import pytest
from rest_framework.test import APIClient

from events.play import services as play
from events.play.core.pairing.fontes import fontes_round
from events.play.models import DivisionPlayer, GameKind
from tests.events.play.test_views_play import page, play_round, url

pytestmark = pytest.mark.django_db


def pairs_by_seat(rnd) -> set[frozenset[int]]:
    number = dict(DivisionPlayer.objects.filter(division=rnd.division).values_list("player_id", "number"))
    games = rnd.games.filter(kind=GameKind.NORMAL)
    return {frozenset((number[g.player_a_id], number[g.player_b_id])) for g in games}


def test_the_page_pairs_snaked_groups_round_by_round(client, director, make_division):
    # Seats 1-8 rated 1990 down to 1920: snaked groups [2,3,6,7] and [1,4,5,8], each playing 1v4 2v3, then
    # 1v3 2v4 by position in the group.
    division = make_division(8, games=7)
    client.force_login(director)
    html = page(client.get(url("play_division", division)))
    assert "Initial Fontes groups snaked through the rating bands" in html
    assert "Initial Fontes groups: random (tsh" in html and "initial_snaked" in html
    form = {"system": "initial_fontes", "initial_snaked": "on", "max_repeats": 0, "avoid_repeats": "on"}
    assert client.post(url("play_pair", division), form).status_code == 302
    first = division.rounds.get(number=1)
    assert pairs_by_seat(first) == {frozenset(p) for p in [(1, 8), (2, 7), (3, 6), (4, 5)]}
    play.publish_round(director, first)
    play_round(director, first)
    assert client.post(url("play_pair", division), form).status_code == 302
    second = division.rounds.get(number=2)
    assert pairs_by_seat(second) == {frozenset(p) for p in [(2, 6), (3, 7), (1, 5), (4, 8)]}
    assert second.pairing_notes == ""


def test_a_later_round_of_the_block_takes_the_first_round_s_seed(director, make_division):
    division = make_division(12, games=7)
    first = play.pair_round(director, division, "initial_fontes")
    play.publish_round(director, first)
    play_round(director, first)
    second = play.pair_round(director, division, "initial_fontes")
    assert second.pairing_seed == first.pairing_seed
    seats = list(range(1, 13))  # seat numbers are in rating order here
    expected, _ = fontes_round(seats, 3, 1, seed=first.pairing_seed)
    assert pairs_by_seat(second) == {frozenset(p) for p in expected}
    assert second.pairing_notes == ""


def test_a_round_paired_from_other_groups_is_noted(director, make_division):
    division = make_division(12, games=7)
    first = play.pair_round(director, division, "initial_fontes", seed=11)
    play.publish_round(director, first)
    play_round(director, first)
    # Another seed draws other random groups (the block's way of forming them, random, is kept whatever the form says).
    second = play.pair_round(director, division, "initial_fontes", seed=12, initial_snaked=True)
    assert not second.initial_snaked
    assert "Round 1 was not paired from these initial Fontes groups" in second.pairing_notes


def test_the_api_takes_the_setting(director, make_division):
    division = make_division(7, games=7)
    api = APIClient()
    api.force_authenticate(director)
    created = api.post(
        f"/api/play/divisions/{division.pk}/pair/",
        {"system": "initial_fontes", "initial_snaked": True},
        format="json",
    )
    assert created.status_code == 201, created.json()
    rnd = division.rounds.get(number=1)
    # Seven players snaked: [2,3,6,7] and the top seed's group of three [1,4,5], 1v5 with 4 sitting out.
    assert pairs_by_seat(rnd) == {frozenset(p) for p in [(2, 7), (3, 6), (1, 5)]}
    number = dict(DivisionPlayer.objects.filter(division=division).values_list("player_id", "number"))
    assert [number[g.player_a_id] for g in rnd.games.filter(kind=GameKind.BYE)] == [4]
