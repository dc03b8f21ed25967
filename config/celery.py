"""The Celery app.

With ``REDIS_URL`` set, tasks go to Redis and a worker started with
``celery -A config worker`` runs them.  Without it, settings switch on
``task_always_eager`` so the app works with no services at all (``celery -A
config beat`` then runs the periodic sweeps in its own process).

Every worker writes a heartbeat to the cache every ``HEARTBEAT_SECONDS``
(:class:`Heartbeat`), which ``/health/ready/`` reports (:mod:`core.health`), and
counts the tasks that fail (:func:`count_failure`), which ``/metrics`` reports.
"""

from __future__ import annotations

import os

from celery import Celery, bootsteps, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("podium")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class Heartbeat(bootsteps.StartStopStep):
    """A worker step: write the worker heartbeat now and every ``HEARTBEAT_SECONDS`` on the worker's timer."""

    requires = {"celery.worker.components:Timer"}

    def __init__(self, worker, **kwargs):
        super().__init__(worker, **kwargs)
        self.tref = None

    def start(self, worker):
        from core import health

        health.beat(health.HEARTBEAT_KEY)
        self.tref = worker.timer.call_repeatedly(health.HEARTBEAT_SECONDS, health.beat, (health.HEARTBEAT_KEY,))

    def stop(self, worker):
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None


app.steps["worker"].add(Heartbeat)


@signals.task_failure.connect
def count_failure(sender=None, **kwargs):
    """A task failed for good (a retry is no failure): counted in the cache, per task, for ``/metrics``."""
    from core import health

    health.record_task_failure(getattr(sender, "name", None) or "unknown")


@signals.after_setup_logger.connect
@signals.after_setup_task_logger.connect
def podium_log_format(logger=None, **kwargs):
    """The worker's lines in Podium's format (core.logging), wherever Celery sends them (``--logfile`` too)."""
    from django.conf import settings

    from core.logging import adopt

    if logger is not None:
        adopt((logger,), settings.PODIUM_LOG_FORMAT)


#: Tasks whose id this process put on its log lines (task id -> the context variable's token to undo it).
_task_ids_on_lines: dict[str, object] = {}


@signals.task_prerun.connect
def task_id_on_log_lines(task_id=None, **kwargs):
    """A task's lines carry its id where a request's carry the request id (a task run in-process, within a
    request, keeps the request's)."""
    from core.logging import request_id_var

    if task_id and request_id_var.get() is None:
        _task_ids_on_lines[task_id] = request_id_var.set(task_id)


@signals.task_postrun.connect
def task_id_off_log_lines(task_id=None, **kwargs):
    from core.logging import request_id_var

    token = _task_ids_on_lines.pop(task_id, None)
    if token is not None:
        try:
            request_id_var.reset(token)
        except ValueError:  # set in another context (a pool's thread): clear it here
            request_id_var.set(None)
