"""Faults against the real services: a worker killed mid-task, an unreachable cache, forged forwarded addresses.

* **A worker killed with SIGKILL in the middle of deck checks loses no work.**  Thirty deck checks and a
  standings recompute wait in Redis; the worker takes the first check and is stopped mid-task (its database
  write is held by a lock), then killed with ``kill -9``.  Its message stays unacknowledged in Redis and its
  claim on the deck in the cache.  While no worker runs, the event's standings answer lists its players with
  ``current: false``.  A new worker with the sweeps starts: every deck is checked and the standings are current
  within :func:`core.jobs.healing_bound` (the killed check is done again once its claim expires, by the sweep).
* **With the cache (Redis) unreachable**, pages, API reads, anonymous deck checks (whose throttle keeps its
  counters there) and the health endpoints answer without a 5xx: the throttle lets them through and logs it.
* **Forged X-Forwarded-For** headers buy no new allowance from a real server; behind a configured proxy the
  address the proxy appended is the one counted.

Bounds are waited for with a deadline, and what was measured is reported at the end of the run.
"""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
from urllib.error import HTTPError

import pytest
import redis
from django.conf import settings
from django.db import connection, connections
from rest_framework.test import APIClient

from core import jobs
from decks import services as deck_services
from decks.models import DeckVersion
from tests.factories import EventFactory, RegistrationFactory
from tests.integration.conftest import private_queue, send_to, start_web, start_worker
from tournaments import services
from tournaments.models import Event

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

#: The workers here stop a task after 10 s and sweep every second: a claim left by a killed run lasts 25 s.
TIME_LIMIT, SWEEP = 10, 1
WORKER_ENV = {"PODIUM_TASK_TIME_LIMIT": str(TIME_LIMIT), "PODIUM_SWEEP_SECONDS": str(SWEEP)}
#: A worker process takes this long at most to start (it is waited for, then the bound starts).
START = 60

CSV = "name,card_type,class,level,def,stage,mana_cost\nEmber Whelp,monster,Coreon,2,800,basic,1\n"


def _wait(predicate, deadline: float, what: str) -> None:
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(what)
        time.sleep(0.2)


def _lock_waiters() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def _end_lock_waiters() -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )


def _unacked_on(queue: str) -> int:
    """Messages a worker took from ``queue`` and never acknowledged (kombu keeps them in the ``unacked`` hash)."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    return sum(1 for raw in client.hvals("unacked") if json.loads(raw)[2] == queue)


def test_a_worker_killed_mid_task_loses_no_work_within_the_documented_bound(tmp_path, organiser, report_figure):
    csv = tmp_path / "cards.csv"
    csv.write_text(CSV, encoding="utf-8")
    deck_services.cards_import_mintayn(path=csv)
    decks = EventFactory(organiser=organiser, format="mintayn-master")
    played = EventFactory(organiser=organiser, format="mintayn-master", planned_rounds=3)
    for _ in range(8):
        RegistrationFactory(event=played)
    queue = private_queue()
    undo = send_to(queue)
    try:
        # Thirty checks wait in Redis before any worker runs; their rows are locked, so the first run stalls.
        versions = [
            deck_services.deck_submit(
                registration=RegistrationFactory(event=decks), decklist="3 Ember Whelp", roles={}, by=organiser
            )
            for _ in range(30)
        ]
        blocker = connections.create_connection("default")
        blocker.set_autocommit(False)
        try:
            with blocker.cursor() as cursor:
                cursor.execute(
                    "SELECT id FROM decks_deckversion WHERE id = ANY(%s) FOR UPDATE", [[v.pk for v in versions]]
                )
            first, stop_first = start_worker(tmp_path / "first", env=WORKER_ENV, queue=queue, wait=False)
            try:
                _wait(lambda: _lock_waiters() >= 1, time.monotonic() + START, "the worker never reached its deck write")
                # Meanwhile results are recorded: their standings wait behind the checks.
                round_ = services.round_start(event=played, by=organiser, seed=3)
                for pod in round_.pods.filter(is_bye=False).prefetch_related("seats"):
                    a, b = (s.player_id for s in pod.seats.order_by("seat_order"))
                    services.pod_result_report(
                        event=played, round_number=1, table_number=pod.table_number, placements={a: 1, b: 2},
                        by=organiser,
                    )  # fmt: skip
                os.kill(first.pid, signal.SIGKILL)  # mid-task: its deck write is waiting for the lock
                first.wait(timeout=30)
                # Its database session would still make that write once the lock goes: drop it, as a lost machine's
                # connection is dropped, so the killed run stores nothing.
                _end_lock_waiters()
            finally:
                stop_first()
        finally:
            blocker.rollback()
            blocker.close()
        assert _unacked_on(queue) >= 1, "the killed run's message should be left unacknowledged in Redis"
        assert DeckVersion.objects.filter(pk__in=[v.pk for v in versions], status="pending").count() == 30

        # No worker runs: the standings answer lists the players and says the figures are not current.
        answer = APIClient().get(f"/api/v1/events/{played.pk}/standings/").json()
        assert answer["current"] is False and answer["count"] == 8

        second, stop = start_worker(tmp_path / "second", beat=True, env=WORKER_ENV, queue=queue)
        try:
            started = time.monotonic()
            bound = jobs.healing_bound(time_limit=TIME_LIMIT, sweep_seconds=SWEEP)

            def healed() -> bool:
                pending = DeckVersion.objects.filter(pk__in=[v.pk for v in versions], status="pending").exists()
                event = Event.objects.get(pk=played.pk)
                return not pending and event.results_version > 0 and event.standings_current

            _wait(healed, started + bound, f"work lost with the killed worker was not done within {bound:.0f} s")
            took = time.monotonic() - started
            report_figure(
                "kill -9 mid deck check: every deck checked, standings current", f"{took:.1f} s (bound {bound:.0f} s)"
            )
            assert "sweep_pending_decks" in second.log.read_text()
            assert {v.status for v in DeckVersion.objects.filter(pk__in=[v.pk for v in versions])} == {"illegal"}
            answer = APIClient().get(f"/api/v1/events/{played.pk}/standings/").json()
            assert answer["current"] is True and sorted(r["points"] for r in answer["standings"]) == [0] * 4 + [3] * 4
        finally:
            stop()
    finally:
        undo()


def _get(url: str, **headers) -> tuple[int, str, bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except HTTPError as exc:
        return exc.code, exc.headers.get("Content-Type", ""), exc.read()


def _forget_throttles() -> None:
    """Drop the anonymous deck checks' counters (this suite's Redis database; they outlive a run)."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    for key in client.scan_iter("*podium:throttle:deck_checks_anon:*"):
        client.delete(key)


