"""The cache on Redis: Django's backend, with one Redis client per connection pool rather than one per call.

Django's Redis cache makes a new ``redis.Redis`` object for every cache call, and redis-py fills each new one
with its table of some 250 reply handlers: on a result report, whose throttle and standings request make three
cache calls, that was about a millisecond of a web worker's CPU spent building objects thrown away at once.  A
client holds no connection of its own (the pool does, and hands connections out thread-safely), so one client per
pool serves every call of the process, as redis-py means it to.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis as django_redis


class _Client(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))  # a pool, once made, is kept for the backend's life
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    """``django.core.cache.backends.redis.RedisCache``, reusing its clients (see the module docstring)."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = _Client
