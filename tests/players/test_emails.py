"""Every email the members' side sends names the site and links to its public address (SITE_NAME, SITE_URL).

The requests here come in on the test client's own host ("testserver"): no link may be built from it.
"""

import datetime
import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from players import services, tasks
from players.models import User
from tests.factories import MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

NAME = "Scrabble Association of Testland"
URL = "https://scrabble.example.org"
PASSWORD = "tiles-and-racks-77"


@pytest.fixture(autouse=True)
def site(settings):
    settings.SITE_NAME = NAME
    settings.SITE_URL = URL
    cache.clear()  # allauth rate-limits confirmation mail per address, in the cache other tests share


def links(message) -> list[str]:
    return re.findall(r"https?://\S+", message.body)


def assert_names_the_site(message):
    """The subject has the one style of every email, the site's name in brackets first and only there (issue 23,
    defect 29); the site's name and address are in the body; every link starts with the public address."""
    assert message.subject.startswith(f"[{NAME}] ") and message.subject.count(NAME) == 1, message.subject
    body = message.body
    assert NAME in body, body
    assert URL in body, body
    assert links(message), body
    assert all(link.startswith(URL + "/") or link == URL for link in links(message)), links(message)
    assert "testserver" not in body and "127.0.0.1" not in body, body
    assert "Hello from !" not in body and " on ." not in body, body


def path_of(link: str) -> str:
    assert link.startswith(URL)
    return link[len(URL) :]


def sign_up(client, on_commit, email="new@example.org"):
    with on_commit(execute=True):
        client.post(
            reverse("account_signup"),
            {"email": email, "full_name": "Nora Newcomer", "password1": PASSWORD, "password2": PASSWORD},
        )
    return User.objects.get(email=email)


def test_sign_up_verification_then_welcome(client, on_commit):
    user = sign_up(client, on_commit)
    [confirm] = mail.outbox
    assert confirm.subject.startswith(f"[{NAME}] ")
    assert_names_the_site(confirm)
    assert f"Hello from {NAME}!" in confirm.body
    assert "was given for an account on Scrabble Association of Testland (scrabble.example.org)" in confirm.body

    mail.outbox = []
    with on_commit(execute=True):
        client.get(path_of(links(confirm)[0]))
    assert EmailAddress.objects.get(user=user).verified
    [welcome] = mail.outbox
    assert welcome.subject == f"[{NAME}] Welcome: your account is ready"
    assert_names_the_site(welcome)
    assert f"Your member number is {user.player.member_number}" in welcome.body
    assert URL + reverse("players:me") in links(welcome)
    # The links work on this site.
    for link in links(welcome):
        assert client.get(path_of(link)).status_code == 200


def test_confirming_a_second_address_sends_no_second_welcome(client, on_commit):
    user = sign_up(client, on_commit, email="two@example.org")
    with on_commit(execute=True):
        client.get(path_of(links(mail.outbox[0])[0]))
    mail.outbox = []
    with on_commit(execute=True):
        client.post(reverse("account_email"), {"action_add": "", "email": "second@example.org"})
    [confirm] = mail.outbox
    assert_names_the_site(confirm)
    mail.outbox = []
    with on_commit(execute=True):
        client.get(path_of(links(confirm)[0]))
    assert EmailAddress.objects.get(user=user, email="second@example.org").verified
    assert not any("Welcome" in m.subject for m in mail.outbox), [m.subject for m in mail.outbox]


def test_password_reset(client, on_commit):
    user = User.objects.create_user(username="r", email="reset@example.org", password="old-passphrase-1")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    with on_commit(execute=True):
        client.post(reverse("account_reset_password"), {"email": "reset@example.org"})
    [reset] = mail.outbox
    assert reset.subject.startswith(f"[{NAME}] ")
    assert_names_the_site(reset)
    assert "your username is" not in reset.body  # members log in with their email address
    response = client.get(path_of(links(reset)[0]), follow=True)
    assert "Change Password" in response.content.decode() or "new password" in response.content.decode().lower()


def test_claim_confirmation_link(client, on_commit):
    user = UserFactory(email="same@example.org")
    record = PlayerFactory(email="same@example.org", full_name="Sam Same")
    with on_commit(execute=True):
        services.request_claim(user, record.member_number)
    [message] = mail.outbox
    assert_names_the_site(message)
    assert str(record.member_number) in message.body
    client.force_login(user)
    client.get(path_of(links(message)[0]))
    record.refresh_from_db()
    assert record.user == user


@pytest.mark.parametrize("approve", [True, False])
def test_the_member_hears_when_staff_decide_a_claim(on_commit, approve):
    user = UserFactory(email="claimant@example.org")
    record = PlayerFactory(email="old@example.org")
    claim = services.request_claim(user, record.member_number)
    assert mail.outbox == []  # different address on record: staff decide
    with on_commit(execute=True):
        services.decide_claim(UserFactory(is_staff=True), claim, approve)
    [message] = mail.outbox
    assert message.to == ["claimant@example.org"]
    assert_names_the_site(message)
    assert ("now linked to your account" in message.body) is approve


def test_renewal_reminder(on_commit):
    MembershipFactory(expires_on=timezone.localdate() + datetime.timedelta(days=30))
    with on_commit(execute=True):
        tasks.send_renewal_reminders()
    [message] = mail.outbox
    assert NAME in message.subject
    assert_names_the_site(message)


def test_site_url_defaults_to_the_first_allowed_host_in_production():
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECURE", "SITE_URL")}
    env.update(DEBUG="0", SECRET_KEY="x" * 50, ALLOWED_HOSTS="scrabble.example.org,www.scrabble.example.org")
    code = "from django.conf import settings; print(settings.SITE_URL)"
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.stdout.strip().splitlines()[-1] == "https://scrabble.example.org", result.stderr
