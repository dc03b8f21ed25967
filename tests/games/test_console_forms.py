"""The judge console's forms, built from the typed vocabulary: widgets, payloads and errors (no database)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from django import forms
from django.http import QueryDict
from hypothesis import given, settings
from hypothesis import strategies as st

from games.display import entry_summary, with_names
from games.forms import GameEventForm, post_fields
from rules import get_format
from rules.engine import GameEvent, Kind, RuleViolation, replay
from tests.support.games import (
    deck_masters_duel,
    format3_trinity_game,
    master_trainer_game,
    mintayn_master_game,
    mt_silver_game,
)

NAMES = {30: "Ryo Bakura", 31: "Yugi Muto", 32: "Mai Kujaku", 33: "Joey Wheeler"}
SCRIPTS: dict[str, tuple[int, Callable[[list[int]], list[GameEvent]]]] = {
    "master-trainer": (4, master_trainer_game),
    "format3-trinity": (4, format3_trinity_game),
    "mt-silver": (4, mt_silver_game),
    "deck-masters": (2, lambda ids: deck_masters_duel(*ids)),
    "mintayn-master": (2, lambda ids: mintayn_master_game(*ids)),
}


def players(n: int) -> list[tuple[int, str]]:
    return list(NAMES.items())[:n]


def form_for(slug: str, type_: str, data=None, *, n: int = 2, still_in=None, **kwargs) -> GameEventForm:
    spec = get_format(slug).engine.VOCABULARY[type_]
    return GameEventForm(data, spec=spec, players=players(n), still_in=still_in, version=0, **kwargs)


def posted(slug: str, type_: str, fields: list[tuple[str, str]]) -> QueryDict:
    query = QueryDict(mutable=True)
    query["type"] = type_
    query["expected_version"] = "0"
    for name, value in fields:
        query.appendlist(name, value)
    return query


def as_json(spec, data) -> dict:
    """A payload as the database keeps it; a judge's tag is text."""
    data = json.loads(json.dumps(dict(data)))
    for name, field in spec.fields.items():
        if field.kind == Kind.TAG and name in data:
            data[name] = str(data[name])
    return data


# --- widgets ------------------------------------------------------------------------------------------


def test_an_lp_change_is_a_signed_number_per_player_by_name_not_json():
    form = form_for("deck-masters", "lp_change")
    (changes, cost) = form.event_fields
    assert changes.kind == "player_amounts" and changes.label == "LP changes"
    assert [c.label for c in changes.controls] == ["Ryo Bakura", "Yugi Muto"]
    assert [c.name for c in changes.controls] == ["changes_30", "changes_31"]
    assert all(isinstance(c.field, forms.IntegerField) for c in changes.controls)
    assert all(c.field.widget.input_type == "number" for c in changes.controls)
    assert cost.kind == "boolean" and cost.controls[0].field.widget.input_type == "checkbox"


def test_several_players_change_lp_in_one_entry_keyed_by_their_ids():
    data = posted("deck-masters", "lp_change", [("changes_30", "-1000"), ("changes_31", "500")])
    form = form_for("deck-masters", "lp_change", data)
    assert form.is_valid(), form.errors
    assert form.payload == {"changes": {"30": -1000, "31": 500}}


def test_a_blank_or_zero_row_is_no_change_and_no_change_at_all_is_an_error_at_the_field():
    data = posted("mintayn-master", "lp_change", [("changes_30", "0"), ("changes_31", "-300")])
    form = form_for("mintayn-master", "lp_change", data)
    assert form.is_valid() and form.payload == {"changes": {"31": -300}}
    empty = form_for("mintayn-master", "lp_change", posted("mintayn-master", "lp_change", []))
    assert not empty.is_valid()
    changes = empty.event_fields[0]
    assert changes.errors == ["Give one player's change."]
    assert all('aria-invalid="true"' in str(c) for c in changes.controls)
    assert "LP changes: Give one player's change." in empty.error_summary()


def test_a_player_who_is_out_gets_no_row_in_a_per_player_field_and_is_marked_out_in_a_picker():
    form = form_for("master-trainer", "time_called", n=4, still_in={30, 32})
    assert [c.label for c in form.event_fields[0].controls] == ["Ryo Bakura", "Mai Kujaku"]
    picker = form_for("master-trainer", "ruling_note", n=4, still_in={30, 32}).event_fields[1].controls[0]
    assert picker.field.choices[1:] == [
        ("30", "Ryo Bakura"),
        ("31", "Yugi Muto (out)"),
        ("32", "Mai Kujaku"),
        ("33", "Joey Wheeler (out)"),
    ]


