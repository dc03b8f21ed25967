"""``manage.py bench self-reports --quick`` against real PostgreSQL, Redis, gunicorn and a Celery worker.

Latencies are not asserted (the benchmark prints them); what is: the JSON
line's shape, every request answered 2xx, no 5xx and no deadlock, every table
with exactly one result but the disputed ones, and the planned disputes
recorded.  The benchmark deletes what it made.
"""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tournaments.models import Event, Player

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

LATENCY = {"count", "p50_ms", "p95_ms", "p99_ms", "max_ms"}


def test_the_self_reports_benchmark_answers_every_request_and_leaves_one_result_per_undisputed_table():
    out = io.StringIO()
    call_command("bench", "self-reports", "--quick", stdout=out)
    lines = out.getvalue().strip().splitlines()
    figures = json.loads(lines[-1])

    assert figures["area"] == "self-reports"
    assert figures["players"] == 400 and figures["tables"] == 200
    assert figures["defects"] == [], "\n".join(lines)
    assert figures["not_ok"] == 0 and figures["server_errors"] == 0 and figures["deadlocks"] == 0
    assert figures["ok"] == figures["requests"] > 0
    assert [(r["clients"], r["phase"]) for r in figures["runs"]] == [(8, "report then confirm"), (8, "both at once")]
    for run in figures["runs"]:
        assert {"reports", "confirmations", "me"} <= set(run)
        for kind in ("reports", "confirmations", "me"):
            assert set(run[kind]) == LATENCY
        # Every table reported once and answered once (a confirmation, or the second report)...
        assert run["reports"]["count"] == run["confirmations"]["count"] == run["tables"] == 200
        assert run["me"]["count"] > 0
        assert run["ok"] == run["requests"] and run["not_ok"] == run["server_errors"] == run["no_answer"] == 0
        assert run["unexpected_answers"] == {}
        # ...and one result per table, as reported, but at the disputed ones.
        assert run["results"] == run["results_expected"] == run["tables"] - run["disputes_expected"]
        assert run["wrong_results"] == run["double_reports"] == 0
        assert run["disputes"] == run["disputes_expected"]
        assert run["standings_lag_s"] is not None
        assert {"writes_per_s", "me_per_s", "recomputes"} <= set(run)
    first, second = figures["runs"]
    assert first["disputes_expected"] == 0 and second["disputes_expected"] == 20
    assert first["answer_states"] == {"pending": 200, "confirmed": 200}
    assert second["answer_states"] == {"pending": 200, "confirmed": 180, "disputed": 20}
    assert any("tables with exactly one result" in line for line in lines)
    # Cleaned up: the event, its players and their accounts.
    assert not Event.objects.filter(name="bench self-reports").exists()
    assert not Player.objects.filter(display_name__startswith="bench ").exists()
    assert not get_user_model().objects.filter(username__startswith="bench-self-").exists()
