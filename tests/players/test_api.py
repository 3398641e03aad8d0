import pytest
from rest_framework.test import APIClient

from players import services
from tests.factories import ClubFactory, PlayerFactory, UserFactory, confirmed

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def test_players_and_clubs_are_public_read(api):
    club = ClubFactory(slug="jg")
    PlayerFactory(full_name="Api Person", club=club)
    data = api.get("/api/players/", {"q": "api"}).json()
    assert data["count"] == 1 and data["results"][0]["club"] == "jg"
    assert api.get("/api/clubs/jg/").json()["slug"] == "jg"
    assert api.post("/api/players/", {}).status_code in (401, 403, 405)


def test_me_with_token_auth_reads_and_updates(api):
    user = confirmed(UserFactory(email="me@example.org"))
    token = api.post("/api/auth/token/", {"username": user.username, "password": "a-good-passphrase-42"}).json()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token['token']}")
    me = api.get("/api/me/").json()
    assert me["email"] == "me@example.org"
    response = api.patch("/api/me/", {"display_name": "Me Myself"}, format="json")
    assert response.status_code == 200 and response.json()["display_name"] == "Me Myself"


def test_me_rejects_a_whole_id_number_with_a_field_error(api):
    user = UserFactory()
    api.force_authenticate(user)
    response = api.patch("/api/me/", {"id_last4": "S1234567D"}, format="json")
    assert response.status_code == 400
    assert "Only the last four" in response.json()["id_last4"][0]
    assert services.ensure_own_player(user).id_last4 == ""


def test_me_needs_authentication(api):
    assert api.get("/api/me/").status_code in (401, 403)


def test_schema_and_docs_are_served_without_a_cdn(client):
    assert client.get("/api/schema/").status_code == 200
    docs = client.get("/api/docs/").content.decode()
    assert "swagger" in docs.lower() and "cdn" not in docs.lower() and "//unpkg" not in docs
