"""The mintayn-master engine: LP, the Mana Zone, selection, summons, evolution, attacks and chains."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import speech
from rules.engine import COMMON_VOCABULARY, GameEvent, RuleViolation, State, replay
from rules.mintayn_master.engine import ENGINE
from tests.support.games.mintayn_master import (
    P1,
    P2,
    E,
    attack,
    counter,
    end,
    mana,
    scripted_game,
    select,
    start,
    summon,
)
from tests.support.speech import speaking


def play(events: Iterable[GameEvent], state: State | None = None, options: dict | None = None) -> State:
    state = state if state is not None else ENGINE.new_game([P1, P2], options)
    for event in events:
        state = ENGINE.apply(state, event)
    return state


def refused(state: State, event: GameEvent, code: str) -> RuleViolation:
    before = copy.deepcopy(state)
    with pytest.raises(RuleViolation) as info:
        ENGINE.apply(state, event)
    assert info.value.code == code, info.value.as_dict()
    assert info.value.rule
    assert state == before
    return info.value


def me(state: State, pid: int) -> dict:
    return next(p for p in state["players"] if p["id"] == pid)


def full_turn(pid: int, *middle: GameEvent, hand_size: int = 7) -> list[GameEvent]:
    return [start(pid), select(pid), *middle, end(pid, hand_size)]


@pytest.fixture
def turn_one() -> State:
    """P1's turn 1 has started."""
    return play([start(P1)])


@pytest.fixture
def selected() -> State:
    """P1's turn 1, after the Mana and Selection Steps (the Timing Sequence puts summons after them)."""
    return play([start(P1), select(P1)])


@pytest.fixture
def turn_three() -> State:
    """P1 has a Coreon monster 'p1a' since turn 1; P2 a Fluxion 'p2a'; it is P1's turn 3 after selecting."""
    return play(
        [
            *full_turn(P1, summon(P1, "p1a", method="normal")),
            *full_turn(P2, summon(P2, "p2a", "fluxion", method="normal")),
            start(P1),
            select(P1),
        ]
    )


# --- setup ------------------------------------------------------------------------------------------


def test_a_new_game_starts_at_8000_lp_with_hands_of_seven_and_eight():
    state = ENGINE.new_game([P1, P2])
    assert [p["lp"] for p in state["players"]] == [8000, 8000]
    assert [p["hand_size"] for p in state["players"]] == [7, 8]
    assert me(state, P1)["mana_zone"] == dict.fromkeys(("coreon", "fluxion", "synaphera", "obscura", "aetherion"), 0)
    assert me(state, P1)["monsters"] == {}
    assert json.loads(json.dumps(state)) == state


@pytest.mark.parametrize("lp", [6000, 8000, 10000])
def test_the_event_variants_start_at_6000_8000_or_10000_lp(lp):
    state = ENGINE.new_game([P1, P2], {"starting_lp": lp})
    assert [p["lp"] for p in state["players"]] == [lp, lp]
    assert state["starting_lp"] == lp


@pytest.mark.parametrize("options", [{"starting_lp": 7000}, {"starting_lp": "8000"}, {"hand_limit": 12}])
def test_it_refuses_other_starting_lp_and_unknown_options(options):
    with pytest.raises(RuleViolation) as info:
        ENGINE.new_game([P1, P2], options)
    assert info.value.code == "invalid_option"


@pytest.mark.parametrize("players", [[P1], [P1, P2, 8], [P1, True]])
def test_a_game_is_between_exactly_two_players(players):
    with pytest.raises(RuleViolation) as info:
        ENGINE.new_game(players)
    assert info.value.code == "invalid_players"


def test_the_vocabulary_includes_the_common_judge_actions():
    assert set(COMMON_VOCABULARY) <= set(ENGINE.VOCABULARY)
    assert {"mana_place", "select", "summon", "evolve", "attack", "counter"} <= set(ENGINE.VOCABULARY)
    assert ENGINE.slug == "mintayn-master"


# --- a full scripted game -----------------------------------------------------------------------------


def from_json(value):
    """``value`` as the games service reads it back from the database: JSON, so dict keys are strings."""
    return json.loads(json.dumps(value))


