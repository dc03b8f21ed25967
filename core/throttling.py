"""Rate limits of the API: per client address for anonymous calls, per account for signed-in writes.

Each limit is a rate (``"60/min"``) for a *scope* in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``.  Requests
are counted with the cache's atomic increment (``INCR`` on Redis), so concurrent requests never slip past a
limit the way a read-then-write history lets them, over a sliding window of the rate's period (see
:class:`WindowThrottle`); past the rate a client gets 429 ``throttled`` with ``Retry-After``.

* The client's address is :func:`core.proxies.client_ip`: forwarded addresses count only from the proxies in
  ``PODIUM_PROXIES``, so a client cannot buy a new allowance with a made-up ``X-Forwarded-For``.
* Counters live in the cache (Redis in production).  When the cache cannot be reached a throttle lets the
  request through (it *fails open*) and logs a warning, at most one every :data:`WARN_EVERY` seconds per
  process, and the process's throttles leave the cache alone for :data:`BREAKER_SECONDS`, so requests do not
  each wait for a connection timeout: reads and anonymous checks keep answering through a Redis outage,
  unthrottled until it is back.
"""

from __future__ import annotations

import logging
import time

from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.throttling import BaseThrottle

from core.proxies import client_ip

logger = logging.getLogger(__name__)

#: While the cache is unreachable, each process logs that its throttles let requests through this often.
WARN_EVERY = 10.0
_last_warning = 0.0
#: After a failed cache call, this process's throttles leave the cache alone for this long: requests are not held
#: up by a connection timeout each while Redis is away.
BREAKER_SECONDS = 5.0
_cache_down_until = 0.0

#: Methods that change something: what the per-account throttle counts.
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"60/min"`` -> ``(60, 60)``: requests, and the window in seconds (``s``, ``min``, ``hour``, ``day``)."""
    count, period = rate.split("/")
    return int(count), _PERIODS[period.strip()[0]]


def _now() -> float:
    return time.time()


def _open_breaker() -> None:
    global _cache_down_until
    _cache_down_until = time.monotonic() + BREAKER_SECONDS


def _warn_open(scope: str) -> None:
    global _last_warning
    now = time.monotonic()
    if now - _last_warning >= WARN_EVERY:
        _last_warning = now
        logger.warning("The cache is unreachable: throttle %r lets requests through until it is back.", scope,
                       exc_info=True)  # fmt: skip


def _count(current: str, previous: str, timeout: int) -> tuple[int, int]:
    """Count one more request in window ``current``; returns its count and window ``previous``'s.

    On Redis one round trip: ``INCR``, ``EXPIRE`` and ``GET`` sent together (a pipeline, not a transaction: each
    command is atomic, which is all the count needs).  The window's key expires ``timeout`` seconds after its last
    request.  Elsewhere (the local-memory cache) with the cache's own calls.
    """
    client = _redis_client(current)
    if client is None:
        cache.add(current, 0, timeout)
        return cache.incr(current), cache.get(previous) or 0
    pipe = client.pipeline(transaction=False)
    pipe.incr(cache.make_and_validate_key(current))
    pipe.expire(cache.make_and_validate_key(current), timeout)
    pipe.get(cache.make_and_validate_key(previous))
    count, _, before = pipe.execute()
    return int(count), int(before or 0)


def _redis_client(key: str):
    """The Redis client holding ``key`` when the cache is Django's Redis cache, else ``None``."""
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        return backend._cache.get_client(key, write=True)
    return None


class WindowThrottle(BaseThrottle):
    """A sliding-window counter per :meth:`ident` in the cache; subclasses set ``scope`` and :meth:`ident`.

    Requests are counted per window of the rate's period with an atomic increment; a request is let through
    while ``previous window's count x the part of it still inside the last period + this window's count`` stays
    within the rate (the sliding-window estimate), so a client gets no fresh allowance at a window's edge.  A
    refused request is taken back out of the count."""

    scope: str = ""

    def __init__(self) -> None:
        from rest_framework.settings import api_settings

        self.limit, self.window = parse_rate(api_settings.DEFAULT_THROTTLE_RATES[self.scope])
        self._retry_after: float | None = None

    def ident(self, request, view) -> str | None:
        """Who is counted (``None``: this request is not)."""
        raise NotImplementedError

    def allow_request(self, request, view) -> bool:
        ident = self.ident(request, view)
        if ident is None or time.monotonic() < _cache_down_until:
            return True
        now = _now()
        start = int(now // self.window) * self.window
        key = f"podium:throttle:{self.scope}:{ident}:"
        try:
            count, previous = _count(key + str(start), key + str(start - self.window), 2 * self.window + 1)
            if previous * (1 - (now - start) / self.window) + count <= self.limit:
                return True
            cache.decr(key + str(start))
        except ValueError:  # the key expired between add and incr: this request starts the window again
            return True
        except Exception:  # noqa: BLE001 - an unreachable cache fails open
            _open_breaker()
            _warn_open(self.scope)
            return True
        self._retry_after = max(1.0, start + self.window - now)
        return False

    def wait(self) -> float | None:
        return self._retry_after


class AnonAddressThrottle(WindowThrottle):
    """Anonymous requests, per client address (signed-in users are not counted here)."""

    def ident(self, request, view) -> str | None:
        if request.user and request.user.is_authenticated:
            return None
        return client_ip(request) or "unknown"


class DeckCheckThrottle(AnonAddressThrottle):
    scope = "deck_checks_anon"


class SignUpThrottle(AnonAddressThrottle):
    scope = "signups_anon"


class UserWriteThrottle(WindowThrottle):
    """Every write (POST, PUT, PATCH, DELETE) of a signed-in account, per account, on every API operation."""

    scope = "writes_user"

    def ident(self, request, view) -> str | None:
        if request.method not in WRITE_METHODS or not (request.user and request.user.is_authenticated):
            return None
        return str(request.user.pk)