def _check(base: str, **headers) -> int:
    body = json.dumps({"format": "mintayn-master", "decklist": "1 Ember Whelp"}).encode()
    request = urllib.request.Request(
        base + "/api/v1/deck-checks/", data=body, method="POST", headers={"Content-Type": "application/json", **headers}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except HTTPError as exc:
        return exc.code


def test_with_the_cache_unreachable_pages_reads_and_anonymous_checks_still_answer(tmp_path, organiser, report_figure):
    event = EventFactory(organiser=organiser, format="mintayn-master", planned_rounds=3)
    for _ in range(6):
        RegistrationFactory(event=event)
    services.round_start(event=event, by=organiser, seed=5)
    # Redis (the cache and the broker) is unreachable: nothing listens on port 1.  One deck check a minute.
    base, stop = start_web(
        tmp_path, env={"REDIS_URL": "redis://127.0.0.1:1/0", "PODIUM_DECK_CHECK_RATE": "1/min"}, pages=True
    )
    try:
        answers = {}
        for path in ("/", f"/events/{event.pk}/", f"/events/{event.pk}/standings/", f"/events/{event.pk}/pairings/",
                     "/api/v1/events/", f"/api/v1/events/{event.pk}/", f"/api/v1/events/{event.pk}/standings/",
                     f"/api/v1/events/{event.pk}/rounds/", "/api/v1/formats/", "/health/live/"):  # fmt: skip
            answers[path] = _get(base + path)[0]
        checks = [_check(base) for _ in range(5)]
        status, _, body = _get(base + "/health/ready/")
    finally:
        stop()
    assert set(answers.values()) == {200}, answers
    assert checks == [200] * 5, "the throttle should let anonymous checks through while its counters are away"
    ready = json.loads(body)
    assert status == 200 and ready["status"] == "degraded"
    assert (
        not ready["checks"]["cache"]["ok"] and not ready["checks"]["broker"]["ok"] and ready["checks"]["database"]["ok"]
    )
    log = (tmp_path / "web.log").read_text()
    assert "throttle 'deck_checks_anon' lets requests through" in log
    assert " 500 " not in log and "Internal Server Error" not in log
    report_figure("cache unreachable", f"{len(answers)} reads and 5 anonymous checks, 0 errors; ready: degraded")


def test_forged_forwarded_addresses_buy_no_new_allowance_from_a_real_server(tmp_path, report_figure):
    _forget_throttles()
    base, stop = start_web(tmp_path / "direct", env={"PODIUM_DECK_CHECK_RATE": "3/hour"})
    try:
        honest = [_check(base) for _ in range(3)]
        forged = [_check(base, **{"X-Forwarded-For": f"203.0.113.{n}"}) for n in range(20)]
    finally:
        stop()
    assert honest == [200] * 3 and forged == [429] * 20
    # Behind a proxy the server trusts (here: this machine), the address the proxy appended is the client.
    base, stop = start_web(
        tmp_path / "proxied", env={"PODIUM_DECK_CHECK_RATE": "3/hour", "PODIUM_PROXIES": "127.0.0.1"}
    )
    try:
        client = "198.51.100.7, 192.0.2.7"  # what the client's own proxy wrote, then what ours appended
        mine = [_check(base, **{"X-Forwarded-For": client}) for _ in range(4)]
        spoofed = _check(base, **{"X-Forwarded-For": f"10.9.9.9, {client.split(', ')[1]}"})
        other = _check(base, **{"X-Forwarded-For": "192.0.2.250, 198.51.100.250"})
    finally:
        stop()
    assert mine == [200, 200, 200, 429] and spoofed == 429
    assert other == 200
    report_figure("forged X-Forwarded-For", "20 forged after the limit: 20 x 429, 0 x 200")
