"""Mintayn decklists: ``COUNT NAME`` lines, resolved against the Mintayn card pool.

Format
------
One card per line, in any of these forms (``x`` may also be ``X`` or ``×``)::

    3 Ember Whelp
    3x Ember Whelp
    3 x Ember Whelp
    Ember Whelp x 3
    Ember Whelp x3

The count is 1 to 999.  Blank lines, comments (``#`` or ``//``) and headings that end with a
colon (``Monsters:``) are skipped.  Anything else is an ``unparseable_line`` problem; parsing never
raises.  A card listed on several lines counts once with the copies added up.

Names are matched without regard to case, accents, curly quotes or the kind of dash; a name that
matches no card is an ``unknown_card`` problem with the closest name as its suggestion, when one
is close enough.  Pure Python: no Django imports.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from decks.parsers.yugioh import fold_name  # the same name folding for every family
from rules.cards import MintaynCard
from rules.deckrules import Entry, Problem
from rules.speech import phrase

MAX_COUNT = 999

_COUNT_FIRST = re.compile(r"^(\d{1,3})\s*[xX×]?\s+(\S.*)$")
_COUNT_LAST = re.compile(r"^(\S.*?)\s+[xX×]\s*(\d{1,3})$")


@dataclass(frozen=True, slots=True)
class ParsedMintayn:
    """The decklist's lines as ``(count, name, line)``, and the lines that could not be read."""

    lines: list[tuple[int, str, int]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def parse_mintayn(text: str) -> ParsedMintayn:
    """The ``(count, name, line)`` of every card line; never raises."""
    parsed = ParsedMintayn()
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = " ".join(raw.split())
        if not line or line.startswith(("#", "//")) or line.endswith(":"):
            continue
        match = _COUNT_FIRST.match(line)
        count, name = (match.group(1), match.group(2)) if match else ("", "")
        if not match and (match := _COUNT_LAST.match(line)):
            name, count = match.group(1), match.group(2)
        if not match:
            parsed.problems.append(
                Problem(
                    code="unparseable_line",
                    line=number,
                    text=line[:200],
                    message=phrase(
                        "'%(line)s' is not a card line such as '3 Card Name' or 'Card Name x3'.", line=_clip(line)
                    ),
                )
            )
        elif int(count) < 1:
            parsed.problems.append(
                Problem(
                    code="unparseable_line",
                    line=number,
                    text=line[:200],
                    message=phrase("A card line needs 1 copy or more."),
                )
            )
        else:
            parsed.lines.append((int(count), name.strip(), number))
    return parsed


def resolve_mintayn(
    parsed: ParsedMintayn, cards_by_name: Mapping[str, MintaynCard]
) -> tuple[list[Entry], list[Problem]]:
    """Entries (zone ``main``) for the lines of ``parsed``, and its problems plus one per unknown name.

    ``cards_by_name`` maps a card's key (its name) to the card; matching folds case and accents.
    """
    folded: dict[str, MintaynCard] = {}
    for card in cards_by_name.values():
        folded.setdefault(fold_name(card.name), card)
    slots: dict[str, list] = {}  # key -> [card, count, first line]
    problems = list(parsed.problems)
    for count, name, line in parsed.lines:
        card = folded.get(fold_name(name))
        if card is None:
            close = difflib.get_close_matches(fold_name(name), list(folded), n=1, cutoff=0.75)
            problems.append(
                Problem(
                    code="unknown_card",
                    line=line,
                    text=name[:200],
                    message=phrase("No Mintayn card is called '%(card)s'.", card=_clip(name)),
                    suggestion=folded[close[0]].name if close else None,
                )
            )
            continue
        slot = slots.setdefault(card.key, [card, 0, line])
        slot[1] += count
    problems.sort(key=lambda p: p.line)
    return [Entry(card=card, count=count, zone="main", line=line) for card, count, line in slots.values()], problems


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