def test_a_scripted_game_ends_when_p2s_lp_reach_zero():
    state = play(scripted_game())
    assert state["status"] == "finished"
    assert state["result"]["placements"] == {str(P1): 1, str(P2): 2}
    assert me(state, P1)["monsters"]["ember"]["stage"] == 2
    assert me(state, P1)["mana_zone"]["coreon"] == 2
    assert me(state, P2)["lp"] == 0


def test_the_scripted_game_ends_the_same_when_its_events_and_states_come_back_from_json():
    events = scripted_game()
    direct = replay(ENGINE, [P1, P2], None, events)
    assert direct["result"]["placements"] == {str(P1): 1, str(P2): 2}
    assert from_json(direct) == direct, "the snapshot must survive the database unchanged"
    stored = ENGINE.new_game([P1, P2])
    for event in events:
        stored = from_json(ENGINE.apply(stored, GameEvent(event.type, from_json(event.data))))
    assert stored == direct
    # LP changes and time called keyed by int ids or by the strings JSON makes of them end the same.
    halfway = replay(ENGINE, [P1, P2], None, events[:18])
    for event in (
        E("lp_change", {"changes": {P1: -8000, P2: -100}}),
        E("time_called", {"placements": {P1: 2, P2: 1}, "reason": "higher LP"}),
    ):
        ended = ENGINE.apply(halfway, event)
        assert ended["status"] == "finished"
        assert from_json(ENGINE.apply(from_json(halfway), E(event.type, from_json(event.data)))) == from_json(ended)


# --- turns --------------------------------------------------------------------------------------------


def test_p1_takes_the_first_turn_and_turns_alternate():
    state = ENGINE.new_game([P1, P2])
    refused(state, start(P2), "not_your_turn")
    state = play([start(P1)], state)
    refused(state, start(P2), "turn_in_progress")
    refused(state, end(P2), "not_your_turn")
    state = play([select(P1), end(P1)], state)
    refused(state, start(P1), "not_your_turn")
    assert play([start(P2)], state)["turn"] == {"number": 2, "player": P2}


def test_events_between_turns_are_refused():
    state = ENGINE.new_game([P1, P2])
    refused(state, select(P1), "no_turn")
    refused(state, E("lp_change", {"changes": {P1: -100}}), "no_turn")
    refused(state, summon(P2, "x", method="special"), "no_turn")


def test_unknown_events_and_bad_fields_are_refused(turn_one):
    refused(turn_one, E("draw", {"player": P1}), "unknown_event")
    refused(turn_one, E("select", {}), "missing_field")
    refused(turn_one, E("select", {"player": "P1"}), "invalid_field")
    refused(turn_one, E("select", {"player": 99}), "unknown_player")
    refused(turn_one, mana(P1, "purple"), "invalid_field")
    refused(turn_one, summon(P1, "m", method="borrowed"), "invalid_field")
    refused(turn_one, summon(P1, "", method="special"), "invalid_field")
    refused(turn_one, summon(P1, "m", method="special", position="sideways"), "invalid_field")
    refused(turn_one, E("lp_change", {"changes": {P1: 0}}), "invalid_field")
    refused(turn_one, E("lp_change", {"changes": {}}), "invalid_field")


# --- mana ---------------------------------------------------------------------------------------------


def test_one_card_a_turn_goes_to_the_mana_zone(turn_one):
    state = play([mana(P1, "obscura")], turn_one)
    assert me(state, P1)["mana_zone"]["obscura"] == 1
    assert me(state, P1)["mana_available"]["obscura"] == 1
    refused(state, mana(P1, "coreon"), "mana_already_placed")


def test_mana_is_placed_in_the_mana_step_before_the_selection(turn_one):
    refused(play([select(P1)], turn_one), mana(P1), "mana_step_over")


def test_mana_is_placed_on_your_own_turn_unless_an_effect_places_it(turn_one):
    refused(turn_one, mana(P2), "not_your_turn")
    state = play([mana(P1), mana(P1, "aetherion", effect=True), mana(P2, "fluxion", effect=True)], turn_one)
    assert me(state, P1)["mana_zone"]["aetherion"] == 1
    assert me(state, P2)["mana_zone"]["fluxion"] == 1


