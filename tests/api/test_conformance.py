"""Whole scripts through the API, every answer validated against the OpenAPI schema.

Fuzzing rarely gets far into an event (a valid result needs the players seated
at that table), so these walk the main operations the way a script does:
running an event from registration to its top-cut final, recording a game at a
table, and registering decks.  Each request is built from the schema's
operation and each answer must pass the same checks as the fuzzing: documented
status, content type, headers and body, and a documented error code.
"""

from __future__ import annotations

import pytest

from tests.support.api_checks import Api
from tests.support.games.deck_masters import scripted_duel

pytestmark = pytest.mark.django_db


@pytest.fixture
def call(wsgi_in_test_transaction, organiser) -> Api:
    return Api(organiser)


def error_code(answer: dict) -> str:
    return answer["error"]["code"]


def report_every_table(call, event_id: int, round_: dict) -> None:
    for table in round_["tables"]:
        if table["bye"]:
            continue
        seats = [seat["player"]["id"] for seat in table["seats"]]
        placements = [{"player": p, "placement": i} for i, p in enumerate(seats, start=1)]
        call("post", "/events/{event_id}/rounds/{number}/tables/{table}/result/", 201, {"placements": placements},
             event_id=event_id, number=round_["number"], table=table["table"])  # fmt: skip


def test_an_event_from_registration_to_its_final_answers_as_the_schema_says(
    call, outsider, django_capture_on_commit_callbacks
):
    event = call("post", "/events/", 201, {"name": "Duel Night", "format": "deck-masters", "planned_rounds": 2,
                                           "date": "2026-12-04"})  # fmt: skip
    eid = event["id"]
    assert call("get", "/events/{event_id}/", 200, event_id=eid) == {
        **event,
        "final_placements": [],
        "priority_players": [],
    }
    call("patch", "/events/{event_id}/", 200, {"venue": "Card Corner"}, event_id=eid)
    known = call("post", "/players/", 201, {"display_name": "Yugi", "external_id": "KC-1"})
    regs = [call("post", "/events/{event_id}/registrations/", 201, {"player": known["id"], "checked_in": True},
                 event_id=eid)]  # fmt: skip
    regs += [
        call(
            "post",
            "/events/{event_id}/registrations/",
            201,
            {"display_name": f"Duelist {i}", "checked_in": True},
            event_id=eid,
        )  # fmt: skip
        for i in range(7)
    ]
    again = call("post", "/events/{event_id}/registrations/", 409, {"player": known["id"]}, event_id=eid)
    assert error_code(again) == "already_registered"
    assert call("get", "/events/{event_id}/registrations/", 200, event_id=eid)["count"] == 8
    assert call("get", "/players/", 200, query={"event": eid})["results"][0]["display_name"]

    rid = regs[1]["id"]
    call("patch", "/events/{event_id}/registrations/{registration_id}/", 200, {"fixed_table": 2},
         event_id=eid, registration_id=rid)  # fmt: skip
    call("patch", "/events/{event_id}/registrations/{registration_id}/", 200, {"fixed_table": None},
         event_id=eid, registration_id=rid)  # fmt: skip
    call("post", "/events/{event_id}/registrations/{registration_id}/byes/", 201, {"round": 2},
         event_id=eid, registration_id=rid)  # fmt: skip
    undone = call("delete", "/events/{event_id}/registrations/{registration_id}/byes/{number}/", 200,
                  event_id=eid, registration_id=rid, number=2)  # fmt: skip
    assert undone["assigned_byes"] == []
    call("post", "/events/{event_id}/registrations/{registration_id}/check-in/", 200, {"checked_in": False},
         event_id=eid, registration_id=rid)  # fmt: skip
    call("post", "/events/{event_id}/registrations/{registration_id}/check-in/", 200, {},
         event_id=eid, registration_id=rid)  # fmt: skip
    assert call("get", "/events/{event_id}/structure/", 200, event_id=eid)["players"] == 8

    round_ = call("post", "/events/{event_id}/rounds/", 201, {"seed": 42}, event_id=eid)
    first, second = round_["tables"][0], round_["tables"][1]
    swapped = call("post", "/events/{event_id}/rounds/{number}/swap/", 200,
                   {"players": [first["seats"][0]["player"]["id"], second["seats"][0]["player"]["id"]]},
                   event_id=eid, number=1)  # fmt: skip
    assert swapped["round"]["edited"] is True
    round_ = call("post", "/events/{event_id}/rounds/{number}/repair/", 201, {"seed": 7}, event_id=eid, number=1)
    refused = call("post", "/events/{event_id}/rounds/", 409, {}, event_id=eid)
    assert error_code(refused) == "round_incomplete"
    missing = call("post", "/events/{event_id}/rounds/{number}/tables/{table}/result/", 404,
                   {"placements": [{"player": 1, "placement": 1}]}, event_id=eid, number=1, table=99)  # fmt: skip
    assert error_code(missing) == "table_not_found"

    with django_capture_on_commit_callbacks(execute=True):
        report_every_table(call, eid, round_)
    table = round_["tables"][0]
    seats = [seat["player"]["id"] for seat in table["seats"]]
    same = [{"player": p, "placement": i} for i, p in enumerate(seats, start=1)]
    call("post", "/events/{event_id}/rounds/{number}/tables/{table}/result/", 200, {"placements": same},
         event_id=eid, number=1, table=table["table"])  # fmt: skip
    other = [{"player": p, "placement": 1} for p in seats]
    conflict = call("post", "/events/{event_id}/rounds/{number}/tables/{table}/result/", 409, {"placements": other},
                    event_id=eid, number=1, table=table["table"])  # fmt: skip
    assert error_code(conflict) == "result_exists"
    standings = call("get", "/events/{event_id}/standings/", 200, event_id=eid)
    assert standings["current"] is True
    assert len(standings["standings"]) == 8

    with django_capture_on_commit_callbacks(execute=True):
        report_every_table(call, eid, call("post", "/events/{event_id}/rounds/", 201, {}, event_id=eid))
    closed = call("post", "/events/{event_id}/rounds/{number}/swap/", 409, {"players": seats[:2]}, event_id=eid,
                  number=1)  # fmt: skip
    assert error_code(closed) == "round_closed"
    assert error_code(call("post", "/events/{event_id}/rounds/", 409, {}, event_id=eid)) == "rounds_complete"

    semis = call("post", "/events/{event_id}/top-cut/", 201, {"size": 4}, event_id=eid)
    assert semis["stage"] == "top_cut"
    report_every_table(call, eid, semis)
    assert error_code(call("post", "/events/{event_id}/top-cut/", 409, {}, event_id=eid)) == "top_cut_started"
    report_every_table(call, eid, call("post", "/events/{event_id}/rounds/", 201, {}, event_id=eid))
    assert len(call("get", "/events/{event_id}/rounds/", 200, event_id=eid)) == 4
    assert call("post", "/events/{event_id}/finish/", 200, event_id=eid)["status"] == "finished"
    assert error_code(call("post", "/events/{event_id}/rounds/", 409, {}, event_id=eid)) == "event_finished"

    theirs = Api(outsider)("post", "/events/{event_id}/registrations/{registration_id}/drop/", 403,
                           event_id=eid, registration_id=rid)  # fmt: skip
    assert error_code(theirs) == "permission_denied"


