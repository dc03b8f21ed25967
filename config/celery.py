"""The Celery app.

With ``REDIS_URL`` set, tasks go to Redis and a worker started with
``celery -A config worker`` runs them.  Without it, settings switch on
``task_always_eager`` so the app works with no services at all.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("podium")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
