"""Reporting results under load and through a broker outage, with real processes.

* A report never waits for the standings: it is recorded while a standings
  write of the same event is stuck.
* Many reports make few recomputes (at most one running and one pending per
  event), and the standings still end up reflecting every result.
* A web server whose Redis is unreachable answers every write with success
  (the write is committed), and the standings catch up on their own: the
  worker's periodic sweep finds them older than the results.
"""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.request
from urllib.error import HTTPError

import pytest
from django.db import connection, connections

from tests.factories import EventFactory, RegistrationFactory
from tests.integration.conftest import start_web
from tests.support.people import token_for
from tournaments import services
from tournaments.models import Event, PodResult, Round, Standing

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _wait(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    pytest.fail(f"{what} within {timeout:.0f} s")


def _current(event: Event) -> bool:
    event.refresh_from_db()
    return event.results_version > 0 and event.standings_current


def _runs(worker, task: str = "recompute_standings") -> int:
    text = worker.log.read_text() if worker.log.exists() else ""
    return len(re.findall(rf"{task}\[[^\]]+\] succeeded", text))


def _one_vs_one_event(organiser, players: int) -> tuple[Event, Round]:
    event = EventFactory(organiser=organiser, format="mintayn-master", planned_rounds=3)
    for _ in range(players):
        RegistrationFactory(event=event)
    return event, services.round_start(event=event, by=organiser, seed=3)


def _tables(round_: Round) -> list[tuple[int, list[int]]]:
    pods = round_.pods.filter(is_bye=False).prefetch_related("seats").order_by("table_number")
    return [(pod.table_number, [s.player_id for s in pod.seats.order_by("seat_order")]) for pod in pods]


def test_a_report_is_recorded_while_a_standings_write_of_the_same_event_is_stuck(organiser):
    assert connection.vendor == "postgresql"
    event, round_ = _one_vs_one_event(organiser, 8)
    (first, (a, b)), (second, (c, d)) = _tables(round_)[:2]
    services.pod_result_report(event=event, round_number=1, table_number=first, placements={a: 1, b: 2}, by=organiser)
    services.standings_recompute(event_id=event.pk)
    # Another session holds a stored standing row, so the next standings write blocks on it.
    blocker = connections.create_connection("default")
    blocker.set_autocommit(False)
    with blocker.cursor() as cursor:
        cursor.execute("SELECT id FROM tournaments_standing WHERE event_id = %s LIMIT 1 FOR UPDATE", [event.pk])
    recompute = threading.Thread(target=lambda: (services.standings_recompute(event_id=event.pk), connection.close()))
    recompute.start()
    try:
        time.sleep(1.0)  # let the recompute reach its write and block there
        assert recompute.is_alive(), "the recompute should be stuck behind the held standing row"
        reporter = threading.Thread(
            target=lambda: (
                services.pod_result_report(
                    event=event, round_number=1, table_number=second, placements={c: 1, d: 2}, by=organiser
                ),
                connection.close(),
            )
        )
        reporter.start()
        # Recorded (committed) while the standings write is still stuck.  (Without a broker the reporting
        # thread then runs its own recompute in-process, which waits its turn; that is not the report.)
        _wait(
            lambda: PodResult.objects.filter(pod__round=round_, pod__table_number=second).exists(),
            15,
            "the report waited for the standings write",
        )
        assert recompute.is_alive()
    finally:
        blocker.rollback()
        blocker.close()
        recompute.join(timeout=30)
        reporter.join(timeout=30)
    assert not recompute.is_alive() and not reporter.is_alive()


def test_reports_made_while_a_recompute_runs_make_one_more_recompute_not_one_each(worker, organiser):
    event, round_ = _one_vs_one_event(organiser, 60)
    tables = _tables(round_)
    services.standings_recompute(event_id=event.pk)
    # Hold a stored standing row: the worker's first recompute gets stuck writing, as a slow one would.
    blocker = connections.create_connection("default")
    blocker.set_autocommit(False)
    with blocker.cursor() as cursor:
        cursor.execute("SELECT id FROM tournaments_standing WHERE event_id = %s LIMIT 1 FOR UPDATE", [event.pk])
    before = _runs(worker)
    try:
        for table, (a, b) in tables:
            services.pod_result_report(
                event=event, round_number=1, table_number=table, placements={a: 1, b: 2}, by=organiser
            )
        time.sleep(1.0)
    finally:
        blocker.rollback()
        blocker.close()
    _wait(lambda: _current(event), 60, "standings not current")
    time.sleep(1.0)
    runs = _runs(worker) - before
    assert 1 <= runs <= 2, f"{runs} recomputes for {len(tables)} reports: one running and one pending at most"
    assert Standing.objects.filter(event=event, points=3).count() == len(tables)
    assert set(Standing.objects.filter(event=event).values_list("results_version", flat=True)) == {
        event.results_version
    }


def _post(base: str, path: str, token: str, body: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body or {}).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def test_a_broker_outage_never_turns_a_committed_write_into_an_error_and_standings_catch_up(
    worker_with_sweeps, organiser, tmp_path
):
    event = EventFactory(organiser=organiser, format="deck-masters", planned_rounds=3)
    for _ in range(10):
        RegistrationFactory(event=event)
    token = token_for(organiser)
    # A web server whose Redis (broker and cache) is unreachable: nothing listens on port 1.
    base, stop = start_web(tmp_path, env={"REDIS_URL": "redis://127.0.0.1:1/0"})
    try:
        status, round_ = _post(base, f"/api/v1/events/{event.pk}/rounds/", token)
        assert status == 201, round_
        assert Round.objects.filter(event=event, number=1).exists()
        for table in round_["tables"]:
            a, b = (s["player"]["id"] for s in table["seats"])
            status, body = _post(
                base,
                f"/api/v1/events/{event.pk}/rounds/1/tables/{table['table']}/result/",
                token,
                {"placements": [{"player": a, "placement": 1}, {"player": b, "placement": 2}]},
            )
            assert status == 201, body
    finally:
        stop()
    log = (tmp_path / "web.log").read_text()
    assert "the sweep will ask again" in log, "the web server should have tried the broker and let it go"
    # Nobody asks again: the worker's periodic sweep finds the stale standings and has them recomputed.
    _wait(lambda: _current(event), 60, "standings did not catch up after the outage")
    assert _runs(worker_with_sweeps, "sweep_stale_standings") >= 1
    assert Standing.objects.filter(event=event, points=3).count() == 5