def test_spent_mana_comes_back_at_the_start_of_its_owners_turn():
    state = play(
        [start(P1), mana(P1), select(P1), summon(P1, "a", mana={"coreon": 1}), end(P1), start(P2)],
    )
    assert me(state, P1)["mana_available"]["coreon"] == 0  # not on the opponent's turn
    state = play([select(P2), end(P2, 8), start(P1)], state)
    assert me(state, P1)["mana_spent"]["coreon"] == 0
    assert me(state, P1)["mana_available"]["coreon"] == 1


def test_costs_cannot_exceed_the_mana_available(turn_one):
    state = play([mana(P1, "synaphera"), select(P1)], turn_one)
    refused(state, summon(P1, "a", "synaphera", mana={"synaphera": 2}), "not_enough_mana")
    refused(state, summon(P1, "a", "synaphera", mana={"coreon": 1}), "not_enough_mana")
    refused(state, E("spend_mana", {"player": P1, "mana": {"synaphera": 2}}), "not_enough_mana")
    refused(state, E("spend_mana", {"player": P1, "mana": {}}), "missing_field")
    refused(state, E("spend_mana", {"player": P1, "mana": {"synaphera": -1}}), "invalid_field")
    spent = play([E("spend_mana", {"player": P1, "mana": {"Synaphera": 1}})], state)
    assert me(spent, P1)["mana_available"]["synaphera"] == 0


def test_effects_remove_mana_cards(turn_one):
    state = play([mana(P1), mana(P1, effect=True), E("spend_mana", {"player": P1, "mana": {"coreon": 1}})], turn_one)
    state = play([E("mana_remove", {"player": P1, "class": "coreon"})], state)
    assert me(state, P1)["mana_zone"]["coreon"] == 1
    assert me(state, P1)["mana_available"]["coreon"] == 0
    refused(state, E("mana_remove", {"player": P1, "class": "coreon", "count": 2}), "not_enough_mana")


# --- selection ----------------------------------------------------------------------------------------


def test_the_turn_player_selects_exactly_one_card(turn_one):
    refused(turn_one, select(P2), "not_your_turn")
    refused(turn_one, end(P1), "selection_missing")
    state = play([select(P1)], turn_one)
    refused(state, select(P1), "already_selected")
    refused(state, end(P1, cannot_select=True), "invalid_field")


def test_a_player_who_cannot_select_ends_the_turn_and_does_not_lose(turn_one):
    state = play([end(P1, cannot_select=True), start(P2), end(P2, 8, cannot_select=True), start(P1)], turn_one)
    assert state["status"] == "in_progress"
    assert not any(p["out"] for p in state["players"])


def test_the_hand_is_at_most_ten_cards_at_the_end_of_the_turn(turn_one):
    state = play([select(P1)], turn_one)
    refused(state, end(P1, 11), "hand_limit")
    assert me(play([end(P1, 10)], state), P1)["hand_size"] == 10


# --- summons ------------------------------------------------------------------------------------------


def test_one_normal_summon_a_turn_of_level_three_or_lower(selected):
    refused(selected, summon(P1, "big", method="normal", level=4), "normal_summon_level")
    refused(selected, summon(P1, "free", method="normal", mana={"coreon": 0, "fluxion": 1}), "invalid_field")
    state = play([summon(P1, "a", method="normal", level=3)], selected)
    refused(state, summon(P1, "b", method="normal", level=1), "normal_summon_used")
    # Mana Summons are not limited.
    state = play([summon(P1, "b"), summon(P1, "c")], state)
    assert set(me(state, P1)["monsters"]) == {"a", "b", "c"}


def test_normal_and_mana_summons_happen_on_your_own_turn_and_special_summons_on_either(turn_one):
    refused(turn_one, summon(P2, "x", "fluxion", method="normal"), "not_your_turn")
    refused(turn_one, summon(P2, "x", "fluxion"), "not_your_turn")
    state = play([summon(P2, "x", "fluxion", method="special")], turn_one)
    assert "x" in me(state, P2)["monsters"]


def test_the_monster_zone_holds_at_most_seven_monsters(selected):
    state = play([summon(P1, n) for n in range(7)], selected)
    refused(state, summon(P1, 7), "monster_zone_full")
    refused(state, summon(P1, "s", method="special"), "monster_zone_full")
    # An evolved stack still counts as one.
    state = play([E("evolve", {"player": P1, "monster": 0})], state)
    assert len(me(state, P1)["monsters"]) == 7


