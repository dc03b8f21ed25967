"""Health endpoints for operators and load balancers, and the heartbeats they read.

* ``GET /health/live/``: the process answers (200 ``{"status": "ok"}``); it touches nothing else, so a load
  balancer restarts a process only when the process itself is stuck.
* ``GET /health/ready/``: whether this process can serve, with each part it depends on::

      {"status": "ready", "checks": {"database": {"ok": true, "ms": 1.2}, "cache": {...}, "broker": {...},
       "worker": {"ok": true, "seconds_ago": 4.1}, "sweeps": {"ok": true, "seconds_ago": 12.0}}}

  The database is what a request cannot do without: without it the answer is 503 ``unavailable``.  Without the
  cache, the broker, a worker's heartbeat or the sweeps, pages and reads still answer (throttles fail open,
  sending a task gives up quickly, the sweeps catch up later), so the answer stays 200 with ``degraded``: an
  operator's alert, not a reason for a load balancer to take the process out.

Workers write a heartbeat to the cache every :data:`HEARTBEAT_SECONDS` (a bootstep in :mod:`config.celery`);
the sweeps write when they last ran and count their runs, and workers count the tasks that failed
(:func:`record_task_failure`, on Celery's ``task_failure`` signal): ``/metrics`` reads them (:mod:`core.metrics`).  Without ``REDIS_URL`` tasks and sweeps run in-process and there is no
shared cache to read them from, so those checks say so (``"in-process"``) and count as healthy.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)

#: How often a worker writes its heartbeat; it counts as alive for three of them.
HEARTBEAT_SECONDS = 10.0
HEARTBEAT_KEY = "podium:health:worker"
SWEEPS_KEY = "podium:health:sweeps"
SWEEP_RUNS_KEY = "podium:health:sweep-runs"
FAILED_KEY = "podium:health:failed:"

IN_PROCESS = "in-process (no REDIS_URL)"


def beat(key: str) -> None:
    """Write ``key``'s heartbeat (the time now) to the cache; never raises."""
    try:
        cache.set(key, time.time(), timeout=int(HEARTBEAT_SECONDS * 30))
    except Exception:  # noqa: BLE001 - a heartbeat that cannot be written is what the readiness check reports
        logger.warning("Could not write the heartbeat %s.", key, exc_info=True)


def record_sweep() -> None:
    """A sweep ran: its heartbeat (the readiness check) and the count of runs (``/metrics``); never raises."""
    beat(SWEEPS_KEY)
    _count(SWEEP_RUNS_KEY)


def record_task_failure(task_name: str) -> None:
    """A task failed for good (its retries spent, or its time limit reached): counted per task; never raises."""
    _count(FAILED_KEY + task_name)


def _count(key: str) -> None:
    try:
        cache.add(key, 0, timeout=None)
        cache.incr(key)
    except Exception:  # noqa: BLE001 - a count that cannot be written must not fail the task that counts
        logger.warning("Could not count %s.", key, exc_info=True)


def seconds_since(key: str) -> float | None:
    """Seconds since ``key``'s heartbeat was written; ``None``: never (or the cache has forgotten it)."""
    last = cache.get(key)
    return None if last is None else max(0.0, time.time() - float(last))


def sweep_runs() -> int:
    return int(cache.get(SWEEP_RUNS_KEY) or 0)


def task_failures(task_names: list[str]) -> dict[str, int]:
    """How many times each of these tasks failed (tasks that never failed are left out)."""
    found = cache.get_many([FAILED_KEY + name for name in task_names])
    return {key.removeprefix(FAILED_KEY): int(count) for key, count in found.items()}


def _timed(check: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        found = check()
    except Exception as exc:  # noqa: BLE001 - a part that is down is a finding, not an error of this view
        found = {"ok": False, "error": type(exc).__name__}
    found.setdefault("ms", round((time.perf_counter() - started) * 1000, 1))
    return found


def _database() -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"ok": True}


def _cache() -> dict[str, Any]:
    token = uuid.uuid4().hex
    cache.set("podium:health:probe", token, timeout=10)
    return {"ok": cache.get("podium:health:probe") == token}


def _broker() -> dict[str, Any]:
    if not settings.REDIS_URL:
        return {"ok": True, "detail": IN_PROCESS}
    with current_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=settings.REDIS_TIMEOUT)
    return {"ok": True}


def _recent(key: str, within: float) -> dict[str, Any]:
    if not settings.REDIS_URL:
        return {"ok": True, "detail": IN_PROCESS}
    ago = seconds_since(key)
    if ago is None:
        return {"ok": False, "detail": "never seen"}
    return {"ok": ago <= within, "seconds_ago": round(ago, 1)}


@never_cache
@require_safe
def live(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


@never_cache
@require_safe
def ready(request: HttpRequest) -> JsonResponse:
    checks = {
        "database": _timed(_database),
        "cache": _timed(_cache),
        "broker": _timed(_broker),
        "worker": _timed(lambda: _recent(HEARTBEAT_KEY, 3 * HEARTBEAT_SECONDS)),
        "sweeps": _timed(lambda: _recent(SWEEPS_KEY, 3 * settings.PODIUM_SWEEP_SECONDS)),
    }
    if not checks["database"]["ok"]:
        return JsonResponse({"status": "unavailable", "checks": checks}, status=503)
    status = "ready" if all(check["ok"] for check in checks.values()) else "degraded"
    return JsonResponse({"status": status, "checks": checks})
