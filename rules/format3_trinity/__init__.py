"""Format3 Trinity: Pokémon TCG, 'Signature' multiplayer games for 3 or more players."""

from __future__ import annotations

from rules.base import POD, Counter, Format, GameFamily, TableSize, TimeCalled, player_value
from rules.engine import turn_player_in_progress
from rules.format3_trinity import deck
from rules.format3_trinity.engine import ENGINE
from rules.format3_trinity.interpretations import INTERPRETATIONS
from rules.speech import phrase

FORMAT = Format(
    slug="format3-trinity",
    name="Format3 Trinity",
    family=GameFamily.POKEMON,
    # The rulebook says "3 or more players" with no upper bound.  Events seat
    # pods of 4 (3 when numbers don't divide); a pod of 5 is legal and used
    # only when it avoids a bye (exactly 5 players).
    table_size=TableSize(min=3, max=5, preferred=4),
    scoring=POD,
    starting_life=0,  # prize cards, not life: the game engine tracks prizes
    deck_roles=("signature",),
    rulebook="format3-trinity.txt",
    interpretations=INTERPRETATIONS,
    engine=ENGINE,
    deck_rules=deck,
    turn_of=turn_player_in_progress,
    counters=(Counter("prizes", phrase("Prizes left"), player_value("prizes_left")),),
    time_called=TimeCalled(
        procedure=phrase(
            "Time: the round of turns in progress is finished, then one more round of turns is played. "
            "If the game is not over, the judge ends it (time called), placing the players by prizes taken."
        ),
        extra_turns=1,
        source="Podium's reading: the rulebook sets no round time; as in the Play! Pokémon tournament rules, the turn in progress is finished and more turns follow",
    ),
)
