"""Cards and banlists as plain records, for the three game families.

These are what the rules kernel and the pure parts of the decks app work with:
importers produce them from the data files, the catalogue stores them,
decklist parsers resolve lines to them, and each format's deck rules
(``rules/<format>/deck.py``) judge a deck made of them.  No Django imports.

A card's ``key`` is unique within its family and stable across imports:
the pokemon-tcg-data id (``"sv3-125"``), the Yu-Gi-Oh! passcode (``"89631139"``),
or the Mintayn card name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum


class Supertype(StrEnum):
    POKEMON = "Pokémon"
    TRAINER = "Trainer"
    ENERGY = "Energy"


@dataclass(frozen=True, slots=True)
class PokemonCard:
    key: str  # pokemon-tcg-data id, e.g. "sv3-125"
    name: str  # printed name, e.g. "Charizard ex"
    set_id: str  # pokemon-tcg-data set id, e.g. "sv3"
    set_code: str  # PTCGL/PTCGO code, e.g. "OBF" ("" when the set has none)
    number: str  # collector number as printed, e.g. "125", "TG05", "SV107"
    supertype: Supertype
    subtypes: tuple[str, ...]  # as in the data: ("Stage 2", "ex", "Tera") ...
    stage: str  # "Basic", "Stage 1", "Stage 2", "BREAK", "VMAX", "VSTAR", "LEGEND", "Restored", "MEGA" ... or ""
    trainer_kind: str  # "Item", "Supporter", "Stadium", "Pokémon Tool", "Technical Machine" ... or ""
    energy_kind: str  # "Basic", "Special" or ""
    rule_box: str  # rule-box class: "ex", "EX", "GX", "V", "VMAX", "VSTAR", "V-UNION", "MEGA", "Radiant",
    # "Prism Star", "TAG TEAM", "LEGEND", "BREAK", "Prime", "LV.X", ... or "" for none
    types: tuple[str, ...]  # ("Fire",) ...
    evolves_from: str  # name, or ""
    national_dex: tuple[int, ...]  # base species; TAG TEAMs have several
    release_date: str  # ISO date of the set, "2023-08-11"
    series: str  # "Scarlet & Violet", "Black & White" ...
    regulation_mark: str  # "G", or ""
    hp: int | None = None

    @property
    def is_basic_energy(self) -> bool:
        return self.supertype == Supertype.ENERGY and self.energy_kind == "Basic"

    @property
    def has_rule_box(self) -> bool:
        return bool(self.rule_box)


class YugiohCardType(StrEnum):
    MONSTER = "Monster"
    SPELL = "Spell"
    TRAP = "Trap"


@dataclass(frozen=True, slots=True)
class YugiohCard:
    key: str  # passcode as a string, e.g. "89631139"
    passcode: int
    name: str
    card_type: YugiohCardType
    monster_kinds: tuple[str, ...]  # ("Normal",), ("Effect", "Fusion"), ("Ritual", "Effect") ... () for Spells/Traps
    extra_deck: bool  # Fusion, Synchro, Xyz, Link (and their Pendulums)
    race: str = ""  # monster type, or the Spell/Trap property ("Quick-Play", "Field", ...)
    level: int | None = None
    alternate_passcodes: tuple[int, ...] = ()  # other arts of the same card


class MintaynCardType(StrEnum):
    MONSTER = "monster"
    SPELL = "spell"
    COUNTER = "counter"


@dataclass(frozen=True, slots=True)
class MintaynCard:
    key: str  # the name
    name: str
    card_type: MintaynCardType
    card_class: str  # Coreon, Fluxion, Synaphera, Obscura, Aetherion ("" when none)
    level: int | None
    defense: int | None
    stage: str  # "basic", "evolution", "prime evolution", "prime singular", or "" for non-monsters
    mana_cost: int | None


Card = PokemonCard | YugiohCard | MintaynCard


# --------------------------------------------------------------------------- banlists


@dataclass(frozen=True, slots=True)
class Banlist:
    """One Forbidden & Limited list: ``limits[passcode]`` copies allowed (0, 1, 2 or 3)."""

    name: str
    date: str | None  # "2026-05", from the name; None when the name has no date
    limits: dict[int, int] = field(default_factory=dict)
    whitelist: bool = False

    def allowed(self, passcodes: Iterable[int]) -> int:
        """Copies allowed of the card with these passcodes (its main one and its alternate arts).

        A card listed under several of its passcodes gets the strictest of their limits; a card
        the list does not name is unlimited (3), or forbidden (0) when the list is a whitelist.
        """
        listed = [self.limits[p] for p in passcodes if p in self.limits]
        if listed:
            return min(listed)
        return 0 if self.whitelist else 3

    @property
    def is_tcg(self) -> bool:
        return "TCG" in self.name.upper().split()
