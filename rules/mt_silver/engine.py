"""Mt. Silver 4.1.0 (multiplayer Pokémon TCG with Badge Tokens): the game engine.

The engine follows :mod:`rules.engine` (the contract every format's
engine follows).  It does not simulate cards: a judge records what happened at
the table and the engine keeps what the rulebook defines at player level -
Badge Tokens, Pokémon in play, who caused each Special Condition, the Area Pile
drafts, who is Champion - and refuses what the rulebook forbids.

Terms
-----
*turn order*
    ``players`` is given in turn order (the highest roll goes first; play
    proceeds clockwise, which is also the order of a draft).  The *last player*
    is the last one in turn order.
*opening*
    Nobody plays a Supporter (or uses their Pokémon Trainer's ability) or
    attacks until the last player's first turn: the opening lasts while some
    player still in has not started a turn (``turns_started``).
*Badge Tokens*
    Six each.  ``badges_taken`` (0-6) counts the ones a player has flipped face
    up.  A Knock Out gives the player who caused it one; a player who Knocks Out
    their own Pokémon gives every opponent one; a Knock Out by a Special
    Condition counts for the player who caused the condition.  A player whose
    six Badge Tokens are all taken becomes the Champion and the game ends.
*Special Conditions* (``conditions``)
    ``{condition: player who caused it}`` for the player's Active Pokémon.
    Asleep, Confused and Paralyzed replace one another; Burned and Poisoned
    stack with them.  They go when the Active is Knocked Out or leaves play.
*Pokémon in play* (``pokemon_in_play``)
    Active plus Benched, starting at 1 (the Starting Pokémon).  A player with
    none stays in the game; if only one player has Pokémon in play, that player
    wins.
*Area Piles* (``area_piles``: how many remain, six of 8 cards at setup)
    Each Badge Token taken earns a draft offer (``pending_drafts``, in the
    order earned).  The player at the head of the queue explores a pile
    (``explore``: they pick first, then the cards go clockwise, one each, until
    none remain - ``drafts`` records each pile's pick order) or declines
    (``decline_explore``).  Turns do not start or end while an offer is open.

Contract
--------
``ENGINE.new_game(players)`` then ``ENGINE.apply(state, event)`` for each
recorded event: it returns a new state (the input is never mutated) or raises
:class:`~rules.engine.RuleViolation` naming the rulebook heading.
``ENGINE.VOCABULARY`` documents every event type.

Placements
----------
The Champion (or the last player with Pokémon in play) places 1; the other
players still in are ranked by Badge Tokens taken, players level sharing a
place.  A player out by a judge action (concede, game loss, disqualification)
places by elimination order below everyone still in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules import speech
from rules.base import TableSize
from rules.engine import (
    COMMON_VOCABULARY,
    THE_PLAYER,
    TURN_PLAYER,
    EventSpec,
    Field,
    GameEvent,
    QuickEntry,
    RuleViolation,
    State,
    When,
    acting_player,
    base_state,
    dispatch,
    finish,
    next_player,
    optional,
    player,
    player_ids_without_options,
    player_in_game,
    players_still_in,
    require,
)
from rules.options import Option, OptionError, Use, read
from rules.speech import Phrase, phrase, phrases

PREPARATION = "Preparation"
#: "To play Mt. Silver, 4 players come together": a table is 4 players, and players left over when an
#: event's numbers don't divide by 4 get byes.  The format's record uses it as its table size.
TABLE_SIZE = TableSize(min=4, max=4, preferred=4)
#: The house rule :data:`THREE_PLAYER_PODS` seats 3-player pods instead of byes; the rules (Badge
#: Tokens, the Area Pile draft clockwise) work unchanged with 3.
HOUSE_TABLE_SIZE = TableSize(min=3, max=4, preferred=4)
THREE_PLAYER_PODS = Option(
    name="three_player_pods",
    label=phrase("3-player pods"),
    default=False,
    choices=(False, True),
    uses=frozenset({Use.GAME, Use.TABLES}),
    rule=PREPARATION,
    quote="To play Mt. Silver, 4 players come together",
    house_rule=True,
    value_names={
        False: phrase("tables of 4; players left over get byes"),
        True: phrase("3-player pods when numbers don't divide by 4, instead of byes"),
    },
    help=phrase("By the rulebook a game is 4 players; the house rule seats 3-player pods instead of giving byes."),
)
OPTIONS: tuple[Option, ...] = (THREE_PLAYER_PODS,)


def tables_for(options: Mapping[str, Any]) -> TableSize:
    """The tables an event seats: 4s, or 3s and 4s under the house rule."""
    return HOUSE_TABLE_SIZE if options.get(THREE_PLAYER_PODS.name) else TABLE_SIZE


PLAY = "Play"
ADDITIONAL = "Additional Rules"
SETUP = "Setup"
OBJECTIVE = "Objective"
TURNS = SETUP  # turn order is set up there: clockwise from the first player

BADGE_TOKENS = 6
AREA_PILES = 6
PILE_SIZE = 8
CONDITIONS = ("asleep", "burned", "confused", "paralyzed", "poisoned")
#: Official rules: a new one of these replaces the others; Burned and Poisoned stack.
ROTATING = frozenset({"asleep", "confused", "paralyzed"})

_KNOCK_OUT: dict[str, Field] = {
    "player": Field.player(phrase("the owner of the Knocked Out Pokémon")),
    "by": Field.player(
        phrase("the player who caused it (the owner for a self Knock Out); omitted with `condition`"), optional=True
    ),
    "condition": Field.choice(
        CONDITIONS,
        phrase(
            "optional: the Special Condition that Knocked it Out; the Knock Out counts for the player who caused the "
            "condition"
        ),
        optional=True,
    ),
    "active": Field.boolean("optional bool (default true)", default=True, label=phrase("the Active Pokémon")),
}

VOCABULARY: dict[str, EventSpec] = {
    spec.type: spec
    for spec in (
        EventSpec(
            "start_turn",
            {"player": Field.player(phrase("the player starting their turn"))},
            SETUP,
            phrase(
                "Starts the next player's turn (the next player still in, clockwise) and resets the per-turn limits. "
                "Refuses another player, a turn in progress and an open draft offer."
            ),
        ),
        EventSpec(
            "end_turn",
            {"player": Field.player(phrase("the player ending their turn"))},
            PLAY,
            phrase("Ends the turn. Refuses it while a draft offer is open."),
        ),
        EventSpec(
            "play_supporter",
            {
                "player": Field.player(phrase("the player whose turn it is")),
                "trainer": Field.boolean(
                    phrase("optional bool: the Pokémon Trainer's ability used as the turn's Supporter"),
                    label=phrase("Pokémon Trainer's ability"),
                ),
            },
            PLAY,
            phrase(
                "Records the turn's Supporter. Refuses it before the last player's first turn and a second one in a turn."
            ),
        ),
        EventSpec(
            "attack",
            {"player": Field.player(phrase("the player whose turn it is"))},
            PLAY,
            phrase(
                "Records the turn's attack. Refuses it before the last player's first turn, a second attack in a turn "
                "and a player with no Pokémon in play."
            ),
        ),
        EventSpec(
            "trade",
            {
                "player": Field.player(phrase("the player whose turn it is")),
                "partner": Field.player(phrase("the player they exchange Pokémon with")),
            },
            PLAY,
            phrase(
                "Records the turn's Pokémon trade. Refuses a second trade in a turn and a partner who is out or the "
                "player themself."
            ),
        ),
        EventSpec(
            "play_pokemon",
            {
                "player": Field.player(phrase("the owner")),
                "count": Field.count("optional, default 1", minimum=1, optional=True, default=1),
            },
            PLAY,
            phrase("Pokémon are put into play (Active or Bench)."),
        ),
        EventSpec(
            "leave_play",
            {
                "player": Field.player(phrase("the owner")),
                "count": Field.count("optional, default 1", minimum=1, optional=True, default=1),
                "active": Field.boolean(
                    phrase("optional bool (default false): the Active is among them"),
                    label=phrase("the Active is among them"),
                ),
            },
            PLAY,
            phrase(
                "Pokémon leave play without a Knock Out (to the hand, the deck ...). If only one player then has "
                "Pokémon in play, they win. Refuses more Pokémon than the player has in play."
            ),
        ),
        EventSpec(
            "special_condition",
            {
                "player": Field.player(phrase("the owner of the Active Pokémon")),
                "condition": Field.choice(CONDITIONS, ", ".join(CONDITIONS)),
                "by": Field.player(phrase("who caused it")),
            },
            ADDITIONAL,
            phrase(
                "Records a Special Condition on the Active and the player who caused it (Asleep, Confused and "
                "Paralyzed replace one another). Refuses a player with no Pokémon in play."
            ),
        ),
        EventSpec(
            "clear_condition",
            {
                "player": Field.player(phrase("the owner of the Active Pokémon")),
                "condition": Field.choice(CONDITIONS, phrase("optional: one condition (default all)"), optional=True),
            },
            ADDITIONAL,
            phrase("The Active recovers (or retreats / evolves). Refuses a condition the Active does not have."),
        ),
        EventSpec(
            "knock_out",
            {
                **_KNOCK_OUT,
                "knocked_out": Field.entries(
                    _KNOCK_OUT,
                    "instead of the fields above: a list of them, for Knock Outs at the same time",
                    repeats=True,
                    label=phrase("Knock Outs at the same time"),
                ),
            },
            PLAY,
            phrase(
                "The player who caused it takes one Badge Token (every opponent takes one for a self Knock Out) and "
                "earns a draft offer while Area Piles remain; all six taken makes them Champion and ends the game; "
                "if only one player then has Pokémon in play, they win. Refuses a player with no Pokémon in play and "
                "a condition the Active does not have."
            ),
        ),
        EventSpec(
            "explore",
            {"player": Field.player(phrase("the player at the head of the draft queue"))},
            PLAY,
            phrase(
                "Explores the next Area Pile: the player picks first, then clockwise one card each until the 8 cards "
                "are gone. Refuses a player without an offer or whose offer is not next."
            ),
        ),
        EventSpec(
            "decline_explore",
            {"player": Field.player(phrase("the player at the head of the draft queue"))},
            PLAY,
            phrase("The player chooses not to explore (the rule says they *may*): the offer lapses."),
        ),
    )
}
VOCABULARY.update(COMMON_VOCABULARY)

#: One-tap buttons on each player's card: the entries a judge records most often.  A Knock Out is
#: offered on the owner's card during another player's turn, credited to the turn player, who takes
#: a Badge Token.
QUICK_ENTRIES: tuple[QuickEntry, ...] = (
    QuickEntry("start_turn", phrase("Start turn"), "start_turn", {"player": THE_PLAYER}, When.PLAYS_NEXT),
    QuickEntry("end_turn", phrase("End turn"), "end_turn", {"player": THE_PLAYER}, When.THEIR_TURN),
    QuickEntry("attack", phrase("Attack"), "attack", {"player": THE_PLAYER}, When.THEIR_TURN),
    QuickEntry("supporter", phrase("Supporter"), "play_supporter", {"player": THE_PLAYER}, When.THEIR_TURN),
    QuickEntry("pokemon", phrase("Pokémon into play"), "play_pokemon", {"player": THE_PLAYER}),
    QuickEntry(
        "knocked_out",
        phrase("Knocked Out by {turn}"),
        "knock_out",
        {"player": THE_PLAYER, "by": TURN_PLAYER},
        When.OTHER_TURN,
        needs="pokemon_in_play",
    ),
)


# --- small helpers --------------------------------------------------------------------------------


def _count(data: Mapping[str, Any]) -> int:
    if data.get("count") is None:
        return 1
    count: int = require(data, "count", int, minimum=1)
    return count


def _clockwise_from(state: State, pid: int) -> list[int]:
    """Players still in, starting with ``pid`` and going clockwise (turn order)."""
    players = state["players"]
    start = next(i for i, p in enumerate(players) if p["id"] == pid)
    n = len(players)
    return [players[(start + k) % n]["id"] for k in range(n) if not players[(start + k) % n]["out"]]


def _ranked(players: Sequence[dict[str, Any]], first: int) -> dict[int, int]:
    """Competition ranking by Badge Tokens taken from ``first``; players level share a place."""
    ordered = sorted(players, key=lambda p: p["badges_taken"], reverse=True)
    places: dict[int, int] = {}
    for i, p in enumerate(ordered):
        same = i > 0 and p["badges_taken"] == ordered[i - 1]["badges_taken"]
        places[p["id"]] = places[ordered[i - 1]["id"]] if same else first + i
    return places


def _opening(state: State) -> bool:
    """True until the last player's first turn: some player still in has not started a turn."""
    return any(p["turns_started"] == 0 for p in players_still_in(state))


