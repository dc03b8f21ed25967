"""core.jobs: coalesced, in-process runs on the embedded default, and sends that never fail the caller.

The work here is a small task registered for these tests (it counts its runs
and can be held mid-run); what is tested is the job machinery around it: the
same machinery every service uses to ask for standings and deck checks.
"""

from __future__ import annotations

import threading

import pytest
from django.core.cache import cache

from config.celery import app
from core import jobs

RUNS: list[int] = []
GATE = threading.Event()
STARTED = threading.Event()


@app.task(name="tests.core.counted_job")
def counted_job(value: int, hold: bool = False) -> int:
    STARTED.set()
    if hold:
        GATE.wait(timeout=10)
    RUNS.append(value)
    return value


@app.task(name="tests.core.failing_job")
def failing_job() -> None:
    raise RuntimeError("the work failed")


@pytest.fixture(autouse=True)
def _clean():
    RUNS.clear()
    GATE.clear()
    STARTED.clear()
    jobs._running.clear()
    jobs._pending.clear()
    jobs._broker_down_until = 0.0
    cache.clear()
    yield
    GATE.set()
    jobs._broker_down_until = 0.0


def test_a_job_runs_in_process_when_there_is_no_broker():
    assert app.conf.task_always_eager
    assert jobs.enqueue("tests.core.counted_job", 1, key="k") is True
    assert RUNS == [1]


def test_asking_again_while_a_run_is_going_marks_one_pending_run_and_returns_at_once():
    first = threading.Thread(target=jobs.enqueue, args=("tests.core.counted_job", 1, True), kwargs={"key": "k"})
    first.start()
    assert STARTED.wait(timeout=10)
    # Three more requests while the first run is held: none of them waits, and they make one pending run.
    for value in (2, 3, 4):
        assert jobs.enqueue("tests.core.counted_job", value, key="k") is True
    assert jobs._pending == {"k"}
    assert RUNS == []
    GATE.set()
    first.join(timeout=10)
    # The first caller waited for its own run only; the pending run went to a background thread.
    deadline = threading.Event()
    for _ in range(100):
        if len(RUNS) == 2 and not jobs._running:
            break
        deadline.wait(0.05)
    assert RUNS == [1, 1], "one run, then exactly one more for everything asked meanwhile"
    assert not jobs._running and not jobs._pending


def test_jobs_with_different_keys_do_not_coalesce():
    jobs.enqueue("tests.core.counted_job", 1, key="a")
    jobs.enqueue("tests.core.counted_job", 2, key="b")
    assert RUNS == [1, 2]


def test_a_failing_job_is_logged_and_never_raised_into_the_caller(caplog):
    assert jobs.enqueue("tests.core.failing_job", key="f") is True
    assert "failed in-process" in caplog.text and "the work failed" in caplog.text
    assert not jobs._running


def test_a_pending_run_is_held_back_until_spacing_after_the_last_run_started():
    assert jobs.spaced(None, 1.0, 100.0) is None  # no run yet: at once
    assert jobs.spaced(99.75, 1.0, 100.0) == pytest.approx(0.75)
    assert jobs.spaced(98.0, 1.0, 100.0) is None  # long enough ago
    assert jobs.spaced(150.0, 1.0, 100.0) == 1.0  # a clock that went back never holds a run for longer


def test_claiming_records_when_the_run_started():
    with jobs.claim("k"):
        assert cache.get(jobs._started_key("k")) is not None


def test_claim_holds_a_key_once_and_clears_its_pending_mark():
    cache.add(jobs._pending_key("k"), 1)
    with jobs.claim("k") as first:
        assert first is True
        assert cache.get(jobs._pending_key("k")) is None, "anything committed from now on asks for a new run"
        with jobs.claim("k") as second:
            assert second is False, "a second run stays pending while the first holds the key"
    with jobs.claim("k") as again:
        assert again is True


def test_an_unreachable_broker_never_raises_and_stops_further_attempts_for_a_while(settings):
    app.conf.task_always_eager = False
    old = app.conf.broker_url, app.conf.broker_connection_timeout
    app.conf.broker_url = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    app.conf.broker_connection_timeout = 0.5
    # A pool of its own for that broker.  Never close the app's pool: kombu keeps one per broker URL for the whole
    # process, and the workers' tests that run later in this process ping their worker through it.
    app._pool = None
    app.amqp._producer_pool = None
    try:
        assert jobs.enqueue("tests.core.counted_job", 1, key="k") is False
        assert cache.get(jobs._pending_key("k")) is None, "a send that failed leaves no pending mark behind"
        assert jobs._broker_down_until > 0
        assert jobs.enqueue("tests.core.counted_job", 2, key="k") is False  # the breaker: no second attempt
        assert RUNS == []
    finally:
        app.conf.task_always_eager = True
        app.conf.broker_url, app.conf.broker_connection_timeout = old
        app._pool = None
        app.amqp._producer_pool = None
