"""What the three Pokémon formats' deck rules share: names, species, classes, tallies, roles.

Master Trainer, Format3 Trinity and Mt. Silver judge decks of
:class:`~rules.cards.PokemonCard` records.  This module holds the vocabulary
they have in common, so that each format's ``deck.py`` reads like its rulebook.
Pure Python: no Django imports.

Terms
-----
*label*
    How a card is named in messages and in :attr:`Violation.cards`: printed
    name, set code (the set id when the set has none) and collector number,
    ``"Charizard ex OBF 125"``.
*same card*
    Two records are one card for the rules when they are the same record
    or reprints of each other: another art or collector number with the same
    card name and the same game attributes (supertype, subtypes, stage,
    types, HP, ``evolves_from``, species, rule box).  A role named by one
    print is in the deck when the deck lists any reprint of it.  The records
    carry no attack or rules text, so two same-named cards that differ only in
    text (Charizard V DAA 19 and BRS 17) count as one here; they are the same
    to every rule these formats check.
*card name*
    The name used when a rule compares names ("no more than 1 copy of any card
    other than Basic Energy", "checked by exact printed name"): the printed
    name with typographic quotes and spacing made uniform and a trailing
    parenthesis dropped.  The card data names art variants in a parenthesis
    (``"Professor's Research (Professor Magnolia)"``) that is not printed in
    the card's title, so those count as ``"Professor's Research"``.
*species*
    The Pokémon a card depicts, from ``national_dex`` (a TAG TEAM or LEGEND
    card has several).  A card without dex numbers (a few recent promos) gets
    the dex number of another known card of the same *species name*, or else
    the species name itself as its key.
*species name*
    A heuristic base name: the card name without owner prefixes
    (``"Team Rocket's "``, ``"Misty's "``), regional and era prefixes
    (``"Dark "``, ``"Alolan "``, ``"Radiant "``, ``"M "``, ``"Mega "``) and class
    suffixes (``" ex"``, ``"-EX"``, ``"-GX"``, ``" V"``, ``" VMAX"``, ``" BREAK"``,
    ``" LV.X"``, ``" ◇"`` ...).  ``"Dark Charizard"`` → ``"Charizard"``; a TAG
    TEAM gives one name per partner.
*classes*
    Every class marker of a card: its subtypes, its ``rule_box`` and its
    ``stage`` (``{"Basic", "V"}``, ``{"VMAX"}``, ``{"Stage 2", "MEGA", "ex"}``).
*Rule Box*
    The box of special rules printed on Pokémon ex, EX, GX, V, VMAX, VSTAR,
    V-UNION, Mega Evolution, TAG TEAM, Prism Star, Radiant, BREAK, LEGEND,
    LV.X and Pokémon Star Pokémon, and on Prism Star Trainers and Energy (the
    only other cards with one: a TAG TEAM Supporter has a banner, not a Rule
    Box - as in ``decks.importers.pokemon``).  *Interpretation:* a ``rule_box``
    value outside that list counts as a Rule Box (a class printed after this
    list was written), except ``"Prime"`` and ``"ACE SPEC"``, which are markers
    without a Rule Box.
*evolution line*
    Two species are on one evolution line when one evolves, directly or
    through intermediate stages, into the other (or they are the same
    species).  Links come from ``evolves_from`` of the cards the index was
    built from, so a line is only known as far as the deck shows it: Charmander
    and Charizard ex are linked when the deck holds a Charmeleon.  Siblings
    (Vaporeon and Sylveon, both from Eevee) are not on one line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TypeGuard

from rules.cards import Card, PokemonCard, Supertype
from rules.deckrules import Deck, Entry, Violation
from rules.speech import Phrase, phrase, phrases

#: Class markers that carry a Rule Box (see the module docstring).
RULE_BOX_CLASSES = frozenset(
    {
        "ex",
        "EX",
        "GX",
        "V",
        "VMAX",
        "VSTAR",
        "V-UNION",
        "MEGA",
        "TAG TEAM",
        "Prism Star",
        "Radiant",
        "BREAK",
        "LEGEND",
        "LV.X",
        "Level-Up",
        "Star",
    }
)
#: ``rule_box`` values that name a marker, not a Rule Box.
NOT_RULE_BOX = frozenset({"Prime", "ACE SPEC"})

#: The printed types of the game (Trinity's "Normal" is Colorless, its "Electric" Lightning).
TYPES = frozenset(
    {"Grass", "Fire", "Water", "Lightning", "Psychic", "Fighting", "Darkness", "Metal", "Fairy", "Dragon", "Colorless"}
)

# --- names ----------------------------------------------------------------------------------------

_QUOTES = str.maketrans({"’": "'", "‘": "'", "`": "'", "´": "'", "“": '"', "”": '"'})
_SPACES = re.compile(r"\s+")
_PARENTHESIS = re.compile(r"\s*\([^()]*\)\s*$")

_PREFIXES = re.compile(
    r"^(?:"
    r"(?:Team Rocket|Team Aqua|Team Magma|Team Plasma|Rocket|[A-Z][\w.]*(?: [A-Z][\w.]*)?)'s\s+"  # owners
    r"|Dark\s+|Light\s+|Shining\s+|Radiant\s+|Mega\s+|M\s+|Alolan\s+|Galarian\s+|Hisuian\s+|Paldean\s+"
    r"|Ice Rider\s+|Shadow Rider\s+|Single Strike\s+|Rapid Strike\s+|Origin Forme\s+|Flying\s+|Surfing\s+"
    r"|Detective\s+|Special Delivery\s+|Black\s+(?=Kyurem)|White\s+(?=Kyurem)"
    r"|Dusk Mane\s+|Dawn Wings\s+|Ultra\s+(?=Necrozma)|Primal\s+|Crowned Sword\s+|Crowned Shield\s+"
    r"|Bloodmoon\s+|Teal Mask\s+|Wellspring Mask\s+|Hearthflame Mask\s+|Cornerstone Mask\s+"
    r")+"
)
_SUFFIXES = re.compile(
    r"(?:"
    r"[\s-]+(?:ex|EX|GX|V|VMAX|VSTAR|V-UNION|BREAK|LV\.X|LEGEND|Prime|G|GL|FB|C|4|E4|δ|◇|★|\[G\]|X|Y)"
    r"|\s*[◇★δ]"
    r")+$"
)


def card_name(name: str) -> str:
    """The name rules compare: uniform quotes and spacing, a trailing art-variant parenthesis dropped."""
    name = _SPACES.sub(" ", name.translate(_QUOTES)).strip()
    return _PARENTHESIS.sub("", name) or name


def species_names(name: str) -> tuple[str, ...]:
    """The base species names on a card, partners of a TAG TEAM or LEGEND in printed order."""
    names: list[str] = []
    for part in card_name(name).split(" & "):
        base = _SUFFIXES.sub("", _PREFIXES.sub("", part.strip())).strip() or part.strip()
        if base not in names:
            names.append(base)
    return tuple(names)


def label(card: Card) -> str:
    """``"Charizard ex OBF 125"``; other families' cards by name."""
    if isinstance(card, PokemonCard):
        return f"{card.name} {card.set_code or card.set_id} {card.number}".strip()
    return card.name


