"""The helpers every format's engine shares (``rules/engine.py``): reading an entry's fields, and no engine keeping a
private copy of them.  Pure: no database."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from typing import Any

import pytest

from rules import FORMATS
from rules.engine import RuleViolation, acting_player, choice, optional, player
from rules.speech import say, say_stored
from tests.support.speech import speaking


def refusal(read: Callable[[], Any]) -> dict[str, str]:
    """The refusal's code, rule and English message (its phrase's template and values are tested below)."""
    with pytest.raises(RuleViolation) as info:
        read()
    return {key: info.value.as_dict()[key] for key in ("code", "rule", "message")}


def invalid(message: str) -> dict[str, str]:
    return {"code": "invalid_field", "rule": "event", "message": message}


def test_a_choice_field_is_one_of_its_choices():
    assert choice({"to": "bench"}, "to", ("bench", "active")) == "bench"


@pytest.mark.parametrize("value", ["hand", "Bench", None, 1, ["bench"]])
def test_a_choice_field_refuses_anything_else_a_null_too(value):
    assert refusal(lambda: choice({"to": value}, "to", ("bench", "active"))) == invalid(
        "'to' must be one of bench, active."
    )


def test_a_choice_field_without_a_default_must_be_given_and_one_with_a_default_may_be_left_out():
    assert refusal(lambda: choice({}, "to", ("bench", "active"))) == {
        "code": "missing_field",
        "rule": "event",
        "message": "The event needs a 'to' field.",
    }
    assert choice({}, "to", ("bench", "active"), "bench") == "bench"
    assert choice({}, "to", ("bench", "active"), None) is None


def test_an_optional_field_is_its_default_when_left_out_or_null_and_is_read_as_a_required_one_otherwise():
    assert optional({}, "cost", int, 0) == 0
    assert optional({"cost": None}, "cost", int, 0) == 0
    assert optional({"cost": 3}, "cost", int, 0) == 3
    assert refusal(lambda: optional({"cost": "3"}, "cost", int, 0)) == invalid("'cost' has the wrong type.")
    assert refusal(lambda: optional({"cost": True}, "cost", int, 0)) == invalid("'cost' has the wrong type.")


def test_an_optional_field_may_have_a_minimum():
    assert optional({}, "count", int, 1, minimum=1) == 1
    assert optional({"count": 2}, "count", int, 1, minimum=1) == 2
    assert refusal(lambda: optional({"count": 0}, "count", int, 1, minimum=1)) == invalid("'count' must be at least 1.")


def test_an_optional_field_may_refuse_a_null_rather_than_take_it_as_left_out():
    assert optional({}, "cost", int, 0, null=False) == 0
    assert refusal(lambda: optional({"cost": None}, "cost", int, 0, null=False)) == invalid(
        "'cost' has the wrong type."
    )


#: Master Trainer's engine once kept these beside the shared helpers: a copy-on-write draft of the state and its
#: own field readers.
PRIVATE_TOOLKIT = {"_Draft", "_choice", "_optional", "_player_in", "_next_player"}


@pytest.mark.parametrize("slug", list(FORMATS))
def test_no_engine_keeps_a_toolkit_of_its_own_beside_the_shared_one(slug):
    """Every engine reads its fields, finds its players and starts its next state with ``rules/engine.py``'s
    helpers, so a refusal reads the same in every format and a fix to one reader fixes them all."""
    module = inspect.getmodule(type(FORMATS[slug].engine))
    defined = {
        node.name
        for node in ast.parse(inspect.getsource(module)).body
        if isinstance(node, ast.FunctionDef | ast.ClassDef)
    }
    assert not defined & PRIVATE_TOOLKIT


# --- refusals are phrases (rules.speech): English here, said in the reader's language on a page ---------------------

FRENCH = {
    "The event needs a '%(field)s' field.": "L'entrée demande un champ '%(field)s'.",
    "'%(field)s' must be at least %(minimum)s.": "'%(field)s' vaut au moins %(minimum)s.",
    "%(player)s is not in this game.": "%(player)s ne joue pas cette partie.",
    "It is not %(player)s's turn.": "Ce n'est pas le tour de %(player)s.",
    "player %(id)s": "joueur %(id)s",
}


@pytest.fixture
def french():
    with speaking(FRENCH):
        yield


def refused(read: Callable[[], Any]) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        read()
    return info.value


def test_a_refusal_is_a_phrase_said_in_the_readers_language_with_the_players_names(french):
    missing = refused(lambda: choice({}, "to", ("bench", "active")))
    assert missing.message == "The event needs a 'to' field."  # the phrase itself stays English
    assert say(missing.message) == "L'entrée demande un champ 'to'."
    assert say(refused(lambda: optional({"count": 0}, "count", int, 1, minimum=1)).message) == (
        "'count' vaut au moins 1."
    )
    state = {"players": [{"id": 3, "out": False}], "turn": {"player": 4, "in_progress": True}}
    unknown = refused(lambda: acting_player(state, {"player": 9}, "§1"))
    assert (
        unknown.message == "Player 9 is not in this game."
        and say(unknown.message) == "Joueur 9 ne joue pas cette partie."
    )
    not_yours = refused(lambda: acting_player(state, {"player": 3}, "§1"))
    assert say(not_yours.message, names={3: "Ash"}) == "Ce n'est pas le tour de Ash."
    # A stored refusal (the games' audit trail keeps as_dict) is said again later, in the reader's language.
    assert say_stored(not_yours.as_dict(), names={3: "Ash"}) == "Ce n'est pas le tour de Ash."


def test_an_id_of_the_wrong_type_keeps_its_quotes_and_names_no_player():
    wrong = refused(lambda: player({"players": [{"id": 3, "out": False}]}, "3"))
    assert wrong.message == "Player '3' is not in this game."
    assert say(wrong.message, names={3: "Ash"}) == "Player '3' is not in this game."
