"""Master Trainer (handbook v6.7) game engine: player-level state and the rules that bound it.

Podium does not simulate card text.  A judge records what happened at the table
("player 7 attacked player 9's Active for 120", "player 9's Active was Knocked
Out and their Master came up from the Bench") and this engine keeps what the
handbook defines at player level, refusing what it forbids with the handbook
section (``§12.2``) in :attr:`RuleViolation.rule`.

Terms
-----
*Player Life*
    Starts at 200 (§2).  It falls through Life Link (§12.2) and rises through
    Healing Echo (§12.3), never above 200 nor below 0.  A player at 0 is out by
    *Life Depletion* (§3.2).
*Energy Source*, *Energy Pool*
    Sources are permanent field cards (one is placed at setup, §6).  At the start
    of its owner's turn each Source that is neither newly played nor Exhausted
    generates 1 Energy, plus 1 baseline (§9.2); Energy goes into the Pool, is
    spent on attacks, abilities, retreats and effects, and the Pool empties at the
    end of every turn (§9.3).  A Source that would be discarded is *Exhausted*
    instead: it skips its owner's next generation and then recovers (§9.4).
*Active*, *Bench*
    One Active Spot and a Bench of up to 5 (§7).  The board is counted, not
    listed: ``active`` says what is in the Active Spot (``"creature"`` - any
    Creature that is neither Master nor Paragon -, ``"master"``, ``"paragon"`` or
    ``None``), ``bench`` counts benched Creatures including a benched Master or
    Paragon.  *Bench Lock* (§13.1): a Creature moved to the Bench cannot go back
    to the Active Spot until its owner's next turn.
*Master*
    The signature Creature, in the Master Zone (``"zone"``), ``"active"`` or on
    the ``"bench"``.  Whenever it would leave play it returns to the Master Zone
    instead (Sanctuary, §8.1), its deployment cost rises by 2 (Recast Tax, §8.2,
    cumulative: ``master_recasts`` counts returns) and it is exhausted until the
    start of its owner's next turn (§8.4).
*Paragon*
    The external finisher, deployed at most once per game by Ascension (§17.3:
    at least 8 Energy Sources, 4 Energy from the Pool) into the Active Spot.
    While deployed it costs an Energy Source at the end of each of its owner's
    turns, or is Knocked Out (Paragon Drain, §17.4), and once Knocked Out it is
    gone for good (One-Life Rule, §17.5).
*Status Condition* (``status_condition``)
    §18: "Only one Status Condition may affect Creatures at a time. Status
    Conditions: - last a maximum of two turns - cannot be immediately reapplied
    after removal".  The handbook names none; it plays on the Pokémon TCG, whose
    Special Conditions (Asleep, Burned, Confused, Paralyzed, Poisoned) affect
    only the Active, so ``status_condition`` is the Active's: ``None`` or
    ``{"condition": ..., "turn": n}`` (the turn it was applied in).  One at a
    time per Creature; it expires at the end of the turn after the one it was
    applied in (every player's turn counts); a condition removed or expired goes
    to ``status_locked`` and cannot be applied to that Creature again until the
    start of its owner's next turn.  It goes when the Active leaves the Active
    Spot (to the Bench or out of play).
*turn*, *phase*
    ``start_turn`` / ``end_turn`` bracket a turn.  ``state["phase"]`` is
    ``"setup"`` before the first turn, ``"draw"`` right after ``start_turn``,
    ``"main"`` once anything else happens, ``"battle"`` after the attack and
    ``"ended"`` after ``end_turn`` (§10).  Per-turn limits are counted per player
    (``turn_*`` keys) and reset at every ``start_turn``: Items are instant speed
    (§11.1), so a player can use Support actions and movement in other players'
    turns too.
*game end*
    §3.2: "The game immediately ends when any of the following occur: Life
    Depletion [...] Deck-Out [...] Field Break".  By default (option ``game_end``
    ``"immediate"``) the first of these ends the game whatever the number of
    players: the player who met it places last among the players still in, and
    the others place by Life total, highest first, players level sharing a place
    (Podium's reading: the handbook names no winner).  The house rule
    ``"last_standing"`` puts that player out instead and play goes on until one
    player is left.
*placement*
    Players out by a judge action (concede, game loss, disqualification) or, under
    the house rule, by a §3.2 condition, place by elimination order (the first of
    ``n`` players out places ``n``); the last player in places 1.

Contract
--------
``ENGINE.new_game(players, options)`` and ``ENGINE.apply(state, event)`` follow
:mod:`rules.engine` and read fields with its shared helpers: states are
JSON-serialisable dicts, ``apply`` never mutates its input (an entry changes a
:func:`~rules.engine.next_state`: copies of the top level, the turn and each
player dict), a refused event raises :class:`RuleViolation` and changes
nothing, and the judge actions of :data:`COMMON_VOCABULARY` are accepted.  One
option, :data:`GAME_END` (``{"game_end": "immediate" | "last_standing"}``); any
other is refused.

Interpretations of what the handbook leaves open are marked ``Interpretation:``
next to the code and listed in ``docs/games/master-trainer.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules import speech
from rules.engine import (
    COMMON_VOCABULARY,
    THE_PLAYER,
    EntryHandler,
    EventSpec,
    Field,
    GameEvent,
    QuickEntry,
    RuleViolation,
    State,
    When,
    apply_common,
    base_state,
    choice,
    eliminate,
    ensure_in_progress,
    finish,
    next_player,
    next_state,
    optional,
    player,
    player_in_game,
    require,
)
from rules.options import Option, OptionError, Use, read
from rules.speech import Phrase, phrase, phrases

STARTING_LIFE = 200
MIN_PLAYERS, MAX_PLAYERS = 2, 4
BENCH_SIZE = 5
ATTACKS_PER_TURN = 1
ENERGY_SOURCES_PER_TURN = 1
SUPPORT_ACTIONS_PER_TURN = 3
STADIUMS_PER_TURN = 1
MOVEMENTS_PER_TURN = 2
RELEASES_PER_TURN = 1
BASELINE_ENERGY = 1
RECAST_TAX = 2
LIFE_LINK_CAP = 50
HEALING_ECHO_CAP = 50
ASCENSION_SOURCES = 8
ASCENSION_ENERGY = 4

IN_TURN = frozenset({"draw", "main", "battle"})

#: §3.2's conditions: by default the first one met ends the game.
IMMEDIATE, LAST_STANDING = "immediate", "last_standing"
GAME_END = Option(
    name="game_end",
    label=phrase("Game end with 3-4 players"),
    default=IMMEDIATE,
    choices=(IMMEDIATE, LAST_STANDING),
    uses=frozenset({Use.GAME}),
    rule="§3.2",
    quote="The game immediately ends when any of the following occur: Life Depletion [...] Deck-Out [...] Field Break",
    house_rule=True,
    value_names={
        IMMEDIATE: phrase(
            "the first Life Depletion, Deck-Out or Field Break ends the game (§3.2); the others place by Life total"
        ),
        LAST_STANDING: phrase("that player is out and the others play on to the last player standing"),
    },
    help=phrase("By the handbook the game ends at once; the house rule plays on until one player is left."),
)
OPTIONS: tuple[Option, ...] = (GAME_END,)


def turn_of(state: State) -> Any:
    """Whose turn is under way: the turn player until ``end_turn`` (``phase`` "ended"), none during setup."""
    current = state["turn"]["player"]
    return current if state["phase"] not in ("ended", "setup") else None


def status_conditions(player: Mapping[str, Any]) -> tuple[str, ...]:
    """The Active's Status Condition as an overlay shows it (``("Poisoned",)``), or none (§18)."""
    status = player.get("status_condition")
    return (str(status["condition"]).capitalize(),) if isinstance(status, Mapping) else ()


