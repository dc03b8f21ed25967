"""Mt. Silver: a legal region deck of real cards (keys of the Pokémon card data), shared by the deck-rule and deck-check tests."""

from __future__ import annotations

REAL_POKEMON = [f"sv1-{n}" for n in (1, 2, 3, 5, 7, 8, 11, 13, 16, 20, 24, 27, 30, 33, 35, 36, 39, 42, 44, 46)]
REAL_TRAINERS = [f"sv1-{n}" for n in range(167, 183)]
# Arven SVI 235 and OBF 186 beside the Trainer, Arven SVI 166: the rulebook's reprint example.
REAL_ENTRIES = {**dict.fromkeys(REAL_POKEMON, 1), **dict.fromkeys(REAL_TRAINERS, 1), "sv1-235": 1, "sv3-186": 1}
REAL_ENTRIES |= {"sve-2": 1, "sve-10": 1}  # two prints of Basic Fire Energy
REAL_ROLES = {"trainer": "sv1-166", "starting_pokemon": "sv3pt5-4", "starting_energy": "sve-2"}
