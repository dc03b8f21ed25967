"""Celery tasks of the tournaments app: thin, idempotent, retried with backoff."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from core import health, jobs
from tournaments import readers, services
from tournaments.services import entry
from tournaments.services.standings import job_key

#: How often a run that finds another run of the same event's standings going tries again (seconds).
BUSY_RETRY_SECONDS = 0.25


@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def recompute_standings(self, event_id: int) -> int | None:
    """Store the event's standings as of its latest results (safe to run twice).

    At most one run per event at a time (:func:`core.jobs.claim`); a run that
    finds another one going stays pending and tries again shortly, and then
    reads every result recorded meanwhile.
    """
    with jobs.claim(job_key(event_id)) as claimed:
        if claimed:
            return services.standings_recompute(event_id=event_id)
    raise self.retry(countdown=BUSY_RETRY_SECONDS, max_retries=jobs.running_seconds() * 4)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def sweep_stale_standings() -> int:
    """Periodic (beat): ask again for standings older than their results, e.g. after a broker outage."""
    health.record_sweep()
    return readers.standings_sweep()


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def sweep_lottery_draws() -> int:
    """Periodic (beat): draw the lotteries whose time has come (a drawn one is skipped: safe to run twice)."""
    return entry.lotteries_draw_due()