def test_a_monster_id_is_used_once(selected):
    state = play([summon(P1, "a")], selected)
    refused(state, summon(P1, "a"), "duplicate_monster")
    refused(state, summon(P2, "a", method="special"), "duplicate_monster")


def test_a_prime_singular_needs_two_monsters_and_may_replace_one(selected):
    refused(play([summon(P1, "a")], selected), summon(P1, "ps", prime_singular=True), "prime_singular_condition")
    state = play([summon(P1, n) for n in range(7)], selected)
    refused(state, summon(P1, "ps", prime_singular=True), "monster_zone_full")
    refused(state, summon(P1, "ps", replaces=3), "invalid_field")
    refused(state, summon(P1, "ps", prime_singular=True, replaces="nope"), "unknown_monster")
    state = play([summon(P1, "ps", prime_singular=True, replaces=3)], state)
    assert set(me(state, P1)["monsters"]) == {"0", "1", "2", "4", "5", "6", "ps"}


# --- positions and evolution --------------------------------------------------------------------------


def test_a_monster_switches_position_at_most_once_a_turn(turn_three):
    state = play([E("switch_position", {"player": P1, "monster": "p1a"})], turn_three)
    assert me(state, P1)["monsters"]["p1a"]["position"] == "defense"
    refused(state, E("switch_position", {"player": P1, "monster": "p1a"}), "already_switched")
    refused(turn_three, E("switch_position", {"player": P1, "monster": "p2a"}), "unknown_monster")
    refused(turn_three, E("switch_position", {"player": P2, "monster": "p2a"}), "not_your_turn")


def test_one_evolution_a_turn_and_none_past_the_third_stage(selected):
    state = play([summon(P1, "a"), summon(P1, "b"), E("evolve", {"player": P1, "monster": "a"})], selected)
    assert me(state, P1)["monsters"]["a"]["stage"] == 2
    refused(state, E("evolve", {"player": P1, "monster": "b"}), "evolution_used")
    state = play([end(P1), *full_turn(P2), start(P1), select(P1), E("evolve", {"player": P1, "monster": "a"})], state)
    assert me(state, P1)["monsters"]["a"]["stage"] == 3
    state = play([end(P1), *full_turn(P2), start(P1), select(P1)], state)
    refused(state, E("evolve", {"player": P1, "monster": "a"}), "final_stage")


# --- attacks ------------------------------------------------------------------------------------------


def test_p1_cannot_attack_on_turn_one(selected):
    state = play([summon(P1, "a")], selected)
    refused(state, attack(P1, "a", "lp"), "first_turn_attack")


def test_p2_may_attack_on_turn_two():
    state = play([*full_turn(P1), start(P2), select(P2), summon(P2, "b", "fluxion"), attack(P2, "b", "lp")])
    assert me(state, P2)["monsters"]["b"]["attacked_turn"] == 2


def test_each_monster_attacks_at_most_once_a_turn(turn_three):
    state = play([attack(P1, "p1a", "monster", target_monster="p2a")], turn_three)
    refused(state, attack(P1, "p1a", "monster", target_monster="p2a"), "already_attacked")
    refused(state, attack(P2, "p2a", "monster", target_monster="p1a"), "not_your_turn")


def test_a_monster_cannot_attack_the_turn_it_evolved(turn_three):
    state = play([E("evolve", {"player": P1, "monster": "p1a"})], turn_three)
    refused(state, attack(P1, "p1a", "board"), "evolved_this_turn")


def test_a_monster_cannot_attack_the_turn_it_switched_position(turn_three):
    state = play([E("switch_position", {"player": P1, "monster": "p1a"})], turn_three)
    refused(state, attack(P1, "p1a", "board"), "defense_position")
    # Back to Attack Position on the next turn: still no attack that turn.
    back = play(
        [end(P1), *full_turn(P2), start(P1), select(P1), E("switch_position", {"player": P1, "monster": "p1a"})], state
    )
    assert me(back, P1)["monsters"]["p1a"]["position"] == "attack"
    refused(back, attack(P1, "p1a", "board"), "switched_this_turn")


