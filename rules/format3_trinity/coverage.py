"""Format3 Trinity: every rule of ``format3-trinity.txt``, its check and test or why it is the judge's call
(see :mod:`rules.coverage`)."""

from __future__ import annotations

from rules.coverage import Coverage, check, judge, rule

DECK = "deck check"
ENGINE_TESTS = "tests/rules/test_engine_format3_trinity.py"
DECK_TESTS = "tests/rules/test_deck_rules_format3_trinity.py"
R1 = "Rule Set #1 Deck Construction"
R2 = "Rule Set #2 Starting the Game"
R3 = "Rule Set #3 Playing the Game"
REVIEW = "A Quick Review"

#: A heading: a line of at most 60 characters with no full stop ("Rule Set #1 Deck Construction").
HEADING = r"^(?P<title>[^\s.][^.\n]{0,59}?)[ \t]*$"

#: The headings that state no rule, and why.
NOT_RULES: dict[str, str] = {
    "Multiplayer Pokemon TCG Done Right!": "the rulebook's tagline under its title",
    "(The Signature Rule)": "the name of Rule Set #1 above it, whose rows account for it",
    "(The Mulligan Rule)": "the name of Rule Set #2 above it, whose rows account for it",
    "(The “Teaming” Rule)": "the name of Rule Set #3 above it, whose rows account for it",
}

