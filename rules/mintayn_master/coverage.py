"""Mintayn Master: every rule of ``mintayn-master-format.txt``, its check and test or why it is the judge's call
(see :mod:`rules.coverage`)."""

from __future__ import annotations

from rules.coverage import Coverage, check, follows, judge, rule

DECK = "deck check"
E = "tests/rules/test_engine_mintayn_master.py"
D = "tests/rules/test_deck_rules_mintayn_master.py"
CARD_TEXT = "card text: Mintayn cards print no text and Podium holds no format's abilities, so the judge rules on it"
TABLE = "a table procedure with nothing to record"

#: A heading: a line that is not a list item and holds no sentence (no ".", ":", "!" or "?").
HEADING = r"^(?P<title>[^\s\-][^.:!?\n]*?)[ \t]*$"

#: The headings that state no rule, and why.
_HEADING_ONLY = "a heading with no text of its own: the headings under it state its rules and have their rows"
NOT_RULES: dict[str, str] = {
    "Whitepaper": "the document's kind, part of its title",
    "Master Format – Rulebook": "the rulebook's title",
    "Introduction": "a description of the format (match length, play style, audience), not a rule of play",
    "Core Principles": _HEADING_ONLY,
    "Card Types": _HEADING_ONLY,
    "Evolution & Prime Cards": "a list naming the kinds of card: Evolution Rules, Prime Evolutions and Prime Singulars "
    "state their rules and have their rows",
    "Turn Structure": _HEADING_ONLY,
    "Combat System": _HEADING_ONLY,
    "Special Mechanics": _HEADING_ONLY,
}

