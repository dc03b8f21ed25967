"""The deck-masters engine: one duel with Deck Masters, and the best-of-three match helper."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import speech
from rules.deck_masters.engine import ENGINE, match_result
from rules.engine import COMMON_VOCABULARY, GameEvent, RuleViolation, State, replay
from tests.support.games.deck_masters import A, B, E, end, scripted_duel, start, summon
from tests.support.speech import speaking


def play(events: Iterable[GameEvent], state: State | None = None, options: dict | None = None) -> State:
    state = state if state is not None else ENGINE.new_game([A, B], options)
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


def lp(**changes: int) -> GameEvent:
    return E("lp_change", {"changes": {{"a": A, "b": B}[k]: v for k, v in changes.items()}})


DAMAGE_STEP = [E("phase", {"phase": "battle", "step": "battle"}), E("phase", {"phase": "battle", "step": "damage"})]
MAIN1 = E("phase", {"phase": "main1"})


@pytest.fixture
def in_turn() -> State:
    return play([start(A)])


# --- setup ------------------------------------------------------------------------------------------


def test_a_new_duel_gives_each_player_8000_lp_and_a_deck_master_in_its_position():
    state = ENGINE.new_game([A, B], {"deck_masters": {A: "Summoned Skull", str(B): "Kuriboh"}})
    assert [p["lp"] for p in state["players"]] == [8000, 8000]
    assert state["players"][0]["deck_master"] == {"card": "Summoned Skull", "location": "position", "position": None}
    assert state["players"][1]["deck_master"]["card"] == "Kuriboh"
    assert state["status"] == "in_progress" and state["seq"] == 0
    assert json.loads(json.dumps(state)) == state


def test_the_vocabulary_includes_the_common_judge_actions():
    assert set(COMMON_VOCABULARY) <= set(ENGINE.VOCABULARY)
    assert {"deck_master_summon", "deck_master_replace", "deck_master_lost", "phase"} <= set(ENGINE.VOCABULARY)
    assert ENGINE.slug == "deck-masters"


@pytest.mark.parametrize(
    "options",
    [{"starting_lp": 4000}, {"deck_masters": {99: "Kuriboh"}}, {"deck_masters": {A: ""}}, {"deck_masters": ["x"]}],
)
def test_it_refuses_unknown_or_bad_options(options):
    with pytest.raises(RuleViolation) as info:
        ENGINE.new_game([A, B], options)
    assert info.value.code == "invalid_option"


@pytest.mark.parametrize("players", [[A], [A, B, 11], [A, "b"]])
def test_a_duel_is_between_exactly_two_players(players):
    with pytest.raises(RuleViolation) as info:
        ENGINE.new_game(players)
    assert info.value.code == "invalid_players"


# --- a full scripted duel -----------------------------------------------------------------------------


def from_json(value):
    """``value`` as the games service reads it back from the database: JSON, so dict keys are strings."""
    return json.loads(json.dumps(value))


def test_a_scripted_duel_ends_when_a_deck_master_is_destroyed_by_battle():
    state = play(scripted_duel())
    assert state["status"] == "finished"
    assert state["result"]["placements"] == {str(A): 1, str(B): 2}
    assert state["players"][1]["lp"] == 5500 and state["players"][0]["lp"] == 7300
    assert state["players"][1]["replacements"] == 1
    assert state["seq"] == 21


def test_the_scripted_duel_ends_the_same_when_its_events_and_states_come_back_from_json():
    events = scripted_duel()
    direct = replay(ENGINE, [A, B], None, events)
    assert direct["result"]["placements"] == {str(A): 1, str(B): 2}
    assert from_json(direct) == direct, "the snapshot must survive the database unchanged"
    stored = ENGINE.new_game([A, B])
    for event in events:
        stored = from_json(ENGINE.apply(stored, GameEvent(event.type, from_json(event.data))))
    assert stored == direct
    # LP changes and time called keyed by int ids or by the strings JSON makes of them end the same.
    halfway = replay(ENGINE, [A, B], None, events[:8])
    for event in (
        E("lp_change", {"changes": {A: -8000, B: -100}}),
        E("time_called", {"placements": {A: 2, B: 1}, "reason": "higher LP"}),
    ):
        ended = ENGINE.apply(halfway, event)
        assert ended["status"] == "finished"
        assert from_json(ENGINE.apply(from_json(halfway), E(event.type, from_json(event.data)))) == from_json(ended)


# --- turns and phases ---------------------------------------------------------------------------------


def test_the_first_turn_belongs_to_the_first_player():
    refused(ENGINE.new_game([A, B]), start(B), "not_your_turn")


def test_turns_alternate_and_a_turn_must_end_before_the_next():
    state = play([start(A)])
    refused(state, start(B), "turn_in_progress")
    refused(state, end(B), "not_your_turn")
    state = play([end(A)], state)
    refused(state, start(A), "not_your_turn")
    assert play([start(B)], state)["turn"] == {"number": 2, "player": B}


def test_events_between_turns_are_refused():
    state = ENGINE.new_game([A, B])
    refused(state, summon(A), "no_turn")
    refused(state, lp(a=-100), "no_turn")
    refused(state, E("phase", {"phase": "main1"}), "no_turn")


def test_phases_only_move_forward(in_turn):
    state = play([E("phase", {"phase": "main2"})], in_turn)
    refused(state, E("phase", {"phase": "battle"}), "phase_order")
    refused(state, E("phase", {"phase": "main2"}), "phase_order")
    refused(in_turn, E("phase", {"phase": "lunch"}), "invalid_field")
    refused(in_turn, E("phase", {"phase": "main1", "step": "damage"}), "invalid_field")


def test_battle_steps_follow_the_battle_phase_order(in_turn):
    refused(in_turn, E("phase", {"phase": "battle", "step": "damage"}), "phase_order")
    state = play(DAMAGE_STEP, in_turn)
    assert (state["phase"], state["step"]) == ("battle", "damage")
    # After damage, play returns to the Battle Step for the next attack.
    state = play([E("phase", {"phase": "battle", "step": "battle"})], state)
    refused(state, E("phase", {"phase": "battle", "step": "start"}), "phase_order")
    refused(state, E("phase", {"phase": "battle"}), "phase_order")


def test_unknown_events_and_bad_fields_are_refused(in_turn):
    refused(in_turn, E("draw_card", {"player": A}), "unknown_event")
    refused(in_turn, E("deck_master_summon", {"position": "attack"}), "missing_field")
    refused(in_turn, E("deck_master_summon", {"player": "A", "position": "attack"}), "invalid_field")
    refused(in_turn, summon(A, "sideways"), "invalid_field")
    refused(in_turn, summon(42), "unknown_player")
    refused(in_turn, E("lp_change", {"changes": {A: 0}}), "invalid_field")
    refused(in_turn, E("lp_change", {"changes": {}}), "invalid_field")
    refused(in_turn, E("lp_change", {"changes": {42: -5}}), "unknown_player")


# --- summoning the Deck Master ------------------------------------------------------------------------


def test_either_player_may_summon_their_deck_master_during_either_turn(in_turn):
    state = play([summon(B, "defense"), summon(A, "attack")], in_turn)
    assert state["players"][1]["deck_master"] == {"card": None, "location": "field", "position": "defence"}
    assert state["players"][0]["deck_master"]["location"] == "field"


def test_a_deck_master_cannot_be_summoned_in_the_damage_step(in_turn):
    state = play(DAMAGE_STEP, in_turn)
    refused(state, summon(B), "damage_step")
    refused(state, summon(A), "damage_step")
    after = play([E("phase", {"phase": "battle", "step": "end"}), summon(B)], state)
    assert after["players"][1]["deck_master"]["location"] == "field"


def test_a_deck_master_ability_may_summon_a_deck_master_in_the_damage_step(in_turn):
    state = play([*DAMAGE_STEP, summon(B, by_ability=True)], in_turn)
    assert state["players"][1]["deck_master"]["location"] == "field"


def test_an_empty_deck_master_position_has_nothing_to_summon(in_turn):
    state = play([summon(A)], in_turn)
    refused(state, summon(A), "deck_master_not_in_position")


def test_a_deck_master_cannot_be_flipped_face_down(in_turn):
    state = play([summon(A)], in_turn)
    refused(state, E("deck_master_position", {"player": A, "position": "face_down"}), "deck_master_face_down")
    changed = play([E("deck_master_position", {"player": A, "position": "defence"})], state)
    assert changed["players"][0]["deck_master"]["position"] == "defence"
    refused(in_turn, E("deck_master_position", {"player": A, "position": "attack"}), "deck_master_not_on_field")


def test_only_an_ability_returns_a_deck_master_to_its_position(in_turn):
    state = play([summon(A)], in_turn)
    refused(state, E("deck_master_return", {"player": A}), "deck_master_return_forbidden")
    refused(in_turn, E("deck_master_return", {"player": A, "ability": "Kuriboh"}), "deck_master_not_on_field")
    back = play([E("deck_master_return", {"player": A, "ability": "Kuriboh"})], state)
    assert back["players"][0]["deck_master"]["location"] == "position"
    assert play([summon(A)], back)["players"][0]["deck_master"]["location"] == "field"


# --- replacing the Deck Master ------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["tribute_summon", "fusion_summon", "ritual_summon"])
def test_a_tribute_fusion_or_ritual_summon_replaces_the_deck_master_on_the_field(in_turn, method):
    state = play(
        [MAIN1, summon(A), E("deck_master_replace", {"player": A, "method": method, "card": "Jinzo"})], in_turn
    )
    me = state["players"][0]
    assert me["deck_master"] == {"card": "Jinzo", "location": "field", "position": "attack"}
    assert me["replacements"] == 1
    # The new Deck Master is on the field: the Deck Master Position stays empty.
    refused(state, summon(A), "deck_master_not_in_position")


def test_losing_the_new_deck_master_loses_the_duel(in_turn):
    state = play(
        [summon(A), E("deck_master_replace", {"player": A, "method": "fusion_summon", "position": "defence"})], in_turn
    )
    state = play([E("deck_master_lost", {"players": [A], "cause": "banished"})], state)
    assert state["result"]["placements"] == {str(A): 2, str(B): 1}


@pytest.mark.parametrize("method", ["tribute_set", "synchro_summon", "cost"])
def test_a_deck_master_cannot_be_tributed_for_anything_else(in_turn, method):
    state = play([summon(A)], in_turn)
    refused(state, E("deck_master_replace", {"player": A, "method": method}), "tribute_not_allowed")


def test_a_tribute_summon_in_defence_is_a_tribute_set_and_is_refused(in_turn):
    state = play([summon(A)], in_turn)
    event = E("deck_master_replace", {"player": A, "method": "tribute_summon", "position": "defence"})
    refused(state, event, "tribute_not_allowed")


def test_the_opponents_deck_master_cannot_be_tributed(in_turn):
    state = play([summon(B)], in_turn)
    event = E("deck_master_replace", {"player": B, "method": "tribute_summon", "by": A})
    refused(state, event, "opponent_deck_master_tribute")


def test_a_deck_master_in_its_position_cannot_be_tributed(in_turn):
    refused(in_turn, E("deck_master_replace", {"player": A, "method": "ritual_summon"}), "deck_master_not_on_field")


# --- winning and losing -------------------------------------------------------------------------------


def test_a_player_whose_deck_master_leaves_the_field_loses_at_once(in_turn):
    state = play([summon(B), E("deck_master_lost", {"players": [B], "cause": "hand"})], in_turn)
    assert state["status"] == "finished"
    assert state["result"]["placements"] == {str(A): 1, str(B): 2}
    assert state["players"][1]["deck_master"]["location"] == "lost"
    refused(state, start(B), "game_over")


def test_both_deck_masters_lost_at_once_is_a_draw(in_turn):
    state = play([summon(A), summon(B), E("deck_master_lost", {"players": [A, B], "cause": "destroyed"})], in_turn)
    assert state["result"]["placements"] == {str(A): 1, str(B): 1}
    assert state["result"]["reason"].startswith("draw")


def test_card_effects_cannot_touch_a_deck_master_in_its_position(in_turn):
    refused(in_turn, E("deck_master_lost", {"players": [B], "cause": "destroyed"}), "deck_master_protected")
    state = play([E("deck_master_lost", {"players": [B], "ability": "Mysterious Puppeteer"})], in_turn)
    assert state["result"]["placements"][str(B)] == 2


# --- Deck Master Abilities ----------------------------------------------------------------------------


def hammerhead(**extra) -> GameEvent:
    return E("activate_ability", {"player": A, **extra})


@pytest.fixture
def hammerhead_turn() -> State:
    return play([start(A)], options={"deck_masters": {A: "Hyper Hammerhead", B: "Goldd, Wu-Lord of Dark World"}})


def test_an_ability_activation_is_recorded_and_cleared_when_the_turn_changes(hammerhead_turn):
    """THE ABILITY: "You can use the Abilities of your Deck Master regardless of where your Deck Master is"."""
    state = play([hammerhead()], hammerhead_turn)
    assert state["players"][0]["abilities_used"] == [
        {"deck_master": "Hyper Hammerhead", "ability": None, "negated": False}
    ]
    on_field = play([summon(B), E("activate_ability", {"player": B, "ability": "Dark World Ruler"})], state)
    assert on_field["players"][1]["abilities_used"][0]["ability"] == "Dark World Ruler"
    after = play([end(A)], on_field)
    assert [p["abilities_used"] for p in after["players"]] == [[], []]
    assert json.loads(json.dumps(on_field)) == on_field


def test_an_ability_cannot_be_activated_in_the_damage_step(hammerhead_turn):
    """THE ABILITY: "If there are no restrictions, then they can be activated at any time except the Damage Step."."""
    state = play(DAMAGE_STEP, hammerhead_turn)
    refused(state, E("activate_ability", {"player": B}), "damage_step")
    # An Ability whose own text lets it activate in the Damage Step (the judge says so) may.
    allowed = play([E("activate_ability", {"player": B, "in_damage_step": True})], state)
    assert len(allowed["players"][1]["abilities_used"]) == 1
    assert play([E("phase", {"phase": "battle", "step": "end"}), hammerhead()], state)["players"][0]["lp"] == 7300


def test_hyper_hammerheads_ability_is_once_per_turn_and_costs_700_lp_even_when_negated(hammerhead_turn):
    """THE ABILITY: "Its Ability can only be activated once per turn by paying 700 Life Points ... The effect of the
    Ability is negated, and I cannot activate the Ability again this turn."."""
    state = play([hammerhead(negated=True)], hammerhead_turn)
    assert state["players"][0]["lp"] == 7300
    assert state["players"][0]["abilities_used"][0]["negated"] is True
    refused(state, hammerhead(), "ability_once_per_turn")
    refused(state, hammerhead(ability="another name"), "ability_once_per_turn")
    # Next turn (the opponent's) it can be activated again.
    state = play([end(A), start(B), hammerhead()], state)
    assert state["players"][0]["lp"] == 6600
    # The rulebook's limits cannot be stated otherwise.
    refused(hammerhead_turn, hammerhead(cost=500), "invalid_field")
    refused(hammerhead_turn, hammerhead(once_per_turn=False), "invalid_field")


