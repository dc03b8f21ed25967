"""Celery tasks of the live app: thin and idempotent."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from live.publish import live_events_publish_pending


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def sweep_live_events() -> int:
    """Periodic (beat): number and send the live events a process that died after its commit left unsent (the
    stream servers' hubs do it too, every heartbeat)."""
    return live_events_publish_pending()
