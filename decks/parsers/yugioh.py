"""Yu-Gi-Oh! decklists: ``.ydk`` files and ``ydke://`` links, resolved against the card pool.

Terms
-----
*.ydk*
    The deck file of YGOPro, EDOPro and most deck builders: one passcode per line, in sections
    opened by ``#main``, ``#extra`` and ``!side``.  Other ``#`` lines (``#created by ...``) are
    comments and blank lines are skipped.  A passcode may be followed by a ``#`` or ``--`` comment.
    Passcodes before any section header belong to ``main``.  Any other line is an
    ``unparseable_line`` problem; parsing never raises.
*ydke link*
    ``ydke://<main>!<extra>!<side>!``: each segment is the base64 of the passcodes as
    little-endian unsigned 32-bit integers.  A malformed link is one ``unparseable_line`` problem
    on line 1 (and whatever could be read is kept); every card of a link is on line 1.
*alternate passcode*
    The passcode of another art of a card (``YugiohCard.alternate_passcodes``); it resolves to
    the card.
*reference*
    How a player names a card outside a decklist, for a role such as the Deck Master: a passcode
    or a name, matched without regard to case, accents, curly quotes or the kind of dash.

Contract and choices
--------------------
* :func:`resolve_yugioh` returns one :class:`~rules.deckrules.Entry` per card and zone
  (copies added up, ``line`` the first line that named it) and one ``unknown_card`` problem per
  unknown passcode (at its first line, with how many copies were listed).
* Cards listed in ``main`` or ``extra`` are placed by what they are, as YGOPro's own deck loader
  does: an Extra Deck monster goes to ``extra``, anything else to ``main``.  ``side`` stays
  ``side``.  A deck file cannot then put a card in a deck it cannot be played from.
* The suggestion for an unknown passcode is the card whose passcode (or alternate) is nearest
  within :data:`NEAR_PASSCODE` (EDOPro's alternate arts are numbered next to the original, e.g.
  14558128 next to Ash Blossom & Joyous Spring's 14558127); for an unknown name it is the closest
  name (difflib), if any is close enough.

Pure Python: no Django imports.
"""

from __future__ import annotations

import base64
import binascii
import difflib
import re
import struct
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from rules.cards import YugiohCard
from rules.deckrules import Entry, Problem
from rules.speech import Phrase, phrase, phrases

MAX_PASSCODE = 2**32 - 1
NEAR_PASSCODE = 10
ZONES = ("main", "extra", "side")

_PASSCODE_LINE = re.compile(r"^(\d{1,10})(?:\s*(?:#|--).*|\s*)$")
_SECTIONS = {"#main": "main", "#extra": "extra", "!side": "side"}
_YDKE = "ydke://"


