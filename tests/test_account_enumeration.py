"""Nobody learns from the site whether an address has an account: signing up with a registered address answers as
with a new one, and a password reset for an unknown address as for a known one. The owner of the address is told
by email instead."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.urls import reverse

from players.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "tiles-and-racks-77"


@pytest.fixture(autouse=True)
def _site(settings):
    settings.SITE_NAME = "Scrabble Association of Testland"
    settings.SITE_URL = "https://scrabble.example.org"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def member(email: str) -> User:
    user = User.objects.create_user(username=email, email=email, password="old-passphrase-1")
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user


def sign_up(client, email: str):
    data = {"email": email, "full_name": "Someone", "password1": PASSWORD, "password2": PASSWORD}
    return client.post(reverse("account_signup"), data, follow=True)


def ask_for_reset(client, email: str):
    return client.post(reverse("account_reset_password"), {"email": email}, follow=True)


def shown(response, email: str) -> tuple:
    """What a person sees: the status, where they were sent, and the page with the address they typed taken out."""
    page = response.content.decode().replace(email, "ADDRESS").replace(email.lower(), "ADDRESS")
    return response.status_code, [url for url, _ in response.redirect_chain], page


def test_signing_up_with_a_registered_address_answers_as_with_a_new_one(client, on_commit):
    member("taken@example.org")
    with on_commit(execute=True):
        new = shown(sign_up(client, "new@example.org"), "new@example.org")
    client.logout()
    with on_commit(execute=True):
        taken = shown(sign_up(client, "Taken@example.org"), "Taken@example.org")
    assert taken == new
    assert "already" not in taken[2]
    assert User.objects.filter(email__iexact="taken@example.org").count() == 1

    [told] = [m for m in mail.outbox if m.to == ["Taken@example.org"] or m.to == ["taken@example.org"]]
    assert "It already has an account, so no new account was made" in told.body
    assert "https://scrabble.example.org/accounts/password/reset/" in told.body


def test_a_reset_for_an_unknown_address_answers_as_for_a_known_one(client, on_commit):
    member("known@example.org")
    with on_commit(execute=True):
        known = shown(ask_for_reset(client, "known@example.org"), "known@example.org")
    with on_commit(execute=True):
        unknown = shown(ask_for_reset(client, "nobody@example.org"), "nobody@example.org")
    assert unknown == known
    assert unknown[0] == 200 and "not assigned" not in unknown[2]

    [reset] = [m for m in mail.outbox if m.to == ["known@example.org"]]
    assert "To choose a new password, follow this link" in reset.body
    [told] = [m for m in mail.outbox if m.to == ["nobody@example.org"]]
    assert "No account uses this address" in told.body
    assert "https://scrabble.example.org/accounts/signup/" in told.body


def test_asking_for_a_lost_entry_link_answers_as_for_an_address_that_entered_nobody(client):
    """Entering without an account: "Lost your link?" says the same for an address that entered someone in the event
    and for one that did not; only the address's owner gets the links."""
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    from events.services import submit_guest_entry
    from outbox.models import Message
    from tests.events.test_entry_doors import pupil_born, standard, students_event

    event, _, primary = students_event(allows_guest_entries=True)
    submit_guest_entry(
        event,
        role="parent",
        contact_name="Mary Lim",
        email="entered@example.org",
        full_name="Lim Wei Ling",
        date_of_birth=pupil_born(event),
        school_level="primary",
        category=primary,
        fee=standard(primary),
        accept_rules=True,
    )
    url = reverse("events:guest_lost_link", args=[event.slug])
    csrf = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')
    with time_machine.travel(timezone.now() + timedelta(minutes=11)):
        known = shown(client.post(url, {"email": "entered@example.org"}, follow=True), "entered@example.org")
        unknown = shown(client.post(url, {"email": "nobody@example.org"}, follow=True), "nobody@example.org")
    assert (known[0], known[1], csrf.sub("", known[2])) == (unknown[0], unknown[1], csrf.sub("", unknown[2]))
    assert Message.objects.filter(to="entered@example.org", subject__contains="Your entry links").count() == 1
    assert not Message.objects.filter(to="nobody@example.org").exists()
