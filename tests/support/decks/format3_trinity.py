"""Format 3 Trinity: a legal deck of real cards (keys of the Pokémon card data), shared by the deck-rule and deck-check tests."""

from __future__ import annotations

REAL_POKEMON = [f"sv1-{n}" for n in (1, 2, 3, 5, 7, 8, 11, 13, 16, 20, 24, 27, 30, 33)]  # 12 Grass, 2 Fire Basics
REAL_TRAINERS = [f"sv1-{n}" for n in (*range(166, 189), *range(191, 198))]  # 30 names, no ACE SPEC
REAL_ENTRIES = {"swsh3-19": 1, **dict.fromkeys(REAL_POKEMON, 1), **dict.fromkeys(REAL_TRAINERS, 1), "sve-2": 15}
REAL_ROLES = {"signature": "swsh3-19"}  # Charizard V DAA 19