KINDS = ("creature", "master", "paragon")
ECHO_SOURCES = frozenset({"item", "support"})
HEAL_SOURCES = ("item", "support", "attack", "ability", "passive")
SUPPORT_KINDS = ("item", "supporter", "tool")
MOVE_KINDS = ("retreat", "switch", "forced")
#: §18 names no Status Conditions; these are the Pokémon TCG's Special Conditions, which the handbook plays on.
STATUS_CONDITIONS = ("asleep", "burned", "confused", "paralyzed", "poisoned")
#: §18: "last a maximum of two turns" - the turn a condition is applied in and the next one.
STATUS_TURNS = 2

#: The per-turn counters every player has; all reset at ``start_turn``.
TURN_COUNTERS = (
    "turn_attacks",
    "turn_sources_played",
    "turn_support_actions",
    "turn_stadiums",
    "turn_movements",
    "turn_releases",
    "turn_echo",
)

#: The rule an entry naming a player who is out of the game is refused under.
_OUT = "end of game"

# --- vocabulary -------------------------------------------------------------------------------------

_PLAYER = "the player"
_REPLACEMENT = phrase(
    'when the Active leaves: the benched Creature moved up ("creature", "master", "paragon"), or "none" '
    "when none can be"
)


def _player(description: str = _PLAYER) -> Field:
    return Field.player(description)


def _replacement() -> Field:
    return Field.choice((*KINDS, "none"), _REPLACEMENT, optional=True)


