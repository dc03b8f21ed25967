"""Master Trainer: every rule of ``master-trainer-handbook-v6.7.txt``, its check and test or why it is the judge's
call (see :mod:`rules.coverage`)."""

from __future__ import annotations

from rules.coverage import Coverage, check, follows, judge, rule

DECK = "deck check"
E = "tests/rules/test_engine_master_trainer.py"
D = "tests/rules/test_deck_rules_master_trainer.py"
CARD_PLAY = "card play the engine does not simulate (cards, damage counters, effects): the judge rules on it"

SORCERY = check("not_your_turn", "`play_support`", f"{E}::test_sorcery_speed_actions_out_of_turn_are_refused")
MAIN_PHASE = check("not_main_phase", "`play_support`", f"{E}::test_main_phase_actions_after_the_attack_are_refused")

#: A heading: a line that is a section number and a title with no full stop ("9.2 Energy Generation", "10. TURN
#: STRUCTURE"), or a line in capitals ("QUICK REFERENCE").
HEADING = (
    r"^(?:(?P<number>\d+(?:\.\d+)?)\.?[ \t]+(?P<title>[A-Z][A-Za-z&'\- ]*[A-Za-z])|(?P<caps>[A-Z][A-Z ]*[A-Z]))[ \t]*$"
)

#: The headings that state no rule, and why.
NOT_RULES: dict[str, str] = {
    "MASTER TRAINER FORMAT": "the handbook's title",
    "TABLE OF CONTENTS": "the table of contents (its numbered lines are the section headings below)",
    "§4 Deck Construction": "a heading with no text of its own: §4.1 to §4.4 state its rules and have their rows",
    "§11 Timing & Priority": "a heading with no text of its own: §11.1 to §11.5 state its rules and have their rows",
    "§12 Combat & Positioning": "a heading with no text of its own: §12.1 to §12.3 state its rules and have their rows",
    "DISCLAIMER": "a notice that the game is unofficial, not a rule of play",
}

