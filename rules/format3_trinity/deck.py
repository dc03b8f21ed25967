"""Format3 Trinity deck construction rules: "Rule Set #1 Deck Construction (The Signature Rule)".

A Trinity deck is 60 cards built around a *Signature* Pokémon, with one to
three Rule Box cards, at most three types, one copy of each card name (Basic
Energy aside), from Black & White onwards.  ``check(deck)`` returns every rule
the deck breaks (an empty list for a legal deck); each
:class:`~rules.deckrules.Violation` has the rulebook heading
``"Rule Set #1 Deck Construction"`` as its ``rule``.  Anything the rulebook does
not change follows the official rules (its "Quick Review").  Pure Python: no
Django imports.

Terms
-----
*Signature*
    ``deck.roles["signature"]``: the Pokémon the player starts the game with.
    It is one of the 60 (set aside before shuffling, then put on top of the
    deck: Rule Set #2), so it must be among ``deck.entries``.
*Rule Box card*
    A card carrying a Rule Box (:data:`rules.pokemon_deck.RULE_BOX_CLASSES`).
    *Interpretation:* Trainer and Energy cards with a Rule Box - Prism Star
    Trainers and Energy - count towards the three: the rule counts "Rule Box"
    *cards* and asks only the minimum one to be a Pokémon.  ACE SPEC is a deck
    limit and a TAG TEAM Supporter's banner is no Rule Box: neither counts.
    Copies count, the Signature included.
*type*
    *Interpretation:* the printed types of the deck's Pokémon (every type of a
    dual-type card) and the type each Basic Energy provides.  Colorless counts
    as a type - the rule's list names "Normal".  Trainers and Special Energy
    have no printed type and add none (what a Special Energy provides is card
    text, often several types at once).
*card pool*
    "Cards from Black & White forward".  *Interpretation:* a card is in the
    pool when its set belongs to the Black & White series (which counts the BW
    Black Star Promos, from 2011-03-01) or was released on or after the Black &
    White set itself, :data:`POOL_FROM` (2011-04-25) - so later series and
    side products (McDonald's Collection 2011 onwards) are in, and Call of
    Legends (2011-02-09) and everything before is out.  The printing listed is
    judged: a reprint of an older card is legal in a Black & White or later
    printing.  A card without a release date is not judged.

Codes
-----
``unparseable_line``, ``unknown_card``
    The decklist's problems, first (rule ``"decklist"``).
``role_missing``, ``role_not_in_deck``
    No Signature named, or the Signature is not one of the deck's cards.
``deck_size``
    Not exactly 60 cards.
``signature_invalid``
    The Signature is not a Basic Pokémon with a Rule Box.
``rule_box_count``
    No Rule Box card (the minimum is 1), or more than 3.
``type_count``
    More than 3 types; the cards named are those of the types played least,
    the likeliest to cut.
``singleton_name``
    Two or more copies of a card name, Basic Energy exempt ("regardless of
    whether or not there are any differences between 2 cards that may share
    the same name").  Pokémon count by name, not species: Charmander and
    Charizard ex may both be played.
``card_pool``
    A card from before Black & White, one violation per card.
``card_limit``
    *Interpretation:* the official rules printed on cards still apply - no
    more than 1 ACE SPEC card, 1 Radiant Pokémon, 1 Pokémon Star, and 1 Prism
    Star card of a name, in a deck.

No options are defined: any option is refused with ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.cards import Card
from rules.deckrules import Deck, Violation, problem_violations
from rules.pokemon_deck import (
    Copies,
    basic_energy_type,
    card_limit_violations,
    cards_of,
    copies_text,
    has_rule_box,
    is_basic_pokemon,
    is_pokemon,
    label,
    reject_unknown_options,
    role_violations,
    rule_box_classes,
    singleton_name_violations,
    tally,
)
from rules.speech import Phrase, phrase, phrases

RULE = "Rule Set #1 Deck Construction"
DECK_SIZE = 60
MAX_RULE_BOX = 3
MAX_TYPES = 3
#: The release of the Black & White set; the Black & White series (its promos began 2011-03-01) is in as well.
POOL_FROM = "2011-04-25"
POOL_SERIES = "Black & White"


def check(deck: Deck, options: Mapping[str, object] | None = None) -> list[Violation]:
    """Every Format3 Trinity deck construction rule ``deck`` breaks, decklist problems first."""
    reject_unknown_options(options, (), "Format3 Trinity")
    copies = tally(deck.entries)
    signature = deck.roles.get("signature")

    violations = problem_violations(deck)
    violations += role_violations(deck, required={"signature": RULE}, in_deck={"signature": RULE}, copies=copies)
    if deck.count() != DECK_SIZE:
        violations.append(
            Violation(
                "deck_size",
                RULE,
                phrases(
                    "The deck has %(count)s card; it must have exactly %(needed)s.",
                    "The deck has %(count)s cards; it must have exactly %(needed)s.",
                    deck.count(),
                    needed=DECK_SIZE,
                ),
            )
        )
    if signature is not None:
        violations += _signature(signature)
    violations += _rule_box_count(copies)
    violations += _type_count(copies)
    violations += singleton_name_violations(copies, RULE, message=_singleton_name)
    for c in copies.values():
        if not in_pool(c.card):
            message = _out_of_pool(c.card)
            violations.append(Violation("card_pool", RULE, message, (label(c.card),)))
    violations += card_limit_violations(copies, RULE)
    return violations


def in_pool(card: Card) -> bool:
    """Whether ``card``'s printing is Black & White or later (see the module docstring)."""
    series = getattr(card, "series", "")
    date = _date(card)
    return series == POOL_SERIES or not date or date >= POOL_FROM