@dataclass(frozen=True, slots=True)
class ParsedYdk:
    """Passcodes by zone, each with the line that listed it, and the lines that could not be read."""

    main: list[tuple[int, int]] = field(default_factory=list)  # (passcode, line)
    extra: list[tuple[int, int]] = field(default_factory=list)
    side: list[tuple[int, int]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def zone(self, name: str) -> list[tuple[int, int]]:
        return {"main": self.main, "extra": self.extra, "side": self.side}[name]


# --------------------------------------------------------------------------- reading


def parse_yugioh(text: str) -> ParsedYdk:
    """A decklist as pasted: a ``ydke://`` link when it is one, else a ``.ydk`` file."""
    stripped = text.strip()
    if stripped.lower().startswith(_YDKE) and "\n" not in stripped:
        return parse_ydke(stripped)
    return parse_ydk(text)


def parse_ydk(text: str) -> ParsedYdk:
    """The passcodes of a ``.ydk`` file by section; never raises."""
    parsed = ParsedYdk()
    zone = "main"
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        section = _SECTIONS.get(line.lower())
        if section is not None:
            zone = section
            continue
        match = _PASSCODE_LINE.match(line)
        if match is not None and int(match.group(1)) <= MAX_PASSCODE:
            parsed.zone(zone).append((int(match.group(1)), number))
        elif line.startswith("#"):
            continue  # a comment: "#created by ...", or a section this format does not use
        else:
            parsed.problems.append(
                Problem(
                    code="unparseable_line",
                    line=number,
                    text=line[:200],
                    message=phrase(
                        "'%(line)s' is neither a card passcode nor a section header (#main, #extra, !side).",
                        line=_clip(line),
                    ),
                )
            )
    return parsed


def parse_ydke(url: str) -> ParsedYdk:
    """The passcodes of a ``ydke://`` link; a malformed link is a problem, never an exception."""
    parsed = ParsedYdk()
    link = url.strip()

    def malformed(message: Phrase) -> ParsedYdk:
        parsed.problems.append(Problem(code="unparseable_line", line=1, text=link[:200], message=message))
        return parsed

    if not link.lower().startswith(_YDKE):
        return malformed(phrase("This is not a valid ydke link: it does not start with ydke://."))
    segments = link[len(_YDKE) :].split("!")
    if segments and segments[-1] == "":
        segments.pop()  # the link ends with "!"
    if len(segments) != 3:
        return malformed(
            phrase(
                "This is not a valid ydke link: it needs 3 parts (main, extra, side) separated by '!', not %(parts)s.",
                parts=len(segments),
            )
        )
    for zone, segment in zip(ZONES, segments, strict=True):
        try:
            raw = base64.b64decode(segment + "=" * (-len(segment) % 4), validate=True)
        except (binascii.Error, ValueError):
            return malformed(_NOT_BASE64[zone])
        if len(raw) % 4:
            return malformed(_NOT_WHOLE_PASSCODES[zone])
        parsed.zone(zone).extend((passcode, 1) for (passcode,) in struct.iter_unpack("<I", raw))
    return parsed


# What is wrong with a part of a ydke link, one sentence per part (the parts' names are words to translate).
_NOT_BASE64 = {
    "main": phrase("This is not a valid ydke link: the main part is not base64."),
    "extra": phrase("This is not a valid ydke link: the extra part is not base64."),
    "side": phrase("This is not a valid ydke link: the side part is not base64."),
}
_NOT_WHOLE_PASSCODES = {
    "main": phrase("This is not a valid ydke link: the main part is not a whole number of 4-byte passcodes."),
    "extra": phrase("This is not a valid ydke link: the extra part is not a whole number of 4-byte passcodes."),
    "side": phrase("This is not a valid ydke link: the side part is not a whole number of 4-byte passcodes."),
}


# --------------------------------------------------------------------------- resolving


def fold_name(name: str) -> str:
    """A card name for matching: no accents, case-folded, plain quotes and dashes, single spaces."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    plain = plain.translate(_PUNCTUATION).casefold()
    return " ".join(plain.split())


_PUNCTUATION = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-", "‐": "-", "−": "-"})


@dataclass(frozen=True, slots=True)
class YugiohIndex:
    """A card pool for lookups: every passcode (alternates too) and every folded name to its card."""

    by_passcode: Mapping[int, YugiohCard]
    by_name: Mapping[str, YugiohCard]

    @classmethod
    def build(cls, cards: Iterable[YugiohCard]) -> YugiohIndex:
        by_passcode: dict[int, YugiohCard] = {}
        by_name: dict[str, YugiohCard] = {}
        cards = list(cards)
        for card in cards:
            by_passcode[card.passcode] = card
            by_name.setdefault(fold_name(card.name), card)
        for card in cards:  # a card's own passcode wins over another card's alternate
            for alternate in card.alternate_passcodes:
                by_passcode.setdefault(alternate, card)
        return cls(by_passcode=by_passcode, by_name=by_name)

    def suggest_name(self, name: str) -> str | None:
        close = difflib.get_close_matches(fold_name(name), list(self.by_name), n=1, cutoff=0.75)
        return self.by_name[close[0]].name if close else None


def resolve_yugioh(
    parsed: ParsedYdk,
    cards_by_passcode: Mapping[int, YugiohCard],
    names: Mapping[int, str] | None = None,
) -> tuple[list[Entry], list[Problem]]:
    """Entries for the passcodes of ``parsed``, and the parser's problems plus one per unknown passcode.

    ``cards_by_passcode`` is the card pool keyed by main passcode, with or without the alternates
    as keys too (:attr:`YugiohIndex.by_passcode`): alternates are also looked up on the cards, and
    suggestions come from the pool, so pass the whole pool, not only the cards the list names.
    ``names`` optionally names passcodes that are not in the pool (from a banlist's comments, say),
    so that the problem can say which card was meant.
    """
    lookup = _PassLookup(cards_by_passcode)
    counts: dict[tuple[str, str], list] = {}  # (key, zone) -> [card, count, first line]
    unknown: dict[int, list[int]] = {}  # passcode -> lines
    for listed_zone in ZONES:
        for passcode, line in parsed.zone(listed_zone):
            card = lookup.get(passcode)
            if card is None:
                unknown.setdefault(passcode, []).append(line)
                continue
            zone = listed_zone if listed_zone == "side" else ("extra" if card.extra_deck else "main")
            slot = counts.setdefault((card.key, zone), [card, 0, line])
            slot[1] += 1
            slot[2] = min(slot[2], line)
    entries = [Entry(card=card, count=count, zone=zone, line=line) for (_, zone), (card, count, line) in counts.items()]
    entries.sort(key=lambda e: (ZONES.index(e.zone), e.line or 0))
    problems = list(parsed.problems)
    for passcode, lines in unknown.items():
        problems.append(_unknown_passcode(passcode, lines, lookup, names or {}))
    problems.sort(key=lambda p: p.line)
    return entries, problems


def resolve_reference(ref: str, index: YugiohIndex) -> YugiohCard | Problem:
    """The card a reference names (a passcode or a name), or an ``unknown_card`` problem (line 0)."""
    text = ref.strip()
    if text.isdigit() and len(text) <= 10:
        card = index.by_passcode.get(int(text))
        if card is not None:
            return card
        near = _PassLookup(index.by_passcode).nearest(int(text))
        return Problem(
            code="unknown_card",
            line=0,
            text=text,
            message=phrase("No card in the card pool has passcode %(passcode)s.", passcode=text),
            suggestion=near.name if near else None,
        )
    card = index.by_name.get(fold_name(text))
    if card is not None:
        return card
    return Problem(
        code="unknown_card",
        line=0,
        text=text[:200],
        message=phrase("No card in the card pool is called '%(card)s'.", card=_clip(text)),
        suggestion=index.suggest_name(text),
    )


class _PassLookup:
    """Passcode lookup that also finds alternates, nearby passcodes and names (built when first needed)."""

    def __init__(self, cards_by_passcode: Mapping[int, YugiohCard]) -> None:
        self._direct = cards_by_passcode
        self._alternates: dict[int, YugiohCard] | None = None
        self._names: dict[str, YugiohCard] | None = None

    def _alts(self) -> dict[int, YugiohCard]:
        if self._alternates is None:
            self._alternates = {}
            for card in self._direct.values():
                for alternate in card.alternate_passcodes:
                    self._alternates.setdefault(alternate, card)
        return self._alternates

    def get(self, passcode: int) -> YugiohCard | None:
        return self._direct.get(passcode) or self._alts().get(passcode)

    def by_name(self, name: str) -> YugiohCard | None:
        if self._names is None:
            self._names = {}
            for card in self._direct.values():
                self._names.setdefault(fold_name(card.name), card)
        return self._names.get(fold_name(name))

    def nearest(self, passcode: int) -> YugiohCard | None:
        candidates = [
            (abs(known - passcode), known, card)
            for known in range(passcode - NEAR_PASSCODE, passcode + NEAR_PASSCODE + 1)
            if (card := self.get(known)) is not None
        ]
        return min(candidates, key=lambda c: (c[0], c[1]))[2] if candidates else None


def _unknown_passcode(passcode: int, lines: list[int], lookup: _PassLookup, names: Mapping[int, str]) -> Problem:
    known_as = names.get(passcode)
    message = _not_in_the_pool(passcode, len(lines), known_as)
    if known_as:
        named = lookup.by_name(known_as)
        suggestion = named.name if named else None
    else:
        suggestion = None
    if suggestion is None:
        near = lookup.nearest(passcode)
        suggestion = near.name if near else None
    return Problem(code="unknown_card", line=min(lines), text=str(passcode), message=message, suggestion=suggestion)


def _not_in_the_pool(passcode: int, copies: int, known_as: str | None) -> Phrase:
    """The sentence saying that a passcode is not in the card pool, with how many copies were listed when more than
    one, and the card's name when a banlist names it: one sentence for each case."""
    if copies > 1 and known_as:
        return phrases(
            "Passcode %(passcode)s (%(count)s copy) (%(card)s) is not in the card pool.",
            "Passcode %(passcode)s (%(count)s copies) (%(card)s) is not in the card pool.",
            copies,
            passcode=passcode,
            card=known_as,
        )
    if copies > 1:
        return phrases(
            "Passcode %(passcode)s (%(count)s copy) is not in the card pool.",
            "Passcode %(passcode)s (%(count)s copies) is not in the card pool.",
            copies,
            passcode=passcode,
        )
    if known_as:
        return phrase("Passcode %(passcode)s (%(card)s) is not in the card pool.", passcode=passcode, card=known_as)
    return phrase("Passcode %(passcode)s is not in the card pool.", passcode=passcode)


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