def _take_badge(state: State, p: dict[str, Any]) -> None:
    if p["badges_taken"] >= BADGE_TOKENS:
        return
    p["badges_taken"] += 1
    if state["area_piles"] > 0:
        state["pending_drafts"] = [*state["pending_drafts"], p["id"]]


def _check_end(state: State) -> None:
    """The state-based endings: a Champion, or only one player (or none) with Pokémon in play."""
    if state["status"] != "in_progress":
        return
    still_in = players_still_in(state)
    champions = [p for p in still_in if p["badges_taken"] >= BADGE_TOKENS]
    if champions:
        # Interpretation: two players completing their Badge Tokens at the same time (a self Knock Out
        # gives every opponent one) are both Champion and share first place.
        others = [p for p in still_in if p["badges_taken"] < BADGE_TOKENS]
        places = {**{p["id"]: 1 for p in champions}, **_ranked(others, len(champions) + 1)}
        names = ", ".join(str(p["id"]) for p in champions)
        finish(state, places, reason=f"Champion: player(s) {names} took all six Badge Tokens")
        return
    holders = [p for p in still_in if p["pokemon_in_play"] > 0]
    if len(holders) == 1:
        winner = holders[0]
        others = [p for p in still_in if p is not winner]
        finish(
            state,
            {winner["id"]: 1, **_ranked(others, 2)},
            reason=f"player {winner['id']} is the only player with Pokémon in play",
        )
    elif not holders:
        # Interpretation: Knock Outs at the same time left nobody with Pokémon in play.  The rulebook names no
        # winner; a judge ends the game with everyone still in ranked by Badge Tokens taken (the objective).
        finish(state, _ranked(still_in, 1), reason="no player has Pokémon in play")


