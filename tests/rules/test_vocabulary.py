"""The typed vocabulary of every format, and its one-tap entries: pure data, tested without a database."""

from __future__ import annotations

import json

import pytest

from rules import FORMATS, get_format
from rules.deck_masters import engine as deck_masters
from rules.engine import (
    COMMON_VOCABULARY,
    THE_PLAYER,
    TURN_PLAYER,
    EventSpec,
    Field,
    GameEvent,
    Kind,
    QuickEntry,
    RuleViolation,
    When,
    replay,
)
from rules.format3_trinity import engine as format3_trinity
from rules.master_trainer import engine as master_trainer
from rules.mintayn_master import engine as mintayn_master
from rules.mt_silver import engine as mt_silver

SLUGS = list(FORMATS)


def _fields(spec: EventSpec):
    for name, field in spec.fields.items():
        yield name, field
        for sub, item in field.item:
            yield f"{name}.{sub}", item


@pytest.mark.parametrize("slug", SLUGS)
def test_every_field_of_every_event_has_a_kind_and_a_description(slug):
    for spec in get_format(slug).engine.VOCABULARY.values():
        for name, field in _fields(spec):
            assert isinstance(field, Field), (spec.type, name)
            assert isinstance(field.kind, Kind) and field.description, (spec.type, name)
            if field.kind in (Kind.CHOICE, Kind.COUNTS):
                assert field.choices and len(set(field.choices)) == len(field.choices), (spec.type, name)
            if field.default is not None and field.kind == Kind.CHOICE:
                assert field.default in field.choices, (spec.type, name)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_vocabulary_is_json_for_the_api_and_the_docs(slug):
    vocabulary = {t: spec.as_dict() for t, spec in get_format(slug).engine.VOCABULARY.items()}
    assert json.loads(json.dumps(vocabulary)) == vocabulary
    assert vocabulary["concede"]["fields"] == {
        "player": {"kind": "player", "description": "the player conceding", "optional": False}
    }


def test_a_field_refuses_a_shape_it_cannot_describe():
    with pytest.raises(ValueError):
        Field(Kind.CHOICE, "no choices")
    with pytest.raises(ValueError):
        Field(Kind.ENTRIES, "no item")
    with pytest.raises(ValueError):
        Field(Kind.TAG, "no source")


@pytest.mark.parametrize(
    ("vocabulary", "event", "field", "choices"),
    [
        (deck_masters.ENGINE.VOCABULARY, "phase", "phase", deck_masters.PHASES),
        (deck_masters.ENGINE.VOCABULARY, "phase", "step", deck_masters.BATTLE_STEPS),
        (deck_masters.ENGINE.VOCABULARY, "deck_master_lost", "cause", deck_masters.LOSS_CAUSES),
        (
            deck_masters.ENGINE.VOCABULARY,
            "deck_master_replace",
            "method",
            deck_masters.REPLACEMENT_METHODS,
        ),
        (mintayn_master.ENGINE.VOCABULARY, "summon", "class", mintayn_master.CLASSES),
        (mintayn_master.ENGINE.VOCABULARY, "attack", "target", mintayn_master.ATTACK_TARGETS),
        (mintayn_master.ENGINE.VOCABULARY, "spend_mana", "mana", mintayn_master.CLASSES),
        (mt_silver.VOCABULARY, "special_condition", "condition", mt_silver.CONDITIONS),
        (format3_trinity.VOCABULARY, "end_turn", "no_attack_reason", format3_trinity.NO_ATTACK_REASONS),
        (master_trainer.VOCABULARY, "move", "kind", master_trainer.MOVE_KINDS),
        (master_trainer.VOCABULARY, "heal", "source", master_trainer.HEAL_SOURCES),
    ],
)
def test_enumerations_list_the_values_the_engine_accepts(vocabulary, event, field, choices):
    assert vocabulary[event].fields[field].choices == tuple(choices)


@pytest.mark.parametrize(
    ("slug", "event", "field", "kind"),
    [
        ("deck-masters", "lp_change", "changes", Kind.PLAYER_AMOUNTS),
        ("mintayn-master", "lp_change", "changes", Kind.PLAYER_AMOUNTS),
        ("master-trainer", "adjust_life", "amount", Kind.AMOUNT),
        ("master-trainer", "attack", "damage", Kind.COUNT),
        ("deck-masters", "deck_master_lost", "players", Kind.PLAYERS),
        ("deck-masters", "deck_master_replace", "card", Kind.CARD),
        ("mintayn-master", "attack", "monster", Kind.TAG),
        ("mt-silver", "knock_out", "knocked_out", Kind.ENTRIES),
        ("format3-trinity", "knock_out", "active", Kind.BOOLEAN),
        ("master-trainer", "time_called", "placements", Kind.PLACEMENTS),
        ("mt-silver", "ruling_note", "text", Kind.TEXT),
    ],
)
def test_fields_declare_what_they_hold(slug, event, field, kind):
    assert get_format(slug).engine.VOCABULARY[event].fields[field].kind == kind


