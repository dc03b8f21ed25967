"""What the tournaments app does with the domain events every service records (:mod:`core.events`).

* The audit trail keeps every audited event, in the change's transaction.
* Standings: an event that moves an event's standings marks them out of date
  in the change's transaction (``Event.results_version``, which the sweep
  reads if a request is lost), and asks for a recompute once it has
  committed, coalesced per event (:mod:`core.jobs`).

Loaded by :class:`tournaments.apps.TournamentsConfig` at start, in web
processes and workers alike.
"""

from __future__ import annotations

from collections.abc import Callable

from core import events, jobs
from core.domain_actions import DomainAction
from core.events import DomainEvent
from tournaments import audit
from tournaments.services import standings


def _always(domain_event: DomainEvent) -> bool:
    return True


def _when(fact: str):
    """The event moves the standings when its data says ``fact``."""
    return lambda domain_event: bool(domain_event.data.get(fact))


#: Each action that may change what the standings are computed from, and whether one such event did.
MOVES_STANDINGS: dict[str, Callable[[DomainEvent], bool]] = {
    # Results recorded or changed.
    DomainAction.RESULT_ENTERED: _always,
    DomainAction.RESULT_SETTLED: _always,
    DomainAction.RESULT_CONFIRMED: _always,
    DomainAction.RESULT_CORRECTED: _always,
    # Who takes part: a late entry (its missed rounds are losses), a drop or an undone drop.
    DomainAction.REGISTRATION_CREATED: _when("late_entry"),
    DomainAction.REGISTRATION_CHECKED_IN: _when("late_entry"),
    DomainAction.REGISTRATION_DROPPED: _always,
    DomainAction.REGISTRATION_UNDROPPED: _always,
    # Pairings: a bye is a result; a re-paired round may have moved the bye.
    DomainAction.ROUND_STARTED: _when("byes"),
    DomainAction.ROUND_REPAIRED: _always,
    DomainAction.ROUND_SWAPPED: _when("byes"),
    DomainAction.ROUND_UNDONE: _when("byes"),
    # A staged round's byes are left out of the stored standings until it is published.
    DomainAction.ROUND_PUBLISHED: _when("byes"),
    # Phases: who reached the next phase ranks above everyone else.
    DomainAction.PHASE_ADVANCED: _always,
    DomainAction.PHASE_ADVANCE_UNDONE: _always,
    # Settings: the tiebreakers (or the Magic floor) changed.
    DomainAction.EVENT_UPDATED: _when("standings_settings"),
}


@events.handler(events.ANY)
def audit_trail(domain_event: DomainEvent) -> None:
    if domain_event.audited:
        audit.entry_write(domain_event)


def moves_standings(domain_event: DomainEvent) -> bool:
    """Whether the event changes what the standings are computed from."""
    moved = MOVES_STANDINGS.get(domain_event.action)
    return moved is not None and moved(domain_event)


# Last: every result of an event updates the event's row, and holds its lock until the commit.
@events.handler(*MOVES_STANDINGS, last=True)
def standings_out_of_date(domain_event: DomainEvent) -> None:
    if moves_standings(domain_event) and domain_event.event_id is not None:
        standings.bump_results_version(domain_event.event_id)


@events.reader(*MOVES_STANDINGS)
def standings_recompute_request(domain_event: DomainEvent) -> None:
    # Every round start asks, byes or not, so the standings exist (all zero) from round 1 on.
    if (moves_standings(domain_event) or domain_event.action == DomainAction.ROUND_STARTED) and domain_event.event_id:
        recompute_request(domain_event.event_id)


def recompute_request(event_id: int) -> bool:
    """Ask for a recompute now (after commit): coalesced per event, at most one run a second, never raising."""
    return jobs.enqueue(
        standings.RECOMPUTE_TASK, event_id, key=standings.job_key(event_id), spacing=standings.RECOMPUTE_SPACING
    )


def standings_sweep() -> int:
    """Ask again for the standings of every event whose stored standings are older than its results.

    What a lost request leaves behind (the broker was away when a result was
    recorded) is found here: ``standings_version < results_version``.  Events
    with a job pending are left alone by :func:`core.jobs.enqueue`.  Returns how
    many events were stale.
    """
    stale = standings.stale_event_ids()
    for event_id in stale:
        jobs.enqueue(standings.RECOMPUTE_TASK, event_id, key=standings.job_key(event_id))
    return len(stale)