# --- event handlers (they change the fork they are given) ---------------------------------------


def _no_open_draft(state: State) -> None:
    if state["pending_drafts"]:
        raise RuleViolation(
            "draft_pending",
            PLAY,
            phrase(
                "%(player)s must first choose whether to explore an Area Pile.",
                player=speech.player(state["pending_drafts"][0]),
            ),
        )


def _start_turn(state: State, data: Mapping[str, Any]) -> None:
    if state["turn"]["in_progress"]:
        raise RuleViolation("turn_in_progress", TURNS, phrase("End the current turn first."))
    p = player_in_game(state, data, TURNS)
    _no_open_draft(state)
    expected = next_player(state)
    if p["id"] != expected:
        raise RuleViolation(
            "not_your_turn", SETUP, phrase("The next turn is %(player)s's.", player=speech.player(expected))
        )
    turn = state["turn"]
    turn.update(
        number=turn["number"] + 1, player=p["id"], in_progress=True, supporter=None, attacked=False, traded=False
    )
    p["turns_started"] += 1


def _end_turn(state: State, data: Mapping[str, Any]) -> None:
    acting_player(state, data, TURNS)
    _no_open_draft(state)
    state["turn"]["in_progress"] = False


def _play_supporter(state: State, data: Mapping[str, Any]) -> None:
    acting_player(state, data, TURNS)
    trainer = optional(data, "trainer", bool, False)
    if _opening(state):
        raise RuleViolation("too_early", PLAY, phrase("Nobody plays a Supporter until the last player's first turn."))
    if state["turn"]["supporter"] is not None:
        # The Pokémon Trainer's ability is used "as their supporter card for the turn": it shares the limit.
        raise RuleViolation(
            "supporter_already_played", PLAY, phrase("One Supporter (or Pokémon Trainer ability) a turn.")
        )
    state["turn"]["supporter"] = "trainer" if trainer else "card"


def _attack(state: State, data: Mapping[str, Any]) -> None:
    p = acting_player(state, data, TURNS)
    if _opening(state):
        raise RuleViolation("too_early", PLAY, phrase("Nobody attacks until the last player's first turn."))
    if state["turn"]["attacked"]:
        raise RuleViolation("already_attacked", PLAY, phrase("A player attacks at most once a turn."))
    if p["pokemon_in_play"] == 0:
        raise RuleViolation(
            "no_pokemon_in_play",
            PLAY,
            phrase("%(player)s has no Pokémon in play to attack with.", player=speech.player(p["id"])),
        )
    state["turn"]["attacked"] = True


def _trade(state: State, data: Mapping[str, Any]) -> None:
    p = acting_player(state, data, TURNS)
    partner = player_in_game(state, data, TURNS, "partner")
    if partner["id"] == p["id"]:
        raise RuleViolation("invalid_partner", PLAY, phrase("A player trades with another player."))
    if state["turn"]["traded"]:
        raise RuleViolation("trade_already_done", PLAY, phrase("A player may start one trade a turn."))
    state["turn"]["traded"] = True


def _play_pokemon(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, TURNS)
    p["pokemon_in_play"] += _count(data)


def _leave_play(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, TURNS)
    count = _count(data)
    active = optional(data, "active", bool, False)
    if count > p["pokemon_in_play"]:
        raise RuleViolation(
            "no_pokemon_in_play",
            PLAY,
            phrases(
                "%(player)s has %(count)s Pokémon in play.",
                "%(player)s has %(count)s Pokémon in play.",
                p["pokemon_in_play"],
                player=speech.player(p["id"]),
            ),
        )
    p["pokemon_in_play"] -= count
    if active or p["pokemon_in_play"] == 0:
        p["conditions"] = {}
    _check_end(state)


def _condition_name(data: Mapping[str, Any]) -> str:
    name: str = require(data, "condition", str)
    if name not in CONDITIONS:
        raise RuleViolation(
            "invalid_field",
            ADDITIONAL,
            phrase("'%(field)s' is one of %(choices)s.", field="condition", choices=", ".join(CONDITIONS)),
        )
    return name


def _active_is_not(owner: int, condition: str) -> Phrase:
    """``no_such_condition``'s sentence: one per Special Condition, its name being a word of it."""
    who = speech.player(owner)
    sentences = {
        "asleep": phrase("%(player)s's Active is not asleep.", player=who),
        "burned": phrase("%(player)s's Active is not burned.", player=who),
        "confused": phrase("%(player)s's Active is not confused.", player=who),
        "paralyzed": phrase("%(player)s's Active is not paralyzed.", player=who),
        "poisoned": phrase("%(player)s's Active is not poisoned.", player=who),
    }
    return sentences[condition]


def _counts_for(condition: str, source: int) -> Phrase:
    """``wrong_condition_source``'s sentence: one per Special Condition, its name being a word of it."""
    who = speech.player(source)
    sentences = {
        "asleep": phrase("A Knock Out from asleep counts for %(player)s, who caused the condition.", player=who),
        "burned": phrase("A Knock Out from burned counts for %(player)s, who caused the condition.", player=who),
        "confused": phrase("A Knock Out from confused counts for %(player)s, who caused the condition.", player=who),
        "paralyzed": phrase("A Knock Out from paralyzed counts for %(player)s, who caused the condition.", player=who),
        "poisoned": phrase("A Knock Out from poisoned counts for %(player)s, who caused the condition.", player=who),
    }
    return sentences[condition]


