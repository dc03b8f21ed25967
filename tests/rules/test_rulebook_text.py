"""Where the rulebook's text is clear, the engines follow the text; a house rule is the event's explicit choice.

One section per place the engines once departed from the text, each citing the sentence it follows.  Pure
tests: no database.
"""

from __future__ import annotations

import json

import pytest

from rules import FORMATS, get_format
from rules.engine import GameEvent, RuleViolation, replay
from rules.master_trainer.engine import ENGINE as MASTER_TRAINER
from rules.mintayn_master.engine import ENGINE as MINTAYN
from rules.mt_silver.engine import ENGINE as MT_SILVER
from rules.options import OptionError
from tests.support.data import rulebook
from tests.support.games.master_trainer import Table
from tests.support.games.mintayn_master import P1, P2, E, attack, end, mana, select, start, summon

# --- Master Trainer: the game ends at the first §3.2 condition -------------------------------------------

GAME_END = "The game immediately ends when any of the following occur: Life Depletion [...] Deck-Out [...] Field Break"


def first_turns(players: list[int], **kwargs) -> Table:
    """Every player has had a first turn (no attacks in it); the first player's second turn is on."""
    t = Table(players, **kwargs)
    t.round()
    t.turn(players[0])
    return t


def test_life_depletion_with_three_players_ends_the_game_at_once():
    # §3.2: "Life Depletion - A player's Life total reaches 0."
    t = first_turns([1, 2, 3])
    t.do("adjust_life", player=3, amount=-30, reason="card effect")
    t.do("adjust_life", player=2, amount=-200, reason="card effect")
    assert t.state["status"] == "finished"
    # The player at 0 places last; the others by Life total: 1 (200) before 3 (170).
    assert t.state["result"]["placements"] == {"1": 1, "3": 2, "2": 3}
    assert "life depletion" in t.state["result"]["reason"] and "§3.2" in t.state["result"]["reason"]
    assert t.refuse("start_turn", "game_over", player=2).rule == "end of game"


def test_deck_out_with_four_players_ends_the_game_and_players_level_on_life_share_a_place():
    # §3.2: "Deck-Out - A player cannot draw a card at the start of their turn."
    t = first_turns([1, 2, 3, 4])
    t.do("adjust_life", player=4, amount=-50, reason="card effect")
    t.turn(2)
    t.do("deck_out", player=2)
    assert t.state["status"] == "finished"
    assert t.state["result"]["placements"] == {"1": 1, "3": 1, "4": 3, "2": 4}


def test_field_break_with_three_players_ends_the_game():
    # §3.2: "Field Break - A player: controls no Active Creatures, controls no Benched Creatures and cannot
    # immediately play a Creatures."
    t = first_turns([1, 2, 3])
    t.do("knock_out", player=2, spot="active", replacement="none")
    t.turn(2, new_active="none")
    assert t.state["status"] == "finished"
    assert t.state["result"]["placements"] == {"1": 1, "3": 1, "2": 3}
    assert "field break" in t.state["result"]["reason"]


def test_a_player_already_out_by_a_judge_action_keeps_their_place_below_the_condition():
    t = first_turns([1, 2, 3, 4])
    t.do("concede", player=4)
    t.do("adjust_life", player=3, amount=-200, reason="card effect")
    assert t.state["result"]["placements"] == {"1": 1, "2": 1, "3": 3, "4": 4}


def test_the_house_rule_plays_on_to_the_last_player_standing():
    t = first_turns([1, 2, 3], options={"game_end": "last_standing"})
    t.do("adjust_life", player=2, amount=-200, reason="card effect")
    assert t.state["status"] == "in_progress" and t.p(2)["out"] and t.p(2)["placement"] == 3
    t.do("adjust_life", player=3, amount=-200, reason="card effect")
    assert t.state["result"]["placements"] == {"1": 1, "3": 2, "2": 3}
    assert replay(MASTER_TRAINER, t.players, {"game_end": "last_standing"}, t.log) == t.state


def test_a_game_ended_by_the_rulebook_replays_the_same_from_json():
    t = first_turns([5, 6, 7])
    t.do("adjust_life", player=7, amount=-200, reason="card effect")
    events = [GameEvent(e.type, json.loads(json.dumps(dict(e.data)))) for e in t.log]
    assert replay(MASTER_TRAINER, t.players, json.loads(json.dumps({"game_end": "immediate"})), events) == t.state


@pytest.mark.parametrize("value", ["to_the_end", True, 1])
def test_game_end_takes_only_the_rulebook_or_the_house_rule(value):
    with pytest.raises(RuleViolation) as info:
        MASTER_TRAINER.new_game([1, 2, 3], {"game_end": value})
    assert info.value.code == "invalid_option" and "immediate or last_standing" in info.value.message


def test_the_option_quotes_the_rulebook_and_is_a_house_rule():
    option = get_format("master-trainer").option("game_end")
    assert option.default == "immediate" and option.house_rule
    assert option.quote.startswith("The game immediately ends when any of the following occur")


# --- Mintayn Master: the Timing Sequence orders every step --------------------------------------------


