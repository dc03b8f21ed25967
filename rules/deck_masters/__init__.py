"""Yu-Gi-Oh! Deck Masters: 1v1 duels, matches of 3 duels, a Deck Master each."""

from __future__ import annotations

from rules.base import ONE_VS_ONE, Counter, Format, GameFamily, TableSize, TimeCalled, player_value
from rules.deck_masters import deck
from rules.deck_masters.engine import ENGINE, deck_master_shown, match_result
from rules.deck_masters.interpretations import INTERPRETATIONS
from rules.speech import phrase

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
    counters=(
        Counter("lp", phrase("LP"), player_value("lp")),
        Counter("deck-master", phrase("Deck Master"), deck_master_shown),
    ),
    time_called=TimeCalled(
        procedure=phrase(
            "Time: the player whose turn it is finishes it, then 3 more turns are played. If the duel is not "
            "over, the player with more LP wins it (equal LP: a drawn duel); the match goes to the player with more "
            "duels won (equal: a drawn match)."
        ),
        extra_turns=3,
        source="Podium's reading: the rulebook sets no round time; as in the Yu-Gi-Oh! tournament policy's "
        "end-of-match procedure",
    ),
)