VOCABULARY: dict[str, EventSpec] = {
    spec.type: spec
    for spec in (
        EventSpec(
            "start_turn",
            {
                "player": _player(),
                "new_active": Field.choice(
                    (*KINDS, "hand", "none"),
                    phrase('only with no Active: "creature", "master", "paragon", "hand" or "none"'),
                    optional=True,
                    label=phrase("new Active"),
                ),
            },
            "§10, §9.2, §19",
            phrase(
                "Starts the next player's turn: resets per-turn limits, lifts their Bench Lock and Master exhaustion, "
                "fills their Pool (1 + each Source not newly played nor Exhausted), and with no Active they place one "
                "or lose by Field Break. Refuses the wrong player or a turn still in progress."
            ),
        ),
        EventSpec(
            "end_turn",
            {
                "player": _player(),
                "drain_source": Field.choice(
                    ("exhausted", "ready"),
                    phrase('optional: "exhausted" or "ready" (default: an Exhausted one if any)'),
                    optional=True,
                    label=phrase("Source drained"),
                ),
                "replacement": Field.choice(
                    (*KINDS, "none"),
                    phrase("only when the Drain knocks out an Active Paragon: as for knock_out"),
                    optional=True,
                ),
            },
            "§10, §9.3, §17.4, §18",
            phrase(
                "Ends the turn: Paragon Drain (lose an Energy Source, or the Paragon is Knocked Out), all Pools empty, "
                "Status Conditions applied in the turn before expire."
            ),
        ),
        EventSpec(
            "deck_out",
            {"player": _player()},
            "§3.2",
            phrase(
                "The turn player cannot draw at the start of their turn: they are out (Deck-Out). Refused later in the "
                "turn."
            ),
        ),
        EventSpec(
            "play_creature",
            {
                "player": _player(),
                "to": Field.choice(("bench", "active"), '"bench" or "active"'),
                "by_effect": Field.boolean(
                    phrase("optional: true when a card effect puts it into play (an Item in any player's turn)")
                ),
            },
            "§7, §10, §3, §11.1",
            phrase(
                "A Creature from hand onto the Bench (also before the first turn, for setup) or into an empty Active "
                "Spot. Refuses a full Bench, an occupied Active Spot, another player's turn; put into play by a card "
                "effect, in any player's turn."
            ),
        ),
        EventSpec(
            "deploy_master",
            {
                "player": _player(),
                "to": Field.choice(("bench", "active"), '"bench" or "active"'),
                "base_cost": Field.count(phrase("optional printed deployment cost (0)"), optional=True, default=0),
            },
            "§8, §8.2, §8.4",
            phrase(
                "The Master leaves the Master Zone, paying base cost + 2 per return from the Pool. Refuses a Master "
                "already in play, an exhausted Master to the Active Spot, a cost the Pool cannot pay."
            ),
        ),
        EventSpec(
            "ascend_paragon",
            {"player": _player()},
            "§17, §17.3",
            phrase(
                "Paragon Ascension into the Active Spot (the Active goes to the Bench), paying 4 Energy. Refuses fewer "
                "than 8 Sources, a short Pool, a second Paragon, a full Bench behind a displaced Active."
            ),
        ),
        EventSpec(
            "release",
            {
                "player": _player(),
                "creature": Field.choice(
                    ("creature", "active", "master", "paragon"),
                    phrase('optional: "creature" (default); "active", "master", "paragon" refused'),
                    optional=True,
                    default="creature",
                ),
            },
            "§14, §14.1",
            phrase(
                "Releases a benched Creature to the Lost Zone, once per turn, only with a full Bench; never the Active, "
                "the Master or the Paragon. Not a movement."
            ),
        ),
        EventSpec(
            "move",
            {
                "player": _player(phrase("the player performing the movement")),
                "kind": Field.choice(MOVE_KINDS, '"retreat", "switch" or "forced"'),
                "to_active": Field.choice(
                    KINDS,
                    phrase('the benched Creature moved up: "creature", "master" or "paragon"'),
                    label=phrase("moved up"),
                ),
                "target": Field.player(
                    phrase("optional: whose Creatures move (default: the performer; a retreat is always one's own)"),
                    optional=True,
                ),
                "cost": Field.count(
                    phrase("optional Energy paid from the performer's Pool (0)"), optional=True, default=0
                ),
            },
            "§13, §13.1",
            phrase(
                "Swaps the target's Active with a benched Creature; the one benched is Bench Locked. At most 2 per "
                "player per turn; retreats only in one's own Main Phase."
            ),
        ),
        EventSpec(
            "knock_out",
            {
                "player": _player(phrase("the owner of the Creature")),
                "spot": Field.choice(("active", "bench"), '"active" or "bench"'),
                "creature": Field.choice(
                    KINDS,
                    phrase('optional: "creature", "master" or "paragon" (which one; default: what is there)'),
                    optional=True,
                ),
                "replacement": _replacement(),
            },
            "§19, §8.1, §17.5",
            phrase(
                "A Creature is Knocked Out: a Master returns to the Master Zone (Recast Tax, exhausted), a Paragon is "
                "lost for good; a Knocked Out Active must be replaced from the Bench if able."
            ),
        ),
        EventSpec(
            "leave_play",
            {
                "player": _player(phrase("the owner of the Creature")),
                "spot": Field.choice(("active", "bench"), '"active" or "bench"'),
                "creature": Field.choice(KINDS, 'optional: "creature", "master" or "paragon"', optional=True),
                "replacement": _replacement(),
            },
            "§8.1, §19",
            phrase(
                "A Creature leaves play other than by Knockout (to hand, deck, discard or Lost Zone): a Master returns "
                "to the Master Zone instead; a Paragon cannot come back."
            ),
        ),
        EventSpec(
            "apply_status_condition",
            {
                "player": _player(phrase("the owner of the Active Creature")),
                "condition": Field.choice(STATUS_CONDITIONS, ", ".join(STATUS_CONDITIONS)),
            },
            "§18",
            phrase(
                "A Status Condition on the player's Active; it lasts the turn it is applied in and the next one. Refuses "
                "an Active that already has one, the condition removed from that Creature since its owner's last turn "
                "began, a player with no Active."
            ),
        ),
        EventSpec(
            "remove_status_condition",
            {
                "player": _player(phrase("the owner of the Active Creature")),
                "condition": Field.choice(
                    STATUS_CONDITIONS,
                    phrase("optional: the condition removed (checked against the Active's)"),
                    optional=True,
                ),
            },
            "§18",
            phrase(
                "An effect removes the Active's Status Condition; it cannot be applied to that Creature again until "
                "its owner's next turn. Refuses an Active with no Status Condition (or another one)."
            ),
        ),
        EventSpec(
            "play_energy_source",
            {
                "player": _player(),
                "by_effect": Field.boolean(phrase("optional: true when a card effect puts it into play (no limit)")),
            },
            "§9.1, §9.2",
            phrase(
                "An Energy Source enters the Energy Field; it generates from its owner's next turn. One per turn from "
                "hand, in one's own Main Phase."
            ),
        ),
        EventSpec(
            "exhaust_energy_source",
            {"player": _player(), "count": Field.count("optional (1)", minimum=1, optional=True, default=1)},
            "§9.4",
            phrase(
                "Sources that would be discarded become Exhausted: they skip their owner's next generation. Refuses "
                "more than the Sources not already Exhausted."
            ),
        ),
        EventSpec(
            "lose_energy_source",
            {
                "player": _player(),
                "count": Field.count("optional (1)", minimum=1, optional=True, default=1),
                "exhausted": Field.boolean(phrase("optional: true to take Exhausted ones")),
            },
            "§9.4",
            phrase("Sources are sent to the Lost Zone (removed for good). Refuses more than the player has."),
        ),
        EventSpec(
            "gain_energy",
            {"player": _player(), "amount": Field.count(phrase("Energy added to the Pool by an effect"), minimum=1)},
            "§9.3, §3",
            phrase("An effect adds Energy to the player's Pool (card text overrides the rulebook)."),
        ),
        EventSpec(
            "spend_energy",
            {
                "player": _player(),
                "amount": Field.count(phrase("Energy spent"), minimum=1),
                "purpose": Field.text("optional text", optional=True),
            },
            "§9.3",
            phrase("Spends Energy from the Pool on an ability or effect. Refuses taking the Pool below 0."),
        ),
        EventSpec(
            "play_support",
            {"player": _player(), "kind": Field.choice(SUPPORT_KINDS, '"item", "supporter" or "tool"')},
            "§15, §11.1, §11.2, §11.5",
            phrase(
                "A Support card action: at most 3 per player per turn. Items at instant speed in any turn; Supporters "
                "and Tools only in one's own Main Phase."
            ),
        ),
        EventSpec(
            "play_stadium",
            {"player": _player(), "name": Field.card(phrase("optional card name"), optional=True)},
            "§16, §11.2",
            phrase(
                "A Stadium enters play, replacing the previous one; one per turn, own Main Phase, not a Support action."
            ),
        ),
        EventSpec(
            "discard_stadium",
            {},
            "§16",
            phrase("An effect discards the Stadium in play. Refuses when there is none."),
        ),
        EventSpec(
            "attack",
            {
                "player": _player(phrase("the attacker")),
                "target": Field.player(phrase("the defending player")),
                "damage": Field.count(
                    phrase("final damage dealt to the target's Active (or to the player with no Active)")
                ),
                "cost": Field.count(phrase("optional Energy paid from the Pool (0)"), optional=True, default=0),
            },
            "§10, §2, §7, §12.2",
            phrase(
                "The turn's one attack. Life Link: the defender loses half the damage rounded down, at most 50; with no "
                "Active, the full damage. Refuses a player's first turn, a second attack, an attacker with no Active."
            ),
        ),
        EventSpec(
            "heal",
            {
                "player": _player(phrase("the owner of the healed Creature")),
                "amount": Field.count(phrase("HP restored / damage removed"), minimum=1),
                "source": Field.choice(HEAL_SOURCES, '"item", "support", "attack", "ability" or "passive"'),
            },
            "§12.3",
            phrase(
                "Healing Echo: Item or Support healing heals the player half, rounded down, at most 50 per turn; other "
                "sources are recorded with no Echo."
            ),
        ),
        EventSpec(
            "adjust_life",
            {
                "player": _player(),
                "amount": Field.amount(phrase("signed change to Player Life"), label=phrase("Life change")),
                "reason": Field.text(phrase("why")),
            },
            "§3, judge",
            phrase("A judge's correction or a card effect on Player Life, kept within 0-200; 0 is Life Depletion."),
        ),
    )
}
VOCABULARY.update(COMMON_VOCABULARY)

_LIFE_LOSS = "card effect"

#: One-tap buttons on each player's card: the entries a judge records most often.
QUICK_ENTRIES: tuple[QuickEntry, ...] = (
    QuickEntry("start_turn", phrase("Start turn"), "start_turn", {"player": THE_PLAYER}, When.PLAYS_NEXT),
    QuickEntry("end_turn", phrase("End turn"), "end_turn", {"player": THE_PLAYER}, When.THEIR_TURN),
    QuickEntry("energy_source", phrase("Energy Source"), "play_energy_source", {"player": THE_PLAYER}, When.THEIR_TURN),
    QuickEntry(
        "supporter", phrase("Supporter"), "play_support", {"player": THE_PLAYER, "kind": "supporter"}, When.THEIR_TURN
    ),
    QuickEntry("item", phrase("Item"), "play_support", {"player": THE_PLAYER, "kind": "item"}, When.IN_A_TURN),
    *(
        QuickEntry(
            f"life_{n}",
            phrase("−%(amount)s Life", amount=n),
            "adjust_life",
            {"player": THE_PLAYER, "amount": -n, "reason": _LIFE_LOSS},
        )
        for n in (10, 50, 100)
    ),
)


# --- what the engine says about a kind of Creature, a Source or a Status Condition ----------------------------
# One whole sentence per kind, condition or state of a Source (the words around them change with them in other
# languages): each returns a phrase (rules.speech), whose English is the sentence the judge reads, for the
# refusal the caller raises.


def _no_benched_to_move_up(p: Mapping[str, Any], kind: str) -> Phrase:
    who = speech.player(p["id"])
    match kind:
        case "master":
            return phrase("%(player)s has no benched master to move up.", player=who)
        case "paragon":
            return phrase("%(player)s has no benched paragon to move up.", player=who)
        case _:
            return phrase("%(player)s has no benched creature to move up.", player=who)