def test_a_tag_names_the_player_state_that_holds_the_tags_in_play():
    engine = mintayn_master.ENGINE
    state = engine.new_game([1, 2])
    sources = {f.source for spec in engine.VOCABULARY.values() for _, f in _fields(spec) if f.kind == Kind.TAG}
    assert sources == {"monsters"} and all(isinstance(p["monsters"], dict) for p in state["players"])


def test_the_common_judge_actions_are_typed_too():
    assert COMMON_VOCABULARY["time_called"].fields["placements"].kind == Kind.PLACEMENTS
    assert COMMON_VOCABULARY["ruling_note"].fields["player"].optional


# --- one-tap entries --------------------------------------------------------------------------------


def test_a_quick_entry_fills_in_the_player_and_the_turn_player_as_values_and_as_keys():
    quick = QuickEntry("x", "X", "lp_change", {"changes": {THE_PLAYER: -500}, "by": TURN_PLAYER, "note": "kept"})
    assert quick.entry(player=7, turn_player=9) == {"changes": {"7": -500}, "by": 9, "note": "kept"}
    assert quick.uses_turn_player
    assert not QuickEntry("y", "Y", "end_turn", {"player": THE_PLAYER}).uses_turn_player


@pytest.mark.parametrize("slug", SLUGS)
def test_each_format_declares_one_tap_entries_of_its_own_vocabulary(slug):
    engine = get_format(slug).engine
    quick = engine.QUICK_ENTRIES
    assert quick and len({q.key for q in quick}) == len(quick)
    for q in quick:
        spec = engine.VOCABULARY[q.type]
        assert set(q.data) <= set(spec.fields), q.key
        assert isinstance(q.when, When)
    assert {"start_turn"} <= {q.type for q in quick}


@pytest.mark.parametrize(
    ("slug", "key", "expected"),
    [
        ("master-trainer", "life_10", ("adjust_life", {"player": 1, "amount": -10, "reason": "card effect"})),
        ("master-trainer", "life_100", ("adjust_life", {"player": 1, "amount": -100, "reason": "card effect"})),
        ("deck-masters", "lp_1000", ("lp_change", {"changes": {"1": -1000}})),
        ("mintayn-master", "lp_500", ("lp_change", {"changes": {"1": -500}})),
        ("mt-silver", "knocked_out", ("knock_out", {"player": 1, "by": 2})),
        ("format3-trinity", "knocked_out", ("knock_out", {"player": 1, "by": 2})),
        ("format3-trinity", "end_turn", ("end_turn", {"player": 1})),
    ],
)
def test_the_common_entries_of_each_format_are_one_tap(slug, key, expected):
    quick = {q.key: q for q in get_format(slug).engine.QUICK_ENTRIES}[key]
    assert (quick.type, quick.entry(player=1, turn_player=2)) == expected


def test_one_tap_entries_are_legal_entries_in_the_state_they_are_offered_in():
    """The Mt. Silver Badge Token: a Knock Out on another player's card, credited to the turn player."""
    engine = mt_silver.ENGINE
    players = [1, 2, 3, 4]
    state = replay(engine, players, None, [GameEvent("start_turn", {"player": 1})])
    knocked = {q.key: q for q in engine.QUICK_ENTRIES}["knocked_out"]
    after = engine.apply(state, GameEvent(knocked.type, knocked.entry(player=2, turn_player=1)))
    assert [p["badges_taken"] for p in after["players"]] == [1, 0, 0, 0]
    life = {q.key: q for q in master_trainer.QUICK_ENTRIES}["life_50"]
    mt = master_trainer.ENGINE
    state = replay(mt, [1, 2], None, [GameEvent("start_turn", {"player": 1})])
    after = mt.apply(state, GameEvent(life.type, life.entry(player=2, turn_player=1)))
    assert [p["life"] for p in after["players"]] == [200, 150]
    with pytest.raises(RuleViolation):  # the engine still decides: not player 2's turn
        mt.apply(state, GameEvent("end_turn", {"player": 2}))


# --- notes cite the log ---------------------------------------------------------------------------


def test_a_ruling_note_cites_the_log_number_it_is_given():
    engine = deck_masters.ENGINE
    state = engine.new_game([1, 2])
    noted = engine.apply(state, GameEvent("ruling_note", {"text": "slow play warning"}, seq=4))
    assert noted["notes"][-1]["seq"] == 4 and noted["seq"] == 1
    # Without a log number it counts the events applied, as before.
    assert engine.apply(state, GameEvent("ruling_note", {"text": "x"}))["notes"][-1]["seq"] == 1


def test_a_quick_entry_is_json_with_its_placeholders():
    quick = {q.key: q for q in mt_silver.QUICK_ENTRIES}["knocked_out"]
    assert json.loads(json.dumps(quick.as_dict())) == {
        "key": "knocked_out",
        "label": "Knocked Out by {turn}",
        "type": "knock_out",
        "data": {"player": THE_PLAYER, "by": TURN_PLAYER},
        "when": "other_turn",
        "needs": "pokemon_in_play",
    }
