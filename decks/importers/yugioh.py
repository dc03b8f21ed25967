"""Yu-Gi-Oh! card pool and Forbidden & Limited lists, read from the files users import.

Terms
-----
*passcode*
    The 8-digit (at most 10-digit) number printed on a card and used by simulators and deck files;
    a card's ``key`` is its passcode as a string.  Alternate arts of a card have passcodes of their
    own (``alternate_passcodes``), usually the main one plus or minus a few.
*cardinfo*
    The JSON the YGOPRODeck API v7 serves: ``{"data": [card, ...]}`` with per card ``id`` (the
    passcode), ``name``, ``type`` ("Effect Monster", "Synchro Tuner Monster", "Spell Card" ...),
    ``frameType`` ("effect", "xyz_pendulum", "spell" ...), ``race``, ``level`` and ``card_images``
    (one ``{"id": passcode}`` per art).
*Extra Deck monster*
    A Fusion, Synchro, Xyz or Link monster, Pendulum or not (``frameType`` ``fusion``,
    ``synchro``, ``xyz``, ``link`` and their ``*_pendulum`` forms).  Everything else is played
    from the Main Deck.
*banlist*
    A Forbidden & Limited list in EDOPro's ``.lflist.conf`` format: ``#[name]`` names a list,
    ``!name`` starts one, ``$whitelist`` makes the current list a whitelist (cards it does not
    name are forbidden), other ``#`` lines are comments, and every other line is
    ``<passcode> <copies> --<comment>`` where copies is 0 (Forbidden), 1 (Limited),
    2 (Semi-Limited) or 3 (unlimited, which only matters in a whitelist).  One file may hold
    several lists.  A list's *date* is the ``YYYY.MM`` in its name (``"2026.05 TCG"``),
    normalised to ``"2026-05"`` so that dates sort as strings.

Contract and choices
--------------------
* :func:`load_cardinfo` returns one :class:`~rules.cards.YugiohCard` per passcode.
  ``monster_kinds`` are the words of ``type`` without "Monster", in their order, with "XYZ"
  spelt "Xyz" (``("Ritual", "Effect")``, ``("Synchro", "Tuner")``, ``("Pendulum", "Normal")``),
  plus "Effect" (or "Normal") when the frame says so and the type does not ("Tuner Monster" on
  an effect frame is ``("Tuner", "Effect")``).  The API does not say whether a Fusion, Synchro,
  Xyz, Link or Ritual monster has effects unless its type does, so no "Effect" is invented.
* The upstream data has a few records that share a passcode (a Yugipedia page title such as
  ``"Azamina (card)"`` next to ``"Azamina"``, two spellings of one card, and once two different
  cards).  Names lose Yugipedia's `` (card)`` disambiguator (no printed name ends with it); for
  each passcode the record with a TCG release date wins, then the first in the file.  The records
  left out are returned as notes by :func:`parse_cardinfo` and logged by :func:`load_cardinfo`.
* Records that are neither Monster, Spell nor Trap (Skills, Tokens) are left out with a note.
* :func:`parse_lflists` is strict: a line it cannot read is a ``ValueError`` naming the line,
  because a banlist read wrongly would judge every deck wrongly.

Pure Python: no Django imports.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from rules.cards import Banlist, YugiohCard, YugiohCardType

logger = logging.getLogger(__name__)

EXTRA_DECK_FRAMES = frozenset({"fusion", "synchro", "xyz", "link"})
_DISAMBIGUATOR = " (card)"


# --------------------------------------------------------------------------- cardinfo.json


def load_cardinfo(path: Path) -> list[YugiohCard]:
    """The cards of a YGOPRODeck ``cardinfo.json`` file, one per passcode, in the file's order."""
    with open(path, encoding="utf-8") as fh:
        payload = json.load(fh)
    cards, notes = parse_cardinfo(payload)
    for note in notes:
        logger.warning("%s: %s", path, note)
    return cards


def parse_cardinfo(payload: Mapping[str, Any]) -> tuple[list[YugiohCard], list[str]]:
    """The cards of an already decoded ``cardinfo.json``, and notes on the records left out."""
    records = payload.get("data") if isinstance(payload, Mapping) else None
    if not isinstance(records, list):
        raise ValueError('not a YGOPRODeck cardinfo file: expected {"data": [card, ...]}')
    notes: list[str] = []
    chosen: dict[int, tuple[bool, YugiohCard]] = {}  # passcode -> (has a TCG date, card)
    for index, record in enumerate(records):
        try:
            card = _card_from_record(record)
        except (KeyError, TypeError, ValueError) as exc:
            notes.append(f"record {index} ({_describe(record)}) left out: {exc}")
            continue
        if card is None:
            notes.append(f"record {index} ({_describe(record)}) left out: not a Monster, Spell or Trap card")
            continue
        dated = _has_tcg_date(record)
        kept = chosen.get(card.passcode)
        if kept is None:
            chosen[card.passcode] = (dated, card)
        elif dated and not kept[0]:
            notes.append(f"passcode {card.passcode}: {kept[1].name!r} replaced by {card.name!r} (has a TCG date)")
            chosen[card.passcode] = (dated, card)
        else:
            notes.append(f"passcode {card.passcode}: {card.name!r} left out, {kept[1].name!r} already has it")
    return [card for _, card in chosen.values()], notes


