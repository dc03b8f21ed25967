"""Load Pokémon TCG cards from a pokemon-tcg-data checkout.

The layout is that of the ``PokemonTCG/pokemon-tcg-data`` repository:
``sets/en.json`` (one record per set) and ``cards/en/<set id>.json`` (the
cards of one set).  ``load_pokemon(root)`` returns the sets as
``PokemonSet`` and the cards as ``rules.cards.PokemonCard``, in file order.
Pure Python, no Django.

Terms and mapping (data field -> ``PokemonCard`` field):

- ``set_code``: the set's ``ptcgoCode``, the code PTCGO/PTCGL decklists use
  (``"OBF"``); ``""`` when the set has none.  Subsets share their parent's code
  (``swsh9tg`` and ``swsh9`` are both ``BRS``).
- ``stage``: the stage subtype.  ``Basic``, ``Stage 1``, ``Stage 2`` when the card
  names one (Scarlet & Violet era ``Mega ... ex`` are printed as Basic/Stage 1/
  Stage 2 and keep it); otherwise the special stage as the data spells it:
  ``BREAK``, ``VMAX``, ``VSTAR``, ``V-UNION``, ``LEGEND``, ``Restored``,
  ``Level-Up`` (LV.X), ``MEGA`` (XY ``M ...-EX``), ``Baby``.  ``""`` for Trainers
  and Energy.
- ``trainer_kind``: ``Item``, ``Supporter``, ``Stadium``, ``Pokémon Tool``,
  ``Technical Machine``, ``Rocket's Secret Machine``, ``Goldenrod Game Corner``.
  An ``Item`` that is also a ``Pokémon Tool`` (Black & White era tools) is a
  ``Pokémon Tool``; ``Pokémon Tool F`` (Team Flare Hyper Gear) is a
  ``Pokémon Tool``.  ``""`` for the early Trainers the data leaves untyped.
- ``energy_kind``: ``Basic`` or ``Special``.
- ``rule_box``: the Rule Box class.  A Rule Box is the boxed special rule printed
  on the card ("Pokémon ex rule: ...", "VMAX rule: ...", "◇ (Prism Star) Rule:
  ..."); the Battle Styles / Chilling Reign rule update names Pokémon V, VMAX,
  GX, Prism Star, TAG TEAM, EX, Mega Evolution and BREAK, and later sets add
  VSTAR, V-UNION, Radiant and ex.  The older classes whose cards carry such a box
  are included too: LEGEND ("put this card onto your Bench only with the other
  half"), LV.X ("put this card onto your Active ...") and Pokémon Star ★ ("you
  can't have more than 1 Pokémon Star in your deck").  Classes, checked in this
  order (a TAG TEAM is also GX, a Mega is also EX/ex):

  ========== ===========================================================
  class      when
  ========== ===========================================================
  TAG TEAM   subtype ``TAG TEAM`` (Pokémon only)
  V-UNION    subtype ``V-UNION``
  VMAX       subtype ``VMAX``
  VSTAR      subtype ``VSTAR``
  V          subtype ``V``
  MEGA       subtype ``MEGA``, or a name ``M ...-EX`` / ``Mega ... ex``
  GX         subtype ``GX``
  ex         the word ``ex`` in lower case in the name (Scarlet & Violet
             and EX-era alike; the data tags a few EX-era ``... ex`` as
             ``EX``), or subtype ``ex``
  EX         subtype ``EX`` (Black & White / XY ``...-EX``)
  Radiant    subtype ``Radiant``
  Prism Star subtype ``Prism Star`` or ◇ in the name -- Pokémon, Trainers
             and Energy alike (the only non-Pokémon Rule Box)
  LEGEND     subtype ``LEGEND``
  BREAK      subtype ``BREAK``
  LV.X       subtype ``Level-Up``
  Star       subtype ``Star`` (★)
  ========== ===========================================================

  Interpretations: **Prime** (HeartGold & SoulSilver) cards have no rule text at
  all, so they are *not* Rule Box cards and get ``""`` (``PokemonCard.has_rule_box``
  is ``bool(rule_box)``, so a class there would make them count as Rule Box
  cards); the ``Prime`` subtype stays in ``subtypes``.  The same holds for ACE
  SPEC (its one-per-deck rule is not a Rule Box unless the card is also one of
  the classes above), TAG TEAM Supporters, Shining Pokémon, Team Plasma, Ultra
  Beasts, Ancient/Future and Tera (Tera Pokémon are all ``ex``).
- ``types``: the card's types; a Basic Energy the data leaves untyped gets the
  type its name says (``"Fire Energy"`` -> ``("Fire",)``).
- ``national_dex``: ``nationalPokedexNumbers`` (several for TAG TEAMs and
  LEGENDs, ``()`` when absent).
- ``release_date``: the set's ``releaseDate`` (``2023/08/11``) as ISO
  ``2023-08-11``; ``series``: the set's series.
- ``regulation_mark``: ``regulationMark`` or ``""``; ``hp``: ``int`` or ``None``.

Errors: a file that cannot be read, is not JSON, or holds a record that cannot
be mapped (missing field, unknown supertype, a card file for a set that
``sets/en.json`` does not list) raises ``ValueError`` naming the file.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from rules.cards import PokemonCard, Supertype

STAGES = (
    "Basic",
    "Stage 1",
    "Stage 2",
    "BREAK",
    "VMAX",
    "VSTAR",
    "V-UNION",
    "LEGEND",
    "Restored",
    "Level-Up",
    "MEGA",
    "Baby",
)
TRAINER_KINDS = (
    "Pokémon Tool",
    "Technical Machine",
    "Supporter",
    "Stadium",
    "Item",
    "Rocket's Secret Machine",
    "Goldenrod Game Corner",
)
ENERGY_TYPES = ("Grass", "Fire", "Water", "Lightning", "Psychic", "Fighting", "Darkness", "Metal", "Fairy")

_LOWER_EX = re.compile(r"\bex\b")
_BASIC_ENERGY_NAME = re.compile(r"^(?:Basic )?(" + "|".join(ENERGY_TYPES) + r") Energy$")


@dataclass(frozen=True, slots=True)
class PokemonSet:
    id: str  # pokemon-tcg-data set id, e.g. "sv3"
    name: str  # "Obsidian Flames"
    series: str  # "Scarlet & Violet"
    ptcgo_code: str  # "OBF", or "" when the set has none
    release_date: str  # ISO, "2023-08-11"
    total: int  # cards in the set, secret rares included


def load_pokemon(root: Path) -> tuple[list[PokemonSet], list[PokemonCard]]:
    """Read ``root/sets/en.json`` and ``root/cards/en/*.json``; see the module docstring."""
    root = Path(root)
    sets_path = root / "sets" / "en.json"
    raw_sets = _read_json(sets_path)
    if not isinstance(raw_sets, list):
        raise ValueError(f"{sets_path}: expected a list of sets")
    sets: list[PokemonSet] = []
    for i, raw in enumerate(raw_sets):
        try:
            sets.append(_set_from(raw))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{sets_path}: set #{i}: {exc!r}") from exc
    by_id = {s.id: s for s in sets}

    cards_dir = root / "cards" / "en"
    if not cards_dir.is_dir():
        raise ValueError(f"{cards_dir}: no such directory")
    order = {s.id: i for i, s in enumerate(sets)}
    files = sorted(cards_dir.glob("*.json"), key=lambda p: (order.get(p.stem, len(order)), p.stem))
    cards: list[PokemonCard] = []
    for path in files:
        card_set = by_id.get(path.stem)
        if card_set is None:
            raise ValueError(f"{path}: set {path.stem!r} is not listed in {sets_path}")
        raw_cards = _read_json(path)
        if not isinstance(raw_cards, list):
            raise ValueError(f"{path}: expected a list of cards")
        for i, raw in enumerate(raw_cards):
            try:
                cards.append(_card_from(raw, card_set))
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                ident = raw.get("id", f"#{i}") if isinstance(raw, dict) else f"#{i}"
                raise ValueError(f"{path}: card {ident}: {exc!r}") from exc
    return sets, cards


def _read_json(path: Path) -> Any:
    try:
        with path.open("rb") as f:
            return json.load(f)
    except OSError as exc:
        raise ValueError(f"{path}: cannot read: {exc}") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: invalid JSON: {exc}") from exc


def _set_from(raw: dict[str, Any]) -> PokemonSet:
    return PokemonSet(
        id=_str(raw["id"]),
        name=_str(raw["name"]),
        series=_str(raw.get("series") or ""),
        ptcgo_code=_str(raw.get("ptcgoCode") or ""),
        release_date=_iso_date(raw["releaseDate"]),
        total=int(raw["total"]),
    )


def _iso_date(value: str) -> str:
    year, month, day = (int(part) for part in _str(value).split("/"))
    return date(year, month, day).isoformat()


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r}")
    return value


def _card_from(raw: dict[str, Any], card_set: PokemonSet) -> PokemonCard:
    name = _str(raw["name"])
    supertype = Supertype(raw["supertype"])
    subtypes = tuple(_str(s) for s in raw.get("subtypes") or ())
    types = tuple(_str(t) for t in raw.get("types") or ())
    energy_kind = _energy_kind(supertype, subtypes)
    if energy_kind == "Basic" and not types and (m := _BASIC_ENERGY_NAME.match(name)):
        types = (m.group(1),)
    hp = raw.get("hp")
    return PokemonCard(
        key=_str(raw["id"]),
        name=name,
        set_id=card_set.id,
        set_code=card_set.ptcgo_code,
        number=_str(raw["number"]),
        supertype=supertype,
        subtypes=subtypes,
        stage=_stage(supertype, subtypes),
        trainer_kind=_trainer_kind(supertype, subtypes),
        energy_kind=energy_kind,
        rule_box=rule_box_class(supertype, subtypes, name),
        types=types,
        evolves_from=_str(raw.get("evolvesFrom") or ""),
        national_dex=tuple(int(n) for n in raw.get("nationalPokedexNumbers") or ()),
        release_date=card_set.release_date,
        series=card_set.series,
        regulation_mark=_str(raw.get("regulationMark") or ""),
        hp=int(hp) if hp not in (None, "", "None") else None,
    )


def _stage(supertype: Supertype, subtypes: tuple[str, ...]) -> str:
    if supertype != Supertype.POKEMON:
        return ""
    return next((stage for stage in STAGES if stage in subtypes), "")


def _trainer_kind(supertype: Supertype, subtypes: tuple[str, ...]) -> str:
    if supertype != Supertype.TRAINER:
        return ""
    if "Pokémon Tool F" in subtypes:
        return "Pokémon Tool"
    return next((kind for kind in TRAINER_KINDS if kind in subtypes), "")


def _energy_kind(supertype: Supertype, subtypes: tuple[str, ...]) -> str:
    if supertype != Supertype.ENERGY:
        return ""
    return next((kind for kind in ("Basic", "Special") if kind in subtypes), "")


def rule_box_class(supertype: Supertype | str, subtypes: tuple[str, ...], name: str) -> str:
    """The Rule Box class of a card (table in the module docstring), or ``""``."""
    subs = set(subtypes)
    if "Prism Star" in subs or "◇" in name:
        prism = "Prism Star"
    else:
        prism = ""
    if supertype != Supertype.POKEMON:
        return prism
    for cls in ("TAG TEAM", "V-UNION", "VMAX", "VSTAR", "V"):
        if cls in subs:
            return cls
    lower_ex = bool(_LOWER_EX.search(name))
    if "MEGA" in subs or (name.startswith("M ") and "EX" in subs) or (name.startswith("Mega ") and lower_ex):
        return "MEGA"
    if "GX" in subs:
        return "GX"
    if lower_ex or "ex" in subs:
        return "ex"
    if "EX" in subs:
        return "EX"
    if "Radiant" in subs:
        return "Radiant"
    if prism:
        return prism
    for subtype, cls in (("LEGEND", "LEGEND"), ("BREAK", "BREAK"), ("Level-Up", "LV.X"), ("Star", "Star")):
        if subtype in subs:
            return cls
    return ""