def _no_benched(p: Mapping[str, Any], kind: str) -> Phrase:
    who = speech.player(p["id"])
    match kind:
        case "master":
            return phrase("%(player)s has no benched master.", player=who)
        case "paragon":
            return phrase("%(player)s has no benched paragon.", player=who)
        case _:
            return phrase("%(player)s has no benched creature.", player=who)


def _can_move_up(p: Mapping[str, Any], kind: str) -> Phrase:
    who = speech.player(p["id"])
    match kind:
        case "master":
            return phrase("%(player)s can move up a benched master.", player=who)
        case "paragon":
            return phrase("%(player)s can move up a benched paragon.", player=who)
        case _:
            return phrase("%(player)s can move up a benched creature.", player=who)


def _moved_to_the_bench(kind: str) -> Phrase:
    match kind:
        case "master":
            return phrase("That benched master moved to the Bench: it cannot go Active until the next turn.")
        case "paragon":
            return phrase("That benched paragon moved to the Bench: it cannot go Active until the next turn.")
        case _:
            return phrase("That benched creature moved to the Bench: it cannot go Active until the next turn.")


def _the_active_is_another(active: str, kind: str) -> Phrase:
    """The judge named ``kind`` for the Active, which is ``active``."""
    match (active, kind):
        case ("creature", "master"):
            return phrase("The Active is a creature, not a master.")
        case ("creature", _):
            return phrase("The Active is a creature, not a paragon.")
        case ("master", "creature"):
            return phrase("The Active is a master, not a creature.")
        case ("master", _):
            return phrase("The Active is a master, not a paragon.")
        case (_, "creature"):
            return phrase("The Active is a paragon, not a creature.")
        case _:
            return phrase("The Active is a paragon, not a master.")


def _may_not_release(kind: str) -> Phrase:
    match kind:
        case "master":
            return phrase("Players may not release their master.")
        case "paragon":
            return phrase("Players may not release their paragon.")
        case _:
            return phrase("Players may not release their active.")


def _no_such_source(p: Mapping[str, Any], which: str) -> Phrase:
    who = speech.player(p["id"])
    if which == "exhausted":
        return phrase("%(player)s has no exhausted Energy Source.", player=who)
    return phrase("%(player)s has no ready Energy Source.", player=who)


def _already_under(p: Mapping[str, Any], condition: str) -> Phrase:
    who = speech.player(p["id"])
    match condition:
        case "asleep":
            return phrase("%(player)s's Active is already asleep: only one Status Condition at a time.", player=who)
        case "burned":
            return phrase("%(player)s's Active is already burned: only one Status Condition at a time.", player=who)
        case "confused":
            return phrase("%(player)s's Active is already confused: only one Status Condition at a time.", player=who)
        case "paralyzed":
            return phrase("%(player)s's Active is already paralyzed: only one Status Condition at a time.", player=who)
        case _:
            return phrase("%(player)s's Active is already poisoned: only one Status Condition at a time.", player=who)


def _removed_until_next_turn(p: Mapping[str, Any], condition: str) -> Phrase:
    who = speech.player(p["id"])
    match condition:
        case "asleep":
            return phrase(
                "Asleep was removed from %(player)s's Active: it cannot be applied again until their next turn.",
                player=who,
            )
        case "burned":
            return phrase(
                "Burned was removed from %(player)s's Active: it cannot be applied again until their next turn.",
                player=who,
            )
        case "confused":
            return phrase(
                "Confused was removed from %(player)s's Active: it cannot be applied again until their next turn.",
                player=who,
            )
        case "paralyzed":
            return phrase(
                "Paralyzed was removed from %(player)s's Active: it cannot be applied again until their next turn.",
                player=who,
            )
        case _:
            return phrase(
                "Poisoned was removed from %(player)s's Active: it cannot be applied again until their next turn.",
                player=who,
            )


def _not_under(p: Mapping[str, Any], condition: str | None) -> Phrase:
    """The Active has no Status Condition, or not ``condition``."""
    who = speech.player(p["id"])
    match condition:
        case None:
            return phrase("%(player)s's Active is not under a Status Condition.", player=who)
        case "asleep":
            return phrase("%(player)s's Active is not asleep.", player=who)
        case "burned":
            return phrase("%(player)s's Active is not burned.", player=who)
        case "confused":
            return phrase("%(player)s's Active is not confused.", player=who)
        case "paralyzed":
            return phrase("%(player)s's Active is not paralyzed.", player=who)
        case _:
            return phrase("%(player)s's Active is not poisoned.", player=who)


# --- turn and phase checks ------------------------------------------------------------------------


def _in_turn(state: State) -> None:
    if state["phase"] not in IN_TURN:
        # Translators: start_turn is the name of a game entry: keep it as it is.
        raise RuleViolation("no_turn_in_progress", "§10", phrase("No turn is in progress: record start_turn first."))


def _own_turn(state: State, p: Mapping[str, Any], rule: str) -> None:
    if state["phase"] not in IN_TURN or state["turn"]["player"] != p["id"]:
        raise RuleViolation(
            "not_your_turn",
            rule,
            phrase("%(player)s can only do this in their own turn.", player=speech.player(p["id"])),
        )


def _own_main_phase(state: State, p: Mapping[str, Any], rule: str) -> None:
    """Sorcery speed (§10, §11.2): one's own turn, before the attack."""
    _own_turn(state, p, rule)
    if state["phase"] == "battle":
        raise RuleViolation("not_main_phase", "§10", phrase("The Main Phase is over: an attack has been declared."))


# --- board helpers --------------------------------------------------------------------------------


def _generic_bench(p: Mapping[str, Any]) -> int:
    """Benched Creatures that are neither the Master nor the Paragon."""
    paragon_benched = p["paragon"] == "deployed" and p["active"] != "paragon"
    generic: int = p["bench"] - (p["master"] == "bench") - paragon_benched
    return generic


def _on_bench(p: Mapping[str, Any], kind: str) -> bool:
    if kind == "master":
        return bool(p["master"] == "bench")
    if kind == "paragon":
        return bool(p["paragon"] == "deployed" and p["active"] != "paragon")
    return _generic_bench(p) > 0


def _promotion_refusal(p: Mapping[str, Any], kind: str) -> RuleViolation | None:
    """Why ``kind`` cannot move from the Bench to the Active Spot, or ``None`` if it can."""
    if not _on_bench(p, kind):
        message = _no_benched_to_move_up(p, kind)
        return RuleViolation("not_on_bench", "§19", message)
    if kind == "master" and p["master_exhausted"]:
        return RuleViolation(
            "master_exhausted",
            "§8.4",
            phrase("The Master cannot return to the Active Spot until its owner's next turn."),
        )
    locked = (
        p["master_locked"]
        if kind == "master"
        else p["paragon_locked"]
        if kind == "paragon"
        else p["bench_locked"] >= _generic_bench(p)
    )
    if locked:
        message = _moved_to_the_bench(kind)
        return RuleViolation("bench_locked", "§13.1", message)
    return None


def _eligible(p: Mapping[str, Any]) -> list[str]:
    return [kind for kind in KINDS if _promotion_refusal(p, kind) is None]


