"""The late-arrival forfeit is the event's own rule (issue 23, defect 15): the organiser sets it on the event form,
the public rules say it, a director's late-arrival forfeit awards it, and the tsh file carries it."""

import pytest
from django.urls import reverse

from events.models import Event
from events.play import services as play
from events.play.core import tsh
from events.play.models import GameKind
from events.play.services import tsh_io
from tests.events.play.test_views_play import page, url

pytestmark = pytest.mark.django_db


def test_the_organiser_sets_the_late_forfeit_and_the_rules_say_it(client, director, make_division):
    event = make_division(4).event
    event.owner = director
    event.save(update_fields=["owner"])
    client.force_login(director)
    form = page(client.get(reverse("events:edit", args=[event.slug])))
    assert 'name="late_forfeit_spread"' in form and 'value="100"' in form

    from events.forms import EventForm
    from tests.events.test_event_form import REQUIRED

    bound = EventForm(data={**REQUIRED, "late_forfeit_spread": "50"}, instance=event)
    assert bound.is_valid(), bound.errors
    assert bound.service_fields()["late_forfeit_spread"] == 50
    from clubsite.kit.errors import ServiceError
    from events.services import update_event

    with pytest.raises(ServiceError) as refused:
        update_event(director, event, late_forfeit_spread=5000)
    assert refused.value.field == "late_forfeit_spread", (refused.value.field, refused.value.message)
    update_event(director, event, **bound.service_fields())
    event.refresh_from_db()
    assert event.late_forfeit_spread == 50

    detail = page(client.get(reverse("events:detail", args=[event.slug])))
    assert "A player too late for a game forfeits it by 50 points of spread" in detail


def test_a_late_arrival_forfeit_awards_the_events_spread_on_every_table(client, director, make_division):
    division = make_division(4, late_forfeit_spread=50)
    rnd = play.pair_round(director, division, "koth", seed=1)
    play.publish_round(director, rnd)
    game = rnd.games.filter(kind=GameKind.NORMAL).order_by("pk").first()
    late, on_time = game.player_a_id, game.player_b_id
    client.force_login(director)

    response = client.post(
        url("play_game_result", division.event, game.pk), {"outcome": "late_forfeit_a", "reason": "x"}
    )

    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.kind, game.spread_a) == (GameKind.LATE_FORFEIT, -50)
    table = {r.seat.player_id: r.standing for r in play.read_division(division).standings()}
    assert (table[late].losses, table[late].spread) == (1, -50)
    assert (table[on_time].wins, table[on_time].spread) == (1, 50)
    standings = page(client.get(url("play_standings", division)))
    assert "+50" in standings and "-50" in standings.replace("−", "-")
    # tsh has no late-arrival setting of its own: the .t file carries each such game as an unopposed −50 / +50.
    lines = {p.name: p for p in tsh.parse_t(tsh_io.export_tsh(division)).players}
    scores = sorted(p.scores[0] for p in lines.values() if p.opponents[0] == 0)
    assert scores == [-50, 50]
    assert Event.objects.get(pk=division.event_id).late_forfeit_spread == 50