def card_identity(card: Card) -> tuple[object, ...]:
    """What makes two records the *same card* (see the module docstring)."""
    if not isinstance(card, PokemonCard):
        return ("key", card.key)
    return (
        card_name(card.name),
        card.supertype,
        frozenset(card.subtypes),
        card.stage,
        card.types,
        card.hp,
        card.evolves_from,
        card.national_dex,
        card.rule_box,
        card.trainer_kind,
        card.energy_kind,
    )


def same_card(a: Card, b: Card) -> bool:
    return a.key == b.key or card_identity(a) == card_identity(b)


# --- classes --------------------------------------------------------------------------------------


def is_pokemon(card: Card) -> TypeGuard[PokemonCard]:
    return isinstance(card, PokemonCard) and card.supertype == Supertype.POKEMON


def classes(card: Card) -> frozenset[str]:
    """Subtypes, rule-box class and stage of a Pokémon TCG card (nothing for other families)."""
    if not isinstance(card, PokemonCard):
        return frozenset()
    return frozenset((*card.subtypes, card.rule_box, card.stage)) - {""}


def rule_box_classes(card: Card) -> frozenset[str]:
    if not isinstance(card, PokemonCard):
        return frozenset()
    # Of Trainers and Energy only Prism Star cards carry a Rule Box: the data also tags TAG TEAM Supporters and
    # the odd Item ("MEGA") with Pokémon classes.
    eligible = RULE_BOX_CLASSES if card.supertype == Supertype.POKEMON else {"Prism Star"}
    found = classes(card) & eligible
    if card.rule_box and card.rule_box not in NOT_RULE_BOX:
        found |= {card.rule_box}
    return found


