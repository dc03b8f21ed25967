"""What the games app does with the domain events of other apps (:mod:`core.events`).

* A table's result recorded by hand (``result.entered``, ``result.settled``,
  ``result.confirmed``, ``result.corrected``) closes the table's game still in
  progress as superseded, in the result's transaction
  (:func:`games.services.games_supersede`): the judge console then refuses
  its entries.  A result a finished game reported finds no game in progress.

Loaded by :class:`games.apps.GamesConfig` at start.
"""

from __future__ import annotations

from core import events
from core.domain_actions import DomainAction
from core.events import DomainEvent
from games import services

RESULT_ACTIONS = (
    DomainAction.RESULT_ENTERED,
    DomainAction.RESULT_SETTLED,
    DomainAction.RESULT_CONFIRMED,
    DomainAction.RESULT_CORRECTED,
)


@events.handler(*RESULT_ACTIONS)
def game_superseded_by_result(domain_event: DomainEvent) -> None:
    pod_id = domain_event.data.get("pod_id")
    if pod_id is not None:
        services.games_supersede(pod_id=pod_id)
