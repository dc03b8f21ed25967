"""The Format3 Trinity game engine: rounds, targeting, delayed promotion, prize cards, placements."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import COMMON_VOCABULARY, GameEvent, RuleViolation, State, replay
from rules.format3_trinity.engine import ENGINE, NO_ATTACK_REASONS
from rules.speech import say
from tests.support.games.format3_trinity import PLAYERS, ev, scripted_game, turn
from tests.support.speech import speaking


def play(state: State, *events: GameEvent) -> State:
    for event in events:
        state = ENGINE.apply(state, event)
    return state


def refused(state: State, event: GameEvent, code: str) -> RuleViolation:
    before = copy.deepcopy(state)
    with pytest.raises(RuleViolation) as info:
        ENGINE.apply(state, event)
    assert info.value.code == code, info.value.message
    assert info.value.rule
    assert state == before
    return info.value


def pl(state: State, pid: int) -> dict[str, Any]:
    return next(p for p in state["players"] if p["id"] == pid)


def after_first_round(players: list[int] = PLAYERS) -> State:
    """Every player has had one turn; nobody attacked (turn 1 cannot, the others lacked energy)."""
    state = play(ENGINE.new_game(players), *turn(players[0]))
    for pid in players[1:]:
        state = play(state, *turn(pid, reason="insufficient_energy"))
    return state


def from_json(value: Any) -> Any:
    """``value`` as the games service reads it back from the database: JSON, so dict keys are strings."""
    return json.loads(json.dumps(value))


# --- a whole game -------------------------------------------------------------------------------


def test_a_scripted_game_ends_with_the_prize_winner_first_and_the_others_by_elimination_order():
    state = ENGINE.new_game(PLAYERS)
    # Round 1: player 1 goes first and cannot attack; player 2 Knocks Out player 3's Rule Box Active.
    state = play(
        state,
        *turn(1),
        *turn(2, ev("attack", player=2, target=3), ev("knock_out", player=3, by=2, prizes=2)),
        *turn(3),  # no Active: nothing to attack with
        *turn(4, ev("attack", player=4, target=1)),
    )
    assert state["round_over"] and pl(state, 3)["active_knocked_out"]
    refused(state, ev("start_turn", player=1), "promotion_pending")
    state = play(state, ev("promote", player=3))
    # Round 2: player 1 decks out; player 4's Active falls and they have nothing to promote.
    state = play(
        state,
        ev("start_turn", player=1),
        ev("deck_out", player=1),
        *turn(2, ev("attack", player=2, target=4), ev("knock_out", player=4, by=2, prizes=2)),
        *turn(3, ev("attack", player=3, target=2), ev("knock_out", player=2, by=3, active=False)),
        *turn(4),
        ev("no_benched_pokemon", player=4),
    )
    assert pl(state, 1)["placement"] == 4 and pl(state, 4)["placement"] == 3
    # Round 3: player 2 takes their last two prize cards.
    state = play(state, ev("start_turn", player=2), ev("attack", player=2, target=3))
    state = play(state, ev("knock_out", player=3, by=2, prizes=2))
    assert state["status"] == "finished"
    assert state["result"]["placements"] == {"1": 4, "2": 1, "3": 2, "4": 3}
    assert "last prize card" in state["result"]["reason"]
    assert pl(state, 2)["prizes_taken"] == 6 and pl(state, 3)["prizes_taken"] == 1
    refused(state, ev("end_turn", player=2), "game_over")


def test_the_scripted_game_ends_the_same_when_its_events_and_states_come_back_from_json():
    events = scripted_game()
    direct = replay(ENGINE, PLAYERS, None, events)
    assert direct["result"]["placements"] == {"1": 4, "2": 1, "3": 2, "4": 3}
    assert from_json(direct) == direct, "the snapshot must survive the database unchanged"
    stored = ENGINE.new_game(PLAYERS)
    for event in events:
        stored = from_json(ENGINE.apply(stored, GameEvent(event.type, from_json(event.data))))
    assert stored == direct
    # Time called halfway: placements keyed by int ids or by the strings JSON makes of them end the same.
    halfway = replay(ENGINE, PLAYERS, None, events[: len(events) // 2])
    assert halfway["status"] == "in_progress"
    still_in = [p["id"] for p in halfway["players"] if not p["out"]]
    data = {"placements": {pid: place for place, pid in enumerate(still_in, start=1)}, "reason": "round over"}
    ended = ENGINE.apply(halfway, GameEvent("time_called", data))
    assert ended["status"] == "finished"
    assert from_json(ENGINE.apply(from_json(halfway), GameEvent("time_called", from_json(data)))) == from_json(ended)


def test_the_vocabulary_holds_the_formats_events_and_the_common_judge_actions():
    assert set(COMMON_VOCABULARY) <= set(ENGINE.VOCABULARY)
    assert {"start_turn", "attack", "knock_out", "end_turn", "promote", "no_benched_pokemon", "deck_out"} <= set(
        ENGINE.VOCABULARY
    )
    assert ENGINE.slug == "format3-trinity"
    assert all(spec.rule for spec in ENGINE.VOCABULARY.values())


def test_a_new_game_gives_everyone_six_prize_cards_and_starts_round_one():
    state = ENGINE.new_game(PLAYERS)
    assert state["round"] == 1 and state["status"] == "in_progress" and state["seq"] == 0
    assert all(p["prizes_left"] == 6 and p["prizes_taken"] == 0 for p in state["players"])


# --- setup ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{"prizes": 4}, {"anything": True}, ["prizes"]])
def test_it_refuses_unknown_options(options):
    with pytest.raises(RuleViolation) as info:
        ENGINE.new_game(PLAYERS, options)
    assert info.value.code == "invalid_option"


@pytest.mark.parametrize("players", [[1, 2], ["a", "b", "c"], [1, 2, True]])
def test_it_refuses_fewer_than_three_players_or_ids_that_are_not_integers(players):
    with pytest.raises(RuleViolation) as info:
        ENGINE.new_game(players)
    assert info.value.code == "invalid_players"


def test_it_accepts_more_than_four_players_as_the_rulebook_says_three_or_more():
    assert len(ENGINE.new_game([1, 2, 3, 4, 5, 6])["players"]) == 6


# --- turn structure -------------------------------------------------------------------------------


def test_the_first_turn_belongs_to_the_first_player_in_turn_order():
    refused(ENGINE.new_game(PLAYERS), ev("start_turn", player=2), "not_your_turn")


def test_a_turn_cannot_start_while_another_is_in_progress():
    state = play(ENGINE.new_game(PLAYERS), ev("start_turn", player=1))
    refused(state, ev("start_turn", player=2), "turn_in_progress")


def test_only_the_player_whose_turn_it_is_can_attack_or_end_it():
    state = after_first_round()
    state = play(state, ev("start_turn", player=1))
    refused(state, ev("attack", player=2, target=3), "not_your_turn")
    refused(state, ev("end_turn", player=2, no_attack_reason="no_valid_target"), "not_your_turn")


def test_events_naming_a_player_who_is_out_are_refused():
    state = play(after_first_round(), ev("start_turn", player=1), ev("deck_out", player=1))
    refused(state, ev("start_turn", player=1), "player_out")
    state = play(state, ev("start_turn", player=2))
    refused(state, ev("attack", player=2, target=1), "player_out")


def test_the_next_turn_skips_players_who_are_out():
    state = play(ENGINE.new_game(PLAYERS), *turn(1), ev("concede", player=2))
    refused(state, ev("start_turn", player=2), "player_out")
    state = play(state, ev("start_turn", player=3))
    assert state["turn"]["player"] == 3


@pytest.mark.parametrize(
    ("event", "code"),
    [
        (ev("start_turn"), "missing_field"),
        (ev("start_turn", player="1"), "invalid_field"),
        (ev("start_turn", player=99), "unknown_player"),
        (ev("shuffle", player=1), "unknown_event"),
        (GameEvent("start_turn", ["player"]), "invalid_field"),  # type: ignore[arg-type]
    ],
)
def test_it_refuses_malformed_events(event, code):
    refused(ENGINE.new_game(PLAYERS), event, code)


def test_every_accepted_event_increments_seq_and_leaves_the_input_state_alone():
    state = ENGINE.new_game(PLAYERS)
    before = copy.deepcopy(state)
    new = ENGINE.apply(state, ev("start_turn", player=1))
    assert state == before and new["seq"] == 1 and new["turn"]["in_progress"]


# --- rounds ---------------------------------------------------------------------------------------


def test_a_round_ends_once_every_player_still_in_has_taken_a_turn():
    state = play(ENGINE.new_game(PLAYERS), *turn(1), *turn(2, reason="insufficient_energy"))
    state = play(state, *turn(3, reason="insufficient_energy"))
    assert not state["round_over"]
    state = play(state, *turn(4, reason="insufficient_energy"))
    assert state["round_over"]
    state = play(state, ev("start_turn", player=1))
    assert state["round"] == 2 and not state["round_over"]
    assert not any(p["took_turn"] for p in state["players"])


def test_a_player_out_before_their_turn_does_not_hold_up_the_end_of_the_round():
    state = play(ENGINE.new_game(PLAYERS), *turn(1), *turn(2, reason="insufficient_energy"))
    state = play(state, *turn(3, reason="insufficient_energy"), ev("concede", player=4))
    assert state["round_over"]
    assert play(state, ev("start_turn", player=1))["round"] == 2


# --- targeting ------------------------------------------------------------------------------------


def test_a_player_already_targeted_this_round_cannot_be_targeted_while_another_player_has_not_been():
    state = after_first_round()
    state = play(state, *turn(1, ev("attack", player=1, target=2)), ev("start_turn", player=2))
    state = play(state, ev("attack", player=2, target=3), ev("end_turn", player=2), ev("start_turn", player=3))
    error = refused(state, ev("attack", player=3, target=2), "target_already_targeted")
    assert error.rule.startswith("Rule Set #3")
    state = play(state, ev("attack", player=3, target=4))
    assert pl(state, 4)["targeted"]


SPANISH = {
    "%(player)s was already targeted this round; %(players)s have not been.": "%(player)s ya fue objetivo en esta "
    "ronda; %(players)s aún no.",
    "player %(id)s": "jugador %(id)s",
    "players %(ids)s": "jugadores %(ids)s",
}


@pytest.fixture
def spanish():
    with speaking(SPANISH):
        yield


def test_a_refused_entry_is_said_in_the_readers_language_with_the_players_names(spanish):
    state = after_first_round()
    state = play(state, *turn(1, ev("attack", player=1, target=2)), *turn(2, ev("attack", player=2, target=3)))
    error = refused(
        play(state, ev("start_turn", player=3)), ev("attack", player=3, target=2), "target_already_targeted"
    )
    assert error.message == "Player 2 was already targeted this round; players 1, 4 have not been."
    assert say(error.message) == "Jugador 2 ya fue objetivo en esta ronda; jugadores 1, 4 aún no."
    assert say(error.message, names={1: "Ash", 2: "Misty", 4: "Brock"}) == (
        "Misty ya fue objetivo en esta ronda; Ash, Brock aún no."
    )


def test_an_already_targeted_player_can_be_targeted_when_no_other_target_remains():
    state = after_first_round()
    state = play(
        state,
        *turn(1, ev("attack", player=1, target=2)),
        *turn(2, ev("attack", player=2, target=3)),
        *turn(3, ev("attack", player=3, target=1)),
        ev("start_turn", player=4),
    )
    # Every opponent of player 4 has been targeted: they may pick any of them.
    state = play(state, ev("attack", player=4, target=2))
    assert state["turn"]["attacked"]


def test_the_judge_can_attest_that_the_untargeted_players_have_no_valid_target():
    state = after_first_round()
    state = play(state, *turn(1, ev("attack", player=1, target=2)), ev("start_turn", player=2))
    state = play(state, ev("attack", player=2, target=1, no_other_valid_target=True))
    assert pl(state, 1)["targeted"]


def test_targets_are_forgotten_when_a_new_round_starts():
    state = after_first_round()
    state = play(state, *turn(1, ev("attack", player=1, target=2)))
    for pid in (2, 3, 4):
        state = play(state, *turn(pid, reason="insufficient_energy"))
    state = play(state, ev("start_turn", player=1), ev("attack", player=1, target=2))
    assert pl(state, 2)["targeted"]


def test_a_player_cannot_target_themself():
    state = play(after_first_round(), ev("start_turn", player=1))
    refused(state, ev("attack", player=1, target=1), "invalid_target")


def test_the_attested_flag_must_be_a_boolean():
    state = play(after_first_round(), ev("start_turn", player=1))
    refused(state, ev("attack", player=1, target=2, no_other_valid_target="yes"), "invalid_field")


# --- attacking ------------------------------------------------------------------------------------


def test_the_first_player_cannot_attack_on_the_first_turn_of_the_game():
    state = play(ENGINE.new_game(PLAYERS), ev("start_turn", player=1))
    refused(state, ev("attack", player=1, target=2), "first_turn_attack")


def test_a_player_attacks_at_most_once_a_turn():
    state = play(after_first_round(), ev("start_turn", player=1), ev("attack", player=1, target=2))
    refused(state, ev("attack", player=1, target=3), "already_attacked")


def test_a_player_cannot_attack_with_a_knocked_out_active():
    state = play(after_first_round(), *turn(1, ev("attack", player=1, target=2), ev("knock_out", player=2, by=1)))
    state = play(state, ev("start_turn", player=2))
    refused(state, ev("attack", player=2, target=3), "no_active_pokemon")
    # ... and ends the turn without giving a reason.
    state = play(state, ev("end_turn", player=2))
    assert not state["turn"]["in_progress"]


def test_a_turn_cannot_end_without_an_attack_unless_a_reason_is_declared():
    state = play(after_first_round(), ev("start_turn", player=1))
    error = refused(state, ev("end_turn", player=1), "attack_required")
    assert error.rule.startswith("Rule Set #3")
    for reason in set(NO_ATTACK_REASONS) - {"no_valid_target"}:
        assert not play(state, ev("end_turn", player=1, no_attack_reason=reason))["turn"]["in_progress"]


# Rule Set #3: "Finally, you are also not allowed to pass your turn without attacking unless you are simply
# unable due to having no valid targets remaining in play or by having insufficient energy to perform an attack."
# And its targeting limit: "You are not allowed to target another player's active or benched Pokemon for battle
# who has already been targeted for battle this "round" unless there are no other valid targets remaining in play."


def test_a_pass_for_no_valid_target_is_refused_while_another_player_has_an_active_in_play():
    state = play(after_first_round(), ev("start_turn", player=1))
    error = refused(state, ev("end_turn", player=1, no_attack_reason="no_valid_target"), "valid_target_remains")
    assert error.rule.startswith("Rule Set #3")
    assert "Players 2, 3, 4 still have " in error.message


def test_the_valid_target_named_follows_the_targeting_limit():
    # Round 2: player 1 targets 2, player 2 targets 3: player 4 may still target the untargeted player 1.
    state = play(after_first_round(), *turn(1, ev("attack", player=1, target=2)))
    state = play(state, *turn(2, ev("attack", player=2, target=3)), *turn(3, ev("attack", player=3, target=1)))
    state = play(state, ev("start_turn", player=4))
    # Everyone but player 4 has been targeted: no other valid target remains, so they are all valid again.
    error = refused(state, ev("end_turn", player=4, no_attack_reason="no_valid_target"), "valid_target_remains")
    assert "Players 1, 2, 3 still have " in error.message
    # ... and the attack on one of them is taken, the judge attesting it.
    assert play(state, ev("attack", player=4, target=1, no_other_valid_target=True))["turn"]["attacked"]


def test_a_player_whose_active_is_knocked_out_and_unreplaced_is_no_valid_target():
    state = play(after_first_round(), *turn(1, ev("attack", player=1, target=2)))
    # Player 2 targets 3; a card effect Knocks Out player 1's (untargeted) Active in the same turn.
    state = play(state, *turn(2, ev("attack", player=2, target=3), ev("knock_out", player=1, by=2)))
    state = play(state, ev("start_turn", player=3))
    # Player 1 has no Active in play: the valid targets are the players already targeted, 2 and 4 -> not 1.
    error = refused(state, ev("end_turn", player=3, no_attack_reason="no_valid_target"), "valid_target_remains")
    assert "Player 4 still has " in error.message


def test_a_pass_for_no_valid_target_stands_when_every_other_active_is_knocked_out_and_unreplaced():
    # Round 2: player 1 Knocks Out the Actives of players 2 and 4 (one attack hitting two, say); a Check-Up
    # Knocks Out player 1's; player 2 cannot attack with a Knocked Out Active.
    state = play(
        after_first_round(),
        *turn(1, ev("attack", player=1, target=2), ev("knock_out", player=2, by=1), ev("knock_out", player=4, by=1)),
        ev("knock_out", player=1, by=2),
        *turn(2),
        ev("start_turn", player=3),
    )
    state = play(state, ev("end_turn", player=3, no_attack_reason="no_valid_target"))
    assert pl(state, 3)["took_turn"]


def test_an_unknown_reason_or_a_reason_after_an_attack_is_refused():
    state = play(after_first_round(), ev("start_turn", player=1))
    refused(state, ev("end_turn", player=1, no_attack_reason="bored"), "invalid_field")
    state = play(state, ev("attack", player=1, target=2))
    refused(state, ev("end_turn", player=1, no_attack_reason="no_valid_target"), "invalid_field")


def test_the_first_turn_of_the_game_ends_without_a_reason():
    state = play(ENGINE.new_game(PLAYERS), ev("start_turn", player=1), ev("end_turn", player=1))
    assert pl(state, 1)["took_turn"]


# --- Knock Outs and promotion ---------------------------------------------------------------------


def test_a_knocked_out_active_is_not_replaced_before_the_end_of_the_round():
    state = play(after_first_round(), *turn(1, ev("attack", player=1, target=2), ev("knock_out", player=2, by=1)))
    error = refused(state, ev("promote", player=2), "promotion_before_round_end")
    assert error.rule.startswith("Rule Set #3")
    state = play(state, *turn(2), *turn(3, reason="insufficient_energy"), *turn(4, reason="insufficient_energy"))
    assert state["round_over"]
    state = play(state, ev("promote", player=2))
    assert not pl(state, 2)["active_knocked_out"]


def test_the_next_round_waits_for_every_knocked_out_active_to_be_replaced():
    state = play(after_first_round(), *turn(1, ev("attack", player=1, target=2), ev("knock_out", player=2, by=1)))
    state = play(state, *turn(2), *turn(3, reason="insufficient_energy"), *turn(4, reason="insufficient_energy"))
    refused(state, ev("start_turn", player=1), "promotion_pending")
    refused(state, ev("promote", player=3), "nothing_to_promote")
    refused(state, ev("no_benched_pokemon", player=3), "nothing_to_promote")


def test_a_player_with_no_benched_pokemon_at_the_end_of_the_round_is_out():
    state = play(after_first_round(), *turn(1, ev("attack", player=1, target=2), ev("knock_out", player=2, by=1)))
    refused(state, ev("no_benched_pokemon", player=2), "promotion_before_round_end")
    state = play(state, *turn(2), *turn(3, reason="insufficient_energy"), *turn(4, reason="insufficient_energy"))
    state = play(state, ev("no_benched_pokemon", player=2))
    assert pl(state, 2)["out"] and pl(state, 2)["placement"] == 4
    assert play(state, ev("start_turn", player=1))["round"] == 3


def test_players_out_of_pokemon_at_the_same_round_end_share_a_placement():
    state = after_first_round()
    state = play(
        state,
        *turn(1, ev("attack", player=1, target=2), ev("knock_out", player=2, by=1)),
        *turn(2),
        *turn(3, ev("attack", player=3, target=4), ev("knock_out", player=4, by=3)),
        *turn(4),
        ev("no_benched_pokemon", player=2),
    )
    assert not pl(state, 2)["out"]  # out together with whoever else runs out at this round end
    refused(state, ev("start_turn", player=1), "promotion_pending")
    state = play(state, ev("no_benched_pokemon", player=4))
    assert (pl(state, 2)["placement"], pl(state, 4)["placement"]) == (3, 3)
    assert state["status"] == "in_progress"


def test_when_everyone_still_in_runs_out_of_pokemon_at_once_they_share_first_place():
    state = after_first_round([1, 2, 3])
    state = play(state, ev("concede", player=3))
    state = play(
        state,
        *turn(1, ev("attack", player=1, target=2), ev("knock_out", player=2, by=1)),
        *turn(2, ev("knock_out", player=1, by=2)),
        ev("no_benched_pokemon", player=1),
        ev("no_benched_pokemon", player=2),
    )
    assert state["status"] == "finished"
    assert state["result"]["placements"] == {"1": 1, "2": 1, "3": 3}


def test_an_active_knocked_out_in_the_round_end_window_is_replaced_before_the_next_round():
    state = after_first_round()
    assert state["round_over"]
    state = play(state, ev("knock_out", player=3, by=1))
    refused(state, ev("start_turn", player=1), "promotion_pending")
    state = play(state, ev("promote", player=3), ev("start_turn", player=1))
    assert state["round"] == 2


def test_an_active_cannot_be_knocked_out_twice_before_it_is_replaced_but_the_bench_can():
    state = play(after_first_round(), *turn(1, ev("attack", player=1, target=2), ev("knock_out", player=2, by=1)))
    state = play(state, ev("start_turn", player=2))
    refused(state, ev("knock_out", player=2, by=3), "no_active_pokemon")
    state = play(state, ev("knock_out", player=2, by=3, active=False))
    assert pl(state, 3)["prizes_taken"] == 1


def test_the_owner_of_a_knocked_out_pokemon_does_not_take_its_prize_cards():
    refused(after_first_round(), ev("knock_out", player=2, by=2), "invalid_prize_taker")


@pytest.mark.parametrize("prizes", [0, 4, "2", True])
def test_a_knock_out_is_worth_one_to_three_prize_cards(prizes):
    refused(after_first_round(), ev("knock_out", player=2, by=1, prizes=prizes), "invalid_field")


def test_a_player_out_of_pokemon_cannot_be_knocked_out_again():
    state = play(after_first_round(), *turn(1, ev("attack", player=1, target=2), ev("knock_out", player=2, by=1)))
    state = play(state, *turn(2), *turn(3, reason="insufficient_energy"))
    state = play(state, *turn(4, ev("attack", player=4, target=1), ev("knock_out", player=1, by=4)))
    state = play(state, ev("no_benched_pokemon", player=2))
    refused(state, ev("knock_out", player=2, by=3, active=False), "no_pokemon_in_play")


# --- prize cards, deck out, winning ---------------------------------------------------------------


def test_taking_the_last_prize_card_wins_and_ranks_the_rest_by_prize_cards_taken():
    state = after_first_round()
    state = play(
        state,
        ev("knock_out", player=3, by=1, prizes=3, active=False),
        ev("knock_out", player=4, by=2, prizes=1, active=False),
        ev("knock_out", player=2, by=3, prizes=1, active=False),
    )
    state = play(state, ev("knock_out", player=2, by=1, prizes=3))
    assert state["status"] == "finished"
    assert state["result"]["placements"] == {"1": 1, "2": 2, "3": 2, "4": 4}


def test_prize_cards_taken_never_exceed_those_left():
    state = play(after_first_round(), ev("knock_out", player=2, by=1, prizes=3, active=False))
    state = play(state, ev("knock_out", player=3, by=1, prizes=2, active=False))
    state = play(state, ev("knock_out", player=4, by=1, prizes=3, active=False))
    assert pl(state, 1)["prizes_left"] == 0 and pl(state, 1)["prizes_taken"] == 6


def test_a_player_who_must_draw_from_an_empty_deck_is_out_and_their_turn_ends():
    state = play(after_first_round(), ev("start_turn", player=1), ev("deck_out", player=1))
    assert pl(state, 1)["out"] and pl(state, 1)["placement"] == 4
    assert not state["turn"]["in_progress"]
    assert play(state, ev("start_turn", player=2))["turn"]["player"] == 2


def test_decking_out_happens_at_the_draw_before_anything_else_in_the_turn():
    state = play(after_first_round(), ev("start_turn", player=1), ev("attack", player=1, target=2))
    refused(state, ev("deck_out", player=1), "not_at_draw")
    refused(state, ev("deck_out", player=2), "not_your_turn")


def test_the_last_player_standing_wins_when_the_opponents_deck_out():
    state = after_first_round([1, 2, 3])
    state = play(state, ev("start_turn", player=1), ev("deck_out", player=1))
    state = play(state, ev("start_turn", player=2), ev("deck_out", player=2))
    assert state["status"] == "finished"
    assert state["result"]["placements"] == {"1": 3, "2": 2, "3": 1}


# --- judge actions --------------------------------------------------------------------------------


def test_a_player_conceding_during_their_turn_ends_it():
    state = play(after_first_round(), ev("start_turn", player=1), ev("concede", player=1))
    assert pl(state, 1)["out"] and not state["turn"]["in_progress"]
    assert play(state, ev("start_turn", player=2))["turn"]["player"] == 2


def test_common_judge_actions_work_and_only_ruling_notes_follow_the_end_of_the_game():
    state = play(after_first_round(), ev("game_loss", player=4, reason="marked cards"))
    state = play(state, ev("intentional_draw"))
    assert state["result"]["placements"] == {"1": 1, "2": 1, "3": 1, "4": 4}
    refused(state, ev("start_turn", player=1), "game_over")
    refused(state, ev("concede", player=1), "game_over")
    noted = play(state, ev("ruling_note", text="Players agreed to draw."))
    assert noted["notes"][-1]["text"] == "Players agreed to draw." and noted["seq"] == state["seq"] + 1


def test_time_called_records_the_judges_placements():
    state = play(after_first_round(), ev("time_called", placements={"1": 1, "2": 2, "3": 2, "4": 4}, reason="prizes"))
    assert state["result"]["placements"] == {"1": 1, "2": 2, "3": 2, "4": 4}


# --- property: random legal games replay to the same state ----------------------------------------


def candidates(state: State) -> list[GameEvent]:
    ids = [p["id"] for p in state["players"]]
    events = []
    for pid in ids:
        events += [
            ev("start_turn", player=pid),
            ev("end_turn", player=pid),
            ev("end_turn", player=pid, no_attack_reason="insufficient_energy"),
            ev("promote", player=pid),
            ev("no_benched_pokemon", player=pid),
            ev("deck_out", player=pid),
        ]
        for other in ids:
            events += [
                ev("attack", player=pid, target=other),
                ev("attack", player=pid, target=other, no_other_valid_target=True),
                ev("knock_out", player=other, by=pid, prizes=2),
                ev("knock_out", player=other, by=pid, active=False),
            ]
    return events


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(min_value=3, max_value=5))
def test_random_legal_games_replay_to_the_same_state_and_survive_json(data, size):
    players = list(range(10, 10 + size))
    state = ENGINE.new_game(players)
    log: list[GameEvent] = []
    for _ in range(80):
        if state["status"] != "in_progress":
            break
        snapshot = copy.deepcopy(state)
        accepted = []
        for event in candidates(state):
            try:
                accepted.append((event, ENGINE.apply(state, event)))
            except RuleViolation:
                pass
        assert state == snapshot
        if data.draw(st.integers(0, 30)) == 0:
            accepted.append((ev("concede", player=data.draw(st.sampled_from(players))), None))
        # Pick an event type first, so that the many Knock Out variants do not crowd out the rest.
        kind = data.draw(st.sampled_from(sorted({event.type for event, _ in accepted})))
        event, new = data.draw(st.sampled_from([pair for pair in accepted if pair[0].type == kind]))
        if new is None:
            try:
                new = ENGINE.apply(state, event)
            except RuleViolation:
                continue
        log.append(event)
        state = new
        assert state["seq"] == len(log)
        assert all(0 <= p["prizes_left"] == 6 - p["prizes_taken"] for p in state["players"])
    assert replay(ENGINE, players, None, log) == state
    assert json.loads(json.dumps(state)) == state
    if state["status"] == "finished":
        assert set(state["result"]["placements"]) == {str(pid) for pid in players}
        assert 1 in state["result"]["placements"].values()
