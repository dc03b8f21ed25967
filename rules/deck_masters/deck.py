"""Yu-Gi-Oh! Deck Masters: the deck construction rules.

The rulebook (``yugioh-deck-masters.txt``) has no numbered sections, so violations name its
headings.  Everything here comes from "DUEL SETUP": it asks for "a Deck [that is] legal for play"
(which brings in the standard Yu-Gi-Oh! TCG construction rules: deck sizes, 3 copies, the
Forbidden & Limited list) and says what a Deck Master may be.

Terms
-----
*Main / Extra / Side Deck*
    The entries in zone ``main``, ``extra`` and ``side``.  The Extra Deck holds the Fusion,
    Synchro, Xyz and Link monsters; the Side Deck the cards a player may swap in between duels.
*copies of a card*
    The copies of every entry with that name, in the Main, Extra and Side Deck together (alternate
    arts are the same card).
*Deck Master*
    The monster named in ``deck.roles["deck_master"]``.
*banlist*
    A Forbidden & Limited list (:class:`rules.cards.Banlist`): Forbidden cards may not
    be used, Limited ones once, Semi-Limited ones twice; a whitelist forbids the cards it does not
    name.

Rules (codes)
-------------
``main_size``, ``extra_size``, ``side_size``
    Main Deck 40 to 60 cards, Extra Deck at most 15, Side Deck at most 15.
``copy_limit``
    At most 3 copies of a card.
``banlist``
    No more copies of a card than the banlist allows, when options give one
    (``{"banlist": Banlist}``).  Without one there is no banlist check here: the service passes
    the newest TCG list.  A card over 3 copies that the list does not restrict further is only a
    ``copy_limit`` violation.
``role_missing``
    No Deck Master was chosen.
``deck_master_invalid``
    The Deck Master is not a Monster Card.
``role_not_in_deck``
    The Deck Master is not in the Main or Extra Deck.

The decklist's own problems (``unparseable_line``, ``unknown_card``) come first.

Interpretations
---------------
* The Deck Master is one of the deck's own cards, not a copy on top of the list: the rulebook says
  it "is considered to be in the Deck" and "counts towards the limit on the number of copies",
  and players choose it "from their respective Decks".  So the copies counted are the list's, and
  a Deck Master the list does not hold is ``role_not_in_deck`` rather than an extra copy.
* "The Deck" a Deck Master comes from is the Main and the Extra Deck: Fusion monsters may be Deck
  Masters, and they live in the Extra Deck.  The Side Deck is not played unless sided in, so a
  Deck Master found only there is ``role_not_in_deck``.
* Any Monster Card may be a Deck Master.  The rulebook's list ("This includes Normal, Effect,
  Fusion and Ritual Monster Cards") is not exhaustive and predates Synchro, Xyz, Pendulum and Link
  monsters; Spell and Trap Cards are excluded by name.
* Copy and banlist limits count the Main, Extra and Side Deck together, as the TCG rules do.  A
  card the banlist lists under several of its passcodes gets the strictest limit.

Contract
--------
``check(deck, options)`` returns every violation (empty: the deck is legal).  It raises
``ValueError`` for an option it does not know or a ``banlist`` that is not a ``Banlist``: a bug,
not a player's mistake.  Pure Python: no Django imports.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.cards import Banlist, Card, YugiohCard, YugiohCardType
from rules.deckrules import Deck, Violation, problem_violations
from rules.options import Option, Use
from rules.speech import Phrase, phrase

RULE = "DUEL SETUP"
MAIN_MIN, MAIN_MAX = 40, 60
EXTRA_MAX = 15
SIDE_MAX = 15
COPY_LIMIT = 3
DECK_MASTER_ZONES = ("main", "extra")
BANLIST = Option(
    name="banlist",
    label=phrase("Forbidden & Limited list"),
    default=None,
    named=True,
    uses=frozenset({Use.DECK}),
    rule=RULE,
    quote="A Deck must be legal for play before a Deck Master is chosen from it.",
    help=phrase("The imported Forbidden & Limited list decks are checked against (empty: the newest TCG list)."),
)
OPTIONS: tuple[Option, ...] = (BANLIST,)


def check(deck: Deck, options: Mapping[str, Any] | None = None) -> list[Violation]:
    """Every way ``deck`` breaks the Deck Masters deck construction rules."""
    banlist = _banlist(options or {})
    violations = problem_violations(deck)
    violations += _sizes(deck)
    violations += _copies(deck, banlist)
    violations += _deck_master(deck)
    return violations


def _banlist(options: Mapping[str, Any]) -> Banlist | None:
    unknown = set(options) - {o.name for o in OPTIONS}
    if unknown:
        raise ValueError(f"unknown deck-masters deck option(s): {', '.join(sorted(map(str, unknown)))}")
    banlist = options.get("banlist")
    if banlist is not None and not isinstance(banlist, Banlist):
        raise ValueError(f"the banlist option must be a Banlist, not {type(banlist).__name__}")
    return banlist


def _sizes(deck: Deck) -> list[Violation]:
    violations = []
    main, extra, side = deck.count("main"), deck.count("extra"), deck.count("side")
    if not MAIN_MIN <= main <= MAIN_MAX:
        violations.append(
            Violation(
                code="main_size",
                rule=RULE,
                message=phrase(
                    "The Main Deck must hold %(least)s to %(most)s cards; it holds %(count)s.",
                    least=MAIN_MIN,
                    most=MAIN_MAX,
                    count=main,
                ),
            )
        )
    if extra > EXTRA_MAX:
        violations.append(
            Violation(
                code="extra_size",
                rule=RULE,
                message=phrase(
                    "The Extra Deck may hold at most %(most)s cards; it holds %(count)s.", most=EXTRA_MAX, count=extra
                ),
            )
        )
    if side > SIDE_MAX:
        violations.append(
            Violation(
                code="side_size",
                rule=RULE,
                message=phrase(
                    "The Side Deck may hold at most %(most)s cards; it holds %(count)s.", most=SIDE_MAX, count=side
                ),
            )
        )
    return violations


def _copies(deck: Deck, banlist: Banlist | None) -> list[Violation]:
    copies: dict[str, int] = {}
    passcodes: dict[str, set[int]] = {}
    for entry in deck.entries:
        name = entry.card.name
        copies[name] = copies.get(name, 0) + entry.count
        if isinstance(entry.card, YugiohCard):
            passcodes.setdefault(name, set()).update((entry.card.passcode, *entry.card.alternate_passcodes))
    violations = []
    for name, count in copies.items():
        if count > COPY_LIMIT:
            violations.append(
                Violation(
                    code="copy_limit",
                    rule=RULE,
                    message=phrase(
                        "%(card)s: %(most)s copies at most in the Main, Extra and Side Deck together; the deck has "
                        "%(count)s.",
                        card=name,
                        most=COPY_LIMIT,
                        count=count,
                    ),
                    cards=(name,),
                )
            )
        if banlist is None:
            continue
        codes = sorted(passcodes.get(name, ()))
        allowed = banlist.allowed(codes)
        if count > allowed and allowed < COPY_LIMIT:
            listed = any(code in banlist.limits for code in codes)
            message = _banned(name, count, allowed, banlist, listed)
            violations.append(Violation(code="banlist", rule=RULE, message=message, cards=(name,)))
    return violations


def _banned(name: str, count: int, allowed: int, banlist: Banlist, listed: bool) -> Phrase:
    """``banlist``'s sentence: one per status (Forbidden, Limited, Semi-Limited, or not on a whitelist), naming the
    list when it has a name."""
    values = {"card": name, "count": count, "list": banlist.name}
    if not listed:  # only a whitelist forbids a card it does not name
        if banlist.name:
            return phrase(
                "%(card)s is not on the %(list)s list, which allows only the cards it names; the deck has %(count)s.",
                **values,
            )
        return phrase(
            "%(card)s is not on the banlist, which allows only the cards it names; the deck has %(count)s.", **values
        )
    if allowed == 0:
        if banlist.name:
            return phrase("%(card)s is Forbidden on the %(list)s list; the deck has %(count)s.", **values)
        return phrase("%(card)s is Forbidden on the banlist; the deck has %(count)s.", **values)
    if allowed == 1:
        if banlist.name:
            return phrase(
                "%(card)s is Limited on the %(list)s list (1 copy at most); the deck has %(count)s.", **values
            )
        return phrase("%(card)s is Limited on the banlist (1 copy at most); the deck has %(count)s.", **values)
    if banlist.name:
        return phrase(
            "%(card)s is Semi-Limited on the %(list)s list (2 copies at most); the deck has %(count)s.", **values
        )
    return phrase("%(card)s is Semi-Limited on the banlist (2 copies at most); the deck has %(count)s.", **values)


def _deck_master(deck: Deck) -> list[Violation]:
    master = deck.roles.get("deck_master")
    if master is None:
        return [
            Violation(
                code="role_missing",
                rule=RULE,
                message=phrase("No Deck Master was chosen: choose one Monster Card from the deck."),
            )
        ]
    violations = []
    if not isinstance(master, YugiohCard) or master.card_type != YugiohCardType.MONSTER:
        message = _not_a_monster(master)
        violations.append(Violation(code="deck_master_invalid", rule=RULE, message=message, cards=(master.name,)))
    zones = {e.zone for e in deck.entries if e.card.name == master.name}
    if not zones & set(DECK_MASTER_ZONES):
        if "side" in zones:
            message = phrase(
                "The Deck Master %(card)s is not in the Main or Extra Deck (only in the Side Deck); a Deck Master is "
                "chosen from the deck and counts as one of its cards.",
                card=master.name,
            )
        else:
            message = phrase(
                "The Deck Master %(card)s is not in the Main or Extra Deck; a Deck Master is chosen from the deck and "
                "counts as one of its cards.",
                card=master.name,
            )
        violations.append(Violation(code="role_not_in_deck", rule=RULE, message=message, cards=(master.name,)))
    return violations


def _not_a_monster(card: Card) -> Phrase:
    """``deck_master_invalid``'s sentence: one per kind of card."""
    if isinstance(card, YugiohCard) and card.card_type == YugiohCardType.SPELL:
        return phrase("%(card)s is a Spell Card; only Monster Cards may be Deck Masters.", card=card.name)
    if isinstance(card, YugiohCard) and card.card_type == YugiohCardType.TRAP:
        return phrase("%(card)s is a Trap Card; only Monster Cards may be Deck Masters.", card=card.name)
    return phrase("%(card)s is a non-Yu-Gi-Oh! Card; only Monster Cards may be Deck Masters.", card=card.name)