def test_an_ability_cost_that_cannot_be_paid_in_full_is_refused():
    """THE ABILITY: "If I have 10,000 Life Points or less, I cannot activate the Ability of “Blast Juggler”."."""
    state = play([start(A)], options={"deck_masters": {A: "Blast Juggler"}})
    refused(state, E("activate_ability", {"player": A}), "cannot_pay_cost")
    refused(state, E("activate_ability", {"player": B, "cost": 8000}), "cannot_pay_cost")


def test_a_deck_master_the_rulebook_does_not_describe_takes_the_limits_the_judge_states(in_turn):
    """THE ABILITY: "Many Abilities have restrictions on ... how often they can be activated (e.g. once per turn)"."""
    free = play([E("activate_ability", {"player": A}), E("activate_ability", {"player": A})], in_turn)
    assert len(free["players"][0]["abilities_used"]) == 2 and free["players"][0]["lp"] == 8000
    once = E("activate_ability", {"player": A, "once_per_turn": True, "cost": 1000})
    state = play([once], in_turn)
    assert state["players"][0]["lp"] == 7000
    refused(state, once, "ability_once_per_turn")
    refused(in_turn, E("activate_ability", {"player": A, "cost": -5}), "invalid_field")


def test_an_ability_cannot_reach_a_deck_master_in_its_position_unless_it_says_so(in_turn):
    """THE ABILITY: "An Ability cannot affect a Deck Master in a Deck Master Position, unless it specifically says it
    can do so." (Goldd, Wu-Lord of Dark World cannot; Mysterious Puppeteer can.)"""
    goldd = E("deck_master_lost", {"players": [B], "cause": "destroyed", "ability": "Goldd, Wu-Lord of Dark World"})
    refused(in_turn, goldd, "deck_master_protected")
    # A sweep by an Ability against both Deck Masters in their Positions does not end the duel a draw.
    refused(in_turn, E("deck_master_lost", {"players": [A, B], "ability": "Some Deck Master"}), "deck_master_protected")
    refused(in_turn, E("deck_master_lost", {"players": [B], "ability": "Goldd, Wu-Lord of Dark World",
                                            "reaches_position": True}), "invalid_field")  # fmt: skip
    # On the field a Deck Master is like any other monster: the Ability destroys it.
    state = play([summon(B), goldd], in_turn)
    assert state["result"]["placements"] == {str(A): 1, str(B): 2}
    # An Ability the rulebook does not describe reaches the Position when the judge says it says so.
    stated = E("deck_master_lost", {"players": [B], "ability": "Some Deck Master", "reaches_position": True})
    assert play([stated], in_turn)["result"]["placements"][str(B)] == 2


