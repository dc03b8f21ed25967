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
    and a ``message``: a phrase (:mod:`rules.speech`), English in a log or a
    test, said in the reader's language on a page.  A refused event leaves the
    state unchanged.

Contract
--------
``engine.new_game(players, options) -> state`` and
``engine.apply(state, event) -> state``: ``apply`` never mutates its input, so
the caller can keep the old state; replaying a log from ``new_game`` always
gives the same state (:func:`replay`).  Each engine publishes ``VOCABULARY``:
one :class:`EventSpec` per event type, its rule section and its fields, each a
:class:`Field` with a machine-readable :class:`Kind` (a player, a signed amount,
one of some choices ...).  The judge console builds its forms from it, the docs
list it, and ``QUICK_ENTRIES`` (:class:`QuickEntry`) names the entries a judge
records most often, as one-tap buttons.

*field kinds*
    ``player`` (a player id of the game), ``players`` (a list of distinct player
    ids), ``amount`` (a signed, non-zero integer: a change), ``count`` (an
    integer from ``minimum``, 0 unless stated, to ``maximum``), ``choice`` (one
    of ``choices``: phases, steps, zones, positions ...), ``player_amounts``
    (``{player id: amount}``, one or more players at once), ``placements``
    (``{player id: placement}`` for the players still in), ``counts``
    (``{choice: count}``), ``card`` (a card's name), ``tag`` (the judge's own
    label for a card in play, e.g. a Mintayn monster: ``source`` names the
    player key whose keys are the labels in play), ``boolean``, ``text`` and
    ``entries`` (a list of sub-entries, each with the ``item`` fields).
    The kinds describe the JSON an event takes; the engine still checks it.

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
from enum import StrEnum
from typing import Any, Protocol, cast

from rules import speech
from rules.speech import Phrase, phrase

State = dict[str, Any]


class RuleViolation(Exception):
    """An event the rules refuse: ``code`` is stable, ``rule`` names the rulebook section."""

    def __init__(self, code: str, rule: str, message: str):
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.message = message

    def as_dict(self) -> dict[str, Any]:
        """Plain data; a phrase keeps its template and values (:meth:`rules.speech.Phrase.as_data`)."""
        data: dict[str, Any] = {"code": self.code, "rule": self.rule, "message": str(self.message)}
        if isinstance(self.message, Phrase):
            data.update(self.message.as_data())
        return data


@dataclass(frozen=True, slots=True)
class GameEvent:
    """An event to apply; ``seq`` is the number the caller's log gives it, when it keeps one (notes cite it)."""

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    seq: int | None = None


class Kind(StrEnum):
    """What an event field holds; see "field kinds" in the module docstring."""

    PLAYER = "player"
    PLAYERS = "players"
    AMOUNT = "amount"
    COUNT = "count"
    CHOICE = "choice"
    PLAYER_AMOUNTS = "player_amounts"
    PLACEMENTS = "placements"
    COUNTS = "counts"
    CARD = "card"
    TAG = "tag"
    BOOLEAN = "boolean"
    TEXT = "text"
    ENTRIES = "entries"


