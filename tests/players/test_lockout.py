"""Failed log-ins lock an account out for a while, through the log-in page and the API token alike,
counted in a store every worker process shares (never in one process's memory)."""

import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-good-passphrase-42"
LIMIT = 5  # ACCOUNT_RATE_LIMITS["login_failed"]: 5 per address in 5 minutes


@pytest.fixture
def member():
    user = UserFactory(email="locked@example.org")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def page_login(client, password):
    return client.post(reverse("account_login"), {"login": "locked@example.org", "password": password})


def token(password, login="locked@example.org"):
    return APIClient().post("/api/auth/token/", {"username": login, "password": password})


def test_the_log_in_page_locks_out_after_five_wrong_passwords(client, member):
    for _ in range(LIMIT):
        page_login(client, "wrong")
    response = page_login(client, PASSWORD)
    assert "_auth_user_id" not in client.session
    assert "Too many failed login attempts" in response.content.decode()


def test_the_token_endpoint_locks_out_after_five_wrong_passwords(member):
    assert token(PASSWORD).status_code == 200
    assert [token("wrong").status_code for _ in range(LIMIT)] == [400] * LIMIT
    locked = token(PASSWORD)
    assert locked.status_code == 429 and "Too many failed" in locked.json()["detail"]
    # The user name counts against the same account as the email address.
    assert token(PASSWORD, login=member.username).status_code == 429


def test_a_correct_password_does_not_reset_the_count(member):
    for _ in range(LIMIT - 1):
        token("wrong")
    assert token(PASSWORD).status_code == 200
    assert token("wrong").status_code == 400
    assert token(PASSWORD).status_code == 429


def test_the_page_and_the_api_share_one_count(client, member):
    for _ in range(3):
        page_login(client, "wrong")
    for _ in range(LIMIT - 3):
        token("wrong")
    assert token(PASSWORD).status_code == 429
    page_login(client, PASSWORD)
    assert "_auth_user_id" not in client.session


def _fail_then_try(clients, member):
    """LIMIT failures through the first cache client, then the right password through the second,
    as two worker processes would each hold their own client."""
    with mock.patch("allauth.core.internal.ratelimit.cache", clients[0]):
        for _ in range(LIMIT):
            assert token("wrong").status_code == 400
    with mock.patch("allauth.core.internal.ratelimit.cache", clients[1]):
        return token(PASSWORD).status_code


def test_the_limit_holds_across_two_separate_cache_clients(member):
    first, second = caches.create_connection("default"), caches.create_connection("default")
    assert first is not second and not isinstance(first, LocMemCache)
    assert _fail_then_try([first, second], member) == 429


def test_control_per_process_memory_would_let_the_second_worker_in(member):
    """Without a shared store (each process its own memory) the second worker knows nothing."""
    first, second = LocMemCache("worker-1", {}), LocMemCache("worker-2", {})
    assert _fail_then_try([first, second], member) == 200


def _cache_backend(**env) -> str:
    root = Path(settings.BASE_DIR)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "clubsite.settings", "SECRET_KEY": "x", **env}
    code = "from django.conf import settings; print(settings.CACHES['default']['BACKEND'])"
    return subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True).stdout


def test_the_cache_is_the_database_by_default_and_redis_when_configured():
    base = {k: v for k, v in os.environ.items() if k not in ("CACHE_URL", "REDIS_URL")}
    with mock.patch.dict(os.environ, base, clear=True):
        assert "db.DatabaseCache" in _cache_backend()
        # Django's Redis cache, keeping its client (clubsite/kit/cache.py).
        assert _cache_backend(REDIS_URL="redis://cache.internal:6379/1").strip() == "clubsite.kit.cache.RedisCache"
        assert _cache_backend(CACHE_URL="redis://cache.internal:6379/2").strip() == "clubsite.kit.cache.RedisCache"