def has_rule_box(card: Card) -> bool:
    return bool(rule_box_classes(card))


def is_basic_pokemon(card: Card) -> TypeGuard[PokemonCard]:
    return is_pokemon(card) and "Basic" in classes(card)


def is_basic_energy(card: Card) -> TypeGuard[PokemonCard]:
    return isinstance(card, PokemonCard) and card.is_basic_energy


def is_energy(card: Card) -> TypeGuard[PokemonCard]:
    return isinstance(card, PokemonCard) and card.supertype == Supertype.ENERGY


def is_trainer(card: Card) -> TypeGuard[PokemonCard]:
    return isinstance(card, PokemonCard) and card.supertype == Supertype.TRAINER


def is_supporter(card: Card) -> TypeGuard[PokemonCard]:
    return is_trainer(card) and (card.trainer_kind == "Supporter" or "Supporter" in card.subtypes)


def basic_energy_type(card: Card) -> str | None:
    """The type a Basic Energy provides: its ``types``, else read from its name (``"Basic Fire Energy"``)."""
    if not is_basic_energy(card):
        return None
    for type_ in card.types:
        if type_ in TYPES:
            return type_
    words = card_name(card.name).removeprefix("Basic ").removesuffix(" Energy")
    return words if words in TYPES else None


# --- tallies --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Copies:
    """All copies of one card (by key) in a deck, however many lines list it."""

    card: Card
    count: int


def tally(entries: Iterable[Entry]) -> dict[str, Copies]:
    """Copies by card key, in order of first appearance."""
    found: dict[str, Copies] = {}
    for entry in entries:
        key = entry.card.key
        before = found.get(key)
        found[key] = Copies(entry.card, entry.count + (before.count if before else 0))
    return found


def copies_text(copies: Copies) -> str:
    return label(copies.card) if copies.count == 1 else f"{copies.count}x {label(copies.card)}"


def cards_of(group: Iterable[Copies]) -> tuple[str, ...]:
    return tuple(label(c.card) for c in group)


# --- shared checks --------------------------------------------------------------------------------


def reject_unknown_options(options: Mapping[str, object] | None, allowed: Iterable[str], format_name: str) -> None:
    """Like the engines, a deck check refuses options it does not define (a typo must not pass silently)."""
    unknown = sorted(set(options or {}) - set(allowed))
    if unknown:
        raise ValueError(f"{format_name} deck rules have no option(s) {', '.join(map(repr, unknown))}")


def role_violations(
    deck: Deck,
    required: Mapping[str, str],
    in_deck: Mapping[str, str],
    copies: Mapping[str, Copies],
) -> list[Violation]:
    """``role_missing`` for each required role not given, ``role_not_in_deck`` for each role card the deck lacks.

    ``required`` and ``in_deck`` map a role to the rule that says so.  When
    several in-deck roles name the same card, the deck needs that many copies:
    one card cannot be both the Master and the Apex.  Any reprint of a role
    card in the deck counts as it (*same card*).
    """
    violations: list[Violation] = []
    for role, rule in required.items():
        if role not in deck.roles:
            message = _no_role(role)
            violations.append(Violation("role_missing", rule, message))
    needed: dict[tuple[object, ...], int] = {}
    for role, rule in in_deck.items():
        card = deck.roles.get(role)
        if card is None:
            continue
        needed[card_identity(card)] = needed.get(card_identity(card), 0) + 1
        have = sum(c.count for c in copies.values() if same_card(c.card, card))
        if have < needed[card_identity(card)]:
            message = _role_not_in_deck(role, label(card), bool(have))
            violations.append(Violation("role_not_in_deck", rule, message, (label(card),)))
    return violations


