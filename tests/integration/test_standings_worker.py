"""Standings computed by a real Celery worker, over real Redis, from real PostgreSQL.

The test session starts ``celery -A config worker`` as a separate process on a
queue of its own, pointed at the test database; results are reported through
the services, whose domain events' standings reader enqueues the standings task to
Redis after the commit.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from django.db import connection

from config.celery import app as celery_app
from tests.factories import EventFactory, RegistrationFactory
from tournaments import services
from tournaments.models import Event, Standing

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


def _wait_for_standings(event: Event, timeout: float = 60.0) -> Event:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event.refresh_from_db()
        if event.results_version and event.standings_current:
            return event
        time.sleep(0.2)
    pytest.fail(f"standings not computed by the worker within {timeout} s (results v{event.results_version})")


def _runs(worker) -> int:
    """How many standings runs the worker has finished (its log says so; no result backend is needed)."""
    text = worker.log.read_text() if worker.log.exists() else ""
    return len(re.findall(r"recompute_standings\[[^\]]+\] succeeded", text))


def test_the_worker_computes_and_stores_standings_after_each_result(worker, organiser):
    assert connection.vendor == "postgresql"
    event = EventFactory(organiser=organiser, format="mintayn-master", planned_rounds=3)
    players = [RegistrationFactory(event=event).player for _ in range(7)]
    round_ = services.round_start(event=event, by=organiser, seed=7)
    tables = list(round_.pods.filter(is_bye=False).prefetch_related("seats").order_by("table_number"))
    for pod in tables:
        first, second = [s.player_id for s in pod.seats.all()]
        services.pod_result_report(
            event=event, round_number=1, table_number=pod.table_number, placements={first: 1, second: 2}, by=organiser
        )
    event = _wait_for_standings(event)
    rows = list(Standing.objects.filter(event=event).order_by("rank", "player_id"))
    assert len(rows) == len(players)
    assert sorted(r.points for r in rows) == sorted([3, 3, 3, 3, 0, 0, 0])  # three winners and the bye
    assert rows[0].points == 3 and rows[-1].points == 0
    assert all(r.results_version == event.results_version for r in rows)
    assert "tournaments.tasks.recompute_standings" in worker.log.read_text(), "the worker, not this process, ran it"


def test_a_second_run_of_the_task_changes_nothing(worker, organiser):
    event = EventFactory(organiser=organiser, format="mt-silver", planned_rounds=2)
    for _ in range(8):
        RegistrationFactory(event=event)
    round_ = services.round_start(event=event, by=organiser, seed=11)
    for pod in round_.pods.prefetch_related("seats").order_by("table_number"):
        ids = [s.player_id for s in pod.seats.all()]
        services.pod_result_report(
            event=event,
            round_number=1,
            table_number=pod.table_number,
            placements={pid: place for place, pid in enumerate(ids, start=1)},
            by=organiser,
        )
    event = _wait_for_standings(event)
    before = list(Standing.objects.filter(event=event).order_by("player_id").values())
    runs = _runs(worker)
    celery_app.send_task(
        "tournaments.tasks.recompute_standings", args=[event.pk], queue=celery_app.conf.task_default_queue
    )
    deadline = time.monotonic() + 60
    while _runs(worker) == runs:
        assert time.monotonic() < deadline, "the worker did not run the task a second time within 60 s"
        time.sleep(0.1)
    after = list(Standing.objects.filter(event=event).order_by("player_id").values())
    strip = lambda rows: [{k: v for k, v in r.items() if k != "id"} for r in rows]  # noqa: E731
    assert strip(after) == strip(before)
