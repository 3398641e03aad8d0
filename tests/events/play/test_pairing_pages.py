"""Pairing as the director sees it: one list of systems, refusals and Gibsonization in people's names."""

import importlib

import pytest
from django.apps import apps
from django.urls import reverse

from events.core import pairing
from events.forms import EventForm
from events.models import Event
from events.play import services as play
from tests.events.factories import EventFactory
from tests.events.play.test_views_play import page, play_round, url

pytestmark = pytest.mark.django_db


def options(html: str, select_name: str) -> list[str]:
    import re

    select = re.search(rf'<select name="{select_name}".*?</select>', html, re.S).group(0)
    return re.findall(r'<option value="([^"]*)"', select)


def test_the_event_form_and_the_pairing_form_offer_the_same_systems(client, director, make_division):
    assert [value for value, _ in EventForm().fields["pairing_system"].choices] == list(pairing.SYSTEMS)
    division = make_division(4)
    client.force_login(director)
    assert options(page(client.get(url("play_division", division))), "system") == list(pairing.SYSTEMS)


def test_after_round_one_the_event_s_system_is_proposed(client, director, make_division):
    division = make_division(4, pairing_system="swiss")
    client.force_login(director)
    html = page(client.get(url("play_division", division)))
    assert '<option value="random" selected>' in html
    rnd = play.pair_round(director, division, "random", seed=1)
    play.publish_round(director, rnd)
    play_round(director, rnd)
    html = page(client.get(url("play_division", division)))
    assert '<option value="swiss" selected>' in html
    hub = page(client.get(reverse("events:play_hub", args=[division.event.slug])))
    assert "Swiss" in hub


def test_old_pairing_choices_move_to_systems_the_site_pairs_with():
    migration = importlib.import_module("events.migrations.0006_event_pairing_system_from_core_list")
    draw, other, koth = EventFactory(), EventFactory(), EventFactory(pairing_system="round_robin")
    Event.objects.filter(pk=draw.pk).update(pairing_system="australian_draw")
    Event.objects.filter(pk=other.pk).update(pairing_system="other")
    migration.forwards(apps, None)
    assert dict(Event.objects.filter(pk__in=[draw.pk, other.pk, koth.pk]).values_list("pk", "pairing_system")) == {
        draw.pk: "swiss",
        other.pk: "koth",
        koth.pk: "round_robin",
    }
