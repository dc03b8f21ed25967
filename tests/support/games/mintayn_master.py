"""Mintayn Master: the two players, event builders and the scripted game the engine, API and console tests replay."""

from __future__ import annotations

from rules.engine import GameEvent

E = GameEvent


P1, P2 = 3, 5


def start(pid: int) -> GameEvent:
    return E("start_turn", {"player": pid})


def end(pid: int, hand_size: int = 7, **extra) -> GameEvent:
    return E("end_turn", {"player": pid, "hand_size": hand_size, **extra})


def select(pid: int) -> GameEvent:
    return E("select", {"player": pid})


def mana(pid: int, cls: str = "coreon", **extra) -> GameEvent:
    return E("mana_place", {"player": pid, "class": cls, **extra})


def summon(pid: int, mid, cls: str = "coreon", method: str = "mana", **extra) -> GameEvent:
    data = {"player": pid, "monster": mid, "class": cls, "method": method, **extra}
    if method == "normal":
        data.setdefault("level", 2)
    return E("summon", data)


def attack(pid: int, mid, target: str = "lp", **extra) -> GameEvent:
    return E("attack", {"player": pid, "monster": mid, "target": target, **extra})


def counter(pid: int, cls: str = "coreon", **extra) -> GameEvent:
    return E("counter", {"player": pid, "class": cls, **extra})


def scripted_game(p1: int = P1, p2: int = P2) -> list[GameEvent]:
    """A whole game P1 wins when P2's LP reach 0 (the API tests replay it), each turn in the Timing Sequence's order."""
    return [
        start(p1),
        mana(p1, "coreon"),
        select(p1),
        summon(p1, "ember", method="normal", level=3),
        end(p1, 7),
        start(p2),
        mana(p2, "fluxion"),
        select(p2),
        summon(p2, "tide", "fluxion", method="normal", level=1, position="defense"),
        end(p2, 8),
        start(p1),
        mana(p1, "coreon"),
        select(p1),
        E("cast_spell", {"player": p1, "class": "coreon", "kind": "instant", "mana": {"coreon": 1}}),
        counter(p2, "fluxion", mana={"fluxion": 1}),
        E("resolve_chain", {}),
        attack(p1, "ember", "monster", target_monster="tide", mana={"coreon": 1}),
        E("remove_monster", {"player": p2, "monster": "tide", "reason": "destroyed"}),
        end(p1, 6),
        start(p2),
        select(p2),
        end(p2, 8),
        start(p1),
        select(p1),
        summon(p1, "spark", method="normal", level=2),
        E("evolve", {"player": p1, "monster": "ember", "mana": {"coreon": 2}}),
        attack(p1, "spark", "lp"),
        E("lp_change", {"changes": {p2: -5000}}),
        end(p1, 6),
        start(p2),
        select(p2),
        end(p2, 9),
        start(p1),
        select(p1),
        attack(p1, "ember", "lp"),
        E("lp_change", {"changes": {p2: -3000}}),
    ]
