"""The event bundle's shape (pure, no database): what a bundle must hold, the path every refusal names, id maps."""

from __future__ import annotations

import copy

import pytest

from tournaments import bundle as shape
from tournaments.bundle import BundleError, IdMap

TIME = "2026-12-05T10:00:00+00:00"

SMALL = {
    "podium_bundle": 1, "exported_at": TIME, "source": "venue-laptop",
    "event": {"id": 7, "name": "Cup", "format": "deck-masters", "status": "running", "planned_rounds": 3,
              "date": "2026-12-05", "options": {}, "results_version": 2},
    "players": [{"id": 1, "display_name": "Ash", "external_id": None},
                {"id": 2, "display_name": "Gary", "external_id": "KID-2"}],
    "registrations": [{"id": 10, "player": 1, "status": "registered", "checked_in": True, "dropped": False,
                       "created_at": TIME, "byes": []},
                      {"id": 11, "player": 2, "status": "registered", "checked_in": True, "dropped": False,
                       "created_at": TIME, "byes": [2]}],
    "rounds": [{"id": 20, "number": 1, "stage": "swiss", "seed": 5, "created_at": TIME, "completed_at": None}],
    "pods": [{"id": 30, "round": 20, "table_number": 1, "is_bye": False}],
    "seats": [{"id": 40, "pod": 30, "player": 1, "seat_order": 1, "placement": 1, "points": 3},
              {"id": 41, "pod": 30, "player": 2, "seat_order": 2, "placement": 2, "points": 0}],
    "results": [], "reports": [], "penalties": [],
    "decks": [{"id": 50, "registration": 10, "number": 1, "decklist": "3 Card", "status": "legal",
               "submitted_by": None, "submitted_at": TIME, "checked_at": None,
               "rulings": [{"status": "illegal", "reason": "Proxy.", "by": "jo", "at": TIME}], "ruling": 0}],
    "audit": [{"id": 60, "actor": "organiser", "action": "round.started", "subject": "Round 1", "reason": "",
               "created_at": TIME}],
}  # fmt: skip


def bad(path_and_value) -> dict:
    bundle = copy.deepcopy(SMALL)
    *keys, last = path_and_value[0]
    target = bundle
    for key in keys:
        target = target[key]
    if path_and_value[1] is KeyError:
        del target[last]
    else:
        target[last] = path_and_value[1]
    return bundle


def test_a_whole_bundle_passes_its_checks():
    assert shape.check(copy.deepcopy(SMALL))["source"] == "venue-laptop"


@pytest.mark.parametrize(
    ("change", "path", "says"),
    [
        ((["podium_bundle"], KeyError), "$.podium_bundle", "not a Podium event bundle"),
        ((["podium_bundle"], 2), "$.podium_bundle", "newer Podium; this one reads version 1"),
        ((["podium_bundle"], "1"), "$.podium_bundle", "must be a version number"),
        ((["event", "name"], KeyError), "$.event.name", "is missing"),
        ((["exported_at"], "yesterday"), "$.exported_at", "not an ISO 8601 time"),
        ((["rounds", 0, "created_at"], "2026-12-05T10:00:00"), "$.rounds[0].created_at", "no UTC offset"),
        ((["seats", 1, "player"], 99), "$.seats[1].player", "99 is not the id of one of the bundle's players"),
        ((["seats", 1, "seat_order"], True), "$.seats[1].seat_order", "must be an int, not bool"),
        ((["pods", 0, "round"], 21), "$.pods[0].round", "is not the id of one of the bundle's rounds"),
        ((["players", 1, "id"], 1), "$.players[1].id", "1 is the id of two players"),
        ((["decks", 0, "ruling"], 3), "$.decks[0].ruling", "not the index of one of the deck's rulings"),
        ((["decks", 0, "rulings", 0, "reason"], KeyError), "$.decks[0].rulings[0].reason", "is missing"),
        ((["registrations", 1, "byes"], ["2"]), "$.registrations[1].byes[0]", "must be an int"),
        ((["audit"], {}), "$.audit", "must be a list"),
    ],
)
def test_a_refusal_names_the_path_of_what_is_wrong(change, path, says):
    with pytest.raises(BundleError) as refused:
        shape.check(bad(change))
    assert refused.value.path == path
    assert says in refused.value.message


def test_a_seated_player_must_be_registered():
    bundle = copy.deepcopy(SMALL)
    bundle["players"].append({"id": 3, "display_name": "Misty", "external_id": None})
    bundle["seats"][1]["player"] = 3
    with pytest.raises(BundleError, match=r"\$\.seats\[1\]\.player: player 3 has no registration"):
        shape.check(bundle)


def test_an_id_map_remaps_ids_and_the_keys_of_objects_keyed_by_them():
    players = IdMap("players")
    players.update([(1, 101), (2, 102)])
    assert players[2] == 102 and players.get(None) is None
    assert players.keys_of({"1": 1, "2": 2}) == {"101": 1, "102": 2}
    with pytest.raises(BundleError, match=r"\$\.players: no row has id 3"):
        players[3]


def test_every_username_a_bundle_names_is_found_and_an_imported_reason_says_where_it_came_from():
    assert shape.usernames(SMALL) == {"jo", "organiser"}
    assert shape.imported_reason("", source="venue-laptop", actor=None) == (
        "Imported from venue-laptop; made there by the system."
    )
    assert shape.imported_reason("Misread slip.", source="venue-laptop", actor="jo") == (
        "Misread slip. (Imported from venue-laptop; made there by jo.)"
    )
