"""Mt. Silver 4.1.0 deck construction rules: "Building Your Region".

A player brings a 43-card *region*: a Pokémon Trainer (a Supporter), a
starting Pokémon, a starting energy and a 40-card *region deck* in which no two
cards share a set and collector number.  ``check(deck)`` returns every rule the
region breaks (an empty list for a legal one); each
:class:`~rules.deckrules.Violation` has the heading of the rulebook
section that sets the rule as its ``rule`` (``"Region Deck"``).  Pure Python: no
Django imports.

Terms
-----
*region deck*
    ``deck.entries``: exactly the 40 cards, nothing else.
*Pokémon Trainer*, *starting Pokémon*, *starting energy*
    ``deck.roles["trainer"]``, ``["starting_pokemon"]`` and
    ``["starting_energy"]``; all three are required and sit outside the region
    deck ("do not count towards the 40 cards"), so they are not entries.
*print*
    A card's set and collector number as printed: set code (set id when the
    set has none) and number, ``"SVI 166"``.  Subsets sharing a code (Trainer
    Gallery, Shiny Vault) number their cards apart (``TG05``, ``SV107``), so two
    cards are the same print exactly when code and number agree.

Codes
-----
``unparseable_line``, ``unknown_card``
    The decklist's problems, first (rule ``"decklist"``).
``role_missing`` (Building Your Region)
    The Pokémon Trainer, the starting Pokémon or the starting energy is not
    given.  (``role_not_in_deck`` never applies: no role card is in the region
    deck.)
``deck_size`` (Region Deck)
    Not exactly 40 cards in the region deck.
``duplicate_print`` (Region Deck)
    Two or more cards of one print: "You cannot have two copies of Arven SV1
    166", though three prints of Arven are fine.  *Interpretation:* this is
    "the only restriction" of the region deck and it has no Basic Energy
    exemption, so two copies of one Basic Energy print are a duplicate too;
    and it is scoped to the region deck, as the rulebook places it, so the
    Trainer, starting Pokémon or starting energy may be the same print as a
    card of the region deck.  International prints "fill the slot" of the
    English print they match: decklists name English prints, so nothing more
    is checked.  Deck limits printed on cards (ACE SPEC, Radiant ...) are not
    enforced: the region deck is "the only restriction", and at the table all
    region decks are shuffled into one deck.
``trainer_invalid`` (Pokémon Trainer)
    The Pokémon Trainer is not a Supporter card ("any Supporter card",
    TAG TEAM Supporters included).
``starting_pokemon_invalid`` (Starting Pokémon and Starting Energy)
    The starting Pokémon is not a Basic Pokémon, or has a Rule Box.
``starting_energy_invalid`` (Starting Pokémon and Starting Energy)
    The starting energy is not an Energy card ("any energy card (basic or
    special)").

No options are defined: any option is refused with ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.cards import Card, PokemonCard
from rules.deckrules import Deck, Violation, problem_violations
from rules.pokemon_deck import (
    Copies,
    cards_of,
    copies_text,
    has_rule_box,
    is_basic_pokemon,
    is_energy,
    is_pokemon,
    is_supporter,
    label,
    reject_unknown_options,
    role_violations,
    rule_box_classes,
    tally,
)
from rules.speech import phrase, phrases

DECK_SIZE = 40
REGION = "Building Your Region"
REGION_DECK = "Region Deck"
TRAINER = "Pokémon Trainer"
STARTING = "Starting Pokémon and Starting Energy"


def check(deck: Deck, options: Mapping[str, object] | None = None) -> list[Violation]:
    """Every Mt. Silver region construction rule ``deck`` breaks, decklist problems first."""
    reject_unknown_options(options, (), "Mt. Silver")
    copies = tally(deck.entries)

    violations = problem_violations(deck)
    violations += role_violations(
        deck,
        required=dict.fromkeys(("trainer", "starting_pokemon", "starting_energy"), REGION),
        in_deck={},
        copies=copies,
    )
    if deck.count() != DECK_SIZE:
        violations.append(
            Violation(
                "deck_size",
                REGION_DECK,
                phrases(
                    "The region deck has %(count)s card; it must have exactly %(needed)s (the Pokémon Trainer, "
                    "starting Pokémon and starting energy are not counted).",
                    "The region deck has %(count)s cards; it must have exactly %(needed)s (the Pokémon Trainer, "
                    "starting Pokémon and starting energy are not counted).",
                    deck.count(),
                    needed=DECK_SIZE,
                ),
            )
        )
    violations += _duplicate_prints(copies)
    violations += _roles(deck.roles)
    return violations


def print_of(card: Card) -> tuple[str, str]:
    """``("SVI", "166")``: the set (code, else id) and collector number as printed."""
    if isinstance(card, PokemonCard):
        return (card.set_code or card.set_id).upper(), card.number.upper()
    return card.key, ""


def _duplicate_prints(copies: Mapping[str, Copies]) -> list[Violation]:
    by_print: dict[tuple[str, str], list[Copies]] = {}
    for c in copies.values():
        by_print.setdefault(print_of(c.card), []).append(c)
    return [
        Violation(
            "duplicate_print",
            REGION_DECK,
            phrases(
                "%(count)s card shares the set and number %(print)s (%(cards)s): no two cards of a region deck may.",
                "%(count)s cards share the set and number %(print)s (%(cards)s): no two cards of a region deck may.",
                sum(c.count for c in group),
                print=" ".join(printed),
                cards=", ".join(copies_text(c) for c in group),
            ),
            cards_of(group),
        )
        for printed, group in by_print.items()
        if sum(c.count for c in group) > 1
    ]


def _roles(roles: Mapping[str, Card]) -> list[Violation]:
    violations = []
    trainer = roles.get("trainer")
    if trainer is not None and not is_supporter(trainer):
        violations.append(
            Violation(
                "trainer_invalid",
                TRAINER,
                phrase("The Pokémon Trainer, %(card)s, is not a Supporter card.", card=label(trainer)),
                (label(trainer),),
            )
        )
    pokemon = roles.get("starting_pokemon")
    if pokemon is not None and not (is_basic_pokemon(pokemon) and not has_rule_box(pokemon)):
        card = label(pokemon)
        if not is_pokemon(pokemon):
            message = phrase(
                "The starting Pokémon, %(card)s, is not a Pokémon: it must be a Basic Pokémon without a Rule Box.",
                card=card,
            )
        elif not is_basic_pokemon(pokemon):
            message = phrase(
                "The starting Pokémon, %(card)s, is not a Basic Pokémon: it must be a Basic Pokémon without a Rule "
                "Box.",
                card=card,
            )
        else:
            message = phrase(
                "The starting Pokémon, %(card)s, has a Rule Box (%(classes)s): it must be a Basic Pokémon without a "
                "Rule Box.",
                card=card,
                classes="/".join(sorted(rule_box_classes(pokemon))),
            )
        violations.append(Violation("starting_pokemon_invalid", STARTING, message, (card,)))
    energy = roles.get("starting_energy")
    if energy is not None and not is_energy(energy):
        violations.append(
            Violation(
                "starting_energy_invalid",
                STARTING,
                phrase("The starting energy, %(card)s, is not an Energy card (Basic or Special).", card=label(energy)),
                (label(energy),),
            )
        )
    return violations
