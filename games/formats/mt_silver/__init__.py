"""Mt. Silver 4.1.0: Pokémon TCG for 4 players, region decks and Badge Tokens."""

from __future__ import annotations

from games.formats.base import POD, Format, GameFamily, TableSize

FORMAT = Format(
    slug="mt-silver",
    name="Mt. Silver",
    family=GameFamily.POKEMON,
    # The rulebook is written for 4 players.  When an event's numbers don't
    # divide by 4, organisers seat 3-player pods rather than hand out byes: the
    # rules (Badge Tokens, Area Pile draft clockwise) work unchanged with 3.
    table_size=TableSize(min=3, max=4, preferred=4),
    scoring=POD,
    starting_life=0,  # Badge Tokens, not life: six per player in the engine
    deck_roles=("trainer", "starting_pokemon", "starting_energy"),
    rulebook="mt-silver-4.1.0.md",
    notes=("Pods of 4; pods of 3 when numbers don't divide by 4 (the rulebook assumes 4).",),
)
