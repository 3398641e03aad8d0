"""The Redis cache production runs (CACHE_URL), on the local Redis."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from clubsite.kit.cache import RedisCache

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def redis_cache(broker_url):
    if not broker_url.startswith("redis://"):
        pytest.skip("the broker is not Redis")
    server = broker_url.rsplit("/", 1)[0] + "/13"  # a database of its own beside the broker's
    cache = RedisCache(server, {"KEY_PREFIX": "test-cache"})
    cache.clear()
    yield cache
    cache.clear()


def test_the_cache_keeps_one_redis_client_and_reads_what_it_wrote(redis_cache):
    client = redis_cache._cache.get_client("a")
    assert redis_cache._cache.get_client("b", write=True) is client  # one server: one pool, one client
    redis_cache.set("a", {"event": [1, 2]}, 30)
    assert redis_cache.get("a") == {"event": [1, 2]}
    assert redis_cache.add("a", "other", 30) is False and redis_cache.get("a") == {"event": [1, 2]}
    redis_cache.delete("a")
    assert redis_cache.get("a", "gone") == "gone"
    assert redis_cache._cache.get_client("a") is client


def test_a_redis_cache_url_gives_this_cache_and_sessions_read_from_it():
    env = {**os.environ, "CACHE_URL": "redis://127.0.0.1:6379/3", "DJANGO_SETTINGS_MODULE": "clubsite.settings"}
    env["DEBUG"] = "1"
    script = "from django.conf import settings; print(settings.CACHES['default']['BACKEND'], settings.SESSION_ENGINE)"
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["clubsite.kit.cache.RedisCache", "django.contrib.sessions.backends.cached_db"]