def test_a_monster_in_defense_position_does_not_attack(selected):
    state = play([summon(P1, "d", position="defense"), end(P1), *full_turn(P2), start(P1), select(P1)], selected)
    refused(state, attack(P1, "d", "global"), "defense_position")


def test_lp_are_attacked_directly_only_when_the_opponent_has_no_monsters(turn_three):
    refused(turn_three, attack(P1, "p1a", "lp"), "direct_attack_blocked")
    assert play([attack(P1, "p1a", "board")], turn_three)["chain"]["trigger"] == "attack"
    cleared = play([E("remove_monster", {"player": P2, "monster": "p2a"}), attack(P1, "p1a", "lp")], turn_three)
    assert me(cleared, P1)["monsters"]["p1a"]["attacked_turn"] == 3


def test_an_attack_targets_a_monster_the_opponent_controls(turn_three):
    state = play([summon(P1, "own")], turn_three)
    refused(state, attack(P1, "p1a", "monster", target_monster="own"), "unknown_monster")
    refused(state, attack(P1, "ghost", "board"), "unknown_monster")
    refused(state, attack(P1, "p1a", "face"), "invalid_field")


# --- spells, counters and chains ----------------------------------------------------------------------


def test_spells_and_counters_need_a_monster_of_their_class(turn_three):
    refused(turn_three, E("cast_spell", {"player": P1, "class": "obscura", "kind": "instant"}), "no_matching_monster")
    refused(turn_three, E("cast_spell", {"player": P1, "class": "coreon", "kind": "trap"}), "invalid_field")
    refused(turn_three, E("cast_spell", {"player": P2, "class": "fluxion", "kind": "instant"}), "not_your_turn")
    state = play([E("cast_spell", {"player": P1, "class": "coreon", "kind": "ongoing"})], turn_three)
    refused(state, counter(P2, "obscura"), "no_matching_monster")


def test_counters_are_played_on_the_opponents_turn_or_in_combat(turn_three):
    refused(turn_three, counter(P1), "counter_not_allowed")
    spell = play(
        [E("cast_spell", {"player": P1, "class": "coreon", "kind": "instant"}), counter(P2, "fluxion")], turn_three
    )
    refused(spell, counter(P1), "counter_not_allowed")
    combat = play([attack(P1, "p1a", "monster", target_monster="p2a"), counter(P2, "fluxion"), counter(P1)], turn_three)
    assert combat["chain"]["links"] == {str(P2): 1, str(P1): 1}


def test_a_chain_holds_at_most_three_links_per_player(turn_three):
    state = play([attack(P1, "p1a", "board")] + [counter(P2, "fluxion"), counter(P1)] * 3, turn_three)
    assert state["chain"]["links"] == {str(P1): 3, str(P2): 3}
    refused(state, counter(P2, "fluxion"), "chain_cap")
    refused(state, counter(P1), "chain_cap")


def test_any_other_event_resolves_the_chain_and_a_new_one_starts_afresh(turn_three):
    spell = E("cast_spell", {"player": P1, "class": "coreon", "kind": "instant"})
    state = play([spell] + [counter(P2, "fluxion")] * 3, turn_three)
    state = play([E("lp_change", {"changes": {P1: -100}})], state)
    assert state["chain"] is None
    refused(state, E("resolve_chain", {}), "no_chain")
    state = play([attack(P1, "p1a", "board"), counter(P2, "fluxion")], state)
    assert state["chain"]["links"] == {str(P2): 1}
    assert play([E("resolve_chain", {})], state)["chain"] is None


def test_a_counter_on_the_opponents_turn_may_open_a_chain():
    state = play([*full_turn(P1, summon(P1, "a")), start(P2), counter(P1)])
    assert state["chain"] == {"trigger": "counter", "links": {str(P1): 1}}


# --- monsters leaving and changing control ------------------------------------------------------------


def test_control_effects_move_a_monster_within_the_seven_monster_limit(turn_three):
    state = play([E("control_change", {"player": P1, "monster": "p2a"})], turn_three)
    assert set(me(state, P1)["monsters"]) == {"p1a", "p2a"} and me(state, P2)["monsters"] == {}
    full = play([summon(P1, n) for n in range(6)], turn_three)
    refused(full, E("control_change", {"player": P1, "monster": "p2a"}), "monster_zone_full")
    refused(turn_three, E("control_change", {"player": P1, "monster": "p1a"}), "unknown_monster")


