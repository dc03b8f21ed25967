"""Read a Pokémon TCG decklist as text.

``parse_pokemon_decklist(text)`` turns a pasted decklist into ``ParsedLine``
records (count, name, set code, collector number, section) without looking at
the card pool; ``decks.resolve`` then finds the cards.  Pure Python, no Django.

Accepted forms (one card per line, case-insensitive keywords):

- **PTCGL / Limitless text**: section headers ``Pokémon: 12`` (also
  ``Pokemon: 12``, ``Trainer: 36``, ``Trainers: 36``, ``Energy: 12``), card
  lines ``COUNT NAME SET NUMBER`` (``4 Charizard ex OBF 125``, ``2 Arven SVI
  166``, ``1 Zekrom BRS TG05``; numbers with letters such as ``TG05``, ``GG56``,
  ``SV107``, ``SWSH076``, ``RC11``; promo codes such as ``PR-SV 12``), an
  optional trailing ``PH`` marker (a reverse holo / parallel print, ignored),
  and ``Total Cards: 60``.
- **PTCGO text**: the banner ``****** Pokémon Trading Card Game Deck List
  ******`` (any line framed by ``***``), headers ``##Pokémon - 12`` /
  ``##Trainer Cards - 36`` / ``##Energy - 12``, card lines ``* 1 Name SET NUM``,
  ``Total Cards - 60``.
- Also: headers ``Pokémon (12)``, counts written ``4x``, a set and number in
  brackets (``4 Charizard ex (OBF 125)`` / ``(OBF-125)``), and a card with no set
  (``4 Professor's Research``).
- **Basic Energy** in its usual spellings: ``8 Basic {R} Energy Energy 6`` (the
  PTCGO pseudo-set ``Energy``; its number is not meaningful and the resolver
  ignores it), ``10 Fire Energy SVE 2``, ``4 Basic Fire Energy``,
  ``4 {R} Energy``, ``5 Fire Energy``, ``3 Basic Psychic Energy SVE 5``.

Terms: a *section* is ``"pokemon"``, ``"trainer"`` or ``"energy"`` (the last
header seen above the line, ``None`` before any); ``section_totals`` holds the
counts the headers declare (a repeated header adds to its section) and
``declared_total`` the ``Total Cards`` figure.  Declared figures are recorded,
never checked here: deck size belongs to the format's deck rules.

Contract: blank lines, comment lines (starting with ``#`` but not ``##``, or
``//``), banners, headers and totals are consumed; every other line becomes
either a ``ParsedLine`` or a ``Problem(code="unparseable_line")`` with a
message.  ``line`` numbers count from 1 over ``text.splitlines()``.  A count
must be a whole number from 1 to ``MAX_COUNT`` (99: enough for a 75-card deck's
Basic Energy, too big for a typo such as ``400``).  The parser never raises.

Interpretation: the set token is what PTCGL/PTCGO print (upper-case letters and
digits, ``PR-XX`` promo codes, the ``Energy`` pseudo-set) or a pokemon-tcg-data
set id in lower case with a digit (``sv3pt5``); a name ending in such a token
and a number (``Tapu Lele GX 60``) is read as name, set and number -- the
resolver then tries the code as the end of the name when it is no set's code.
Names may contain ``#`` (``Blaine's Quiz #1``), so there are no end-of-line
comments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules.deckrules import Problem
from rules.speech import Phrase, phrase

MAX_COUNT = 99
SECTIONS = ("pokemon", "trainer", "energy")

_SET = r"(?:PR-[A-Z]{2,4}|[A-Z][A-Z0-9]{1,11}(?:-[A-Z]{2})?|[a-z]+[0-9][a-z0-9]*|Energy)"
_NUMBER = r"(?:[A-Za-z]{0,5}[0-9]{1,4}[A-Za-z]?|[A-Z]|[!?])"
_SECTION = re.compile(
    r"^(?:##\s*)?(?P<section>pok[eé]mon|trainers?(?:\s+cards)?|energy(?:\s+cards)?)"
    r"\s*(?:(?::|-|–)\s*(?P<n>[0-9]+)?|\(\s*(?P<n2>[0-9]+)\s*\))?\s*$",
    re.IGNORECASE,
)
_TOTAL = re.compile(r"^(?:##\s*)?total(?:\s+cards)?\s*(?::|-|–|=)?\s*(?P<n>[0-9]+)\s*$", re.IGNORECASE)
_BANNER = re.compile(r"^\*{3,}.*\*{3,}$")
_CARD = re.compile(r"^(?:[*•-]\s*)?(?P<count>[0-9]+)[xX×]?\s+(?P<rest>\S.*)$")
_WITH_SET = re.compile(rf"^(?P<name>.*?\S)\s+(?P<set>{_SET})\s+(?P<number>{_NUMBER})$")
_BRACKETED = re.compile(rf"^(?P<name>.*?\S)\s*\(\s*(?P<set>{_SET})(?:\s+|\s*-\s*)(?P<number>{_NUMBER})\s*\)$")
_PH = re.compile(r"\s+PH$")
_LETTER = re.compile(r"[^\W\d_]")


@dataclass(frozen=True, slots=True)
class ParsedLine:
    line: int  # 1-based line number in the pasted text
    text: str  # the line as written, stripped
    count: int
    name: str
    set_code: str | None  # as written ("OBF", "PR-SV", "Energy", "sv3pt5"), or None
    number: str | None  # as written ("125", "TG05"), or None
    section: str | None  # "pokemon", "trainer", "energy", or None before any header


@dataclass(frozen=True, slots=True)
class ParsedDecklist:
    lines: tuple[ParsedLine, ...]
    problems: tuple[Problem, ...]
    declared_total: int | None = None
    section_totals: dict[str, int] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return sum(line.count for line in self.lines)


def parse_pokemon_decklist(text: str) -> ParsedDecklist:
    """Read ``text`` line by line; see the module docstring for the forms and the contract."""
    lines: list[ParsedLine] = []
    problems: list[Problem] = []
    section_totals: dict[str, int] = {}
    declared_total: int | None = None
    section: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or _is_comment(line) or _BANNER.match(line):
            continue
        if m := _SECTION.match(line):
            section = _section_name(m.group("section"))
            declared = m.group("n") or m.group("n2")
            if declared is not None:
                section_totals[section] = section_totals.get(section, 0) + int(declared)
            continue
        if m := _TOTAL.match(line):
            declared_total = int(m.group("n"))
            continue
        m = _CARD.match(line)
        if m is None:
            problems.append(
                _problem(
                    number,
                    line,
                    phrase("Cannot read this line. Expected a card line such as '4 Charizard ex OBF 125'."),
                )
            )
            continue
        count = int(m.group("count"))
        if not 1 <= count <= MAX_COUNT:
            problems.append(
                _problem(
                    number,
                    line,
                    phrase("Cannot read this line. The count must be between 1 and %(most)s.", most=MAX_COUNT),
                )
            )
            continue
        reference = parse_card_reference(m.group("rest"))
        if reference is None:
            problems.append(_problem(number, line, phrase("Cannot read this line. No card name after the count.")))
            continue
        name, set_code, card_number = reference
        lines.append(ParsedLine(number, line, count, name, set_code, card_number, section))
    return ParsedDecklist(tuple(lines), tuple(problems), declared_total, section_totals)


def parse_card_reference(text: str) -> tuple[str, str | None, str | None] | None:
    """Split ``NAME [SET NUMBER]`` (a card line without its count) into name, set code and number.

    ``None`` when no name is left (nothing but digits and punctuation).
    """
    rest = " ".join(text.split())
    if m := (_WITH_SET.match(rest) or _BRACKETED.match(rest)):
        name, set_code, number = m.group("name"), m.group("set"), m.group("number")
    elif (stripped := _PH.sub("", rest)) != rest and (m := _WITH_SET.match(stripped) or _BRACKETED.match(stripped)):
        name, set_code, number = m.group("name"), m.group("set"), m.group("number")
    else:
        name, set_code, number = rest, None, None
    if not _LETTER.search(name):
        return None
    return name, set_code, number


def _is_comment(line: str) -> bool:
    return (line.startswith("#") and not line.startswith("##")) or line.startswith("//")


def _section_name(header: str) -> str:
    header = header.lower()
    if header.startswith("pok"):
        return "pokemon"
    return "trainer" if header.startswith("trainer") else "energy"


def _problem(line: int, text: str, message: Phrase) -> Problem:
    """An ``unparseable_line`` problem; ``message`` is the whole sentence ("Cannot read this line. ..."), one phrase
    for translators."""
    return Problem(code="unparseable_line", line=line, text=text, message=message)
