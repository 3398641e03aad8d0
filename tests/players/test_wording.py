"""Words a member reads: a/an before a membership type, their name (not their login) when signing in."""

import datetime

import pytest
from allauth.account.models import EmailAddress
from django.urls import reverse
from django.utils import timezone

from tests.factories import AssociationFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind, words", [("ordinary", "an ordinary membership"), ("student", "a student membership")])
def test_the_renewal_page_says_a_or_an(client, kind, words):
    user = UserFactory()
    today = timezone.localdate()
    MembershipFactory(
        player=PlayerFactory(user=user),
        association=AssociationFactory(),
        type=kind,
        fee=15,
        starts_on=today - datetime.timedelta(days=345),
        expires_on=today + datetime.timedelta(days=20),
    )
    client.force_login(user)
    assert f"Renewing gives you {words}" in client.get(reverse("players:renew")).content.decode()


def test_signing_in_greets_the_person_by_name(client, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = UserFactory(username="xavier.pillai", email="xavier@example.org")
    user.set_password("tiles-and-racks-77")
    user.save()
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    PlayerFactory(user=user, full_name="Xavier Pillai")
    response = client.post(
        reverse("account_login"), {"login": "xavier@example.org", "password": "tiles-and-racks-77"}, follow=True
    )
    page = response.content.decode()
    assert "signed in as Xavier Pillai" in page and "xavier.pillai" not in page
