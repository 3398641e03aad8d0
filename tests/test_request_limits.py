"""A request body larger than MAX_REQUEST_BYTES is refused (413) before anything reads it: no view runs, nothing is
written to disk. The limit sits a little above the largest upload the site takes."""

import pytest
from allauth.account.views import LoginView
from django.conf import settings
from django.urls import reverse

from money.services.statements import MAX_BYTES as STATEMENT_BYTES
from wordjudge.services import MAX_UPLOAD_BYTES as WORD_LIST_BYTES

pytestmark = pytest.mark.django_db

ONE_GIGABYTE = str(2**30)


@pytest.fixture
def view_runs(monkeypatch):
    """The log-in view, watched: the list of requests it was asked to answer."""
    seen = []
    dispatch = LoginView.dispatch

    def watched(self, request, *args, **kwargs):
        seen.append(request.path)
        return dispatch(self, request, *args, **kwargs)

    monkeypatch.setattr(LoginView, "dispatch", watched)
    return seen


def test_a_huge_anonymous_post_to_the_log_in_page_is_refused_unread(client, view_runs):
    # The body is never read: the test client's stream would refuse a read past its few real bytes.
    response = client.post(
        reverse("account_login"),
        "login=x",
        content_type="application/x-www-form-urlencoded",
        CONTENT_LENGTH=ONE_GIGABYTE,
    )
    assert response.status_code == 413
    assert "too large" in response.content.decode()
    assert view_runs == []


def test_the_api_is_refused_in_json(client):
    response = client.post("/api/auth/token/", "{}", content_type="application/json", CONTENT_LENGTH=ONE_GIGABYTE)
    assert response.status_code == 413 and response.json()["detail"].startswith("The request is too large")


def test_a_request_within_the_limit_reaches_its_view(client, view_runs, settings):
    settings.MAX_REQUEST_BYTES = 1000
    response = client.post(reverse("account_login"), {"login": "someone@example.org", "password": "x" * 500})
    assert response.status_code == 200 and view_runs == ["/accounts/login/"]
    response = client.post(reverse("account_login"), {"login": "someone@example.org", "password": "x" * 1000})
    assert response.status_code == 413 and view_runs == ["/accounts/login/"]


def test_the_limit_is_a_little_above_the_largest_upload():
    largest = max(WORD_LIST_BYTES, STATEMENT_BYTES)
    assert largest < settings.MAX_REQUEST_BYTES <= largest + 2 * 1024 * 1024
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE <= settings.MAX_REQUEST_BYTES
    assert settings.MIDDLEWARE[0] == "clubsite.kit.middleware.RequestSizeLimit"
