"""Sign-up: the directory choice, under-18s, and input that used to break the page."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from players import visibility
from players.models import Player, User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "tiles-and-racks-77"


def signup(client, **fields):
    data = {"email": "new@example.org", "full_name": "Nora Newcomer", "password1": PASSWORD, "password2": PASSWORD}
    data.update(fields)
    return client.post(reverse("account_signup"), data)


def test_the_sign_up_form_asks_about_the_directory_unticked(client):
    html = client.get(reverse("account_signup")).content.decode()
    assert 'name="listed_in_directory"' in html and 'name="date_of_birth"' in html
    box = html.split('name="listed_in_directory"', 1)[1].split(">", 1)[0]
    assert "checked" not in box


def test_an_adult_who_says_nothing_is_not_listed(client):
    assert signup(client).status_code == 302
    player = Player.objects.get(user__email="new@example.org")
    assert not player.listed_in_directory and not visibility.can_see_profile(None, player)


def test_an_adult_who_opts_in_is_listed(client):
    assert signup(client, listed_in_directory="on", date_of_birth="1990-05-01").status_code == 302
    player = Player.objects.get(user__email="new@example.org")
    assert player.listed_in_directory and visibility.can_see_profile(None, player)
    assert "Nora Newcomer" in client.get(reverse("players:directory")).content.decode()


def test_a_child_needs_a_guardians_opt_in(client):
    assert signup(client, listed_in_directory="on", date_of_birth="2019-01-01").status_code == 302
    child = Player.objects.get(user__email="new@example.org")
    assert child.listed_in_directory and not visibility.can_see_profile(None, child)

    response = signup(
        client, email="kid2@example.org", listed_in_directory="on", date_of_birth="2019-01-01", guardian_opt_in="on"
    )
    assert response.status_code == 200 and "name of the parent or guardian" in response.content.decode()
    assert not User.objects.filter(email="kid2@example.org").exists()

    response = signup(
        client,
        email="kid3@example.org",
        listed_in_directory="on",
        date_of_birth="2019-01-01",
        guardian_opt_in="on",
        guardian_name="Mum",
    )
    assert response.status_code == 302
    kid = Player.objects.get(user__email="kid3@example.org")
    assert kid.guardian_opted_in_on and visibility.can_see_profile(None, kid)


def test_a_guardian_can_opt_in_later_from_my_account(client):
    user = UserFactory()
    player = Player.objects.create(user=user, full_name="Kid", member_number=4242, date_of_birth="2015-03-03")
    client.force_login(user)
    form = {"full_name": "Kid", "country": "SG", "school_level": "none", "email": user.email}
    form.update(listed_in_directory="on", guardian_opt_in="on", guardian_name="Dad", date_of_birth="2015-03-03")
    assert client.post(reverse("players:profile"), form).status_code == 302
    player.refresh_from_db()
    assert player.guardian_name == "Dad" and visibility.can_see_profile(None, player)
    form.pop("guardian_opt_in")
    client.post(reverse("players:profile"), form)
    player.refresh_from_db()
    assert player.guardian_opted_in_on is None and not visibility.can_see_profile(None, player)


def test_an_over_long_email_is_a_form_error_not_a_server_error(client):
    response = signup(client, email="a" * 250 + "@example.org")
    assert response.status_code == 200
    assert "at most 254 characters" in response.content.decode()
    assert not User.objects.exists()


def test_an_email_of_exactly_254_characters_is_fine(client):
    email = "a" * 64 + "@" + ("b" * 61 + ".") * 3 + "com"
    assert len(email) == 254
    assert signup(client, email=email).status_code == 302
    assert Player.objects.get(user__email=email).email == email


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("１２３４", "1234"), ("５６７ａ", "567A"), ("١٢٣٤", "1234"), (" 12ab ", "12AB")],
)
def test_id_last4_in_other_scripts_is_folded_to_plain_digits(client, typed, stored):
    user = UserFactory()
    client.force_login(user)
    form = {"full_name": "Wide Digits", "country": "SG", "school_level": "none", "email": user.email}
    assert client.post(reverse("players:profile"), {**form, "id_last4": typed}).status_code == 302
    assert Player.objects.get(user=user).id_last4 == stored


@pytest.mark.parametrize("typed", ["１２３", "12é4", "１２３４５６７", "½½½½", "12-4"])
def test_id_last4_that_is_not_four_plain_characters_is_refused_on_the_form(client, typed):
    user = UserFactory()
    client.force_login(user)
    form = {"full_name": "Wide Digits", "country": "SG", "school_level": "none", "email": user.email}
    response = client.post(reverse("players:profile"), {**form, "id_last4": typed})
    assert response.status_code == 200
    html = response.content.decode()
    assert "last four" in html.lower()
    assert Player.objects.get(user=user).id_last4 == ""


def test_id_last4_full_width_through_the_api(client):
    api = APIClient()
    api.force_authenticate(UserFactory())
    response = api.patch("/api/me/", {"id_last4": "９８７６"}, format="json")
    assert response.status_code == 200 and response.json()["id_last4"] == "9876"
    response = api.patch("/api/me/", {"id_last4": "Ｓ１２３４５６７Ｄ"}, format="json")
    assert response.status_code == 400 and "Only the last four" in response.json()["id_last4"][0]


def test_the_confirmation_mail_says_what_an_unconfirmed_account_cannot_do(
    client, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        signup(client)
    (message,) = [m for m in mailoutbox if "new@example.org" in m.to]
    assert "nobody can log in with this address until it is confirmed" in message.body
    assert "no account is made" not in message.body
