"""Chew pairings (tsh cp) are offered and taken by every door: the pair-round page, the API, the service and the
event's choice of pairing system."""

import pytest
from rest_framework.test import APIClient

from events.models import PairingSystem
from events.play import services as play
from events.play.core import pairing
from tests.events.factories import CategoryFactory, PrizeFactory
from tests.events.play.test_views_play import page, url

pytestmark = pytest.mark.django_db


def test_the_page_offers_and_takes_chew_pairings(client, director, make_division):
    division = make_division(6)
    client.force_login(director)
    assert "Chew pairings (tsh cp)" in page(client.get(url("play_division", division)))
    assert client.post(url("play_pair", division), {"system": "chew", "max_repeats": 0}).status_code == 302
    rnd = division.rounds.get()
    assert rnd.pairing_system == "chew" and rnd.games.count() == 3


def test_the_api_takes_chew_pairings(director, make_division):
    division = make_division(5)
    api = APIClient()
    api.force_authenticate(director)
    response = api.post(f"/api/play/divisions/{division.pk}/pair/", {"system": "chew"}, format="json")
    assert response.status_code in (200, 201), response.content
    assert division.rounds.get().pairing_system == "chew"


def test_the_service_needs_the_number_of_rounds_for_chew_pairings(director, make_division):
    division = make_division(4, games=0)
    with pytest.raises(play.PlayError, match="number of rounds"):
        play.pair_round(director, division, "chew")


def test_an_event_may_name_chew_pairings_as_its_system():
    assert ("chew", "Chew pairings (tsh cp)") in PairingSystem.choices


def test_chew_pairings_contend_for_the_places_of_the_prize_table(director, make_division, monkeypatch):
    # Prizes for 1st, 2nd, and 3rd to 5th: tsh's prize bands 1, 2, 5 (the last place of each prize).
    division = make_division(8)
    category = CategoryFactory(event=division.event, name="Open")
    for first, last in [(1, 1), (2, 2), (3, 5)]:
        PrizeFactory(category=category, rank_from=first, rank_to=last)
    seen = []
    real = pairing.pair_round

    def spy(system, players, history, options):
        seen.append(options.prize_bands)
        return real(system, players, history, options)

    monkeypatch.setattr(pairing, "pair_round", spy)
    play.pair_round(director, division, "chew")
    assert seen == [(1, 2, 5)]
    # Other systems do not read bands; without a prize table Chew pairings take tsh's default.
    other = make_division(8)
    play.pair_round(director, other, "chew")
    assert seen[-1] is None


def test_the_round_notes_whom_chew_pairings_gibsonized(director, make_division):
    from tests.events.play.test_pairing_pages import pair_and_play

    # Six players, four rounds; the lower seat wins, seat 1 by 300. After three rounds of King of the Hill seat 1
    # is 3-0 (+900), seats 2 and 3 are 2-1 (-280): beating seat 1 by 500 in the last round leaves
    # them 3 wins and +220 against seat 1's +400, so nobody can pass seat 1, whom Chew pairings Gibsonize.
    division = make_division(6, games=4)
    pair_and_play(director, division, "koth", 3)
    rnd = play.pair_round(director, division, "chew")
    assert rnd.pairing_notes.startswith(
        "Chew pairings (tsh cp) Gibsonized players nobody can pass any more: #1 Player 01 plays #"
    )
