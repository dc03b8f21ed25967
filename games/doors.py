"""The doors onto games and the tables they are played at (:mod:`core.doorway`)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

from core.doorway import Door
from games import selectors
from games.models import Game
from tournaments import policy
from tournaments.models import Pod
from tournaments.policy import Action


def _game(game_id: int) -> Game:
    return selectors.games_with_table().get(pk=game_id)


def _table(event_id: int, number: int, table: int) -> Pod:
    return selectors.table_pods(event_id=event_id, number=number, table=table).get()


#: A game, with its table, round and event, to anyone (its service asks the policy).
GAME: Door[Game] = Door(gettext_noop("Game"), _game)


def _recording(request: Any, game: Game) -> str | None:
    return policy.refusal(request.user, game.pod.round.event, Action.RECORD_GAMES)


#: A game, for a user who may record games at its event (the judge console).
RECORDED_GAME: Door[Game] = GAME.asking(_recording)

#: Table ``table`` of round ``number`` of the event (``event_id, number, table``), with its round and event.
TABLE: Door[Pod] = Door(gettext_noop("Table"), _table)
