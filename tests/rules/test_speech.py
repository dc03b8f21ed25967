"""The rules' sentences as phrases (rules.speech): English text for every caller, said again in the reader's
language, with the players' names, from a live phrase or from what a row stored.  Pure: no database, no Django."""

from __future__ import annotations

import pickle

import pytest

from rules.speech import Phrase, phrase, phrases, player, players, say, say_any, say_stored
from tests.support.speech import speaking

FRENCH = {
    "The next turn is %(player)s's.": "Le tour suivant est à %(player)s.",
    "player %(id)s": "joueur %(id)s",
    "players %(ids)s": "joueurs %(ids)s",
    "%(count)s card too many": "%(count)s carte de trop",
    "%(count)s cards too many": "%(count)s cartes de trop",
    "Lost its placeholder %(seat)s.": "A perdu sa variable.",
}


@pytest.fixture
def french():
    with speaking(FRENCH):
        yield


def test_a_phrase_is_the_english_sentence_for_every_caller():
    message = phrase("The next turn is %(player)s's.", player=player(3))
    assert isinstance(message, str) and message == "The next turn is player 3's."
    assert f"{message}" == "The next turn is player 3's." and message.upper().startswith("THE NEXT")
    assert phrases("%(count)s card too many", "%(count)s cards too many", 1) == "1 card too many"
    assert phrases("%(count)s card too many", "%(count)s cards too many", 2) == "2 cards too many"
    assert phrase("A plain sentence with 100% in it.") == "A plain sentence with 100% in it."
    assert phrase("%(player)s has no Pokémon in play.", player=player(2)) == "Player 2 has no Pokémon in play."


def test_said_in_the_language_of_the_moment_with_the_values_untouched(french):
    message = phrase("The next turn is %(player)s's.", player=player(3))
    assert say(message) == "Le tour suivant est à joueur 3."
    assert say(phrases("%(count)s card too many", "%(count)s cards too many", 2)) == "2 cartes de trop"
    assert say("not a phrase: said as it is") == "not a phrase: said as it is"
    assert str(message) == "The next turn is player 3's."  # the phrase itself stays English


def test_the_players_names_take_the_place_of_their_ids(french):
    message = phrase("The next turn is %(player)s's.", player=player(3))
    assert say(message, names={3: "Ash"}) == "Le tour suivant est à Ash."
    assert say(players([3, 4]), names={3: "Ash", 4: "Misty"}) == "Ash, Misty"
    assert say(player(9), names={3: "Ash"}) == "joueur 9"  # not this game's: the id stays


def test_a_stored_phrase_is_said_again_and_a_row_from_before_keeps_its_english(french):
    message = phrases("%(count)s card too many", "%(count)s cards too many", 3)
    row = {"code": "deck_size", "message": str(message), **message.as_data()}
    assert say_stored(row) == "3 cartes de trop"
    nested = phrase("The next turn is %(player)s's.", player=player(5)).as_data()
    assert say_stored(nested, names={5: "Brock"}) == "Le tour suivant est à Brock."
    assert say_stored({"code": "deck_size", "message": "Old English text."}) == "Old English text."
    assert say_stored({"message": "Old", "template": "%(missing)s", "params": {"other": 1}}) == "Old"


def test_a_translation_that_lost_a_placeholder_still_reads_and_a_phrase_survives_pickling(french):
    assert say(phrase("Lost its placeholder %(seat)s.", seat=2)) == "A perdu sa variable."
    copy = pickle.loads(pickle.dumps(phrase("The next turn is %(player)s's.", player=player(3))))
    assert isinstance(copy, Phrase) and say(copy, names={3: "Ash"}) == "Le tour suivant est à Ash."


def test_anything_holding_a_sentence_is_said_the_same_way(french):
    message = phrase("The next turn is %(player)s's.", player=player(3))

    class Refusal:
        def __init__(self, message: str) -> None:
            self.message = message

    said = "Le tour suivant est à joueur 3."
    assert say_any(message) == say_any(Refusal(message)) == say_any({"message": "x", **message.as_data()}) == said
    assert say_any("plain text") == "plain text" and say_any(Refusal("plain")) == "plain"
