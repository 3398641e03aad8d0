"""The Redis cache production runs (CACHE_URL), on the local Redis."""

import pytest

from clubsite.kit.cache import RedisCache


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
