"""Mintayn Master deck construction: every rule code, each with a legal and an illegal deck.

Decks are built from the made-up sample card list of ``tests/decks/test_mintayn.py`` (there is no
public Mintayn card data), read by the real CSV importer.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.parsers.mintayn import parse_mintayn, resolve_mintayn
from rules.deckrules import Deck, Entry, Problem, Violation
from rules.mintayn_master.deck import check
from tests.support.decks import CARDS

PRIMES = [card for card in CARDS.values() if card.stage.startswith("prime")]
OTHERS = [card for card in CARDS.values() if not card.stage.startswith("prime")]


def deck(size: int = 60, named: Iterable[tuple[str, int]] = (), problems: tuple[Problem, ...] = ()) -> Deck:
    """``named`` (card name, copies) first, then 3 copies of each other non-prime card up to ``size``."""
    entries = [Entry(card=CARDS[name], count=count) for name, count in named]
    left = size - sum(e.count for e in entries)
    used = {e.card.name for e in entries}
    for card in (c for c in OTHERS if c.name not in used):
        if left <= 0:
            break
        entries.append(Entry(card=card, count=min(3, left)))
        left -= entries[-1].count
    assert left <= 0, "the sample card list is too small"
    return Deck(entries=tuple(entries), problems=problems)


def codes(violations: list[Violation]) -> list[str]:
    return [v.code for v in violations]


def test_the_sample_list_has_prime_evolutions_and_prime_singulars():
    assert {card.stage for card in PRIMES} == {"prime evolution", "prime singular"}
    assert len(OTHERS) * 3 >= 70


# --------------------------------------------------------------------------- deck_size


def test_a_deck_of_exactly_60_cards_is_legal():
    assert check(deck(60)) == []
    assert check(deck(60), {"deck_size": 60}) == check(deck(60), {"deck_size": None}) == []


@pytest.mark.parametrize("size", [59, 61])
def test_a_deck_of_other_than_60_cards_is_a_deck_size_violation(size):
    (violation,) = check(deck(size))
    assert (violation.code, violation.rule) == ("deck_size", "Deck Size & Construction")
    assert violation.message == f"A deck has exactly 60 cards; this one has {size}."


@pytest.mark.parametrize("size", [50, 70])
def test_an_event_variant_of_50_or_70_cards_changes_the_size(size):
    assert check(deck(size), {"deck_size": size}) == []
    (violation,) = check(deck(60), {"deck_size": size})
    assert violation.code == "deck_size"
    assert violation.rule == "Deck Size & Construction; Balance Levers & Variants"
    assert f"exactly {size} cards in this event's variant" in violation.message


@pytest.mark.parametrize("options", [{"deck_size": 40}, {"deck_size": "60"}, {"deck_size": True}, {"lp": 6000}])
def test_other_deck_sizes_and_unknown_options_are_refused(options):
    with pytest.raises(ValueError):
        check(deck(60), options)


# --------------------------------------------------------------------------- copy_limit


def test_three_copies_of_a_card_are_legal():
    assert check(deck(named=[("Ember Whelp", 3)])) == []


def test_four_copies_of_a_card_even_on_two_lines_are_a_copy_limit_violation():
    illegal = deck(named=[("Ember Whelp", 3), ("Ember Whelp", 1)])
    (violation,) = check(illegal)
    assert (violation.code, violation.cards) == ("copy_limit", ("Ember Whelp",))
    assert violation.message == "Ember Whelp: 3 copies at most; the deck has 4."


# --------------------------------------------------------------------------- prime_singleton


def test_one_copy_of_each_prime_card_is_legal():
    assert check(deck(named=[(card.name, 1) for card in PRIMES])) == []


@pytest.mark.parametrize("name", ["Pyre Sovereign", "Aurelion, the First Light"])
def test_two_copies_of_a_prime_evolution_or_prime_singular_are_a_prime_singleton_violation(name):
    (violation,) = check(deck(named=[(name, 2)]))
    assert (violation.code, violation.cards) == ("prime_singleton", (name,))
    assert violation.message == f"{name} is a Prime card: 1 copy at most; the deck has 2."


def test_four_copies_of_a_prime_card_are_reported_once_as_prime_singleton():
    assert codes(check(deck(named=[("Abyssal Leviathan", 4)]))) == ["prime_singleton"]


# --------------------------------------------------------------------------- from a decklist


def test_a_pasted_decklist_with_problems_reports_them_first():
    text = "\n".join(f"3 {card.name}" for card in OTHERS[:19]) + "\n2 Pyre Sovereign\n1 Blaze Drak\n"
    entries, problems = resolve_mintayn(parse_mintayn(text), CARDS)
    violations = check(Deck(entries=tuple(entries), problems=tuple(problems)))
    assert codes(violations) == ["unknown_card", "deck_size", "prime_singleton"]
    assert violations[0].message.endswith("Did you mean 'Blaze Drake'?")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(sorted(CARDS)), st.integers(min_value=1, max_value=5)), max_size=40))
def test_a_deck_is_legal_exactly_when_it_has_60_cards_within_the_copy_limits(lines):
    entries = tuple(Entry(card=CARDS[name], count=count) for name, count in lines)
    copies: dict[str, int] = {}
    for entry in entries:
        copies[entry.card.name] = copies.get(entry.card.name, 0) + entry.count
    expected_legal = sum(copies.values()) == 60 and all(
        n <= (1 if CARDS[name].stage.startswith("prime") else 3) for name, n in copies.items()
    )
    assert (check(Deck(entries=entries)) == []) == expected_legal
