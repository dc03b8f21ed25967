"""Master Trainer (handbook v6.7) deck construction rules: §4, §8.5, §17 and the setup of §2.

A Master Trainer deck is 75 cards, the Master included; the Paragon waits
outside it.  ``check(deck)`` returns every rule the deck breaks (an empty list
for a legal deck), each as a :class:`~rules.deckrules.Violation` whose
``rule`` is the handbook section (``"§4.2"``).  Pure Python: no Django imports.

Terms
-----
*Creature*, *Support card*
    The handbook's words for Pokémon and for Trainer cards (Items, Supporters,
    Stadiums, Tools: §11.2 calls Items Support cards too).
*Master*, *Apex*, *Paragon*
    The cards in ``deck.roles["master"]``, ``["apex"]``, ``["paragon"]``.  The
    Master is part of the deck (§4.1) and so is the Apex (one of the 74 of the
    Main Deck); both must be among ``deck.entries`` (a reprint of the role
    card will do), and one card cannot fill both roles.  The Paragon sits in the Paragon Zone, outside the deck and its
    limits (§4.1, §17.1): it is not an entry, and a copy of it in the deck is
    just another card of the deck.
*high-tier class*
    V, GX, ex and EX (§4.3).  *Interpretation:* Pokémon VMAX, VSTAR and V-UNION
    are Pokémon V (as card effects treat them), TAG TEAM GX are GX, M Pokémon-EX
    are EX and Mega Evolution ex are ex - all high-tier.  Prism Star, Radiant,
    BREAK and the other Rule Box classes are not.
*identity*
    What §4.4, §8.5 and §17.2 ask cards to share: an *evolution line*, a
    *species* or a *printed Energy type* (see :mod:`rules.pokemon_deck`:
    species come from national Pokédex numbers, evolution lines from the
    ``evolves_from`` links of the deck's own cards and roles).

Codes
-----
``unparseable_line``, ``unknown_card``
    The decklist's problems, first (rule ``"decklist"``).
``role_missing`` (§4.1, §4.4)
    No Master, or no Apex: "each deck must designate exactly one Apex".
    *Interpretation:* the Paragon is optional - §17 limits a player to one
    Paragon per game and never requires one; a deck without one simply cannot
    ascend.
``role_not_in_deck`` (§4.1)
    The Master or the Apex is not a card of the deck.
``master_invalid`` (§4.1)
    The Master is not a Creature ("1 Master Creature").  Any Pokémon may be
    the Master, Basic or evolved (§8.3 keeps its evolution stage).
``deck_size`` (§4.1)
    Not exactly 75 cards.  Every entry counts (Pokémon decklists have one zone).
``singleton_species`` (§4.2)
    Two or more Creatures of one base species (Charizard, Dark Charizard and
    Charizard ex are one species).  *Interpretation:* a TAG TEAM (or LEGEND)
    counts as every species it shows: Reshiram & Charizard-GX clashes with any
    Charizard and with any Reshiram.  The Master counts, being part of the
    deck, so a Master and an Apex of the same species break this rule even
    though §4.4 names species identity as one way for them to match: they can
    match by evolution line or type instead, and a Paragon (outside the deck)
    can share the species.
``singleton_name`` (§4.2)
    Two or more Trainer or Energy cards of one exact printed name, Basic Energy
    exempt ("Great Ball" and "Team Rocket's Great Ball" are different cards).
``professor_clause`` (§4.2)
    More than one Support card with "Professor" in its name: every Trainer
    card, Items included ("Professor's Letter", "Impostor Professor Oak"),
    counted by copies.
``card_limit`` (§3)
    "Card text always overrides the rulebook": the deck limits printed on
    cards still hold - no more than 1 ACE SPEC card, 1 Radiant Pokémon, 1
    Pokémon Star, and 1 Prism Star card of a name, in a deck.
``sole_apex`` (§4.3)
    A high-tier card other than the one copy that is the Apex: "No additional
    cards from these classes may exist elsewhere in the deck" - the Master
    included.  Without a designated Apex, every high-tier card beyond the first
    is reported.
``apex_class`` (§4.3)
    The Apex is not a high-tier Creature (glossary: "the deck's designated
    high-tier centerpiece").
``apex_identity`` (§4.4)
    The Apex shares no evolution line, species or printed type with the Master.
``paragon_class`` (§17.2)
    The Paragon is not a Mega Evolution, VMAX or VSTAR Creature.
``paragon_identity`` (§17.2)
    The Paragon shares no evolution line, species or printed type with the
    Master nor with the Apex.
``identity_cohesion`` (§8.5)
    *Interpretation:* Master, Apex and Paragon must all three share one thing -
    a type printed on all three, a species on all three, or one evolution line
    through all three; §4.4 and §17.2 already ask for pairwise matches, so §8.5
    is read as the stronger, common identity.  Judged only when all three roles
    are Creatures; reported alongside any pairwise violation.
``basic_energy_missing`` (§2)
    No Basic Energy card: setup searches the deck for one Basic Energy Source.

No options are defined: any option is refused with ``ValueError``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from rules.cards import Card, PokemonCard
from rules.deckrules import Deck, Violation, problem_violations
from rules.pokemon_deck import (
    Copies,
    SpeciesIndex,
    SpeciesKey,
    card_limit_violations,
    cards_of,
    classes,
    copies_text,
    is_basic_energy,
    is_pokemon,
    is_trainer,
    label,
    reject_unknown_options,
    role_violations,
    same_card,
    singleton_name_violations,
    tally,
)
from rules.speech import Phrase, phrase, phrases

DECK_SIZE = 75

#: §4.3, with the Pokémon V family and the Mega Evolutions of EX and ex (see the docstring).
HIGH_TIER = ("ex", "EX", "GX", "V", "VMAX", "VSTAR", "V-UNION")
#: §17.2: class marker -> how the handbook names it.
PARAGON_CLASSES: Mapping[str, str] = {"MEGA": "Mega", "VMAX": "VMAX", "VSTAR": "VSTAR"}

_PROFESSOR = re.compile(r"\bprofessor\b", re.IGNORECASE)


def check(deck: Deck, options: Mapping[str, object] | None = None) -> list[Violation]:
    """Every Master Trainer deck construction rule ``deck`` breaks, decklist problems first."""
    reject_unknown_options(options, (), "Master Trainer")
    copies = tally(deck.entries)
    master, apex, paragon = (deck.roles.get(role) for role in ("master", "apex", "paragon"))
    index = SpeciesIndex([c.card for c in copies.values()] + [c for c in (master, apex, paragon) if c is not None])

    violations = problem_violations(deck)
    violations += role_violations(
        deck, required={"master": "§4.1", "apex": "§4.4"}, in_deck={"master": "§4.1", "apex": "§4.1"}, copies=copies
    )
    if master is not None and not is_pokemon(master):
        violations.append(
            Violation(
                "master_invalid",
                "§4.1",
                phrase("The Master, %(card)s, is not a Creature.", card=label(master)),
                (label(master),),
            )
        )
    if deck.count() != DECK_SIZE:
        violations.append(
            Violation(
                "deck_size",
                "§4.1",
                phrases(
                    "The deck has %(count)s card; it must have exactly %(needed)s, the Master included (the Paragon "
                    "is not counted).",
                    "The deck has %(count)s cards; it must have exactly %(needed)s, the Master included (the Paragon "
                    "is not counted).",
                    deck.count(),
                    needed=DECK_SIZE,
                ),
            )
        )
    violations += _singleton_species(copies, index)
    violations += singleton_name_violations(
        copies, "§4.2", message=_singleton_name, exempt=lambda card: is_pokemon(card) or is_basic_energy(card)
    )
    violations += _professor_clause(copies)
    violations += card_limit_violations(copies, "§3")
    violations += _apex_rules(copies, apex)
    violations += _identities(index, master, apex, paragon)
    if not any(is_basic_energy(c.card) for c in copies.values()):
        violations.append(
            Violation(
                "basic_energy_missing",
                "§2",
                phrase("The deck has no Basic Energy card: setup searches the deck for one Basic Energy Source."),
            )
        )
    return violations


def high_tier(card: Card) -> str | None:
    """The high-tier class of a Creature (``"ex"``, ``"VMAX"`` ...), or ``None``."""
    found = classes(card) if is_pokemon(card) else frozenset()
    return next((c for c in HIGH_TIER if c in found), None)


def paragon_class(card: Card) -> str | None:
    found = classes(card) if is_pokemon(card) else frozenset()
    return next((name for marker, name in PARAGON_CLASSES.items() if marker in found), None)


def _singleton_name(count: int, name: str, listed: str) -> Phrase:
    return phrases(
        "%(count)s copy of '%(card)s' (%(copies)s): the singleton rule allows only one.",
        "%(count)s copies of '%(card)s' (%(copies)s): the singleton rule allows only one.",
        count,
        card=name,
        copies=listed,
    )


def _singleton_species(copies: Mapping[str, Copies], index: SpeciesIndex) -> list[Violation]:
    by_species: dict[SpeciesKey, list[Copies]] = {}
    for c in copies.values():
        if is_pokemon(c.card):
            for key in index.species(c.card):
                by_species.setdefault(key, []).append(c)
    # A TAG TEAM duplicated by itself is one problem, not one per partner: merge species whose groups coincide.
    groups: dict[tuple[str, ...], list[SpeciesKey]] = {}
    for key, group in by_species.items():
        if sum(c.count for c in group) > 1:
            groups.setdefault(tuple(c.card.key for c in group), []).append(key)
    violations = []
    for keys in groups.values():
        group = by_species[keys[0]]
        count, listed = sum(c.count for c in group), ", ".join(copies_text(c) for c in group)
        names = [index.species_label(k) for k in keys]
        if all(names):
            message = phrases(
                "%(count)s Creature of the species %(species)s (%(cards)s): Creatures are singleton by base species.",
                "%(count)s Creatures of the species %(species)s (%(cards)s): Creatures are singleton by base species.",
                count,
                species=" / ".join(n for n in names if n),
                cards=listed,
            )
        else:
            message = phrases(
                "%(count)s Creature sharing a species (%(cards)s): Creatures are singleton by base species.",
                "%(count)s Creatures sharing a species (%(cards)s): Creatures are singleton by base species.",
                count,
                cards=listed,
            )
        violations.append(Violation("singleton_species", "§4.2", message, cards_of(group)))
    return violations


def _professor_clause(copies: Mapping[str, Copies]) -> list[Violation]:
    group = [c for c in copies.values() if is_trainer(c.card) and _PROFESSOR.search(c.card.name)]
    if sum(c.count for c in group) <= 1:
        return []
    return [
        Violation(
            "professor_clause",
            "§4.2",
            phrases(
                # Translators: "Professor" is the word as the cards' names print it.
                '%(count)s Support card with "Professor" in its name (%(cards)s): the Professor Clause allows one.',
                '%(count)s Support cards with "Professor" in their name (%(cards)s): the Professor Clause allows one.',
                sum(c.count for c in group),
                cards=", ".join(copies_text(c) for c in group),
            ),
            cards_of(group),
        )
    ]


def _apex_rules(copies: Mapping[str, Copies], apex: Card | None) -> list[Violation]:
    violations = []
    if apex is not None and high_tier(apex) is None:
        violations.append(
            Violation(
                "apex_class",
                "§4.3",
                phrase("The Apex, %(card)s, is not a V, GX, ex or EX Creature.", card=label(apex)),
                (label(apex),),
            )
        )
    # The one copy that is the Apex (or a reprint of it) is allowed; without an Apex, the first high-tier copy.
    allowance = 1 if apex is None or (high_tier(apex) and any(same_card(c.card, apex) for c in copies.values())) else 0
    for c in copies.values():
        tier = high_tier(c.card)
        if tier is None:
            continue
        extra = c.count
        if allowance and (apex is None or same_card(c.card, apex)):
            extra, allowance = extra - 1, 0
        if extra > 0:
            cards = copies_text(Copies(c.card, extra))
            if apex is None:
                message = phrase(
                    "%(cards)s is a Pokémon %(tier)s: V, GX, ex and EX cards may only exist as the Apex.",
                    cards=cards,
                    tier=tier,
                )
            else:
                message = phrase(
                    "%(cards)s is a Pokémon %(tier)s: V, GX, ex and EX cards may only exist as the Apex, %(apex)s.",
                    cards=cards,
                    tier=tier,
                    apex=label(apex),
                )
            violations.append(Violation("sole_apex", "§4.3", message, (label(c.card),)))
    return violations


def _identities(index: SpeciesIndex, master: Card | None, apex: Card | None, paragon: Card | None) -> list[Violation]:
    master_p, apex_p = _creature(master), _creature(apex)
    violations = []
    if master_p is not None and apex_p is not None and index.shared_identity([master_p, apex_p]) is None:
        violations.append(
            Violation(
                "apex_identity",
                "§4.4",
                phrase(
                    "The Apex, %(apex)s, shares no evolution line, species or printed Energy type with the Master, "
                    "%(master)s.",
                    apex=label(apex_p),
                    master=label(master_p),
                ),
                (label(apex_p), label(master_p)),
            )
        )
    if paragon is None:
        return violations
    if paragon_class(paragon) is None:
        violations.append(
            Violation(
                "paragon_class",
                "§17.2",
                phrase("The Paragon, %(card)s, is not a Mega, VMAX or VSTAR Creature.", card=label(paragon)),
                (label(paragon),),
            )
        )
    if not is_pokemon(paragon):
        return violations
    partners = [c for c in (master_p, apex_p) if c is not None]
    if partners and all(index.shared_identity([paragon, p]) is None for p in partners):
        message = _paragon_identity(paragon, master_p, apex_p)
        violations.append(
            Violation("paragon_identity", "§17.2", message, (label(paragon), *(label(p) for p in partners)))
        )
    if master_p is not None and apex_p is not None:
        trio = [master_p, apex_p, paragon]
        if index.shared_identity(trio) is None:
            violations.append(
                Violation(
                    "identity_cohesion",
                    "§8.5",
                    phrase(
                        "The Master, %(master)s, the Apex, %(apex)s, and the Paragon, %(paragon)s, do not all share "
                        "one evolution line, species or printed Energy type.",
                        master=label(master_p),
                        apex=label(apex_p),
                        paragon=label(paragon),
                    ),
                    tuple(label(c) for c in trio),
                )
            )
    return violations


def _creature(card: Card | None) -> PokemonCard | None:
    return card if card is not None and is_pokemon(card) else None


def _paragon_identity(paragon: Card, master: Card | None, apex: Card | None) -> Phrase:
    """``paragon_identity``'s sentence, naming the Master and the Apex the deck has (one of them at least)."""
    if master is not None and apex is not None:
        return phrase(
            "The Paragon, %(paragon)s, shares no evolution line, species or printed Energy type with the Master, "
            "%(master)s, nor with the Apex, %(apex)s.",
            paragon=label(paragon),
            master=label(master),
            apex=label(apex),
        )
    if master is not None:
        return phrase(
            "The Paragon, %(paragon)s, shares no evolution line, species or printed Energy type with the Master, "
            "%(master)s.",
            paragon=label(paragon),
            master=label(master),
        )
    assert apex is not None
    return phrase(
        "The Paragon, %(paragon)s, shares no evolution line, species or printed Energy type with the Apex, %(apex)s.",
        paragon=label(paragon),
        apex=label(apex),
    )