def test_phases_steps_and_every_enumeration_are_dropdowns_of_their_choices():
    phase, step = form_for("deck-masters", "phase").event_fields
    assert isinstance(phase.controls[0].field, forms.ChoiceField)
    assert [v for v, _ in phase.controls[0].field.choices] == ["", "draw", "standby", "main1", "battle", "main2", "end"]
    assert phase.controls[0].field.required and not step.controls[0].field.required
    assert [v for v, _ in step.controls[0].field.choices][1:] == ["start", "battle", "damage", "end"]
    target = form_for("mintayn-master", "attack").event_fields[2]
    assert target.name == "target" and [v for v, _ in target.controls[0].field.choices][1:] == [
        "lp",
        "monster",
        "board",
        "global",
    ]


def test_a_player_is_a_choice_of_the_players_by_name():
    player = form_for("master-trainer", "start_turn", n=4).event_fields[0]
    choices = player.controls[0].field.choices
    assert choices[1:] == [("30", "Ryo Bakura"), ("31", "Yugi Muto"), ("32", "Mai Kujaku"), ("33", "Joey Wheeler")]


def test_counts_are_number_inputs_with_the_rules_bounds():
    prizes = form_for("format3-trinity", "knock_out", n=3).event_fields[2]
    field = prizes.controls[0].field
    assert isinstance(field, forms.IntegerField) and field.min_value == 1 and field.max_value == 3
    form = form_for(
        "format3-trinity", "knock_out", posted("", "knock_out", [("player", "30"), ("by", "31"), ("prizes", "4")]), n=3
    )
    assert not form.is_valid() and "prizes" in form.errors


def test_a_boolean_the_engine_defaults_to_true_is_ticked_and_unticking_it_records_false():
    active = form_for("format3-trinity", "knock_out", n=3).event_fields[3]
    assert active.is_checkbox and active.controls[0].value() is True
    ticked = form_for(
        "format3-trinity", "knock_out", posted("", "knock_out", [("player", "30"), ("by", "31"), ("active", "on")]), n=3
    )
    assert ticked.is_valid() and ticked.payload == {"player": 30, "by": 31}
    unticked = form_for("format3-trinity", "knock_out", posted("", "knock_out", [("player", "30"), ("by", "31")]), n=3)
    assert unticked.is_valid() and unticked.payload == {"player": 30, "by": 31, "active": False}


def test_several_players_at_once_are_checkboxes():
    players_field = form_for("deck-masters", "deck_master_lost").event_fields[0]
    assert isinstance(players_field.controls[0].field.widget, forms.CheckboxSelectMultiple)
    form = form_for(
        "deck-masters", "deck_master_lost", posted("", "deck_master_lost", [("players", "30"), ("players", "31")])
    )
    assert form.is_valid() and form.payload == {"players": [30, 31]}


def test_mana_is_a_number_per_class():
    form = form_for(
        "mintayn-master",
        "spend_mana",
        posted("", "spend_mana", [("player", "30"), ("mana_coreon", "2"), ("mana_obscura", "")]),
    )
    assert form.is_valid() and form.payload == {"player": 30, "mana": {"coreon": 2}}


def test_a_tag_suggests_the_tags_in_play():
    form = form_for("mintayn-master", "attack", tags={"monsters": ["ember", "tide"]})
    monster = form.event_fields[1]
    assert monster.datalist == ("id_attack_monster_tags", ["ember", "tide"])
    assert monster.controls[0].field.widget.attrs["list"] == "id_attack_monster_tags"


def test_knock_outs_at_the_same_time_are_rows_and_one_row_is_recorded_flat():
    rows = [
        ("player", "30"),
        ("by", "33"),
        ("active", "on"),
        ("knocked_out_0_player", "31"),
        ("knocked_out_0_by", "33"),
        ("knocked_out_0_active", "on"),
    ]
    form = form_for("mt-silver", "knock_out", posted("", "knock_out", rows), n=4)
    assert form.is_valid(), form.errors
    assert form.payload == {"knocked_out": [{"player": 30, "by": 33}, {"player": 31, "by": 33}]}
    single = form_for("mt-silver", "knock_out", posted("", "knock_out", rows[:3]), n=4)
    assert single.is_valid() and single.payload == {"player": 30, "by": 33}


@pytest.mark.parametrize(
    ("type_", "fields", "error_at"),
    [
        ("adjust_life", [("player", "30"), ("amount", "ten"), ("reason", "x")], "amount"),
        ("adjust_life", [("player", "30"), ("amount", "0"), ("reason", "x")], "amount"),
        ("adjust_life", [("player", "99"), ("amount", "-10"), ("reason", "x")], "player"),
        ("adjust_life", [("player", "30"), ("amount", "-10")], "reason"),
        ("attack", [("player", "30"), ("target", "31"), ("damage", "-5")], "damage"),
        ("play_support", [("player", "30"), ("kind", "spell")], "kind"),
        ("time_called", [("placements_30", "1"), ("placements_31", "{broken"), ("reason", "t")], "placements_31"),
    ],
)
def test_bad_input_is_an_error_at_its_field(type_, fields, error_at):
    form = form_for("master-trainer", type_, posted("", type_, fields))
    assert not form.is_valid()
    assert error_at in form.errors, form.errors


