"""Celery tasks of the decks app: thin, idempotent, retried with backoff.

A deck version's check and an event's re-check each run once at a time
(:func:`core.jobs.claim`); a duplicate that finds one going has nothing to add
(a deck version never changes) and stops, dropping the key's pending mark: if
the run it gave way to had died with its worker, the next sweep asks again.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from core import health, jobs
from decks import readers, services

RETRY = {
    "acks_late": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 5,
}


@shared_task(**RETRY)
def validate_deck_version(version_id: int) -> str | None:
    key = services.deck_job_key(version_id)
    with jobs.claim(key) as claimed:
        if not claimed:
            jobs.forget(key)
            return None
        version = services.deck_version_validate(version_id=version_id)
        return version.status if version else None


@shared_task(**RETRY)
def recheck_event_decks(run_id: int) -> int | None:
    key = services.recheck_job_key(run_id)
    with jobs.claim(key) as claimed:
        if not claimed:
            jobs.forget(key)
            return None
        run = services.deck_recheck_run(run_id=run_id)
        return run.done if run else None


@shared_task(**RETRY)
def revalidate_family(family: str) -> int:
    return services.decks_revalidate_family(family=family)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def sweep_pending_decks() -> int:
    """Periodic (beat): ask again for deck checks left undone, e.g. after a broker outage."""
    health.record_sweep()
    return readers.decks_sweep()
