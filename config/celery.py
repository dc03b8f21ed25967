"""The Celery app.

With ``REDIS_URL`` set, tasks go to Redis and a worker started with
``celery -A config worker`` runs them.  Without it, settings switch on
``task_always_eager`` so the app works with no services at all (``celery -A
config beat`` then runs the periodic sweeps in its own process).

Every worker writes a heartbeat to the cache every ``HEARTBEAT_SECONDS``
(:class:`Heartbeat`), which ``/health/ready/`` reports (:mod:`core.health`).
"""

from __future__ import annotations

import os

from celery import Celery, bootsteps

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
