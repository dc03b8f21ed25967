"""Celery tasks of the leagues app: thin, idempotent, retried with backoff.

Each runs once at a time per key (:func:`core.jobs.claim`): a run that finds
another one going stays pending and tries again shortly, then reads
everything committed meanwhile.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from core import jobs
from leagues import readers, services
from leagues.services.ratings import job_key as ratings_key
from leagues.services.seasons import job_key as season_key

BUSY_RETRY_SECONDS = 0.25
RETRY = {
    "bind": True,
    "acks_late": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 5,
}


@shared_task(**RETRY)
def recompute_season(self, season_id: int) -> int | None:
    """Store the season's standings as of its events' stored standings (safe to run twice)."""
    with jobs.claim(season_key(season_id)) as claimed:
        if claimed:
            return services.season_standings_recompute(season_id=season_id)
    raise self.retry(countdown=BUSY_RETRY_SECONDS, max_retries=jobs.running_seconds() * 4)


@shared_task(**RETRY)
def update_ratings(self, format_slug: str) -> int | None:
    """Rate the format's tables whose results are new or changed, in play order (safe to run twice)."""
    with jobs.claim(ratings_key(format_slug)) as claimed:
        if claimed:
            return services.ratings_update(format_slug=format_slug)
    raise self.retry(countdown=BUSY_RETRY_SECONDS, max_retries=jobs.running_seconds() * 4)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def sweep_leagues() -> int:
    """Periodic (beat): ask again for season standings and ratings left behind, e.g. after a broker outage."""
    return readers.seasons_sweep() + readers.ratings_sweep()
