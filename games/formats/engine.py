"""The contract every format's game engine follows, and the judge actions they share.

Podium does not simulate card text.  A judge or scorekeeper records what
happened at a table as a sequence of *events* ("player 7 attacked, 120 damage to
the Active"); the engine for the format keeps each player's *state* (life,
energy, badges, prizes, who is out) and refuses what the rulebook forbids.

Terms
-----
*state*
    A JSON-serialisable ``dict``: it is stored as the game's snapshot.  Every
    engine's state has at least ``players`` (a list in turn order of dicts with
    ``id``, ``out`` and ``placement``), ``status`` (``"in_progress"`` or
    ``"finished"``), ``turn`` (``{"number", "player"}``), ``result``
    (``None`` or ``{"placements": {player_id: placement}, "reason"}``),
    ``notes`` (judge ruling notes) and ``seq`` (events applied so far).
*event*
    :class:`GameEvent`: a ``type`` from the engine's vocabulary and its ``data``.
*refusal*
    :class:`RuleViolation` with a stable ``code``, the rulebook ``rule`` section
    and a plain ``message``.  A refused event leaves the state unchanged.

Contract
--------
``engine.new_game(players, options) -> state`` and
``engine.apply(state, event) -> state``: ``apply`` never mutates its input, so
the caller can keep the old state; replaying a log from ``new_game`` always
gives the same state (:func:`replay`).  Each engine publishes ``VOCABULARY``:
one :class:`EventSpec` per event type (fields and rule section), from which the
docs are written.

Judge actions common to every format (:data:`COMMON_VOCABULARY`) are handled
by :func:`apply_common`: concede, intentional draw, game loss or
disqualification as a penalty, time called (placements decided by the judge
with a reason where the rulebook gives no end-of-time procedure), and ruling
notes.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

State = dict[str, Any]


class RuleViolation(Exception):
    """An event the rules refuse: ``code`` is stable, ``rule`` names the rulebook section."""

    def __init__(self, code: str, rule: str, message: str):
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "rule": self.rule, "message": self.message}


@dataclass(frozen=True, slots=True)
class GameEvent:
    type: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class EventSpec:
    """Documentation of one event type: its fields (name -> description) and rule section."""

    type: str
    fields: Mapping[str, str]
    rule: str
    description: str


class Engine(Protocol):
    slug: str
    VOCABULARY: Mapping[str, EventSpec]

    def new_game(self, players: Sequence[int], options: Mapping[str, Any] | None = None) -> State: ...

    def apply(self, state: State, event: GameEvent) -> State: ...


def replay(
    engine: Engine, players: Sequence[int], options: Mapping[str, Any] | None, events: Sequence[GameEvent]
) -> State:
    state = engine.new_game(players, options)
    for event in events:
        state = engine.apply(state, event)
    return state


# --- helpers engines share ----------------------------------------------------------------------


def base_state(players: Sequence[int], **extra: Any) -> State:
    """The keys every engine's state has; ``extra`` adds the format's own."""
    ids = list(players)
    if len(set(ids)) != len(ids):
        raise RuleViolation("duplicate_player", "setup", "A player is listed twice.")
    return {
        "players": [{"id": pid, "out": False, "placement": None} for pid in ids],
        "status": "in_progress",
        "turn": {"number": 0, "player": None},
        "result": None,
        "notes": [],
        "seq": 0,
        **extra,
    }


def clone(state: State) -> State:
    return copy.deepcopy(state)


def fork(state: State, *, also: tuple[str, ...] = ()) -> State:
    """A copy safe to change at the top level, in ``turn``, in each player dict and in the ``also`` dicts.

    Much cheaper than :func:`clone`.  Engines that use it replace nested values
    (a player's ``monsters``, a draft list) instead of mutating them, so sharing
    them with the old state is safe.
    """
    new = dict(state)
    new["players"] = [dict(p) for p in state["players"]]
    new["turn"] = dict(state["turn"])
    for key in also:
        new[key] = dict(state[key])
    return new


def optional(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...], default: Any) -> Any:
    """An optional field: ``default`` when absent or null, else read like :func:`require`."""
    if data.get(name) is None:
        return default
    return require(data, name, kind)


def player(state: State, player_id: Any) -> dict[str, Any]:
    for p in state["players"]:
        if p["id"] == player_id:
            return p
    raise RuleViolation("unknown_player", "setup", f"Player {player_id!r} is not in this game.")


def require(
    data: Mapping[str, Any], name: str, kind: type | tuple[type, ...] = int, *, minimum: int | None = None
) -> Any:
    """Read a required field of an event, refusing a missing or mistyped one."""
    if name not in data:
        raise RuleViolation("missing_field", "event", f"The event needs a {name!r} field.")
    value = data[name]
    if isinstance(value, bool) and kind is int or not isinstance(value, kind):
        raise RuleViolation("invalid_field", "event", f"{name!r} has the wrong type.")
    if minimum is not None and value < minimum:
        raise RuleViolation("invalid_field", "event", f"{name!r} must be at least {minimum}.")
    return value


def player_in_game(state: State, data: Mapping[str, Any], rule: str, name: str = "player") -> dict[str, Any]:
    """The player a field names, who must still be in the game."""
    pid = require(data, name)
    p = player(state, pid)
    if p["out"]:
        raise RuleViolation("player_out", rule, f"Player {pid} is out of the game.")
    return p


def acting_player(state: State, data: Mapping[str, Any], rule: str) -> dict[str, Any]:
    """The player the event names, who must be the one whose turn is in progress (``turn.in_progress``)."""
    p = player_in_game(state, data, rule)
    turn = state["turn"]
    if not turn["in_progress"] or turn["player"] != p["id"]:
        raise RuleViolation("not_your_turn", rule, f"It is not player {p['id']}'s turn.")
    return p


def next_player(state: State) -> Any:
    """The next player still in, clockwise after the last one to take a turn (the first at the start)."""
    players = state["players"]
    last = state["turn"]["player"]
    start = 0 if last is None else next(i for i, p in enumerate(players) if p["id"] == last) + 1
    for k in range(len(players)):
        p = players[(start + k) % len(players)]
        if not p["out"]:
            return p["id"]
    raise AssertionError("a game in progress has a player still in")


def ensure_in_progress(state: State) -> None:
    if state["status"] != "in_progress":
        raise RuleViolation("game_over", "end of game", "The game is over: no more events can be recorded.")


def eliminate(state: State, player_id: Any, reason: str) -> None:
    """Mark a player out; the players still in when the game ends share the best placements.

    Placement by elimination order: the first player out of ``n`` places ``n``.
    When one player is left, they place 1 and the game ends.
    """
    p = player(state, player_id)
    if p["out"]:
        return
    remaining = [q for q in state["players"] if not q["out"]]
    p["out"] = True
    p["placement"] = len(remaining)
    p["out_reason"] = reason
    left = [q for q in state["players"] if not q["out"]]
    if len(left) == 1:
        finish(state, {left[0]["id"]: 1}, reason=f"last player standing ({reason})")


def finish(state: State, placements_of_remaining: Mapping[Any, int], *, reason: str) -> None:
    """End the game: the given placements for players still in, eliminated players keep theirs."""
    for p in state["players"]:
        if not p["out"]:
            p["placement"] = placements_of_remaining[p["id"]]
    state["status"] = "finished"
    state["result"] = {"placements": {str(p["id"]): p["placement"] for p in state["players"]}, "reason": reason}


# --- judge actions common to every format ---------------------------------------------------------

COMMON_VOCABULARY: dict[str, EventSpec] = {
    spec.type: spec
    for spec in (
        EventSpec(
            "concede",
            {"player": "the player conceding"},
            "tournament rules",
            "The player concedes: they are out and place below everyone still in.",
        ),
        EventSpec(
            "intentional_draw", {}, "tournament rules", "The players still in agree to a draw: they share first place."
        ),
        EventSpec(
            "game_loss",
            {"player": "the penalised player", "reason": "why"},
            "penalty",
            "A judge gives a game loss as a penalty: the player is out.",
        ),
        EventSpec(
            "disqualify",
            {"player": "the disqualified player", "reason": "why"},
            "penalty",
            "A judge disqualifies a player from the game: the player is out.",
        ),
        EventSpec(
            "time_called",
            {"placements": "{player id: placement} for the players still in", "reason": "why"},
            "end of round",
            "Time is called; the judge records placements for the players still in with a reason "
            "(the format's end-of-time procedure, or the judge's decision where it gives none).",
        ),
        EventSpec(
            "ruling_note",
            {"text": "the ruling", "player": "optional player concerned"},
            "judge",
            "A free-text ruling note attached to the state; changes nothing else.",
        ),
    )
}


def _competition_ranks_ok(values: list[int]) -> bool:
    values = sorted(values)
    return all(v == k or (k > 1 and v == values[k - 2]) for k, v in enumerate(values, start=1))


def apply_common(state: State, event: GameEvent) -> State | None:
    """Apply a common judge action, or return ``None`` when ``event`` is not one."""
    if event.type not in COMMON_VOCABULARY:
        return None
    data = event.data
    if event.type == "ruling_note":
        text = require(data, "text", str)
        if not text.strip():
            raise RuleViolation("invalid_field", "judge", "A ruling note needs text.")
        # Notes are frequent: copy only what changes, not the whole state.
        note = {"seq": state["seq"] + 1, "text": text.strip(), "player": data.get("player")}
        return {**state, "notes": [*state["notes"], note], "seq": state["seq"] + 1}
    new = clone(state)
    ensure_in_progress(state)
    if event.type in {"concede", "game_loss", "disqualify"}:
        pid = data.get("player")
        target = player(new, pid)
        if target["out"]:
            raise RuleViolation("player_out", "end of game", f"Player {pid} is already out of the game.")
        if event.type != "concede" and not str(data.get("reason", "")).strip():
            raise RuleViolation("missing_field", "penalty", "A penalty needs a reason.")
        eliminate(new, pid, event.type)
    elif event.type == "intentional_draw":
        remaining = [p["id"] for p in new["players"] if not p["out"]]
        finish(new, dict.fromkeys(remaining, 1), reason="intentional draw")
    elif event.type == "time_called":
        placements = require(data, "placements", dict)
        reason = str(data.get("reason", "")).strip()
        if not reason:
            raise RuleViolation("missing_field", "end of round", "Time called needs the reason for the placements.")
        remaining = {str(p["id"]): p for p in new["players"] if not p["out"]}
        given = {str(k): v for k, v in placements.items()}
        if set(given) != set(remaining) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in given.values()
        ):
            raise RuleViolation("invalid_field", "end of round", "Give a placement for exactly the players still in.")
        if not _competition_ranks_ok(list(given.values())):
            raise RuleViolation(
                "invalid_field", "end of round", "Placements must be 1, 2, ... with ties sharing a place."
            )
        finish(new, {p["id"]: given[key] for key, p in remaining.items()}, reason=f"time called: {reason}")
    new["seq"] += 1
    return new


Handler = Callable[[State, GameEvent], State]
