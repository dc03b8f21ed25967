"""Throttles: per address for anonymous calls (only trusted proxies may name another), per account for writes,
counted atomically over a sliding window, and open (with a warning) when the cache is unreachable."""

from __future__ import annotations

import logging
import time

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from core import throttling
from tests.support.events import make_event
from tests.support.people import token_for
from tests.support.throttles import forget_counts, fresh_address, throttle_rates

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _breaker_closed():
    """Each test starts, and leaves the next, with the throttles using the cache."""
    throttling._cache_down_until = 0.0
    yield
    throttling._cache_down_until = 0.0


CHECK = "/api/v1/deck-checks/"
BODY = {"format": "mintayn-master", "decklist": "1 Nobody Known"}


def checks(client, times: int, **extra) -> list[int]:
    return [client.post(CHECK, BODY, format="json", **extra).status_code for _ in range(times)]


def test_a_forged_x_forwarded_for_buys_no_new_allowance():
    client = APIClient(REMOTE_ADDR=fresh_address())
    with throttle_rates(deck_checks_anon="3/hour"):
        assert checks(client, 3) == [200, 200, 200]
        forged = [checks(client, 1, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")[0] for n in range(20)]
    assert forged == [429] * 20


def test_behind_a_trusted_proxy_each_client_it_names_has_its_own_allowance(settings):
    proxy = fresh_address()
    settings.PODIUM_PROXIES = [proxy + "/128"]
    client = APIClient(REMOTE_ADDR=proxy)
    me, other = fresh_address(), fresh_address()
    with throttle_rates(deck_checks_anon="2/hour"):
        assert checks(client, 3, HTTP_X_FORWARDED_FOR=me) == [200, 200, 429]
        # What the client wrote itself (left of what the proxy appended) does not count.
        assert checks(client, 1, HTTP_X_FORWARDED_FOR=f"{fresh_address()}, {me}") == [429]
        assert checks(client, 2, HTTP_X_FORWARDED_FOR=other) == [200, 200]


def test_the_count_slides_past_the_edge_of_a_window(monkeypatch):
    client = APIClient(REMOTE_ADDR=fresh_address())
    now = [36_000.0 * 1000 + 3590.0]  # ten seconds before an hour's window ends
    monkeypatch.setattr(throttling, "_now", lambda: now[0])
    with throttle_rates(deck_checks_anon="4/hour"):
        assert checks(client, 4) == [200, 200, 200, 200]
        now[0] += 20  # into the next window: the last window's four still count, nearly whole
        assert checks(client, 1) == [429]
        now[0] += 3600 * 0.75  # three quarters on: one of the four is still counted
        assert checks(client, 4) == [200, 200, 200, 429]


def test_signed_in_writes_are_throttled_per_account_and_reads_are_not(organiser, outsider):
    forget_counts("writes_user")
    event = make_event(organiser, 0)
    mine = APIClient()
    mine.credentials(HTTP_AUTHORIZATION=f"Token {token_for(organiser)}")
    theirs = APIClient()
    theirs.credentials(HTTP_AUTHORIZATION=f"Token {token_for(outsider)}")
    url = f"/api/v1/events/{event.pk}/"
    with throttle_rates(writes_user="3/hour"):
        writes = [mine.patch(url, {"venue": f"Hall {n}"}, format="json").status_code for n in range(4)]
        assert writes == [200, 200, 200, 429]
        refused = mine.patch(url, {"venue": "Hall X"}, format="json")
        assert refused.json()["error"]["code"] == "throttled" and "Retry-After" in refused
        assert mine.get(url).status_code == 200  # reads are not counted
        assert theirs.patch(url, {"venue": "Mine"}, format="json").status_code == 403  # their own allowance


UNREACHABLE = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


@override_settings(CACHES=UNREACHABLE)
def test_with_the_cache_unreachable_throttles_let_requests_through_and_say_so(caplog, monkeypatch):
    monkeypatch.setattr(throttling, "_last_warning", 0.0)
    client = APIClient(REMOTE_ADDR=fresh_address())
    with throttle_rates(deck_checks_anon="1/hour"), caplog.at_level(logging.WARNING, logger="core.throttling"):
        assert checks(client, 3) == [200, 200, 200]
    warnings = [r for r in caplog.records if "lets requests through" in r.getMessage()]
    assert len(warnings) == 1  # once per WARN_EVERY seconds, not once per request
    # The first request met the timeout; the breaker keeps the next ones off the cache for a while.
    assert throttling._cache_down_until > time.monotonic()