@dataclass(frozen=True, slots=True)
class Field:
    """One field of an event type: its kind, what it means, and the values it takes.

    ``optional`` fields may be left out (``default`` is what the engine then
    assumes, when it assumes one); ``choices`` are the values of a ``choice`` or
    the keys of ``counts``; ``minimum``/``maximum`` bound a ``count``; ``label``
    is a short name for people when the field's own name is unclear.  An
    ``entries`` field lists sub-entries made of ``item``; with ``repeats`` its
    item fields are the event's other fields, and a single sub-entry is recorded
    as those fields instead of a list of one.

    ``label``, and ``description`` where the console shows it as help, are
    phrases (:mod:`rules.speech`): the console says them in the judge's language.
    """

    kind: Kind
    description: str
    optional: bool = False
    default: Any = None
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    label: str | None = None
    source: str | None = None
    item: tuple[tuple[str, Field], ...] = ()
    repeats: bool = False

    def __post_init__(self) -> None:
        if self.kind in (Kind.CHOICE, Kind.COUNTS) and not self.choices:
            raise ValueError(f"a {self.kind} field needs its choices")
        if self.kind is Kind.ENTRIES and not self.item:
            raise ValueError("an entries field needs its item fields")
        if self.kind is Kind.TAG and not self.source:
            raise ValueError("a tag field names the player key holding the tags in play")

    # Constructors, one per kind, so a vocabulary reads as a list of what each field is.
    @classmethod
    def player(cls, description: str, *, optional: bool = False, label: str | None = None) -> Field:
        return cls(Kind.PLAYER, description, optional=optional, label=label)

    @classmethod
    def players(cls, description: str, *, label: str | None = None) -> Field:
        return cls(Kind.PLAYERS, description, label=label)

    @classmethod
    def amount(cls, description: str, *, label: str | None = None) -> Field:
        return cls(Kind.AMOUNT, description, label=label)

    @classmethod
    def count(
        cls,
        description: str,
        *,
        minimum: int = 0,
        maximum: int | None = None,
        optional: bool = False,
        default: int | None = None,
        label: str | None = None,
    ) -> Field:
        return cls(
            Kind.COUNT, description, optional=optional, default=default, minimum=minimum, maximum=maximum, label=label
        )

    @classmethod
    def choice(
        cls,
        choices: Sequence[str],
        description: str,
        *,
        optional: bool = False,
        default: str | None = None,
        label: str | None = None,
    ) -> Field:
        return cls(Kind.CHOICE, description, optional=optional, default=default, choices=tuple(choices), label=label)

    @classmethod
    def player_amounts(cls, description: str, *, label: str | None = None) -> Field:
        return cls(Kind.PLAYER_AMOUNTS, description, label=label)

    @classmethod
    def placements(cls, description: str, *, label: str | None = None) -> Field:
        return cls(Kind.PLACEMENTS, description, label=label)

    @classmethod
    def counts(
        cls, choices: Sequence[str], description: str, *, optional: bool = False, label: str | None = None
    ) -> Field:
        return cls(Kind.COUNTS, description, optional=optional, choices=tuple(choices), label=label)

    @classmethod
    def card(cls, description: str, *, optional: bool = False, label: str | None = None) -> Field:
        return cls(Kind.CARD, description, optional=optional, label=label)

    @classmethod
    def tag(cls, description: str, *, source: str, optional: bool = False, label: str | None = None) -> Field:
        return cls(Kind.TAG, description, optional=optional, source=source, label=label)

    @classmethod
    def boolean(cls, description: str, *, default: bool = False, label: str | None = None) -> Field:
        return cls(Kind.BOOLEAN, description, optional=True, default=default, label=label)

    @classmethod
    def text(cls, description: str, *, optional: bool = False, label: str | None = None) -> Field:
        return cls(Kind.TEXT, description, optional=optional, label=label)

    @classmethod
    def entries(
        cls, item: Mapping[str, Field], description: str, *, repeats: bool = False, label: str | None = None
    ) -> Field:
        return cls(Kind.ENTRIES, description, optional=True, item=tuple(item.items()), repeats=repeats, label=label)

    @property
    def item_fields(self) -> dict[str, Field]:
        return dict(self.item)

    def as_dict(self) -> dict[str, Any]:
        """The field as JSON: ``kind``, ``description``, ``optional`` and whatever else it states."""
        out: dict[str, Any] = {"kind": self.kind.value, "description": self.description, "optional": self.optional}
        if self.label:
            out["label"] = self.label
        if self.default is not None:
            out["default"] = self.default
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.source:
            out["source"] = self.source
        if self.item:
            out["item"] = {name: f.as_dict() for name, f in self.item}
            out["repeats"] = self.repeats
        return out


@dataclass(frozen=True, slots=True)
class EventSpec:
    """One event type: its fields (name -> :class:`Field`), its rule section and what it does (``description``, a
    phrase: :mod:`rules.speech`)."""

    type: str
    fields: Mapping[str, Field]
    rule: str
    description: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "rule": self.rule,
            "description": self.description,
            "fields": {name: f.as_dict() for name, f in self.fields.items()},
        }


#: Placeholders in :attr:`QuickEntry.data`: the player the button is for, and the player whose turn it is.
THE_PLAYER = "<player>"
TURN_PLAYER = "<turn player>"