def mintayn(*events: GameEvent, options: dict | None = None):
    state = MINTAYN.new_game([P1, P2], options)
    for event in events:
        state = MINTAYN.apply(state, event)
    return state


def mintayn_refused(state, event: GameEvent, code: str) -> RuleViolation:
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(RuleViolation) as info:
        MINTAYN.apply(state, event)
    assert info.value.code == code, info.value.as_dict()
    assert json.dumps(state, sort_keys=True) == before
    return info.value


def test_mana_after_a_summon_is_refused_as_the_issue_reported_it():
    # "Mana Step: The active player may place exactly one card from their hand face-down into the Mana Zone
    # [...] Selection Step [...] Main / Spell Phase [...] Summon Phase"
    turn = mintayn(start(P1))
    assert mintayn_refused(turn, summon(P1, "m"), "selection_missing").rule == "Selection Step"
    summoned = mintayn(start(P1), select(P1), summon(P1, "m"))
    refusal = mintayn_refused(summoned, mana(P1), "mana_step_over")
    assert refusal.rule == "Master Format — Timing Sequence; Mana Step"
    assert "Mana Step is over" in refusal.message and "Summon Phase" in refusal.message


#: Each step's action in the turn P2 plays on turn 2 (P2 has a Fluxion monster "f" in play from turn 1).
STEP_ACTIONS = {
    "Mana Step": mana(P2, "fluxion"),
    "Selection Step": select(P2),
    "Main / Spell Phase": E("cast_spell", {"player": P2, "class": "fluxion", "kind": "instant"}),
    "Summon Phase": summon(P2, "new", "fluxion"),
    "Position Step": E("switch_position", {"player": P2, "monster": "f"}),
    "Evolution Step": E("evolve", {"player": P2, "monster": "f"}),
    "Attack Phase": attack(P2, "f", "board"),
}
ORDER = list(STEP_ACTIONS)


def turn_two():
    """Turn 2 has started: P2 has a monster (Special Summoned in P1's turn), nothing else happened."""
    return mintayn(start(P1), select(P1), summon(P2, "f", "fluxion", method="special"), end(P1), start(P2))


@pytest.mark.parametrize(
    ("later", "earlier"),
    [(ORDER[j], ORDER[i]) for j in range(2, len(ORDER)) for i in range(len(ORDER)) if i < j],
)
def test_an_action_of_a_step_that_is_over_is_refused_naming_the_step(later, earlier):
    state = turn_two()
    for step in ("Selection Step", later):
        state = MINTAYN.apply(state, STEP_ACTIONS[step])
    code = "mana_step_over" if earlier == "Mana Step" else "already_selected" if earlier == "Selection Step" else None
    if code is None:
        refusal = mintayn_refused(state, STEP_ACTIONS[earlier], "step_order")
        assert refusal.rule == f"Master Format — Timing Sequence; {earlier}"
        assert f"The {earlier} is over" in refusal.message
    else:
        mintayn_refused(state, STEP_ACTIONS[earlier], code)


def test_every_step_in_order_is_accepted_and_steps_may_be_skipped():
    state = turn_two()
    for event in (
        STEP_ACTIONS["Mana Step"],
        STEP_ACTIONS["Selection Step"],
        STEP_ACTIONS["Main / Spell Phase"],
        STEP_ACTIONS["Summon Phase"],  # monster "new"
        E("switch_position", {"player": P2, "monster": "new"}),
        E("evolve", {"player": P2, "monster": "new"}),
        attack(P2, "f", "board"),
        end(P2),
    ):
        state = MINTAYN.apply(state, event)
    assert state["turn"]["player"] is None
    skipped = MINTAYN.apply(MINTAYN.apply(turn_two(), select(P2)), attack(P2, "f", "board"))
    assert skipped["this_turn"]["step"] == "attack"


def test_effects_belong_to_no_step():
    state = mintayn(start(P1), select(P1), summon(P1, "a"), end(P1), start(P2))
    state = MINTAYN.apply(MINTAYN.apply(state, select(P2)), summon(P2, "b", "fluxion"))
    for effect in (
        summon(P2, "c", "fluxion", method="special"),
        mana(P2, "obscura", effect=True),
        E("lp_change", {"changes": {P1: -100}}),
        E("spend_mana", {"player": P2, "mana": {"obscura": 1}}),
    ):
        state = MINTAYN.apply(state, effect)
    assert state["this_turn"]["step"] == "summon"


def test_a_player_who_cannot_select_passes_the_selection_step():
    state = MINTAYN.apply(mintayn(start(P1)), E("select", {"player": P1, "cannot_select": True}))
    state = MINTAYN.apply(state, summon(P1, "a"))
    assert state["this_turn"]["cannot_select"] and not state["this_turn"]["selected"]
    mintayn_refused(state, select(P1), "already_selected")
    assert MINTAYN.apply(state, end(P1))["turn"]["player"] is None


# --- Mintayn Master: every Balance Lever is an option ---------------------------------------------------


