"""Format 3 Trinity: four players, event builders and the scripted game the engine, API and console tests replay."""

from __future__ import annotations

from typing import Any

from rules.engine import GameEvent

PLAYERS = [1, 2, 3, 4]


def ev(type_: str, **data: Any) -> GameEvent:
    return GameEvent(type_, data)


def turn(pid: int, *middle: GameEvent, reason: str | None = None) -> list[GameEvent]:
    end = ev("end_turn", player=pid) if reason is None else ev("end_turn", player=pid, no_attack_reason=reason)
    return [ev("start_turn", player=pid), *middle, end]


def scripted_game(players: list[int] = PLAYERS) -> list[GameEvent]:
    """The events of the scripted game in its engine tests, for any four ids in turn order (the API tests replay it).

    The second player takes their last prize card and places 1; then the third, fourth and first.
    """
    a, b, c, d = players
    return [
        *turn(a),
        *turn(b, ev("attack", player=b, target=c), ev("knock_out", player=c, by=b, prizes=2)),
        *turn(c),
        *turn(d, ev("attack", player=d, target=a)),
        ev("promote", player=c),
        ev("start_turn", player=a),
        ev("deck_out", player=a),
        *turn(b, ev("attack", player=b, target=d), ev("knock_out", player=d, by=b, prizes=2)),
        *turn(c, ev("attack", player=c, target=b), ev("knock_out", player=b, by=c, active=False)),
        *turn(d),
        ev("no_benched_pokemon", player=d),
        ev("start_turn", player=b),
        ev("attack", player=b, target=c),
        ev("knock_out", player=c, by=b, prizes=2),
    ]
