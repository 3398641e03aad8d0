"""While the database does not answer, pages answer 503 with a plain "temporarily unavailable" page (JSON under
/api/), never a server error or a traceback; /healthz keeps its own answer. An error of one query while the
database answers is still a server error."""

import pytest
from allauth.account.views import LoginView
from django.db import OperationalError, connection
from django.test import Client, RequestFactory
from django.urls import reverse

from clubsite.kit.middleware import server_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def database_down(monkeypatch):
    def refuse():
        raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")

    monkeypatch.setattr(connection, "cursor", refuse)


def test_a_page_answers_503_asking_to_try_again_in_a_minute(database_down):
    response = Client(raise_request_exception=False).get(reverse("events:list"))
    page = response.content.decode()
    assert response.status_code == 503
    assert response["Retry-After"] == "60" and response["Content-Type"].startswith("text/html")
    assert "temporarily unavailable" in page and "Try again in a minute" in page
    assert "Traceback" not in page and "Connection refused" not in page and "Server Error" not in page


def test_the_api_answers_503_in_json(database_down):
    response = Client(raise_request_exception=False).get("/api/events/")
    assert response.status_code == 503 and response["Retry-After"] == "60"
    assert response.json() == {"detail": "The site is temporarily unavailable. Try again in a minute."}


def test_a_form_post_answers_the_same(database_down):
    client = Client(raise_request_exception=False)
    response = client.post(reverse("account_login"), {"login": "someone@example.org", "password": "x"})
    assert response.status_code == 503 and "temporarily unavailable" in response.content.decode()


def test_healthz_keeps_its_own_answer(database_down, client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 503 and response["Content-Type"] == "application/json"
    body = response.json()
    assert body["failing"] == ["database"] and "Connection refused" in body["checks"]["database"]


def test_an_error_outside_a_view_answers_the_same(database_down):
    """handler500 (a session saved as the response leaves, say) gives the same 503."""
    request = RequestFactory().get("/events/")
    try:
        raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")
    except OperationalError:
        response = server_error(request)
    assert response.status_code == 503 and b"temporarily unavailable" in response.content


def test_an_error_of_one_query_while_the_database_answers_is_still_a_server_error(monkeypatch):
    def locked(self, request, *args, **kwargs):
        raise OperationalError("canceling statement due to lock timeout")

    monkeypatch.setattr(LoginView, "dispatch", locked)
    response = Client(raise_request_exception=False).get(reverse("account_login"))
    assert response.status_code == 500
    request = RequestFactory().get("/events/")
    try:
        raise OperationalError("canceling statement due to lock timeout")
    except OperationalError:
        assert server_error(request).status_code == 500
