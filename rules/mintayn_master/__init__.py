"""Mintayn Master: 1v1, 60 cards, LP 8000, mana, no random draws."""

from __future__ import annotations

from rules.base import ONE_VS_ONE, Counter, Format, GameFamily, TableSize, TimeCalled, player_value
from rules.mintayn_master import deck
from rules.mintayn_master.engine import ENGINE, OPTIONS, mana_available
from rules.mintayn_master.interpretations import INTERPRETATIONS
from rules.speech import phrase

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
    counters=(Counter("lp", phrase("LP"), player_value("lp")), Counter("mana", phrase("Mana"), mana_available)),
    time_called=TimeCalled(
        procedure=phrase(
            "Time: the player whose turn it is finishes it, then 2 more turns are played. If the game is not "
            "over, the player with more LP wins it (equal LP: a draw)."
        ),
        extra_turns=2,
        source="Podium's reading: the rulebook gives a match 15–30 minutes and no end-of-round procedure; as in "
        "the 1v1 card games' tournament rules",
    ),
)
