"""Mt. Silver: every rule of ``mt-silver-4.1.0.md``, its check and test or why it is the judge's call
(see :mod:`rules.coverage`)."""

from __future__ import annotations

from rules.coverage import Coverage, check, follows, judge, rule

DECK = "deck check"
E = "tests/rules/test_engine_mt_silver.py"
D = "tests/rules/test_deck_rules_mt_silver.py"
CARD_TEXT = "card text Podium does not hold: the judge reads the card the Mt. Silver way"

#: A heading: a Markdown heading at the start of a line (the version history's, inside a callout, are not).
HEADING = r"^#+[ \t]+(?P<title>.+?)[ \t]*$"

#: The headings that state no rule, and why.
NOT_RULES: dict[str, str] = {
    "Mt. Silver": "the rulebook's title; the version history under it is accounted for under Version History",
}

ROWS = (
    judge(
        "Version History",
        "Added a win condition if only one player has any Pokémon in play.",
        "not a rule: the version history; the rule itself is the Play row below",
    ),
    rule(
        "Objective",
        "Become the champion by taking all of your Badge Tokens.",
        follows(
            "`knock_out`", f"{E}::test_a_player_whose_six_badge_tokens_are_taken_becomes_champion_and_the_game_ends"
        ),
    ),
    rule(
        "Preparation",
        "To play Mt. Silver, 4 players come together, each providing a 43 card deck",
        check(
            "invalid_players",
            "`new_game`",
            f"{E}::test_it_refuses_tables_other_than_four_players_and_ids_that_are_not_integers",
        ),
    ),
    rule(
        "Building Your Region",
        "There are 4 components to your 43 card deck",
        check("role_missing", DECK, f"{D}::test_each_of_the_three_region_cards_is_required"),
    ),
    rule(
        "Pokémon Trainer",
        "This card can by any Supporter card.",
        check("trainer_invalid", DECK, f"{D}::test_the_trainer_must_be_a_supporter"),
    ),
    rule(
        "Starting Pokémon and Starting Energy",
        "The Pokémon must be a basic Pokémon without a rulebox.",
        check("starting_pokemon_invalid", DECK, f"{D}::test_the_starting_pokemon_must_be_a_basic_without_a_rule_box"),
    ),
    rule(
        "Starting Pokémon and Starting Energy",
        "The energy can be any energy card (basic or special).",
        check(
            "starting_energy_invalid", DECK, f"{D}::test_the_starting_energy_may_be_basic_or_special_but_must_be_energy"
        ),
    ),
    rule(
        "Region Deck",
        "It must be exactly 40 cards, no more, no less.",
        check("deck_size", DECK, f"{D}::test_the_region_deck_is_exactly_40_cards"),
    ),
    rule(
        "Region Deck",
        "The Pokémon Trainer, Starting Pokémon, and Starting Energy do not count towards the 40 cards.",
        check("deck_size", DECK, f"{D}::test_the_trainer_and_starting_cards_are_outside_the_region_deck"),
    ),
    rule(
        "Region Deck",
        "The only restriction is that no two cards can share the same set and card number.",
        check("duplicate_print", DECK, f"{D}::test_no_two_cards_share_a_set_and_number_but_reprints_are_fine"),
    ),
    judge(
        "Region Deck",
        "International cards are allowed, but they must fulfill the slots of the English cards sets.",
        "Podium's card data holds the English sets: an international print is entered as the English card whose "
        "slot it takes, which the judge confirms",
    ),
    rule(
        "Region Deck",
        "You cannot have two copies of Arven SV1 166.",
        check("duplicate_print", DECK, f"{D}::test_two_copies_of_one_entry_are_a_duplicate_print"),
    ),
    judge(
        "Setup",
        "Players place 6 Badge Tokens face down near their play space.",
        "the setup at the table; the engine starts everyone with six Badge Tokens "
        f"(`{E}::test_a_new_game_has_six_badge_tokens_each_and_six_area_piles`)",
    ),
    rule(
        "Play",
        "Players cannot play supporters or attack until the last player's first turn.",
        check(
            "too_early",
            "`play_supporter`",
            f"{E}::test_nobody_plays_a_supporter_or_attacks_before_the_last_players_first_turn",
        ),
        check(
            "too_early", "`attack`", f"{E}::test_nobody_plays_a_supporter_or_attacks_before_the_last_players_first_turn"
        ),
    ),
    judge(
        "Play",
        "All players share the same discard pile.",
        "card play the engine does not simulate: the table keeps one discard pile",
    ),
    judge("Play", "When cards mention your opponent's cards they refer to all opponents.", CARD_TEXT),
    rule(
        "Play",
        "A player can use their Pokémon Trainer's ability as their supporter card for the turn.",
        check(
            "supporter_already_played",
            "`play_supporter`",
            f"{E}::test_one_supporter_a_turn_and_the_trainers_ability_counts_as_it",
        ),
    ),
    judge("Play", "Any mention of prize cards applies to the level piles.", CARD_TEXT),
    judge("Play", "When a card references 'taken' prize cards applies to taken Badge Tokens.", CARD_TEXT),
    rule(
        "Play",
        "When a player Knocks Out a Pokémon, instead of taking prize cards that player takes one of their Badge "
        "Tokens by flipping it face up.",
        follows(
            "`knock_out`", f"{E}::test_a_knock_out_gives_the_player_who_caused_it_one_badge_token_and_a_draft_offer"
        ),
    ),
    rule(
        "Play",
        "The remaining cards are passed clockwise, with each player taking a card until no cards remain.",
        follows(
            "`explore`", f"{E}::test_the_draft_starts_with_the_earner_and_goes_clockwise_until_the_eight_cards_are_gone"
        ),
        check("not_your_draft", "`explore`", f"{E}::test_draft_offers_are_taken_in_the_order_they_were_earned"),
    ),
    rule(
        "Play",
        "When a player Knocks Out their own Pokémon, all opponents take one Badge Token.",
        follows(
            "`knock_out`",
            f"{E}::test_a_self_knock_out_gives_every_opponent_a_badge_token_clockwise_from_the_owners_left",
        ),
    ),
    rule(
        "Play",
        "If a player has no Pokémon in play, they remain in the game.",
        follows("`leave_play`", f"{E}::test_a_player_with_no_pokemon_in_play_stays_in_the_game"),
    ),
    rule(
        "Play",
        "If only one player has any Pokémon in play, that player wins the game.",
        follows("`leave_play`", f"{E}::test_when_only_one_player_has_pokemon_in_play_that_player_wins"),
    ),
    rule(
        "Play",
        "Once per turn you may reveal a Pokémon in your hand to trade with another player.",
        check("trade_already_done", "`trade`", f"{E}::test_one_trade_a_turn_with_another_player"),
        check("invalid_partner", "`trade`", f"{E}::test_one_trade_a_turn_with_another_player"),
    ),
    judge(
        "Play",
        "If the deck is empty and a player would draw another card, shuffle the discard pile and replace the deck, "
        "then continue drawing cards.",
        "card play at the table: nobody decks out, so there is nothing to record",
    ),
    rule(
        "Additional Rules",
        "When a Pokémon is Knocked Out from a special condition, consider the Knock Out to come from the player who "
        "caused the special condition.",
        check(
            "wrong_condition_source",
            "`knock_out`",
            f"{E}::test_a_knock_out_by_a_special_condition_counts_for_whoever_caused_it",
        ),
    ),
    judge(
        "Additional Rules",
        "You can only play this card if you have more Prize cards remaining than your opponent.",
        "not a Mt. Silver rule: the text of Counter Catcher quoted as an example of reading card text ("
        + CARD_TEXT
        + ")",
    ),
    judge(
        "Tips",
        "But some groups may find that this adds too much variance to the game and opt to limit those cards to their "
        "region deck, and not play as their Pokémon Trainer.",
        "not a rule: a tip for the group building its regions",
    ),
)

COVERAGE = Coverage(
    slug="mt-silver",
    title="Mt. Silver",
    rulebook="mt-silver-4.1.0.md",
    modules=("rules/mt_silver/engine.py", "rules/mt_silver/deck.py", "rules/pokemon_deck.py", "rules/engine.py"),
    rows=ROWS,
    heading=HEADING,
    not_rules=NOT_RULES,
)
