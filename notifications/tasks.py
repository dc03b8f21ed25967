"""Celery tasks of the notifications app: thin, idempotent (each delivery is claimed before it is sent), retried."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from notifications import readers, selectors, services


@shared_task(bind=True, acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def deliver(self, delivery_ids: list[int]) -> dict[str, int]:
    """Send each delivery once (safe to run twice).  Those that failed for now are pending again with a backoff:
    with a worker this task is retried after it; in-process, the sweep asks again (a request never waits for a
    retry)."""
    outcomes: dict[str, int] = {}
    channels = selectors.channels_of(delivery_ids=delivery_ids)
    mail_down = False
    for delivery_id in delivery_ids:
        outcome = services.delivery_send(delivery_id=delivery_id, mail_down=mail_down)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        mail_down = mail_down or (outcome in ("retry", "failed") and channels.get(delivery_id) == "email")
    if outcomes.get("retry") and not self.request.is_eager and self.request.retries < services.MAX_ATTEMPTS:
        raise self.retry(countdown=services.backoff(self.request.retries + 1), max_retries=services.MAX_ATTEMPTS)
    return outcomes


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def sweep_notifications() -> int:
    """Periodic (beat): the round-ending messages, and every delivery due again."""
    return readers.sweep()