ROWS = (
    rule(
        "Win Condition",
        "Reduce opponent’s LP from 8000 (default) to 0.",
        follows("`lp_change`", f"{E}::test_a_player_at_zero_lp_loses_and_lp_never_go_below_zero"),
    ),
    rule(
        "Win Condition",
        "No deck-out win or loss: the game continues even if you cannot select.",
        follows(
            "`end_turn` (`cannot_select`)", f"{E}::test_a_player_who_cannot_select_ends_the_turn_and_does_not_lose"
        ),
    ),
    rule(
        "Deck Size & Construction",
        "60 cards total (Monsters, Spells, Counters in one deck).",
        check("deck_size", DECK, f"{D}::test_a_deck_of_other_than_60_cards_is_a_deck_size_violation"),
    ),
    rule(
        "Deck Size & Construction",
        "Copy limit: up to 3 copies of each card.",
        check("copy_limit", DECK, f"{D}::test_four_copies_of_a_card_even_on_two_lines_are_a_copy_limit_violation"),
    ),
    rule(
        "Deck Size & Construction",
        "Exceptions: Prime Evolutions and Prime Singulars are 1× (singleton).",
        check(
            "prime_singleton",
            DECK,
            f"{D}::test_two_copies_of_a_prime_evolution_or_prime_singular_are_a_prime_singleton_violation",
        ),
    ),
    rule(
        "Selection (No Random Draws)",
        "At the start of your turn, you select 1 card from your deck and add it to your hand.",
        check("already_selected", "`select`", f"{E}::test_the_turn_player_selects_exactly_one_card"),
        check("selection_missing", "`end_turn`", f"{E}::test_the_turn_player_selects_exactly_one_card"),
    ),
    judge("Monster Cards", "Up to 4 attacks, each with:", CARD_TEXT),
    judge("Monster Cards", "Condition (e.g., “requires ≥3 mana of same class,” “usable once per game”).", CARD_TEXT),
    judge("Attacks", "Each monster has up to 4 attack options.", CARD_TEXT),
    rule(
        "Spell Cards",
        "Require mana to cast; are class-bound (need a matching monster).",
        check("no_matching_monster", "`cast_spell`", f"{E}::test_spells_and_counters_need_a_monster_of_their_class"),
        check("not_enough_mana", "`cast_spell`", f"{E}::test_costs_cannot_exceed_the_mana_available"),
    ),
    rule(
        "Counter Cards",
        "Playable only on the opponent’s turn or during combat windows.",
        check("counter_not_allowed", "`counter`", f"{E}::test_counters_are_played_on_the_opponents_turn_or_in_combat"),
    ),
    rule(
        "Field & Zones",
        "Monster Zone: up to 7 monsters simultaneously.",
        check("monster_zone_full", "`summon`", f"{E}::test_the_monster_zone_holds_at_most_seven_monsters"),
    ),
    rule(
        "Field & Zones",
        "Hand: max 10 cards at end of turn.",
        check("hand_limit", "`end_turn`", f"{E}::test_the_hand_is_at_most_ten_cards_at_the_end_of_the_turn"),
    ),
    judge("Game Setup", "Shuffle decks (integrity only).", TABLE),
    rule(
        "Game Setup",
        "First-turn restriction: P1 cannot attack on turn 1.",
        check("first_turn_attack", "`attack`", f"{E}::test_p1_cannot_attack_on_turn_one"),
    ),
    rule(
        "Mana Step",
        "At the start of your turn, you may place 1 card from hand face-down into your Mana Zone.",
        check("mana_already_placed", "`mana_place`", f"{E}::test_one_card_a_turn_goes_to_the_mana_zone"),
        check("mana_step_over", "`mana_place`", f"{E}::test_mana_is_placed_in_the_mana_step_before_the_selection"),
    ),
    rule(
        "Summon Phase",
        "Normal Summon: once per turn, you may summon a monster without mana cost if ≤ Level 3.",
        check("normal_summon_used", "`summon`", f"{E}::test_one_normal_summon_a_turn_of_level_three_or_lower"),
        check("normal_summon_level", "`summon`", f"{E}::test_one_normal_summon_a_turn_of_level_three_or_lower"),
    ),
    judge(
        "Summon Phase",
        "Special Summon: only if effects allow.",
        "card effects: the engine records a Special Summon on either turn and the judge rules that an effect allows it",
    ),
    rule(
        "Position Step",
        "May change AP↔DP once per monster per turn (but switched monsters cannot attack this turn).",
        check("already_switched", "`switch_position`", f"{E}::test_a_monster_switches_position_at_most_once_a_turn"),
        check("switched_this_turn", "`attack`", f"{E}::test_a_monster_cannot_attack_the_turn_it_switched_position"),
    ),
    rule(
        "Evolution Step (optional)",
        "Once per turn globally, evolve 1 monster by paying its cost.",
        check("evolution_used", "`evolve`", f"{E}::test_one_evolution_a_turn_and_none_past_the_third_stage"),
    ),
    rule(
        "Evolution Step (optional)",
        "The evolved monster cannot attack this turn.",
        check("evolved_this_turn", "`attack`", f"{E}::test_a_monster_cannot_attack_the_turn_it_evolved"),
    ),
    rule(
        "Attack Phase",
        "Each monster may declare 1 attack per turn (choose 1 of its available attacks).",
        check("already_attacked", "`attack`", f"{E}::test_each_monster_attacks_at_most_once_a_turn"),
    ),
    rule(
        "Direct Attacks",
        "If opponent controls no monsters, monsters may attack LP directly.",
        check(
            "direct_attack_blocked",
            "`attack`",
            f"{E}::test_lp_are_attacked_directly_only_when_the_opponent_has_no_monsters",
        ),
    ),
    judge(
        "Evolution Rules",
        "Evolve only face-up monsters.",
        "the engine does not track face-down monsters (Mintayn monsters are played face-up); the judge rules on it",
    ),
    rule(
        "Evolution Rules",
        "Evolved monster cannot attack this turn.",
        check("evolved_this_turn", "`attack`", f"{E}::test_a_monster_cannot_attack_the_turn_it_evolved"),
    ),
    rule(
        "Prime Evolutions",
        "Cannot attack the turn they are evolved.",
        check("evolved_this_turn", "`attack`", f"{E}::test_a_monster_cannot_attack_the_turn_it_evolved"),
    ),
    rule(
        "Prime Singulars",
        "Conditions: must control ≥2 monsters and meet its printed condition (e.g., ≤2000 LP).",
        check(
            "prime_singular_condition", "`summon`", f"{E}::test_a_prime_singular_needs_two_monsters_and_may_replace_one"
        ),
    ),
    judge(
        "Chains & Counterplay",
        "Only Counters create chains.",
        "nothing to refuse: only the `counter` event opens or adds a chain link, no other event can",
    ),
    rule(
        "Chains & Counterplay",
        "Cap: 3 links per player (6 total).",
        check("chain_cap", "`counter`", f"{E}::test_a_chain_holds_at_most_three_links_per_player"),
    ),
    rule(
        "Tournament Guidelines",
        "Hand limit: 10 cards.",
        check("hand_limit", "`end_turn`", f"{E}::test_the_hand_is_at_most_ten_cards_at_the_end_of_the_turn"),
    ),
    judge(
        "Tournament Guidelines",
        "Open log: all card selections, summons, and attacks must be declared aloud.",
        "a table procedure: the judge records what is declared",
    ),
    rule(
        "Master Format — Timing Sequence",
        "The active player may place exactly one card from their hand face-down into the Mana Zone.",
        check("mana_already_placed", "`mana_place`", f"{E}::test_one_card_a_turn_goes_to_the_mana_zone"),
    ),
    rule(
        "Master Format — Timing Sequence",
        "The active player chooses exactly one card from their deck and adds it to their hand.",
        check("already_selected", "`select`", f"{E}::test_the_turn_player_selects_exactly_one_card"),
    ),
    judge(
        "Master Format — Timing Sequence",
        "Opponents cannot interfere unless a card explicitly prevents selection.",
        CARD_TEXT,
    ),
    rule(
        "Master Format — Timing Sequence",
        "Normal Summon: Once per turn, the player may summon a monster without paying costs, but only if it is level "
        "3 or below.",
        check("normal_summon_used", "`summon`", f"{E}::test_one_normal_summon_a_turn_of_level_three_or_lower"),
        check("normal_summon_level", "`summon`", f"{E}::test_one_normal_summon_a_turn_of_level_three_or_lower"),
    ),
    rule(
        "Master Format — Timing Sequence",
        "Monsters may be switched between Attack Position (AP) and Defense Position (DP) once per turn each.",
        check("already_switched", "`switch_position`", f"{E}::test_a_monster_switches_position_at_most_once_a_turn"),
    ),
    rule(
        "Master Format — Timing Sequence",
        "Monsters that switched positions cannot attack this turn.",
        check("switched_this_turn", "`attack`", f"{E}::test_a_monster_cannot_attack_the_turn_it_switched_position"),
    ),
    rule(
        "Master Format — Timing Sequence",
        "Once per turn globally, the active player may evolve one face-up monster by paying the evolution cost.",
        check("evolution_used", "`evolve`", f"{E}::test_one_evolution_a_turn_and_none_past_the_third_stage"),
    ),
    rule(
        "Master Format — Timing Sequence",
        "Each monster may declare one attack, choosing from up to four listed attacks on its card.",
        check("already_attacked", "`attack`", f"{E}::test_each_monster_attacks_at_most_once_a_turn"),
    ),
    rule(
        "Master Format — Timing Sequence",
        "Before declaring the attack, the player must pay the attack’s mana cost and confirm all listed conditions "
        "are met.",
        check("not_enough_mana", "`attack`", f"{E}::test_costs_cannot_exceed_the_mana_available"),
    ),
    rule(
        "Master Format — Timing Sequence",
        "The active player must discard down to the hand limit (normally 10 cards).",
        check("hand_limit", "`end_turn`", f"{E}::test_the_hand_is_at_most_ten_cards_at_the_end_of_the_turn"),
    ),
    # The headings whose sentences hold no limit word (each heading has a row or a NOT_RULES reason).
    judge("Format-Neutral Cards", "All Mintayn cards are full-art and contain no printed stats or text.", CARD_TEXT),
    rule(
        "Selection Step",
        "Choose 1 card from your deck and add it to your hand.",
        check("already_selected", "`select`", f"{E}::test_the_turn_player_selects_exactly_one_card"),
        check("selection_missing", "`end_turn`", f"{E}::test_the_turn_player_selects_exactly_one_card"),
    ),
    rule(
        "Main/Spell Phase",
        "Play any number of Spells by paying their mana costs.",
        check("not_enough_mana", "`cast_spell`", f"{E}::test_costs_cannot_exceed_the_mana_available"),
    ),
    rule(
        "End Phase",
        "Discard to 10 cards in hand.",
        check("hand_limit", "`end_turn`", f"{E}::test_the_hand_is_at_most_ten_cards_at_the_end_of_the_turn"),
    ),
    judge(
        "DEF Value",
        "If damage ≥ DEF: monster is destroyed (stack goes to Graveyard).",
        "Podium holds no monster's DEF or attack damage (the cards print none): the judge compares them and "
        "reports what is destroyed",
    ),
    rule(
        "Mana System",
        "Core system: 1 mana card per turn (face-down).",
        check("mana_already_placed", "`mana_place`", f"{E}::test_one_card_a_turn_goes_to_the_mana_zone"),
    ),
    rule(
        "Victory & End of Game",
        "A player wins when the opponent’s LP reaches 0.",
        follows("`lp_change`", f"{E}::test_a_player_at_zero_lp_loses_and_lp_never_go_below_zero"),
    ),
    rule(
        "Balance Levers & Variants",
        "LP: 6000 (faster), 8000 (default), 10000 (epic).",
        follows("`new_game`", f"{E}::test_the_event_variants_start_at_6000_8000_or_10000_lp"),
    ),
)

COVERAGE = Coverage(
    slug="mintayn-master",
    title="Mintayn Master",
    rulebook="mintayn-master-format.txt",
    modules=("rules/mintayn_master/engine.py", "rules/mintayn_master/deck.py", "rules/engine.py"),
    rows=ROWS,
    heading=HEADING,
    not_rules=NOT_RULES,
)