def test_a_tribute_summon_replacing_the_deck_master_is_a_normal_summon_in_its_players_main_phase(in_turn):
    """CHANGING YOUR DECK MASTER: "The only ways to replace your Deck Master are to Tribute it for a Tribute Summon"; a
    Tribute Summon is a Normal Summon: its player's own turn, in a Main Phase (standard duel rules)."""
    tribute = E("deck_master_replace", {"player": B, "method": "tribute_summon", "card": "Jinzo"})
    state = play([summon(B)], in_turn)
    refused(state, tribute, "not_your_turn")
    refused(play([MAIN1], state), tribute, "not_your_turn")
    theirs = play([end(A), start(B)], state)
    refused(theirs, tribute, "not_main_phase")
    refused(play([E("phase", {"phase": "battle"})], theirs), tribute, "not_main_phase")
    for phase in ("main1", "main2"):
        replaced = play([E("phase", {"phase": phase}), tribute], theirs)
        assert replaced["players"][1]["deck_master"]["card"] == "Jinzo"
    # A Fusion Summon (by a Quick-Play Spell, say) is not held to it.
    fusion = E("deck_master_replace", {"player": B, "method": "fusion_summon"})
    assert play([fusion], state)["players"][1]["replacements"] == 1


def test_a_deck_master_tributed_outside_a_replacement_is_refused(in_turn):
    state = play([summon(A)], in_turn)
    refused(state, E("deck_master_lost", {"players": [A], "cause": "tributed"}), "tribute_not_allowed")
    refused(state, E("deck_master_lost", {"players": [A], "cause": "eaten"}), "invalid_field")
    refused(state, E("deck_master_lost", {"players": []}), "invalid_field")
    refused(state, E("deck_master_lost", {"players": [A, A]}), "invalid_field")


