"""The Master Trainer engine (handbook v6.7): a scripted game, every enforced rule, and replay properties.

Pure tests: no database.  Run with ``.venv/bin/pytest tests/rules/test_engine_master_trainer.py -q``.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import COMMON_VOCABULARY, GameEvent, RuleViolation, State, replay
from rules.master_trainer import FORMAT
from rules.master_trainer.engine import ENGINE, IN_TURN, TURN_COUNTERS
from rules.speech import say, say_stored
from tests.support.games.master_trainer import Table, _next, refused, scripted_game
from tests.support.speech import speaking


def ev(type_: str, **data: Any) -> GameEvent:
    return GameEvent(type_, data)


def started(players: list[int] | None = None, **kwargs: Any) -> Table:
    """A game where every player has had their first turn and the first player's second turn is on."""
    table = Table(players or [1, 2], **kwargs)
    table.round()
    table.turn(table.players[0])
    return table


def from_json(value: Any) -> Any:
    """``value`` as the games service reads it back from the database: JSON, so dict keys are strings."""
    return json.loads(json.dumps(value))


# --- a full game ------------------------------------------------------------------------------------


def test_under_the_last_standing_house_rule_a_four_player_game_places_players_by_elimination_order():
    # Before the §3.2 default (the game ends at the first condition) this was the only behaviour; it is now
    # the house rule an event chooses with the game_end option.
    house_rule = {"game_end": "last_standing"}
    t = Table([10, 20, 30, 40], benches={10: 1, 30: 0}, options=house_rule)
    t.round()  # first turns: no attacks
    assert [t.p(pid)["turns_taken"] for pid in (10, 20, 30, 40)] == [1, 1, 1, 1]

    # Turn 5: player 10 attacks 40's Active for 120 -> Life Link 50.
    t.turn(10)
    t.do("play_energy_source", player=10)
    t.do("attack", player=10, target=40, damage=120, cost=2)
    assert t.p(40)["life"] == 150
    t.do("knock_out", player=40, spot="active")  # 40 has no bench: stays without an Active
    assert t.p(40)["active"] is None

    # Turn 6: player 20 hits 40 with no Active: full damage, 150 -> out by Life Depletion, 4th.
    t.turn(20)
    t.do("attack", player=20, target=40, damage=150)
    assert t.p(40)["out"] and t.p(40)["placement"] == 4 and t.p(40)["out_reason"] == "life depletion"

    # Turn 7: player 30 cannot draw: Deck-Out, 3rd.
    t.turn(30)
    t.do("deck_out", player=30)
    assert t.p(30)["placement"] == 3

    # Turn 8 goes to 10 (30 and 40 are out); 10 knocks out 20's only Creature.
    t.turn(10)
    t.do("attack", player=10, target=20, damage=200)
    t.do("knock_out", player=20, spot="active", replacement="none")
    t.do("end_turn", player=10)

    # Turn 9: 20 has no Active and cannot place one: Field Break.
    t.do("start_turn", player=20, new_active="none")
    assert t.state["status"] == "finished"
    assert t.state["result"]["placements"] == {"10": 1, "20": 2, "30": 3, "40": 4}
    assert "field break" in t.state["result"]["reason"]
    assert replay(ENGINE, t.players, house_rule, t.log) == t.state


def test_a_two_player_game_ends_when_one_player_reaches_zero_life():
    t = started([1, 2])
    t.do("adjust_life", player=2, amount=-160, reason="card effect")
    t.do("attack", player=1, target=2, damage=100)
    assert t.state["status"] == "finished"
    assert t.state["result"]["placements"] == {"1": 1, "2": 2}


