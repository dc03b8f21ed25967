"""Yu-Gi-Oh! Deck Masters: the game engine for one duel, and the best-of-three match helper.

The rulebook (``yugioh-deck-masters.txt``) has no numbered sections, so refusals name its
headings (``"SUMMONING YOUR DECK MASTER"``).  What it takes from a standard duel (8000 LP, the
phases of a turn, losing at 0 LP) is cited as ``"standard duel rules"``.

Terms
-----
*duel*
    One game between two players: this engine's ``state``.  Players are ids in turn order: the
    first id takes turn 1.
*Deck Master*
    The monster each player chose before the duel.  It starts in its *Deck Master Position*
    (a holding place separate from the game, ``location == "position"``); it may be Special
    Summoned to its owner's field at any time of either player's turn except the Damage Step
    (``location == "field"``).  A player whose Deck Master is neither in its Position nor face-up
    on their field loses at once (``location == "lost"``); two players losing at once draw.
*replacement*
    Tributing the Deck Master on the field for a Tribute Summon, Fusion Summon or Ritual Summon:
    the new monster, which is on the field, becomes the Deck Master; the old one is a regular card.
    The Deck Master Position stays empty: the new Deck Master can only go there by an Ability.
*phase / step*
    The phase of the current turn as the judge records it (``draw`` ... ``end``), and the step of the
    Battle Phase (``start``, ``battle``, ``damage``, ``end``).  The engine needs it to know whether it
    is the Damage Step.  ``None`` means not recorded yet this turn, which is not the Damage Step.
*Ability*
    What a Deck Master lets its player do ("THE ABILITY").  ``activate_ability`` records one
    activation by the player of their Deck Master's Ability, wherever the Deck Master is; its limits
    (once per turn, an LP cost, reaching a Deck Master in its Position) come from :data:`ABILITIES`,
    the rulebook's own Deck Masters, and for any other Deck Master from what the judge states in the
    entry.
*match*
    Best of three duels: :func:`match_result` turns the duel results (``state["result"]`` of each
    duel, in order) into match placements once the match is decided.

State (on top of :func:`rules.engine.base_state`)
---------------------------------------------------------
``phase``, ``step``
    The recorded phase and Battle Phase step of the current turn, ``None`` between turns.
each player
    ``lp`` (Life Points, never below 0), ``deck_master`` (``{"card", "location", "position"}``:
    ``card`` is the name if the judge gave one, ``position`` is ``"attack"``/``"defence"`` on the
    field), ``replacements`` (how many times the Deck Master was replaced) and ``abilities_used``
    (the Abilities activated this turn, ``[{"deck_master", "ability", "negated"}]``, emptied when a
    turn starts or ends).

Contract
--------
``ENGINE.new_game(players, options)`` with exactly two players and the optional option
``{"deck_masters": {player id: card name}}``; ``ENGINE.apply(state, event)`` returns a new state
and never mutates ``state``.  Judge actions shared by all formats come from
:func:`rules.engine.apply_common`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
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
from rules.speech import phrase, phrases

STARTING_LP = 8000

R_SETUP = "DUEL SETUP"
R_POSITION = "THE DECK MASTER POSITION"
R_ABILITY = "THE ABILITY"
R_SUMMON = "SUMMONING YOUR DECK MASTER"
R_FIELD = "DECK MASTERS ON THE FIELD"
R_CHANGE = "CHANGING YOUR DECK MASTER"
R_WIN = "WINNING WITH DECK MASTERS"
R_DUEL = "standard duel rules"

PHASES: tuple[str, ...] = ("draw", "standby", "main1", "battle", "main2", "end")
BATTLE_STEPS: tuple[str, ...] = ("start", "battle", "damage", "end")
#: Legal moves between Battle Phase steps: after each attack's Damage Step play returns to the
#: Battle Step (another attack) or goes on to the End Step.
_STEP_NEXT: dict[str, frozenset[str]] = {
    "start": frozenset({"battle", "end"}),
    "battle": frozenset({"damage", "end"}),
    "damage": frozenset({"battle", "end"}),
    "end": frozenset(),
}
POSITIONS: dict[str, str] = {"attack": "attack", "defence": "defence", "defense": "defence"}
REPLACEMENT_METHODS: tuple[str, ...] = ("tribute_summon", "fusion_summon", "ritual_summon")
LOSS_CAUSES: tuple[str, ...] = ("destroyed", "hand", "deck", "banished", "tributed", "other")
MAIN_PHASES: tuple[str, ...] = ("main1", "main2")


# --- the rulebook's Deck Master Abilities ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AbilityLimits:
    """What the rulebook says of one Deck Master's Ability; ``None``: it does not say (the judge states it).

    ``once_per_turn``: the Ability can be activated once per turn (a negated activation counts);
    ``cost``: the Life Points paid on activation (paid even when the Ability is negated);
    ``reaches_position``: the Ability specifically says it can affect a Deck Master in a Deck Master Position.
    """

    quote: str
    once_per_turn: bool | None = None
    cost: int | None = None
    reaches_position: bool | None = None


#: The Deck Masters whose Abilities the rulebook describes (its examples under "THE ABILITY"; it has no full list
#: of Deck Masters and their Abilities), by card name.  A Deck Master not here: the judge states the limits in the
#: entry (``once_per_turn``, ``cost``, ``reaches_position``); a limit given here cannot be stated otherwise.
ABILITIES: dict[str, AbilityLimits] = {
    "Hyper Hammerhead": AbilityLimits(
        "My Deck Master is “Hyper Hammerhead”. Its Ability can only be activated once per turn by paying 700 Life "
        "Points, and my opponent can negate it by paying 800 Life Points when I activate it. [...] The effect of the "
        "Ability is negated, and I cannot activate the Ability again this turn.",
        once_per_turn=True,
        cost=700,
    ),
    "Blast Juggler": AbilityLimits(
        "The Ability of the Deck Master “Blast Juggler” has a cost of 10,000 Life Points. If I have 10,000 Life "
        "Points or less, I cannot activate the Ability of “Blast Juggler”.",
        cost=10000,
    ),
    "Goldd, Wu-Lord of Dark World": AbilityLimits(
        "My Deck Master is “Goldd, Wu-Lord of Dark World”. Its Ability allows me to destroy 1 card my opponent "
        "controls. However, it cannot destroy a card in my opponent’s Deck Master Position, because it doesn’t "
        "specifically state that it can do so.",
        reaches_position=False,
    ),
    "Mysterious Puppeteer": AbilityLimits(
        "My Deck Master is “Mysterious Puppeteer”. Its Ability allows me to Special Summon my opponent’s Deck Master "
        "from its Deck Master Position to the field. This is an example of an Ability that specifically states that "
        "it affects a card in a Deck Master Position (my opponent’s).",
        reaches_position=True,
    ),
}


def _fold(name: str) -> str:
    """A name as the table is looked up by: case, quotes and a trailing "'s Ability" aside."""
    folded = " ".join(name.replace("“", "").replace("”", "").replace('"', "").replace("’", "'").casefold().split())
    return folded.removesuffix("'s ability").removesuffix(" ability")


_ABILITIES_FOLDED: dict[str, tuple[str, AbilityLimits]] = {_fold(k): (k, v) for k, v in ABILITIES.items()}


def ability_limits(name: str | None) -> tuple[str, AbilityLimits] | None:
    """The rulebook's Deck Master called ``name`` (case and quotes aside) and its Ability's limits, if it has one."""
    return _ABILITIES_FOLDED.get(_fold(name)) if name else None


# --- small helpers --------------------------------------------------------------------------------


_fork = fork  # nested values (``deck_master``) are replaced, never mutated


def _acting(state: State, pid: Any) -> dict[str, Any]:
    p = player(state, pid)
    if p["out"]:
        raise RuleViolation("player_out", R_WIN, phrase("%(player)s is out of the duel.", player=speech.player(pid)))
    return p


def _require_turn(state: State) -> None:
    if state["turn"]["player"] is None:
        raise RuleViolation("no_turn", R_DUEL, phrase("No turn is in progress: record start_turn first."))


def _is_damage_step(state: State) -> bool:
    return bool(state["phase"] == "battle" and state["step"] == "damage")


def _position(data: Mapping[str, Any], default: str | None = None) -> str:
    if "position" not in data and default is not None:
        return default
    value = require(data, "position", str)
    if value not in POSITIONS:
        # Translators: position is an event field, 'attack' and 'defence' its values: they stay as they are.
        raise RuleViolation("invalid_field", R_SUMMON, phrase("position must be 'attack' or 'defence'."))
    return POSITIONS[value]


def _optional_str(data: Mapping[str, Any], name: str) -> str | None:
    if data.get(name) is None:
        return None
    value = require(data, name, str).strip()
    return value or None


def _optional_bool(data: Mapping[str, Any], name: str) -> bool:
    if name not in data:
        return False
    return bool(require(data, name, bool))


def _stated_limits(data: Mapping[str, Any], name: str | None) -> dict[str, Any]:
    """The Ability's limits: the rulebook's (:data:`ABILITIES`) where it gives one, else what the entry states."""
    stated: dict[str, Any] = {}
    if "once_per_turn" in data:
        stated["once_per_turn"] = _optional_bool(data, "once_per_turn")
    if data.get("cost") is not None:
        stated["cost"] = require(data, "cost", int, minimum=0)
    if "reaches_position" in data:
        stated["reaches_position"] = _optional_bool(data, "reaches_position")
    known = ability_limits(name)
    limits = {"once_per_turn": False, "cost": 0, "reaches_position": False}
    for key in limits:
        rulebook = getattr(known[1], key) if known is not None else None
        if known is not None and rulebook is not None and key in stated and stated[key] != rulebook:
            raise RuleViolation(
                "invalid_field",
                R_ABILITY,
                phrase(
                    # Translators: %(card)s is a Deck Master's name, '%(field)s' a field of the entry and %(value)s
                    # the value the rulebook gives it (True, False or a number of Life Points).
                    "The rulebook gives %(card)s's Ability '%(field)s' = %(value)s: leave the field out or state the "
                    "same.",
                    card=known[0],
                    field=key,
                    value=repr(rulebook),
                ),
            )
        limits[key] = rulebook if rulebook is not None else stated.get(key, limits[key])
    return limits


def _lose(state: State, losers: Sequence[Any], reason: str) -> None:
    """The given players lose at once; when every player still in loses, the duel is a draw."""
    remaining = [p["id"] for p in state["players"] if not p["out"]]
    if set(losers) >= set(remaining):
        finish(state, dict.fromkeys(remaining, 1), reason=f"draw: {reason}")
        return
    for pid in losers:
        eliminate(state, pid, reason)


def _update_player(state: State, pid: Any, **changes: Any) -> dict[str, Any]:
    for index, p in enumerate(state["players"]):
        if p["id"] == pid:
            new: dict[str, Any] = {**p, **changes}
            state["players"][index] = new
            return new
    raise RuleViolation("unknown_player", "setup", phrase("%(player)s is not in this game.", player=speech.player(pid)))


# --- event handlers -------------------------------------------------------------------------------


def _start_turn(state: State, data: Mapping[str, Any]) -> None:
    pid = require(data, "player", int)
    _acting(state, pid)
    if state["turn"]["player"] is not None:
        raise RuleViolation("turn_in_progress", R_DUEL, phrase("The current turn has not ended."))
    order = [p["id"] for p in state["players"]]
    expected = order[state["turn"]["number"] % len(order)]
    if pid != expected:
        raise RuleViolation(
            "not_your_turn", R_DUEL, phrase("The next turn is %(player)s's.", player=speech.player(expected))
        )
    state["turn"] = {"number": state["turn"]["number"] + 1, "player": pid}
    state["phase"] = None
    state["step"] = None
    _clear_abilities_used(state)


def _clear_abilities_used(state: State) -> None:
    for p in list(state["players"]):
        if p.get("abilities_used"):
            _update_player(state, p["id"], abilities_used=[])


def _end_turn(state: State, data: Mapping[str, Any]) -> None:
    pid = require(data, "player", int)
    _acting(state, pid)
    _require_turn(state)
    if pid != state["turn"]["player"]:
        raise RuleViolation(
            "not_your_turn", R_DUEL, phrase("It is %(player)s's turn.", player=speech.player(state["turn"]["player"]))
        )
    state["turn"] = {"number": state["turn"]["number"], "player": None}
    state["phase"] = None
    state["step"] = None
    _clear_abilities_used(state)


def _phase(state: State, data: Mapping[str, Any]) -> None:
    _require_turn(state)
    phase = require(data, "phase", str)
    if phase not in PHASES:
        raise RuleViolation(
            "invalid_field",
            R_DUEL,
            # Translators: phase is an event field; %(phases)s its values (draw, main1, ...): they stay as they are.
            phrase("phase must be one of %(phases)s.", phases=", ".join(PHASES)),
        )
    step = _optional_str(data, "step")
    if phase != "battle" and step is not None:
        raise RuleViolation("invalid_field", R_DUEL, phrase("Only the Battle Phase has steps."))
    if step is not None and step not in BATTLE_STEPS:
        raise RuleViolation(
            "invalid_field",
            R_DUEL,
            # Translators: step is an event field; %(steps)s its values (start, battle, ...): they stay as they are.
            phrase("step must be one of %(steps)s.", steps=", ".join(BATTLE_STEPS)),
        )
    current = state["phase"]
    now = PHASES.index(current) if current is not None else -1
    wanted = PHASES.index(phase)
    if wanted < now:
        # Translators: %(phase)s is a phase as the entry names it (draw, standby, main1, battle, main2, end).
        raise RuleViolation("phase_order", R_DUEL, phrase("The turn is past the %(phase)s phase.", phase=phase))
    if phase == "battle":
        if current == "battle":
            if step is None or step not in _STEP_NEXT[state["step"]]:
                raise RuleViolation(
                    "phase_order",
                    R_DUEL,
                    phrase(
                        # Translators: %(current)s and %(wanted)s are Battle Phase steps as the entry names them
                        # (start, battle, damage, end).
                        "The Battle Phase cannot go from %(current)s to %(wanted)s.",
                        current=str(state["step"]),
                        wanted=str(step),
                    ),
                )
        else:
            # Entering the Battle Phase: the Damage Step always follows an attack's Battle Step.
            step = step or "start"
            if step not in ("start", "battle"):
                raise RuleViolation(
                    "phase_order", R_DUEL, phrase("The Battle Phase starts at its Start or Battle Step.")
                )
    elif wanted == now:
        # Translators: %(phase)s is a phase as the entry names it (draw, standby, main1, battle, main2, end).
        raise RuleViolation("phase_order", R_DUEL, phrase("It is already the %(phase)s phase.", phase=phase))
    state["phase"] = phase
    state["step"] = step if phase == "battle" else None


def _lp_change(state: State, data: Mapping[str, Any]) -> None:
    _require_turn(state)
    changes = require(data, "changes", dict)
    if not changes:
        # Translators: changes is an event field's name: it stays as it is.
        raise RuleViolation("invalid_field", "event", phrase("changes needs at least one player."))
    is_cost = _optional_bool(data, "cost")
    by_id = {str(p["id"]): p for p in state["players"]}
    updates: dict[Any, int] = {}
    for key, amount in changes.items():
        p = by_id.get(str(key))
        if p is None:
            raise RuleViolation(
                "unknown_player", "setup", phrase("%(player)s is not in this game.", player=speech.player(key))
            )
        if p["out"]:
            raise RuleViolation(
                "player_out", R_WIN, phrase("%(player)s is out of the duel.", player=speech.player(key))
            )
        if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
            raise RuleViolation("invalid_field", "event", phrase("Each LP change must be a non-zero integer."))
        if is_cost:
            # The Blast Juggler example: a cost of 10,000 LP cannot be paid with 10,000 LP or less.
            if amount > 0:
                raise RuleViolation("invalid_field", R_ABILITY, phrase("A cost lowers Life Points."))
            if -amount >= p["lp"]:
                raise RuleViolation(
                    "cannot_pay_cost",
                    R_ABILITY,
                    phrase(
                        "%(player)s has %(lp)s LP and cannot pay %(cost)s.",
                        player=speech.player(p["id"]),
                        lp=p["lp"],
                        cost=-amount,
                    ),
                )
        updates[p["id"]] = max(0, p["lp"] + amount)
    for pid, lp in updates.items():
        _update_player(state, pid, lp=lp)
    losers = [pid for pid, lp in updates.items() if lp == 0]
    if losers:
        _lose(state, losers, "Life Points reached 0")


def _deck_master_summon(state: State, data: Mapping[str, Any]) -> None:
    pid = require(data, "player", int)
    p = _acting(state, pid)
    position = _position(data)
    by_ability = _optional_bool(data, "by_ability")
    _require_turn(state)
    if p["deck_master"]["location"] != "position":
        raise RuleViolation(
            "deck_master_not_in_position",
            R_SUMMON,
            phrase("%(player)s's Deck Master Position is empty.", player=speech.player(pid)),
        )
    # An Ability may make exceptions to any rule (SUMMARY), so a Special Summon by an Ability is
    # left to the Ability's own timing; the player's own Special Summon never happens in the Damage Step.
    if _is_damage_step(state) and not by_ability:
        raise RuleViolation(
            "damage_step", R_SUMMON, phrase("A Deck Master cannot be Special Summoned during the Damage Step.")
        )
    _update_player(state, pid, deck_master={**p["deck_master"], "location": "field", "position": position})


def _deck_master_position(state: State, data: Mapping[str, Any]) -> None:
    pid = require(data, "player", int)
    p = _acting(state, pid)
    _require_turn(state)
    value = require(data, "position", str)
    if value in ("face_down", "face_down_defence", "face_down_defense", "set"):
        raise RuleViolation("deck_master_face_down", R_FIELD, phrase("A Deck Master cannot be flipped face-down."))
    position = _position(data)
    if p["deck_master"]["location"] != "field":
        raise RuleViolation(
            "deck_master_not_on_field",
            R_FIELD,
            phrase("%(player)s's Deck Master is not on the field.", player=speech.player(pid)),
        )
    _update_player(state, pid, deck_master={**p["deck_master"], "position": position})


def _deck_master_return(state: State, data: Mapping[str, Any]) -> None:
    pid = require(data, "player", int)
    p = _acting(state, pid)
    _require_turn(state)
    if p["deck_master"]["location"] != "field":
        raise RuleViolation(
            "deck_master_not_on_field",
            R_SUMMON,
            phrase("%(player)s's Deck Master is not on the field.", player=speech.player(pid)),
        )
    if _optional_str(data, "ability") is None:
        raise RuleViolation(
            "deck_master_return_forbidden",
            R_SUMMON,
            phrase(
                "A Deck Master on the field returns to its Deck Master Position only by a Deck Master Ability: name it."
            ),
        )
    _update_player(state, pid, deck_master={**p["deck_master"], "location": "position", "position": None})


def _deck_master_replace(state: State, data: Mapping[str, Any]) -> None:
    pid = require(data, "player", int)
    p = _acting(state, pid)
    method = require(data, "method", str)
    card = _optional_str(data, "card")
    by = require(data, "by", int) if "by" in data else pid
    _require_turn(state)
    if by != pid:
        player(state, by)
        raise RuleViolation(
            "opponent_deck_master_tribute", R_FIELD, phrase("You cannot Tribute your opponent's Deck Master.")
        )
    if method not in REPLACEMENT_METHODS:
        raise RuleViolation(
            "tribute_not_allowed",
            R_CHANGE,
            phrase(
                # Translators: %(methods)s are the values of the entry's method field (tribute_summon, ...).
                "A Deck Master can only be Tributed for a Tribute Summon (not a Tribute Set), a Fusion Summon or a "
                "Ritual Summon (%(methods)s).",
                methods=", ".join(REPLACEMENT_METHODS),
            ),
        )
    position = _position(data, default="attack")
    if method == "tribute_summon" and position != "attack":
        raise RuleViolation(
            "tribute_not_allowed",
            R_CHANGE,
            phrase("A Tribute Summon is face-up Attack Position; a Tribute Set cannot use it."),
        )
    if method == "tribute_summon":
        # A Tribute Summon is a Normal Summon: its player's own turn, in a Main Phase (standard duel rules).
        if state["turn"]["player"] != pid:
            raise RuleViolation(
                "not_your_turn",
                R_DUEL,
                phrase(
                    "A Tribute Summon is a Normal Summon: only in %(player)s's own turn.", player=speech.player(pid)
                ),
            )
        if state["phase"] not in MAIN_PHASES:
            raise RuleViolation(
                "not_main_phase",
                R_DUEL,
                phrase(
                    "A Tribute Summon is a Normal Summon: only in its player's Main Phase (record the phase main1 or "
                    "main2 first)."
                ),
            )
    if p["deck_master"]["location"] != "field":
        # The Position is separate from the game: only a Deck Master on the field can be Tributed.
        raise RuleViolation(
            "deck_master_not_on_field",
            R_CHANGE,
            phrase("%(player)s's Deck Master is not on the field.", player=speech.player(pid)),
        )
    _update_player(
        state,
        pid,
        deck_master={"card": card, "location": "field", "position": position},
        replacements=p["replacements"] + 1,
    )


def _deck_master_lost(state: State, data: Mapping[str, Any]) -> None:
    pids = require(data, "players", list)
    if not pids or len(set(map(repr, pids))) != len(pids):
        # Translators: players is an event field's name: it stays as it is.
        raise RuleViolation("invalid_field", "event", phrase("players lists each losing player once."))
    cause = _optional_str(data, "cause")
    if cause is not None and cause not in LOSS_CAUSES:
        raise RuleViolation(
            "invalid_field",
            "event",
            # Translators: cause is an event field; %(causes)s its values (destroyed, hand, ...): they stay as they
            # are.
            phrase("cause must be one of %(causes)s.", causes=", ".join(LOSS_CAUSES)),
        )
    ability = _optional_str(data, "ability")
    reaches = _stated_limits(data, ability)["reaches_position"] if ability is not None else False
    _require_turn(state)
    if cause == "tributed":
        raise RuleViolation(
            "tribute_not_allowed",
            R_FIELD,
            phrase(
                "A Deck Master can only be Tributed for a Tribute, Fusion or Ritual Summon: record deck_master_replace."
            ),
        )
    for pid in pids:
        if isinstance(pid, bool) or not isinstance(pid, int):
            # Translators: players is an event field's name: it stays as it is.
            raise RuleViolation("invalid_field", "event", phrase("players lists player ids."))
        p = _acting(state, pid)
        if p["deck_master"]["location"] == "position" and ability is None:
            raise RuleViolation(
                "deck_master_protected",
                R_POSITION,
                phrase(
                    "A card in the Deck Master Position is affected only by a Deck Master Ability that says so: name it."
                ),
            )
        if p["deck_master"]["location"] == "position" and not reaches:
            # "An Ability cannot affect a Deck Master in a Deck Master Position, unless it specifically says it can
            # do so." (THE ABILITY)
            raise RuleViolation(
                "deck_master_protected",
                R_ABILITY,
                phrase(
                    # Translators: %(card)s is the name of the Deck Master whose Ability it is.
                    "An Ability cannot affect a Deck Master in a Deck Master Position unless it specifically says so: "
                    "%(card)s's does not (for an Ability the rulebook does not list, state reaches_position).",
                    card=ability,
                ),
            )
    for pid in pids:
        p = player(state, pid)
        _update_player(state, pid, deck_master={**p["deck_master"], "location": "lost", "position": None})
    _lose(state, pids, "Deck Master neither in its Deck Master Position nor face-up on the field")


def _activate_ability(state: State, data: Mapping[str, Any]) -> None:
    pid = require(data, "player", int)
    p = _acting(state, pid)
    ability = _optional_str(data, "ability")
    negated = _optional_bool(data, "negated")
    in_damage_step = _optional_bool(data, "in_damage_step")
    _require_turn(state)
    card = p["deck_master"]["card"]
    limits = _stated_limits(data, card)
    # "You can use the Abilities of your Deck Master regardless of where your Deck Master is (either in its Deck
    # Master Position or face-up on your side of the field)." (THE ABILITY)
    if p["deck_master"]["location"] not in ("position", "field"):
        raise RuleViolation(
            "deck_master_lost", R_WIN, phrase("%(player)s has no Deck Master.", player=speech.player(pid))
        )
    # "If there are no restrictions, then they can be activated at any time except the Damage Step." (THE ABILITY)
    if _is_damage_step(state) and not in_damage_step:
        raise RuleViolation(
            "damage_step",
            R_ABILITY,
            phrase(
                "An Ability cannot be activated during the Damage Step unless its own text says it can (in_damage_step)."
            ),
        )
    used = list(p.get("abilities_used") or [])
    # The rulebook's Deck Masters have one Ability each: the Ability's name does not tell two apart.
    one = ability_limits(card) is not None
    if limits["once_per_turn"] and any(u["deck_master"] == card and (one or u["ability"] == ability) for u in used):
        # "... The effect of the Ability is negated, and I cannot activate the Ability again this turn." (THE ABILITY)
        raise RuleViolation(
            "ability_once_per_turn",
            R_ABILITY,
            phrase(
                "%(player)s's Deck Master's Ability can be activated once per turn and was activated this turn (a "
                "negated activation counts).",
                player=speech.player(pid),
            ),
        )
    cost = limits["cost"]
    # "Some Abilities have costs to pay, which are paid upon activation. If you cannot pay the entire cost, you
    # cannot activate the Ability." (THE ABILITY; Blast Juggler: a cost must be less than the player's LP)
    if cost and cost >= p["lp"]:
        raise RuleViolation(
            "cannot_pay_cost",
            R_ABILITY,
            phrase(
                "%(player)s has %(lp)s LP and cannot pay %(cost)s.", player=speech.player(pid), lp=p["lp"], cost=cost
            ),
        )
    used.append({"deck_master": card, "ability": ability, "negated": negated})
    _update_player(state, pid, lp=p["lp"] - cost, abilities_used=used)


Handler = Callable[[State, Mapping[str, Any]], None]

_HANDLERS: dict[str, Handler] = {
    "start_turn": _start_turn,
    "end_turn": _end_turn,
    "phase": _phase,
    "lp_change": _lp_change,
    "deck_master_summon": _deck_master_summon,
    "deck_master_position": _deck_master_position,
    "deck_master_return": _deck_master_return,
    "deck_master_replace": _deck_master_replace,
    "deck_master_lost": _deck_master_lost,
    "activate_ability": _activate_ability,
}

_DECK_MASTER_POSITIONS = ("attack", "defence")

_FORMAT_VOCABULARY: tuple[EventSpec, ...] = (
    EventSpec(
        "start_turn",
        {"player": Field.player(phrase("the player whose turn starts"))},
        R_DUEL,
        phrase(
            "Starts the next turn; refuses a player out of order (not_your_turn) or a turn already running "
            "(turn_in_progress)."
        ),
    ),
    EventSpec(
        "end_turn",
        {"player": Field.player(phrase("the turn player"))},
        R_DUEL,
        phrase("Ends the turn and clears the phase; refuses anyone but the turn player (not_your_turn)."),
    ),
    EventSpec(
        "phase",
        {
            "phase": Field.choice(PHASES, "draw|standby|main1|battle|main2|end"),
            "step": Field.choice(BATTLE_STEPS, phrase("Battle Phase only: start|battle|damage|end"), optional=True),
        },
        R_DUEL,
        phrase("Records the phase (and Battle Phase step); refuses going back (phase_order)."),
    ),
    EventSpec(
        "lp_change",
        {
            "changes": Field.player_amounts("{player id: signed LP change}, all at once", label=phrase("LP changes")),
            "cost": Field.boolean(phrase("optional: true when paying a cost"), label=phrase("paying a cost")),
        },
        f"{R_DUEL}; {R_ABILITY}; {R_WIN}",
        phrase(
            "Changes Life Points (floored at 0); a player at 0 loses, both at 0 at once draw. Refuses a cost the "
            "player cannot pay in full (cannot_pay_cost)."
        ),
    ),
    EventSpec(
        "deck_master_summon",
        {
            "player": Field.player(phrase("the Deck Master's owner")),
            "position": Field.choice(_DECK_MASTER_POSITIONS, "attack|defence"),
            "by_ability": Field.boolean(phrase("optional: true when a Deck Master Ability summons it")),
        },
        R_SUMMON,
        phrase(
            "Special Summons the Deck Master from its Position to its owner's field; refuses an empty Position "
            "(deck_master_not_in_position) and the Damage Step (damage_step)."
        ),
    ),
    EventSpec(
        "deck_master_position",
        {
            "player": Field.player(phrase("the Deck Master's owner")),
            "position": Field.choice(_DECK_MASTER_POSITIONS, phrase("attack|defence (face_down is refused)")),
        },
        R_FIELD,
        phrase(
            "Changes the battle position of the Deck Master on the field; refuses face-down (deck_master_face_down)."
        ),
    ),
    EventSpec(
        "deck_master_return",
        {
            "player": Field.player(phrase("the Deck Master's owner")),
            "ability": Field.text(phrase("the Deck Master Ability returning it")),
        },
        R_SUMMON,
        phrase(
            "Returns the Deck Master on the field to its Position; refuses it without an Ability "
            "(deck_master_return_forbidden)."
        ),
    ),
    EventSpec(
        "deck_master_replace",
        {
            "player": Field.player(phrase("the Deck Master's owner")),
            "method": Field.choice(REPLACEMENT_METHODS, "tribute_summon|fusion_summon|ritual_summon"),
            "card": Field.card(phrase("optional: the new Deck Master's name"), optional=True),
            "position": Field.choice(
                _DECK_MASTER_POSITIONS,
                phrase("optional: attack (default)|defence; a Tribute Summon is attack"),
                optional=True,
                default="attack",
            ),
            "by": Field.player(phrase("optional: the player tributing it (default: the owner)"), optional=True),
        },
        R_CHANGE,
        phrase(
            "The Summoned monster becomes the Deck Master, on the field; refuses other Tributes (tribute_not_allowed), "
            "the opponent's Tribute (opponent_deck_master_tribute), a Deck Master not on the field, and a Tribute Summon "
            "outside its player's own turn (not_your_turn) or Main Phase (not_main_phase)."
        ),
    ),
    EventSpec(
        "deck_master_lost",
        {
            "players": Field.players(phrase("the players whose Deck Master left (one or both, at once)")),
            "cause": Field.choice(
                LOSS_CAUSES,
                phrase("optional: destroyed|hand|deck|banished|other ('tributed' is refused)"),
                optional=True,
            ),
            "ability": Field.text(
                phrase("optional: the Deck Master whose Ability did it, needed if it was in its Position"),
                optional=True,
            ),
            "reaches_position": Field.boolean(
                phrase(
                    "optional: the Ability specifically says it can affect a Deck Master in its Position (a Deck Master "
                    "the rulebook does not describe)"
                ),
                label=phrase("Ability reaches the Deck Master Position"),
            ),
        },
        f"{R_WIN}; {R_ABILITY}",
        phrase(
            "Those players lose at once; both at once is a draw. Refuses a card effect on a Deck Master in its Position, "
            "and an Ability that does not specifically say it reaches it (deck_master_protected); and a Tribute outside "
            "a replacement (tribute_not_allowed)."
        ),
    ),
    EventSpec(
        "activate_ability",
        {
            "player": Field.player(phrase("the Deck Master's owner, activating its Ability")),
            "ability": Field.text(
                phrase("optional: the Ability's name, when the Deck Master has more than one"), optional=True
            ),
            "negated": Field.boolean(
                phrase("optional: true when the Ability was negated (the activation still counts)")
            ),
            "once_per_turn": Field.boolean(
                phrase(
                    "optional: the Ability can be activated once per turn (a Deck Master the rulebook does not describe)"
                ),
                label=phrase("once per turn"),
            ),
            "cost": Field.count(
                phrase("optional: the Life Points paid to activate it (a Deck Master the rulebook does not describe)"),
                optional=True,
                label=phrase("LP cost"),
            ),
            "in_damage_step": Field.boolean(
                phrase("optional: the Ability's own text lets it activate in the Damage Step"),
                label=phrase("in the Damage Step"),
            ),
        },
        R_ABILITY,
        phrase(
            "Records an activation of the player's Deck Master's Ability, in its Position or on the field, and pays its "
            "LP cost (also when negated). The rulebook's Deck Masters (Hyper Hammerhead, Blast Juggler, ...) bring their "
            "own limits. Refuses the Damage Step (damage_step), a second activation of a once-per-turn Ability "
            "(ability_once_per_turn) and a cost the player cannot pay in full (cannot_pay_cost)."
        ),
    ),
)

#: One-tap buttons on each player's card: the entries a judge records most often.
QUICK_ENTRIES: tuple[QuickEntry, ...] = (
    QuickEntry("start_turn", phrase("Start turn"), "start_turn", {"player": THE_PLAYER}, When.PLAYS_NEXT),
    QuickEntry("end_turn", phrase("End turn"), "end_turn", {"player": THE_PLAYER}, When.THEIR_TURN),
    *(
        QuickEntry(
            f"lp_{n}", phrase("−%(amount)s LP", amount=n), "lp_change", {"changes": {THE_PLAYER: -n}}, When.IN_A_TURN
        )
        for n in (1000, 500, 100)
    ),
)


class DeckMastersEngine:
    """The :class:`rules.engine.Engine` for ``deck-masters``: one object, no state of its own."""

    slug: str  # set by the format record that registers this engine (rules/base.py)
    VOCABULARY: dict[str, EventSpec] = {**{spec.type: spec for spec in _FORMAT_VOCABULARY}, **COMMON_VOCABULARY}
    QUICK_ENTRIES = QUICK_ENTRIES

    def new_game(self, players: Sequence[int], options: Mapping[str, Any] | None = None) -> State:
        options = dict(options or {})
        unknown = set(options) - {"deck_masters"}
        if unknown:
            raise RuleViolation(
                "invalid_option",
                R_SETUP,
                phrases(
                    "Unknown option: %(options)s.",
                    "Unknown options: %(options)s.",
                    len(unknown),
                    options=", ".join(sorted(unknown)),
                ),
            )
        ids = list(players)
        if len(ids) != 2 or any(isinstance(pid, bool) or not isinstance(pid, int) for pid in ids):
            raise RuleViolation(
                "invalid_players", R_SETUP, phrase("A duel is between exactly two players (integer ids).")
            )
        names = options.get("deck_masters") or {}
        if not isinstance(names, Mapping):
            # Translators: deck_masters is an option's name: it stays as it is.
            raise RuleViolation("invalid_option", R_SETUP, phrase("deck_masters maps player ids to card names."))
        given = {str(k): v for k, v in names.items()}
        if not set(given) <= {str(pid) for pid in ids} or not all(
            isinstance(v, str) and v.strip() for v in given.values()
        ):
            raise RuleViolation(
                "invalid_option",
                R_SETUP,
                # Translators: deck_masters is an option's name: it stays as it is.
                phrase("deck_masters maps player ids of this duel to card names."),
            )
        state = base_state(ids, phase=None, step=None)
        for p in state["players"]:
            # A Deck Master must begin the duel face-up in its Deck Master Position (DUEL SETUP).
            card = given.get(str(p["id"]))
            p["lp"] = STARTING_LP
            p["deck_master"] = {"card": card.strip() if card else None, "location": "position", "position": None}
            p["replacements"] = 0
            p["abilities_used"] = []
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
                # Translators: '%(event)s' is the type of entry the judge sent; deck-masters is the format's id.
                phrase("'%(event)s' is not a deck-masters event.", event=event.type),
            )
        ensure_in_progress(state)
        if not isinstance(event.data, Mapping):
            raise RuleViolation("invalid_field", "event", phrase("Event data must be a mapping."))
        new = _fork(state)
        handler(new, event.data)
        new["seq"] = state["seq"] + 1
        return new


ENGINE = DeckMastersEngine()


# --- the match -------------------------------------------------------------------------------------

DUEL_WINS_NEEDED = 2


def match_result(duel_results: Sequence[Mapping[str, Any]]) -> dict[str, int] | None:
    """Match placements (``{str(player id): 1 or 2}``, both 1 for a drawn match), or ``None`` if undecided.

    ``duel_results`` are the ``state["result"]`` dicts of the match's finished duels, in the order
    played.  The rules (Yu-Gi-Oh! tournament policy for a best-of-three match):

    * the first player to win 2 duels wins the match;
    * a drawn duel (both players placed 1) counts for nobody and the match goes on: a match can
      last more than three duels;
    * a duel ended by ``time_called`` ends the match (end-of-match procedure): that duel's winner, if
      the judge placed one, scores it; then the player with more duel wins wins the match and equal
      duel wins make the match a draw;
    * a duel ended by ``intentional_draw`` makes the match an intentional draw;
    * a disqualification ends the match: the disqualified player loses it.

    Raises ``ValueError`` for results of a different pair of players or a result after the match
    was decided.
    """
    wins: dict[str, int] = {}
    decided: dict[str, int] | None = None
    for number, result in enumerate(duel_results, start=1):
        if decided is not None:
            raise ValueError(f"duel {number} was recorded after the match was decided")
        placements = {str(k): v for k, v in result["placements"].items()}
        reason = str(result.get("reason", ""))
        if not wins:
            if len(placements) != 2:
                raise ValueError("a duel is between two players")
            wins = dict.fromkeys(placements, 0)
        elif set(placements) != set(wins):
            raise ValueError(f"duel {number} is between other players")
        winners = [pid for pid, place in placements.items() if place == 1]
        if reason.startswith("intentional draw"):
            decided = dict.fromkeys(wins, 1)
            continue
        if "(disqualify)" in reason and len(winners) == 1:
            decided = {pid: 1 if pid == winners[0] else 2 for pid in wins}
            continue
        if len(winners) == 1:
            wins[winners[0]] += 1
        if reason.startswith("time called"):
            decided = _by_wins(wins)
        elif max(wins.values()) >= DUEL_WINS_NEEDED:
            decided = _by_wins(wins)
    return decided


def _by_wins(wins: Mapping[str, int]) -> dict[str, int]:
    best = max(wins.values())
    leaders = [pid for pid, n in wins.items() if n == best]
    if len(leaders) > 1:
        return dict.fromkeys(wins, 1)
    return {pid: 1 if pid == leaders[0] else 2 for pid in wins}


_WHERE = {"position": "in position", "field": "on the field", "lost": "lost"}


def deck_master_shown(player: Mapping[str, Any]) -> str | None:
    """A player's Deck Master as an overlay shows it: ``Blue-Eyes White Dragon (on the field)``."""
    master = player.get("deck_master")
    if not isinstance(master, Mapping):
        return None
    card = master.get("card") or "not named"
    where = _WHERE.get(str(master.get("location")), "")
    return f"{card} ({where})" if where else str(card)
