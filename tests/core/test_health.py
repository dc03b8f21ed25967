"""The health endpoints: liveness touches nothing; readiness reports each part and fails only without a database."""

from __future__ import annotations

import pytest
from django.test import override_settings

from core import health

pytestmark = pytest.mark.django_db

UNREACHABLE_CACHE = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


def test_liveness_answers_ok_and_is_never_cached(client):
    response = client.get("/health/live/")
    assert response.status_code == 200 and response.json() == {"status": "ok"}
    assert "no-cache" in response["Cache-Control"]
    assert client.post("/health/live/").status_code == 405


@override_settings(REDIS_URL=None)
def test_on_the_embedded_default_readiness_is_ready_with_in_process_work(client):
    body = client.get("/health/ready/").json()
    assert body["status"] == "ready"
    assert set(body["checks"]) == {"database", "cache", "broker", "worker", "sweeps"}
    assert body["checks"]["broker"]["detail"] == body["checks"]["worker"]["detail"] == health.IN_PROCESS


@override_settings(REDIS_URL="redis://127.0.0.1:1/0", CACHES=UNREACHABLE_CACHE)
def test_without_the_cache_readiness_is_degraded_but_still_200(client):
    response = client.get("/health/ready/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded" and body["checks"]["database"]["ok"] is True
    assert body["checks"]["cache"] == {"ok": False, "error": "ConnectionError", "ms": body["checks"]["cache"]["ms"]}
    assert body["checks"]["worker"]["ok"] is False


def test_a_worker_heartbeat_and_a_sweep_count_while_recent(client, settings, monkeypatch):
    if not settings.REDIS_URL:
        pytest.skip("with REDIS_URL unset there is no shared cache to read heartbeats from")
    health.beat(health.HEARTBEAT_KEY)
    health.beat(health.SWEEPS_KEY)
    checks = client.get("/health/ready/").json()["checks"]
    assert checks["worker"]["ok"] and checks["sweeps"]["ok"] and checks["worker"]["seconds_ago"] < 30
    later = health.time.time() + 10 * health.HEARTBEAT_SECONDS
    monkeypatch.setattr(health.time, "time", lambda: later)
    assert client.get("/health/ready/").json()["checks"]["worker"]["ok"] is False


def test_without_the_database_readiness_is_503(client, monkeypatch):
    def down():
        raise ConnectionRefusedError

    monkeypatch.setattr(health, "_database", down)
    response = client.get("/health/ready/")
    assert response.status_code == 503 and response.json()["status"] == "unavailable"