class When(StrEnum):
    """When a one-tap entry is offered for a player (who must still be in)."""

    ALWAYS = "always"
    IN_A_TURN = "in_a_turn"  # a turn (anyone's) is under way
    BETWEEN_TURNS = "between_turns"  # no turn is under way
    THEIR_TURN = "their_turn"  # their turn is under way
    PLAYS_NEXT = "plays_next"  # no turn is under way and they play next
    OTHER_TURN = "other_turn"  # another player's turn is under way


@dataclass(frozen=True, slots=True)
class QuickEntry:
    """An entry a judge records often, offered as a one-tap button on each player's card.

    ``data`` is the complete event data with :data:`THE_PLAYER` and
    :data:`TURN_PLAYER` standing for player ids (as values, or as keys of a
    per-player map); ``label`` is the button's text, where ``{turn}`` stands for
    the turn player's name; ``needs`` names a key of the player's state that
    must be true for the button to show.  The engine decides, as for any entry.
    ``label`` is a phrase (:mod:`rules.speech`), said in the judge's language.
    """

    key: str
    label: str
    type: str
    data: Mapping[str, Any]
    when: When = When.ALWAYS
    needs: str | None = None

    def entry(self, *, player: Any, turn_player: Any = None) -> dict[str, Any]:
        """The event data for ``player``'s button, with the placeholders replaced by ids."""

        def fill(value: Any) -> Any:
            if value == THE_PLAYER:
                return player
            if value == TURN_PLAYER:
                return turn_player
            if isinstance(value, Mapping):
                return {str(fill(k)) if k in (THE_PLAYER, TURN_PLAYER) else k: fill(v) for k, v in value.items()}
            if isinstance(value, list | tuple):
                return [fill(v) for v in value]
            return value

        return cast(dict[str, Any], fill(dict(self.data)))  # a mapping fills to a dict

    def as_dict(self) -> dict[str, Any]:
        """The entry as JSON (for an API or docs): the placeholders stay as they are."""
        return {
            "key": self.key,
            "label": self.label,
            "type": self.type,
            "data": dict(self.data),
            "when": self.when.value,
            "needs": self.needs,
        }

    @property
    def uses_turn_player(self) -> bool:
        def uses(value: Any) -> bool:
            if isinstance(value, Mapping):
                return any(uses(k) or uses(v) for k, v in value.items())
            if isinstance(value, list | tuple):
                return any(uses(v) for v in value)
            return bool(value == TURN_PLAYER)

        return uses(self.data)


class Engine(Protocol):
    #: Set by the :class:`~rules.base.Format` record that registers the engine.
    slug: str

    @property
    def VOCABULARY(self) -> Mapping[str, EventSpec]: ...  # noqa: N802 - the engines' published constant

    @property
    def QUICK_ENTRIES(self) -> Sequence[QuickEntry]: ...  # noqa: N802 - the engines' published constant

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
        raise RuleViolation("duplicate_player", "setup", phrase("A player is listed twice."))
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


def player_ids_without_options(players: Sequence[int], options: Mapping[str, Any] | None) -> list[int]:
    """``new_game``'s checks for a format that takes no options: no option given, and integer player ids."""
    if options is not None and not isinstance(options, Mapping):
        raise RuleViolation("invalid_option", "setup", phrase("Options are a mapping."))
    if options:
        raise RuleViolation(
            "invalid_option",
            "setup",
            # Translators: %(options)s lists the names of the game options given, as typed.
            phrase("Unknown option(s): %(options)s.", options=", ".join(map(str, options))),
        )
    ids = list(players)
    if not all(isinstance(pid, int) and not isinstance(pid, bool) for pid in ids):
        raise RuleViolation("invalid_players", "setup", phrase("Player ids are integers."))
    return ids


def next_state(state: State, *, also: tuple[str, ...] = ()) -> State:
    """The state an accepted entry starts from: a :func:`fork` whose ``seq`` is one on."""
    new = fork(state, also=also)
    new["seq"] = state["seq"] + 1
    return new


def players_still_in(state: State) -> list[dict[str, Any]]:
    """The players not yet out, in seat order."""
    return [p for p in state["players"] if not p["out"]]


