"""Input no API view can take answers a 4xx naming what is wrong, never a server error; errors answer JSON."""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from clubsite.kit.api import ApiView
from events import services
from events.models import EventStatus
from events.play import services as play
from events.play.models import Division, DivisionPlayer
from tests.events.factories import (
    EventFactory,
    fast_passwords,  # noqa: F401
    open_event,
    player_with_account,
)
from tests.factories import PlayerFactory, UserFactory
from tests.ratings.factories import RatingListFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient(raise_request_exception=False)


def division_with_round(n_players: int = 3):
    """An event in progress, its director, a division of `n_players` and a published first round."""
    director = UserFactory()
    event = EventFactory(status=EventStatus.IN_PROGRESS, number_of_games=5, rated=False)
    event.directors.add(director)
    division = Division.objects.create(event=event, name="A")
    for i in range(1, n_players + 1):
        DivisionPlayer.objects.create(division=division, player=PlayerFactory(), number=i, rating=1000)
    rnd = play.pair_round(director, division, "random", seed=4)
    play.publish_round(director, rnd)
    return director, division, rnd


@pytest.mark.parametrize(
    "url",
    [
        "/api/my/entries/null/withdraw/",
        "/api/my/entries/null/accept-offer/",
        "/api/my/entries/null/leave-waiting-list/",
        "/api/my/entries/false/record-payment/",
        "/api/organiser/entries/false/record-payment/",
        "/api/organiser/entries/99999999999999999999999/record-payment/",
        "/api/play/games/1.5/submit/",
        "/api/play/rounds/-1/publish/",
    ],
)
def test_a_non_integer_id_in_an_action_is_not_found(api, url):
    open_event()
    api.force_authenticate(UserFactory(is_staff=True))
    response = api.post(url, {"amount": "1", "method": "cheque"}, format="json")
    assert response.status_code == 404, response.content
    assert response["Content-Type"] == "application/json"


def test_a_nul_character_in_the_body_is_a_400_naming_the_field(api):
    api.force_authenticate(player_with_account().user)
    response = api.post("/api/my/entries/", {"event": "a\u0000b", "category": 1}, format="json")
    assert response.status_code == 400 and list(response.json()) == ["event"]
    form = api.post("/api/my/entries/", {"event": "a\u0000b", "category": "1"})  # form-encoded
    assert form.status_code == 400 and list(form.json()) == ["event"]


@pytest.mark.parametrize("path", ["/api/ratings/", "/api/players/", "/api/events/", "/api/play/divisions/"])
def test_a_nul_character_in_the_query_is_a_400_naming_the_parameter(api, path):
    response = api.get(path, {"q": "\x00", "event": "a\x00"})
    assert response.status_code == 400
    assert set(response.json()) == {"q", "event"}


def test_a_nul_character_in_the_url_is_not_found(api):
    assert api.get("/api/events/a%00b/").status_code == 404
    assert api.get("/api/rating-lists/a%00b/history/1/").status_code == 404


def test_integers_beyond_their_range_are_a_400_naming_the_field(api):
    director, division, rnd = division_with_round()
    game = rnd.games.exclude(player_b=None).get()
    api.force_authenticate(director)
    submitted = api.post(
        f"/api/play/games/{game.pk}/submit/", {"score_a": 400, "score_b": 300, "overtime_b": 34359738368}, format="json"
    )
    assert submitted.status_code == 400 and list(submitted.json()) == ["overtime_b"]
    paired = api.post(f"/api/play/divisions/{division.pk}/pair/", {"system": "random", "seed": 10**24}, format="json")
    assert paired.status_code == 400 and list(paired.json()) == ["seed"]
    entry = api.post("/api/my/entries/", {"event": division.event.slug, "category": 2**64}, format="json")
    assert entry.status_code == 400 and list(entry.json()) == ["category"]


@pytest.mark.parametrize(
    "path,param",
    [
        ("/api/ratings/", "min_rating"),
        ("/api/play/games/", "round"),
        ("/api/play/rounds/", "division"),
        ("/api/organiser/entries/", "category"),
    ],
)
@pytest.mark.parametrize("value", ["²", "x", "99999999999999999999999"])
def test_whole_number_query_parameters_are_checked(api, path, param, value):
    RatingListFactory()
    api.force_authenticate(UserFactory(is_staff=True))
    response = api.get(path, {param: value})
    assert response.status_code == 400 and list(response.json()) == [param]


def test_a_form_with_too_many_fields_is_a_400(api):
    """Django refuses to read more than DATA_UPLOAD_MAX_NUMBER_FIELDS form fields: a 400, as on any page."""
    _, division, _ = division_with_round()
    api.force_authenticate(UserFactory(is_staff=True))
    url = f"/api/play/events/{division.event.slug}/check-in/withdraw-no-shows/"
    response = api.post(url, {"entries": [1] * 1500})
    assert response.status_code == 400 and "could not be read" in response.json()["detail"]
    assert response["Content-Type"] == "application/json"


def test_standings_through_must_be_a_round_number(api):
    _, division, _ = division_with_round()
    for value in ("x", "²", "99999999999999999999999"):
        response = api.get(f"/api/play/divisions/{division.pk}/standings/", {"through": value})
        assert response.status_code == 400 and list(response.json()) == ["through"]


def test_an_unexpected_error_answers_json(api, monkeypatch):
    event, category, (fee,) = open_event()
    entry = services.register_entry(player_with_account().user, event, category=category, fee=fee)

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(services, "withdraw_entry", broken)
    api.force_authenticate(entry.player.user)
    response = api.post(f"/api/my/entries/{entry.pk}/withdraw/")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json" and "Server error" in response.json()["detail"]


def test_errors_outside_the_api_views_answer_json_under_api_only(client):
    from django.test import RequestFactory

    from clubsite.kit.api import not_found, server_error

    api_request, page_request = RequestFactory().get("/api/nowhere/"), RequestFactory().get("/nowhere/")
    assert server_error(api_request)["Content-Type"] == "application/json"
    assert not_found(api_request)["Content-Type"] == "application/json"
    assert server_error(page_request)["Content-Type"].startswith("text/html")
    response = client.get("/api/no-such-thing/")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"


def _api_views(resolver=None, prefix=""):
    for pattern in (resolver or get_resolver()).url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _api_views(pattern, route)
        elif isinstance(pattern, URLPattern) and route.lstrip("^").startswith("api/"):
            yield route, pattern.callback


def test_every_api_view_checks_its_input_first():
    views = list(_api_views())
    assert len(views) > 20
    unchecked = [route for route, view in views if not issubclass(getattr(view, "cls", object), ApiView)]
    assert unchecked == []