def test_a_game_recorded_at_a_table_answers_as_the_schema_says(call):
    event = call("post", "/events/", 201, {"name": "Duels", "format": "deck-masters", "planned_rounds": 3,
                                           "date": "2026-12-04"})  # fmt: skip
    eid = event["id"]
    for name in ("Yugi", "Kaiba"):
        call("post", "/events/{event_id}/registrations/", 201, {"display_name": name, "checked_in": True}, event_id=eid)
    (table,) = call("post", "/events/{event_id}/rounds/", 201, {}, event_id=eid)["tables"]
    where = {"event_id": eid, "number": 1, "table": table["table"]}
    game = call("post", "/events/{event_id}/rounds/{number}/tables/{table}/games/", 201, {}, **where)
    assert call("get", "/events/{event_id}/rounds/{number}/tables/{table}/games/", 200, **where)["results"] == [game]
    assert error_code(call("post", "/events/{event_id}/rounds/{number}/tables/{table}/games/", 409, {}, **where)) == (
        "game_in_progress"
    )

    players = [seat["player"]["id"] for seat in table["seats"]]
    for entry in scripted_duel(*players)[:4]:
        body = {"expected_version": game["version"], "type": entry.type, "data": dict(entry.data)}
        game = call("post", "/games/{game_id}/events/", 201, body, game_id=game["id"])
    stale = call("post", "/games/{game_id}/events/", 409, {"expected_version": 0, "type": "pass", "data": {}},
                 game_id=game["id"])  # fmt: skip
    assert error_code(stale) == "stale_version"
    assert stale["error"]["version"] == game["version"]
    refused = call("post", "/games/{game_id}/events/", 400, {"expected_version": game["version"], "type": "no such"},
                   game_id=game["id"])  # fmt: skip
    assert "rule" in refused["error"]

    game = call("post", "/games/{game_id}/events/{seq}/void/", 201,
                {"expected_version": game["version"], "reason": "recorded twice"}, game_id=game["id"], seq=4)  # fmt: skip
    assert call("get", "/games/{game_id}/events/", 200, game_id=game["id"])["count"] == 5
    etag = f'"game-{game["id"]}-v{game["version"]}"'
    assert call("get", "/games/{game_id}/", 200, game_id=game["id"]) == game
    assert call("get", "/games/{game_id}/", 304, headers={"If-None-Match": etag}, game_id=game["id"]) is None


def test_decks_checked_and_registered_answer_as_the_schema_says(call):
    checked = call("post", "/deck-checks/", 200, {"format": "mintayn-master", "decklist": "1 Nothing Known"})
    assert checked["legal"] is False
    event = call("post", "/events/", 201, {"name": "Mintayn Cup", "format": "mintayn-master", "planned_rounds": 2,
                                           "date": "2026-12-04"})  # fmt: skip
    eid = event["id"]
    rid = call("post", "/events/{event_id}/registrations/", 201, {"display_name": "Ash"}, event_id=eid)["id"]
    assert call("post", "/events/{event_id}/deck-options/", 200, {"deck_options": {"deck_size": 50}}, event_id=eid) == {
        "deck_options": {"deck_size": 50}
    }
    version = call("post", "/events/{event_id}/registrations/{registration_id}/decks/", 201,
                   {"decklist": "1 Nothing Known"}, event_id=eid, registration_id=rid)  # fmt: skip
    assert version["status"] == "pending"
    assert call("get", "/events/{event_id}/registrations/{registration_id}/decks/", 200,
                event_id=eid, registration_id=rid)["results"] == [version]  # fmt: skip
    assert call("get", "/events/{event_id}/decks/", 200, event_id=eid)["results"][0]["registration"] == rid
    run = call("post", "/events/{event_id}/decks/recheck/", 202, event_id=eid)
    assert call("get", "/events/{event_id}/decks/recheck/", 200, event_id=eid)["id"] == run["id"]
    assert call("get", "/formats/", 200)
