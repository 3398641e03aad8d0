"""Django's Redis cache, keeping its Redis client.

Django's client makes a new `redis.Redis` for every cache operation, and each one copies redis-py's table of
about 170 response callbacks: a third of a cache read's CPU. A page the venue's phones poll reads the cache three
or four times, so the client is made once per connection pool and kept (a `redis.Redis` is safe to share; the
pool, which holds the connections, is the one Django made)."""

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient
