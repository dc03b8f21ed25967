"""Format3 Trinity ("Signature" multiplayer Pokémon TCG): the game engine.

The engine follows :mod:`rules.engine` (the contract every format's
engine follows).  It does not simulate cards: a judge records what happened at
the table and the engine keeps what the rulebook defines at player level -
prize cards, rounds, who has been targeted, whose Active Pokémon is waiting to
be replaced, who is out, who won - and refuses what Rule Set #3 (the Teaming
Rule) and the official rules it defers to forbid.

Terms
-----
*turn order*
    ``players`` is given in turn order (the high roll of Rule Set #2 chose the
    first player; play proceeds clockwise).  The first turn of the game is the
    first listed player's.
*round*
    Rule Set #3: a round is complete once every player still in the game has
    taken a turn in it.  ``state["round"]`` is its number; ``round_over`` is
    true between the end of its last turn and the first turn of the next round,
    the window in which Knocked Out Active Pokémon are replaced.  Each player's
    ``took_turn`` and ``targeted`` flags are reset when the next round starts.
*target*
    The player whose Active or Benched Pokémon an attack is aimed at.  A player
    targeted this round may not be targeted again in the round unless no other
    valid target remains.
*Knocked Out Active* (``active_knocked_out``)
    The player's Active Pokémon was Knocked Out.  It is not replaced until the
    round is over; then the player either promotes a Benched Pokémon
    (``promote``) or, having none, is out (``no_benched_pokemon``).  Players who
    run out of Pokémon at the same round end are out together and share a
    placement.
*prize cards*
    Six each (``prizes_left``, ``prizes_taken``).  A Knock Out gives the player
    named ``by`` 1 prize card, or what the event says (``prizes``, 1-3: 2 for a
    Rule Box Pokémon ex / V / GX, 3 for VMAX and the like).  Taking the last
    prize card wins the game.
*deck out*
    A player who must draw from an empty deck at the start of their turn is out.

Contract
--------
``ENGINE.new_game(players)`` then ``ENGINE.apply(state, event)`` for each
recorded event: it returns a new state (the input is never mutated) or raises
:class:`~rules.engine.RuleViolation` naming the rulebook section.
``ENGINE.VOCABULARY`` documents every event type.

Placements
----------
A player who is out places by elimination order (the first out of ``n`` places
``n``); players out at the same round end share the best of their places.  When
a player takes their last prize card they place 1 and the players still in are
ranked by prize cards taken, players level sharing a place.  When the last
opponent is out, the player left places 1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules import speech
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
    eliminate,
    finish,
    next_player,
    optional,
    player,
    player_ids_without_options,
    player_in_game,
    players_still_in,
)
from rules.speech import Phrase, phrase, phrases

SETUP = "Rule Set #2 Starting the Game"
TEAMING = "Rule Set #3 Playing the Game (the Teaming Rule)"
OFFICIAL = "A Quick Review (official Pokémon TCG rules)"
TURNS = SETUP  # turn order is set up there: clockwise from the first player

PRIZE_CARDS = 6
MIN_PLAYERS = 3
MAX_PRIZES_PER_KNOCK_OUT = 3
#: Why a player may end a turn without attacking.  The rule names the first two;
#: ``attack_prevented`` covers an Active that cannot attack (Asleep, Paralyzed, a
#: card effect): a judge reads "simply unable" as including it.
NO_ATTACK_REASONS = ("no_valid_target", "insufficient_energy", "attack_prevented")

VOCABULARY: dict[str, EventSpec] = {
    spec.type: spec
    for spec in (
        EventSpec(
            "start_turn",
            {"player": Field.player(phrase("the player starting their turn"))},
            SETUP,
            phrase(
                "Starts the next player's turn (the next player still in, clockwise); the first turn of a new round "
                "starts the round. Refuses another player, a turn already in progress, and a new round while a "
                "Knocked Out Active is still waiting to be replaced."
            ),
        ),
        EventSpec(
            "attack",
            {
                "player": Field.player(phrase("the attacking player (whose turn it is)")),
                "target": Field.player(phrase("the player whose Pokémon are attacked")),
                "no_other_valid_target": Field.boolean(
                    phrase("optional bool: the judge confirms no untargeted player has a Pokémon in play to target"),
                    label=phrase("no other valid target"),
                ),
            },
            TEAMING,
            phrase(
                "Records the turn's attack and marks the target as targeted this round. Refuses a second attack, an "
                "attack on the first turn of the game, an attack with a Knocked Out Active, and a target already "
                "targeted this round while another player still in has not been."
            ),
        ),
        EventSpec(
            "knock_out",
            {
                "player": Field.player(phrase("the owner of the Knocked Out Pokémon")),
                "by": Field.player(phrase("the opponent who takes the prize cards")),
                "prizes": Field.count(
                    phrase("optional 1-3 (default 1; 2 for ex / V / GX, 3 for VMAX and the like)"),
                    minimum=1,
                    maximum=MAX_PRIZES_PER_KNOCK_OUT,
                    optional=True,
                    default=1,
                ),
                "active": Field.boolean(
                    phrase("optional bool (default true): the Active Pokémon, false for a Benched one"),
                    default=True,
                    label=phrase("the Active Pokémon"),
                ),
            },
            OFFICIAL,
            phrase(
                "The player named `by` takes the prize cards (at most those left); the last one wins the game. A "
                "Knocked Out Active is not replaced until the round is over. Refuses a Knock Out of an Active already "
                "Knocked Out, of a player with no Pokémon left, and prizes taken by the owner."
            ),
        ),
        EventSpec(
            "end_turn",
            {
                "player": Field.player(phrase("the player ending their turn")),
                "no_attack_reason": Field.choice(
                    NO_ATTACK_REASONS,
                    phrase(
                        "required when the player did not attack: %(reasons)s", reasons=" / ".join(NO_ATTACK_REASONS)
                    ),
                    optional=True,
                    label=phrase("why no attack"),
                ),
            },
            TEAMING,
            phrase(
                "Ends the turn; the round is over once every player still in has taken a turn in it. Refuses ending "
                "a turn without an attack and without a reason, except on the first turn of the game and with a "
                "Knocked Out Active, and a pass for no valid target while another player still in has an Active "
                "Pokémon in play."
            ),
        ),
        EventSpec(
            "promote",
            {"player": Field.player(phrase("the player whose Active was Knocked Out"))},
            TEAMING,
            phrase(
                "At the end of the round, a Benched Pokémon replaces the Knocked Out Active. Refuses a promotion "
                "before the round is over and a player with no Knocked Out Active."
            ),
        ),
        EventSpec(
            "no_benched_pokemon",
            {"player": Field.player(phrase("the player whose Active was Knocked Out"))},
            TEAMING,
            phrase(
                "At the end of the round, the player has no Benched Pokémon to promote: they are out (with every other "
                "player out at the same round end, sharing a placement). Refuses it before the round is over."
            ),
        ),
        EventSpec(
            "deck_out",
            {"player": Field.player(phrase("the player whose turn it is"))},
            OFFICIAL,
            phrase(
                "The player must draw from an empty deck at the start of their turn: they are out and their turn "
                "ends. Refuses it once the turn has gone past the draw (an attack or a Knock Out was recorded)."
            ),
        ),
    )
}
VOCABULARY.update(COMMON_VOCABULARY)

#: One-tap buttons on each player's card: the entries a judge records most often.  A Knock Out is
#: offered on the owner's card during another player's turn, the prize card going to the turn player.
QUICK_ENTRIES: tuple[QuickEntry, ...] = (
    QuickEntry("start_turn", phrase("Start turn"), "start_turn", {"player": THE_PLAYER}, When.PLAYS_NEXT),
    QuickEntry("end_turn", phrase("End turn"), "end_turn", {"player": THE_PLAYER}, When.THEIR_TURN),
    QuickEntry(
        "pass_no_target",
        phrase("Pass: no valid target"),
        "end_turn",
        {"player": THE_PLAYER, "no_attack_reason": "no_valid_target"},
        When.THEIR_TURN,
    ),
    QuickEntry(
        "knocked_out",
        phrase("Knocked Out: prize to {turn}"),
        "knock_out",
        {"player": THE_PLAYER, "by": TURN_PLAYER},
        When.OTHER_TURN,
    ),
    QuickEntry(
        "promote", phrase("Promote"), "promote", {"player": THE_PLAYER}, When.BETWEEN_TURNS, needs="active_knocked_out"
    ),
)


# --- small helpers --------------------------------------------------------------------------------


def _ranked(players: Sequence[dict[str, Any]], key: Callable[[dict[str, Any]], int], first: int) -> dict[int, int]:
    """Competition ranking from ``first`` by ``key``, highest first; players level share a place."""
    ordered = sorted(players, key=key, reverse=True)
    places: dict[int, int] = {}
    for i, p in enumerate(ordered):
        same = i > 0 and key(p) == key(ordered[i - 1])
        places[p["id"]] = places[ordered[i - 1]["id"]] if same else first + i
    return places


def _who(ids: Sequence[int]) -> Phrase:
    """Players of a sentence that counts them: "player 3", or "players 3, 4"."""
    return speech.player(ids[0]) if len(ids) == 1 else speech.players(ids)


def _awaiting_promotion(state: State) -> list[dict[str, Any]]:
    return [p for p in players_still_in(state) if p["active_knocked_out"] and not p["no_pokemon_left"]]


def _valid_targets(state: State, attacker: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The players ``attacker`` may target now, as far as the engine can see (Rule Set #3).

    A valid target is another player still in whose Active Pokémon is in play: not Knocked Out and waiting for
    the round end, and not a player with no Pokémon left.  The engine does not see benches, so a player whose
    Active is Knocked Out counts as no target.  The targeting limit ("unless there are no other valid targets
    remaining in play") picks *which* of them is valid: the untargeted ones while there are any, else the
    players already targeted this round - so a valid target remains exactly when this list is not empty.
    """
    in_play = [
        q
        for q in players_still_in(state)
        if q["id"] != attacker["id"] and not q["active_knocked_out"] and not q["no_pokemon_left"]
    ]
    untargeted = [q for q in in_play if not q["targeted"]]
    return untargeted or in_play


def _close_round_if_complete(state: State) -> None:
    if state["status"] != "in_progress" or state["round_over"] or state["turn"]["in_progress"]:
        return
    # Interpretation: only players *still in* count, so a player out before their turn does not hold the round up.
    if all(p["took_turn"] for p in players_still_in(state)):
        state["round_over"] = True
        _resolve_round_end(state)


def _resolve_round_end(state: State) -> None:
    """Once every Knocked Out Active is dealt with, the players with no Pokémon left go out together."""
    if not state["round_over"] or _awaiting_promotion(state):
        return
    still_in = players_still_in(state)
    batch = [p for p in still_in if p["no_pokemon_left"]]
    if not batch:
        return
    survivors = [p for p in still_in if not p["no_pokemon_left"]]
    if not survivors:
        # Interpretation: everyone still in runs out of Pokémon at the same round end - nobody outlasted
        # the others, so they share first place (a draw).
        finish(state, {p["id"]: 1 for p in batch}, reason="every player still in ran out of Pokémon")
        return
    # Interpretation: players who run out of Pokémon at the same round end are out at the same moment,
    # so they share the best of the places they take up.
    for p in batch:
        p["out"] = True
        p["placement"] = len(survivors) + 1
        p["out_reason"] = "no Pokémon left to promote"
    if len(survivors) == 1:
        finish(state, {survivors[0]["id"]: 1}, reason="last player standing (no Pokémon left to promote)")


# --- event handlers (they change the fork they are given) ---------------------------------------


def _start_turn(state: State, data: Mapping[str, Any]) -> None:
    if state["turn"]["in_progress"]:
        raise RuleViolation("turn_in_progress", TURNS, phrase("End the current turn first."))
    p = player_in_game(state, data, TURNS)
    if state["round_over"]:
        waiting = [q["id"] for q in _awaiting_promotion(state)]
        if waiting:
            raise RuleViolation(
                "promotion_pending",
                TEAMING,
                phrases(
                    "The round is over: %(players)s must replace their Active first.",
                    "The round is over: %(players)s must replace their Active first.",
                    len(waiting),
                    players=_who(waiting),
                ),
            )
        state["round"] += 1
        state["round_over"] = False
        for q in state["players"]:
            q["took_turn"] = False
            q["targeted"] = False
    expected = next_player(state)
    if p["id"] != expected:
        raise RuleViolation(
            "not_your_turn", SETUP, phrase("The next turn is %(player)s's.", player=speech.player(expected))
        )
    turn = state["turn"]
    turn.update(number=turn["number"] + 1, player=p["id"], in_progress=True, attacked=False, actions=0)


def _attack(state: State, data: Mapping[str, Any]) -> None:
    p = acting_player(state, data, TURNS)
    turn = state["turn"]
    if turn["attacked"]:
        raise RuleViolation("already_attacked", OFFICIAL, phrase("A player attacks at most once a turn."))
    if turn["number"] == 1:
        raise RuleViolation(
            "first_turn_attack", OFFICIAL, phrase("The player who goes first cannot attack on their first turn.")
        )
    if p["active_knocked_out"]:
        raise RuleViolation(
            "no_active_pokemon",
            TEAMING,
            phrase("The Active Pokémon was Knocked Out and is not replaced until the round ends."),
        )
    target = player_in_game(state, data, TURNS, "target")
    if target["id"] == p["id"]:
        raise RuleViolation("invalid_target", TEAMING, phrase("A player attacks another player's Pokémon."))
    attested = optional(data, "no_other_valid_target", bool, False)
    if target["targeted"]:
        untargeted = [q["id"] for q in players_still_in(state) if q["id"] != p["id"] and not q["targeted"]]
        # The engine does not see benches: a player it thinks untargeted may have no Pokémon in play, so the
        # judge may attest that no other valid target remains.
        if untargeted and not attested:
            raise RuleViolation(
                "target_already_targeted",
                TEAMING,
                phrases(
                    "%(player)s was already targeted this round; %(players)s has not been.",
                    "%(player)s was already targeted this round; %(players)s have not been.",
                    len(untargeted),
                    player=speech.player(target["id"]),
                    players=_who(untargeted),
                ),
            )
    target["targeted"] = True
    turn["attacked"] = True
    turn["actions"] += 1


def _knock_out(state: State, data: Mapping[str, Any]) -> None:
    owner = player_in_game(state, data, TURNS)
    taker = player_in_game(state, data, TURNS, "by")
    if taker["id"] == owner["id"]:
        raise RuleViolation("invalid_prize_taker", OFFICIAL, phrase("An opponent of the owner takes the prize cards."))
    prizes = optional(data, "prizes", int, 1)
    if not 1 <= prizes <= MAX_PRIZES_PER_KNOCK_OUT:
        raise RuleViolation("invalid_field", OFFICIAL, phrase("A Knock Out is worth 1 to 3 prize cards."))
    active = optional(data, "active", bool, True)
    if owner["no_pokemon_left"]:
        raise RuleViolation(
            "no_pokemon_in_play",
            TEAMING,
            phrase("%(player)s has no Pokémon in play.", player=speech.player(owner["id"])),
        )
    if active and owner["active_knocked_out"]:
        raise RuleViolation(
            "no_active_pokemon",
            TEAMING,
            phrase("%(player)s's Active was already Knocked Out this round.", player=speech.player(owner["id"])),
        )
    if active:
        # Interpretation: a Knock Out of an Active in the round-end window (a Check-Up) also waits in
        # ``_awaiting_promotion``: the next round does not start until it is replaced.
        owner["active_knocked_out"] = True
    # A Knock Out worth more prize cards than the taker has left gives them what is left.
    taken = min(prizes, taker["prizes_left"])
    taker["prizes_left"] -= taken
    taker["prizes_taken"] += taken
    if state["turn"]["in_progress"]:
        state["turn"]["actions"] += 1
    if taker["prizes_left"] == 0:
        # Interpretation: the game ends at once; the others still in are ranked by prize cards taken.
        others = [q for q in players_still_in(state) if q["id"] != taker["id"]]
        places = {taker["id"]: 1, **_ranked(others, lambda q: q["prizes_taken"], 2)}
        finish(state, places, reason=f"player {taker['id']} took their last prize card")


