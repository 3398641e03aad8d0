"""A withdrawn player's later rounds count as the division's "missed rounds as" setting says, and every page
says so alike: the withdraw message, the round page, the standings, the cross-table, the printed pairings, the
wall and the tsh file (issue 23, defect N4)."""

import re

import pytest
from django.urls import reverse

from events.play import services as play
from events.play.core import tsh
from events.play.models import Division, GameKind

pytestmark = pytest.mark.django_db


def url(name, division, *args):
    return reverse(f"events:{name}", args=[division.event.slug, division.pk, *args])


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def two_rounds_then_withdraw(client, director, division, missed_as):
    Division.objects.filter(pk=division.pk).update(missed_rounds_as=missed_as)
    for _ in (1, 2):
        rnd = play.pair_round(director, division, "koth", seed=1)
        play.publish_round(director, rnd)
        for game in rnd.games.filter(kind=GameKind.NORMAL):
            play.submit_result(director, game, 400, 350)
    client.force_login(director)
    said = text(client.post(url("play_withdraw", division, 6), follow=True))
    rnd = play.pair_round(director, division, "koth")
    play.publish_round(director, rnd)
    return said


@pytest.mark.parametrize(
    "missed_as, label, record",
    [
        ("forfeit", "forfeit loss (-50)", ("1", "2", "-50")),
        ("bye", "bye (+50)", ("2", "1", "+50")),
        ("void", "void (neither a win nor a loss)", ("1", "1", "+0")),
    ],
)
def test_every_page_says_what_a_withdrawn_players_later_round_counts_for(
    client, director, make_division, missed_as, label, record
):
    division = make_division(6)
    said = two_rounds_then_withdraw(client, director, division, missed_as)
    # Player 06 won round 2 and lost round 1: 1–1, +0 when withdrawn.
    assert (
        f"Player 06 is withdrawn after round 2: not paired from round 3 on, and each later round counts as a {label}."
        in said
    )
    assert "from the next round" not in said

    shown = f"Withdrawn after round 2: {label}"
    assert f"6. Player 06: {shown}" in text(client.get(url("play_round", division, 3)))
    wall = text(client.get(url("play_wall", division, "pairings")))
    assert f"Player 06 #6 {shown}" in wall
    printed = text(client.get(url("play_print", division, 3, "pairings")))
    assert f"Player 06 – {shown}" in printed

    standings = text(client.get(url("play_standings", division)))
    wins, losses, spread = record
    assert f"withdrawn after round 2 Player 06 #6 {wins} {losses} {spread}" in standings
    letter = {"forfeit": "F -50", "bye": "B +50", "void": "V +0"}[missed_as]
    cross = text(client.get(url("play_cross_table", division)))
    assert re.search(re.escape(f"6 Player 06 L 5 350–400 W 3 400–350 {letter} {wins}–{losses} {spread}"), cross)
    # tsh: no opponent in round 3, the round's spread as its score, and `off` with the same spread.
    parsed = tsh.parse_t(client.get(url("play_download_t", division)).content.decode())
    line = next(p for p in parsed.players if p.name.startswith("Player 06"))
    given = {"forfeit": -50, "bye": 50, "void": 0}[missed_as]
    assert (line.opponents[2], line.scores[2], line.extras["off"]) == (0, given, [str(given)])