def _card_from_record(record: Mapping[str, Any]) -> YugiohCard | None:
    passcode = record["id"]
    if not isinstance(passcode, int) or isinstance(passcode, bool) or passcode <= 0:
        raise ValueError(f"bad passcode {passcode!r}")
    type_line = str(record.get("type") or "")
    frame = str(record.get("frameType") or "").lower()
    card_type = _card_type(type_line, frame)
    if card_type is None:
        return None
    name = str(record["name"]).strip().removesuffix(_DISAMBIGUATOR)
    if not name:
        raise ValueError("no name")
    is_monster = card_type == YugiohCardType.MONSTER
    level = record.get("level") if is_monster else None
    alternates: list[int] = []
    for image in record.get("card_images") or ():
        image_id = image.get("id") if isinstance(image, Mapping) else None
        if isinstance(image_id, int) and image_id != passcode and image_id not in alternates:
            alternates.append(image_id)
    return YugiohCard(
        key=str(passcode),
        passcode=passcode,
        name=name,
        card_type=card_type,
        monster_kinds=_monster_kinds(type_line, frame) if is_monster else (),
        extra_deck=is_monster and frame.removesuffix("_pendulum") in EXTRA_DECK_FRAMES,
        race=str(record.get("race") or ""),
        level=level if isinstance(level, int) and not isinstance(level, bool) else None,
        alternate_passcodes=tuple(alternates),
    )


def _card_type(type_line: str, frame: str) -> YugiohCardType | None:
    if frame == "spell" or type_line == "Spell Card":
        return YugiohCardType.SPELL
    if frame == "trap" or type_line == "Trap Card":
        return YugiohCardType.TRAP
    if "Monster" in type_line.split() and "token" not in frame and "Token" not in type_line:
        return YugiohCardType.MONSTER
    return None


def _monster_kinds(type_line: str, frame: str) -> tuple[str, ...]:
    words = ["Xyz" if w.upper() == "XYZ" else w for w in type_line.split() if w != "Monster"]
    # "Tuner Monster", "Gemini Monster" ... have an effect frame but no "Effect" in their type.
    base_frame = frame.removesuffix("_pendulum")
    if base_frame in ("effect", "normal") and base_frame.title() not in words:
        words.append(base_frame.title())
    return tuple(words)


def _has_tcg_date(record: Mapping[str, Any]) -> bool:
    misc = record.get("misc_info")
    return bool(misc and isinstance(misc, list) and isinstance(misc[0], Mapping) and misc[0].get("tcg_date"))


def _describe(record: Any) -> str:
    if isinstance(record, Mapping):
        return f"{record.get('id')!r} {record.get('name')!r}"
    return type(record).__name__


# --------------------------------------------------------------------------- .lflist.conf


_LIST_DATE = re.compile(r"\b(\d{4})\.(\d{1,2})\b")
_ENTRY = re.compile(r"^(\d{1,10})\s+(-?\d{1,2})(?:\s+(?:--|#).*|\s*)$")


def parse_lflists(text: str) -> list[Banlist]:
    """Every list in the text of an ``.lflist.conf`` file, in the file's order.

    Entry lines before any ``!name`` header form a list called ``""`` (see :func:`parse_lflist`).
    Raises ``ValueError`` naming the line when a line is not a header, comment or entry.
    """
    lists: list[tuple[str, dict[int, int], list[bool]]] = []
    pending_whitelist = False
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("!"):
            lists.append((line[1:].strip(), {}, [pending_whitelist]))
            pending_whitelist = False
            continue
        if line.lower().startswith("$whitelist"):
            if lists:
                lists[-1][2][0] = True
            else:
                pending_whitelist = True
            continue
        match = _ENTRY.match(line)
        if match is None:
            raise ValueError(f"line {number}: {line[:80]!r} is not '<passcode> <copies> --<comment>' nor a header")
        copies = int(match.group(2))
        if not 0 <= copies <= 3:
            raise ValueError(f"line {number}: {copies} copies is outside 0..3")
        if not lists:
            lists.append(("", {}, [pending_whitelist]))
            pending_whitelist = False
        lists[-1][1][int(match.group(1))] = copies
    return [
        Banlist(name=name, date=banlist_date(name), limits=limits, whitelist=flag[0]) for name, limits, flag in lists
    ]


def parse_lflist(text: str, name: str) -> Banlist:
    """The list called ``name`` in an ``.lflist.conf`` text.

    A text without any ``!name`` header (a bare list of entries) is the list ``name`` itself.
    Raises ``ValueError`` when the text holds named lists but none called ``name``.
    """
    lists = parse_lflists(text)
    if len(lists) == 1 and lists[0].name == "":
        only = lists[0]
        return Banlist(name=name, date=banlist_date(name), limits=only.limits, whitelist=only.whitelist)
    if not lists:
        return Banlist(name=name, date=banlist_date(name))
    for banlist in lists:
        if banlist.name == name:
            return banlist
    raise ValueError(f"no list called {name!r}; the text holds {', '.join(repr(b.name) for b in lists)}")


def load_lflists(directory: Path) -> list[Banlist]:
    """Every list of every ``*.lflist.conf`` file in ``directory`` (files in name order)."""
    banlists: list[Banlist] = []
    for path in sorted(Path(directory).glob("*.lflist.conf")):
        try:
            banlists.extend(parse_lflists(path.read_text(encoding="utf-8")))
        except ValueError as exc:
            raise ValueError(f"{path.name}: {exc}") from exc
    return banlists


def newest_tcg(banlists: Iterable[Banlist]) -> Banlist | None:
    """The TCG list with the latest date (``"2026.05 TCG"``), or None when there is none."""
    dated = [b for b in banlists if b.is_tcg and b.date is not None]
    return max(dated, key=lambda b: b.date or "", default=None)


def banlist_date(name: str) -> str | None:
    """``"2026-05"`` for ``"2026.05 TCG"``; None when the name carries no ``YYYY.MM``."""
    match = _LIST_DATE.search(name)
    if match is None or not 1 <= int(match.group(2)) <= 12:
        return None
    return f"{match.group(1)}-{int(match.group(2)):02d}"