def test_a_player_at_zero_lp_loses_and_lp_never_goes_below_zero(in_turn):
    state = play([lp(b=-9000)], in_turn)
    assert state["players"][1]["lp"] == 0
    assert state["result"]["placements"] == {str(A): 1, str(B): 2}


def test_both_players_at_zero_lp_at_once_draw(in_turn):
    state = play([lp(a=-8000, b=-8000)], in_turn)
    assert state["result"]["placements"] == {str(A): 1, str(B): 1}


def test_lp_can_be_gained(in_turn):
    assert play([lp(a=500)], in_turn)["players"][0]["lp"] == 8500


def test_an_ability_cost_must_be_paid_in_full_and_leave_lp(in_turn):
    # The rulebook's example: a 10,000 LP cost cannot be paid with 10,000 LP or less.
    state = play([lp(a=2000)], in_turn)
    refused(state, E("lp_change", {"changes": {A: -10000}, "cost": True}), "cannot_pay_cost")
    refused(state, E("lp_change", {"changes": {A: 300}, "cost": True}), "invalid_field")
    assert play([E("lp_change", {"changes": {A: -9999}, "cost": True})], state)["players"][0]["lp"] == 1


# --- common judge actions -----------------------------------------------------------------------------


def test_a_concession_ends_the_duel(in_turn):
    state = play([E("concede", {"player": A})], in_turn)
    assert state["result"]["placements"] == {str(A): 2, str(B): 1}
    refused(state, E("concede", {"player": B}), "game_over")
    noted = ENGINE.apply(state, E("ruling_note", {"text": "signed the slip"}))
    assert noted["notes"][-1]["text"] == "signed the slip" and noted["seq"] == state["seq"] + 1