def optional(
    data: Mapping[str, Any],
    name: str,
    kind: type | tuple[type, ...],
    default: Any,
    *,
    minimum: int | None = None,
    null: bool = True,
) -> Any:
    """An optional field: ``default`` when absent or null, else read like :func:`require` (``minimum`` included).

    With ``null=False`` a null is not taken as absent: it is refused as the wrong type.
    """
    if name not in data or (null and data[name] is None):
        return default
    return require(data, name, kind, minimum=minimum)


_REQUIRED: Any = object()


def choice(data: Mapping[str, Any], name: str, choices: Sequence[str], default: Any = _REQUIRED) -> Any:
    """A field that holds one of ``choices``: ``default`` when absent (without a default it is required); any other
    value, a null too, is refused."""
    if name not in data:
        if default is _REQUIRED:
            # Translators: %(field)s names a field of a game entry as the engine spells it (e.g. 'to'); the judge
            # console shows the field's label in its place.
            raise RuleViolation("missing_field", "event", phrase("The event needs a '%(field)s' field.", field=name))
        return default
    value = data[name]
    if not isinstance(value, str) or value not in choices:
        raise RuleViolation(
            "invalid_field",
            "event",
            # Translators: %(field)s is an entry's field name; %(choices)s its values as typed (e.g. "bench, active").
            phrase("'%(field)s' must be one of %(choices)s.", field=name, choices=", ".join(choices)),
        )
    return value


def player(state: State, player_id: Any) -> dict[str, Any]:
    players: list[dict[str, Any]] = state["players"]
    for p in players:
        if p["id"] == player_id:
            return p
    # An id of the wrong type keeps its quotes ("Player '3'"): it names no player of the game.
    named = speech.player(player_id if isinstance(player_id, int) else repr(player_id))
    raise RuleViolation("unknown_player", "setup", phrase("%(player)s is not in this game.", player=named))


def require(
    data: Mapping[str, Any], name: str, kind: type | tuple[type, ...] = int, *, minimum: int | None = None
) -> Any:
    """Read a required field of an event, refusing a missing or mistyped one."""
    if name not in data:
        raise RuleViolation("missing_field", "event", phrase("The event needs a '%(field)s' field.", field=name))
    value = data[name]
    if isinstance(value, bool) and kind is int or not isinstance(value, kind):
        raise RuleViolation("invalid_field", "event", phrase("'%(field)s' has the wrong type.", field=name))
    if minimum is not None and cast(float, value) < minimum:  # ``kind`` is a number type when a minimum is given
        raise RuleViolation(
            "invalid_field", "event", phrase("'%(field)s' must be at least %(minimum)s.", field=name, minimum=minimum)
        )
    return value


def player_in_game(state: State, data: Mapping[str, Any], rule: str, name: str = "player") -> dict[str, Any]:
    """The player a field names, who must still be in the game."""
    pid = require(data, name)
    p = player(state, pid)
    if p["out"]:
        raise RuleViolation("player_out", rule, phrase("%(player)s is out of the game.", player=speech.player(pid)))
    return p


def acting_player(state: State, data: Mapping[str, Any], rule: str) -> dict[str, Any]:
    """The player the event names, who must be the one whose turn is in progress (``turn.in_progress``)."""
    p = player_in_game(state, data, rule)
    turn = state["turn"]
    if not turn["in_progress"] or turn["player"] != p["id"]:
        raise RuleViolation(
            "not_your_turn", rule, phrase("It is not %(player)s's turn.", player=speech.player(p["id"]))
        )
    return p


def turn_player(state: State) -> Any:
    """Whose turn is under way, for engines that clear ``turn.player`` when a turn ends (the default ``turn_of``)."""
    return state["turn"]["player"]