def test_a_removed_monster_leaves_the_zone(turn_three):
    state = play([E("remove_monster", {"player": P2, "monster": "p2a"})], turn_three)
    assert me(state, P2)["monsters"] == {}
    refused(state, E("remove_monster", {"player": P2, "monster": "p2a"}), "unknown_monster")


# --- winning and the common judge actions -------------------------------------------------------------


def test_a_player_at_zero_lp_loses_and_lp_never_go_below_zero(turn_one):
    state = play([E("lp_change", {"changes": {str(P1): -9000}})], turn_one)
    assert me(state, P1)["lp"] == 0
    assert state["result"]["placements"] == {str(P1): 2, str(P2): 1}
    refused(state, select(P1), "game_over")


def test_both_players_at_zero_lp_at_once_draw(turn_one):
    state = play([E("lp_change", {"changes": {P1: -8000, P2: -8000}})], turn_one)
    assert state["result"]["placements"] == {str(P1): 1, str(P2): 1}


def test_a_concession_ends_the_game_and_ruling_notes_still_attach(turn_one):
    state = play([E("concede", {"player": P2})], turn_one)
    assert state["result"]["placements"] == {str(P1): 1, str(P2): 2}
    refused(state, E("concede", {"player": P1}), "game_over")
    assert ENGINE.apply(state, E("ruling_note", {"text": "ok"}))["notes"][-1]["text"] == "ok"


def test_time_called_and_intentional_draws_end_the_game(turn_one):
    state = play([E("time_called", {"placements": {P1: 1, P2: 1}, "reason": "no procedure"})], turn_one)
    assert state["result"]["placements"] == {str(P1): 1, str(P2): 1}
    assert play([E("intentional_draw", {})], turn_one)["status"] == "finished"


# --- the refusals in the reader's language (issue #29) ------------------------------------------------------------

FRENCH = {
    "player %(id)s": "joueur %(id)s",
    "Spells are cast only on your own turn (it is %(player)s's).": "On ne lance un sort qu'à son tour (c'est celui "
    "de %(player)s).",
    "Only %(count)s card a turn goes to the Mana Zone.": "Une seule carte par tour va dans la zone de mana.",
    "Only %(count)s cards a turn go to the Mana Zone.": "Seulement %(count)s cartes par tour vont dans la zone de mana.",
    "The %(step)s is over: the turn is in the %(current)s (Timing Sequence: %(sequence)s).": "Fini, le %(step)s : le "
    "tour en est au %(current)s (séquence : %(sequence)s).",
}


@pytest.fixture
def french():
    with speaking(FRENCH):
        yield


def test_a_refusal_is_english_for_every_caller_and_said_again_in_the_readers_language(french, turn_one):
    spell = E("cast_spell", {"player": P2, "class": "coreon", "kind": "instant"})
    not_yours = refused(turn_one, spell, "not_your_turn")
    assert not_yours.message == f"Spells are cast only on your own turn (it is player {P1}'s)."
    assert speech.say(not_yours.message, names={P1: "Mai"}) == "On ne lance un sort qu'à son tour (c'est celui de Mai)."

    placed = play([mana(P1)], turn_one)
    once = refused(placed, mana(P1, "fluxion"), "mana_already_placed")
    assert once.message == "Only 1 card a turn goes to the Mana Zone."
    assert speech.say_stored(once.as_dict()) == "Une seule carte par tour va dans la zone de mana."
    accelerated = play([start(P1), mana(P1), mana(P1)], options={"mana_rate": 2})
    twice = refused(accelerated, mana(P1), "mana_already_placed")
    assert speech.say(twice.message) == "Seulement 2 cartes par tour vont dans la zone de mana."

    over = refused(play([select(P1)], turn_one), mana(P1), "mana_step_over")
    assert over.message.startswith("The Mana Step is over: the turn is in the Selection Step (Timing Sequence: ")
    assert speech.say(over.message).startswith("Fini, le Mana Step : le tour en est au Selection Step (séquence : ")