def test_time_called_records_the_judges_placements(in_turn):
    state = play([E("time_called", {"placements": {A: 1, B: 2}, "reason": "higher LP at end of match"})], in_turn)
    assert state["result"]["placements"] == {str(A): 1, str(B): 2}


def test_a_game_loss_and_an_intentional_draw_end_the_duel(in_turn):
    assert play([E("game_loss", {"player": B, "reason": "marked sleeves"})], in_turn)["result"]["placements"] == {
        str(A): 1,
        str(B): 2,
    }
    assert play([E("intentional_draw", {})], in_turn)["result"]["placements"] == {str(A): 1, str(B): 1}


# --- the match ----------------------------------------------------------------------------------------

WIN_A = {"placements": {str(A): 1, str(B): 2}, "reason": "last player standing (Life Points reached 0)"}
WIN_B = {"placements": {str(A): 2, str(B): 1}, "reason": "last player standing (Life Points reached 0)"}
DRAW = {"placements": {str(A): 1, str(B): 1}, "reason": "draw: Life Points reached 0"}
A_WINS = {str(A): 1, str(B): 2}
B_WINS = {str(A): 2, str(B): 1}
MATCH_DRAW = {str(A): 1, str(B): 1}


@pytest.mark.parametrize(
    ("duels", "expected"),
    [
        ([], None),
        ([WIN_A], None),
        ([WIN_A, WIN_A], A_WINS),
        ([WIN_A, WIN_B], None),
        ([WIN_A, WIN_B, WIN_B], B_WINS),
        ([WIN_A, DRAW], None),
        ([WIN_A, WIN_B, DRAW], None),
        ([WIN_A, WIN_B, DRAW, WIN_A], A_WINS),
        ([WIN_A, DRAW, DRAW], None),
    ],
)
def test_a_match_goes_to_the_first_player_with_two_duel_wins_and_draws_do_not_count(duels, expected):
    assert match_result(duels) == expected


