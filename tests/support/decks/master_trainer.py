"""Master Trainer: a legal deck of real cards (keys of the Pokémon card data), shared by the deck-rule and deck-check tests."""

from __future__ import annotations

from decks import samples

REAL_FILLERS = list(samples.FILLERS)
REAL_SUPPORT = list(samples.SUPPORT)
REAL_MORE_SUPPORT = list(samples.MORE_SUPPORT)
REAL_ENTRIES = samples.MASTER_TRAINER_ENTRIES
REAL_ROLES = samples.MASTER_TRAINER_ROLES
