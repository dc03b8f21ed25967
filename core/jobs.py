"""Handing work to Celery: by task name, after commit, coalesced, and never failing the write that asked.

Services never hand work to Celery: they record a domain event
(:mod:`core.events`), and its readers, which run after the commit, call
:func:`enqueue` with the task's registered name (tasks import services, so no
module imports a task module).  The task runs in a worker when ``REDIS_URL`` is
set, in-process otherwise (``task_always_eager``).

Terms
=====

A *job* is one task run for one *key* (``standings:42``: the standings of
event 42).  Asking for a job makes it *pending*; a run that starts *claims* the
key, which clears the pending mark, and holds it while *running*.  Per key there
is at most one pending and one running job: asking again while one is pending
changes nothing, because the pending run has not started yet and will read
everything committed before it does.  A run that finds another run holding the
key stays pending and tries again shortly (:func:`claim`).  Jobs without a key
are sent every time.

Guarantees
==========

* Asking never fails the committed write that asked, and never holds a request
  for long: the broker gets one short attempt (``CELERY_BROKER_CONNECTION_TIMEOUT``,
  one retry); if it fails, this process stops trying for
  :data:`BREAKER_SECONDS` and the request goes on.  Nothing is lost: the
  database, not the broker, records what is left to do (standings older than
  the results, deck versions still pending), and the periodic sweeps (Celery
  beat) ask again for whatever is undone, so the work catches up on its own
  once the broker is back.
* In-process (no ``REDIS_URL``), a job runs in the thread that committed,
  unless a run of the same key is already running in this process: then it is
  marked pending and the running thread hands it to a background thread when it
  finishes.  So a request waits for at most one run, never for a queue of them.

A worker that dies
==================

Tasks are acknowledged late: a run killed with its worker (``kill -9``, a lost
machine) leaves its message unacknowledged in Redis, and its claim on the key
in the cache.  Nothing waits for the message (Redis hands it out again after
``visibility_timeout``): the claim expires :data:`CLAIM_MARGIN` seconds after
the longest a run may last (``PODIUM_TASK_TIME_LIMIT``, after which the worker
stops it), a pending mark after :data:`PENDING_SECONDS`, and the sweeps ask
again for whatever the database says is undone every ``PODIUM_SWEEP_SECONDS``.
So once a worker and the sweeps run, any loss heals within
:func:`healing_bound` seconds.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)

#: After a failed send, this process leaves the broker alone for this long (the sweeps catch up).
BREAKER_SECONDS = 5.0
#: A pending mark outlives a lost message by this long at most; then a sweep may ask again.
PENDING_SECONDS = 60
#: A run's claim outlives the longest run (``CELERY_TASK_TIME_LIMIT``) by this long: then it expires, even if the
#: process holding it died without letting go.
CLAIM_MARGIN = 15


def running_seconds() -> int:
    """How long a run's claim on its key lasts: the task time limit and :data:`CLAIM_MARGIN`."""
    return int(settings.CELERY_TASK_TIME_LIMIT) + CLAIM_MARGIN


def healing_bound(*, time_limit: float | None = None, sweep_seconds: float | None = None) -> float:
    """Seconds within which work lost with a worker is done again, once a worker and the sweeps run: a claim
    or a pending mark of the lost run expires, the next sweep asks again, and a run does it (given the time
    limit, at most).  ``time_limit`` and ``sweep_seconds`` default to this process's settings."""
    limit = settings.CELERY_TASK_TIME_LIMIT if time_limit is None else time_limit
    sweep = settings.PODIUM_SWEEP_SECONDS if sweep_seconds is None else sweep_seconds
    return max(PENDING_SECONDS, limit + CLAIM_MARGIN) + sweep + limit


_broker_down_until = 0.0


def _app():
    # The project's Celery app (config.celery) is the current one once Django has started; core asks for it
    # rather than importing the configuration layer above it.
    return current_app


def _task(name: str):
    app = _app()
    if name not in app.tasks:  # task modules load on first use, as a worker loads them at start
        app.loader.import_default_modules()
    return app.tasks[name]


def _pending_key(key: str) -> str:
    return f"podium:job:pending:{key}"