def test_time_called_ends_the_match_on_duel_wins():
    time_a = {"placements": {str(A): 1, str(B): 2}, "reason": "time called: higher LP"}
    time_tied = {"placements": {str(A): 1, str(B): 1}, "reason": "time called: equal LP"}
    assert match_result([WIN_B, time_a]) == MATCH_DRAW
    assert match_result([WIN_A, time_tied]) == A_WINS
    assert match_result([time_tied]) == MATCH_DRAW
    assert match_result([WIN_B, DRAW, time_tied]) == B_WINS


def test_an_intentional_draw_or_a_disqualification_ends_the_match():
    intentional = {"placements": {str(A): 1, str(B): 1}, "reason": "intentional draw"}
    dq = {"placements": {str(A): 2, str(B): 1}, "reason": "last player standing (disqualify)"}
    assert match_result([WIN_A, intentional]) == MATCH_DRAW
    assert match_result([WIN_A, dq]) == B_WINS


def test_the_match_helper_reads_the_engines_results():
    duel = play([start(A), lp(b=-8000)])
    assert match_result([duel["result"], duel["result"]]) == A_WINS


def test_the_match_helper_refuses_inconsistent_results():
    with pytest.raises(ValueError):
        match_result([WIN_A, WIN_A, WIN_B])
    with pytest.raises(ValueError):
        match_result([WIN_A, {"placements": {"1": 1, "2": 2}, "reason": ""}])
    with pytest.raises(ValueError):
        match_result([{"placements": {"1": 1}, "reason": ""}])