ROWS = (
    rule(
        "Format3Trinity",
        "It is designed to be played with 3 or more players",
        check(
            "invalid_players",
            "`new_game`",
            f"{ENGINE_TESTS}::test_it_refuses_fewer_than_three_players_or_ids_that_are_not_integers",
        ),
    ),
    judge(
        REVIEW,
        "all other rules questions are directed to the current official rules for the game.",
        "the official Pokémon TCG rules: Podium keeps only their player-level outcomes (first-turn attack, one "
        "attack a turn, prize cards, deck out), the rest is card play the judge rules on",
    ),
    rule(
        R1,
        "In Trinity format, every deck has a Signature Pokemon that you will start the game with.",
        check("role_missing", DECK, f"{DECK_TESTS}::test_a_deck_must_name_its_signature_and_play_it"),
    ),
    rule(
        R1,
        "When constructing your deck, you may have up to 3 “Rule Box” cards, minimum of 1 (which is required to be a "
        "Basic “Rule Box” Pokemon, aka your “Signature” Pokemon).",
        check("rule_box_count", DECK, f"{DECK_TESTS}::test_up_to_three_rule_box_cards_are_allowed"),
        check("rule_box_count", DECK, f"{DECK_TESTS}::test_a_deck_needs_at_least_one_rule_box_card"),
        check("signature_invalid", DECK, f"{DECK_TESTS}::test_the_signature_must_be_a_basic_rule_box_pokemon"),
    ),
    rule(
        R1,
        "As normal, your deck must have exactly 60 cards, but in Trinity Format, you are restricted to using no more "
        "than 3 “Types”, I.e., “Electirc”, “Fighting”, “Grass”, “Psychic”, “Normal”, etc., and no more than 1 copy "
        "of any card other than Basic Energy (Singleton).",
        check("deck_size", DECK, f"{DECK_TESTS}::test_a_deck_of_59_or_61_cards_is_refused"),
        check("type_count", DECK, f"{DECK_TESTS}::test_a_fourth_type_from_a_pokemon_or_a_basic_energy_is_refused"),
        check("singleton_name", DECK, f"{DECK_TESTS}::test_one_copy_of_each_card_name_but_basic_energy"),
    ),
    rule(
        R1,
        "For example, you can only have 1 copy of “Professor’s Research” or “Boss’s Orders” and only 1 copy of "
        "“Charmander” or “Charizard ex”.",
        check("singleton_name", DECK, f"{DECK_TESTS}::test_one_copy_of_each_card_name_but_basic_energy"),
    ),
    rule(
        R1,
        "The restriction is based off of the Card Name itself, regardless of whether or not there are any "
        "differences between 2 cards that may share the same name.",
        check("singleton_name", DECK, f"{DECK_TESTS}::test_pokemon_count_by_name_not_by_species"),
    ),
    rule(
        R1,
        "Finally, the legal card pool consists of cards from Black & White forward.",
        check("card_pool", DECK, f"{DECK_TESTS}::test_the_card_pool_starts_with_black_and_white"),
    ),
    rule(
        R2,
        "the high roll chooses who goes first, (with the turn order to proceed clockwise, as normal)",
        check(
            "not_your_turn",
            "`start_turn`",
            f"{ENGINE_TESTS}::test_the_first_turn_belongs_to_the_first_player_in_turn_order",
        ),
    ),
    judge(
        R2,
        "Then each Player takes their “Signature Pokemon” and sets it aside before shuffling their deck and "
        "presenting for cut.",
        "the setup at the table (the Signature itself is checked with the deck); nothing is recorded",
    ),
    judge(
        R2,
        "Because of this Special Rule, there is no Mulligan in Format3.",
        "the setup at the table: the engine records no mulligan event, so there is none to refuse",
    ),
    rule(
        R3,
        "A round is completed once each player currently in the game has taken a turn during the current round.",
        check(
            "promotion_before_round_end",
            "`promote`",
            f"{ENGINE_TESTS}::test_a_knocked_out_active_is_not_replaced_before_the_end_of_the_round",
        ),
    ),
    rule(
        R3,
        "You are not allowed to target another player’s active or benched Pokemon for battle who has already been "
        "targeted for battle this “round” unless there are no other valid targets remaining in play.",
        check(
            "target_already_targeted",
            "`attack`",
            f"{ENGINE_TESTS}::test_a_player_already_targeted_this_round_cannot_be_targeted_while_another_player_has_not"
            "_been",
        ),
    ),
    rule(
        R3,
        "Also, if your active Pokemon is knocked out, you do not promote a benched Pokemon to the active spot until "
        "the end of the round, meaning that all players have taken their turn.",
        check(
            "promotion_before_round_end",
            "`promote`",
            f"{ENGINE_TESTS}::test_a_knocked_out_active_is_not_replaced_before_the_end_of_the_round",
        ),
        check(
            "promotion_pending",
            "`start_turn`",
            f"{ENGINE_TESTS}::test_the_next_round_waits_for_every_knocked_out_active_to_be_replaced",
        ),
        check(
            "no_active_pokemon", "`attack`", f"{ENGINE_TESTS}::test_a_player_cannot_attack_with_a_knocked_out_active"
        ),
    ),
    judge(
        R3,
        "Each player performs their own individual “Check-Up” phase immediately before their turn starts and "
        "immediately after their turn ends.",
        "card play (Special Conditions) the engine does not simulate; a Knock Out in a Check-Up is recorded between "
        "turns like any other",
    ),
    rule(
        R3,
        "Finally, you are also not allowed to pass your turn without attacking unless you are simply unable due to "
        "having no valid targets remaining in play or by having insufficient energy to perform an attack.",
        check(
            "attack_required",
            "`end_turn`",
            f"{ENGINE_TESTS}::test_a_turn_cannot_end_without_an_attack_unless_a_reason_is_declared",
        ),
        check(
            "valid_target_remains",
            "`end_turn`",
            f"{ENGINE_TESTS}::test_a_pass_for_no_valid_target_is_refused_while_another_player_has_an_active_in_play",
        ),
        check(
            "valid_target_remains",
            "`end_turn`",
            f"{ENGINE_TESTS}::test_the_valid_target_named_follows_the_targeting_limit",
        ),
    ),
)

COVERAGE = Coverage(
    slug="format3-trinity",
    title="Format3 Trinity",
    rulebook="format3-trinity.txt",
    modules=(
        "rules/format3_trinity/engine.py",
        "rules/format3_trinity/deck.py",
        "rules/pokemon_deck.py",
        "rules/engine.py",
    ),
    rows=ROWS,
    heading=HEADING,
    not_rules=NOT_RULES,
)