def _no_role(role: str) -> Phrase:
    """``role_missing``'s sentence: one per role, the role's name being a word of it."""
    match role:
        case "master":
            return phrase("The deck has no Master: name one.")
        case "apex":
            return phrase("The deck has no Apex: name one.")
        case "signature":
            return phrase("The deck has no Signature Pokémon: name one.")
        case "trainer":
            return phrase("The deck has no Pokémon Trainer: name one.")
        case "starting_pokemon":
            return phrase("The deck has no Starting Pokémon: name one.")
        case "starting_energy":
            return phrase("The deck has no Starting Energy: name one.")
    raise ValueError(f"no sentence says the deck lacks its {role!r}")


def _role_not_in_deck(role: str, card: str, fills_another_role: bool) -> Phrase:
    """``role_not_in_deck``'s sentence: the role card is not in the deck, or (``fills_another_role``) its copies
    in the deck all fill another role (only the Master and the Apex can be one card)."""
    match role, fills_another_role:
        case "master", False:
            return phrase("The Master, %(card)s, must be one of the deck's cards, and it is not.", card=card)
        case "master", True:
            return phrase(
                "The Master, %(card)s, must be one of the deck's cards (a copy of its own, besides the other role "
                "it fills).",
                card=card,
            )
        case "apex", False:
            return phrase("The Apex, %(card)s, must be one of the deck's cards, and it is not.", card=card)
        case "apex", True:
            return phrase(
                "The Apex, %(card)s, must be one of the deck's cards (a copy of its own, besides the other role "
                "it fills).",
                card=card,
            )
        case "signature", _:
            return phrase("The Signature Pokémon, %(card)s, must be one of the deck's cards, and it is not.", card=card)
    raise ValueError(f"no sentence says the deck lacks its {role!r}")


#: What says a ``singleton_name`` violation, given the copies, the card name and the copies listed (each format
#: names its singleton rule in its own sentence).
SingletonMessage = Callable[[int, str, str], Phrase]


def singleton_name_violations(
    copies: Mapping[str, Copies],
    rule: str,
    *,
    message: SingletonMessage,
    exempt: Callable[[Card], bool] = is_basic_energy,
) -> list[Violation]:
    """``singleton_name``: more than one copy of a card name among ``copies`` (``exempt`` cards aside)."""
    by_name: dict[str, list[Copies]] = {}
    for c in copies.values():
        if not exempt(c.card):
            by_name.setdefault(card_name(c.card.name), []).append(c)
    violations = []
    for name, group in by_name.items():
        count = sum(c.count for c in group)
        if count > 1:
            said = message(count, name, ", ".join(copies_text(c) for c in group))
            violations.append(Violation("singleton_name", rule, said, cards_of(group)))
    return violations


# --- species and evolution lines ------------------------------------------------------------------

SpeciesKey = int | str


class SpeciesIndex:
    """Species and evolution lines of a set of cards (a deck and its role cards)."""

    def __init__(self, cards: Iterable[Card]) -> None:
        pokemon = [c for c in cards if is_pokemon(c)]
        self._by_species_name: dict[str, int] = {}
        self._labels: dict[SpeciesKey, str] = {}
        # Names are learnt from single-species cards: a TAG TEAM lists its dex numbers in dex order, not in
        # the order its partners are printed.  A partner seen nowhere else is paired when it is the only one left.
        for card in pokemon:
            names = species_names(card.name)
            if len(names) == 1 and len(card.national_dex) == 1:
                self._by_species_name.setdefault(names[0], card.national_dex[0])
                self._labels.setdefault(card.national_dex[0], names[0])
        for card in pokemon:
            unknown = [n for n in species_names(card.name) if n not in self._by_species_name]
            numbers = [d for d in card.national_dex if d not in self._labels]
            if len(unknown) == 1 and len(numbers) == 1:
                self._by_species_name[unknown[0]] = numbers[0]
                self._labels[numbers[0]] = unknown[0]
        self._by_card_name: dict[str, frozenset[SpeciesKey]] = {}
        for card in pokemon:
            self._by_card_name.setdefault(card_name(card.name), self.species(card))
        self._parents: dict[SpeciesKey, set[SpeciesKey]] = {}
        for card in pokemon:
            if card.evolves_from:
                for child in self.species(card):
                    for parent in self._resolve(card.evolves_from):
                        if parent != child:
                            self._parents.setdefault(child, set()).add(parent)

    def species(self, card: PokemonCard) -> frozenset[SpeciesKey]:
        if card.national_dex:
            return frozenset(card.national_dex)
        return frozenset(self._by_species_name.get(name, name) for name in species_names(card.name))

    def species_label(self, key: SpeciesKey) -> str | None:
        """The species' name, when a card of the index shows it alone (``None`` for a TAG TEAM-only partner)."""
        return key if isinstance(key, str) else self._labels.get(key)

    def _resolve(self, name: str) -> frozenset[SpeciesKey]:
        known = self._by_card_name.get(card_name(name))
        if known is not None:
            return known
        return frozenset(self._by_species_name.get(n, n) for n in species_names(name))

    def ancestors(self, key: SpeciesKey) -> set[SpeciesKey]:
        seen: set[SpeciesKey] = set()
        todo = [key]
        while todo:
            for parent in self._parents.get(todo.pop(), ()):
                if parent not in seen:
                    seen.add(parent)
                    todo.append(parent)
        return seen

    def same_line(self, a: PokemonCard, b: PokemonCard) -> bool:
        """Whether ``a`` and ``b`` are on one evolution line (one evolves into the other, or same species)."""
        return any(
            x == y or x in self.ancestors(y) or y in self.ancestors(x) for x in self.species(a) for y in self.species(b)
        )

    def shared_identity(self, cards: list[PokemonCard]) -> str | None:
        """What all ``cards`` share - ``"evolution line"``, ``"species"``, ``"type"`` - or ``None``.

        Species and type must be common to every card; the evolution line holds
        when every pair of cards is on one line (for a tree of evolutions that
        means all of them are on a single line).
        """
        if set.intersection(*(set(self.species(c)) for c in cards)):
            return "species"
        if all(self.same_line(a, b) for i, a in enumerate(cards) for b in cards[i + 1 :]):
            return "evolution line"
        if set.intersection(*(set(c.types) for c in cards)):
            return "type"
        return None