def _running_key(key: str) -> str:
    return f"podium:job:running:{key}"


def _started_key(key: str) -> str:
    return f"podium:job:started:{key}"


def enqueue(task_name: str, *args: Any, key: str | None = None, spacing: float = 0.0) -> bool:
    """Ask for the task now; ``True`` if it was sent, run, or is already pending.  Never raises.

    ``spacing`` (keyed jobs, with a broker): the pending run starts no sooner than this many seconds
    after the last run of the key started, so a burst of requests makes a run every ``spacing``
    seconds, each reading everything before it, rather than a run as fast as runs can go.
    """
    if _app().conf.task_always_eager:
        return _run_in_process(task_name, args, key)
    global _broker_down_until
    if time.monotonic() < _broker_down_until:
        return False
    marked = False
    try:
        if key is not None:
            if not cache.add(_pending_key(key), 1, PENDING_SECONDS):
                return True  # a pending run will read what this caller committed
            marked = True
        countdown = None
        if key is not None and spacing > 0:
            countdown = spaced(cache.get(_started_key(key)), spacing, time.time())
        _task(task_name).apply_async(args=args, countdown=countdown)
        return True
    except Exception:  # noqa: BLE001 - whatever the broker raises, the committed write stands
        _broker_down_until = time.monotonic() + BREAKER_SECONDS
        logger.warning("Could not send %s%r; the sweep will ask again.", task_name, args, exc_info=True)
        if marked:
            try:
                cache.delete(_pending_key(key))
            except Exception:  # noqa: BLE001
                pass
        return False


def spaced(last_start: float | None, spacing: float, now: float) -> float | None:
    """Seconds to hold a run back so it starts ``spacing`` after the last run started (``None``: at once)."""
    if last_start is None:
        return None
    wait = min(spacing, last_start + spacing - now)
    return wait if wait > 0 else None


@contextmanager
def claim(key: str) -> Iterator[bool]:
    """In a task: hold ``key`` while running.  Yields ``False`` if another run holds it (stay pending, retry).

    Claiming clears the pending mark first thing, so anything committed from
    then on asks for a new run, and this run reads everything committed before.
    """
    running = _running_key(key)
    if not cache.add(running, 1, running_seconds()):
        yield False
        return
    try:
        cache.set(_started_key(key), time.time(), running_seconds())
        cache.delete(_pending_key(key))
        yield True
    finally:
        cache.delete(running)


def forget(key: str) -> None:
    """Drop ``key``'s pending mark (never raises): a duplicate that gives way to the run holding the key does so,
    so that if that run died, the next sweep asks again at once rather than after the mark expires."""
    try:
        cache.delete(_pending_key(key))
    except Exception:  # noqa: BLE001 - the mark expires on its own
        logger.warning("Could not drop the pending mark of %s.", key, exc_info=True)


# --- in-process jobs (no broker) --------------------------------------------------------------

_lock = threading.Lock()
_running: set[str] = set()
_pending: set[str] = set()


def _apply(task, args: tuple) -> None:
    """Run the task here; a failure is logged, never raised into the request whose write has committed."""
    result = task.apply(args=args, throw=False)
    if result.failed():
        logger.error("%s%r failed in-process: %r", task.name, args, result.result, exc_info=result.result)


def _run_in_process(task_name: str, args: tuple, key: str | None) -> bool:
    task = _task(task_name)
    if key is None:
        _apply(task, args)
        return True
    with _lock:
        if key in _running:
            _pending.add(key)
            return True
        _running.add(key)
    try:
        _apply(task, args)
    finally:
        _hand_over(task, args, key)
    return True


def _hand_over(task, args: tuple, key: str) -> None:
    """A run ended: give the pending run of ``key``, if any, to a background thread (nobody waits for it)."""
    with _lock:
        if key not in _pending:
            _running.discard(key)
            return
        _pending.discard(key)

    def again() -> None:
        from django.db import close_old_connections

        try:
            _apply(task, args)
        finally:
            close_old_connections()
            _hand_over(task, args, key)

    threading.Thread(target=again, name=f"job {key}", daemon=True).start()
