"""Deck Masters: the two players, event builders and the scripted duel the engine, API and console tests replay."""

from __future__ import annotations

from rules.engine import GameEvent

E = GameEvent


A, B = 7, 9


def start(pid: int = A) -> GameEvent:
    return E("start_turn", {"player": pid})


def end(pid: int = A) -> GameEvent:
    return E("end_turn", {"player": pid})


def summon(pid: int, position: str = "attack", **extra) -> GameEvent:
    return E("deck_master_summon", {"player": pid, "position": position, **extra})


def scripted_duel(a: int = A, b: int = B) -> list[GameEvent]:
    """A whole duel the first player wins by destroying the second's Deck Master (the API tests replay it)."""
    return [
        start(a),
        E("phase", {"phase": "draw"}),
        E("phase", {"phase": "main1"}),
        summon(a, "attack"),
        E("phase", {"phase": "battle"}),
        E("phase", {"phase": "battle", "step": "battle"}),
        E("phase", {"phase": "battle", "step": "damage"}),
        E("lp_change", {"changes": {b: -2500}}),
        E("phase", {"phase": "battle", "step": "end"}),
        E("phase", {"phase": "end"}),
        end(a),
        start(b),
        E("phase", {"phase": "main1"}),
        summon(b, "defence"),
        E("deck_master_replace", {"player": b, "method": "tribute_summon", "card": "Jinzo"}),
        end(b),
        start(a),
        E("lp_change", {"changes": {a: -700}, "cost": True}),
        E("phase", {"phase": "battle", "step": "battle"}),
        E("phase", {"phase": "battle", "step": "damage"}),
        E("deck_master_lost", {"players": [b], "cause": "destroyed"}),
    ]
