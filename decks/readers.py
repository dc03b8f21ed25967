"""What the decks app does with the domain events (:mod:`core.events`): it hands deck checks to Celery.

A deck submitted, a re-check started, or a catalogue import that changed the
cards: each asks for its checks once the change has committed, by task name
and coalesced per deck version (:mod:`core.jobs`).  If the broker is away the
checks stay pending in the database, and :func:`decks_sweep` (Celery beat) asks
again.  Loaded by :class:`decks.apps.DecksConfig` at start.
"""

from __future__ import annotations

from core import events, jobs
from core.domain_actions import DomainAction
from core.events import DomainEvent
from decks.selectors import undone_checks
from decks.services import RECHECK_TASK, VALIDATE_TASK, deck_job_key, recheck_job_key


def _check(version_id: int) -> None:
    jobs.enqueue(VALIDATE_TASK, version_id, key=deck_job_key(version_id))


def _recheck(run_id: int) -> None:
    jobs.enqueue(RECHECK_TASK, run_id, key=recheck_job_key(run_id))


@events.reader(DomainAction.DECK_SUBMITTED)
def deck_check_request(domain_event: DomainEvent) -> None:
    _check(domain_event.data["version_id"])


@events.reader(DomainAction.DECKS_RECHECKED)
def deck_recheck_request(domain_event: DomainEvent) -> None:
    _recheck(domain_event.data["run_id"])


@events.reader(DomainAction.DECKS_REVALIDATION_ASKED)
def deck_revalidation_request(domain_event: DomainEvent) -> None:
    for version_id in domain_event.data["version_ids"]:
        _check(version_id)


def decks_sweep() -> int:
    """Ask again for deck checks left undone (e.g. while the broker was away); returns how many were asked.

    Jobs already pending are left alone by :func:`core.jobs.enqueue`.
    """
    pending, runs = undone_checks()
    for version_id in pending:
        _check(version_id)
    for run_id in runs:
        _recheck(run_id)
    return len(pending) + len(runs)
