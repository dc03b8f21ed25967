"""Mt. Silver: four players, event builders and the scripted game the engine, API and console tests replay."""

from __future__ import annotations

from typing import Any

from rules.engine import GameEvent

PLAYERS = [1, 2, 3, 4]


def ev(type_: str, **data: Any) -> GameEvent:
    return GameEvent(type_, data)


def turn(pid: int, *middle: GameEvent) -> list[GameEvent]:
    return [ev("start_turn", player=pid), *middle, ev("end_turn", player=pid)]


def scripted_game(players: list[int] = PLAYERS) -> list[GameEvent]:
    """The events of the scripted game in its engine tests, for any four ids in turn order (the API tests replay it).

    The fourth player is the last with Pokémon in play and places 1; the second places 2; the first and
    third share 3.
    """
    a, b, c, d = players
    return [
        *turn(a, ev("play_pokemon", player=a, count=2)),
        *turn(b, ev("play_pokemon", player=b)),
        *turn(c),
        ev("start_turn", player=d),
        ev("play_supporter", player=d, trainer=True),
        ev("attack", player=d),
        ev("knock_out", player=a, by=d),
        ev("explore", player=d),
        ev("end_turn", player=d),
        *turn(a, ev("special_condition", player=b, condition="poisoned", by=a), ev("attack", player=a)),
        ev("knock_out", player=b, condition="poisoned"),
        ev("decline_explore", player=a),
        *turn(b, ev("attack", player=b), ev("knock_out", player=c, by=b), ev("explore", player=b)),
        *turn(c, ev("play_pokemon", player=c)),
        ev("start_turn", player=d),
        ev("attack", player=d),
        ev("knock_out", knocked_out=[{"player": b, "by": d}, {"player": c, "by": d}]),
        ev("explore", player=d),
        ev("decline_explore", player=d),
        ev("end_turn", player=d),
        ev("start_turn", player=a),
        ev("attack", player=a),
        ev("knock_out", player=a, by=a, active=False),
        ev("explore", player=b),
        ev("explore", player=c),
        ev("decline_explore", player=d),
        ev("end_turn", player=a),
        *turn(b),
        *turn(c),
        ev("start_turn", player=d),
        ev("attack", player=d),
        ev("knock_out", player=a, by=d),
    ]
