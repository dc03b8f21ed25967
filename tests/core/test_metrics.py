"""``/metrics`` (core.metrics): who may read it, the latency labels, and the domain's figures read at each scrape.

Several gunicorn workers adding up, and a real stream counted, are read from real processes in
tests/integration/test_observability.py.
"""

from __future__ import annotations

import datetime
import re
import uuid

import pytest
import redis
from celery import signals
from django.test import override_settings
from django.utils import timezone

from core import health
from tournaments import tasks
from tournaments.models import Event
from tournaments.services import standings

pytestmark = pytest.mark.django_db

TOKEN = "metrics-test-token"


def _value(text: str, name: str, labels: str = "") -> float | None:
    found = re.search(rf"^{re.escape(name + labels)} (\S+)$", text, re.MULTILINE)
    return None if found is None else float(found[1])


@pytest.fixture
def scrape(client):
    def read() -> str:
        with override_settings(PODIUM_METRICS_TOKEN=TOKEN):
            response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
        assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
        return response.content.decode()

    return read


def test_metrics_is_not_there_unless_a_token_or_networks_are_set(client):
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer anything").status_code == 404


@override_settings(PODIUM_METRICS_TOKEN=TOKEN)
def test_metrics_asks_for_the_bearer_token(client):
    assert client.get("/metrics").status_code == 401
    wrong = client.get("/metrics", HTTP_AUTHORIZATION="Bearer not-the-token")
    assert wrong.status_code == 401 and wrong["WWW-Authenticate"].startswith("Bearer")
    assert client.get("/metrics", HTTP_AUTHORIZATION=f"Token {TOKEN}").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 200


@override_settings(PODIUM_METRICS_NETWORKS=["10.9.0.0/16"], PODIUM_PROXIES=["10.0.0.2"])
def test_metrics_answers_the_listed_networks_seen_through_trusted_proxies_only(client):
    assert client.get("/metrics", REMOTE_ADDR="10.9.4.5").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="10.8.4.5").status_code == 401
    behind = client.get("/metrics", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="10.9.4.5")
    assert behind.status_code == 200
    # A client elsewhere naming a listed address is not believed.
    forged = client.get("/metrics", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="10.9.4.5")
    assert forged.status_code == 401


def test_latency_is_labelled_by_view_and_status_class_never_by_the_raw_path(client, scrape):
    client.get("/api/v1/events/987654/")
    client.get("/no-such-page-4242/")
    text = scrape()
    assert _value(text, "podium_http_request_duration_seconds_count",
                  '{method="GET",status="4xx",view="event-detail"}') >= 1  # fmt: skip
    assert _value(text, "podium_http_request_duration_seconds_count",
                  '{method="GET",status="4xx",view="unmatched"}') >= 1  # fmt: skip
    assert "987654/" not in text and "no-such-page" not in text


def test_an_event_whose_standings_lag_its_results_is_counted_with_its_lag(organiser, scrape):
    event = Event.objects.create(
        name="Lagging", format="deck-masters", planned_rounds=1, organiser=organiser, date=datetime.date(2026, 12, 4)
    )
    standings.bump_results_version(event.pk)
    event.refresh_from_db()
    assert event.standings_stale_since is not None
    Event.objects.filter(pk=event.pk).update(standings_stale_since=timezone.now() - datetime.timedelta(minutes=5))
    text = scrape()
    assert _value(text, "podium_standings_stale_events") >= 1
    assert _value(text, "podium_standings_lag_seconds") >= 300
    standings.standings_recompute(event_id=event.pk)
    event.refresh_from_db()
    assert event.standings_current and event.standings_stale_since is None


def test_failed_tasks_are_counted_per_task_and_the_sweeps_runs_and_age_are_read(scrape):
    before = _value(scrape(), "podium_tasks_failed_total", '{task="tournaments.tasks.recompute_standings"}') or 0
    signals.task_failure.send(sender=tasks.recompute_standings, task_id="t1", exception=RuntimeError("lost"))
    health.record_sweep()
    text = scrape()
    assert _value(text, "podium_tasks_failed_total", '{task="tournaments.tasks.recompute_standings"}') == before + 1
    assert _value(text, "podium_sweeps_total") >= 1
    assert 0 <= _value(text, "podium_sweep_age_seconds") < 60
    assert _value(text, "podium_metrics_source_up", '{source="standings"}') == 1


def test_the_queue_length_is_what_waits_in_the_tasks_queue(settings, scrape):
    if not settings.REDIS_URL:
        pytest.skip("with REDIS_URL unset tasks run in-process: there is no queue")
    queue = f"podium-test-{uuid.uuid4().hex[:8]}"
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.rpush(queue, "a", "b")
    client.rpush(f"{queue}\x06\x163", "c")
    try:
        with override_settings(CELERY_TASK_DEFAULT_QUEUE=queue):
            assert _value(scrape(), "podium_task_queue_length") == 3
    finally:
        client.delete(queue, f"{queue}\x06\x163")


@override_settings(REDIS_URL="redis://127.0.0.1:1/0", PODIUM_LIVE_REDIS_URL="redis://127.0.0.1:1/0", REDIS_TIMEOUT=0.2)
def test_a_source_that_cannot_be_read_is_reported_down_and_the_rest_still_answer(scrape):
    text = scrape()
    assert _value(text, "podium_metrics_source_up", '{source="live"}') == 0
    assert _value(text, "podium_metrics_source_up", '{source="queue"}') == 0
    assert _value(text, "podium_metrics_source_up", '{source="standings"}') == 1
    assert _value(text, "podium_live_open_streams") is None
