"""Decklist problems are phrases (rules.speech): English for every caller, said again in the reader's language with
a stub translation.  No database."""

from __future__ import annotations

import pytest

from decks.checking import _role_problem
from decks.parsers.mintayn import parse_mintayn, resolve_mintayn
from decks.parsers.pokemon import parse_pokemon_decklist
from decks.parsers.yugioh import parse_ydke, resolve_yugioh
from rules.speech import Phrase, say
from tests.support.decks import CARDS
from tests.support.speech import speaking

FRENCH = {
    "No Mintayn card is called '%(card)s'.": "Aucune carte Mintayn ne s'appelle « %(card)s ».",
    "Cannot read this line. No card name after the count.": "Ligne illisible. Aucun nom de carte après le nombre.",
    "This is not a valid ydke link: the extra part is not base64.": "Lien ydke invalide : l'extra n'est pas en base64.",
    "Passcode %(passcode)s (%(count)s copy) is not in the card pool.": "Code %(passcode)s (%(count)s exemplaire) "
    "absent de la réserve.",
    "Passcode %(passcode)s (%(count)s copies) is not in the card pool.": "Code %(passcode)s (%(count)s exemplaires) "
    "absent de la réserve.",
    "The deck master '%(card)s' matches no card.": "Le maître du deck « %(card)s » ne correspond à aucune carte.",
}


@pytest.fixture
def french():
    with speaking(FRENCH):
        yield


def test_an_unknown_card_is_said_in_the_readers_language(french):
    _, (problem,) = resolve_mintayn(parse_mintayn("2 Blaze Drak\n"), CARDS)
    assert isinstance(problem.message, Phrase) and problem.message == "No Mintayn card is called 'Blaze Drak'."
    assert say(problem.message) == "Aucune carte Mintayn ne s'appelle « Blaze Drak »."
    assert problem.suggestion == "Blaze Drake"  # a card name: never translated


def test_unreadable_lines_and_links_are_whole_sentences_for_translators(french):
    (line,) = parse_pokemon_decklist("4 123\n").problems
    assert line.message == "Cannot read this line. No card name after the count."
    assert say(line.message) == "Ligne illisible. Aucun nom de carte après le nombre."

    (link,) = parse_ydke("ydke://AAAAAA==!A!AAAAAA==!").problems
    assert say(link.message) == "Lien ydke invalide : l'extra n'est pas en base64."


def test_copies_of_an_unknown_passcode_are_counted_in_the_readers_language(french):
    _, (problem,) = resolve_yugioh(parse_ydke("ydke://AQAAAAEAAAABAAAA!!!"), {})
    assert problem.message == "Passcode 1 (3 copies) is not in the card pool."
    assert say(problem.message) == "Code 1 (3 exemplaires) absent de la réserve."


def test_a_role_card_that_matches_nothing_names_its_role_in_a_sentence_of_its_own(french):
    problem = _role_problem("deck_master", "Blue-Eyes", None)
    assert problem.message == "The deck master 'Blue-Eyes' matches no card."
    assert say(problem.message) == "Le maître du deck « Blue-Eyes » ne correspond à aucune carte."
