"""Master Trainer (handbook v6.7): Pokémon TCG, 2-4 players, Player Life 200."""

from __future__ import annotations

from rules.base import POD, Format, GameFamily, TableSize
from rules.master_trainer import deck
from rules.master_trainer.engine import ENGINE, OPTIONS, turn_of
from rules.master_trainer.interpretations import INTERPRETATIONS

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
)
