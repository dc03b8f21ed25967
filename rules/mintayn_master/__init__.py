"""Mintayn Master: 1v1, 60 cards, LP 8000, mana, no random draws."""

from __future__ import annotations

from rules.base import ONE_VS_ONE, Format, GameFamily, TableSize
from rules.mintayn_master import deck
from rules.mintayn_master.engine import ENGINE, OPTIONS
from rules.mintayn_master.interpretations import INTERPRETATIONS

FORMAT = Format(
    slug="mintayn-master",
    name="Mintayn Master",
    family=GameFamily.MINTAYN,
    table_size=TableSize(min=2, max=2, preferred=2),
    scoring=ONE_VS_ONE,
    starting_life=8000,
    deck_roles=(),
    options=(*OPTIONS, *deck.OPTIONS),
    rulebook="mintayn-master-format.txt",
    interpretations=INTERPRETATIONS,
    engine=ENGINE,
    deck_rules=deck,
)
