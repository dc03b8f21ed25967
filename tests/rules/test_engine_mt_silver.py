"""The Mt. Silver 4.1.0 game engine: Badge Tokens, the opening, Area Pile drafts, Champion, placements."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import COMMON_VOCABULARY, GameEvent, RuleViolation, State, replay
from rules.mt_silver.engine import CONDITIONS, ENGINE
from tests.support.games.mt_silver import PLAYERS, ev, scripted_game, turn


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


#: The house rule an event sets to seat 3-player pods ("To play Mt. Silver, 4 players come together").
THREE_PLAYERS = {"three_player_pods": True}


def options_for(players: list[int]) -> dict[str, Any] | None:
    """A 3-player game is played under the house rule; 4 players need no option."""
    return THREE_PLAYERS if len(players) == 3 else None


def opened(players: list[int] = PLAYERS) -> State:
    """Every player has had a turn: the opening is over and player 1 is next."""
    state = ENGINE.new_game(players, options_for(players))
    for pid in players:
        state = play(state, *turn(pid))
    return state


def from_json(value: Any) -> Any:
    """``value`` as the games service reads it back from the database: JSON, so dict keys are strings."""
    return json.loads(json.dumps(value))


# --- a whole game -------------------------------------------------------------------------------


def test_a_scripted_game_ends_with_the_last_player_with_pokemon_first_and_the_rest_by_badges():
    state = ENGINE.new_game(PLAYERS)
    state = play(
        state,
        *turn(1, ev("play_pokemon", player=1, count=2)),
        *turn(2, ev("play_pokemon", player=2)),
        *turn(3),
        ev("start_turn", player=4),
        ev("play_supporter", player=4, trainer=True),
        ev("attack", player=4),
        ev("knock_out", player=1, by=4),
    )
    assert pl(state, 4)["badges_taken"] == 1 and state["pending_drafts"] == [4]
    refused(state, ev("end_turn", player=4), "draft_pending")
    state = play(state, ev("explore", player=4), ev("end_turn", player=4))
    assert state["drafts"] == [{"pile": 1, "earner": 4, "picks": [4, 1, 2, 3, 4, 1, 2, 3]}]
    # Player 1 poisons player 2's Active; the poison Knocks it Out at the check-up and counts for player 1.
    state = play(
        state,
        *turn(1, ev("special_condition", player=2, condition="poisoned", by=1), ev("attack", player=1)),
        ev("knock_out", player=2, condition="poisoned"),
        ev("decline_explore", player=1),
        *turn(2, ev("attack", player=2), ev("knock_out", player=3, by=2), ev("explore", player=2)),
    )
    assert pl(state, 1)["badges_taken"] == 1 and pl(state, 3)["pokemon_in_play"] == 0
    # Player 3 has no Pokémon in play but stays in the game.
    state = play(state, ev("start_turn", player=3))
    refused(state, ev("attack", player=3), "no_pokemon_in_play")
    state = play(
        state,
        ev("play_pokemon", player=3),
        ev("end_turn", player=3),
        ev("start_turn", player=4),
        ev("attack", player=4),
        ev("knock_out", knocked_out=[{"player": 2, "by": 4}, {"player": 3, "by": 4}]),
        ev("explore", player=4),
        ev("decline_explore", player=4),
        ev("end_turn", player=4),
    )
    assert pl(state, 4)["badges_taken"] == 3 and state["status"] == "in_progress"
    # Player 1 Knocks Out their own Benched Pokémon: every opponent takes a Badge Token.
    state = play(
        state,
        ev("start_turn", player=1),
        ev("attack", player=1),
        ev("knock_out", player=1, by=1, active=False),
    )
    assert state["pending_drafts"] == [2, 3, 4]
    state = play(
        state,
        ev("explore", player=2),
        ev("explore", player=3),
        ev("decline_explore", player=4),
        ev("end_turn", player=1),
        *turn(2),
        *turn(3),
        ev("start_turn", player=4),
        ev("attack", player=4),
        ev("knock_out", player=1, by=4),
    )
    assert state["status"] == "finished"
    assert "only player with Pokémon in play" in state["result"]["reason"]
    assert {pid: pl(state, pid)["badges_taken"] for pid in PLAYERS} == {1: 1, 2: 2, 3: 1, 4: 5}
    assert state["result"]["placements"] == {"4": 1, "2": 2, "1": 3, "3": 3}
    assert state["area_piles"] == 1
    refused(state, ev("end_turn", player=4), "game_over")


def test_the_scripted_game_ends_the_same_when_its_events_and_states_come_back_from_json():
    events = scripted_game()
    direct = replay(ENGINE, PLAYERS, None, events)
    assert direct["result"]["placements"] == {"4": 1, "2": 2, "1": 3, "3": 3}
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
    assert {"start_turn", "end_turn", "play_supporter", "attack", "knock_out", "explore", "decline_explore"} <= set(
        ENGINE.VOCABULARY
    )
    assert ENGINE.slug == "mt-silver"
    assert all(spec.rule for spec in ENGINE.VOCABULARY.values())


def test_a_new_game_has_six_badge_tokens_each_and_six_area_piles():
    state = ENGINE.new_game(PLAYERS)
    assert state["area_piles"] == 6 and state["pending_drafts"] == [] and state["drafts"] == []
    assert all(p["badges_taken"] == 0 and p["pokemon_in_play"] == 1 for p in state["players"])


# --- setup ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{"badges": 8}, ["piles"]])
def test_it_refuses_unknown_options(options):
    with pytest.raises(RuleViolation) as info:
        ENGINE.new_game(PLAYERS, options)
    assert info.value.code == "invalid_option"


@pytest.mark.parametrize("players", [[1, 2], [1, 2, 3, 4, 5], ["a", "b", "c", "d"]])
def test_it_refuses_tables_other_than_four_players_and_ids_that_are_not_integers(players):
    with pytest.raises(RuleViolation) as info:
        ENGINE.new_game(players)
    assert info.value.code == "invalid_players"
    with pytest.raises(RuleViolation) as info:
        ENGINE.new_game(players, THREE_PLAYERS)
    assert info.value.code == "invalid_players"


# --- turn structure -------------------------------------------------------------------------------


def test_turns_go_in_turn_order_one_at_a_time():
    state = ENGINE.new_game(PLAYERS)
    refused(state, ev("start_turn", player=2), "not_your_turn")
    state = play(state, ev("start_turn", player=1))
    refused(state, ev("start_turn", player=2), "turn_in_progress")
    refused(state, ev("end_turn", player=2), "not_your_turn")


@pytest.mark.parametrize(
    ("event", "code"),
    [
        (ev("start_turn"), "missing_field"),
        (ev("start_turn", player=1.0), "invalid_field"),
        (ev("start_turn", player=42), "unknown_player"),
        (ev("evolve", player=1), "unknown_event"),
        (ev("play_pokemon", player=1, count=0), "invalid_field"),
        (ev("special_condition", player=1, condition="frozen", by=2), "invalid_field"),
        (ev("knock_out", player=1, by=2, knocked_out=[]), "invalid_field"),
        (ev("knock_out", knocked_out=[]), "invalid_field"),
        (ev("knock_out", knocked_out=["x"]), "invalid_field"),
    ],
)
def test_it_refuses_malformed_events(event, code):
    refused(ENGINE.new_game(PLAYERS), event, code)


def test_a_player_who_is_out_cannot_act_or_be_named():
    state = play(ENGINE.new_game(PLAYERS), ev("concede", player=1))
    refused(state, ev("start_turn", player=1), "player_out")
    state = play(state, ev("start_turn", player=2))
    refused(state, ev("trade", player=2, partner=1), "player_out")
    refused(state, ev("knock_out", player=3, by=1), "player_out")


# --- the opening ------------------------------------------------------------------------------------


def test_nobody_plays_a_supporter_or_attacks_before_the_last_players_first_turn():
    state = ENGINE.new_game(PLAYERS)
    for pid in (1, 2, 3):
        state = play(state, ev("start_turn", player=pid))
        error = refused(state, ev("play_supporter", player=pid), "too_early")
        assert error.rule == "Play"
        refused(state, ev("play_supporter", player=pid, trainer=True), "too_early")
        refused(state, ev("attack", player=pid), "too_early")
        state = play(state, ev("end_turn", player=pid))
    state = play(state, ev("start_turn", player=4), ev("play_supporter", player=4), ev("attack", player=4))
    assert state["turn"]["attacked"] and state["turn"]["supporter"] == "card"


def test_the_opening_ends_early_when_the_last_player_leaves_before_their_turn():
    state = play(ENGINE.new_game(PLAYERS), *turn(1), *turn(2), ev("start_turn", player=3))
    refused(state, ev("attack", player=3), "too_early")
    state = play(state, ev("concede", player=4))
    assert play(state, ev("attack", player=3))["turn"]["attacked"]


# --- per-turn limits --------------------------------------------------------------------------------


def test_one_supporter_a_turn_and_the_trainers_ability_counts_as_it():
    state = play(opened(), ev("start_turn", player=1), ev("play_supporter", player=1, trainer=True))
    assert state["turn"]["supporter"] == "trainer"
    refused(state, ev("play_supporter", player=1), "supporter_already_played")
    refused(state, ev("play_supporter", player=1, trainer="yes"), "invalid_field")
    state = play(state, ev("end_turn", player=1), ev("start_turn", player=2), ev("play_supporter", player=2))
    assert state["turn"]["supporter"] == "card"


def test_one_attack_a_turn_and_only_with_pokemon_in_play():
    state = play(opened(), ev("start_turn", player=1), ev("attack", player=1))
    refused(state, ev("attack", player=1), "already_attacked")
    state = play(state, ev("knock_out", player=2, by=1), ev("decline_explore", player=1), ev("end_turn", player=1))
    state = play(state, ev("start_turn", player=2))
    refused(state, ev("attack", player=2), "no_pokemon_in_play")


def test_one_trade_a_turn_with_another_player():
    state = play(opened(), ev("start_turn", player=1))
    refused(state, ev("trade", player=1, partner=1), "invalid_partner")
    refused(state, ev("trade", player=2, partner=1), "not_your_turn")
    state = play(state, ev("trade", player=1, partner=3))
    refused(state, ev("trade", player=1, partner=2), "trade_already_done")
    state = play(state, ev("end_turn", player=1), ev("start_turn", player=2), ev("trade", player=2, partner=1))
    assert state["turn"]["traded"]


# --- Pokémon in play --------------------------------------------------------------------------------


def test_a_player_with_no_pokemon_in_play_stays_in_the_game():
    state = play(opened(), ev("leave_play", player=2))
    assert pl(state, 2)["pokemon_in_play"] == 0 and not pl(state, 2)["out"]
    state = play(state, *turn(1), ev("start_turn", player=2), ev("play_pokemon", player=2))
    assert pl(state, 2)["pokemon_in_play"] == 1


def test_pokemon_cannot_leave_play_beyond_those_in_play():
    refused(opened(), ev("leave_play", player=2, count=2), "no_pokemon_in_play")


def test_when_only_one_player_has_pokemon_in_play_that_player_wins():
    state = play(opened([1, 2, 3]), ev("leave_play", player=2))
    assert state["status"] == "in_progress"
    state = play(state, ev("knock_out", player=1, by=3))
    assert state["status"] == "finished"
    assert state["result"]["reason"] == "player 3 is the only player with Pokémon in play"
    assert state["result"]["placements"] == {"1": 2, "2": 2, "3": 1}


# --- Knock Outs and Badge Tokens --------------------------------------------------------------------


def test_a_knock_out_gives_the_player_who_caused_it_one_badge_token_and_a_draft_offer():
    state = play(opened(), ev("play_pokemon", player=2), ev("knock_out", player=2, by=3, active=False))
    assert pl(state, 3)["badges_taken"] == 1 and pl(state, 2)["pokemon_in_play"] == 1
    assert state["pending_drafts"] == [3]


def test_a_self_knock_out_gives_every_opponent_a_badge_token_clockwise_from_the_owners_left():
    state = play(opened(), ev("play_pokemon", player=3), ev("knock_out", player=3, by=3, active=False))
    assert [pl(state, pid)["badges_taken"] for pid in PLAYERS] == [1, 1, 0, 1]
    assert state["pending_drafts"] == [4, 1, 2]


def test_a_knock_out_by_a_special_condition_counts_for_whoever_caused_it():
    state = play(opened(), ev("play_pokemon", player=2))
    state = play(state, ev("special_condition", player=2, condition="burned", by=4))
    refused(state, ev("knock_out", player=2, condition="poisoned"), "no_such_condition")
    error = refused(state, ev("knock_out", player=2, condition="burned", by=1), "wrong_condition_source")
    assert error.rule == "Additional Rules"
    refused(state, ev("knock_out", player=2, condition="burned", active=False), "invalid_field")
    state = play(state, ev("knock_out", player=2, condition="burned"))
    assert pl(state, 4)["badges_taken"] == 1 and pl(state, 2)["conditions"] == {}


def test_a_condition_a_player_caused_on_their_own_active_makes_its_knock_out_a_self_knock_out():
    state = play(opened(), ev("play_pokemon", player=1), ev("special_condition", player=1, condition="confused", by=1))
    state = play(state, ev("knock_out", player=1, condition="confused", by=1))
    assert [pl(state, pid)["badges_taken"] for pid in PLAYERS] == [0, 1, 1, 1]


def test_a_condition_caused_by_a_player_who_has_left_earns_no_badge_token():
    state = play(opened(), ev("play_pokemon", player=2), ev("special_condition", player=2, condition="poisoned", by=4))
    state = play(state, ev("concede", player=4), ev("knock_out", player=2, condition="poisoned"))
    assert sum(p["badges_taken"] for p in state["players"]) == 0 and state["pending_drafts"] == []


def test_a_player_with_no_pokemon_in_play_cannot_have_one_knocked_out_or_conditioned():
    state = play(opened(), ev("play_pokemon", player=1), ev("knock_out", player=2, by=1))
    refused(state, ev("knock_out", player=2, by=3), "no_pokemon_in_play")
    refused(state, ev("special_condition", player=2, condition="asleep", by=3), "no_pokemon_in_play")


def test_an_active_is_knocked_out_once_in_a_simultaneous_knock_out():
    state = play(opened(), ev("play_pokemon", player=2))
    refused(state, ev("knock_out", knocked_out=[{"player": 2, "by": 1}, {"player": 2, "by": 3}]), "invalid_field")


def test_a_player_whose_six_badge_tokens_are_taken_becomes_champion_and_the_game_ends():
    state = play(opened(), ev("play_pokemon", player=2, count=10))
    for _ in range(5):
        state = play(state, ev("knock_out", player=2, by=1, active=False))
    state = play(state, ev("knock_out", player=3, by=4))
    assert state["status"] == "in_progress" and pl(state, 1)["badges_taken"] == 5
    state = play(state, ev("knock_out", player=2, by=1))
    assert state["status"] == "finished" and "Champion" in state["result"]["reason"]
    assert state["result"]["placements"] == {"1": 1, "4": 2, "2": 3, "3": 3}


def test_two_players_completing_their_badges_at_once_share_first_place():
    state = play(opened(), ev("play_pokemon", player=3, count=20))
    for _ in range(5):
        state = play(
            state,
            ev("knock_out", player=3, by=1, active=False),
            ev("knock_out", player=3, by=2, active=False),
        )
    assert state["status"] == "in_progress"
    state = play(state, ev("knock_out", player=3, by=3, active=False))
    assert state["result"]["placements"] == {"1": 1, "2": 1, "4": 3, "3": 4}


def test_the_champion_check_comes_before_the_only_player_with_pokemon_check():
    state = play(opened([1, 2, 3]), ev("play_pokemon", player=1, count=5))
    for _ in range(5):
        state = play(state, ev("knock_out", player=1, by=2, active=False))
    # Player 2's sixth Badge Token also leaves them the only player with Pokémon in play.
    state = play(state, ev("leave_play", player=3), ev("knock_out", player=1, by=2))
    assert "Champion" in state["result"]["reason"]
    assert state["result"]["placements"] == {"2": 1, "1": 2, "3": 2}


def test_nobody_left_with_pokemon_in_play_ends_the_game_ranked_by_badge_tokens():
    state = play(opened([1, 2, 3]), ev("play_pokemon", player=1))
    state = play(state, ev("knock_out", player=1, by=3, active=False))
    state = play(
        state,
        ev("knock_out", knocked_out=[{"player": 1, "by": 2}, {"player": 2, "by": 1}, {"player": 3, "by": 3}]),
    )
    assert state["result"]["reason"] == "no player has Pokémon in play"
    # Badges: 1 took 1 and 2 took 1 (plus one each from 3's self Knock Out), 3 took 1 earlier.
    assert state["result"]["placements"] == {"1": 1, "2": 1, "3": 3}


# --- Special Conditions -----------------------------------------------------------------------------


def test_asleep_confused_and_paralyzed_replace_one_another_while_burned_and_poisoned_stack():
    state = play(opened(), ev("special_condition", player=2, condition="poisoned", by=1))
    state = play(state, ev("special_condition", player=2, condition="asleep", by=3))
    state = play(state, ev("special_condition", player=2, condition="paralyzed", by=4))
    assert pl(state, 2)["conditions"] == {"poisoned": 1, "paralyzed": 4}
    state = play(state, ev("clear_condition", player=2, condition="paralyzed"))
    assert pl(state, 2)["conditions"] == {"poisoned": 1}
    refused(state, ev("clear_condition", player=2, condition="asleep"), "no_such_condition")
    state = play(state, ev("clear_condition", player=2))
    refused(state, ev("clear_condition", player=2), "no_such_condition")


def test_a_condition_applied_again_belongs_to_whoever_applied_it_last():
    state = play(opened(), ev("special_condition", player=2, condition="poisoned", by=1))
    state = play(state, ev("special_condition", player=2, condition="poisoned", by=3))
    assert pl(state, 2)["conditions"] == {"poisoned": 3}
    state = play(state, ev("knock_out", player=2, condition="poisoned"))
    assert pl(state, 3)["badges_taken"] == 1 and pl(state, 1)["badges_taken"] == 0


def test_conditions_leave_with_the_active():
    state = play(opened(), ev("play_pokemon", player=2), ev("special_condition", player=2, condition="burned", by=1))
    assert pl(play(state, ev("leave_play", player=2, active=True)), 2)["conditions"] == {}
    assert pl(play(state, ev("leave_play", player=2)), 2)["conditions"] == {"burned": 1}
    assert pl(play(state, ev("knock_out", player=2, by=3)), 2)["conditions"] == {}


# --- Area Pile drafts -------------------------------------------------------------------------------


def test_the_draft_starts_with_the_earner_and_goes_clockwise_until_the_eight_cards_are_gone():
    state = play(opened([1, 2, 3]), ev("play_pokemon", player=1), ev("knock_out", player=1, by=2, active=False))
    state = play(state, ev("explore", player=2))
    assert state["drafts"][-1] == {"pile": 1, "earner": 2, "picks": [2, 3, 1, 2, 3, 1, 2, 3]}
    assert [pl(state, pid)["cards_drafted"] for pid in (1, 2, 3)] == [2, 3, 3]
    assert state["area_piles"] == 5 and state["pending_drafts"] == []


def test_players_with_no_pokemon_in_play_still_draft_but_players_out_do_not():
    state = play(opened(), ev("leave_play", player=3), ev("concede", player=4))
    state = play(state, ev("play_pokemon", player=2), ev("knock_out", player=2, by=1, active=False))
    state = play(state, ev("explore", player=1))
    assert state["drafts"][-1]["picks"] == [1, 2, 3, 1, 2, 3, 1, 2]


def test_draft_offers_are_taken_in_the_order_they_were_earned():
    state = play(opened(), ev("play_pokemon", player=4), ev("knock_out", player=4, by=4, active=False))
    refused(state, ev("explore", player=2), "not_your_draft")
    refused(state, ev("decline_explore", player=4), "no_draft_offer")
    state = play(state, ev("decline_explore", player=1), ev("explore", player=2), ev("explore", player=3))
    assert state["pending_drafts"] == [] and state["area_piles"] == 4


def test_turns_neither_end_nor_start_while_a_draft_offer_is_open():
    state = play(opened(), ev("start_turn", player=1), ev("attack", player=1), ev("knock_out", player=2, by=1))
    error = refused(state, ev("end_turn", player=1), "draft_pending")
    assert error.rule == "Play"
    state = play(state, ev("decline_explore", player=1), ev("end_turn", player=1), ev("knock_out", player=3, by=4))
    refused(state, ev("start_turn", player=2), "draft_pending")


def test_no_draft_is_offered_once_the_six_area_piles_are_gone():
    state = play(opened(), ev("play_pokemon", player=2, count=10))
    for _ in range(3):
        state = play(state, ev("knock_out", player=2, by=1, active=False), ev("explore", player=1))
        state = play(state, ev("knock_out", player=2, by=3, active=False), ev("explore", player=3))
    assert state["area_piles"] == 0 and len(state["drafts"]) == 6
    state = play(state, ev("knock_out", player=2, by=4, active=False))
    assert state["pending_drafts"] == []
    refused(state, ev("explore", player=4), "no_draft_offer")


def test_offers_still_queued_lapse_when_the_last_pile_is_explored():
    state = play(opened(), ev("play_pokemon", player=2, count=10))
    for earner in (1, 3, 4, 1, 3):
        state = play(state, ev("knock_out", player=2, by=earner, active=False), ev("explore", player=earner))
    state = play(state, ev("knock_out", player=2, by=2, active=False))
    assert state["pending_drafts"] == [3, 4, 1]
    state = play(state, ev("explore", player=3))
    assert state["area_piles"] == 0 and state["pending_drafts"] == []


# --- judge actions --------------------------------------------------------------------------------


def test_a_player_conceding_loses_their_draft_offers_and_may_leave_one_player_with_pokemon():
    state = play(opened([1, 2, 3]), ev("leave_play", player=3), ev("play_pokemon", player=1))
    state = play(state, ev("knock_out", player=1, by=2, active=False))
    assert state["pending_drafts"] == [2]
    state = play(state, ev("concede", player=2))
    assert state["status"] == "finished"
    assert state["result"]["placements"] == {"1": 1, "2": 3, "3": 2}


def test_a_conceding_player_whose_turn_it_is_ends_it():
    state = play(opened(), ev("start_turn", player=1), ev("concede", player=1))
    assert not state["turn"]["in_progress"]
    assert play(state, ev("start_turn", player=2))["turn"]["player"] == 2


def test_only_ruling_notes_follow_the_end_of_the_game():
    state = play(opened(), ev("intentional_draw"))
    refused(state, ev("start_turn", player=1), "game_over")
    refused(state, ev("explore", player=1), "game_over")
    assert play(state, ev("ruling_note", text="ok"))["notes"][0]["text"] == "ok"


# --- property: random legal games replay to the same state ----------------------------------------


TURN_EVENTS = {"start_turn", "end_turn", "attack", "play_supporter", "play_pokemon"}


def candidates(state: State) -> list[GameEvent]:
    ids = [p["id"] for p in state["players"]]
    events = []
    for pid in ids:
        events += [
            ev("start_turn", player=pid),
            ev("end_turn", player=pid),
            ev("play_supporter", player=pid, trainer=pid % 2 == 0),
            ev("attack", player=pid),
            ev("play_pokemon", player=pid),
            ev("leave_play", player=pid),
            ev("explore", player=pid),
            ev("decline_explore", player=pid),
            ev("clear_condition", player=pid),
        ]
        for other in ids:
            events += [
                ev("trade", player=pid, partner=other),
                ev("knock_out", player=other, by=pid),
                ev("knock_out", player=other, by=pid, active=False),
                ev("special_condition", player=other, condition=CONDITIONS[(pid + other) % 5], by=pid),
                ev("knock_out", player=other, condition=CONDITIONS[(pid + other) % 5]),
            ]
    events.append(ev("knock_out", knocked_out=[{"player": pid, "by": ids[0]} for pid in ids]))
    return events


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(min_value=3, max_value=4))
def test_random_legal_games_replay_to_the_same_state_and_survive_json(data, size):
    players = list(range(20, 20 + size))
    state = ENGINE.new_game(players, options_for(players))
    log: list[GameEvent] = []
    for _ in range(120):
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
        if data.draw(st.integers(0, 40)) == 0:
            accepted.append((ev("concede", player=data.draw(st.sampled_from(players))), None))
        kinds = sorted({event.type for event, _ in accepted})
        # Turn events twice over, so that games get past the opening before the Pokémon run out.
        kind = data.draw(st.sampled_from(kinds + [k for k in kinds if k in TURN_EVENTS]))
        event, new = data.draw(st.sampled_from([pair for pair in accepted if pair[0].type == kind]))
        if new is None:
            try:
                new = ENGINE.apply(state, event)
            except RuleViolation:
                continue
        log.append(event)
        state = new
        assert state["seq"] == len(log)
        assert all(0 <= p["badges_taken"] <= 6 and p["pokemon_in_play"] >= 0 for p in state["players"])
        assert state["area_piles"] == 6 - len(state["drafts"])
    assert replay(ENGINE, players, options_for(players), log) == state
    assert json.loads(json.dumps(state)) == state
    if state["status"] == "finished":
        assert set(state["result"]["placements"]) == {str(pid) for pid in players}
        assert 1 in state["result"]["placements"].values()
