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

from core import events, jobs
from core.events import DomainEvent
from tournaments import audit
from tournaments.services import standings

#: Results recorded or changed: always move the standings.
RESULTS = ("result.entered", "result.settled", "result.confirmed", "result.corrected")
#: Who takes part changed: a late entry (missed rounds are losses), a drop or an undone drop.
ENTRANTS = ("registration.created", "registration.checked_in", "registration.dropped", "registration.undropped")
#: Pairings: a bye is a result; a re-paired round may have moved the bye.
ROUNDS = ("round.started", "round.repaired", "round.swapped")
#: Settings: the tiebreakers (or the Magic floor) changed.
SETTINGS = ("event.updated",)


@events.handler(events.ANY)
def audit_trail(domain_event: DomainEvent) -> None:
    if domain_event.audited:
        audit.entry_write(domain_event)


def moves_standings(domain_event: DomainEvent) -> bool:
    """Whether the event changes what the standings are computed from."""
    action, data = domain_event.action, domain_event.data
    if action in RESULTS or action in ("round.repaired", "registration.dropped", "registration.undropped"):
        return True
    if action in ("registration.created", "registration.checked_in"):
        return bool(data.get("late_entry"))
    if action in ("round.started", "round.swapped"):
        return bool(data.get("byes"))
    if action == "event.updated":
        return bool(data.get("standings_settings"))
    return False


@events.handler(*RESULTS, *ENTRANTS, *ROUNDS, *SETTINGS)
def standings_out_of_date(domain_event: DomainEvent) -> None:
    if moves_standings(domain_event) and domain_event.event_id is not None:
        standings.bump_results_version(domain_event.event_id)


@events.reader(*RESULTS, *ENTRANTS, *ROUNDS, *SETTINGS)
def standings_recompute_request(domain_event: DomainEvent) -> None:
    # Every round start asks, byes or not, so the standings exist (all zero) from round 1 on.
    if (moves_standings(domain_event) or domain_event.action == "round.started") and domain_event.event_id:
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
