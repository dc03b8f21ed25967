"""The contract every format's deck rules follow.

A *deck* is what a player registers: resolved cards with counts, in zones
(``main``; ``extra`` and ``side`` for Yu-Gi-Oh!), plus the cards that have a
*role* in the format (Master, Apex, Paragon; Signature; Trainer, starting
Pokémon, starting energy; Deck Master).  Lines of the decklist that could not
be read or resolved arrive as ``problems`` and are reported first.

A format's ``rules/<folder>/deck.py`` exposes ``check(deck, options)
-> list[Violation]`` (:class:`DeckRules`; the format's record holds it as ``deck_rules``): every violation with a stable ``code``, the rulebook
section (``rule``), a plain message and the cards concerned.  An empty list
means the deck is legal.  Pure Python: no Django imports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from rules.cards import Card
from rules.speech import Phrase

ROLES = ("master", "apex", "paragon", "signature", "trainer", "starting_pokemon", "starting_energy", "deck_master")


@dataclass(frozen=True, slots=True)
class Violation:
    code: str
    rule: str
    message: str
    cards: tuple[str, ...] = ()  # card names (with set and number for Pokémon) concerned

    def as_dict(self) -> dict[str, Any]:
        """Plain data; a message that is a phrase (:mod:`rules.speech`) keeps its template and values too, so a
        stored violation is said again in its reader's language (``say_stored``)."""
        data: dict[str, Any] = {"code": self.code, "rule": self.rule, "message": self.message, "cards": list(self.cards)}
        if isinstance(self.message, Phrase):
            data.update(self.message.as_data())
        return data


@dataclass(frozen=True, slots=True)
class Entry:
    card: Card
    count: int
    zone: str = "main"  # "main", "extra", "side"
    line: int | None = None  # line number in the decklist, for messages


@dataclass(frozen=True, slots=True)
class Problem:
    """A decklist line that could not be read (``unparseable_line``) or resolved (``unknown_card``)."""

    code: str
    line: int
    text: str
    message: str
    suggestion: str | None = None


@dataclass(frozen=True, slots=True)
class Deck:
    entries: tuple[Entry, ...]
    roles: Mapping[str, Card] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()

    def count(self, zone: str | None = None) -> int:
        return sum(e.count for e in self.entries if zone is None or e.zone == zone)


class DeckRules(Protocol):
    """A format's deck rules: a ``deck`` module with a ``check`` function, or any object with one."""

    def check(self, deck: Deck, options: Mapping[str, Any] | None = None, /) -> list[Violation]: ...


def problem_violations(deck: Deck) -> list[Violation]:
    """The parser's problems as violations (rule "decklist"), for every format to report first."""
    return [
        Violation(
            code=p.code,
            rule="decklist",
            message=f"Line {p.line}: {p.message}" + (f" Did you mean {p.suggestion!r}?" if p.suggestion else ""),
            cards=(p.text,),
        )
        for p in deck.problems
    ]
