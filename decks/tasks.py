"""Celery tasks of the decks app: thin, idempotent, retried with backoff."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from decks import services

RETRY = {
    "acks_late": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 5,
}


@shared_task(**RETRY)
def validate_deck_version(version_id: int) -> str | None:
    version = services.deck_version_validate(version_id=version_id)
    return version.status if version else None


@shared_task(**RETRY)
def recheck_event_decks(run_id: int) -> int | None:
    run = services.deck_recheck_run(run_id=run_id)
    return run.done if run else None


@shared_task(**RETRY)
def revalidate_family(family: str) -> int:
    return services.decks_revalidate_family(family=family)