def _promote(p: dict[str, Any], kind: str) -> None:
    """Move ``kind`` from the Bench to the empty Active Spot (checked by the caller)."""
    p["bench"] -= 1
    p["active"] = kind
    if kind == "master":
        p["master"] = "active"


def _to_bench(p: dict[str, Any], kind: str) -> None:
    """Put ``kind``, leaving the Active Spot, on the Bench under Bench Lock (§13.1); the caller checked room."""
    _clear_status(p)
    p["bench"] += 1
    if kind == "master":
        p["master"] = "bench"
        p["master_locked"] = True
    elif kind == "paragon":
        p["paragon_locked"] = True
    else:
        p["bench_locked"] += 1


def _master_to_zone(p: dict[str, Any]) -> None:
    """Sanctuary (§8.1): back to the Master Zone, Recast Tax +2 (§8.2), exhausted (§8.4)."""
    p["master"] = "zone"
    p["master_recasts"] += 1
    p["master_exhausted"] = True
    p["master_locked"] = False


def _remove(p: dict[str, Any], data: Mapping[str, Any], *, paragon_fate: str) -> None:
    """A Creature leaves play (Knockout or otherwise), then the Active is replaced if it was the one."""
    spot = choice(data, "spot", ("active", "bench"))
    if spot == "active":
        if p["active"] is None:
            raise RuleViolation(
                "no_active", "§19", phrase("%(player)s has no Active Creature.", player=speech.player(p["id"]))
            )
        kind = choice(data, "creature", KINDS, p["active"])
        if kind != p["active"]:
            message = _the_active_is_another(p["active"], kind)
            raise RuleViolation("invalid_field", "§19", message)
        p["active"] = None
        _clear_status(p)
    else:
        kind = choice(data, "creature", KINDS, "creature")
        if not _on_bench(p, kind):
            message = _no_benched(p, kind)
            raise RuleViolation("not_on_bench", "§19", message)
        if "replacement" in data:
            raise RuleViolation("invalid_field", "§19", phrase("Only a Creature leaving the Active Spot is replaced."))
        p["bench"] -= 1
        if kind == "creature":
            p["bench_locked"] = min(p["bench_locked"], _generic_bench(p))
    if kind == "master":
        _master_to_zone(p)
    elif kind == "paragon":
        p["paragon"] = paragon_fate
        p["paragon_locked"] = False
    if spot == "active":
        _replace_active(p, data)


def _replace_active(p: dict[str, Any], data: Mapping[str, Any]) -> None:
    """Active Replacement (§19): a benched Creature must move up at once if able.

    Interpretation: "if able" excludes Bench Locked Creatures (§13.1) and an
    exhausted Master (§8.4).  With none able the player stays without an Active
    and Field Break is checked at the start of their next turn.
    """
    eligible = _eligible(p)
    replacement = choice(data, "replacement", (*KINDS, "none"), None)
    if replacement is None or replacement == "none":
        if eligible:
            raise RuleViolation(
                "replacement_required",
                "§19",
                phrase(
                    # Translators: %(choices)s lists values of the replacement field, as typed ("creature, master").
                    "%(player)s must move a benched Creature to the Active Spot (%(choices)s).",
                    player=speech.player(p["id"]),
                    choices=", ".join(eligible),
                ),
            )
        return
    refusal = _promotion_refusal(p, replacement)
    if refusal is not None:
        raise refusal
    _promote(p, replacement)


def _clear_status(p: dict[str, Any]) -> None:
    """The Active leaves the Active Spot (to the Bench or out of play): its Status Condition and the lock on
    reapplying one go with it (§8.3: a Master returning to the Master Zone loses its status conditions)."""
    if p.get("status_condition") is not None or p.get("status_locked"):
        p["status_condition"] = None
        p["status_locked"] = []


def _lift_status(p: dict[str, Any]) -> None:
    """The Active's Status Condition ends (removed by an effect or expired): §18, not reapplied at once."""
    condition = p["status_condition"]["condition"]
    p["status_condition"] = None
    p["status_locked"] = [*[c for c in p.get("status_locked") or [] if c != condition], condition]


def _expire_status_conditions(state: State, ended: int) -> None:
    """§18: "last a maximum of two turns" - turn ``ended`` is over; a condition applied in the turn before it (or
    earlier) has lasted its two turns."""
    for q in state["players"]:
        status = q.get("status_condition")
        if status is not None and status["turn"] + STATUS_TURNS - 1 <= ended:
            _lift_status(q)


def _spend(p: dict[str, Any], amount: int, rule: str) -> None:
    if amount > p["pool"]:
        raise RuleViolation(
            "insufficient_energy",
            rule,
            phrases(
                "%(player)s has %(count)s Energy in their Pool, not %(needed)s.",
                "%(player)s has %(count)s Energy in their Pool, not %(needed)s.",
                p["pool"],
                player=speech.player(p["id"]),
                needed=amount,
            ),
        )
    p["pool"] -= amount


def _eliminate(state: State, p: Mapping[str, Any], reason: str) -> None:
    pid = p["id"]
    eliminate(state, pid, reason)
    _drop_stadium_of_players_out(state)
    if state["turn"]["player"] == pid and state["phase"] in IN_TURN:
        state["phase"] = "ended"  # their turn is over; the next player starts theirs


def _drop_stadium_of_players_out(state: State) -> None:
    # Interpretation: an eliminated player's cards leave the game, their Stadium with them.
    stadium = state["stadium"]
    if stadium is not None and any(p["id"] == stadium["owner"] and p["out"] for p in state["players"]):
        state["stadium"] = None


def _condition_met(state: State, loser: dict[str, Any], reason: str) -> None:
    """A §3.2 condition (Life Depletion, Deck-Out, Field Break): the game ends, or under the house rule the
    player is out and play goes on."""
    # A state from before the option existed was played on to the last player standing.
    if state.get("game_end", LAST_STANDING) == LAST_STANDING:
        _eliminate(state, loser, reason)
        return
    still_in = [p for p in state["players"] if not p["out"]]
    loser.update(out=True, placement=len(still_in), out_reason=reason)
    # Interpretation: the handbook names no winner; the others place by Life total, level players sharing.
    others = sorted((p for p in still_in if p is not loser), key=lambda p: -p["life"])
    placements = {p["id"]: 1 + sum(q["life"] > p["life"] for q in others) for p in others}
    finish(state, placements, reason=f"{reason} (§3.2: the game ends)")
    _drop_stadium_of_players_out(state)


def _lose_life(state: State, p: dict[str, Any], amount: int) -> None:
    p["life"] = max(0, p["life"] - amount)
    if p["life"] == 0:
        _condition_met(state, p, "life depletion")


# --- handlers -------------------------------------------------------------------------------------