@pytest.mark.parametrize(
    ("event", "opening"),
    [
        (end(P2), "A turn ends"),
        (mana(P2), "Mana is placed"),
        (select(P2), "The selection happens"),
        (E("cast_spell", {"player": P2, "class": "coreon", "kind": "instant"}), "Spells are cast"),
        (summon(P2, "x", "fluxion", method="normal"), "Normal and Mana Summons happen"),
        (E("switch_position", {"player": P2, "monster": "x"}), "Positions are changed"),
        (E("evolve", {"player": P2, "monster": "x"}), "Evolution happens"),
        (attack(P2, "x"), "Monsters attack"),
    ],
)
def test_each_action_of_the_turn_player_is_refused_to_the_other_in_a_sentence_of_its_own(turn_one, event, opening):
    refusal = refused(turn_one, event, "not_your_turn")
    assert refusal.message == f"{opening} only on your own turn (it is player {P1}'s)."
    assert refusal.message.template == f"{opening} only on your own turn (it is %(player)s's)."


# --- property: random legal games replay to the same state --------------------------------------------

CLASS_OF = {P1: "coreon", P2: "fluxion"}


def candidates(state: State) -> list[GameEvent]:
    """Events worth trying from ``state``, legal or not: the engine decides."""
    if state["turn"]["player"] is None:
        return [start(P1), start(P2)]
    tp = state["turn"]["player"]
    op = P2 if tp == P1 else P1
    n = state["seq"]
    events = [
        end(tp, 7),
        end(tp, 7),
        end(tp, 7, cannot_select=True),
        mana(tp, CLASS_OF[tp]),
        mana(op, CLASS_OF[op], effect=True),
        select(tp),
        select(tp),
        summon(tp, f"n{n}", CLASS_OF[tp], method="normal"),
        summon(tp, f"m{n}", CLASS_OF[tp], mana={CLASS_OF[tp]: 1}),
        summon(op, f"s{n}", CLASS_OF[op], method="special"),
        E("cast_spell", {"player": tp, "class": CLASS_OF[tp], "kind": "instant"}),
        counter(op, CLASS_OF[op]),
        counter(tp, CLASS_OF[tp]),
        E("resolve_chain", {}),
        E("spend_mana", {"player": tp, "mana": {CLASS_OF[tp]: 1}}),
        E("lp_change", {"changes": {op: -300}}),
        E("lp_change", {"changes": {tp: 200}}),
        E("ruling_note", {"text": "note"}),
    ]
    mine = me(state, tp)["monsters"]
    theirs = me(state, op)["monsters"]
    for mid in list(mine)[:3]:
        events += [
            attack(tp, mid, "lp"),
            attack(tp, mid, "board"),
            E("switch_position", {"player": tp, "monster": mid}),
            E("evolve", {"player": tp, "monster": mid}),
        ]
        events += [attack(tp, mid, "monster", target_monster=t) for t in list(theirs)[:2]]
    for mid in list(theirs)[:2]:
        events += [E("remove_monster", {"player": op, "monster": mid})]
    if n % 3 == 0:  # big hits now and then, so some games end
        events.append(E("lp_change", {"changes": {op: -2500}} if n % 4 else {"changes": {op: -4000, tp: -4000}}))
    if mine and n % 7 == 0:
        events.append(E("control_change", {"player": op, "monster": next(iter(mine))}))
    return events


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_legal_games_replay_to_the_same_state(data):
    options = data.draw(st.sampled_from([None, {"starting_lp": 6000}, {"starting_lp": 10000}]))
    state = ENGINE.new_game([P1, P2], options)
    log: list[GameEvent] = []
    for _ in range(data.draw(st.integers(min_value=1, max_value=120))):
        event = data.draw(st.sampled_from(candidates(state)))
        before = copy.deepcopy(state)
        try:
            new = ENGINE.apply(state, event)
        except RuleViolation:
            assert state == before
            continue
        assert state == before  # apply never mutates its input
        assert new["seq"] == state["seq"] + 1
        state = new
        log.append(event)
    assert replay(ENGINE, [P1, P2], options, log) == state
    assert json.loads(json.dumps(state)) == state
    for p in state["players"]:
        assert len(p["monsters"]) <= 7
        assert all(p["mana_available"][c] == p["mana_zone"][c] - p["mana_spent"][c] >= 0 for c in p["mana_zone"])
    if state["chain"] is not None:
        assert all(n <= 3 for n in state["chain"]["links"].values())
