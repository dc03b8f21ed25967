"""Mt. Silver 4.1.0: Pokémon TCG for 4 players, region decks and Badge Tokens."""

from __future__ import annotations

from rules.base import POD, Counter, Format, GameFamily, TimeCalled, player_value
from rules.engine import turn_player_in_progress
from rules.mt_silver import deck
from rules.mt_silver.engine import ENGINE, OPTIONS, TABLE_SIZE, tables_for
from rules.mt_silver.interpretations import INTERPRETATIONS
from rules.speech import phrase

FORMAT = Format(
    slug="mt-silver",
    name="Mt. Silver",
    family=GameFamily.POKEMON,
    table_size=TABLE_SIZE,  # 4; 3-player pods only under the house rule (tables_for)
    scoring=POD,
    starting_life=0,  # Badge Tokens, not life: six per player in the engine
    deck_roles=("trainer", "starting_pokemon", "starting_energy"),
    rulebook="mt-silver-4.1.0.md",
    options=OPTIONS,
    tables_for=tables_for,
    interpretations=INTERPRETATIONS,
    engine=ENGINE,
    deck_rules=deck,
    turn_of=turn_player_in_progress,
    counters=(
        Counter("badges", phrase("Badge Tokens"), player_value("badges_taken")),
        Counter("in-play", phrase("Pokémon in play"), player_value("pokemon_in_play")),
    ),
    time_called=TimeCalled(
        procedure=phrase(
            "Time: the player whose turn it is finishes it, then each player still in takes one more turn. "
            "If no one is Champion, the judge ends the game (time called), placing the players by Badge Tokens taken."
        ),
        extra_turns=1,
        source="Podium's reading: the rulebook sets no round time; as in the Play! Pokémon tournament rules, the turn in progress is finished and more turns follow",
    ),
)
