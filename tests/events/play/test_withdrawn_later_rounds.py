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
        ("forfeit", "forfeit loss (-50)", (0, 1, -50)),
        ("bye", "bye (+50)", (1, 0, 50)),
        ("void", "void (neither a win nor a loss)", (0, 0, 0)),
    ],
)
def test_every_page_says_what_a_withdrawn_players_later_round_counts_for(
    client, director, make_division, missed_as, label, record
):
    division = make_division(6)
    said = two_rounds_then_withdraw(client, director, division, missed_as)
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

    # Whom Player 06 met in rounds 1 and 2, and on which side, is the pairing's choice among players level on the
    # table (every game ends 400–350 for its first player): read it back, then add round 3 as the setting says.
    number = dict(division.seats.values_list("player_id", "number"))
    games = division.games.filter(round_number__in=(1, 2), kind=GameKind.NORMAL).order_by("round_number")
    cells = [
        f"W {number[g.player_b_id]} 400–350" if number[g.player_a_id] == 6 else f"L {number[g.player_a_id]} 350–400"
        for g in games
        if 6 in (number[g.player_a_id], number[g.player_b_id])
    ]
    won = sum(c.startswith("W") for c in cells)
    wins, losses, spread = won + record[0], len(cells) - won + record[1], 50 * (2 * won - len(cells)) + record[2]
    standings = text(client.get(url("play_standings", division)))
    assert f"withdrawn after round 2 Player 06 #6 {wins} {losses} {spread:+d}" in standings
    letter = {"forfeit": "F -50", "bye": "B +50", "void": "V +0"}[missed_as]
    cross = text(client.get(url("play_cross_table", division)))
    row = f"6 Player 06 {' '.join(cells)} {letter} {wins}–{losses} {spread:+d}"
    assert re.search(re.escape(row), cross)
    # tsh: no opponent in round 3, the round's spread as its score, and `off` with the same spread.
    parsed = tsh.parse_t(client.get(url("play_download_t", division)).content.decode())
    line = next(p for p in parsed.players if p.name.startswith("Player 06"))
    given = {"forfeit": -50, "bye": 50, "void": 0}[missed_as]
    assert (line.opponents[2], line.scores[2], line.extras["off"]) == (0, given, [str(given)])


@pytest.mark.parametrize(
    "missed_as, label", [("forfeit", "forfeit loss (-50)"), ("bye", "bye (+50)"), ("void", "void (neither a win")]
)
def test_the_withdraw_button_asks_with_what_later_rounds_count_for(client, director, make_division, missed_as, label):
    """Before the click, not only in the message after it (found walking the site again)."""
    division = make_division(4)
    Division.objects.filter(pk=division.pk).update(missed_rounds_as=missed_as)
    client.force_login(director)
    page = client.get(url("play_division", division)).content.decode()
    asked = re.search(r'data-confirm="Withdraw Player 01 from the next round on\? ([^"]*)"', page)
    assert asked and asked.group(1).startswith(f"Each later round counts as a {label}")