# --- every entry of every scripted game goes through a form ------------------------------------------


@pytest.mark.parametrize("slug", list(SCRIPTS))
def test_every_scripted_entry_is_recorded_through_its_form_unchanged(slug):
    """A form posts each entry of a whole game, and gives back exactly the payload the API would send."""
    count, script = SCRIPTS[slug]
    ids = list(NAMES)[:count]
    engine = get_format(slug).engine
    state = engine.new_game(ids)
    for event in script(ids):
        spec = engine.VOCABULARY[event.type]
        still_in = {p["id"] for p in state["players"] if not p["out"]}
        form = GameEventForm(
            posted(slug, event.type, post_fields(spec, event.data)),
            spec=spec,
            players=players(count),
            still_in=still_in,
        )
        assert form.is_valid(), (event, form.errors)
        assert form.payload == as_json(spec, event.data), event
        state = engine.apply(state, GameEvent(event.type, form.payload))
    assert state == json.loads(json.dumps(replay(engine, ids, None, script(ids))))


@pytest.mark.parametrize("slug", list(SCRIPTS))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_input_is_a_valid_payload_or_errors_at_fields_never_an_exception(slug, data):
    engine = get_format(slug).engine
    spec = engine.VOCABULARY[data.draw(st.sampled_from(sorted(engine.VOCABULARY)))]
    names = [name for name in GameEventForm(spec=spec, players=players(4)).fields if name != "type"]
    values = st.one_of(
        st.text(max_size=30),
        st.integers().map(str),
        st.sampled_from(
            [
                "",
                "on",
                "30",
                "31",
                "32",
                "1",
                "2",
                "-1",
                "-1000",
                "{}",
                "attack",
                "battle",
                "damage",
                "coreon",
                "item",
                "active",
                "bench",
                "creature",
                "m1",
            ]
        ),
    )
    fields = data.draw(st.lists(st.tuples(st.sampled_from(names), values), max_size=10)) if names else []
    count = SCRIPTS[slug][0]
    form = GameEventForm(posted(slug, spec.type, fields), spec=spec, players=players(count))
    if not form.is_valid():
        assert form.error_summary()
        return
    # What a form lets through, the engine accepts or refuses with a rule: never a crash (a 500).
    ids = list(NAMES)[:count]
    engine_event = GameEvent(spec.type, json.loads(json.dumps(form.payload)))
    for state in (engine.new_game(ids), replay(engine, ids, None, SCRIPTS[slug][1](ids)[:1])):
        try:
            engine.apply(state, engine_event)
        except RuleViolation:
            pass


# --- names in what the console says ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Player 30 is out of the duel.", "Ryo Bakura is out of the duel."),
        ("It is not player 31's turn.", "It is not Yugi Muto's turn."),
        ("The next turn is player 30's.", "The next turn is Ryo Bakura's."),
        (
            "The round is over: player(s) 30, 32 must replace their Active first.",
            "The round is over: Ryo Bakura, Mai Kujaku must replace their Active first.",
        ),
        ("Champion: player(s) 31 took all six Badge Tokens", "Champion: Yugi Muto took all six Badge Tokens"),
        ("Player '99' is not in this game.", "Player '99' is not in this game."),
        ("Player 3 has 7 Sources not Exhausted.", "Player 3 has 7 Sources not Exhausted."),
    ],
)
def test_engine_messages_name_the_players_instead_of_their_ids(message, expected):
    assert with_names(message, NAMES) == expected


def test_a_field_named_in_a_message_gets_its_label():
    spec = get_format("deck-masters").engine.VOCABULARY["lp_change"]
    assert with_names("'changes' has the wrong type.", NAMES, spec) == "“LP changes” has the wrong type."


def test_a_log_entry_names_players_even_inside_lists_and_maps():
    vocabulary = get_format("mt-silver").engine.VOCABULARY
    summary = entry_summary(
        vocabulary["knock_out"], {"knocked_out": [{"player": 30, "by": 31}, {"player": 32, "by": 31}]}, NAMES
    )
    assert summary == (
        "Knock Outs at the same time: (player: Ryo Bakura, by: Yugi Muto) (player: Mai Kujaku, by: Yugi Muto)"
    )
    lp = entry_summary(
        get_format("deck-masters").engine.VOCABULARY["lp_change"], {"changes": {"30": -1000, "31": 500}}, NAMES
    )
    assert lp == "LP changes: Ryo Bakura −1000, Yugi Muto +500"
    for text in (summary, lp):
        assert not any(str(pid) in text for pid in NAMES)


def test_a_state_row_with_a_long_label_gets_a_row_of_its_own_so_its_value_is_not_squeezed():
    """ "Abilities used this turn" beside "none" left the value a letter wide on a player's card."""
    from games.display import state_rows

    assert state_rows([("lp", 8000), ("abilities_used", [])], {}) == [
        ("LP", "8000", False),
        ("Abilities used this turn", "none", True),
    ]
