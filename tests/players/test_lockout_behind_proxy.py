"""Behind the HTTPS proxy the README recommends, every request comes from the proxy. The lockout counts failed
log-ins per client (the address the trusted proxy names) and per account, so one client's failures lock out neither
everyone else nor, by changing address, fail to lock the account they guess at."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.events.factories import fast_passwords  # noqa: F401
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_passwords")]

PASSWORD = "a-good-passphrase-42"
PROXY = "127.0.0.1"  # nginx on the same machine, as `make serve HOST=127.0.0.1:8000` expects
PER_ADDRESS = 10  # ACCOUNT_RATE_LIMITS["login_failed"]: 10 a minute from one client address
PER_ACCOUNT = 5  # and 5 in 5 minutes for one account


@pytest.fixture(autouse=True)
def behind_the_proxy(settings):
    settings.TRUSTED_PROXIES = [PROXY]
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"


@pytest.fixture
def member():
    user = UserFactory(email="member@example.org")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def via(client_address, remote=PROXY, forwarded=None, **extra):
    """What gunicorn hands the site for a request from `client_address`: the proxy is the peer, and it appends the
    address it was reached from to whatever X-Forwarded-For the client sent."""
    chain = f"{forwarded}, {client_address}" if forwarded else client_address
    return {"REMOTE_ADDR": remote, "HTTP_X_FORWARDED_FOR": chain, **extra}


def page_login(login, password, **meta):
    client = Client()
    response = client.post(reverse("account_login"), {"login": login, "password": password}, **meta)
    return "_auth_user_id" in client.session, response


def token(login, password, **meta):
    return APIClient().post("/api/auth/token/", {"username": login, "password": password}, **meta).status_code


def fail_from(address, count, **extra):
    """`count` wrong passwords from one client, each for a different login (so that no account's limit is reached)."""
    for n in range(count):
        if n % 2:
            assert token(f"guess{n}@example.org", "wrong", **via(address, **extra)) == 400
        else:
            assert page_login(f"guess{n}@example.org", "wrong", **via(address, **extra))[0] is False


def test_one_clients_failures_do_not_lock_out_another_client(member):
    fail_from("198.51.100.1", PER_ADDRESS)
    assert page_login(member.email, PASSWORD, **via("198.51.100.2"))[0] is True
    assert token(member.email, PASSWORD, **via("198.51.100.2")) == 200
    # The failing client itself is locked out, by either door.
    assert token(member.email, PASSWORD, **via("198.51.100.1")) == 429
    logged_in, response = page_login(member.email, PASSWORD, **via("198.51.100.1"))
    assert not logged_in and "Too many failed login attempts" in response.content.decode()


def test_a_chain_of_trusted_proxies_is_followed_to_the_client(settings, member):
    settings.TRUSTED_PROXIES = [PROXY, "10.0.0.0/8"]  # a load balancer in front of nginx
    fail_from("10.1.2.3", PER_ADDRESS, forwarded="203.0.113.50, 198.51.100.1")
    assert token(member.email, PASSWORD, **via("10.1.2.3", forwarded="198.51.100.2")) == 200
    assert token(member.email, PASSWORD, **via("10.1.2.3", forwarded="198.51.100.1")) == 429


def test_failures_against_one_account_from_many_addresses_lock_the_account(member):
    """Each attempt from another address, on another host name or port, by email or user name: one counter."""
    attempts = [
        lambda n: page_login(member.email, "wrong", **via(f"198.51.100.{n}"))[0],
        lambda n: token(member.username, "wrong", **via(f"198.51.100.{n}", HTTP_HOST=f"localhost:{8000 + n}")),
        lambda n: page_login(member.email.upper(), "wrong", **via(f"203.0.113.{n}", HTTP_HOST="127.0.0.1"))[0],
    ]
    for n in range(PER_ACCOUNT):
        assert attempts[n % len(attempts)](n + 1) in (False, 400)
    assert token(member.email, PASSWORD, **via("192.0.2.77")) == 429
    assert token(member.username, PASSWORD, **via("192.0.2.78", HTTP_HOST="localhost:9999")) == 429
    assert page_login(member.email, PASSWORD, **via("192.0.2.79", HTTP_HOST="localhost:9998"))[0] is False


def test_another_account_is_not_locked_by_the_first_ones_failures(member):
    other = UserFactory(email="other@example.org")
    EmailAddress.objects.create(user=other, email=other.email, verified=True, primary=True)
    for n in range(PER_ACCOUNT):
        assert token(member.email, "wrong", **via(f"198.51.100.{n + 1}")) == 400
    assert token(member.email, PASSWORD, **via("192.0.2.1")) == 429
    assert token(other.email, PASSWORD, **via("192.0.2.1")) == 200


def test_a_forged_x_forwarded_for_from_an_untrusted_peer_is_ignored(member):
    """A client reaching the site directly cannot pose as many clients: its own address is what counts."""
    attacker = "203.0.113.9"
    for n in range(PER_ADDRESS):
        assert token(f"guess{n}@example.org", "wrong", **via(f"198.51.100.{n + 1}", remote=attacker)) == 400
    assert token(member.email, PASSWORD, **via("198.51.100.200", remote=attacker)) == 429
    # Nor does it lock out the addresses it named.
    assert token(member.email, PASSWORD, **via("198.51.100.1")) == 200


def test_without_trusted_proxies_the_header_is_ignored(settings, member):
    settings.TRUSTED_PROXIES = []
    fail_from("198.51.100.1", PER_ADDRESS)
    # Every request came from 127.0.0.1 and said otherwise: all of them count against 127.0.0.1.
    assert token(member.email, PASSWORD, **via("198.51.100.2")) == 429


def test_a_password_reset_unlocks_the_account(member, mailoutbox, on_commit):
    for n in range(PER_ACCOUNT):
        assert token(member.username, "wrong", **via(f"198.51.100.{n + 1}")) == 400
    assert token(member.email, PASSWORD, **via("192.0.2.1")) == 429
    client = Client()
    with on_commit(execute=True):
        client.post(reverse("account_reset_password"), {"email": member.email}, **via("192.0.2.1"))
    (message,) = [m for m in mailoutbox if "Password Reset" in m.subject]
    link = re.search(r"https?://[^/\s]+(/\S+)", message.body).group(1)
    form = client.get(link, follow=True, **via("192.0.2.1"))
    new = "a-new-passphrase-43"
    client.post(form.redirect_chain[-1][0], {"password1": new, "password2": new}, **via("192.0.2.1"))
    assert token(member.email, new, **via("192.0.2.2")) == 200
