"""The one way services hand work to Celery: by task name, after the transaction commits.

Services never import task modules (tasks import services, so the arrow points
one way): they call :func:`enqueue_after_commit` with the task's registered
name.  The task runs in a worker when ``REDIS_URL`` is set, in-process
otherwise (``task_always_eager``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction


def _task(name: str):
    from config.celery import app

    if name not in app.tasks:  # task modules load on first use, as a worker loads them at start
        app.loader.import_default_modules()
    return app.tasks[name]


def enqueue(task_name: str, *args: Any) -> None:
    """Send the task now (for callers outside a transaction, such as management commands)."""
    _task(task_name).delay(*args)


def enqueue_after_commit(task_name: str, *args: Any) -> None:
    """Send the task once the current transaction commits (at once outside a transaction)."""
    transaction.on_commit(lambda: enqueue(task_name, *args))