# --- limits printed on cards ----------------------------------------------------------------------


def card_limit_violations(copies: Mapping[str, Copies], rule: str) -> list[Violation]:
    """``card_limit``: the deck limits printed on cards themselves, which every format keeps.

    "You can't have more than 1 ACE SPEC card in your deck" (any names), the
    same for Radiant Pokémon and Pokémon Star, and no more than 1 Prism Star
    card of a name.
    """
    groups: dict[tuple[str, str], list[Copies]] = {}  # (marker, card name for Prism Star): copies
    for c in copies.values():
        found = classes(c.card)
        for marker in ("ACE SPEC", "Radiant", "Star"):
            if marker in found:
                groups.setdefault((marker, ""), []).append(c)
        if "Prism Star" in found:
            groups.setdefault(("Prism Star", card_name(c.card.name)), []).append(c)
    violations = []
    for (marker, name), group in groups.items():
        if sum(c.count for c in group) > 1:
            message = _over_card_limit(marker, name, group)
            violations.append(Violation("card_limit", rule, message, cards_of(group)))
    return violations


def _over_card_limit(marker: str, name: str, group: list[Copies]) -> Phrase:
    """``card_limit``'s sentence for the cards of one marker (and, for Prism Star, of one ``name``)."""
    count, listed = sum(c.count for c in group), ", ".join(copies_text(c) for c in group)
    if marker == "ACE SPEC":
        return phrases(
            "%(count)s ACE SPEC card (%(cards)s): the cards' own rule allows only 1 in a deck.",
            "%(count)s ACE SPEC cards (%(cards)s): the cards' own rule allows only 1 in a deck.",
            count,
            cards=listed,
        )
    if marker == "Radiant":
        return phrases(
            "%(count)s Radiant Pokémon (%(cards)s): the cards' own rule allows only 1 in a deck.",
            "%(count)s Radiant Pokémon (%(cards)s): the cards' own rule allows only 1 in a deck.",
            count,
            cards=listed,
        )
    if marker == "Star":
        return phrases(
            "%(count)s Pokémon Star (%(cards)s): the cards' own rule allows only 1 in a deck.",
            "%(count)s Pokémon Star (%(cards)s): the cards' own rule allows only 1 in a deck.",
            count,
            cards=listed,
        )
    return phrases(
        "%(count)s Prism Star card named '%(card)s' (%(cards)s): the cards' own rule allows only 1 in a deck.",
        "%(count)s Prism Star cards named '%(card)s' (%(cards)s): the cards' own rule allows only 1 in a deck.",
        count,
        card=name,
        cards=listed,
    )