def test_the_accelerated_mana_rate_puts_two_cards_a_turn_in_the_mana_zone():
    # "Mana rate: 1 per turn (default); 2 for accelerated play."
    state = mintayn(start(P1), mana(P1), mana(P1, "obscura"), options={"mana_rate": 2})
    assert state["players"][0]["mana_zone"]["coreon"] == state["players"][0]["mana_zone"]["obscura"] == 1
    assert "2 cards" in mintayn_refused(state, mana(P1, "fluxion"), "mana_already_placed").message
    mintayn_refused(mintayn(start(P1), mana(P1)), mana(P1), "mana_already_placed")


@pytest.mark.parametrize(("limit", "kept", "refused_at"), [(12, 12, 13), (8, 8, 9), (10, 10, 11)])
def test_the_hand_limit_is_the_events_hand_size(limit, kept, refused_at):
    # "Hand size: 10 (default); 8–12 in variant play."
    state = mintayn(start(P1), select(P1), options={"hand_size": limit})
    assert state["hand_limit"] == limit
    assert f"Discard down to {limit}" in mintayn_refused(state, end(P1, refused_at), "hand_limit").message
    assert MINTAYN.apply(state, end(P1, kept))["players"][0]["hand_size"] == kept


def test_the_starting_hands_and_lp_are_the_events():
    # "Starting hand: 7/8 (default); adjust for faster or slower openers." "LP: 6000 (faster), 8000 (default),
    # 10000 (epic)."
    state = MINTAYN.new_game([P1, P2], {"starting_hand": "6/7", "starting_lp": 10000})
    assert [p["hand_size"] for p in state["players"]] == [6, 7]
    assert [p["lp"] for p in state["players"]] == [10000, 10000]


@pytest.mark.parametrize(
    ("options", "allowed"),
    [
        ({"hand_size": 13}, "8 to 12"),
        ({"hand_size": "12"}, "8 to 12"),
        ({"mana_rate": 3}, "1 or 2"),
        ({"starting_hand": "7/9"}, "5/6, 6/7, 7/8, 8/9 or 9/10"),
        ({"starting_lp": 7000}, "6000, 8000 or 10000"),
    ],
)
def test_a_lever_out_of_range_is_refused_with_the_values_allowed(options, allowed):
    with pytest.raises(RuleViolation) as info:
        MINTAYN.new_game([P1, P2], options)
    assert info.value.code == "invalid_option" and allowed in info.value.message
    assert info.value.rule == "Balance Levers & Variants"


def test_every_lever_is_an_option_of_the_format_read_by_the_deck_rules_or_the_engine():
    fmt = get_format("mintayn-master")
    assert {o.name: sorted(u.value for u in o.uses) for o in fmt.options} == {
        "starting_lp": ["game"], "mana_rate": ["game"], "hand_size": ["game"], "starting_hand": ["game"],
        "deck_size": ["deck"],
    }  # fmt: skip
    assert not any(o.house_rule for o in fmt.options)  # the rulebook offers them: variants
    assert fmt.clean_options({"hand_size": 12, "mana_rate": 1}) == {"hand_size": 12}  # the default is not stored
    with pytest.raises(OptionError, match="8 to 12"):
        fmt.clean_options({"hand_size": 7})


# --- Mt. Silver is played by four -------------------------------------------------------------------


def test_a_mt_silver_game_has_four_players_unless_the_event_chose_three_player_pods():
    # Preparation: "To play Mt. Silver, 4 players come together"
    with pytest.raises(RuleViolation) as info:
        MT_SILVER.new_game([1, 2, 3])
    assert info.value.code == "invalid_players" and info.value.rule == "Preparation"
    assert "4 players come together" in info.value.message
    assert len(MT_SILVER.new_game([1, 2, 3, 4])["players"]) == 4
    assert len(MT_SILVER.new_game([1, 2, 3], {"three_player_pods": True})["players"]) == 3
    option = get_format("mt-silver").option("three_player_pods")
    assert option.house_rule and option.default is False


# --- every interpretation in one place ------------------------------------------------------------------


@pytest.mark.parametrize("slug", sorted(FORMATS))
def test_each_format_lists_its_interpretations_and_each_option_has_its_row(slug):
    fmt = get_format(slug)
    assert len(fmt.interpretations) >= 5
    assert {o.name for o in fmt.options} <= {i.option for i in fmt.interpretations}
    assert all(i.rule and i.text and i.choice for i in fmt.interpretations)


def test_the_game_end_row_quotes_section_3_2():
    row = next(i for i in get_format("master-trainer").interpretations if i.option == "game_end")
    assert row.rule == "§3.2" and row.text == GAME_END


@pytest.mark.parametrize("slug", sorted(FORMATS))
def test_every_quote_of_the_options_and_interpretations_is_the_rulebooks_own_words(slug):
    fmt = get_format(slug)
    text = rulebook(fmt.rulebook)
    quotes = [o.quote for o in fmt.options] + [i.text for i in fmt.interpretations if not i.text.startswith("Silent:")]
    for quote in quotes:
        for part in quote.split("[...]"):
            assert " ".join(part.split()).strip(" .") in text, (slug, part)
