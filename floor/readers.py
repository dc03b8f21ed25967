"""Judge calls go live: the judges' queue and the calling table's players follow them without a reload.

Each change of a judge call (``judge_call.opened``/``claimed``/``resolved``/``cancelled``) becomes a private live
event ``judge_call.changed`` (:attr:`live.models.LiveEvent.private`): the event's staff stream carries it (the
judges' phones), and the own streams of the table's players (their page), and no public stream (no overlay, no
other player).  Its data is the call's id, round, table, state and the players seated there.  Written in the
change's transaction, published after its commit, as :mod:`live.readers` does for every other live event.
"""

from __future__ import annotations

import logging

from core import events
from core.domain_actions import DomainAction
from core.events import DomainEvent
from live.models import LiveEvent
from live.publish import publish_soon

logger = logging.getLogger(__name__)

CALL_ACTIONS = (
    DomainAction.JUDGE_CALL_OPENED,
    DomainAction.JUDGE_CALL_CLAIMED,
    DomainAction.JUDGE_CALL_RESOLVED,
    DomainAction.JUDGE_CALL_CANCELLED,
)
#: The live event's kind.
KIND = "judge_call.changed"


@events.handler(*CALL_ACTIONS)
def judge_call_changed(domain_event: DomainEvent) -> None:
    data = domain_event.data
    assert domain_event.event_id is not None  # a judge call is of an event
    LiveEvent.objects.create(
        event_id=domain_event.event_id, kind=KIND, private=True, stations=[], players=list(data["players"]),
        data={"call": data["call_id"], "round": data["round"], "table": data["table"], "state": data["state"],
              "players": list(data["players"])},
    )  # fmt: skip


@events.reader(*CALL_ACTIONS)
def publish(domain_event: DomainEvent) -> None:
    if domain_event.event_id is not None:
        publish_soon(domain_event.event_id)
