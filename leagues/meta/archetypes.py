"""Naming a deck's archetype from its identity cards or its list (terms in :mod:`leagues.meta`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

#: Roles that name a deck, in the order they are looked for; roles of one group are joined with " / ".
IDENTITY_ROLES: tuple[tuple[str, ...], ...] = (
    ("master",),
    ("signature",),
    ("deck_master",),
    ("trainer", "starting_pokemon"),
)

# "Charizard ex OBF 125", "Charmander MEW 4", "Iono PAL 185", "Pikachu PR-SV 27": a set code and a number.
_SET_AND_NUMBER = re.compile(r"\s+[A-Z][A-Z0-9]{1,5}(?:-[A-Z0-9]{1,4})?\s+[A-Za-z]{0,4}\d+[a-z]?$")
_COUNT_LINE = re.compile(r"^\s*(\d{1,3})x?\s+(.+?)\s*$")
_BASIC_ENERGY = re.compile(r"^(basic\s+)?\{?[a-z]+\}?\s+energy\b|^[a-z]+ energy$", re.IGNORECASE)
_SECTION = re.compile(r"^(pokémon|pokemon|trainer|energy|main|extra|side|total cards)\b", re.IGNORECASE)


def card_name(reference: str, names: Mapping[str, str] | None = None) -> str:
    """A card reference as a name: set code and number dropped; a passcode read through ``names``."""
    text = " ".join(reference.split())
    if names and text in names:
        return names[text]
    return _SET_AND_NUMBER.sub("", text) or text


def _key_card(decklist: str) -> str | None:
    best: tuple[int, int, str] | None = None
    for position, line in enumerate(decklist.splitlines()):
        found = _COUNT_LINE.match(line)
        if not found or _SECTION.match(found.group(2)):
            continue
        name = card_name(found.group(2))
        if _BASIC_ENERGY.match(name):
            continue
        candidate = (-int(found.group(1)), position, name)
        if best is None or candidate < best:
            best = candidate
    return None if best is None else best[2]


def archetype_name(
    roles: Mapping[str, str],
    decklist: str,
    *,
    format_roles: Sequence[str],
    names: Mapping[str, str] | None = None,
) -> str | None:
    """The deck's archetype: its identity card(s) among ``format_roles``, else its most played key card.

    ``roles`` are the references the player gave (``{"master": "Charmander MEW 4"}``); ``names`` reads
    references that are ids (a Yu-Gi-Oh! passcode) as names.  ``None`` when the list names no card.
    """
    for group in IDENTITY_ROLES:
        wanted = [role for role in group if role in format_roles]
        given = [card_name(roles[role], names) for role in wanted if (roles.get(role) or "").strip()]
        if given:
            return " / ".join(given)
    return _key_card(decklist)
