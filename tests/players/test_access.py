"""One rule for who gets in, by every door: the log-in page, the API's token endpoint and each request that presents
a token. An account gets in only while it is active and its email address is confirmed (ACCOUNT_EMAIL_VERIFICATION
is "mandatory"); a wrong password counts toward the same lockout whichever door it comes through."""

from unittest import mock

import pytest
from allauth.account.models import EmailAddress
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from players.models import User
from tests.events.factories import fast_passwords, open_event  # noqa: F401
from tests.factories import UserFactory, api_token, confirmed

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_passwords")]

PASSWORD = "tiles-and-racks-77"
UNCONFIRMED = (
    "Confirm your email address first: follow the link in the email we sent you. "
    "Logging in on the site sends a new link."
)
INACTIVE = "This account is inactive."


def sign_up(client, email="new@example.org"):
    data = {"email": email, "full_name": "Nora Newcomer", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post(reverse("account_signup"), data).status_code == 302
    client.logout()
    return User.objects.get(email=email)


def ask_for_token(login, password=PASSWORD):
    return APIClient().post("/api/auth/token/", {"username": login, "password": password})


def with_token(key):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return api


def page_login(client, login, password=PASSWORD):
    return client.post(reverse("account_login"), {"login": login, "password": password})


def enter(api):
    event, category, _ = open_event(fees=())
    return api.post("/api/my/entries/", {"event": event.slug, "category": category.pk, "accept_rules": True})


def test_an_unconfirmed_sign_up_gets_no_token(client):
    user = sign_up(client)
    assert not EmailAddress.objects.get(user=user).verified
    for login in ("new@example.org", user.username):
        refused = ask_for_token(login)
        assert refused.status_code == 403
        assert refused.json() == {"detail": UNCONFIRMED}
    assert not Token.objects.filter(user=user).exists()


def test_once_confirmed_the_same_account_gets_its_token_and_uses_it(client):
    user = confirmed(sign_up(client))
    response = ask_for_token("new@example.org")
    assert response.status_code == 200
    api = with_token(response.json()["token"])
    assert api.get("/api/me/").json()["email"] == "new@example.org"
    assert enter(api).status_code == 201
    assert user.player.entries.count() == 1


def test_a_token_of_an_unconfirmed_account_stops_working(client):
    """A token handed out before the rule (or an address unconfirmed since) is refused on every request."""
    user = sign_up(client)
    api = with_token(Token.objects.create(user=user).key)
    me = api.get("/api/me/")
    assert me.status_code == 401 and me.json() == {"detail": UNCONFIRMED}
    assert me["WWW-Authenticate"] == "Token"
    assert enter(api).status_code == 401
    assert not user.player.entries.exists()


def test_a_token_of_an_inactive_account_stops_working():
    user = UserFactory()
    api = with_token(api_token(user))
    assert api.get("/api/me/").status_code == 200
    User.objects.filter(pk=user.pk).update(is_active=False)
    me = api.get("/api/me/")
    assert me.status_code == 401 and me.json() == {"detail": INACTIVE}
    assert enter(api).status_code == 401


def test_an_inactive_account_gets_no_token_even_with_the_right_password():
    user = confirmed(UserFactory(is_active=False))
    refused = ask_for_token(user.email, "a-good-passphrase-42")
    assert refused.status_code == 403 and refused.json() == {"detail": INACTIVE}
    # A wrong password is answered as for any account: nothing is said about its state.
    wrong = ask_for_token(user.email, "wrong")
    assert wrong.status_code == 400
    assert wrong.json() == {"non_field_errors": ["Unable to log in with the email and password given."]}


def test_no_credentials_are_answered_403_as_before_and_a_refused_token_401():
    assert APIClient().get("/api/me/").status_code == 403
    invalid = with_token("not-a-token").get("/api/me/")
    assert invalid.status_code == 401 and invalid.json() == {"detail": "Invalid token."}


def test_the_log_in_page_still_refuses_an_unconfirmed_address(client):
    sign_up(client)
    response = page_login(client, "new@example.org")
    assert "_auth_user_id" not in client.session
    assert response.status_code == 302 and response["Location"] == reverse("account_email_verification_sent")


def test_the_log_in_page_still_refuses_an_inactive_account(client):
    user = confirmed(UserFactory(is_active=False))
    response = page_login(client, user.email, "a-good-passphrase-42")
    assert "_auth_user_id" not in client.session
    assert response.status_code == 302 and response["Location"] == reverse("account_inactive")


def test_the_log_in_page_lets_a_confirmed_active_account_in(client):
    user = confirmed(UserFactory())
    page_login(client, user.email, "a-good-passphrase-42")
    assert client.session["_auth_user_id"] == str(user.pk)


def test_every_door_asks_the_one_rule(client):
    """With the rule refusing everyone, the page, the token endpoint and an existing token all refuse."""
    from players import access

    user = confirmed(UserFactory())
    api = with_token(api_token(user))
    with mock.patch.object(access, "check_access", side_effect=access.AccessRefused("Closed.")) as rule:
        page_login(client, user.email, "a-good-passphrase-42")
        assert "_auth_user_id" not in client.session
        assert ask_for_token(user.email, "a-good-passphrase-42").json() == {"detail": "Closed."}
        assert api.get("/api/me/").json() == {"detail": "Closed."}
    assert rule.call_count == 3
    assert api.get("/api/me/").status_code == 200