# --- the refusals in the reader's language (issue #29) ------------------------------------------------------------

FRENCH = {
    "player %(id)s": "joueur %(id)s",
    "The next turn is %(player)s's.": "Le tour suivant est à %(player)s.",
    "%(player)s has %(lp)s LP and cannot pay %(cost)s.": "%(player)s a %(lp)s LP et ne peut pas payer %(cost)s.",
    "Unknown option: %(options)s.": "Option inconnue : %(options)s.",
    "Unknown options: %(options)s.": "Options inconnues : %(options)s.",
}


@pytest.fixture
def french():
    with speaking(FRENCH):
        yield


def test_a_refusal_is_english_for_every_caller_and_said_again_in_the_readers_language(french, in_turn):
    early = refused(ENGINE.new_game([A, B]), start(B), "not_your_turn")
    assert early.message == f"The next turn is player {A}'s."
    assert speech.say(early.message) == f"Le tour suivant est à joueur {A}."
    assert speech.say(early.message, names={A: "Yugi"}) == "Le tour suivant est à Yugi."

    cost = refused(in_turn, E("lp_change", {"changes": {A: -8000}, "cost": True}), "cannot_pay_cost")
    assert cost.message == f"Player {A} has 8000 LP and cannot pay 8000."
    assert speech.say_stored(cost.as_dict()) == f"Joueur {A} a 8000 LP et ne peut pas payer 8000."

    with pytest.raises(RuleViolation) as info:
        ENGINE.new_game([A, B], {"starting_lp": 4000, "banlist": "none"})
    assert info.value.message == "Unknown options: banlist, starting_lp."
    assert speech.say(info.value.message) == "Options inconnues : banlist, starting_lp."


# --- property: random legal duels replay to the same state --------------------------------------------


def candidates(state: State) -> list[GameEvent]:
    """Events worth trying from ``state``, legal or not: the engine decides."""
    if state["turn"]["player"] is None:
        return [start(A), start(B), summon(A), E("ruling_note", {"text": "between turns"})]
    events: list[GameEvent] = []
    for pid in (A, B):
        events += [end(pid)] * 2
        events += [summon(pid, "attack"), summon(pid, "defence"), summon(pid, by_ability=True)]
        events += [E("deck_master_position", {"player": pid, "position": pos}) for pos in ("attack", "defence")]
        events += [E("deck_master_return", {"player": pid, "ability": "Kuriboh"})]
        events += [E("deck_master_replace", {"player": pid, "method": m}) for m in ("tribute_summon", "fusion_summon")]
        events += [E("lp_change", {"changes": {pid: amount}}) for amount in (-800, -200, 300)]
        events += [E("lp_change", {"changes": {pid: -700}, "cost": True})]
        events += [E("activate_ability", {"player": pid, "once_per_turn": True, "cost": 500})]
    events += [E("phase", {"phase": phase}) for phase in ("draw", "standby", "main1", "battle", "main2", "end")]
    events += [E("phase", {"phase": "battle", "step": step}) for step in ("battle", "damage", "end")] * 2
    events += [E("ruling_note", {"text": "noted"})]
    if state["seq"] % 5 == 0:  # keep the endings rare so duels run long
        events += [E("deck_master_lost", {"players": [A]}), E("deck_master_lost", {"players": [A, B]})]
    return events


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_legal_duels_replay_to_the_same_state(data):
    state = ENGINE.new_game([A, B])
    log: list[GameEvent] = []
    for _ in range(data.draw(st.integers(min_value=1, max_value=80))):
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
    assert replay(ENGINE, [A, B], None, log) == state
    assert json.loads(json.dumps(state)) == state
    if state["status"] == "finished":
        assert sorted(state["result"]["placements"].values()) in ([1, 1], [1, 2])
