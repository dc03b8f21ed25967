"""Yu-Gi-Oh! Deck Masters: every rule of ``yugioh-deck-masters.txt``, its check and test or why it is the judge's
call (see :mod:`rules.coverage`)."""

from __future__ import annotations

from rules.coverage import Coverage, check, follows, judge, rule

DECK = "deck check"
E = "tests/rules/test_engine_deck_masters.py"
D = "tests/rules/test_deck_rules_deck_masters.py"
ABILITY_TEXT = (
    "Ability text Podium does not hold (the Deck Masters' Abilities are not in its card data): the judge rules"
)
NOT_A_RULE = "not a rule: "
SETUP = "DUEL SETUP"
POSITION = "THE DECK MASTER POSITION"
ABILITY = "THE ABILITY"
FIELD = "DECK MASTERS ON THE FIELD"
CHANGING = "CHANGING YOUR DECK MASTER"
WINNING = "WINNING WITH DECK MASTERS"
SUMMARY = "SUMMARY"
G = "tests/games/test_api_games.py"
DAMAGE_STEP = check("damage_step", "`activate_ability`", f"{E}::test_an_ability_cannot_be_activated_in_the_damage_step")
ONCE = check(
    "ability_once_per_turn",
    "`activate_ability`",
    f"{E}::test_hyper_hammerheads_ability_is_once_per_turn_and_costs_700_lp_even_when_negated",
)
REACH = check(
    "deck_master_protected",
    "`deck_master_lost`",
    f"{E}::test_an_ability_cannot_reach_a_deck_master_in_its_position_unless_it_says_so",
)

LOSE = check(
    "deck_master_protected", "`deck_master_lost`", f"{E}::test_card_effects_cannot_touch_a_deck_master_in_its_position"
)
FACE_DOWN = check(
    "deck_master_face_down", "`deck_master_position`", f"{E}::test_a_deck_master_cannot_be_flipped_face_down"
)
RETURN = check(
    "deck_master_return_forbidden",
    "`deck_master_return`",
    f"{E}::test_only_an_ability_returns_a_deck_master_to_its_position",
)
TRIBUTE = check(
    "tribute_not_allowed", "`deck_master_replace`", f"{E}::test_a_deck_master_cannot_be_tributed_for_anything_else"
)
TRIBUTE_SET = check(
    "tribute_not_allowed",
    "`deck_master_replace`",
    f"{E}::test_a_tribute_summon_in_defence_is_a_tribute_set_and_is_refused",
)
TRIBUTE_LOST = check(
    "tribute_not_allowed", "`deck_master_lost`", f"{E}::test_a_deck_master_tributed_outside_a_replacement_is_refused"
)
OPPONENT_TRIBUTE = check(
    "opponent_deck_master_tribute", "`deck_master_replace`", f"{E}::test_the_opponents_deck_master_cannot_be_tributed"
)
LOST = follows("`deck_master_lost`", f"{E}::test_a_player_whose_deck_master_leaves_the_field_loses_at_once")

#: A heading: a line in capitals ("DUEL SETUP", "EXAMPLE").
HEADING = r"^(?P<title>[A-Z][A-Z' ]*[A-Z])[ \t]*$"

#: The headings that state no rule, and why.
NOT_RULES: dict[str, str] = {
    "EXAMPLE": "a worked example of the rule above it, which has its row; an example states no rule of its own",
}