def turn_player_in_progress(state: State) -> Any:
    """Whose turn is under way, for engines that mark it with ``turn.in_progress``."""
    turn = state["turn"]
    return turn["player"] if turn["in_progress"] else None


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
        raise RuleViolation("game_over", "end of game", phrase("The game is over: no more events can be recorded."))


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
            {"player": Field.player(phrase("the player conceding"))},
            "tournament rules",
            phrase("The player concedes: they are out and place below everyone still in."),
        ),
        EventSpec(
            "intentional_draw",
            {},
            "tournament rules",
            phrase("The players still in agree to a draw: they share first place."),
        ),
        EventSpec(
            "game_loss",
            {"player": Field.player(phrase("the penalised player")), "reason": Field.text(phrase("why"))},
            "penalty",
            phrase("A judge gives a game loss as a penalty: the player is out."),
        ),
        EventSpec(
            "disqualify",
            {"player": Field.player(phrase("the disqualified player")), "reason": Field.text(phrase("why"))},
            "penalty",
            phrase("A judge disqualifies a player from the game: the player is out."),
        ),
        EventSpec(
            "time_called",
            {
                "placements": Field.placements("{player id: placement} for the players still in"),
                "reason": Field.text(phrase("why")),
            },
            "end of round",
            phrase(
                "Time is called; the judge records placements for the players still in with a reason "
                "(the format's end-of-time procedure, or the judge's decision where it gives none)."
            ),
        ),
        EventSpec(
            "ruling_note",
            {
                "text": Field.text(phrase("the ruling")),
                "player": Field.player(phrase("optional player concerned"), optional=True),
            },
            "judge",
            phrase("A free-text ruling note attached to the state; changes nothing else."),
        ),
    )
}


EntryHandler = Callable[[State, Mapping[str, Any]], None]


def dispatch(
    state: State,
    event: GameEvent,
    handlers: Mapping[str, EntryHandler],
    *,
    after_common: Callable[[State], None] | None = None,
) -> State:
    """The usual ``apply``: the common entries first (:func:`apply_common`, then ``after_common`` on a game
    still going), else the format's handler for the entry's type, which changes :func:`next_state` in place."""
    if not isinstance(event.data, Mapping):
        raise RuleViolation("invalid_field", "event", phrase("The event data is a mapping."))
    common = apply_common(state, event)
    if common is not None:
        if after_common is not None and common["status"] == "in_progress":
            after_common(common)
        return common
    handler = handlers.get(event.type)
    if handler is None:
        # Translators: %(type)s is the name of a kind of game entry, as the engine spells it (e.g. 'start_turn').
        raise RuleViolation("unknown_event", "event", phrase("Unknown event type '%(type)s'.", type=event.type))
    ensure_in_progress(state)
    new = next_state(state)
    handler(new, event.data)
    return new


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
            raise RuleViolation("invalid_field", "judge", phrase("A ruling note needs text."))
        # Notes are frequent: copy only what changes, not the whole state.
        # A note cites the log entry it was recorded in when the caller keeps a log: after a void the
        # engine's count of applied events (``seq``) no longer matches the log's numbering.
        number = event.seq if event.seq is not None else state["seq"] + 1
        note = {"seq": number, "text": text.strip(), "player": data.get("player")}
        return {**state, "notes": [*state["notes"], note], "seq": state["seq"] + 1}
    new = clone(state)
    ensure_in_progress(state)
    if event.type in {"concede", "game_loss", "disqualify"}:
        pid = data.get("player")
        target = player(new, pid)
        if target["out"]:
            raise RuleViolation(
                "player_out", "end of game", phrase("%(player)s is already out of the game.", player=speech.player(pid))
            )
        if event.type != "concede" and not str(data.get("reason", "")).strip():
            raise RuleViolation("missing_field", "penalty", phrase("A penalty needs a reason."))
        eliminate(new, pid, event.type)
    elif event.type == "intentional_draw":
        still_in = [p["id"] for p in new["players"] if not p["out"]]
        finish(new, dict.fromkeys(still_in, 1), reason="intentional draw")
    elif event.type == "time_called":
        placements = require(data, "placements", dict)
        reason = str(data.get("reason", "")).strip()
        if not reason:
            raise RuleViolation(
                "missing_field", "end of round", phrase("Time called needs the reason for the placements.")
            )
        remaining = {str(p["id"]): p for p in new["players"] if not p["out"]}
        given = {str(k): v for k, v in placements.items()}
        if set(given) != set(remaining) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in given.values()
        ):
            raise RuleViolation(
                "invalid_field", "end of round", phrase("Give a placement for exactly the players still in.")
            )
        if not _competition_ranks_ok(list(given.values())):
            raise RuleViolation(
                "invalid_field", "end of round", phrase("Placements must be 1, 2, ... with ties sharing a place.")
            )
        finish(new, {p["id"]: given[key] for key, p in remaining.items()}, reason=f"time called: {reason}")
    new["seq"] += 1
    return new


Handler = Callable[[State, GameEvent], State]
