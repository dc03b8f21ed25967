"""Master Trainer (handbook v6.7): Pokémon TCG, 2-4 players, Player Life 200."""

from __future__ import annotations

from rules.base import POD, Counter, Format, GameFamily, TableSize, TimeCalled, player_value
from rules.master_trainer import deck
from rules.master_trainer.engine import ENGINE, OPTIONS, RECAST_TAX, status_conditions, turn_of
from rules.master_trainer.interpretations import INTERPRETATIONS
from rules.speech import phrase

FORMAT = Format(
    slug="master-trainer",
    name="Master Trainer",
    family=GameFamily.POKEMON,
    # Handbook: "designed for long-form strategic gameplay for 2-4 players".
    table_size=TableSize(min=2, max=4, preferred=4),
    scoring=POD,
    starting_life=200,
    deck_roles=("master", "apex", "paragon"),
    rulebook="master-trainer-handbook-v6.7.txt",
    options=OPTIONS,
    interpretations=INTERPRETATIONS,
    engine=ENGINE,
    deck_rules=deck,
    turn_of=turn_of,
    counters=(
        Counter("life", phrase("Life"), player_value("life")),
        Counter("pool", phrase("Energy Pool"), player_value("pool")),
        # §8.2: each return of the Master to the Master Zone raises its deployment cost by the tax.
        Counter("recast-tax", phrase("Recast Tax"), lambda p: RECAST_TAX * int(p.get("master_recasts") or 0)),
    ),
    # §18: the Active's Status Condition, on the player's plate.
    status_conditions=status_conditions,
    time_called=TimeCalled(
        procedure=phrase(
            "Time: the player whose turn it is finishes it, then each player still in takes one more turn. "
            "If the game is not over, the judge ends it (time called), placing the players by Life."
        ),
        extra_turns=1,
        source="Podium's reading: the rulebook sets no round time; as in the Play! Pokémon tournament rules, the turn in progress is finished and more turns follow",
    ),
)
