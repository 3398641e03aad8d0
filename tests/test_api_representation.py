"""The API's serializers write objects out with fields built once per class (clubsite.kit.api.ModelSerializer); every
GET route must answer exactly as DRF's own way does, for each kind of reader, on the demo data."""

import io
import re

import pytest
from django.core.management import call_command
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from clubsite.kit import api
from events.models import Entry, Event
from events.play.models import Division, Game, Round
from players.models import Player, User
from ratings.models import RatingList

pytestmark = pytest.mark.django_db
BY_ID = {"entries": Entry, "games": Game, "divisions": Division, "rounds": Round}


def _get(user, url):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    response = client.get(url)
    return response.status_code, response.json() if response.get("Content-Type") == "application/json" else None


def _drf_way(monkeypatch):
    monkeypatch.setattr(api, "_representation_plan", lambda cls: None)
    monkeypatch.setattr(api, "_PLANS", {})


def _urls():
    """Every GET route of the schema, its path parameters filled from the demo data."""
    values = {
        "slug": Event.objects.exclude(status="draft").order_by("pk").values_list("slug", flat=True).first(),
        "event_slug": Event.objects.exclude(status="draft").order_by("pk").values_list("slug", flat=True).first(),
        "list_slug": RatingList.objects.values_list("slug", flat=True).first(),
        "member_number": Player.objects.order_by("pk").values_list("member_number", flat=True).first(),
        "division_id": Division.objects.values_list("pk", flat=True).first(),
        "game_id": Game.objects.values_list("pk", flat=True).first(),
    }
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path, operations in schema["paths"].items():
        if "get" not in operations:
            continue
        names = re.findall(r"{(\w+)}", path)
        filled = path
        for name in names:
            value = values.get(name)
            if value is None and name == "id":
                model = next((m for part, m in BY_ID.items() if f"/{part}/" in path), None)
                value = model and model.objects.values_list("pk", flat=True).first()
            if value is None:
                break
            filled = filled.replace("{" + name + "}", str(value))
        else:
            yield filled


def test_every_get_route_answers_as_drf_does(monkeypatch):
    call_command("load_demo", stdout=io.StringIO())
    readers = [None, *User.objects.filter(username__in=["staff", "organiser", "director", "player"]).order_by("pk")]
    urls = list(_urls())
    assert len(urls) > 20 and "/api/my/entries/" in urls
    fast = {(getattr(u, "username", ""), url): _get(u, url) for u in readers for url in urls}
    shared = [cls for cls, plan in api._PLANS.items() if plan is not None]
    assert {"EntrySerializer", "GameSerializer", "PlayerRatingSerializer"} <= {cls.__name__ for cls in shared}
    _drf_way(monkeypatch)
    drf = {(getattr(u, "username", ""), url): _get(u, url) for u in readers for url in urls}
    assert sum(1 for status, body in drf.values() if status == 200 and body) > 50
    differ = [key for key in drf if drf[key] != fast[key]]
    assert not differ, differ[:5]
