"""Mintayn Master: the game engine (1v1, LP, a Mana Zone, selection instead of drawing).

The rulebook (``mintayn-master-format.txt``) has no numbered sections, so refusals name its
headings (``"Summon Phase"``, ``"Chains & Counterplay"``).

Terms
-----
*P1, P2*
    The two players in turn order: P1 takes turn 1 (and may not attack in it).
*turn*
    Numbered from 1 across both players (P1 plays the odd turns).  Per-turn limits of the turn
    player (1 card to the Mana Zone - 2 at the accelerated mana rate -, 1 selection, 1 Normal
    Summon, 1 evolution) reset at ``start_turn``.
*step*
    The Timing Sequence orders a turn: Turn Start, Mana Step, Selection Step, Main / Spell
    Phase, Summon Phase, Position Step, Evolution Step, Attack Phase, End Phase.  The turn
    player's actions belong to one of them (``mana_place`` to the Mana Step, ``select`` to the
    Selection Step, ``cast_spell`` to the Main / Spell Phase, Normal and Mana Summons to the
    Summon Phase, ``switch_position``, ``evolve``, ``attack``, ``end_turn``); each moves the
    turn to its step (``this_turn.step``), steps may be skipped, and an action of a step
    already over is refused (``step_order``; ``mana_step_over`` for the Mana Step).  Nothing
    moves past the Selection Step before the selection (``selection_missing``).  What effects
    do (Special Summons, Counters, LP changes, mana placed by an effect) belongs to no step.
*mana*
    Each card in a player's Mana Zone gives 1 mana of its class a turn.  ``mana_zone`` counts the
    cards by class, ``mana_spent`` the mana used since the player's own turn started, and
    ``mana_available`` the difference.  Spent mana comes back at the start of its owner's next turn.
*selection*
    The Selection Step: the turn player takes 1 card of their choice from their deck.  It replaces
    drawing, happens exactly once a turn, and may only be skipped when the player cannot select
    (an empty deck: there is no deck-out loss).
*monster*
    A monster (or evolved stack, which counts as 1) in a Monster Zone, keyed by the id the judge
    gives it (ints and strings are both accepted and stored as strings).  Each records its class,
    position (``attack``/``defense``), stage (1, 2, or 3 for a Prime Evolution) and the turn it last
    attacked, switched position or evolved.
*chain*
    The Counters played in response to a Spell, an attack or another Counter: at most 3 links per
    player.  A chain is open from the Spell, attack or first Counter until the next event that is
    not a Counter (or ``resolve_chain``), which resolves it.

State (on top of :func:`rules.engine.base_state`)
---------------------------------------------------------
``starting_lp``, ``mana_rate``, ``hand_limit`` (the event's variant); ``this_turn`` (``step``,
``mana_placed`` - cards put in the Mana Zone by the rule -, ``selected``, ``cannot_select``,
``normal_summoned``, ``evolved`` for the turn player); ``chain`` (``None`` or ``{"trigger": "spell"|"attack"|"counter", "links":
{player id: n}}``); each player: ``lp``, ``hand_size`` (as last reported), ``mana_zone``,
``mana_spent``, ``mana_available`` (``{class: n}``) and ``monsters`` (``{id: monster}``).

Contract
--------
``ENGINE.new_game(players, options)`` with exactly two players and the options of the rulebook's
Balance Levers & Variants (:data:`OPTIONS`: ``starting_lp`` 6000/8000/10000, ``mana_rate`` 1/2,
``hand_size`` 8-12, ``starting_hand`` "7/8" and its neighbours); ``ENGINE.apply(state, event)``
returns a new state and never mutates ``state``.  Judge actions shared by all formats come from
:func:`rules.engine.apply_common`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules import speech
from rules.engine import (
    COMMON_VOCABULARY,
    THE_PLAYER,
    EventSpec,
    Field,
    GameEvent,
    QuickEntry,
    RuleViolation,
    State,
    When,
    apply_common,
    base_state,
    eliminate,
    ensure_in_progress,
    finish,
    fork,
    player,
    require,
)
from rules.options import Option, OptionError, Use, read
from rules.speech import phrase, phrases

DEFAULT_LP = 8000
LP_VARIANTS: tuple[int, ...] = (6000, 8000, 10000)
HAND_LIMIT = 10
MANA_RATE = 1
MONSTER_ZONE_SIZE = 7
NORMAL_SUMMON_MAX_LEVEL = 3
FINAL_STAGE = 3
CHAIN_LINKS_PER_PLAYER = 3
CLASSES: tuple[str, ...] = ("coreon", "fluxion", "synaphera", "obscura", "aetherion")

R_WIN = "Win Condition"
R_SETUP = "Game Setup"
R_VARIANTS = "Balance Levers & Variants"
R_TURN = "Turn Structure"
R_MANA = "Mana Step"
R_MANA_SYSTEM = "Mana System"
R_SELECTION = "Selection Step"
R_SPELL = "Main/Spell Phase"
R_SUMMON = "Summon Phase"
R_POSITION = "Position Step"
R_EVOLUTION = "Evolution Step (optional)"
R_ATTACK = "Attack Phase"
R_DIRECT = "Direct Attacks"
R_END = "End Phase"
R_ZONES = "Field & Zones"
R_CHAINS = "Chains & Counterplay"
R_COUNTER = "Counter Cards"
R_PRIME_SINGULAR = "Prime Singulars"
R_VICTORY = "Victory & End of Game"
R_TIMING = "Master Format — Timing Sequence"

#: The Timing Sequence, in order: the steps a turn goes through, and how refusals name them.
STEPS: dict[str, str] = {
    "turn_start": "Turn Start",
    "mana": "Mana Step",
    "selection": "Selection Step",
    "main": "Main / Spell Phase",
    "summon": "Summon Phase",
    "position": "Position Step",
    "evolution": "Evolution Step",
    "attack": "Attack Phase",
    "end": "End Phase",
}
_ORDER = {step: i for i, step in enumerate(STEPS)}

_GAME = frozenset({Use.GAME})
#: Balance Levers & Variants: every lever is an event option, read here and (deck size) by the deck rules.
OPTIONS: tuple[Option, ...] = (
    Option(
        name="starting_lp", label=phrase("Starting LP"), default=DEFAULT_LP, choices=LP_VARIANTS, uses=_GAME,
        rule=R_VARIANTS,
        quote="LP: 6000 (faster), 8000 (default), 10000 (epic).",
        value_names={6000: phrase("6000 (faster)"), 8000: phrase("8000 (default)"), 10000: phrase("10000 (epic)")},
    ),
    Option(
        name="mana_rate", label=phrase("Mana rate"), default=MANA_RATE, choices=(1, 2), uses=_GAME, rule=R_VARIANTS,
        quote="Mana rate: 1 per turn (default); 2 for accelerated play.",
        value_names={
            1: phrase("1 card a turn to the Mana Zone (default)"),
            2: phrase("2 cards a turn to the Mana Zone (accelerated)"),
        },
        help=phrase("Cards the turn player may put into the Mana Zone in the Mana Step."),
    ),
    Option(
        name="hand_size", label=phrase("Hand limit"), default=HAND_LIMIT, minimum=8, maximum=12, uses=_GAME,
        rule=R_VARIANTS,
        quote="Hand size: 10 (default); 8–12 in variant play.", unit=phrase("cards"),
        help=phrase("Cards a player may keep at the end of their turn (End Phase)."),
    ),
    Option(
        name="starting_hand", label=phrase("Starting hands (P1/P2)"), default="7/8",
        choices=("5/6", "6/7", "7/8", "8/9", "9/10"), uses=_GAME, rule=R_VARIANTS,
        quote="Starting hand: 7/8 (default); adjust for faster or slower openers.",
        help=phrase("Cards P1 and P2 select at setup; P2 keeps one more, as in the default."),
    ),
)  # fmt: skip

_NO_MANA: dict[str, int] = dict.fromkeys(CLASSES, 0)
_FRESH_TURN: dict[str, Any] = {
    "step": "turn_start", "mana_placed": 0, "selected": False, "cannot_select": False, "normal_summoned": False,
    "evolved": False,
}  # fmt: skip
ATTACK_TARGETS: tuple[str, ...] = ("lp", "monster", "board", "global")


# --- small helpers --------------------------------------------------------------------------------


def _fork(state: State) -> State:
    # Nested per-player values (``monsters``, the mana dicts) are replaced, never mutated.
    return fork(state, also=("this_turn",))


def _acting(state: State, data: Mapping[str, Any], name: str = "player") -> dict[str, Any]:
    pid = require(data, name, int)
    p = player(state, pid)
    if p["out"]:
        raise RuleViolation("player_out", R_WIN, phrase("%(player)s is out of the game.", player=speech.player(pid)))
    return p


def _require_turn(state: State) -> None:
    if state["turn"]["player"] is None:
        raise RuleViolation("no_turn", R_TURN, phrase("No turn is in progress: record start_turn first."))


def _own_turn(state: State, p: Mapping[str, Any], rule: str, event_type: str) -> None:
    """Refuse player ``p`` an action (an entry of ``event_type``) that is the turn player's: one whole sentence per
    action, so each is translated as a whole."""
    _require_turn(state)
    if state["turn"]["player"] == p["id"]:
        return
    who = speech.player(state["turn"]["player"])
    match event_type:
        case "end_turn":
            refusal = phrase("A turn ends only on your own turn (it is %(player)s's).", player=who)
        case "mana_place":
            refusal = phrase("Mana is placed only on your own turn (it is %(player)s's).", player=who)
        case "select":
            refusal = phrase("The selection happens only on your own turn (it is %(player)s's).", player=who)
        case "cast_spell":
            refusal = phrase("Spells are cast only on your own turn (it is %(player)s's).", player=who)
        case "summon":
            refusal = phrase("Normal and Mana Summons happen only on your own turn (it is %(player)s's).", player=who)
        case "switch_position":
            refusal = phrase("Positions are changed only on your own turn (it is %(player)s's).", player=who)
        case "evolve":
            refusal = phrase("Evolution happens only on your own turn (it is %(player)s's).", player=who)
        case "attack":
            refusal = phrase("Monsters attack only on your own turn (it is %(player)s's).", player=who)
        case _:
            raise ValueError(f"no sentence refuses {event_type!r} outside its player's turn")
    raise RuleViolation("not_your_turn", rule, refusal)


def _enter_step(state: State, step: str) -> None:
    """The turn player's action of ``step``: refused once that step is over, or when it would pass the
    Selection Step without a selection; otherwise the turn is now in ``step``."""
    this_turn = state["this_turn"]
    current = this_turn.get("step", "turn_start")  # a state from before steps were kept: the turn's start
    if _ORDER[step] < _ORDER[current]:
        code = "mana_step_over" if step == "mana" else "step_order"
        raise RuleViolation(
            code,
            f"{R_TIMING}; {STEPS[step]}",
            phrase(
                # Translators: %(step)s and %(current)s are steps of the rulebook's Timing Sequence ("Mana Step",
                # "Summon Phase"), %(sequence)s all of them in order: the rulebook's names, as they are.
                "The %(step)s is over: the turn is in the %(current)s (Timing Sequence: %(sequence)s).",
                step=STEPS[step],
                current=STEPS[current],
                sequence=" → ".join(list(STEPS.values())[1:]),
            ),
        )
    if _ORDER[step] > _ORDER["selection"] and not this_turn["selected"] and not this_turn.get("cannot_select"):
        raise RuleViolation(
            "selection_missing",
            R_SELECTION,
            phrase(
                # Translators: %(step)s is a step of the rulebook's Timing Sequence ("Summon Phase"), as it is named.
                "The Selection Step comes before the %(step)s: record the turn's selection first (or that the player "
                "cannot select).",
                step=STEPS[step],
            ),
        )
    this_turn["step"] = step


def _opponent(state: State, p: Mapping[str, Any]) -> dict[str, Any]:
    return next(q for q in state["players"] if q["id"] != p["id"])


def _optional_bool(data: Mapping[str, Any], name: str) -> bool:
    return bool(require(data, name, bool)) if name in data else False


def _class(data: Mapping[str, Any]) -> str:
    value: str = require(data, "class", str).strip().lower()
    if value not in CLASSES:
        raise RuleViolation(
            "invalid_field",
            "Card Types",
            # Translators: class is an event field; %(classes)s its values (coreon, fluxion, ...): they stay as they
            # are.
            phrase("class must be one of %(classes)s.", classes=", ".join(CLASSES)),
        )
    return value


def _monster_id(data: Mapping[str, Any], name: str = "monster") -> str:
    value = require(data, name, (int, str))
    if isinstance(value, bool) or (isinstance(value, str) and not value.strip()):
        raise RuleViolation("invalid_field", "event", phrase("'%(field)s' must be a monster id.", field=name))
    return str(value).strip()


def _own_monster(p: Mapping[str, Any], mid: str) -> dict[str, Any]:
    monster: dict[str, Any] | None = p["monsters"].get(mid)
    if monster is None:
        raise RuleViolation(
            "unknown_monster",
            R_ZONES,
            phrase("%(player)s controls no monster '%(monster)s'.", player=speech.player(p["id"]), monster=mid),
        )
    return monster


def _set(state: State, p: Mapping[str, Any], **changes: Any) -> dict[str, Any]:
    """Replace player ``p`` in the forked ``state`` with ``p`` plus ``changes``; return the new dict."""
    for index, q in enumerate(state["players"]):
        if q["id"] == p["id"]:
            new: dict[str, Any] = {**q, **changes}
            state["players"][index] = new
            return new
    raise RuleViolation(  # pragma: no cover
        "unknown_player", "setup", phrase("%(player)s is not in this game.", player=speech.player(p["id"]))
    )


def _set_monster(state: State, p: Mapping[str, Any], mid: str, **changes: Any) -> None:
    monsters = dict(p["monsters"])
    monsters[mid] = {**monsters[mid], **changes}
    _set(state, p, monsters=monsters)


def _mana(zone: Mapping[str, int], spent: Mapping[str, int]) -> dict[str, Any]:
    return {
        "mana_zone": dict(zone),
        "mana_spent": dict(spent),
        "mana_available": {c: zone[c] - spent[c] for c in CLASSES},
    }


def _cost(data: Mapping[str, Any]) -> dict[str, int]:
    """The optional ``mana`` field: ``{class: amount}`` actually spent (the judge names the classes used)."""
    if data.get("mana") is None:
        return {}
    raw = require(data, "mana", dict)
    cost: dict[str, int] = {}
    for key, amount in raw.items():
        cls = str(key).strip().lower()
        if cls not in CLASSES or isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise RuleViolation(
                "invalid_field",
                R_MANA_SYSTEM,
                # Translators: mana is an event field's name: it stays as it is.
                phrase("mana maps classes to amounts of mana (0 or more)."),
            )
        if amount:
            cost[cls] = cost.get(cls, 0) + amount
    return cost


def _pay(state: State, p: Mapping[str, Any], cost: Mapping[str, int]) -> dict[str, Any]:
    if not cost:
        return dict(p)
    for cls, amount in cost.items():
        if p["mana_available"][cls] < amount:
            raise RuleViolation(
                "not_enough_mana",
                R_MANA_SYSTEM,
                phrase(
                    # Translators: %(card_class)s is a class of cards (coreon, fluxion, ...), as the rulebook names
                    # it.
                    "%(player)s has %(available)s %(card_class)s mana available, not %(needed)s.",
                    player=speech.player(p["id"]),
                    available=p["mana_available"][cls],
                    card_class=cls,
                    needed=amount,
                ),
            )
    spent = {c: p["mana_spent"][c] + cost.get(c, 0) for c in CLASSES}
    return _set(state, p, **_mana(p["mana_zone"], spent))


def _has_class(p: Mapping[str, Any], cls: str) -> bool:
    return any(m["class"] == cls for m in p["monsters"].values())


def _find_monster(state: State, mid: str) -> dict[str, Any] | None:
    """The player who controls monster ``mid`` (``None`` when nobody does)."""
    players: list[dict[str, Any]] = state["players"]
    for q in players:
        if mid in q["monsters"]:
            return q
    return None


def _lose(state: State, losers: Sequence[Any], reason: str) -> None:
    remaining = [p["id"] for p in state["players"] if not p["out"]]
    if set(losers) >= set(remaining):
        # The rulebook is silent on both players reaching 0 LP at once: a judge rules a draw.
        finish(state, dict.fromkeys(remaining, 1), reason=f"draw: {reason}")
        return
    for pid in losers:
        eliminate(state, pid, reason)


# --- turn events ----------------------------------------------------------------------------------


def _start_turn(state: State, data: Mapping[str, Any]) -> None:
    p = _acting(state, data)
    if state["turn"]["player"] is not None:
        raise RuleViolation("turn_in_progress", R_TURN, phrase("The current turn has not ended."))
    order = [q["id"] for q in state["players"]]
    expected = order[state["turn"]["number"] % len(order)]
    if p["id"] != expected:
        raise RuleViolation(
            "not_your_turn", R_TURN, phrase("The next turn is %(player)s's.", player=speech.player(expected))
        )
    state["turn"] = {"number": state["turn"]["number"] + 1, "player": p["id"]}
    state["this_turn"] = dict(_FRESH_TURN)
    # Mana used since the player's last turn comes back now: the Mana Step opens their turn.
    _set(state, p, **_mana(p["mana_zone"], _NO_MANA))


def _end_turn(state: State, data: Mapping[str, Any]) -> None:
    p = _acting(state, data)
    _own_turn(state, p, R_END, "end_turn")
    hand_size = require(data, "hand_size", int, minimum=0)
    cannot_select = _optional_bool(data, "cannot_select")
    limit = state.get("hand_limit", HAND_LIMIT)
    if hand_size > limit:
        raise RuleViolation(
            "hand_limit",
            R_END,
            phrases(
                "Discard down to %(count)s card before the turn ends.",
                "Discard down to %(count)s cards before the turn ends.",
                limit,
            ),
        )
    if cannot_select and state["this_turn"]["selected"]:
        raise RuleViolation("invalid_field", R_SELECTION, phrase("The player selected a card this turn."))
    if cannot_select:
        state["this_turn"]["cannot_select"] = True
    _enter_step(state, "end")
    _set(state, p, hand_size=hand_size)
    state["turn"] = {"number": state["turn"]["number"], "player": None}


# --- mana and selection ---------------------------------------------------------------------------


def _mana_place(state: State, data: Mapping[str, Any]) -> None:
    p = _acting(state, data)
    cls = _class(data)
    by_effect = _optional_bool(data, "effect")
    if by_effect:
        _require_turn(state)
    else:
        _own_turn(state, p, R_MANA, "mana_place")
        rate = state.get("mana_rate", MANA_RATE)
        if state["this_turn"]["mana_placed"] >= rate:
            raise RuleViolation(
                "mana_already_placed",
                R_MANA,
                phrases(
                    "Only %(count)s card a turn goes to the Mana Zone.",
                    "Only %(count)s cards a turn go to the Mana Zone.",
                    rate,
                ),
            )
        _enter_step(state, "mana")
        state["this_turn"]["mana_placed"] += 1
    zone = {**p["mana_zone"], cls: p["mana_zone"][cls] + 1}
    _set(state, p, **_mana(zone, p["mana_spent"]))


def _mana_remove(state: State, data: Mapping[str, Any]) -> None:
    p = _acting(state, data)
    cls = _class(data)
    count = require(data, "count", int, minimum=1) if "count" in data else 1
    _require_turn(state)
    if p["mana_zone"][cls] < count:
        raise RuleViolation(
            "not_enough_mana",
            R_MANA_SYSTEM,
            phrases(
                # Translators: %(card_class)s is a class of cards (coreon, fluxion, ...), as the rulebook names it.
                "%(player)s has %(count)s %(card_class)s mana card.",
                "%(player)s has %(count)s %(card_class)s mana cards.",
                p["mana_zone"][cls],
                player=speech.player(p["id"]),
                card_class=cls,
            ),
        )
    zone = {**p["mana_zone"], cls: p["mana_zone"][cls] - count}
    # Mana cards are alike: removing one takes unused mana first, so spent never exceeds the zone.
    spent = {**p["mana_spent"], cls: min(p["mana_spent"][cls], zone[cls])}
    _set(state, p, **_mana(zone, spent))


def _spend_mana(state: State, data: Mapping[str, Any]) -> None:
    p = _acting(state, data)
    cost = _cost(data)
    _require_turn(state)
    if not cost:
        raise RuleViolation("missing_field", "event", phrase("spend_mana needs a non-empty 'mana' field."))
    _pay(state, p, cost)


def _select(state: State, data: Mapping[str, Any]) -> None:
    p = _acting(state, data)
    _own_turn(state, p, R_SELECTION, "select")
    cannot_select = _optional_bool(data, "cannot_select")
    if state["this_turn"]["selected"] or state["this_turn"].get("cannot_select"):
        raise RuleViolation("already_selected", R_SELECTION, phrase("The turn player selects exactly 1 card a turn."))
    _enter_step(state, "selection")
    state["this_turn"]["cannot_select" if cannot_select else "selected"] = True


# --- spells, summons, positions, evolution --------------------------------------------------------


def _cast_spell(state: State, data: Mapping[str, Any]) -> None:
    p = _acting(state, data)
    cls = _class(data)
    kind = require(data, "kind", str)
    if kind not in ("instant", "ongoing"):
        # Translators: kind is an event field, 'instant' and 'ongoing' its values: they stay as they are.
        raise RuleViolation("invalid_field", R_SPELL, phrase("kind must be 'instant' or 'ongoing'."))
    cost = _cost(data)
    _own_turn(state, p, R_SPELL, "cast_spell")
    _enter_step(state, "main")
    if not _has_class(p, cls):
        raise RuleViolation(
            "no_matching_monster",
            "Spell Cards",
            # Translators: %(card_class)s is a class of cards (coreon, fluxion, ...), as the rulebook names it.
            phrase("A %(card_class)s Spell needs a %(card_class)s monster in play.", card_class=cls),
        )
    _pay(state, p, cost)
    state["chain"] = {"trigger": "spell", "links": {}}


def _summon(state: State, data: Mapping[str, Any]) -> None:
    p = _acting(state, data)
    mid = _monster_id(data)
    cls = _class(data)
    method = require(data, "method", str)
    if method not in ("normal", "mana", "special"):
        # Translators: method is an event field, normal, mana and special its values: they stay as they are.
        raise RuleViolation("invalid_field", R_SUMMON, phrase("method must be normal, mana or special."))
    position = require(data, "position", str) if "position" in data else "attack"
    if position not in ("attack", "defense"):
        # Translators: position is an event field, 'attack' and 'defense' its values: they stay as they are.
        raise RuleViolation("invalid_field", R_POSITION, phrase("position must be 'attack' or 'defense'."))
    cost = _cost(data)
    prime_singular = _optional_bool(data, "prime_singular")
    replaces = _monster_id(data, "replaces") if data.get("replaces") is not None else None
    if method == "special":
        _require_turn(state)  # Special Summons happen when effects allow, on either turn.
    else:
        _own_turn(state, p, R_SUMMON, "summon")
        _enter_step(state, "summon")
    if method == "normal":
        level = require(data, "level", int, minimum=0)
        if state["this_turn"]["normal_summoned"]:
            raise RuleViolation("normal_summon_used", R_SUMMON, phrase("Only 1 Normal Summon a turn."))
        if level > NORMAL_SUMMON_MAX_LEVEL:
            raise RuleViolation(
                "normal_summon_level", R_SUMMON, phrase("Only a monster of Level 3 or lower is Normal Summoned.")
            )
        if cost:
            raise RuleViolation("invalid_field", R_SUMMON, phrase("A Normal Summon costs no mana."))
        state["this_turn"]["normal_summoned"] = True
    if _find_monster(state, mid) is not None:
        raise RuleViolation(
            "duplicate_monster", R_ZONES, phrase("Monster id '%(monster)s' is already in play.", monster=mid)
        )
    monsters = dict(p["monsters"])
    if replaces is not None:
        if not prime_singular:
            raise RuleViolation(
                "invalid_field", R_PRIME_SINGULAR, phrase("Only a Prime Singular replaces an active monster.")
            )
        _own_monster(p, replaces)
    if prime_singular and len(monsters) < 2:
        raise RuleViolation(
            "prime_singular_condition", R_PRIME_SINGULAR, phrase("A Prime Singular needs you to control 2+ monsters.")
        )
    if replaces is not None:
        del monsters[replaces]
    if len(monsters) >= MONSTER_ZONE_SIZE:
        raise RuleViolation(
            "monster_zone_full",
            R_ZONES,
            phrases(
                "The Monster Zone holds at most %(count)s monster.",
                "The Monster Zone holds at most %(count)s monsters.",
                MONSTER_ZONE_SIZE,
            ),
        )
    monsters[mid] = {
        "class": cls,
        "position": position,
        "stage": 1,
        "prime_singular": prime_singular,
        "summoned_turn": state["turn"]["number"],
        "attacked_turn": None,
        "switched_turn": None,
        "evolved_turn": None,
    }
    p = _pay(state, p, cost)
    _set(state, p, monsters=monsters)


def _switch_position(state: State, data: Mapping[str, Any]) -> None:
    p = _acting(state, data)
    mid = _monster_id(data)
    _own_turn(state, p, R_POSITION, "switch_position")
    _enter_step(state, "position")
    monster = _own_monster(p, mid)
    if monster["switched_turn"] == state["turn"]["number"]:
        raise RuleViolation("already_switched", R_POSITION, phrase("A monster changes position at most once a turn."))
    position = "defense" if monster["position"] == "attack" else "attack"
    _set_monster(state, p, mid, position=position, switched_turn=state["turn"]["number"])


def _evolve(state: State, data: Mapping[str, Any]) -> None:
    p = _acting(state, data)
    mid = _monster_id(data)
    cost = _cost(data)
    _own_turn(state, p, R_EVOLUTION, "evolve")
    _enter_step(state, "evolution")
    monster = _own_monster(p, mid)
    if state["this_turn"]["evolved"]:
        raise RuleViolation("evolution_used", R_EVOLUTION, phrase("Only 1 evolution a turn."))
    if monster["stage"] >= FINAL_STAGE:
        raise RuleViolation(
            "final_stage", "Prime Evolutions", phrase("A Prime Evolution (third stage) evolves no further.")
        )
    p = _pay(state, p, cost)
    state["this_turn"]["evolved"] = True
    _set_monster(state, p, mid, stage=monster["stage"] + 1, evolved_turn=state["turn"]["number"])


# --- combat, counters, effects --------------------------------------------------------------------


def _attack(state: State, data: Mapping[str, Any]) -> None:
    p = _acting(state, data)
    mid = _monster_id(data)
    target = require(data, "target", str)
    if target not in ATTACK_TARGETS:
        raise RuleViolation(
            "invalid_field",
            R_ATTACK,
            # Translators: target is an event field; %(targets)s its values (lp, monster, ...): they stay as they are.
            phrase("target must be one of %(targets)s.", targets=", ".join(ATTACK_TARGETS)),
        )
    target_monster = _monster_id(data, "target_monster") if target == "monster" else None
    cost = _cost(data)
    _own_turn(state, p, R_ATTACK, "attack")
    turn = state["turn"]["number"]
    if turn == 1:
        raise RuleViolation("first_turn_attack", R_SETUP, phrase("P1 cannot attack on turn 1."))
    _enter_step(state, "attack")
    monster = _own_monster(p, mid)
    # The rulebook names the positions Attack and Defense Position: a judge rules that only a
    # monster in Attack Position declares attacks.
    if monster["position"] != "attack":
        raise RuleViolation("defense_position", R_POSITION, phrase("Only a monster in Attack Position attacks."))
    if monster["attacked_turn"] == turn:
        raise RuleViolation("already_attacked", R_ATTACK, phrase("Each monster declares at most 1 attack a turn."))
    if monster["evolved_turn"] == turn:
        raise RuleViolation(
            "evolved_this_turn", R_EVOLUTION, phrase("An evolved monster cannot attack the turn it evolved.")
        )
    if monster["switched_turn"] == turn:
        raise RuleViolation(
            "switched_this_turn", R_POSITION, phrase("A monster that switched position cannot attack this turn.")
        )
    opponent = _opponent(state, p)
    if target == "lp" and opponent["monsters"]:
        raise RuleViolation(
            "direct_attack_blocked", R_DIRECT, phrase("LP can be attacked only when the opponent has no monsters.")
        )
    if target_monster is not None and target_monster not in opponent["monsters"]:
        raise RuleViolation(
            "unknown_monster",
            R_ATTACK,
            phrase("The opponent controls no monster '%(monster)s'.", monster=target_monster),
        )
    p = _pay(state, p, cost)
    _set_monster(state, p, mid, attacked_turn=turn)
    state["chain"] = {"trigger": "attack", "links": {}}


def _counter(state: State, data: Mapping[str, Any]) -> None:
    p = _acting(state, data)
    cls = _class(data)
    cost = _cost(data)
    _require_turn(state)
    chain = state["chain"]
    in_combat = chain is not None and chain["trigger"] == "attack"
    if state["turn"]["player"] == p["id"] and not in_combat:
        raise RuleViolation(
            "counter_not_allowed", R_COUNTER, phrase("Counters are played on the opponent's turn or in combat.")
        )
    if not _has_class(p, cls):
        raise RuleViolation(
            "no_matching_monster",
            R_COUNTER,
            # Translators: %(card_class)s is a class of cards (coreon, fluxion, ...), as the rulebook names it.
            phrase("A %(card_class)s Counter needs a %(card_class)s monster in play.", card_class=cls),
        )
    links = dict(chain["links"]) if chain is not None else {}
    key = str(p["id"])
    if links.get(key, 0) >= CHAIN_LINKS_PER_PLAYER:
        raise RuleViolation(
            "chain_cap",
            R_CHAINS,
            phrases(
                "A chain holds at most %(count)s link per player.",
                "A chain holds at most %(count)s links per player.",
                CHAIN_LINKS_PER_PLAYER,
            ),
        )
    _pay(state, p, cost)
    links[key] = links.get(key, 0) + 1
    state["chain"] = {"trigger": chain["trigger"] if chain is not None else "counter", "links": links}


def _resolve_chain(state: State, data: Mapping[str, Any]) -> None:
    _require_turn(state)
    # ``apply`` already closed the chain before calling this handler; the old state says if one was open.


def _remove_monster(state: State, data: Mapping[str, Any]) -> None:
    p = _acting(state, data)
    mid = _monster_id(data)
    _require_turn(state)
    _own_monster(p, mid)
    monsters = dict(p["monsters"])
    del monsters[mid]  # an evolved stack leaves as one
    _set(state, p, monsters=monsters)


def _control_change(state: State, data: Mapping[str, Any]) -> None:
    p = _acting(state, data)
    mid = _monster_id(data)
    _require_turn(state)
    opponent = _opponent(state, p)
    monster = _own_monster(opponent, mid)
    if len(p["monsters"]) >= MONSTER_ZONE_SIZE:
        raise RuleViolation(
            "monster_zone_full",
            R_ZONES,
            phrases(
                "The Monster Zone holds at most %(count)s monster.",
                "The Monster Zone holds at most %(count)s monsters.",
                MONSTER_ZONE_SIZE,
            ),
        )
    theirs = dict(opponent["monsters"])
    del theirs[mid]
    _set(state, opponent, monsters=theirs)
    _set(state, p, monsters={**p["monsters"], mid: monster})


def _lp_change(state: State, data: Mapping[str, Any]) -> None:
    _require_turn(state)
    changes = require(data, "changes", dict)
    if not changes:
        # Translators: changes is an event field's name: it stays as it is.
        raise RuleViolation("invalid_field", "event", phrase("changes needs at least one player."))
    by_id = {str(p["id"]): p for p in state["players"]}
    updates: list[tuple[dict[str, Any], int]] = []
    for key, amount in changes.items():
        p = by_id.get(str(key))
        if p is None:
            raise RuleViolation(
                "unknown_player", "setup", phrase("%(player)s is not in this game.", player=speech.player(key))
            )
        if p["out"]:
            raise RuleViolation(
                "player_out", R_WIN, phrase("%(player)s is out of the game.", player=speech.player(key))
            )
        if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
            raise RuleViolation("invalid_field", "event", phrase("Each LP change must be a non-zero integer."))
        updates.append((p, max(0, p["lp"] + amount)))
    for p, lp in updates:
        _set(state, p, lp=lp)
    losers = [p["id"] for p, lp in updates if lp == 0]
    if losers:
        _lose(state, losers, "LP reached 0")


Handler = Callable[[State, Mapping[str, Any]], None]

_HANDLERS: dict[str, Handler] = {
    "start_turn": _start_turn,
    "end_turn": _end_turn,
    "mana_place": _mana_place,
    "mana_remove": _mana_remove,
    "spend_mana": _spend_mana,
    "select": _select,
    "cast_spell": _cast_spell,
    "summon": _summon,
    "switch_position": _switch_position,
    "evolve": _evolve,
    "attack": _attack,
    "counter": _counter,
    "resolve_chain": _resolve_chain,
    "remove_monster": _remove_monster,
    "control_change": _control_change,
    "lp_change": _lp_change,
}

_MANA_FIELD = "optional: {class: mana spent}"
_MONSTERS = "monsters"  # each player's monsters in play, keyed by the judge's ids


def _mana_field() -> Field:
    return Field.counts(CLASSES, _MANA_FIELD, optional=True, label=phrase("mana spent"))


def _monster(description: str, *, optional: bool = False) -> Field:
    return Field.tag(description, source=_MONSTERS, optional=optional)


_FORMAT_VOCABULARY: tuple[EventSpec, ...] = (
    EventSpec(
        "start_turn",
        {"player": Field.player(phrase("the player whose turn starts"))},
        R_TURN,
        phrase(
            "Starts the next turn, resets the per-turn limits and the player's spent mana; refuses a player out of "
            "order (not_your_turn) or a turn already running (turn_in_progress)."
        ),
    ),
    EventSpec(
        "end_turn",
        {
            "player": Field.player(phrase("the turn player")),
            "hand_size": Field.count(phrase("cards in hand after discarding"), label=phrase("cards in hand")),
            "cannot_select": Field.boolean("optional bool", label=phrase("could not select (empty deck)")),
        },
        f"{R_END}; {R_SELECTION}",
        phrase(
            "Ends the turn (End Phase); refuses a hand over the hand limit, 10 or the event's variant (hand_limit), "
            "and a turn without its selection unless the player could not select (selection_missing)."
        ),
    ),
    EventSpec(
        "mana_place",
        {
            "player": Field.player("the player"),
            "class": Field.choice(CLASSES, phrase("the card's class")),
            "effect": Field.boolean(
                phrase("optional: true when an effect places it"), label=phrase("placed by an effect")
            ),
        },
        R_MANA,
        phrase(
            "Puts a card face-down in the Mana Zone; refuses a card over the mana rate, 1 a turn or 2 in accelerated "
            "play (mana_already_placed), once the Mana Step is over (mana_step_over) or on the opponent's turn, "
            "unless placed by an effect."
        ),
    ),
    EventSpec(
        "mana_remove",
        {
            "player": Field.player("the player"),
            "class": Field.choice(CLASSES, phrase("the class")),
            "count": Field.count("optional, default 1", minimum=1, optional=True, default=1),
        },
        R_MANA_SYSTEM,
        phrase("An effect removes mana cards; refuses more than the zone holds (not_enough_mana)."),
    ),
    EventSpec(
        "spend_mana",
        {
            "player": Field.player("the player"),
            "mana": Field.counts(CLASSES, "{class: mana spent}", label=phrase("mana spent")),
        },
        R_MANA_SYSTEM,
        phrase(
            "Pays a mana cost not covered by another event (an ability, a lock); refuses more than is available "
            "(not_enough_mana)."
        ),
    ),
    EventSpec(
        "select",
        {
            "player": Field.player(phrase("the turn player")),
            "cannot_select": Field.boolean(
                phrase("optional: true when the player cannot select (an empty deck): the step passes with no card"),
                label=phrase("could not select (empty deck)"),
            ),
        },
        R_SELECTION,
        phrase(
            "The turn's selection (replaces drawing); refuses a second one (already_selected) and a selection once "
            "the Selection Step is over (step_order)."
        ),
    ),
    EventSpec(
        "cast_spell",
        {
            "player": Field.player(phrase("the turn player")),
            "class": Field.choice(CLASSES, phrase("the Spell's class")),
            "kind": Field.choice(("instant", "ongoing"), "instant|ongoing"),
            "mana": _mana_field(),
        },
        R_SPELL,
        phrase(
            "Casts a Spell and opens a chain; refuses the opponent's turn, no monster of its class (no_matching_monster) "
            "and unaffordable mana (not_enough_mana)."
        ),
    ),
    EventSpec(
        "summon",
        {
            "player": Field.player("the player"),
            "monster": _monster(phrase("the id the judge gives it")),
            "class": Field.choice(CLASSES, phrase("its class")),
            "method": Field.choice(("normal", "mana", "special"), "normal|mana|special"),
            "level": Field.count(phrase("required for normal"), optional=True),
            "position": Field.choice(
                ("attack", "defense"), phrase("optional: attack (default)|defense"), optional=True, default="attack"
            ),
            "mana": _mana_field(),
            "prime_singular": Field.boolean("optional bool", label=phrase("Prime Singular")),
            "replaces": _monster(phrase("optional: the monster a Prime Singular replaces"), optional=True),
        },
        f"{R_SUMMON}; {R_ZONES}; {R_PRIME_SINGULAR}",
        phrase(
            "Puts a monster in the Monster Zone; refuses a 2nd Normal Summon (normal_summon_used), Level > 3 "
            "(normal_summon_level), an 8th monster (monster_zone_full), a Prime Singular with < 2 monsters "
            "(prime_singular_condition), an id in play (duplicate_monster)."
        ),
    ),
    EventSpec(
        "switch_position",
        {"player": Field.player(phrase("the turn player")), "monster": _monster(phrase("the monster"))},
        R_POSITION,
        phrase("Switches AP/DP; refuses a second switch of the monster this turn (already_switched)."),
    ),
    EventSpec(
        "evolve",
        {
            "player": Field.player(phrase("the turn player")),
            "monster": _monster(phrase("the monster")),
            "mana": _mana_field(),
        },
        R_EVOLUTION,
        phrase(
            "Stacks the next stage; refuses a second evolution this turn (evolution_used) and a third-stage monster "
            "(final_stage)."
        ),
    ),
    EventSpec(
        "attack",
        {
            "player": Field.player(phrase("the turn player")),
            "monster": _monster(phrase("the attacker")),
            "target": Field.choice(ATTACK_TARGETS, "lp|monster|board|global"),
            "target_monster": _monster(phrase("with target monster: the opponent's monster"), optional=True),
            "mana": _mana_field(),
        },
        f"{R_ATTACK}; {R_DIRECT}",
        phrase(
            "Declares an attack and opens a combat window; refuses turn 1 (first_turn_attack), a second attack "
            "(already_attacked), a monster that evolved/switched this turn or is in DP, and LP while the opponent has "
            "monsters (direct_attack_blocked)."
        ),
    ),
    EventSpec(
        "counter",
        {
            "player": Field.player("the player"),
            "class": Field.choice(CLASSES, phrase("the Counter's class")),
            "mana": _mana_field(),
        },
        f"{R_COUNTER}; {R_CHAINS}",
        phrase(
            "Adds a chain link; refuses one's own turn outside combat (counter_not_allowed), a 4th link of a player "
            "(chain_cap) and no monster of its class (no_matching_monster)."
        ),
    ),
    EventSpec("resolve_chain", {}, R_CHAINS, phrase("Resolves the open chain (any other non-Counter event does too).")),
    EventSpec(
        "remove_monster",
        {
            "player": Field.player(phrase("the controller")),
            "monster": _monster(phrase("the monster")),
            "reason": Field.text("optional text", optional=True),
        },
        R_ZONES,
        phrase("The monster (its whole stack) leaves the Monster Zone."),
    ),
    EventSpec(
        "control_change",
        {"player": Field.player(phrase("the new controller")), "monster": _monster(phrase("the opponent's monster"))},
        R_ATTACK,
        phrase("A control effect moves a monster; refuses a full Monster Zone (monster_zone_full)."),
    ),
    EventSpec(
        "lp_change",
        {"changes": Field.player_amounts("{player id: signed LP change}, all at once", label=phrase("LP changes"))},
        R_VICTORY,
        phrase("Changes LP (floored at 0); a player at 0 loses, both at 0 at once draw."),
    ),
)

#: One-tap buttons on each player's card: the entries a judge records most often.
QUICK_ENTRIES: tuple[QuickEntry, ...] = (
    QuickEntry("start_turn", phrase("Start turn"), "start_turn", {"player": THE_PLAYER}, When.PLAYS_NEXT),
    QuickEntry("select", phrase("Selection"), "select", {"player": THE_PLAYER}, When.THEIR_TURN),
    *(
        QuickEntry(
            f"lp_{n}", phrase("−%(amount)s LP", amount=n), "lp_change", {"changes": {THE_PLAYER: -n}}, When.IN_A_TURN
        )
        for n in (1000, 500, 100)
    ),
)


class MintaynMasterEngine:
    """The :class:`rules.engine.Engine` for ``mintayn-master``: one object, no state of its own."""

    slug: str  # set by the format record that registers this engine (rules/base.py)
    VOCABULARY: dict[str, EventSpec] = {**{spec.type: spec for spec in _FORMAT_VOCABULARY}, **COMMON_VOCABULARY}
    QUICK_ENTRIES = QUICK_ENTRIES

    def new_game(self, players: Sequence[int], options: Mapping[str, Any] | None = None) -> State:
        try:
            chosen = read(OPTIONS, options, format_name="Mintayn Master")
        except OptionError as exc:
            raise RuleViolation("invalid_option", R_VARIANTS, exc.message) from None
        lp = chosen["starting_lp"]
        hands = tuple(int(n) for n in chosen["starting_hand"].split("/"))
        ids = list(players)
        if len(ids) != 2 or any(isinstance(pid, bool) or not isinstance(pid, int) for pid in ids):
            raise RuleViolation(
                "invalid_players", R_SETUP, phrase("Master is played by exactly two players (integer ids).")
            )
        state = base_state(
            ids, starting_lp=lp, mana_rate=chosen["mana_rate"], hand_limit=chosen["hand_size"],
            this_turn=dict(_FRESH_TURN), chain=None,
        )  # fmt: skip
        for p, hand in zip(state["players"], hands, strict=True):
            p["lp"] = lp
            p["hand_size"] = hand
            p.update(_mana(_NO_MANA, _NO_MANA))
            p["monsters"] = {}
        return state

    def apply(self, state: State, event: GameEvent) -> State:
        common = apply_common(state, event)
        if common is not None:
            return common
        handler = _HANDLERS.get(event.type)
        if handler is None:
            raise RuleViolation(
                "unknown_event",
                "event",
                # Translators: '%(event)s' is the type of entry the judge sent; mintayn-master is the format's id.
                phrase("'%(event)s' is not a mintayn-master event.", event=event.type),
            )
        ensure_in_progress(state)
        if not isinstance(event.data, Mapping):
            raise RuleViolation("invalid_field", "event", phrase("Event data must be a mapping."))
        if event.type == "resolve_chain" and state["chain"] is None:
            raise RuleViolation("no_chain", R_CHAINS, phrase("No chain is open."))
        new = _fork(state)
        if event.type != "counter":
            new["chain"] = None  # anything but a Counter lets the open chain resolve (LIFO)
        handler(new, event.data)
        new["seq"] = state["seq"] + 1
        return new


ENGINE = MintaynMasterEngine()


def mana_available(player: Mapping[str, Any]) -> int | None:
    """The mana a player has left to spend this turn, all classes together (what an overlay shows)."""
    available = player.get("mana_available")
    if not isinstance(available, Mapping):
        return None
    return sum(n for n in available.values() if isinstance(n, int))
