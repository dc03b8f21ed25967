"""What the notifications app does with the domain events (:mod:`core.events`): after the commit, each event a
player should hear of becomes deliveries (:func:`notifications.services.notifications_create`), and their ids go to
the worker in batches (:data:`DELIVER_TASK`).  A reader never fails the change: :mod:`core.events` logs a failure.

=============================  ==========================================================================
kind                           from
=============================  ==========================================================================
``round_paired``               ``round.started``, ``round.repaired``, ``round.swapped``, ``top_cut.started``
                               (once the round is shown to the players), ``round.published``: one message
                               per player, round and table
``result_to_confirm``          ``result.reported``: the table's other players, one message per report
``result_disputed``            ``result.disputed``: the table's other players, one message per report
``waiting_list_promoted``      ``registration.promoted``: the player, once per event
``check_in_open``              ``event.updated`` turning ``check_in_open`` on: the registered players not
                               checked in, once per event
``judge_call_answered``        ``judge_call.claimed``: the table's players, once per call
``round_ending``               the sweep (:func:`sweep`): the round's clock in its last minutes
=============================  ==========================================================================
"""

from __future__ import annotations

from collections.abc import Sequence

from core import events, jobs
from core.domain_actions import DomainAction
from core.events import DomainEvent
from notifications import selectors, services
from notifications.kinds import Kind

DELIVER_TASK = "notifications.tasks.deliver"
#: Deliveries per task: a check-in opening for a large event is several tasks, sent side by side by the workers.
BATCH = 50


def hand_over(ids: Sequence[int]) -> None:
    """Send the deliveries through the worker (in-process without a broker), a batch per task."""
    for start in range(0, len(ids), BATCH):
        jobs.enqueue(DELIVER_TASK, list(ids[start : start + BATCH]))


def _notify(kind: str, asks: Sequence[services.Ask]) -> None:
    if asks:
        hand_over(services.notifications_create(kind=kind, asks=asks))


@events.reader(
    DomainAction.ROUND_STARTED, DomainAction.ROUND_REPAIRED, DomainAction.ROUND_SWAPPED,
    DomainAction.TOP_CUT_STARTED, DomainAction.ROUND_PUBLISHED,
)  # fmt: skip
def round_paired(domain_event: DomainEvent) -> None:
    if not domain_event.event_id:
        return
    round_ = selectors.latest_round(event_id=domain_event.event_id)
    if round_ is None or not round_.published:  # staged: the players hear of it when it is published
        return
    params = {"event_id": domain_event.event_id, "round_id": round_.pk}
    asks = [
        services.Ask(user_id, f"round:{round_.pk}:table:{'bye' if table is None else table}", params)
        for user_id, table in selectors.round_tables(round_id=round_.pk)
    ]
    _notify(Kind.ROUND_PAIRED, asks)


@events.reader(DomainAction.RESULT_REPORTED, DomainAction.RESULT_DISPUTED)
def result_report_changed(domain_event: DomainEvent) -> None:
    data = domain_event.data
    if not domain_event.event_id or data.get("table") is None:
        return
    report_id, users = selectors.unanswered_table_users(
        event_id=domain_event.event_id, round_number=data["round"], table=data["table"], but=domain_event.actor_id
    )
    if not report_id:
        return
    kind = Kind.RESULT_TO_CONFIRM if domain_event.action == DomainAction.RESULT_REPORTED else Kind.RESULT_DISPUTED
    params = {"event_id": domain_event.event_id, "report_id": report_id, "round": data["round"], "table": data["table"]}
    _notify(kind, [services.Ask(user_id, f"report:{report_id}", params) for user_id in users])


@events.reader(DomainAction.REGISTRATION_PROMOTED)
def waiting_list_promoted(domain_event: DomainEvent) -> None:
    player_id = domain_event.data.get("player_id")
    if not domain_event.event_id or not player_id:
        return
    users = selectors.users_of_players([player_id])
    params = {"event_id": domain_event.event_id}
    _notify(
        Kind.WAITING_LIST_PROMOTED, [services.Ask(u, f"event:{domain_event.event_id}", params) for u in users.values()]
    )


@events.reader(DomainAction.EVENT_UPDATED)
def check_in_opened(domain_event: DomainEvent) -> None:
    before, after = domain_event.before or {}, domain_event.after or {}
    if not domain_event.event_id or not (after.get("check_in_open") and not before.get("check_in_open")):
        return
    params = {"event_id": domain_event.event_id}
    users = selectors.users_to_check_in(event_id=domain_event.event_id)
    _notify(Kind.CHECK_IN_OPEN, [services.Ask(u, f"event:{domain_event.event_id}", params) for u in users])


@events.reader(DomainAction.JUDGE_CALL_CLAIMED)
def judge_call_answered(domain_event: DomainEvent) -> None:
    data = domain_event.data
    if not domain_event.event_id:
        return
    users = selectors.users_of_players(data.get("players") or [])
    params = {"event_id": domain_event.event_id, "round": data["round"], "table": data["table"]}
    _notify(Kind.JUDGE_CALL_ANSWERED, [services.Ask(u, f"call:{data['call_id']}", params) for u in users.values()])


def sweep() -> int:
    """Periodic (beat): tell the players whose round ends soon, and ask again for every delivery due (a retry's
    backoff over, or a run that died).  How many deliveries were handed over."""
    _notify(Kind.ROUND_ENDING, services.round_ending_asks())
    due = services.deliveries_due()
    hand_over(due)
    return len(due)