def _date(card: Card) -> str:
    return getattr(card, "release_date", "").replace("/", "-")


def _singleton_name(count: int, name: str, listed: str) -> Phrase:
    return phrases(
        "%(count)s copy of '%(card)s' (%(copies)s): Trinity (singleton) allows only one.",
        "%(count)s copies of '%(card)s' (%(copies)s): Trinity (singleton) allows only one.",
        count,
        card=name,
        copies=listed,
    )


def _out_of_pool(card: Card) -> Phrase:
    series = getattr(card, "series", "")
    if series:
        return phrase(
            "%(card)s is from %(series)s (%(date)s): the card pool is Black & White forward.",
            card=label(card),
            series=series,
            date=_date(card),
        )
    return phrase(
        "%(card)s is from a set (%(date)s): the card pool is Black & White forward.", card=label(card), date=_date(card)
    )


def _signature(signature: Card) -> list[Violation]:
    if is_basic_pokemon(signature) and has_rule_box(signature):
        return []
    card = label(signature)
    if not is_pokemon(signature):
        message = phrase("The Signature, %(card)s, is not a Pokémon: it must be a Basic Rule Box Pokémon.", card=card)
    elif not is_basic_pokemon(signature):
        message = phrase(
            "The Signature, %(card)s, is not a Basic Pokémon: it must be a Basic Rule Box Pokémon.", card=card
        )
    else:
        message = phrase("The Signature, %(card)s, has no Rule Box: it must be a Basic Rule Box Pokémon.", card=card)
    return [Violation("signature_invalid", RULE, message, (card,))]


def _rule_box_count(copies: Mapping[str, Copies]) -> list[Violation]:
    group = [c for c in copies.values() if has_rule_box(c.card)]
    total = sum(c.count for c in group)
    if total == 0:
        return [
            Violation(
                "rule_box_count",
                RULE,
                phrase("The deck has no Rule Box card: it needs at least 1, the Signature Pokémon."),
            )
        ]
    if total <= MAX_RULE_BOX:
        return []
    listed = ", ".join(f"{copies_text(c)} ({'/'.join(sorted(rule_box_classes(c.card)))})" for c in group)
    return [
        Violation(
            "rule_box_count",
            RULE,
            phrases(
                "The deck has %(count)s Rule Box card (%(cards)s): at most %(most)s.",
                "The deck has %(count)s Rule Box cards (%(cards)s): at most %(most)s.",
                total,
                cards=listed,
                most=MAX_RULE_BOX,
            ),
            cards_of(group),
        )
    ]


def _type_count(copies: Mapping[str, Copies]) -> list[Violation]:
    by_type: dict[str, list[Copies]] = {}
    for c in copies.values():
        if is_pokemon(c.card):
            types: tuple[str, ...] = c.card.types
        else:
            energy = basic_energy_type(c.card)
            types = (energy,) if energy else ()
        for type_ in types:
            by_type.setdefault(type_, []).append(c)
    if len(by_type) <= MAX_TYPES:
        return []
    # Most played first (stable on first appearance): the cards of the rest are the ones to reconsider.
    ranked = sorted(by_type, key=lambda t: -sum(c.count for c in by_type[t]))
    fewest = ranked[MAX_TYPES:]
    concerned = list({c.card.key: c for t in fewest for c in by_type[t]}.values())
    counts = ", ".join(f"{t} ({sum(c.count for c in by_type[t])})" for t in ranked)
    return [
        Violation(
            "type_count",
            RULE,
            phrases(
                # Translators: %(types)s lists each type with its number of cards, most played first: "Fire (30),
                # Water (12), Grass (9), Psychic (1)"; %(least)s the types played least ("Psychic").
                "The deck uses %(count)s type - %(types)s: at most %(most)s (Colorless counts as one). "
                "Least played: %(least)s.",
                "The deck uses %(count)s types - %(types)s: at most %(most)s (Colorless counts as one). "
                "Least played: %(least)s.",
                len(by_type),
                types=counts,
                most=MAX_TYPES,
                least=", ".join(fewest),
            ),
            cards_of(concerned),
        )
    ]
