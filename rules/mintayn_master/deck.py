"""Mintayn Master: the deck construction rules.

The rulebook (``mintayn-master-format.txt``) has no numbered sections, so violations name its
headings: "Deck Size & Construction" for the rules, "Balance Levers & Variants" for the other
deck sizes an event may choose.

Terms
-----
*deck*
    The one deck a player registers: Monsters, Spells and Counters together (every entry counts,
    whatever its zone; Mintayn has no Extra or Side Deck).
*copies of a card*
    The copies of every entry with that name, added up.
*prime card*
    A monster whose stage is ``prime evolution`` or ``prime singular``: 1 copy at most.

Rules (codes)
-------------
``deck_size``
    Exactly 60 cards, or the event's variant size (options ``{"deck_size": 50 | 60 | 70}``;
    ``None`` means the default).
``copy_limit``
    At most 3 copies of a card.
``prime_singleton``
    At most 1 copy of a Prime Evolution or Prime Singular.  A prime card over the limit is
    reported by this rule only, not by ``copy_limit`` as well.

The decklist's own problems (``unparseable_line``, ``unknown_card``) come first.

Contract
--------
``check(deck, options)`` returns every violation (empty: the deck is legal).  It raises
``ValueError`` for an option it does not know or a deck size other than 50, 60 or 70: that is a
bug or a misconfigured event, not a player's mistake.  Pure Python: no Django imports.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.deckrules import Deck, Violation, problem_violations
from rules.options import Option, Use
from rules.speech import phrase

RULE = "Deck Size & Construction"
VARIANTS_RULE = "Balance Levers & Variants"
DEFAULT_DECK_SIZE = 60
DECK_SIZES = (50, 60, 70)
COPY_LIMIT = 3
PRIME_STAGES = ("prime evolution", "prime singular")
DECK_SIZE = Option(
    name="deck_size",
    label=phrase("Deck size"),
    default=DEFAULT_DECK_SIZE,
    choices=DECK_SIZES,
    uses=frozenset({Use.DECK}),
    rule=VARIANTS_RULE,
    quote="Deck size: 60 (default); 50 or 70 in experimental formats.",
    value_names={
        50: phrase("50 cards (experimental)"),
        60: phrase("60 cards (default)"),
        70: phrase("70 cards (experimental)"),
    },
    help=phrase("Cards in a deck; decks are checked against it."),
)
OPTIONS: tuple[Option, ...] = (DECK_SIZE,)


def check(deck: Deck, options: Mapping[str, Any] | None = None) -> list[Violation]:
    """Every way ``deck`` breaks the Master format's deck construction rules."""
    deck_size = _deck_size(options or {})
    violations = problem_violations(deck)

    total = deck.count()
    if total != deck_size:
        if deck_size == DEFAULT_DECK_SIZE:
            rule = RULE
            message = phrase(
                "A deck has exactly %(needed)s cards; this one has %(count)s.", needed=deck_size, count=total
            )
        else:
            rule = f"{RULE}; {VARIANTS_RULE}"
            message = phrase(
                "A deck has exactly %(needed)s cards in this event's variant; this one has %(count)s.",
                needed=deck_size,
                count=total,
            )
        violations.append(Violation(code="deck_size", rule=rule, message=message))

    copies: dict[str, int] = {}
    primes: set[str] = set()
    for entry in deck.entries:
        copies[entry.card.name] = copies.get(entry.card.name, 0) + entry.count
        if getattr(entry.card, "stage", "") in PRIME_STAGES:
            primes.add(entry.card.name)
    for name, count in copies.items():
        if name in primes and count > 1:
            violations.append(
                Violation(
                    code="prime_singleton",
                    rule=RULE,
                    message=phrase(
                        "%(card)s is a Prime card: 1 copy at most; the deck has %(count)s.", card=name, count=count
                    ),
                    cards=(name,),
                )
            )
        elif name not in primes and count > COPY_LIMIT:
            violations.append(
                Violation(
                    code="copy_limit",
                    rule=RULE,
                    message=phrase(
                        "%(card)s: %(most)s copies at most; the deck has %(count)s.",
                        card=name,
                        most=COPY_LIMIT,
                        count=count,
                    ),
                    cards=(name,),
                )
            )
    return violations


def _deck_size(options: Mapping[str, Any]) -> int:
    unknown = set(options) - {o.name for o in OPTIONS}
    if unknown:
        raise ValueError(f"unknown mintayn-master deck option(s): {', '.join(sorted(map(str, unknown)))}")
    size = options.get("deck_size")
    if size is None:
        return DEFAULT_DECK_SIZE
    if type(size) is not int or size not in DECK_SIZES:
        raise ValueError(f"deck_size must be one of {DECK_SIZES}, not {size!r}")
    return size
