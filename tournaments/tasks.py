"""Celery tasks of the tournaments app: thin, idempotent, retried with backoff."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from tournaments import services


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def recompute_standings(event_id: int) -> int:
    """Store the event's standings as of its latest results (safe to run twice)."""
    return services.standings_recompute(event_id=event_id)
