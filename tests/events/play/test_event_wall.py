"""The event-wide wall (issue 23, defect 43): every division's current round on one screen, and one "find my
table" across divisions, for a hall that has several divisions and one 1080p screen."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events.models import EventStatus
from events.play import services as play
from events.play.models import Division, DivisionPlayer, GameKind
from tests.events.factories import EventFactory
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def hall(director, divisions=2, players=4):
    event = EventFactory(status=EventStatus.IN_PROGRESS, number_of_games=3, rated=False)
    event.directors.add(director)
    made = []
    for d in range(divisions):
        division = Division.objects.create(event=event, name=chr(ord("A") + d), position=d)
        for i in range(1, players + 1):
            player = PlayerFactory(full_name=f"{division.name} Player {i}")
            DivisionPlayer.objects.create(division=division, player=player, number=i, rating=2000 - 10 * i)
        rnd = play.pair_round(director, division, "koth", seed=1)
        play.publish_round(director, rnd)
        made.append((division, rnd))
    return event, made


def get(client, event, kind, **query):
    response = client.get(reverse("events:play_event_wall", args=[event.slug, kind]), query)
    assert response.status_code == 200
    return response.content.decode()


def test_every_divisions_round_shows_on_one_screen(client, director):
    event, made = hall(director)
    (a, _), (b, round_b) = made
    game = round_b.games.filter(kind=GameKind.NORMAL).first()
    play.submit_result(director, game, 432, 321)
    html = get(client, event, "pairings")
    assert "A · Round 1" in html and "B · Round 1" in html
    for n in range(1, 5):
        assert f"A Player {n}" in html and f"B Player {n}" in html
    assert "432" in html  # a confirmed result
    assert "Every division" in html
    # The division's own wall leads here.
    own = client.get(reverse("events:play_wall", args=[event.slug, a.pk, "pairings"])).content.decode()
    assert reverse("events:play_event_wall", args=[event.slug, "pairings"]) in own


def test_find_my_table_across_divisions(client, director):
    event, made = hall(director)
    html = get(client, event, "find")
    names = re.findall(r"<tr>\s*<td>([^<]+)</td>\s*<td>([AB])</td>", html)
    assert sorted(n for n, _ in names) == [n for n, _ in names]  # alphabetical across divisions
    assert {(n, d) for n, d in names} == {(f"{d} Player {i}", d) for d in "AB" for i in range(1, 5)}


def test_the_event_wall_reads_a_constant_number_of_queries_and_its_version_follows_any_division(client, director):
    event, made = hall(director, divisions=2)
    with CaptureQueriesContext(connection) as two:
        get(client, event, "pairings")
    more, _ = hall(director, divisions=4)
    with CaptureQueriesContext(connection) as four:
        get(client, more, "pairings")
    assert len(two) == len(four)
    url = reverse("events:play_event_wall_version", args=[event.slug])
    before = client.get(url).json()["version"]
    game = made[1][1].games.filter(kind=GameKind.NORMAL).first()
    play.submit_result(director, game, 400, 350)
    assert client.get(url).json()["version"] != before