def test_the_scripted_game_ends_the_same_when_its_events_and_states_come_back_from_json():
    players = [10, 20, 30, 40]
    events = scripted_game(players)
    direct = replay(ENGINE, players, None, events)
    assert direct["result"]["placements"] == {"10": 1, "20": 2, "30": 3, "40": 4}
    assert from_json(direct) == direct, "the snapshot must survive the database unchanged"
    stored = ENGINE.new_game(players)
    for event in events:
        stored = from_json(ENGINE.apply(stored, GameEvent(event.type, from_json(event.data))))
    assert stored == direct
    # Time called halfway: placements keyed by int ids or by the strings JSON makes of them end the same.
    halfway = replay(ENGINE, players, None, events[: len(events) // 2])
    assert halfway["status"] == "in_progress"
    still_in = [p["id"] for p in halfway["players"] if not p["out"]]
    data = {"placements": {pid: place for place, pid in enumerate(still_in, start=1)}, "reason": "round over"}
    ended = ENGINE.apply(halfway, GameEvent("time_called", data))
    assert ended["status"] == "finished"
    assert from_json(ENGINE.apply(from_json(halfway), GameEvent("time_called", from_json(data)))) == from_json(ended)


# --- setup and the contract -------------------------------------------------------------------------


def test_a_new_game_gives_every_player_200_life_one_source_and_an_active():
    state = ENGINE.new_game([5, 6, 7])
    assert FORMAT.starting_life == 200
    for p in state["players"]:
        assert (p["life"], p["sources"], p["pool"], p["active"], p["bench"]) == (200, 1, 0, "creature", 0)
        assert (p["master"], p["master_recasts"], p["paragon"], p["ascended"]) == ("zone", 0, "none", False)
    assert state["phase"] == "setup" and state["stadium"] is None and state["seq"] == 0


@pytest.mark.parametrize("players", [[1], [1, 2, 3, 4, 5]])
def test_it_refuses_fewer_than_two_or_more_than_four_players(players):
    with pytest.raises(RuleViolation) as info:
        ENGINE.new_game(players)
    assert (info.value.code, info.value.rule) == ("invalid_player_count", "§1")


def test_it_refuses_any_option():
    with pytest.raises(RuleViolation) as info:
        ENGINE.new_game([1, 2], {"starting_life": 100})
    assert info.value.code == "invalid_option"


def test_it_refuses_an_unknown_event_and_missing_or_mistyped_fields():
    t = started()
    t.refuse("evolve", "unknown_event")
    t.refuse("attack", "missing_field", player=1, target=2)
    t.refuse("attack", "invalid_field", player=1, target=2, damage="lots")
    t.refuse("attack", "invalid_field", player=1, target=2, damage=-5)
    t.refuse("play_support", "invalid_field", player=1, kind="potion")
    t.refuse("attack", "unknown_player", player=99, target=2, damage=10)


@pytest.mark.parametrize(
    ("type_", "data", "refusal"),
    [
        ("play_creature", {"player": 1}, ("missing_field", "event", "The event needs a 'to' field.")),
        ("play_creature", {"player": 1, "to": "hand"}, ("invalid_field", "event", "'to' must be one of bench, active.")),
        ("play_creature", {"player": 1, "to": None}, ("invalid_field", "event", "'to' must be one of bench, active.")),
        (
            "knock_out",
            {"player": 2, "spot": "active", "replacement": None},
            ("invalid_field", "event", "'replacement' must be one of creature, master, paragon, none."),
        ),
        ("attack", {"player": 1, "target": 2, "damage": 10, "cost": None}, ("invalid_field", "event", "'cost' has the wrong type.")),
        ("attack", {"player": 1, "target": 2, "damage": 10, "cost": -1}, ("invalid_field", "event", "'cost' must be at least 0.")),
        ("exhaust_energy_source", {"player": 1, "count": 0}, ("invalid_field", "event", "'count' must be at least 1.")),
        ("play_energy_source", {"player": 1, "by_effect": None}, ("invalid_field", "event", "'by_effect' has the wrong type.")),
        ("attack", {"player": "1", "target": 2, "damage": 10}, ("invalid_field", "event", "'player' has the wrong type.")),
        ("attack", {"player": 1, "target": 99, "damage": 10}, ("unknown_player", "setup", "Player 99 is not in this game.")),
        ("attack", {"player": 1, "target": 3, "damage": 10}, ("player_out", "end of game", "Player 3 is out of the game.")),
        ("evolve", {"player": 1}, ("unknown_event", "event", "Master Trainer has no event 'evolve'.")),
    ],
)  # fmt: skip
def test_a_refused_field_is_named_with_what_is_wrong_with_it(type_, data, refusal):
    """A null is no value of an optional field here (other formats take it as left out): Master Trainer refuses it."""
    t = started([1, 2, 3])
    t.do("concede", player=3)
    error = t.refuse(type_, refusal[0], **data)
    assert (error.code, error.rule, error.message) == refusal


def test_the_vocabulary_has_the_common_judge_actions_and_a_rule_for_every_event():
    assert set(COMMON_VOCABULARY) <= set(ENGINE.VOCABULARY)
    assert ENGINE.slug == FORMAT.slug == "master-trainer"
    assert all(spec.rule for spec in ENGINE.VOCABULARY.values())


def test_every_accepted_event_increments_seq_by_one_and_leaves_the_input_alone():
    t = Table([1, 2])
    before = copy.deepcopy(t.state)
    after = ENGINE.apply(t.state, ev("start_turn", player=1))
    assert t.state == before and after["seq"] == 1


def test_nothing_but_a_ruling_note_is_accepted_after_the_game_is_over():
    t = started()
    t.do("concede", player=2)
    t.refuse("end_turn", "game_over", player=1)
    t.refuse("start_turn", "game_over", player=2)
    t.do("ruling_note", text="player 2 conceded at 14:02")
    assert t.state["notes"][0]["text"] == "player 2 conceded at 14:02"


# --- turns --------------------------------------------------------------------------------------------


def test_start_turn_must_name_the_next_player_still_in():
    t = Table([1, 2, 3])
    t.refuse("start_turn", "not_your_turn", "§10", player=2)
    t.do("start_turn", player=1)
    t.do("end_turn", player=1)
    t.refuse("start_turn", "not_your_turn", "§10", player=3)


def test_a_turn_cannot_start_before_the_previous_one_ends():
    t = Table([1, 2])
    t.do("start_turn", player=1)
    t.refuse("start_turn", "turn_in_progress", "§10", player=2)


def test_turn_order_skips_players_who_are_out_and_a_player_out_mid_turn_ends_their_turn():
    t = Table([1, 2, 3])
    t.do("start_turn", player=1)
    t.do("concede", player=1)
    assert t.state["phase"] == "ended"
    t.do("start_turn", player=2)
    t.do("game_loss", player=3, reason="marked cards")
    assert t.state["result"]["placements"] == {"1": 3, "2": 1, "3": 2}


def test_events_naming_a_player_who_is_out_are_refused():
    t = started([1, 2, 3])
    t.do("concede", player=3)
    t.refuse("attack", "player_out", player=1, target=3, damage=10)
    t.refuse("play_support", "player_out", player=3, kind="item")


def test_gameplay_before_the_first_turn_is_refused_but_benching_at_setup_is_not():
    t = Table([1, 2])
    t.refuse("play_support", "no_turn_in_progress", "§10", player=1, kind="item")
    t.refuse("play_creature", "active_occupied", "§7", player=2, to="active")
    t.do("play_creature", player=2, to="bench")
    assert t.p(2)["bench"] == 1


def test_sorcery_speed_actions_out_of_turn_are_refused():
    t = started([1, 2])
    t.refuse("play_support", "not_your_turn", "§11.2", player=2, kind="supporter")
    t.refuse("play_support", "not_your_turn", "§11.5", player=2, kind="tool")
    t.refuse("play_stadium", "not_your_turn", "§11.2", player=2)
    t.refuse("play_creature", "not_your_turn", "§10", player=2, to="bench")
    t.refuse("play_energy_source", "not_your_turn", "§9.1", player=2)
    t.refuse("deploy_master", "not_your_turn", "§8", player=2, to="bench")
    t.refuse("end_turn", "not_your_turn", "§10", player=2)


def test_main_phase_actions_after_the_attack_are_refused():
    t = started([1, 2])
    t.do("attack", player=1, target=2, damage=10)
    t.refuse("play_support", "not_main_phase", "§10", player=1, kind="supporter")
    t.refuse("play_energy_source", "not_main_phase", "§10", player=1)
    t.do("play_support", player=1, kind="item")  # Items stay instant speed


# --- energy -------------------------------------------------------------------------------------------


def test_the_first_turn_pool_is_the_baseline_plus_the_setup_source():
    t = Table([1, 2])
    t.do("start_turn", player=1)
    assert t.p(1)["pool"] == 2


def test_a_source_played_this_turn_generates_only_from_the_next_turn():
    t = Table([1, 2])
    t.do("start_turn", player=1)
    t.do("play_energy_source", player=1)
    assert (t.p(1)["pool"], t.p(1)["sources"], t.p(1)["sources_new"]) == (2, 2, 1)
    t.round()
    assert (t.p(1)["pool"], t.p(1)["sources_new"]) == (3, 0)


def test_a_source_put_into_play_in_another_players_turn_generates_on_its_owners_next_turn():
    t = Table([1, 2])
    t.do("start_turn", player=1)
    t.do("play_energy_source", player=2, by_effect=True)
    t.turn(2)
    assert (t.p(2)["pool"], t.p(2)["sources"], t.p(2)["sources_new"]) == (3, 2, 0)


def test_a_second_energy_source_in_a_turn_is_refused_unless_an_effect_puts_it_in_play():
    t = started()
    t.do("play_energy_source", player=1)
    t.refuse("play_energy_source", "energy_source_limit", "§9.1", player=1)
    t.do("play_energy_source", player=1, by_effect=True)
    assert t.p(1)["sources"] == 3


def test_exhausted_sources_skip_their_owners_next_generation_then_recover():
    t = started([1, 2])
    t.sources(1, 3)  # 4 Sources
    t.do("exhaust_energy_source", player=1, count=2)
    t.round()
    assert (t.p(1)["pool"], t.p(1)["sources_exhausted"]) == (1 + 2, 0)
    t.round()
    assert t.p(1)["pool"] == 1 + 4


def test_exhausting_or_losing_more_sources_than_there_are_is_refused():
    t = started()
    t.refuse("exhaust_energy_source", "not_enough_sources", "§9.4", player=1, count=2)
    t.do("exhaust_energy_source", player=1)
    t.refuse("exhaust_energy_source", "not_enough_sources", "§9.4", player=1)
    t.refuse("lose_energy_source", "not_enough_sources", "§9.4", player=1)
    t.do("lose_energy_source", player=1, exhausted=True)
    assert (t.p(1)["sources"], t.p(1)["sources_exhausted"]) == (0, 0)


def test_the_pool_empties_at_the_end_of_every_turn():
    t = started([1, 2])
    t.do("gain_energy", player=2, amount=3)
    t.do("end_turn", player=1)
    assert t.p(1)["pool"] == 0 and t.p(2)["pool"] == 0


def test_spending_more_than_the_pool_holds_is_refused():
    t = started()
    pool = t.p(1)["pool"]
    t.refuse("spend_energy", "insufficient_energy", "§9.3", player=1, amount=pool + 1)
    t.refuse("attack", "insufficient_energy", "§9.3", player=1, target=2, damage=10, cost=pool + 1)
    t.do("spend_energy", player=1, amount=pool)
    assert t.p(1)["pool"] == 0


# --- attacks and Life Link ----------------------------------------------------------------------------


def test_no_attack_is_declared_in_a_players_first_turn():
    t = Table([1, 2])
    t.do("start_turn", player=1)
    t.refuse("attack", "first_turn_attack", "§2", player=1, target=2, damage=10)
    t.turn(2)
    t.refuse("attack", "first_turn_attack", "§2", player=2, target=1, damage=10)


def test_a_second_attack_in_a_turn_is_refused():
    t = started()
    t.do("attack", player=1, target=2, damage=10)
    t.refuse("attack", "attack_limit", "§10", player=1, target=2, damage=10)


def test_an_attacker_without_an_active_and_an_attack_on_oneself_are_refused():
    t = started()
    t.refuse("attack", "invalid_target", "§12", player=1, target=1, damage=10)
    t.do("knock_out", player=1, spot="active")
    t.refuse("attack", "no_active", "§7", player=1, target=2, damage=10)


@pytest.mark.parametrize(("damage", "loss"), [(0, 0), (1, 0), (99, 49), (100, 50), (101, 50), (300, 50)])
def test_life_link_takes_half_the_damage_rounded_down_and_at_most_50(damage, loss):
    t = started()
    t.do("attack", player=1, target=2, damage=damage)
    assert t.p(2)["life"] == 200 - loss


def test_with_no_active_an_attack_hits_player_life_in_full_and_uncapped():
    t = started()
    t.do("knock_out", player=2, spot="active")
    t.do("attack", player=1, target=2, damage=130)
    assert t.p(2)["life"] == 70


def test_under_the_house_rule_life_depletion_in_a_three_player_game_puts_one_player_out_and_play_goes_on():
    t = started([1, 2, 3], options={"game_end": "last_standing"})
    t.do("knock_out", player=2, spot="active")
    t.do("attack", player=1, target=2, damage=250)
    assert t.p(2)["life"] == 0 and t.p(2)["placement"] == 3
    assert t.state["status"] == "in_progress"
    t.turn(3)  # 2 is skipped


# --- Healing Echo --------------------------------------------------------------------------------------


def test_healing_echo_heals_half_rounded_down_and_at_most_50_per_turn():
    t = started()
    t.do("adjust_life", player=2, amount=-150, reason="test")
    t.do("heal", player=2, amount=61, source="item")
    assert t.p(2)["life"] == 50 + 30
    t.do("heal", player=2, amount=60, source="support")
    assert t.p(2)["life"] == 50 + 50
    t.do("heal", player=2, amount=60, source="item")
    assert t.p(2)["life"] == 100
    t.turn(2)
    t.do("heal", player=2, amount=40, source="item")
    assert t.p(2)["life"] == 120


@pytest.mark.parametrize("source", ["attack", "ability", "passive"])
def test_healing_from_attacks_abilities_and_passive_effects_gives_no_echo(source):
    t = started()
    t.do("adjust_life", player=1, amount=-100, reason="test")
    t.do("heal", player=1, amount=80, source=source)
    assert t.p(1)["life"] == 100


def test_player_life_never_rises_above_200():
    t = started()
    t.do("adjust_life", player=1, amount=-10, reason="test")
    t.do("heal", player=1, amount=100, source="item")
    assert t.p(1)["life"] == 200 and t.p(1)["turn_echo"] == 10


# --- Support cards and Stadiums ----------------------------------------------------------------------


def test_a_fourth_support_action_in_a_turn_is_refused():
    t = started()
    for kind in ("item", "supporter", "tool"):
        t.do("play_support", player=1, kind=kind)
    t.refuse("play_support", "support_limit", "§15", player=1, kind="item")


def test_items_are_instant_speed_and_count_for_the_player_who_plays_them_in_any_turn():
    t = started()
    for _ in range(3):
        t.do("play_support", player=2, kind="item")
    t.refuse("play_support", "support_limit", "§15", player=2, kind="item")
    t.turn(2)
    assert t.p(2)["turn_support_actions"] == 0


def test_a_stadium_and_a_paragon_do_not_count_towards_support_actions():
    t = started()
    t.sources(1, 7)
    t.do("gain_energy", player=1, amount=4)
    for _ in range(3):
        t.do("play_support", player=1, kind="item")
    t.do("play_stadium", player=1, name="Path to the Peak")
    t.do("ascend_paragon", player=1)
    assert t.p(1)["turn_support_actions"] == 3


def test_a_second_stadium_in_a_turn_is_refused_and_a_new_one_replaces_the_old():
    t = started()
    t.do("play_stadium", player=1, name="A")
    t.refuse("play_stadium", "stadium_limit", "§16", player=1, name="B")
    t.turn(2)
    t.do("play_stadium", player=2, name="B")
    assert t.state["stadium"] == {"owner": 2, "name": "B"}


def test_discarding_a_stadium_needs_one_in_play_and_a_player_out_takes_theirs_away():
    t = started([1, 2, 3])
    t.refuse("discard_stadium", "no_stadium", "§16")
    t.do("play_stadium", player=1)
    t.do("discard_stadium")
    t.turn(2)
    t.do("play_stadium", player=2)
    t.do("concede", player=2)
    assert t.state["stadium"] is None


# --- the board: Bench, movement, release ---------------------------------------------------------


def test_a_sixth_benched_creature_and_a_second_active_are_refused():
    t = started(benches={1: 5})
    t.refuse("play_creature", "bench_full", "§7", player=1, to="bench")
    t.refuse("play_creature", "active_occupied", "§7", player=1, to="active")


def test_a_third_movement_action_in_a_turn_is_refused():
    t = started(benches={1: 3, 2: 3})
    t.do("move", player=1, kind="retreat", to_active="creature", cost=1)
    t.do("move", player=1, kind="forced", target=2, to_active="creature")
    t.refuse("move", "movement_limit", "§13", player=1, kind="switch", to_active="creature")
    assert t.p(2)["turn_movements"] == 0  # a forced movement counts for the player performing it


def test_a_creature_moved_to_the_bench_cannot_go_back_active_until_its_owners_next_turn():
    t = started(benches={1: 1})
    t.do("move", player=1, kind="switch", to_active="creature")
    assert t.p(1)["bench_locked"] == 1
    t.refuse("move", "bench_locked", "§13.1", player=1, kind="switch", to_active="creature")
    t.round()
    t.do("move", player=1, kind="switch", to_active="creature")


def test_a_player_retreats_only_their_own_active_in_their_own_main_phase():
    t = started(benches={1: 1, 2: 1})
    t.refuse("move", "invalid_target", "§13", player=1, kind="retreat", target=2, to_active="creature")
    t.refuse("move", "not_your_turn", "§13", player=2, kind="retreat", to_active="creature")
    t.refuse("move", "not_on_bench", "§19", player=1, kind="switch", to_active="master")


def test_release_needs_a_full_bench_once_per_turn_and_never_the_master_or_paragon():
    t = started(benches={1: 4})
    t.refuse("release", "bench_not_full", "§14", player=1)
    t.do("deploy_master", player=1, to="bench")
    for creature in ("active", "master", "paragon"):
        t.refuse("release", "release_forbidden", "§14.1", player=1, creature=creature)
    t.do("release", player=1)
    assert t.p(1)["bench"] == 4 and t.p(1)["turn_movements"] == 0
    t.do("play_creature", player=1, to="bench")
    t.refuse("release", "release_limit", "§14", player=1)
    t.refuse("release", "not_your_turn", "§14", player=2)


# --- the Master ----------------------------------------------------------------------------------------


def test_the_recast_tax_adds_two_energy_per_return_cumulatively():
    t = started(benches={1: 1})
    t.do("deploy_master", player=1, to="bench")  # 0 returns: free
    for returns in (1, 2):
        t.do("knock_out", player=1, spot="bench", creature="master")
        assert (t.p(1)["master"], t.p(1)["master_recasts"], t.p(1)["master_exhausted"]) == ("zone", returns, True)
        t.round()
        t.do("gain_energy", player=1, amount=20)
        pool = t.p(1)["pool"]
        t.refuse("deploy_master", "insufficient_energy", "§8.2", player=1, to="bench", base_cost=pool)
        t.do("deploy_master", player=1, to="bench", base_cost=1)
        assert t.p(1)["pool"] == pool - 1 - 2 * returns


def test_a_master_leaving_play_returns_to_the_master_zone_exhausted_until_its_owners_next_turn():
    t = started(benches={1: 1})
    t.do("deploy_master", player=1, to="bench")
    t.do("move", player=1, kind="switch", to_active="master")
    t.do("leave_play", player=1, spot="active", replacement="creature")
    assert (t.p(1)["master"], t.p(1)["master_recasts"], t.p(1)["active"]) == ("zone", 1, "creature")
    t.do("knock_out", player=1, spot="active", replacement="none")  # the only benched Creature is Bench Locked
    t.refuse("deploy_master", "master_exhausted", "§8.4", player=1, to="active")
    t.do("deploy_master", player=1, to="bench")  # the Bench is allowed; the Master stays exhausted
    assert (t.p(1)["master"], t.p(1)["master_exhausted"], t.p(1)["pool"]) == ("bench", True, 0)
    t.turn(2)
    t.do("end_turn", player=2)
    t.do("start_turn", player=1, new_active="master")
    assert (t.p(1)["active"], t.p(1)["master"], t.p(1)["master_exhausted"]) == ("master", "active", False)


def test_an_exhausted_master_is_not_an_active_replacement():
    t = started(benches={1: 1})
    t.do("deploy_master", player=1, to="bench")
    t.do("move", player=1, kind="switch", to_active="master")
    t.do("knock_out", player=1, spot="active", replacement="creature")
    t.do("deploy_master", player=1, to="bench", base_cost=0)
    refused(t.state, ev("knock_out", player=1, spot="active", replacement="master"), "master_exhausted", "§8.4")
    t.do("knock_out", player=1, spot="active", replacement="none")
    assert t.p(1)["active"] is None


def test_a_master_already_in_play_cannot_be_deployed():
    t = started()
    t.do("deploy_master", player=1, to="bench")
    t.refuse("deploy_master", "master_in_play", "§8", player=1, to="bench")


# --- the Paragon -------------------------------------------------------------------------------------


def test_ascension_needs_eight_sources_and_four_energy_and_puts_the_paragon_active():
    t = started()
    t.sources(1, 6)  # 7 Sources
    t.do("gain_energy", player=1, amount=10)
    t.refuse("ascend_paragon", "not_enough_sources", "§17.3", player=1)
    t.sources(1, 1)
    t.do("spend_energy", player=1, amount=t.p(1)["pool"] - 3)
    t.refuse("ascend_paragon", "insufficient_energy", "§17.3", player=1)
    t.do("gain_energy", player=1, amount=1)
    t.do("ascend_paragon", player=1)
    p = t.p(1)
    assert (p["active"], p["paragon"], p["ascended"], p["pool"], p["bench"], p["bench_locked"]) == (
        "paragon",
        "deployed",
        True,
        0,
        1,
        1,
    )


def test_ascension_is_refused_with_a_full_bench_behind_the_active_and_only_happens_once():
    t = started(benches={1: 5})
    t.sources(1, 7)
    t.do("gain_energy", player=1, amount=8)
    t.refuse("ascend_paragon", "bench_full", "§17.3", player=1)
    t.do("release", player=1)
    t.do("ascend_paragon", player=1)
    t.refuse("ascend_paragon", "paragon_already_deployed", "§17, §17.5", player=1)


def test_paragon_drain_costs_a_source_at_each_end_of_turn_then_knocks_the_paragon_out_for_good():
    t = started(benches={1: 1})
    t.sources(1, 7)
    t.do("gain_energy", player=1, amount=4)
    t.do("ascend_paragon", player=1)
    t.do("exhaust_energy_source", player=1)
    t.do("end_turn", player=1)  # drains the Exhausted Source first
    assert (t.p(1)["sources"], t.p(1)["sources_exhausted"]) == (7, 0)
    t.do("start_turn", player=2)
    t.do("lose_energy_source", player=1, count=7)
    t.do("end_turn", player=2)
    t.do("start_turn", player=1)
    t.refuse("end_turn", "no_such_source", "§17.4", player=1, drain_source="ready")
    t.refuse("end_turn", "replacement_required", "§19", player=1)
    t.do("end_turn", player=1, replacement="creature")
    assert (t.p(1)["paragon"], t.p(1)["active"], t.p(1)["bench"]) == ("knocked_out", "creature", 1)
    t.round()
    t.sources(1, 8)
    t.do("gain_energy", player=1, amount=4)
    t.refuse("ascend_paragon", "paragon_already_deployed", "§17, §17.5", player=1)


def test_paragon_drain_takes_the_chosen_kind_of_source():
    t = started()
    t.sources(1, 7)
    t.do("gain_energy", player=1, amount=4)
    t.do("ascend_paragon", player=1)
    t.refuse("end_turn", "no_such_source", "§17.4", player=1, drain_source="exhausted")
    t.do("end_turn", player=1, drain_source="ready")
    assert t.p(1)["sources"] == 7


# --- Knockouts, Active Replacement and Field Break ---------------------------------------------------


def test_a_knocked_out_active_must_be_replaced_from_the_bench_if_able():
    t = started(benches={2: 1})
    t.do("attack", player=1, target=2, damage=200)
    t.refuse("knock_out", "replacement_required", "§19", player=2, spot="active")
    t.refuse("knock_out", "replacement_required", "§19", player=2, spot="active", replacement="none")
    t.refuse("knock_out", "not_on_bench", "§19", player=2, spot="active", replacement="paragon")
    t.do("knock_out", player=2, spot="active", replacement="creature")
    assert (t.p(2)["active"], t.p(2)["bench"]) == ("creature", 0)


def test_knocking_out_what_is_not_there_is_refused():
    t = started()
    t.refuse("knock_out", "not_on_bench", "§19", player=2, spot="bench")
    t.refuse("knock_out", "invalid_field", "§19", player=2, spot="active", creature="master")
    t.do("knock_out", player=2, spot="active")
    t.refuse("knock_out", "no_active", "§19", player=2, spot="active")


def test_without_an_active_at_the_start_of_their_turn_a_player_places_one_or_loses_by_field_break():
    t = started([1, 2, 3], benches={2: 1})
    t.do("move", player=1, kind="forced", target=2, to_active="creature")  # 2's former Active is Bench Locked
    t.do("knock_out", player=2, spot="active", replacement="none")
    t.do("knock_out", player=3, spot="active")
    t.do("end_turn", player=1)
    t.refuse("start_turn", "missing_field", None, player=2)
    t.refuse("start_turn", "replacement_required", "§19", player=2, new_active="none")
    t.do("start_turn", player=2, new_active="creature")  # Bench Lock has lifted
    t.do("end_turn", player=2)
    t.refuse("start_turn", "not_on_bench", "§19", player=3, new_active="creature")
    t.do("start_turn", player=3, new_active="none")
    assert t.p(3)["out"] and t.p(3)["out_reason"] == "field break" and t.p(3)["placement"] == 3


def test_a_basic_from_hand_saves_a_player_from_field_break_and_an_active_player_names_none():
    t = started()
    t.do("knock_out", player=2, spot="active")
    t.do("end_turn", player=1)
    t.do("start_turn", player=2, new_active="hand")
    assert t.p(2)["active"] == "creature"
    t.do("end_turn", player=2)
    t.refuse("start_turn", "invalid_field", "§19", player=1, new_active="hand")


def test_deck_out_is_the_draw_at_the_start_of_the_turn():
    t = started([1, 2])
    t.do("play_support", player=1, kind="item")
    t.refuse("deck_out", "not_draw_phase", "§3.2", player=1)
    t.refuse("deck_out", "not_your_turn", "§3.2", player=2)
    t.turn(2)
    t.do("deck_out", player=2)
    assert t.state["result"]["placements"] == {"1": 1, "2": 2}


# --- §18 Status Conditions ------------------------------------------------------------------------------
# §18: "Only one Status Condition may affect Creatures at a time. Status Conditions: - last a maximum of two turns
# - cannot be immediately reapplied after removal"


def test_a_status_condition_goes_on_the_active_with_the_turn_it_was_applied_in():
    t = started([1, 2])
    t.do("apply_status_condition", player=2, condition="poisoned")
    assert t.p(2)["status_condition"] == {"condition": "poisoned", "turn": t.state["turn"]["number"]}
    t.refuse("apply_status_condition", "invalid_field", "event", player=2, condition="frozen")
    t.do("end_turn", player=1)
    t.refuse("apply_status_condition", "no_turn_in_progress", "§10", player=1, condition="asleep")


def test_only_one_status_condition_may_affect_a_creature_at_a_time_but_each_creature_may_have_one():
    # "Only one Status Condition may affect Creatures at a time": read as one per Creature.
    t = started([1, 2, 3])
    t.do("apply_status_condition", player=2, condition="poisoned")
    t.refuse("apply_status_condition", "status_condition_present", "§18", player=2, condition="burned")
    t.refuse("apply_status_condition", "status_condition_present", "§18", player=2, condition="poisoned")
    t.do("apply_status_condition", player=3, condition="burned")
    assert (t.p(2)["status_condition"]["condition"], t.p(3)["status_condition"]["condition"]) == ("poisoned", "burned")


def test_a_status_condition_lasts_the_turn_it_is_applied_in_and_the_next_players_turn_then_expires():
    # "last a maximum of two turns": every player's turn counts, the one it was applied in first.
    t = started([1, 2, 3])
    applied = t.state["turn"]["number"]
    t.do("apply_status_condition", player=3, condition="asleep")
    t.turn(2)  # the second turn: player 2's, not the owner's
    assert t.p(3)["status_condition"] == {"condition": "asleep", "turn": applied}
    t.do("end_turn", player=2)  # the end of the second turn
    assert t.p(3)["status_condition"] is None
    assert t.p(3)["status_locked"] == ["asleep"]


def test_a_status_condition_applied_in_its_owners_turn_expires_at_the_end_of_the_next_players_turn():
    t = started([1, 2])
    t.do("apply_status_condition", player=1, condition="confused")
    t.turn(2)
    assert t.p(1)["status_condition"]["condition"] == "confused"
    t.turn(1)
    assert t.p(1)["status_condition"] is None


def test_two_turns_count_a_turn_that_ended_when_its_player_went_out():
    t = started([1, 2, 3], options={"game_end": "last_standing"})
    t.do("apply_status_condition", player=3, condition="burned")
    t.turn(2)
    t.do("concede", player=2)  # player 2's turn ends without end_turn
    t.do("start_turn", player=3)
    assert t.p(3)["status_condition"] is None


def test_a_status_condition_cannot_be_reapplied_to_that_creature_until_its_owners_next_turn():
    # "cannot be immediately reapplied after removal": "immediate" as the glossary's Bench Lock ("A restriction
    # preventing immediate return to the Active Spot"), which §13.1 makes last "until your next turn".
    t = started([1, 2, 3])
    t.do("apply_status_condition", player=2, condition="paralyzed")
    t.do("remove_status_condition", player=2, condition="paralyzed")
    assert (t.p(2)["status_condition"], t.p(2)["status_locked"]) == (None, ["paralyzed"])
    t.refuse("apply_status_condition", "status_condition_reapplied", "§18", player=2, condition="paralyzed")
    t.turn(2)  # its owner's next turn lifts the lock
    assert t.p(2)["status_locked"] == []
    t.do("apply_status_condition", player=2, condition="paralyzed")


def test_another_status_condition_may_follow_a_removed_one_at_once():
    t = started([1, 2])
    t.do("apply_status_condition", player=2, condition="poisoned")
    t.do("remove_status_condition", player=2)
    t.do("apply_status_condition", player=2, condition="burned")
    t.do("remove_status_condition", player=2)
    assert t.p(2)["status_locked"] == ["poisoned", "burned"]
    t.refuse("apply_status_condition", "status_condition_reapplied", "§18", player=2, condition="poisoned")


def test_an_expired_status_condition_cannot_be_reapplied_before_its_owners_next_turn():
    t = started([1, 2, 3])
    t.do("apply_status_condition", player=3, condition="poisoned")
    t.turn(2)
    t.turn(3)  # expired at the end of player 2's turn; player 3's own turn lifts the lock
    assert (t.p(3)["status_condition"], t.p(3)["status_locked"]) == (None, [])
    t.do("apply_status_condition", player=3, condition="poisoned")
    t.turn(1)
    t.turn(2)
    t.refuse("apply_status_condition", "status_condition_reapplied", "§18", player=3, condition="poisoned")


def test_removing_a_status_condition_the_active_does_not_have_is_refused():
    t = started([1, 2])
    t.refuse("remove_status_condition", "no_status_condition", "§18", player=2)
    t.do("apply_status_condition", player=2, condition="asleep")
    t.refuse("remove_status_condition", "no_status_condition", "§18", player=2, condition="burned")


def test_a_status_condition_needs_an_active():
    t = started([1, 2])
    t.do("knock_out", player=2, spot="active")
    t.refuse("apply_status_condition", "no_active", "§18", player=2, condition="asleep")


@pytest.mark.parametrize(
    ("type_", "data"),
    [
        ("knock_out", {"spot": "active", "replacement": "creature"}),
        ("leave_play", {"spot": "active", "replacement": "creature"}),
        ("move", {"kind": "switch", "to_active": "creature"}),
    ],
)
def test_a_creature_leaving_the_active_spot_loses_its_status_condition_and_its_lock(type_, data):
    t = started([1, 2], benches={2: 1})
    t.do("apply_status_condition", player=2, condition="burned")
    t.do("remove_status_condition", player=2)
    t.do("apply_status_condition", player=2, condition="poisoned")
    t.do(type_, player=2, **data)
    assert (t.p(2)["status_condition"], t.p(2)["status_locked"]) == (None, [])
    t.do("apply_status_condition", player=2, condition="burned")  # another Creature: no lock


def test_a_master_returning_to_the_master_zone_loses_its_status_condition():
    # §8.3: "When your Master returns to the Master Zone: [...] status conditions are removed."
    t = started([1, 2])
    t.do("knock_out", player=1, spot="active", replacement="none")
    t.do("gain_energy", player=1, amount=5)
    t.do("deploy_master", player=1, to="active")
    t.do("apply_status_condition", player=1, condition="asleep")
    t.do("leave_play", player=1, spot="active", creature="master", replacement="none")
    assert (t.p(1)["master"], t.p(1)["status_condition"]) == ("zone", None)


def test_a_state_from_before_status_conditions_existed_still_plays():
    t = started([1, 2])
    for p in t.state["players"]:
        del p["status_condition"], p["status_locked"]
    t.do("apply_status_condition", player=2, condition="asleep")
    t.turn(2)
    t.do("end_turn", player=2)
    assert t.p(2)["status_condition"] is None


# --- card text over the rulebook: Creatures put into play by effects -------------------------------------
# §3: "Card text always overrides the rulebook."  §11.1: "Item cards may be played: - during any player's turn
# [...] - in response to effects".


def test_an_item_may_bench_a_creature_in_another_players_turn_but_a_creature_from_hand_may_not():
    t = started([1, 2])
    t.do("play_support", player=2, kind="item")
    t.do("play_creature", player=2, to="bench", by_effect=True)
    assert t.p(2)["bench"] == 1
    t.refuse("play_creature", "not_your_turn", "§10", player=2, to="bench")
    t.refuse("play_creature", "not_your_turn", "§10", player=2, to="bench", by_effect=False)


def test_a_creature_put_into_play_by_an_effect_keeps_the_board_limits():
    t = started([1, 2], benches={2: 5})
    t.refuse("play_creature", "bench_full", "§7", player=2, to="bench", by_effect=True)
    t.refuse("play_creature", "active_occupied", "§7", player=2, to="active", by_effect=True)
    t.do("attack", player=1, target=2, damage=10)  # in the battle, too: an effect in response
    t.do("knock_out", player=2, spot="bench")
    t.do("play_creature", player=2, to="bench", by_effect=True)
    t.refuse("play_creature", "invalid_field", "event", player=2, to="bench", by_effect="yes")


def test_a_creature_put_into_play_by_an_effect_needs_a_turn_in_progress():
    t = started([1, 2])
    t.do("end_turn", player=1)
    t.refuse("play_creature", "no_turn_in_progress", "§10", player=2, to="bench", by_effect=True)


# --- what the engine says: phrases (rules.speech), English here, said in the reader's language on a page ---------

FRENCH = {
    "%(player)s's Active is already poisoned: only one Status Condition at a time.": (
        "L'Actif de %(player)s est déjà empoisonné : une seule Condition Spéciale à la fois."
    ),
    "%(player)s has %(count)s Source not Exhausted.": "%(player)s a %(count)s Source non Épuisée.",
    "%(player)s has %(count)s Sources not Exhausted.": "%(player)s a %(count)s Sources non Épuisées.",
    "The Active is a creature, not a master.": "L'Actif est une créature, pas un Maître.",
    "player %(id)s": "joueur %(id)s",
}


@pytest.fixture
def french():
    with speaking(FRENCH):
        yield


def test_a_refusal_is_one_whole_sentence_said_in_the_readers_language_with_the_players_names(french):
    t = started([1, 2])
    t.do("apply_status_condition", player=2, condition="poisoned")
    present = t.refuse("apply_status_condition", "status_condition_present", player=2, condition="burned")
    assert present.message == "Player 2's Active is already poisoned: only one Status Condition at a time."
    assert say(present.message, names={2: "Misty"}) == (
        "L'Actif de Misty est déjà empoisonné : une seule Condition Spéciale à la fois."
    )
    # A count: the language's plural; and a kind of Creature is part of the sentence, never a word glued in.
    one = t.refuse("exhaust_energy_source", "not_enough_sources", player=1, count=9)
    assert t.p(1)["sources"] == 1 and one.message == "Player 1 has 1 Source not Exhausted."
    assert say(one.message) == "Joueur 1 a 1 Source non Épuisée."
    t.sources(1, 2)
    assert say(t.refuse("exhaust_energy_source", "not_enough_sources", player=1, count=9).message) == (
        "Joueur 1 a 3 Sources non Épuisées."
    )
    wrong_kind = t.refuse("knock_out", "invalid_field", player=1, spot="active", creature="master")
    assert wrong_kind.as_dict()["template"] == "The Active is a creature, not a master."
    assert say_stored(wrong_kind.as_dict()) == "L'Actif est une créature, pas un Maître."


# --- replay and JSON properties ------------------------------------------------------------------------

PLAYER_SETS = [[1, 2], [1, 2, 3], [4, 3, 2, 1]]
KIND = st.sampled_from(["creature", "master", "paragon"])


STATUS = st.sampled_from(["asleep", "burned", "confused", "paralyzed", "poisoned"])


def _event(data: st.DataObject, state: State, ids: list[int]) -> GameEvent:
    """A random event, biased towards the turn player and towards events that are often legal."""
    turn_player = state["turn"]["player"]
    pid = data.draw(st.sampled_from(ids + [turn_player] * 3 if turn_player is not None else ids))
    other = data.draw(st.sampled_from(ids))
    kind = data.draw(
        st.sampled_from(
            ["next_turn"] * 5
            + ["attack"] * 3
            + ["energy"] * 4
            + ["support", "stadium", "creature", "creature", "master", "paragon", "paragon", "release", "move"]
            + ["move", "ko", "ko", "leave", "heal", "life", "exhaust", "lose", "deck_out", "discard_stadium", "common"]
            + ["status", "status", "clear_status"]
        )
    )
    if kind == "deck_out" and data.draw(st.booleans()) or state["phase"] not in IN_TURN and data.draw(st.booleans()):
        kind = "next_turn"
    if kind == "next_turn":
        current = next((p for p in state["players"] if p["id"] == turn_player), None)
        if state["phase"] in IN_TURN and not current["out"]:
            extras = [{}, {"replacement": "creature"}, {"drain_source": "ready"}, {"drain_source": "exhausted"}]
            extra = data.draw(st.sampled_from(extras if current["paragon"] == "deployed" else [{}]))
            return GameEvent("end_turn", {"player": turn_player, **extra})
        upcoming = next(p for p in state["players"] if p["id"] == _next(state))
        choices = (
            ["creature", "hand", "none", "master", "paragon"] if upcoming["active"] is None else [None] * 5 + ["hand"]
        )
        choice = data.draw(st.sampled_from(choices))
        extra = {} if choice is None else {"new_active": choice}
        return GameEvent("start_turn", {"player": upcoming["id"], **extra})
    if kind == "attack":
        return GameEvent(
            "attack",
            {
                "player": turn_player or pid,
                "target": other,
                "damage": data.draw(st.integers(0, 160)),
                "cost": data.draw(st.integers(0, 2)),
            },
        )
    if kind == "energy":
        return data.draw(
            st.sampled_from(
                [
                    GameEvent("play_energy_source", {"player": pid}),
                    GameEvent("play_energy_source", {"player": pid, "by_effect": True}),
                    GameEvent("play_energy_source", {"player": pid, "by_effect": True}),
                    GameEvent("gain_energy", {"player": pid, "amount": 4}),
                    GameEvent("spend_energy", {"player": pid, "amount": 1}),
                ]
            )
        )
    if kind == "support":
        return GameEvent(
            "play_support", {"player": pid, "kind": data.draw(st.sampled_from(["item", "supporter", "tool"]))}
        )
    if kind == "stadium":
        return GameEvent("play_stadium", {"player": pid})
    if kind == "creature":
        fields = {"player": pid, "to": data.draw(st.sampled_from(["bench", "active"]))}
        return GameEvent("play_creature", fields | data.draw(st.sampled_from([{}, {}, {"by_effect": True}])))
    if kind == "status":
        return GameEvent("apply_status_condition", {"player": pid, "condition": data.draw(STATUS)})
    if kind == "clear_status":
        return GameEvent("remove_status_condition", {"player": pid})
    if kind == "master":
        return GameEvent("deploy_master", {"player": pid, "to": data.draw(st.sampled_from(["bench", "active"]))})
    if kind == "paragon":
        return GameEvent("ascend_paragon", {"player": pid})
    if kind == "release":
        return GameEvent("release", {"player": pid})
    if kind == "move":
        move_kind = data.draw(st.sampled_from(["retreat", "switch", "forced"]))
        return GameEvent("move", {"player": pid, "kind": move_kind, "target": other, "to_active": data.draw(KIND)})
    if kind in {"ko", "leave"}:
        fields = {"player": pid, "spot": data.draw(st.sampled_from(["active", "bench"]))}
        fields |= data.draw(
            st.fixed_dictionaries(
                {},
                optional={"creature": KIND, "replacement": st.sampled_from(["creature", "master", "paragon", "none"])},
            )
        )
        return GameEvent("knock_out" if kind == "ko" else "leave_play", fields)
    if kind == "heal":
        source = data.draw(st.sampled_from(["item", "support", "attack", "ability", "passive"]))
        return GameEvent("heal", {"player": pid, "amount": data.draw(st.integers(1, 120)), "source": source})
    if kind == "life":
        return GameEvent("adjust_life", {"player": pid, "amount": data.draw(st.integers(-80, 30)), "reason": "effect"})
    if kind == "exhaust":
        return GameEvent("exhaust_energy_source", {"player": pid, "count": data.draw(st.integers(1, 2))})
    if kind == "lose":
        return GameEvent("lose_energy_source", {"player": pid, "exhausted": data.draw(st.booleans())})
    if kind == "deck_out":
        return GameEvent("deck_out", {"player": pid})
    if kind == "discard_stadium":
        return GameEvent("discard_stadium", {})
    if data.draw(st.integers(0, 9)) < 9:
        return GameEvent("ruling_note", {"text": "judge call", "player": pid})
    return data.draw(
        st.sampled_from(
            [
                GameEvent("concede", {"player": pid}),
                GameEvent("game_loss", {"player": pid, "reason": "penalty"}),
                GameEvent("disqualify", {"player": pid, "reason": "conduct"}),
                GameEvent("intentional_draw", {}),
                GameEvent(
                    "time_called",
                    {"placements": {str(p["id"]): 1 for p in state["players"] if not p["out"]}, "reason": "time"},
                ),
            ]
        )
    )


def _check_invariants(state: State) -> None:
    for p in state["players"]:
        assert 0 <= p["life"] <= 200
        assert p["pool"] >= 0
        assert 0 <= p["sources_exhausted"] <= p["sources"] and 0 <= p["sources_new"] <= p["sources"]
        assert 0 <= p["bench"] <= 5
        generic = p["bench"] - (p["master"] == "bench") - (p["paragon"] == "deployed" and p["active"] != "paragon")
        assert 0 <= p["bench_locked"] <= generic
        assert (p["master"] == "active") == (p["active"] == "master")
        assert p["active"] != "paragon" or p["paragon"] == "deployed"
        assert p["paragon"] == "none" or p["ascended"]
        assert p["turn_attacks"] <= 1 and p["turn_sources_played"] <= 1 and p["turn_stadiums"] <= 1
        assert p["turn_support_actions"] <= 3 and p["turn_movements"] <= 2 and p["turn_echo"] <= 50
        assert all(counter in p for counter in TURN_COUNTERS)
        assert p["out"] or p["life"] > 0
        status = p["status_condition"]
        assert status is None or p["active"] is not None, "a Status Condition is the Active's"
        assert status is None or status["turn"] >= state["turn"]["number"] - 1, "§18: two turns at most"
    if state["status"] == "finished":
        assert all(p["placement"] is not None for p in state["players"])


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), ids=st.sampled_from(PLAYER_SETS))
def test_replaying_the_accepted_log_of_a_random_legal_game_gives_the_same_state(data, ids):
    state = ENGINE.new_game(ids)
    log: list[GameEvent] = []
    if data.draw(st.booleans(), label="rich"):
        # Energy-rich games reach Ascension and Paragon Drain: every player gets 8 more Sources on turn 1.
        prefix = [ev("start_turn", player=ids[0])] + [
            ev("play_energy_source", player=pid, by_effect=True) for pid in ids
        ] * 8
        for event in prefix:
            state = ENGINE.apply(state, event)
        log.extend(prefix)
    for _ in range(200):
        if state["status"] == "finished":
            break
        event = _event(data, state, ids)
        before = copy.deepcopy(state)
        try:
            new = ENGINE.apply(state, event)
        except RuleViolation:
            assert state == before
            continue
        assert state == before, f"{event.type} mutated its input"
        assert new["seq"] == state["seq"] + 1
        _check_invariants(new)
        state = new
        log.append(event)
    assert replay(ENGINE, ids, None, log) == state
    assert json.loads(json.dumps(state)) == state