ROWS = (
    rule(
        "§1 Introduction",
        "Set Player Life total to 200.",
        follows("`new_game`", f"{E}::test_a_new_game_gives_every_player_200_life_one_source_and_an_active"),
    ),
    rule(
        "§2 Quick Start Guide",
        "Build a 75-card deck.",
        check("deck_size", DECK, f"{D}::test_a_deck_of_74_or_76_cards_is_refused_and_the_paragon_is_not_counted"),
    ),
    rule(
        "§2 Quick Start Guide",
        "Search your deck for one Basic Energy Source and place it into your Energy Field.",
        check("basic_energy_missing", DECK, f"{D}::test_a_deck_without_basic_energy_cannot_set_up"),
    ),
    rule(
        "§2 Quick Start Guide",
        "Attacks cannot be declared during any player's first turn.",
        check("first_turn_attack", "`attack`", f"{E}::test_no_attack_is_declared_in_a_players_first_turn"),
    ),
    judge(
        "§3 Core Rules & Golden Principles",
        "If a conflict exists between: - “can” - and “cannot” the “cannot” effect always takes priority.",
        CARD_PLAY,
    ),
    judge(
        "§3.1 Three-Strike Limit",
        "3.1 Three-Strike Limit Players may not recycle the same combination of cards from the discard pile to the "
        "deck more than three times per match.",
        "card play the engine does not record (which cards go from the discard pile to the deck): the judge counts",
    ),
    rule(
        "§3.2 Win Conditions",
        "Deck-Out A player cannot draw a card at the start of their turn.",
        check("not_draw_phase", "`deck_out`", f"{E}::test_deck_out_is_the_draw_at_the_start_of_the_turn"),
    ),
    rule(
        "§3.2 Win Conditions",
        "Field Break A player: - controls no Active Creatures - controls no Benched Creatures - and cannot immediately "
        "play a Creatures",
        check(
            "replacement_required",
            "`start_turn`",
            f"{E}::test_without_an_active_at_the_start_of_their_turn_a_player_places_one_or_loses_by_field_break",
        ),
    ),
    rule(
        "§3.2 Win Conditions",
        "Life Depletion A player's Life total reaches 0.",
        follows("`adjust_life`", f"{E}::test_a_two_player_game_ends_when_one_player_reaches_zero_life"),
    ),
    rule(
        "§4.1 Deck Matrix",
        "Master Zone - 1 Master Creature",
        check("master_invalid", DECK, f"{D}::test_the_master_must_be_a_creature"),
        check("role_missing", DECK, f"{D}::test_a_deck_without_a_master_or_an_apex_misses_a_role"),
    ),
    rule(
        "§4.2 Singleton Rules",
        "Except for Basic Energy cards: - no duplicate cards may be included.",
        check("singleton_species", DECK, f"{D}::test_two_copies_of_one_creature_break_the_species_singleton"),
        check(
            "singleton_name", DECK, f"{D}::test_support_and_energy_cards_are_singleton_by_exact_name_basic_energy_aside"
        ),
    ),
    rule(
        "§4.2 Singleton Rules",
        "Decks may only include one Support card with “Professor” in its name.",
        check("professor_clause", DECK, f"{D}::test_only_one_professor_card_is_allowed"),
    ),
    rule(
        "§4.3 The Sole Apex Rule",
        "Each deck may contain only one high-tier evolution class of Creature.",
        check("sole_apex", DECK, f"{D}::test_no_other_v_gx_ex_or_ex_card_than_the_apex"),
    ),
    rule(
        "§4.3 The Sole Apex Rule",
        "These cards may only exist as the designated Apex Creature.",
        check("sole_apex", DECK, f"{D}::test_a_high_tier_master_breaks_the_sole_apex_rule"),
    ),
    rule(
        "§4.4 Apex Creatures",
        "Each deck must designate exactly one Apex Creatures.",
        check("role_missing", DECK, f"{D}::test_a_deck_without_a_master_or_an_apex_misses_a_role"),
        check("apex_class", DECK, f"{D}::test_the_apex_must_be_high_tier"),
    ),
    rule(
        "§4.4 Apex Creatures",
        "The Apex must share at least one of the following with the Master:",
        check("apex_identity", DECK, f"{D}::test_an_unrelated_apex_breaks_the_apex_identity"),
    ),
    judge(
        "§5 Prismatic Identity System",
        "All Creatures may evolve into their printed evolutions without restriction.",
        "a permission: nothing to refuse; evolving is card play the engine does not simulate",
    ),
    judge(
        "§7 Game Zones",
        "Only Active Creatures may: - attack - receive attack damage",
        "attacks come from the Active (the engine refuses an attacker with no Active: `no_active`, "
        f"`{E}::test_an_attacker_without_an_active_and_an_attack_on_oneself_are_refused`); which Creature receives "
        "the damage is card play the judge rules on",
    ),
    rule(
        "§7 Game Zones",
        "The Bench holds up to 5 Creatures.",
        check("bench_full", "`play_creature`", f"{E}::test_a_sixth_benched_creature_and_a_second_active_are_refused"),
    ),
    judge(
        "§7 Game Zones",
        "Cards in the Lost Zone: - are permanently removed from the game - cannot be recovered",
        "the engine keeps no cards, only Energy Sources and Creatures' counts: the judge rules on a card that would "
        "come back",
    ),
    judge(
        "§7 Game Zones",
        "Unless a card explicitly overrides this restriction: - Lost Zone cards cannot be interacted with.",
        CARD_PLAY,
    ),
    rule(
        "§8 The Master System",
        "Your Master may be played during your Main Phase.",
        check("not_your_turn", "`deploy_master`", f"{E}::test_sorcery_speed_actions_out_of_turn_are_refused"),
        check("master_in_play", "`deploy_master`", f"{E}::test_a_master_already_in_play_cannot_be_deployed"),
    ),
    rule(
        "§8.1 Sanctuary",
        "it instead returns to the Master Zone exhausted.",
        follows(
            "`leave_play`",
            f"{E}::test_a_master_leaving_play_returns_to_the_master_zone_exhausted_until_its_owners_next_turn",
        ),
    ),
    rule(
        "§8.2 Recast Tax",
        "Each time your Master returns to the Master Zone: - its deployment cost increases by +2 Colorless Energy.",
        check(
            "insufficient_energy",
            "`deploy_master`",
            f"{E}::test_the_recast_tax_adds_two_energy_per_return_cumulatively",
        ),
    ),
    rule(
        "§8.4 Master Exhaustion",
        "A Master returning to the Master Zone: - cannot return to the Active Spot until the start of your next turn.",
        check(
            "master_exhausted",
            "`deploy_master`",
            f"{E}::test_a_master_leaving_play_returns_to_the_master_zone_exhausted_until_its_owners_next_turn",
        ),
    ),
    rule(
        "§8.5 Identity Cohesion",
        "Your: - Master - Apex - Paragon must share at least one:",
        check("identity_cohesion", DECK, f"{D}::test_an_unrelated_paragon_breaks_its_identity_and_the_cohesion"),
    ),
    judge(
        "§9.1 Energy Sources",
        "There is no maximum number of Energy Sources a player may control.",
        "a permission: nothing to refuse",
    ),
    rule(
        "§9.1 Energy Sources",
        "Players may play: - one Energy Source per turn unless another effect allows otherwise.",
        check(
            "energy_source_limit",
            "`play_energy_source`",
            f"{E}::test_a_second_energy_source_in_a_turn_is_refused_unless_an_effect_puts_it_in_play",
        ),
    ),
    rule(
        "§9.4 Energy Exhaustion",
        "Exhausted Sources: - do not generate Energy during your next turn - recover afterward",
        follows("`start_turn`", f"{E}::test_exhausted_sources_skip_their_owners_next_generation_then_recover"),
    ),
    rule(
        "§11.1 Instant Speed",
        "Item cards may be played: - during any player's turn - during combat - during movement - in response to "
        "effects",
        follows(
            "`play_creature` with `by_effect`",
            f"{E}::test_an_item_may_bench_a_creature_in_another_players_turn_but_a_creature_from_hand_may_not",
        ),
        check(
            "not_your_turn",
            "`play_creature` from the hand",
            f"{E}::test_an_item_may_bench_a_creature_in_another_players_turn_but_a_creature_from_hand_may_not",
        ),
    ),
    rule(
        "§11.2 Sorcery Speed",
        "Supporters, Stadiums, and non-Item Support cards may only be played: - during your Main Phase - during your "
        "turn",
        SORCERY,
        MAIN_PHASE,
    ),
    judge(
        "§11.4 Attack Commitment",
        "Once attack damage begins resolving: - Item cards may not be played until the attack fully resolves.",
        "the engine records an attack as one event, so there is no moment inside its resolution to refuse an Item in",
    ),
    rule(
        "§11.5 Tool Attachment Timing",
        "Creatures Tools may only be attached: - during your Main Phase - during your turn",
        SORCERY,
    ),
    judge(
        "§11.5 Tool Attachment Timing",
        "Tool attachments cannot occur: - during combat - during response windows",
        "combat and response windows are inside events the engine records whole (an attack); the judge rules",
    ),
    judge(
        "§12.1 In Cover",
        "Benched Creatures: - cannot be chosen as attack targets - cannot receive attack damage",
        "an attack names the target player, not the Creature: the judge rules on which Creature is hit",
    ),
    rule(
        "§12.2 Life Link",
        "Life Link damage is capped at 50 Player Life damage per attack instance.",
        follows("`attack`", f"{E}::test_life_link_takes_half_the_damage_rounded_down_and_at_most_50"),
    ),
    rule(
        "§12.2 Life Link",
        "If you have no Active Creatures, attacks deal full damage directly to your Player Life Total.",
        follows("`attack`", f"{E}::test_with_no_active_an_attack_hits_player_life_in_full_and_uncapped"),
    ),
    rule(
        "§12.3 Healing Echo",
        "Whenever an Item or Support card restores HP or removes damage counters from one of your Pokémon, heal your "
        "Player Life equal to 50% of the amount healed, rounded down, up to a maximum of 50 Player Life per turn.",
        follows("`heal`", f"{E}::test_healing_echo_heals_half_rounded_down_and_at_most_50_per_turn"),
    ),
    rule(
        "§13 Movement Rules",
        "Players may perform up to: Two movement actions per turn",
        check("movement_limit", "`move`", f"{E}::test_a_third_movement_action_in_a_turn_is_refused"),
    ),
    rule(
        "§13.1 Bench Lock",
        "If a Creature moves to the Bench: - it cannot return to the Active Spot until your next turn.",
        check(
            "bench_locked",
            "`move`",
            f"{E}::test_a_creature_moved_to_the_bench_cannot_go_back_active_until_its_owners_next_turn",
        ),
    ),
    rule(
        "§14 Creature Release",
        "During your Main Phase if your Bench is full you may release one Benched Creature.",
        check(
            "bench_not_full",
            "`release`",
            f"{E}::test_release_needs_a_full_bench_once_per_turn_and_never_the_master_or_paragon",
        ),
        check(
            "release_limit",
            "`release`",
            f"{E}::test_release_needs_a_full_bench_once_per_turn_and_never_the_master_or_paragon",
        ),
    ),
    judge(
        "§14 Creature Release",
        "Released Creatures: - cannot be recovered",
        "the engine keeps no cards in the Lost Zone: the judge rules on a card that would come back",
    ),
    rule(
        "§14.1 Release Restrictions",
        "Players may not release: - Active Creatures - Master Creatures - Paragon Creatures",
        check(
            "release_forbidden",
            "`release`",
            f"{E}::test_release_needs_a_full_bench_once_per_turn_and_never_the_master_or_paragon",
        ),
    ),
    rule(
        "§15 Interaction Limits",
        "Players may perform up to three Support card actions per turn.",
        check("support_limit", "`play_support`", f"{E}::test_a_fourth_support_action_in_a_turn_is_refused"),
    ),
    rule(
        "§16 Stadium Rules",
        "Only one Stadium may exist in play at a time.",
        follows("`play_stadium`", f"{E}::test_a_second_stadium_in_a_turn_is_refused_and_a_new_one_replaces_the_old"),
    ),
    rule(
        "§16 Stadium Rules",
        "Players may play: - one Stadium per turn.",
        check(
            "stadium_limit",
            "`play_stadium`",
            f"{E}::test_a_second_stadium_in_a_turn_is_refused_and_a_new_one_replaces_the_old",
        ),
    ),
    rule(
        "§17 Paragon System",
        "Each player may only deploy one paragon per game",
        check(
            "paragon_already_deployed",
            "`ascend_paragon`",
            f"{E}::test_ascension_is_refused_with_a_full_bench_behind_the_active_and_only_happens_once",
        ),
    ),
    rule(
        "§17.2 Identity Requirement",
        "Paragons must share one of the following with the Master or Apex:",
        check("paragon_identity", DECK, f"{D}::test_an_unrelated_paragon_breaks_its_identity_and_the_cohesion"),
    ),
    rule(
        "§17.2 Identity Requirement",
        "May ONLY be: - Mega - VMAX - VSTAR",
        check("paragon_class", DECK, f"{D}::test_any_other_paragon_is_refused"),
    ),
    rule(
        "§17.3 Ascension",
        "To deploy a Paragon: - Control at least 8 Energy Sources - Exhaust 4 Energy from your Energy Pool",
        check(
            "not_enough_sources",
            "`ascend_paragon`",
            f"{E}::test_ascension_needs_eight_sources_and_four_energy_and_puts_the_paragon_active",
        ),
        check(
            "insufficient_energy",
            "`ascend_paragon`",
            f"{E}::test_ascension_needs_eight_sources_and_four_energy_and_puts_the_paragon_active",
        ),
    ),
    rule(
        "§17.4 Paragon Drain",
        "Send 1 Energy Source you control to the Lost Zone if you cannot, the Paragon is Knocked Out.",
        check(
            "no_such_source",
            "`end_turn`",
            f"{E}::test_paragon_drain_costs_a_source_at_each_end_of_turn_then_knocks_the_paragon_out_for_good",
        ),
    ),
    rule(
        "§17.5 One-Life Rule",
        "Paragons: - cannot be recovered - replayed - replaced",
        check(
            "paragon_already_deployed",
            "`ascend_paragon`",
            f"{E}::test_paragon_drain_costs_a_source_at_each_end_of_turn_then_knocks_the_paragon_out_for_good",
        ),
    ),
    judge(
        "§17.6 Battlefield Presence",
        "Paragons are considered endgame entities and may not be devolved by card effects.",
        CARD_PLAY,
    ),
    rule(
        "§18 Status Conditions",
        "Only one Status Condition may affect Creatures at a time.",
        check(
            "status_condition_present",
            "`apply_status_condition`",
            f"{E}::test_only_one_status_condition_may_affect_a_creature_at_a_time_but_each_creature_may_have_one",
        ),
    ),
    rule(
        "§18 Status Conditions",
        "Status Conditions: - last a maximum of two turns - cannot be immediately reapplied after removal",
        follows(
            "`end_turn` (a condition expires)",
            f"{E}::test_a_status_condition_lasts_the_turn_it_is_applied_in_and_the_next_players_turn_then_expires",
        ),
        check(
            "status_condition_reapplied",
            "`apply_status_condition`",
            f"{E}::test_a_status_condition_cannot_be_reapplied_to_that_creature_until_its_owners_next_turn",
        ),
    ),
    rule(
        "§19 Knockouts & Loss Conditions",
        "Field Break Loss You lose the game if: - you control no Active Creatures - no Benched Creatures - and cannot "
        "immediately play one",
        check(
            "replacement_required",
            "`start_turn`",
            f"{E}::test_without_an_active_at_the_start_of_their_turn_a_player_places_one_or_loses_by_field_break",
        ),
    ),
    rule(
        "§19 Knockouts & Loss Conditions",
        "Whenever a player's Active Pokémon is Knocked Out, that player must immediately choose a Benched Pokémon they "
        "control and move it to the Active Spot if able.",
        check(
            "replacement_required",
            "`knock_out`",
            f"{E}::test_a_knocked_out_active_must_be_replaced_from_the_bench_if_able",
        ),
    ),
    judge(
        "§19 Knockouts & Loss Conditions",
        "This occurs immediately, regardless of whose turn it is.",
        "the judge records the Field Break when it happens, in whoever's turn; the engine ends the game at that "
        "entry and has nothing to refuse",
    ),
    rule(
        "§19 Knockouts & Loss Conditions",
        "If a player cannot place a new Active Pokémon, they do not immediately lose the game.",
        follows(
            "`knock_out`",
            f"{E}::test_without_an_active_at_the_start_of_their_turn_a_player_places_one_or_loses_by_field_break",
        ),
    ),
    rule(
        "§19 Knockouts & Loss Conditions",
        "Instead, if that player still controls no Active Pokémon at the start of their next turn and cannot "
        "immediately place one into the Active Spot, they lose the game due to Field Break.",
        check(
            "replacement_required",
            "`start_turn`",
            f"{E}::test_without_an_active_at_the_start_of_their_turn_a_player_places_one_or_loses_by_field_break",
        ),
    ),
    judge(
        "§20 Comprehensive Glossary",
        "A restriction preventing immediate return to the Active Spot.",
        "not a rule: the glossary's entry for Bench Lock (§13.1, enforced above)",
    ),
    judge(
        "§20 Comprehensive Glossary",
        "Mandatory upkeep cost required to maintain a Paragon.",
        "not a rule: the glossary's entry for Paragon Drain (§17.4, enforced above)",
    ),
    # The sections whose sentences hold no limit word (each heading has a row or a NOT_RULES reason).
    rule(
        "QUICK REFERENCE",
        "Support Card Actions Per Turn: 3",
        check("support_limit", "`play_support`", f"{E}::test_a_fourth_support_action_in_a_turn_is_refused"),
    ),
    rule(
        "§6 Game Setup",
        "Place 1 Basic Energy Source into play",
        follows("`new_game`", f"{E}::test_a_new_game_gives_every_player_200_life_one_source_and_an_active"),
    ),
    judge(
        "§6 Game Setup",
        "Reveal Masters - Shuffle decks - Determine turn order - Draw 7 cards",
        "table procedure before the game: the judge oversees the reveal, the shuffle and the draw",
    ),
    judge(
        "§8.3 Evolution Persistence",
        "it retains its highest evolution stage.",
        CARD_PLAY,
    ),
    rule(
        "§8.3 Evolution Persistence",
        "status conditions are removed.",
        follows("`deploy_master`", f"{E}::test_a_master_returning_to_the_master_zone_loses_its_status_condition"),
    ),
    rule(
        "§9 Energy System",
        "Energy is generated through Energy Sources instead of attachments.",
        follows("`start_turn`", f"{E}::test_a_source_played_this_turn_generates_only_from_the_next_turn"),
    ),
    rule(
        "§9.2 Energy Generation",
        "gain 1 baseline Energy - each Energy Source generates 1 Energy",
        follows("`start_turn`", f"{E}::test_the_first_turn_pool_is_the_baseline_plus_the_setup_source"),
    ),
    rule(
        "§9.2 Energy Generation",
        "Newly played Sources do not generate Energy until your next turn.",
        follows("`start_turn`", f"{E}::test_a_source_played_this_turn_generates_only_from_the_next_turn"),
    ),
    rule(
        "§9.3 Energy Pool",
        "Energy may be spent for: - attacks - abilities - retreats - effects",
        check("insufficient_energy", "`spend_energy`", f"{E}::test_spending_more_than_the_pool_holds_is_refused"),
    ),
    rule(
        "§9.3 Energy Pool",
        "At the end of each turn: - unused Energy disappears.",
        follows("`end_turn`", f"{E}::test_the_pool_empties_at_the_end_of_every_turn"),
    ),
    rule(
        "§10 Turn Structure",
        "Battle Phase - Declare one attack",
        check("attack_limit", "`attack`", f"{E}::test_a_second_attack_in_a_turn_is_refused"),
    ),
    rule(
        "§10 Turn Structure",
        "Draw Phase - Generate Energy - Draw 1 card",
        check("not_draw_phase", "`deck_out`", f"{E}::test_deck_out_is_the_draw_at_the_start_of_the_turn"),
    ),
    rule("§10 Turn Structure", "Main Phase Players may: - play Creatures", MAIN_PHASE),
    rule(
        "§10 Turn Structure",
        "Check Knockouts - Empty Energy Pools",
        follows("`end_turn`", f"{E}::test_the_pool_empties_at_the_end_of_every_turn"),
    ),
    judge(
        "§10 Turn Structure",
        "End Phase - Resolve effects - Check Knockouts - Empty Energy Pools - Draw one card",
        "card play the engine does not simulate (effects, hands and the deck): the judge oversees the End Phase's "
        "effects and draw, and records the Knockouts",
    ),
    judge(
        "§11.3 Priority System",
        "priority passes clockwise beginning with the next player.",
        "the engine records the actions taken, not priority passing round the table: the judge runs the responses",
    ),
    rule(
        "§16 Stadium Rules",
        "When a new Stadium enters play: - Discard the previous Stadium immediately.",
        follows("`play_stadium`", f"{E}::test_a_second_stadium_in_a_turn_is_refused_and_a_new_one_replaces_the_old"),
    ),
    rule(
        "§17.1 Paragon Slot",
        "exist outside the deck - are not shuffled - do not begin in play",
        check("deck_size", DECK, f"{D}::test_a_deck_of_74_or_76_cards_is_refused_and_the_paragon_is_not_counted"),
    ),
)

COVERAGE = Coverage(
    slug="master-trainer",
    title="Master Trainer",
    rulebook="master-trainer-handbook-v6.7.txt",
    modules=(
        "rules/master_trainer/engine.py",
        "rules/master_trainer/deck.py",
        "rules/pokemon_deck.py",
        "rules/engine.py",
    ),
    rows=ROWS,
    heading=HEADING,
    not_rules=NOT_RULES,
)
