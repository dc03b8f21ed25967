"""Master Trainer: the Table harness (applies events, keeps the accepted log) and the scripted game the engine, API and console tests replay."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rules.engine import GameEvent, RuleViolation, State
from rules.master_trainer.engine import ENGINE


class Table:
    """A game under test: applies events, keeps the accepted log, refuses nothing silently."""

    def __init__(
        self, players: list[int], *, benches: dict[int, int] | None = None, options: dict[str, Any] | None = None
    ):
        self.players = players
        self.state: State = ENGINE.new_game(players, options)
        self.log: list[GameEvent] = []
        for pid, count in (benches or {}).items():
            for _ in range(count):
                self.do("play_creature", player=pid, to="bench")

    def do(self, type_: str, **data: Any) -> State:
        self.state = ENGINE.apply(self.state, GameEvent(type_, data))
        self.log.append(GameEvent(type_, data))
        return self.state

    def refuse(self, type_: str, code: str, rule: str | None = None, **data: Any) -> RuleViolation:
        return refused(self.state, GameEvent(type_, data), code, rule)

    def p(self, pid: int) -> dict[str, Any]:
        return next(p for p in self.state["players"] if p["id"] == pid)

    def turn(self, pid: int, **start: Any) -> State:
        """End the current turn (if one is running) and start ``pid``'s."""
        current = self.state["turn"]["player"]
        if self.state["phase"] in {"draw", "main", "battle"} and not self.p(current)["out"]:
            self.do("end_turn", player=current)
        return self.do("start_turn", player=pid, **start)

    def round(self) -> None:
        """Every player still in takes a turn, starting with the next one."""
        for _ in range(sum(not p["out"] for p in self.state["players"])):
            self.turn(_next(self.state))

    def sources(self, pid: int, count: int) -> None:
        """Give ``pid`` more Energy Sources by card effects (in any turn in progress)."""
        for _ in range(count):
            self.do("play_energy_source", player=pid, by_effect=True)


def _next(state: State) -> int:
    players = state["players"]
    current = state["turn"]["player"]
    start = 0 if current is None else [p["id"] for p in players].index(current) + 1
    for step in range(len(players)):
        p = players[(start + step) % len(players)]
        if not p["out"]:
            return p["id"]
    raise AssertionError("nobody is left")


def refused(state: State, event: GameEvent, code: str, rule: str | None = None) -> RuleViolation:
    before = copy.deepcopy(state)
    with pytest.raises(RuleViolation) as info:
        ENGINE.apply(state, event)
    assert info.value.code == code, info.value.as_dict()
    if rule is not None:
        assert info.value.rule == rule, info.value.as_dict()
    assert state == before, "a refused event changed the state"
    return info.value


def scripted_game(players: list[int]) -> list[GameEvent]:
    """The accepted events of a four-player game, for any four ids in turn order (the API and console tests replay it).

    By the handbook's §3.2 it ends at the first Field Break: the fourth player has no Creature left at the start
    of their turn and places 4; the others place by Life total, the first (200), the second (190), the third (180).
    """
    a, b, c, d = players
    t = Table(list(players), benches={a: 1})
    t.round()
    t.turn(a)
    t.do("play_energy_source", player=a)
    t.do("attack", player=a, target=d, damage=120, cost=2)
    t.do("knock_out", player=d, spot="active", replacement="none")
    t.turn(b)
    t.do("attack", player=b, target=c, damage=40)
    t.turn(c)
    t.do("attack", player=c, target=b, damage=20)
    t.do("end_turn", player=c)
    t.do("start_turn", player=d, new_active="none")
    return t.log