def _special_condition(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, TURNS)
    name = _condition_name(data)
    source = player_in_game(state, data, TURNS, "by")
    if p["pokemon_in_play"] == 0:
        raise RuleViolation(
            "no_pokemon_in_play", ADDITIONAL, phrase("%(player)s has no Active Pokémon.", player=speech.player(p["id"]))
        )
    # Interpretation: a condition applied again belongs to whoever applied it last.
    kept = {k: v for k, v in p["conditions"].items() if not (name in ROTATING and k in ROTATING)}
    p["conditions"] = {**kept, name: source["id"]}


def _clear_condition(state: State, data: Mapping[str, Any]) -> None:
    p = player_in_game(state, data, TURNS)
    if data.get("condition") is None:
        if not p["conditions"]:
            raise RuleViolation(
                "no_such_condition",
                ADDITIONAL,
                phrase("%(player)s's Active has no Special Condition.", player=speech.player(p["id"])),
            )
        p["conditions"] = {}
        return
    name = _condition_name(data)
    if name not in p["conditions"]:
        message = _active_is_not(p["id"], name)
        raise RuleViolation("no_such_condition", ADDITIONAL, message)
    p["conditions"] = {k: v for k, v in p["conditions"].items() if k != name}


def _knock_out_entries(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    if "knocked_out" not in data:
        return [data]
    if "player" in data:
        raise RuleViolation(
            "invalid_field",
            "event",
            phrase(
                "Give either '%(field)s' or a '%(list_field)s' list, not both.",
                field="player",
                list_field="knocked_out",
            ),
        )
    entries: list[Mapping[str, Any]] = require(data, "knocked_out", list)
    if not entries or not all(isinstance(e, Mapping) for e in entries):
        raise RuleViolation(
            "invalid_field", "event", phrase("'%(field)s' is a non-empty list of Knock Outs.", field="knocked_out")
        )
    return entries


def _knock_out(state: State, data: Mapping[str, Any]) -> None:
    earners: list[dict[str, Any]] = []
    actives_out: set[int] = set()
    for entry in _knock_out_entries(data):
        owner = player_in_game(state, entry, TURNS)
        active = optional(entry, "active", bool, True)
        if owner["pokemon_in_play"] == 0:
            raise RuleViolation(
                "no_pokemon_in_play",
                PLAY,
                phrase("%(player)s has no Pokémon in play.", player=speech.player(owner["id"])),
            )
        if active and owner["id"] in actives_out:
            raise RuleViolation(
                "invalid_field",
                "event",
                phrase("%(player)s has one Active Pokémon.", player=speech.player(owner["id"])),
            )
        if entry.get("condition") is not None:
            name = _condition_name(entry)
            if not active:
                raise RuleViolation(
                    "invalid_field", ADDITIONAL, phrase("Only the Active Pokémon has Special Conditions.")
                )
            if name not in owner["conditions"]:
                message = _active_is_not(owner["id"], name)
                raise RuleViolation("no_such_condition", ADDITIONAL, message)
            credit = owner["conditions"][name]
            if entry.get("by") is not None and entry["by"] != credit:
                message = _counts_for(name, credit)
                raise RuleViolation("wrong_condition_source", ADDITIONAL, message)
        else:
            credit = player_in_game(state, entry, TURNS, "by")["id"]
        owner["pokemon_in_play"] -= 1
        if active:
            actives_out.add(owner["id"])
            owner["conditions"] = {}
        if credit == owner["id"]:
            # Self Knock Out: every opponent takes one, clockwise from the owner's left (the draft queue order).
            earners.extend(player(state, pid) for pid in _clockwise_from(state, owner["id"])[1:])
        elif not player(state, credit)["out"]:
            earners.append(player(state, credit))
        # Interpretation: a condition caused by a player who has since left the game earns no Badge Token.
    for p in earners:
        _take_badge(state, p)
    _check_end(state)


def _draft_offer(state: State, data: Mapping[str, Any]) -> dict[str, Any]:
    p = player_in_game(state, data, TURNS)
    queue = state["pending_drafts"]
    if p["id"] not in queue:
        raise RuleViolation(
            "no_draft_offer",
            PLAY,
            phrase("%(player)s has not earned a draft (take a Badge Token).", player=speech.player(p["id"])),
        )
    if queue[0] != p["id"]:
        raise RuleViolation(
            "not_your_draft", PLAY, phrase("%(player)s's draft offer comes first.", player=speech.player(queue[0]))
        )
    return p


def _explore(state: State, data: Mapping[str, Any]) -> None:
    p = _draft_offer(state, data)
    seats = _clockwise_from(state, p["id"])
    picks = [seats[k % len(seats)] for k in range(PILE_SIZE)]
    state["drafts"] = [
        *state["drafts"],
        {"pile": AREA_PILES - state["area_piles"] + 1, "earner": p["id"], "picks": picks},
    ]
    state["area_piles"] -= 1
    for pid in picks:
        player(state, pid)["cards_drafted"] += 1
    # With the last pile gone, the offers still queued lapse: there is nothing left to explore.
    state["pending_drafts"] = state["pending_drafts"][1:] if state["area_piles"] else []


def _decline_explore(state: State, data: Mapping[str, Any]) -> None:
    _draft_offer(state, data)
    state["pending_drafts"] = state["pending_drafts"][1:]


_HANDLERS: dict[str, Callable[[State, Mapping[str, Any]], None]] = {
    "start_turn": _start_turn,
    "end_turn": _end_turn,
    "play_supporter": _play_supporter,
    "attack": _attack,
    "trade": _trade,
    "play_pokemon": _play_pokemon,
    "leave_play": _leave_play,
    "special_condition": _special_condition,
    "clear_condition": _clear_condition,
    "knock_out": _knock_out,
    "explore": _explore,
    "decline_explore": _decline_explore,
}


def _after_common(state: State) -> None:
    """A judge action took a player out: end their turn, drop their draft offers, re-check the endings."""
    turn = state["turn"]
    if turn["in_progress"] and player(state, turn["player"])["out"]:
        turn["in_progress"] = False
    out = {p["id"] for p in state["players"] if p["out"]}
    state["pending_drafts"] = [pid for pid in state["pending_drafts"] if pid not in out]
    _check_end(state)


class MtSilverEngine:
    slug: str  # set by the format record that registers this engine (rules/base.py)
    VOCABULARY = VOCABULARY
    QUICK_ENTRIES = QUICK_ENTRIES

    def new_game(self, players: Sequence[int], options: Mapping[str, Any] | None = None) -> State:
        try:
            chosen = read(OPTIONS, options, format_name="Mt. Silver")
        except OptionError as exc:
            raise RuleViolation("invalid_option", PREPARATION, exc.message) from None
        ids = player_ids_without_options(players, None)
        if len(ids) != 4 and not (len(ids) == 3 and chosen[THREE_PLAYER_PODS.name]):
            if chosen[THREE_PLAYER_PODS.name]:
                message = phrase(
                    '"To play Mt. Silver, 4 players come together": a game has 3 or 4 players (the event\'s house '
                    "rule)."
                )
            else:
                message = phrase('"To play Mt. Silver, 4 players come together": a game has 4 players.')
            raise RuleViolation("invalid_players", PREPARATION, message)
        state = base_state(ids, area_piles=AREA_PILES, pending_drafts=[], drafts=[])
        state["turn"].update(in_progress=False, supporter=None, attacked=False, traded=False)
        for p in state["players"]:
            p.update(badges_taken=0, pokemon_in_play=1, conditions={}, turns_started=0, cards_drafted=0)
        return state

    def apply(self, state: State, event: GameEvent) -> State:
        return dispatch(state, event, _HANDLERS, after_common=_after_common)


ENGINE = MtSilverEngine()
