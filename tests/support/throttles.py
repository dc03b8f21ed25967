"""Throttles for the tests: rates of one's own, and client addresses nobody has used.

- :func:`throttle_rates`: override some of ``DEFAULT_THROTTLE_RATES`` (``deck_checks_anon="2/min"``).
- :func:`fresh_address`: an address no earlier request came from (the counters live in the shared cache,
  which outlives a run).
- :func:`forget_counts`: drop a scope's counters (accounts are counted by id, and ids start again each run).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.test import override_settings


def throttle_rates(**rates: str) -> override_settings:
    rest = settings.REST_FRAMEWORK
    return override_settings(
        REST_FRAMEWORK={**rest, "DEFAULT_THROTTLE_RATES": {**rest["DEFAULT_THROTTLE_RATES"], **rates}}
    )


def fresh_address() -> str:
    """An IPv6 documentation address (2001:db8::/32) made up for this call."""
    digits = uuid.uuid4().hex
    return "2001:db8:" + ":".join(digits[i : i + 4] for i in range(0, 24, 4))


def forget_counts(scope: str) -> None:
    """Drop every counter of ``scope`` from the cache (this suite's Redis database, or the local cache)."""
    from django.core.cache import cache

    if not settings.REDIS_URL:
        cache.clear()
        return
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL)
    for key in client.scan_iter(f"*podium:throttle:{scope}:*"):
        client.delete(key)
