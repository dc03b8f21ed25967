"""Reference decks of real cards, by catalogue key: what the deck benchmark and the tests check.

The cards themselves are never committed (they come from the imported card
data); these are only their keys in the pokemon-tcg-data set, as a player's
list would name them.  :func:`ptcgl_export` writes a deck out as the Pokémon TCG
Live export a player pastes.
"""

from __future__ import annotations

from collections.abc import Mapping

#: Twenty singleton Pokémon of Scarlet & Violet with no Rule Box, off the Master's line.
FILLERS = tuple(f"sv1-{n}" for n in (1, 2, 3, 5, 7, 8, 11, 13, 16, 20, 24, 27, 30, 33, 35, 36, 39, 42, 44, 46))
#: Thirty differently named Trainers (no Professor, no ACE SPEC).
SUPPORT = tuple(f"sv1-{n}" for n in (*range(166, 189), *range(191, 198)))
#: More Trainers for decks that need them.
MORE_SUPPORT = tuple([f"sv2-{n}" for n in (171, *range(173, 190))] + [f"sv3-{n}" for n in range(187, 191)])

#: A legal 75-card Master Trainer deck: Charmander MEW 4 the Master, Charizard ex OBF 125 the Apex (on the
#: Master's line through Charmeleon MEW 5), Charizard VMAX DAA 20 the Paragon, singletons, 22 Fire Energy.
MASTER_TRAINER_ENTRIES: dict[str, int] = {
    "sv3pt5-4": 1,
    "sv3pt5-5": 1,
    "sv3-125": 1,
    **dict.fromkeys(FILLERS, 1),
    **dict.fromkeys(SUPPORT, 1),
    "sve-2": 22,
}
MASTER_TRAINER_ROLES: dict[str, str] = {"master": "sv3pt5-4", "apex": "sv3-125", "paragon": "swsh3-20"}


def ptcgl_export(
    entries: Mapping[str, int], roles: Mapping[str, str], cards: Mapping[str, object]
) -> tuple[str, dict[str, str]]:
    """The deck as a Pokémon TCG Live export, and its roles as the card references a player types.

    ``cards`` maps the keys to card records with ``name``, ``set_code``,
    ``number`` and ``supertype`` (the catalogue's :class:`~decks.models.PokemonCard`).
    """

    def ref(key: str) -> str:
        card = cards[key]
        return f"{card.name} {card.set_code} {card.number}"

    sections: dict[str, list[str]] = {"Pokémon": [], "Trainer": [], "Energy": []}
    for key, count in entries.items():
        if count:
            sections[cards[key].supertype].append(f"{count} {ref(key)}")
    text = "\n\n".join(
        f"{name}: {sum(int(line.split()[0]) for line in lines)}\n" + "\n".join(lines)
        for name, lines in sections.items()
        if lines
    )
    return text + f"\n\nTotal Cards: {sum(entries.values())}\n", {role: ref(key) for role, key in roles.items()}