def _start_turn(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    current = state["turn"]["player"]
    if state["phase"] in IN_TURN and not player(state, current)["out"]:
        raise RuleViolation(
            "turn_in_progress", "§10", phrase("%(player)s's turn has not ended.", player=speech.player(current))
        )
    expected = next_player(state)
    if p["id"] != expected:
        raise RuleViolation("not_your_turn", "§10", phrase("%(player)s plays next.", player=speech.player(expected)))
    # A turn that ended without end_turn (its player went out) is over too: §18's two turns count it.
    _expire_status_conditions(state, state["turn"]["number"])
    state["turn"] = {"number": state["turn"]["number"] + 1, "player": expected}
    state["phase"] = "draw"
    for q in state["players"]:
        if q["out"]:
            continue
        for counter in TURN_COUNTERS:
            q[counter] = 0
        q["pool"] = 0
    p["turns_taken"] += 1
    # "Until your next turn" ends now: Bench Lock (§13.1), Master exhaustion (§8.4), newly played Sources (§9.2).
    p["bench_locked"] = 0
    p["master_locked"] = False
    p["paragon_locked"] = False
    p["master_exhausted"] = False
    p["sources_new"] = 0
    # §18 "cannot be immediately reapplied after removal": like Bench Lock, "a restriction preventing immediate
    # return" (glossary) that lasts "until your next turn" (§13.1).
    if p.get("status_locked"):
        p["status_locked"] = []
    if p["active"] is None:
        # Field Break (§19): no Active at the start of one's turn and none can be placed at once.
        # Interpretation: "placed at once" is a benched Creature (Bench Lock has just lifted) or a Basic from
        # hand ("hand", the judge's word); deploying the Master from the Master Zone is a Main Phase action with
        # a cost, so it does not count.
        new_active = choice(data, "new_active", (*KINDS, "hand", "none"))
        if new_active == "none":
            eligible = _eligible(p)
            if eligible:
                message = _can_move_up(p, eligible[0])
                raise RuleViolation("replacement_required", "§19", message)
            _condition_met(state, p, "field break")
            return
        if new_active == "hand":
            p["active"] = "creature"
        else:
            refusal = _promotion_refusal(p, new_active)
            if refusal is not None:
                raise refusal
            _promote(p, new_active)
    elif "new_active" in data:
        raise RuleViolation(
            "invalid_field", "§19", phrase("%(player)s already has an Active Creature.", player=speech.player(p["id"]))
        )
    # Energy Generation (§9.2) and recovery of Exhausted Sources (§9.4): they skip this one generation.
    # Interpretation: the Source placed at setup (§6) is not "newly played" on its owner's first turn, so the
    # first turn's Pool is 2 (1 baseline + 1).
    p["pool"] = BASELINE_ENERGY + p["sources"] - p["sources_exhausted"]
    p["sources_exhausted"] = 0


def _end_turn(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    _own_turn(state, p, "§10")
    if p["paragon"] == "deployed":
        # Paragon Drain (§17.4): Option A is the only option given, so it is mandatory while a Source remains.
        if p["sources"] > 0:
            default = "exhausted" if p["sources_exhausted"] > 0 else "ready"
            which = choice(data, "drain_source", ("exhausted", "ready"), default)
            available = p["sources_exhausted"] if which == "exhausted" else p["sources"] - p["sources_exhausted"]
            if available == 0:
                message = _no_such_source(p, which)
                raise RuleViolation("no_such_source", "§17.4", message)
            p["sources"] -= 1
            if which == "exhausted":
                p["sources_exhausted"] -= 1
            p["sources_new"] = min(p["sources_new"], p["sources"])
            if "replacement" in data:
                raise RuleViolation("invalid_field", "§19", phrase("The Paragon stays: there is nothing to replace."))
        else:
            if "drain_source" in data:
                raise RuleViolation(
                    "no_such_source",
                    "§17.4",
                    phrase("%(player)s has no Energy Source left.", player=speech.player(p["id"])),
                )
            # One-Life Rule (§17.5): Knocked Out, to the Lost Zone for good.
            p["paragon"] = "knocked_out"
            p["paragon_locked"] = False
            if p["active"] == "paragon":
                p["active"] = None
                _clear_status(p)
                _replace_active(p, data)
            else:
                p["bench"] -= 1
                if "replacement" in data:
                    raise RuleViolation(
                        "invalid_field", "§19", phrase("The Paragon was benched: there is nothing to replace.")
                    )
    elif "drain_source" in data or "replacement" in data:
        raise RuleViolation(
            "invalid_field", "§17.4", phrase("%(player)s has no Paragon to drain.", player=speech.player(p["id"]))
        )
    # §9.3: unused Energy disappears at the end of each turn - every player's Pool.
    for q in state["players"]:
        q["pool"] = 0
    _expire_status_conditions(state, state["turn"]["number"])
    state["phase"] = "ended"


def _deck_out(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    _own_turn(state, p, "§3.2")
    if state["phase"] != "draw":
        raise RuleViolation("not_draw_phase", "§3.2", phrase("Deck-Out is the draw at the start of the turn."))
    _condition_met(state, p, "deck-out")


def _play_creature(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    to = choice(data, "to", ("bench", "active"))
    if state["phase"] == "setup":
        # Setup follows the underlying game: every player starts with a Basic Active and may bench Basics.
        if to == "active":
            raise RuleViolation("active_occupied", "§7", phrase("Every player starts with their Active in place."))
    elif optional(data, "by_effect", bool, False, null=False):
        # §3: "Card text always overrides the rulebook." - an effect (an Item, §11.1: "during any player's turn
        # [...] in response to effects") may put a Creature into play in any player's turn.
        _in_turn(state)
    else:
        _own_main_phase(state, p, "§10")
    _place(p, to, "creature")


def _place(p: dict[str, Any], to: str, kind: str) -> None:
    if to == "active":
        if p["active"] is not None:
            raise RuleViolation(
                "active_occupied",
                "§7",
                phrase("%(player)s already has an Active Creature.", player=speech.player(p["id"])),
            )
        p["active"] = kind
    else:
        if p["bench"] >= BENCH_SIZE:
            raise RuleViolation(
                "bench_full",
                "§7",
                phrases(
                    "The Bench holds up to %(count)s Creature.",
                    "The Bench holds up to %(count)s Creatures.",
                    BENCH_SIZE,
                ),
            )
        p["bench"] += 1


def _deploy_master(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    to = choice(data, "to", ("bench", "active"))
    base_cost = optional(data, "base_cost", int, 0, minimum=0, null=False)
    _own_main_phase(state, p, "§8")
    if p["master"] != "zone":
        raise RuleViolation(
            "master_in_play", "§8", phrase("%(player)s's Master is already in play.", player=speech.player(p["id"]))
        )
    # Interpretation: §8.4 forbids only the Active Spot; an exhausted Master may be deployed to the Bench, and it
    # stays unable to go Active until its owner's next turn.
    if to == "active" and p["master_exhausted"]:
        raise RuleViolation(
            "master_exhausted",
            "§8.4",
            phrase("The Master cannot return to the Active Spot until its owner's next turn."),
        )
    _place(p, to, "master")
    _spend(p, base_cost + RECAST_TAX * p["master_recasts"], "§8.2")
    p["master"] = to


def _ascend_paragon(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    _own_main_phase(state, p, "§17.3")
    if p["ascended"]:
        raise RuleViolation("paragon_already_deployed", "§17, §17.5", phrase("A player deploys one Paragon per game."))
    # Interpretation: "control" counts every Source in play, newly played and Exhausted ones included.
    if p["sources"] < ASCENSION_SOURCES:
        raise RuleViolation(
            "not_enough_sources",
            "§17.3",
            phrases(
                "Ascension needs %(count)s Energy Source, not %(found)s.",
                "Ascension needs %(count)s Energy Sources, not %(found)s.",
                ASCENSION_SOURCES,
                found=p["sources"],
            ),
        )
    _spend(p, ASCENSION_ENERGY, "§17.3")
    if p["active"] is not None:
        # Interpretation: the Paragon "enters the Active Spot", so the Active steps back to the Bench (Bench
        # Locked, not a movement action); with a full Bench the player must release or lose one first.
        if p["bench"] >= BENCH_SIZE:
            raise RuleViolation("bench_full", "§17.3", phrase("The Active has no room on the Bench to make way."))
        _to_bench(p, p["active"])
    p["active"] = "paragon"
    p["paragon"] = "deployed"
    p["ascended"] = True


def _release(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    kind = choice(data, "creature", ("creature", "active", "master", "paragon"), "creature")
    _own_main_phase(state, p, "§14")
    if kind != "creature":
        message = _may_not_release(kind)
        raise RuleViolation("release_forbidden", "§14.1", message)
    if p["bench"] < BENCH_SIZE:
        raise RuleViolation("bench_not_full", "§14", phrase("A Creature may be released only from a full Bench."))
    # Interpretation: "you may release one Benched Creature" is one release per turn.
    if p["turn_releases"] >= RELEASES_PER_TURN:
        raise RuleViolation("release_limit", "§14", phrase("One release per turn."))
    p["turn_releases"] += 1
    p["bench"] -= 1
    p["bench_locked"] = min(p["bench_locked"], _generic_bench(p))


def _move(state: State, data: Mapping[str, Any]) -> None:
    performer = player_in_game(state, data, _OUT)
    kind = choice(data, "kind", MOVE_KINDS)
    to_active = choice(data, "to_active", KINDS)
    p = player_in_game(state, data, _OUT, "target") if "target" in data else performer
    cost = optional(data, "cost", int, 0, minimum=0, null=False)
    if kind == "retreat":
        _own_main_phase(state, performer, "§13")
        if p is not performer:
            raise RuleViolation("invalid_target", "§13", phrase("A player retreats only their own Active."))
    else:
        _in_turn(state)
    # Interpretation: the movement counts for the player performing it, also a forced movement of another
    # player's Creatures.
    if performer["turn_movements"] >= MOVEMENTS_PER_TURN:
        raise RuleViolation(
            "movement_limit",
            "§13",
            phrases(
                "At most %(count)s movement action per turn.",
                "At most %(count)s movement actions per turn.",
                MOVEMENTS_PER_TURN,
            ),
        )
    performer["turn_movements"] += 1
    _spend(performer, cost, "§9.3")
    if p["active"] is None:
        raise RuleViolation(
            "no_active", "§13", phrase("%(player)s has no Active to move.", player=speech.player(p["id"]))
        )
    refusal = _promotion_refusal(p, to_active)
    if refusal is not None:
        raise refusal
    outgoing = p["active"]
    p["active"] = None
    _promote(p, to_active)
    _to_bench(p, outgoing)


def _knock_out(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    _in_turn(state)
    _remove(p, data, paragon_fate="knocked_out")


def _leave_play(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    _in_turn(state)
    # Interpretation: a Paragon that leaves play by any means cannot come back (§17.5: not recovered, replayed).
    _remove(p, data, paragon_fate="removed")


def _apply_status_condition(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    condition = choice(data, "condition", STATUS_CONDITIONS)
    _in_turn(state)
    if p["active"] is None:
        raise RuleViolation(
            "no_active", "§18", phrase("%(player)s has no Active Creature.", player=speech.player(p["id"]))
        )
    current = p.get("status_condition")
    # Interpretation: "Only one Status Condition may affect Creatures at a time" is one per Creature; a second
    # one is refused, not swapped in (§3: "the 'cannot' effect always takes priority").
    if current is not None:
        message = _already_under(p, current["condition"])
        raise RuleViolation("status_condition_present", "§18", message)
    if condition in (p.get("status_locked") or []):
        message = _removed_until_next_turn(p, condition)
        raise RuleViolation("status_condition_reapplied", "§18", message)
    p["status_condition"] = {"condition": condition, "turn": state["turn"]["number"]}


def _remove_status_condition(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    named = choice(data, "condition", STATUS_CONDITIONS, None)
    _in_turn(state)
    current = p.get("status_condition")
    if current is None or (named is not None and named != current["condition"]):
        message = _not_under(p, named)
        raise RuleViolation("no_status_condition", "§18", message)
    _lift_status(p)


def _play_energy_source(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    by_effect = optional(data, "by_effect", bool, False, null=False)
    if by_effect:
        _in_turn(state)
    else:
        _own_main_phase(state, p, "§9.1")
    if not by_effect:
        if p["turn_sources_played"] >= ENERGY_SOURCES_PER_TURN:
            raise RuleViolation("energy_source_limit", "§9.1", phrase("One Energy Source per turn."))
        p["turn_sources_played"] += 1
    p["sources"] += 1
    p["sources_new"] += 1


def _exhaust_energy_source(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    count = optional(data, "count", int, 1, minimum=1, null=False)
    _in_turn(state)
    ready = p["sources"] - p["sources_exhausted"]
    if count > ready:
        raise RuleViolation(
            "not_enough_sources",
            "§9.4",
            phrases(
                "%(player)s has %(count)s Source not Exhausted.",
                "%(player)s has %(count)s Sources not Exhausted.",
                ready,
                player=speech.player(p["id"]),
            ),
        )
    p["sources_exhausted"] += count


def _lose_energy_source(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    count = optional(data, "count", int, 1, minimum=1, null=False)
    exhausted = optional(data, "exhausted", bool, False, null=False)
    _in_turn(state)
    available = p["sources_exhausted"] if exhausted else p["sources"] - p["sources_exhausted"]
    if count > available:
        who = speech.player(p["id"])
        raise RuleViolation(
            "not_enough_sources",
            "§9.4",
            phrases(
                "%(player)s has %(count)s Exhausted Source.",
                "%(player)s has %(count)s Exhausted Sources.",
                available,
                player=who,
            )
            if exhausted
            else phrases(
                "%(player)s has %(count)s ready Source.",
                "%(player)s has %(count)s ready Sources.",
                available,
                player=who,
            ),
        )
    p["sources"] -= count
    if exhausted:
        p["sources_exhausted"] -= count
    p["sources_new"] = min(p["sources_new"], p["sources"])


def _gain_energy(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    amount = require(data, "amount", int, minimum=1)
    _in_turn(state)
    p["pool"] += amount


def _spend_energy(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    amount = require(data, "amount", int, minimum=1)
    if "purpose" in data:
        require(data, "purpose", str)
    _in_turn(state)
    _spend(p, amount, "§9.3")


def _play_support(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    kind = choice(data, "kind", SUPPORT_KINDS)
    if kind == "item":
        _in_turn(state)
    else:
        _own_main_phase(state, p, "§11.5" if kind == "tool" else "§11.2")
    if p["turn_support_actions"] >= SUPPORT_ACTIONS_PER_TURN:
        raise RuleViolation(
            "support_limit",
            "§15",
            phrases(
                "At most %(count)s Support card action per turn.",
                "At most %(count)s Support card actions per turn.",
                SUPPORT_ACTIONS_PER_TURN,
            ),
        )
    p["turn_support_actions"] += 1


def _play_stadium(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    name = optional(data, "name", str, None, null=False)
    _own_main_phase(state, p, "§11.2")
    if p["turn_stadiums"] >= STADIUMS_PER_TURN:
        raise RuleViolation("stadium_limit", "§16", phrase("One Stadium per turn."))
    p["turn_stadiums"] += 1
    state["stadium"] = {"owner": p["id"], "name": name}


def _discard_stadium(state: State, data: Mapping[str, Any]) -> None:
    _in_turn(state)
    if state["stadium"] is None:
        raise RuleViolation("no_stadium", "§16", phrase("There is no Stadium in play."))
    state["stadium"] = None


def _attack(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    target = player_in_game(state, data, _OUT, "target")
    damage = require(data, "damage", int, minimum=0)
    cost = optional(data, "cost", int, 0, minimum=0, null=False)
    _own_turn(state, p, "§10")
    if p["turns_taken"] == 1:
        raise RuleViolation(
            "first_turn_attack", "§2", phrase("Attacks cannot be declared during a player's first turn.")
        )
    if p["turn_attacks"] >= ATTACKS_PER_TURN:
        raise RuleViolation("attack_limit", "§10", phrase("One attack per turn."))
    if p["active"] is None:
        raise RuleViolation("no_active", "§7", phrase("Only an Active Creature may attack."))
    if target is p:
        raise RuleViolation("invalid_target", "§12", phrase("A player attacks another player."))
    _spend(p, cost, "§9.3")
    p["turn_attacks"] += 1
    state["phase"] = "battle"
    if target["active"] is not None:
        # Life Link (§12.2): half the final damage, rounded down (§3), at most 50 per attack.
        loss = min(damage // 2, LIFE_LINK_CAP)
    else:
        # §12.2: with no Active the attack hits Player Life in full, uncapped.
        loss = damage
    if loss:
        _lose_life(state, target, loss)


def _heal(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    amount = require(data, "amount", int, minimum=1)
    source = choice(data, "source", HEAL_SOURCES)
    _in_turn(state)
    if source not in ECHO_SOURCES:
        return  # §12.3: attacks, abilities and passive effects give no Healing Echo.
    # Interpretation: Player Life never rises above the starting 200, and the 50 cap counts Life actually healed.
    echo = min(amount // 2, HEALING_ECHO_CAP - p["turn_echo"], STARTING_LIFE - p["life"])
    if echo > 0:
        p["life"] += echo
        p["turn_echo"] += echo


def _adjust_life(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, _OUT)
    amount = require(data, "amount", int)
    reason = require(data, "reason", str)
    if amount == 0 or not reason.strip():
        raise RuleViolation("invalid_field", "judge", phrase("A life adjustment needs a non-zero amount and a reason."))
    if amount < 0:
        _lose_life(state, p, -amount)
    else:
        p["life"] = min(STARTING_LIFE, p["life"] + amount)


_HANDLERS: dict[str, EntryHandler] = {
    "start_turn": _start_turn,
    "end_turn": _end_turn,
    "deck_out": _deck_out,
    "play_creature": _play_creature,
    "deploy_master": _deploy_master,
    "ascend_paragon": _ascend_paragon,
    "release": _release,
    "move": _move,
    "knock_out": _knock_out,
    "leave_play": _leave_play,
    "apply_status_condition": _apply_status_condition,
    "remove_status_condition": _remove_status_condition,
    "play_energy_source": _play_energy_source,
    "exhaust_energy_source": _exhaust_energy_source,
    "lose_energy_source": _lose_energy_source,
    "gain_energy": _gain_energy,
    "spend_energy": _spend_energy,
    "play_support": _play_support,
    "play_stadium": _play_stadium,
    "discard_stadium": _discard_stadium,
    "attack": _attack,
    "heal": _heal,
    "adjust_life": _adjust_life,
}
assert set(_HANDLERS) | set(COMMON_VOCABULARY) == set(VOCABULARY)

#: Events that leave the Draw Phase where it is; anything else recorded in it starts the Main Phase.
_DRAW_PHASE_EVENTS = frozenset({"start_turn", "deck_out"})


class MasterTrainerEngine:
    """The Master Trainer engine; see the module docstring for the state and the rules it enforces."""

    slug: str  # set by the format record that registers this engine (rules/base.py)
    VOCABULARY = VOCABULARY
    QUICK_ENTRIES = QUICK_ENTRIES

    def new_game(self, players: Sequence[int], options: Mapping[str, Any] | None = None) -> State:
        try:
            chosen = read(OPTIONS, options, format_name="Master Trainer")
        except OptionError as exc:
            raise RuleViolation("invalid_option", "setup", exc.message) from None
        ids = list(players)
        if not all(isinstance(pid, int) and not isinstance(pid, bool) for pid in ids):
            raise RuleViolation("invalid_field", "setup", phrase("Player ids are integers."))
        if not MIN_PLAYERS <= len(ids) <= MAX_PLAYERS:
            raise RuleViolation("invalid_player_count", "§1", phrase("Master Trainer is played by 2-4 players."))
        state = base_state(ids, phase="setup", stadium=None, game_end=chosen["game_end"])
        for p in state["players"]:
            p.update(
                life=STARTING_LIFE,
                pool=0,
                sources=1,  # §2 step 4, §6: one Basic Energy Source placed at setup
                sources_new=0,
                sources_exhausted=0,
                # Interpretation: the handbook's setup (§6) omits the Active; it plays on the Pokémon TCG, whose
                # setup places a Basic Active, so every player starts with one and an empty Bench.
                active="creature",
                bench=0,
                bench_locked=0,
                master="zone",
                master_recasts=0,
                master_exhausted=False,
                master_locked=False,
                paragon="none",
                paragon_locked=False,
                ascended=False,
                status_condition=None,
                status_locked=[],
                turns_taken=0,
                **dict.fromkeys(TURN_COUNTERS, 0),
            )
        return state

    def apply(self, state: State, event: GameEvent) -> State:
        common = apply_common(state, event)
        if common is not None:
            _drop_stadium_of_players_out(common)
            turn_player = common["turn"]["player"]
            if common["phase"] in IN_TURN and any(p["id"] == turn_player and p["out"] for p in common["players"]):
                common["phase"] = "ended"  # a player out mid-turn: the next player starts theirs
            return common
        handler = _HANDLERS.get(event.type)
        if handler is None:
            raise RuleViolation(
                "unknown_event",
                "event",
                # Translators: %(type)s is the name of a kind of game entry, as the engine spells it (e.g. 'attack').
                phrase("Master Trainer has no event '%(type)s'.", type=event.type),
            )
        ensure_in_progress(state)
        data = event.data
        if not isinstance(data, Mapping):
            raise RuleViolation("invalid_field", "event", phrase("Event data must be a mapping."))
        new = next_state(state)
        handler(new, data)
        if new["phase"] == "draw" and event.type not in _DRAW_PHASE_EVENTS:
            new["phase"] = "main"
        return new


ENGINE = MasterTrainerEngine()