ROWS = (
    judge(
        "INTRODUCTION",
        "Trading Card Game has thus far only existed in the Yu-Gi-Oh! anime, and in the minds of a few fans.",
        NOT_A_RULE + "the introduction",
    ),
    rule(
        SETUP,
        "A player is only allowed 1 Deck Master in each Duel, and chooses which Monster Card will be their Deck Master "
        "before each Duel begins.",
        check("role_missing", DECK, f"{D}::test_no_deck_master_is_a_role_missing_violation"),
    ),
    rule(
        SETUP,
        "A Deck Master must begin a Duel in its Deck Master Position.",
        follows("`new_game`", f"{E}::test_a_new_duel_gives_each_player_8000_lp_and_a_deck_master_in_its_position"),
    ),
    rule(
        SETUP,
        "Therefore it counts towards the limit on the number of copies of that Monster Card you are allowed to have in "
        "your Deck.",
        follows(DECK, f"{D}::test_the_deck_master_is_one_of_the_three_copies_not_a_fourth"),
        check("copy_limit", DECK, f"{D}::test_four_copies_across_the_main_and_side_deck_are_a_copy_limit_violation"),
        check("role_not_in_deck", DECK, f"{D}::test_a_deck_master_not_in_the_deck_is_a_role_not_in_deck_violation"),
    ),
    rule(
        SETUP,
        "A Deck must be legal for play before a Deck Master is chosen from it.",
        check("main_size", DECK, f"{D}::test_a_main_deck_outside_40_to_60_cards_is_a_main_size_violation"),
        check("copy_limit", DECK, f"{D}::test_four_copies_across_the_main_and_side_deck_are_a_copy_limit_violation"),
    ),
    judge(
        SETUP,
        "“Gemini Elf” is currently limited to 3 per Deck, so if I choose “Gemini Elf” to be my Deck Master, I am only "
        "allowed to have up to 2 more copies of “Gemini Elf” in my Deck.",
        NOT_A_RULE + "an example of the copy limit above",
    ),
    rule(
        SETUP,
        "Only Monster Cards are allowed to be Deck Masters.",
        check("deck_master_invalid", DECK, f"{D}::test_a_spell_or_trap_deck_master_is_a_deck_master_invalid_violation"),
    ),
    rule(
        SETUP,
        "Spell Cards and Trap Cards are not allowed to be Deck Masters, even if they would Special Summon a monster",
        check("deck_master_invalid", DECK, f"{D}::test_a_spell_or_trap_deck_master_is_a_deck_master_invalid_violation"),
        check(
            "invalid_deck_master",
            "`new_game` (a duel's options, read against the card pool)",
            f"{G}::test_a_spell_or_trap_named_as_deck_master_is_refused",
        ),
    ),
    rule(
        POSITION,
        "A card in a Deck Master Position is considered to be completely separate from the rest of the game, and it "
        "cannot be affected by any card effects or be declared as an attack target.",
        LOSE,
    ),
    rule(
        POSITION,
        "Only the Abilities of other Deck Masters may affect a card in a Deck Master Position, and only if the Ability "
        "specifically says so.",
        REACH,
    ),
    judge(POSITION, "Only a handful of Abilities are able to do so.", NOT_A_RULE + "a remark on the Abilities"),
    rule(
        POSITION,
        "Cards in a Deck Master Position can only be face-up, and both players can see all cards there at any time",
        FACE_DOWN,
    ),
    judge(
        POSITION,
        "Usually the only card that will ever be in a Deck Master Position is a Deck Master.",
        "other cards held in a Deck Master Position are card play the engine does not track",
    ),
    rule(
        ABILITY,
        "Many Abilities have restrictions on when they can be activated (e.g. when a monster is Summoned, or during "
        "your Main Phase only) and/or how often they can be activated (e.g. once per turn).",
        ONCE,
    ),
    judge(
        ABILITY,
        "Usually only minor restrictions on when they can be activated (e.g. at any time during your Main Phase only).",
        "an Ability's own timing (its text, which Podium does not hold) is the judge's to state; the engine refuses "
        "the Damage Step and a second activation of a once-per-turn Ability",
    ),
    rule(
        "THE ABILITY (Trigger, Trap)",
        "If there are no restrictions, then they can be activated at any time except the Damage Step.",
        DAMAGE_STEP,
    ),
    judge("THE ABILITY (Ignition, Spell)", "Is Spell Speed 1, and must always be Chain Link 1.", ABILITY_TEXT),
    judge(
        "THE ABILITY (Compulsory Trigger)", "Must be activated when the activation conditions are met.", ABILITY_TEXT
    ),
    judge("THE ABILITY (Continuous)", "Some are active only if a condition is met, or a cost is paid.", ABILITY_TEXT),
    judge("THE ABILITY (Continuous)", "These Abilities will only be active for a certain time.", ABILITY_TEXT),
    judge(
        "THE ABILITY (Continuous)",
        "The act of making a Continuous Ability become active does not form a Chain, has no Spell Speed, and cannot be "
        "Chained to.",
        "chains are card play the engine does not simulate",
    ),
    rule(
        ABILITY,
        "If you cannot pay the entire cost, you cannot activate the Ability.",
        check("cannot_pay_cost", "`lp_change`", f"{E}::test_an_ability_cost_must_be_paid_in_full_and_leave_lp"),
    ),
    judge(
        ABILITY,
        "If I have 10,000 Life Points or less, I cannot activate the Ability of “Blast Juggler”.",
        NOT_A_RULE + "an example of the cost rule above",
    ),
    rule(
        ABILITY,
        "Its Ability can only be activated once per turn by paying 700 Life Points, and my opponent can negate it by "
        "paying 800 Life Points when I activate it.",
        ONCE,
    ),
    rule(
        ABILITY,
        "The effect of the Ability is negated, and I cannot activate the Ability again this turn.",
        ONCE,
    ),
    judge(
        ABILITY,
        "Spell and Trap Abilities are treated exactly the same as Spell and Trap Card effects.",
        "card play the engine does not simulate",
    ),
    judge(
        ABILITY,
        "However, a Deck Master with one of these Abilities is not considered to be a Spell/Trap Card, and therefore "
        "cannot be destroyed by a card effect or Ability that destroys Spell/Trap Cards",
        "card effects the engine does not simulate: the judge rules on what a card destroys",
    ),
    rule(
        ABILITY,
        "An Ability cannot affect a Deck Master in a Deck Master Position, unless it specifically says it can do so.",
        REACH,
    ),
    rule(
        ABILITY,
        "However, it cannot destroy a card in my opponent’s Deck Master Position, because it doesn’t specifically "
        "state that it can do so.",
        REACH,
    ),
    rule(
        "SUMMONING YOUR DECK MASTER",
        "At any time during either player’s turn (except during the Damage Step), you may Special Summon your Deck "
        "Master from its Deck Master Position to your side of the field in face-up Attack Position or face-up Defence "
        "Position.",
        check("damage_step", "`deck_master_summon`", f"{E}::test_a_deck_master_cannot_be_summoned_in_the_damage_step"),
    ),
    rule(
        "SUMMONING YOUR DECK MASTER",
        "You cannot return your Deck Master on the field back to its Deck Master Position.",
        RETURN,
    ),
    rule("SUMMONING YOUR DECK MASTER", "It must remain on the field.", RETURN, LOST),
    rule(
        FIELD,
        "The exception to this is that a Deck Master cannot be flipped face-down under any circumstances, cannot be "
        "equipped to another monster, and cannot have its control changed.",
        FACE_DOWN,
        LOST,
    ),
    rule(
        FIELD,
        "In short, the only place on the field your Deck Master can be is face-up on your side of the field.",
        FACE_DOWN,
        LOST,
    ),
    rule(
        FIELD,
        "You cannot Tribute your Deck Master, unless it is for a Tribute Summon (but not a Tribute Set), a Fusion "
        "Summon or a Ritual Summon.",
        TRIBUTE,
        TRIBUTE_SET,
        TRIBUTE_LOST,
    ),
    rule(FIELD, "You cannot Tribute your opponent’s Deck Master at all.", OPPONENT_TRIBUTE),
    judge(
        FIELD,
        "If a monster used as a Deck Master is originally an Effect Monster, its effect is erased while it is a Deck "
        "Master.",
        "card effects the engine does not simulate",
    ),
    rule(
        CHANGING,
        "The only ways to replace your Deck Master are to Tribute it for a Tribute Summon, Fusion Summon or Ritual "
        "Summon.",
        TRIBUTE,
        follows(
            "`deck_master_replace`",
            f"{E}::test_a_tribute_fusion_or_ritual_summon_replaces_the_deck_master_on_the_field",
        ),
    ),
    rule(
        CHANGING,
        "In these cases, the newly Summoned monster becomes your new Deck Master, and your old (Tributed) Deck Master "
        "returns to being a regular Monster Card.",
        check(
            "not_main_phase",
            "`deck_master_replace`",
            f"{E}::test_a_tribute_summon_replacing_the_deck_master_is_a_normal_summon_in_its_players_main_phase",
        ),
    ),
    judge(
        CHANGING,
        "When you replace your Deck Master, your new Deck Master has its own Abilities, and loses the Abilities of the "
        "old Deck Master",
        ABILITY_TEXT,
    ),
    rule(
        WINNING,
        "If your Deck Master is not in its Deck Master Position OR face-up on your side of the field at any point "
        "during the Duel, you immediately lose the Duel.",
        LOST,
    ),
    judge(
        WINNING,
        "Such a situation can occur in a variety of ways, most likely beginning while your Deck Master is on the field "
        "(as opposed to being in its Deck Master Position where it is only vulnerable to a handful of Abilities).",
        NOT_A_RULE + "an explanation of the rule above",
    ),
    rule(
        WINNING,
        "If both players’ Deck Masters become somewhere other than in their Deck Master Positions and/or face-up on the "
        "field at the same time (i.e. both players lose the Duel at the same time), the Duel is declared a Draw "
        "instead.",
        follows("`deck_master_lost`", f"{E}::test_both_deck_masters_lost_at_once_is_a_draw"),
    ),
    rule(
        SUMMARY,
        "A Deck must be legal for play before a Deck Master is chosen.",
        check("main_size", DECK, f"{D}::test_a_main_deck_outside_40_to_60_cards_is_a_main_size_violation"),
    ),
    rule(
        SUMMARY,
        "A Deck Master on the field cannot be returned to its Deck Master Position, except by a Deck Master Ability.",
        RETURN,
    ),
    judge(
        SUMMARY,
        "Control of a Deck Master cannot change.",
        "card effects the engine does not simulate: a Deck Master that left its owner's side is recorded as lost",
    ),
    rule(SUMMARY, "A Deck Master cannot be flipped face-down.", FACE_DOWN),
    rule(
        SUMMARY,
        "A Deck Master can only be Tributed for a Tribute Summon, Fusion Summon or Ritual Summon.",
        TRIBUTE,
        TRIBUTE_LOST,
    ),
    judge("FAQ", "It cannot activate its effect, because it doesn’t have one.", NOT_A_RULE + "an answer in the FAQ"),
)

COVERAGE = Coverage(
    slug="deck-masters",
    title="Yu-Gi-Oh! Deck Masters",
    rulebook="yugioh-deck-masters.txt",
    modules=("rules/deck_masters/engine.py", "rules/deck_masters/deck.py", "rules/engine.py", "games/services.py"),
    rows=ROWS,
    heading=HEADING,
    not_rules=NOT_RULES,
)