def _end_turn(state: State, data: Mapping[str, Any]) -> None:
    p = acting_player(state, data, TURNS)
    turn = state["turn"]
    reason = data.get("no_attack_reason")
    if reason is not None:
        if reason not in NO_ATTACK_REASONS:
            raise RuleViolation(
                "invalid_field",
                TEAMING,
                phrase(
                    "'%(field)s' is one of %(choices)s.", field="no_attack_reason", choices=", ".join(NO_ATTACK_REASONS)
                ),
            )
        if turn["attacked"]:
            raise RuleViolation("invalid_field", TEAMING, phrase("The player attacked: there is no reason to give."))
    # No reason is needed when the player cannot attack whatever they hold: on the first turn of the game
    # (official rules) and with a Knocked Out Active, which stays unreplaced until the round ends.
    exempt = turn["number"] == 1 or p["active_knocked_out"]
    if not turn["attacked"] and reason is None and not exempt:
        raise RuleViolation(
            "attack_required",
            TEAMING,
            phrase("A player may not pass without attacking unless they have no valid target or not enough energy."),
        )
    if reason == "no_valid_target" and not exempt:
        targets = [q["id"] for q in _valid_targets(state, p)]
        if targets:
            raise RuleViolation(
                "valid_target_remains",
                TEAMING,
                phrases(
                    "%(players)s still has an Active Pokémon in play to target: the player may not pass claiming no "
                    "valid target.",
                    "%(players)s still have an Active Pokémon in play to target: the player may not pass claiming no "
                    "valid target.",
                    len(targets),
                    players=_who(targets),
                ),
            )
    turn["in_progress"] = False
    p["took_turn"] = True
    _close_round_if_complete(state)


def _round_end_player(state: State, data: Mapping[str, Any]) -> dict[str, Any]:
    p = player_in_game(state, data, TURNS)
    if not p["active_knocked_out"] or p["no_pokemon_left"]:
        raise RuleViolation(
            "nothing_to_promote",
            TEAMING,
            phrase("%(player)s has no Knocked Out Active to replace.", player=speech.player(p["id"])),
        )
    if not state["round_over"]:
        raise RuleViolation(
            "promotion_before_round_end",
            TEAMING,
            phrase(
                "A Knocked Out Active is not replaced until the end of the round (every player still in has had a "
                "turn)."
            ),
        )
    return p


def _promote(state: State, data: Mapping[str, Any]) -> None:
    p = _round_end_player(state, data)
    p["active_knocked_out"] = False
    _resolve_round_end(state)


def _no_benched_pokemon(state: State, data: Mapping[str, Any]) -> None:
    p = _round_end_player(state, data)
    p["no_pokemon_left"] = True
    _resolve_round_end(state)


def _deck_out(state: State, data: Mapping[str, Any]) -> None:
    p = acting_player(state, data, TURNS)
    # Official rules: the draw that starts the turn is the only draw that decks a player out.
    if state["turn"]["actions"]:
        raise RuleViolation(
            "not_at_draw",
            OFFICIAL,
            phrase("Decking out happens at the draw that starts the turn, before anything else."),
        )
    state["turn"]["in_progress"] = False
    eliminate(state, p["id"], "decked out")
    _close_round_if_complete(state)


_HANDLERS: dict[str, Callable[[State, Mapping[str, Any]], None]] = {
    "start_turn": _start_turn,
    "attack": _attack,
    "knock_out": _knock_out,
    "end_turn": _end_turn,
    "promote": _promote,
    "no_benched_pokemon": _no_benched_pokemon,
    "deck_out": _deck_out,
}


def _after_common(state: State) -> None:
    """A judge action took a player out: end their turn, and the round may now be complete."""
    turn = state["turn"]
    if turn["in_progress"] and player(state, turn["player"])["out"]:
        turn["in_progress"] = False
    _close_round_if_complete(state)
    _resolve_round_end(state)


class Format3TrinityEngine:
    slug: str  # set by the format record that registers this engine (rules/base.py)
    VOCABULARY = VOCABULARY
    QUICK_ENTRIES = QUICK_ENTRIES

    def new_game(self, players: Sequence[int], options: Mapping[str, Any] | None = None) -> State:
        ids = player_ids_without_options(players, options)
        if len(ids) < MIN_PLAYERS:
            raise RuleViolation("invalid_players", "Format3Trinity", phrase("A game has 3 or more players."))
        state = base_state(ids, round=1, round_over=False)
        state["turn"].update(in_progress=False, attacked=False, actions=0)
        for p in state["players"]:
            p.update(
                prizes_left=PRIZE_CARDS,
                prizes_taken=0,
                active_knocked_out=False,
                no_pokemon_left=False,
                took_turn=False,
                targeted=False,
            )
        return state

    def apply(self, state: State, event: GameEvent) -> State:
        return dispatch(state, event, _HANDLERS, after_common=_after_common)


ENGINE = Format3TrinityEngine()
