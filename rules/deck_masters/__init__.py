"""Yu-Gi-Oh! Deck Masters: 1v1 duels, matches of 3 duels, a Deck Master each."""

from __future__ import annotations

from rules.base import ONE_VS_ONE, Format, GameFamily, TableSize
from rules.deck_masters import deck
from rules.deck_masters.engine import ENGINE, match_result
from rules.deck_masters.interpretations import INTERPRETATIONS

FORMAT = Format(
    slug="deck-masters",
    name="Yu-Gi-Oh! Deck Masters",
    family=GameFamily.YUGIOH,
    table_size=TableSize(min=2, max=2, preferred=2),
    scoring=ONE_VS_ONE,
    starting_life=8000,
    games_per_match=3,
    deck_roles=("deck_master",),
    rulebook="yugioh-deck-masters.txt",
    options=deck.OPTIONS,
    interpretations=INTERPRETATIONS,
    engine=ENGINE,
    deck_rules=deck,
    match_result=match_result,
)
