"""The OpenAPI schema: generated without a warning, valid OpenAPI 3, and saying what the API does.

drf-spectacular names a component after its serializer class, so the nested
``InputSerializer``/``OutputSerializer`` of every view used to collapse into one
``Input`` and one ``Output`` (the deck check's): the schema then said that
creating an event takes a decklist.  These tests generate the schema in-process
the way ``/api/schema/`` does, fail on any warning drf-spectacular reports, and
check the request and response bodies of the main operations, and that every
error answer is documented with the project's error shape and codes.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from drf_spectacular.validation import validate_schema

from core.api import ERROR_CODES
from tests.support.openapi import (
    CODE_LINE,
    V1,
    component,
    enum_values,
    generate,
    operation,
    request_component,
    response_schema,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def schema() -> dict:
    schema, _ = generate()
    return schema


def operations(schema: dict):
    for path, methods in schema["paths"].items():
        for method, op in methods.items():
            yield method, path, op


# --- generation ---------------------------------------------------------------------------------


def test_the_schema_generates_without_any_warning_or_error():
    _, reported = generate()
    assert reported == ""


def test_the_schema_is_valid_openapi_3(schema):
    assert schema["openapi"].startswith("3.")
    validate_schema(schema)


def test_the_served_schema_is_the_generated_one(schema, anon_api, db):
    response = anon_api.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    served = response.json()
    assert sorted(served["components"]["schemas"]) == sorted(schema["components"]["schemas"])
    assert sorted(served["paths"]) == sorted(schema["paths"])


def test_every_component_is_named_for_what_it_is(schema):
    names = set(schema["components"]["schemas"])
    generic = {n for n in names if re.fullmatch(r"(Patched)?(Input|Output)(Request)?|.*(Input|Output|Serializer)", n)}
    hashed = {n for n in names if re.search(r"[0-9a-f]{3}Enum$", n)}
    assert not generic
    assert not hashed
    assert {"Error", "ErrorResponse", "Event", "EventCreateRequest", "DeckCheckRequest", "DeckCheckResult"} <= names


def test_statuses_of_events_games_and_deck_versions_are_separate_enums(schema):
    def enum_of(name: str, field: str) -> list[str]:
        return enum_values(schema, schema["components"]["schemas"][name]["properties"][field])

    assert enum_of("Event", "status") == ["registration", "running", "finished"]
    assert enum_of("Game", "status") == ["in_progress", "finished", "superseded"]
    assert enum_of("DeckVersion", "status") == ["pending", "legal", "illegal"]
    checked = schema["components"]["schemas"]["DeckVersion"]["properties"]["checked_status"]
    assert {"$ref": "#/components/schemas/DeckVersionStatusEnum"} in checked["oneOf"] and checked["nullable"] is True
    assert enum_of("DeckRuling", "status") == enum_of("DeckRulingCreateRequest", "status") == ["legal", "illegal"]
    assert enum_of("Round", "stage") == ["swiss", "top_cut"]


# --- the main operations' bodies ------------------------------------------------------------------

E = "/events/{event_id}"
R = E + "/registrations/{registration_id}"
ROUND = E + "/rounds/{number}"
TABLE = ROUND + "/tables/{table}"

#: (method, path, request component, its required fields, status, response component, its required fields)
MAIN_OPERATIONS = [
    ("post", "/events/", "EventCreateRequest", {"name", "format", "planned_rounds", "date"}, 201, "Event",
     {"id", "name", "format", "status", "planned_rounds", "date", "organiser", "tiebreakers", "top_cut_size"}),
    ("post", E + "/registrations/", "RegistrationCreateRequest", set(), 201, "Registration",
     {"id", "player", "checked_in", "dropped", "late_entry_round", "fixed_table", "assigned_byes"}),
    ("post", E + "/rounds/", "RoundStartRequest", set(), 201, "Round",
     {"number", "stage", "label", "seed", "objective", "rematches", "edited", "completed", "tables"}),
    ("post", ROUND + "/tables/{table}/result/", "ResultReportRequest", {"placements"}, 201, "Table",
     {"table", "bye", "reported", "seats"}),
    ("post", ROUND + "/swap/", "RoundSwapRequest", {"players"}, 200, "RoundSwapResult", {"round", "warnings"}),
    ("post", R + "/byes/", "ByeAssignRequest", {"round"}, 201, "Registration", {"id", "assigned_byes"}),
    ("post", E + "/top-cut/", "TopCutStartRequest", set(), 201, "Round", {"number", "stage", "tables"}),
    ("post", R + "/check-in/", "CheckInRequest", set(), 200, "Registration", {"id", "checked_in"}),
    ("get", E + "/standings/", None, None, 200, "Standings", {"event", "current", "results_version", "standings"}),
    ("get", E + "/structure/", None, None, 200, "EventStructure",
     {"players", "swiss_rounds", "top_cut", "cut_sizes", "table", "source"}),
    ("post", "/deck-checks/", "DeckCheckRequest", {"format", "decklist"}, 200, "DeckCheckResult",
     {"legal", "card_count", "violations"}),
    ("post", "/games/{game_id}/events/", "GameEntryAppendRequest", {"expected_version", "type"}, 201, "Game",
     {"id", "event", "round", "table", "number", "format", "status", "version", "players", "state"}),
    # people: self-service, staff, reports, corrections, the audit trail, /me/
    ("patch", E + "/", "EventUpdateRequest", set(), 200, "Event",
     {"registration_open", "registration_deadline", "capacity", "check_in_open", "player_reports",
      "casters_see_decklists", "magic_floor"}),
    ("post", E + "/register/", None, None, 201, "Registration", {"id", "player", "status", "self_registered"}),
    ("post", R + "/withdraw/", None, None, 200, "Registration", {"id", "status"}),
    ("post", R + "/drop/", None, None, 200, "Registration", {"id", "dropped", "dropped_after_round"}),
    ("post", R + "/undrop/", "UndropRequest", {"reason"}, 200, "Registration", {"id", "dropped"}),
    ("post", R + "/claim-code/", None, None, 201, "ClaimCode", {"code"}),
    ("post", "/players/claim/", "PlayerClaimRequest", {"code"}, 200, "Player", {"id", "display_name", "external_id"}),
    ("post", E + "/staff/", "StaffAddRequest", {"user", "role"}, 201, "StaffMember", {"user", "role", "added_at"}),
    ("post", TABLE + "/report/", "PlayerReportRequest", {"placements"}, 201, "ReportAnswer", {"state", "table"}),
    ("post", TABLE + "/confirm/", "ReportConfirmRequest", {"agrees"}, 200, "ReportAnswer", {"state", "table"}),
    ("post", TABLE + "/report/accept/", None, None, 200, "ReportAnswer", {"state", "table"}),
    ("post", TABLE + "/correction/", "CorrectionRequest", {"placements", "reason"}, 200, "CorrectionResult",
     {"table", "later_rounds"}),
    ("get", E + "/audit/", None, None, 200, "PaginatedAuditEntryList", {"count", "results"}),
    ("get", "/me/", None, None, 200, "Me", {"username", "player", "upcoming", "running", "past"}),
    # judges' rulings on decks
    ("post", R + "/decks/{number}/ruling/", "DeckRulingCreateRequest", {"status", "reason"}, 200, "DeckVersion",
     {"status", "checked_status", "ruling"}),
    ("post", R + "/decks/{number}/ruling/clear/", "DeckRulingClearRequest", {"reason"}, 200, "DeckVersion",
     {"status", "checked_status", "ruling"}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("method", "path", "request_name", "request_required", "status", "response_name", "response_required"),
    MAIN_OPERATIONS,
    ids=[f"{m.upper()} {p}" for m, p, *_ in MAIN_OPERATIONS],
)
def test_a_main_operation_takes_and_answers_its_own_components(
    schema, method, path, request_name, request_required, status, response_name, response_required
):
    if request_name is None:
        assert "requestBody" not in operation(schema, method, path)
    else:
        name, body = request_component(schema, method, path)
        assert name == request_name
        assert set(body.get("required", [])) == request_required
    name, body = component(schema, response_schema(schema, method, path, status))
    assert name == response_name
    assert response_required <= set(body["required"])


def test_operations_without_a_body_document_none(schema):
    for method, path in [("post", E + "/register/"), ("post", R + "/withdraw/"), ("post", R + "/claim-code/"),
                         ("delete", E + "/staff/{username}/"), ("post", R + "/drop/")]:  # fmt: skip
        assert "requestBody" not in operation(schema, method, path), (method, path)


def test_a_result_takes_game_scores_and_intentional_draws_and_a_correction_its_reason(schema):
    for path, name in [("/result/", "ResultReportRequest"), ("/report/", "PlayerReportRequest"),
                       ("/correction/", "CorrectionRequest")]:  # fmt: skip
        found, body = request_component(schema, "post", TABLE + path)
        assert found == name
        assert {"placements", "games", "intentional_draw"} <= set(body["properties"])
        score_name, score = component(schema, body["properties"]["games"]["items"])
        assert score_name == "GameScoreRequest"
        assert set(score["required"]) == {"player", "won", "lost", "drawn"}
        assert body["properties"]["games"]["nullable"] is True
    assert "reason" in request_component(schema, "post", TABLE + "/correction/")[1]["required"]


def test_a_table_shows_game_scores_corrections_and_the_open_report(schema):
    schemas = schema["components"]["schemas"]
    assert {"intentional_draw", "corrected", "report"} <= set(schemas["Table"]["required"])
    assert schemas["Table"]["properties"]["report"]["allOf"] == [{"$ref": "#/components/schemas/TableReport"}]
    assert schemas["Table"]["properties"]["report"]["nullable"] is True
    assert {"games_won", "games_lost", "games_drawn"} <= set(schemas["Seat"]["required"])
    report = schemas["TableReport"]
    assert set(report["required"]) == {"status", "reported_by", "reported_at", "placements", "games",
                                       "intentional_draw", "responses"}  # fmt: skip
    assert enum_values(schema, report["properties"]["status"]) == ["pending", "disputed"]
    assert enum_values(schema, schemas["ReportAnswer"]["properties"]["state"]) == [
        "pending", "confirmed", "disputed", "unchanged"
    ]  # fmt: skip


def test_registrations_say_whether_they_are_in_the_event_waiting_withdrawn_invited_or_applied(schema):
    registration = schema["components"]["schemas"]["Registration"]
    assert enum_values(schema, registration["properties"]["status"]) == [
        "registered", "waitlisted", "withdrawn", "invited", "applied"
    ]  # fmt: skip
    assert {"status", "self_registered"} <= set(registration["required"])


def test_the_audit_trail_is_paginated_with_limit_and_offset(schema):
    op = operation(schema, "get", E + "/audit/")
    assert {p["name"] for p in op["parameters"]} == {"event_id", "limit", "offset", "kind"}
    page = schema["components"]["schemas"]["PaginatedAuditEntryList"]
    assert page["properties"]["results"]["items"] == {"$ref": "#/components/schemas/AuditEntry"}
    entry = schema["components"]["schemas"]["AuditEntry"]
    assert set(entry["required"]) == {"id", "time", "actor", "action", "subject", "before", "after", "reason"}


def test_a_decks_private_fields_may_be_null_and_a_players_external_id_too(schema):
    version = schema["components"]["schemas"]["DeckVersion"]["properties"]
    for name in ("decklist", "violations", "roles", "card_count", "checked_status", "ruling"):
        assert version[name]["nullable"] is True, name
    assert version["ruling"]["allOf"] == [{"$ref": "#/components/schemas/DeckRuling"}]
    ruling = schema["components"]["schemas"]["DeckRuling"]
    assert set(ruling["required"]) == {"status", "reason", "by", "at"} and ruling["properties"]["by"]["nullable"]
    assert schema["components"]["schemas"]["Player"]["properties"]["external_id"]["nullable"] is True


def test_a_result_lists_each_seated_players_placement(schema):
    _, body = request_component(schema, "post", ROUND + "/tables/{table}/result/")
    name, placement = component(schema, body["properties"]["placements"]["items"])
    assert name == "PlacementRequest"
    assert set(placement["required"]) == {"player", "placement"}
    assert placement["properties"]["placement"]["minimum"] == 1


def test_a_round_lists_its_tables_and_their_seats(schema):
    rounds = schema["components"]["schemas"]["Round"]
    assert rounds["properties"]["tables"]["items"] == {"$ref": "#/components/schemas/Table"}
    table = schema["components"]["schemas"]["Table"]
    assert table["properties"]["seats"]["items"] == {"$ref": "#/components/schemas/Seat"}


def test_the_standings_list_one_standing_per_player(schema):
    standings = schema["components"]["schemas"]["Standings"]
    assert standings["properties"]["standings"]["items"] == {"$ref": "#/components/schemas/Standing"}
    assert {"rank", "player", "points", "opp_match_win_pct"} <= set(
        schema["components"]["schemas"]["Standing"]["required"]
    )


def test_taking_back_a_bye_answers_the_registration_not_an_empty_204(schema):
    op = operation(schema, "delete", R + "/byes/{number}/")
    assert "204" not in op["responses"]
    assert component(schema, response_schema(schema, "delete", R + "/byes/{number}/", 200))[0] == "Registration"


def test_a_stale_game_entry_answers_the_error_shape_with_the_current_state(schema):
    conflict = operation(schema, "post", "/games/{game_id}/events/")["responses"]["409"]
    assert conflict["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorResponse"}
    assert CODE_LINE.findall(conflict["description"]) == ["stale_version", "game_superseded"]
    error = schema["components"]["schemas"]["Error"]["properties"]
    assert {"version", "state"} <= set(error)


def test_the_game_state_says_its_etag_and_answers_304_when_unchanged(schema):
    op = operation(schema, "get", "/games/{game_id}/")
    assert "304" in op["responses"]
    assert "ETag" in op["responses"]["200"]["headers"]
    assert any(p["name"] == "If-None-Match" and p["in"] == "header" for p in op["parameters"])


def test_the_token_endpoint_takes_credentials_and_answers_a_token(schema):
    request = schema["components"]["schemas"]["TokenCreateRequest"]
    assert set(request["required"]) == {"username", "password"}
    assert component(schema, response_schema(schema, "post", "/auth/token/", 200))[1]["required"] == ["token"]


# --- errors ---------------------------------------------------------------------------------------


def test_the_error_component_is_the_one_error_shape(schema):
    envelope = schema["components"]["schemas"]["ErrorResponse"]
    assert envelope["required"] == ["error"]
    assert envelope["properties"]["error"] == {"$ref": "#/components/schemas/Error"}
    error = schema["components"]["schemas"]["Error"]
    assert error["required"] == ["code", "message"]
    assert list(error["properties"])[:3] == ["code", "message", "fields"]


def documented_codes(op: dict, status: int) -> list[str]:
    return CODE_LINE.findall(op["responses"].get(str(status), {}).get("description", ""))


def test_every_error_answer_uses_the_error_shape_and_lists_codes_of_its_status(schema):
    for method, path, op in operations(schema):
        for status, response in op["responses"].items():
            if not status.startswith("4"):
                continue
            assert response["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorResponse"}
            codes = documented_codes(op, int(status))
            assert codes or "rule code" in response["description"], (method, path, status)
            for code in codes:
                assert ERROR_CODES[code][0] == int(status), (method, path, code)


def test_every_operation_on_an_object_in_the_path_documents_404(schema):
    for method, path, op in operations(schema):
        if "{" in path:
            assert "not_found" in documented_codes(op, 404), (method, path)


def test_every_write_documents_401_and_every_body_400(schema):
    for method, path, op in operations(schema):
        open_to_all = {V1 + "/auth/token/", V1 + "/auth/signup/", V1 + "/deck-checks/"}
        if method == "get" or path in open_to_all:
            if "requestBody" in op:
                assert {"invalid", "parse_error"} <= set(documented_codes(op, 400)), (method, path)
            continue
        assert {"not_authenticated", "authentication_failed"} <= set(documented_codes(op, 401)), (method, path)
        if "requestBody" in op:
            assert {"invalid", "parse_error"} <= set(documented_codes(op, 400)), (method, path)
            assert documented_codes(op, 415) == ["unsupported_media_type"], (method, path)


@pytest.mark.parametrize(
    ("method", "path", "status", "codes"),
    [
        ("post", E + "/rounds/", 409, {"round_incomplete", "rounds_complete", "rematch_unavoidable", "event_finished"}),
        ("post", ROUND + "/tables/{table}/result/", 409, {"round_closed", "result_exists", "event_finished"}),
        ("post", ROUND + "/tables/{table}/result/", 404, {"round_not_found", "table_not_found"}),
        ("post", ROUND + "/swap/", 409, {"round_closed", "top_cut_round", "round_has_results"}),
        ("post", E + "/top-cut/", 409, {"top_cut_started", "swiss_incomplete", "no_top_cut"}),
        ("post", E + "/registrations/", 409, {"already_registered", "top_cut_started"}),
        ("post", R + "/byes/", 409, {"round_already_paired", "dropped"}),
        ("post", "/deck-checks/", 429, {"throttled"}),
        ("post", "/games/{game_id}/events/{seq}/void/", 409, {"stale_version", "already_void", "void_breaks_log"}),
        ("post", E + "/register/", 409, {"registration_closed", "event_started", "already_registered"}),
        ("post", R + "/withdraw/", 409, {"event_started"}),
        ("post", R + "/check-in/", 409, {"check_in_closed", "not_registered", "dropped"}),
        ("post", R + "/drop/", 409, {"round_in_progress", "not_registered"}),
        ("post", R + "/claim-code/", 409, {"already_claimed"}),
        ("post", "/players/claim/", 404, {"unknown_claim_code"}),
        ("post", "/players/claim/", 409, {"already_claimed", "player_has_history"}),
        ("post", E + "/staff/", 404, {"unknown_user"}),
        ("post", E + "/staff/", 409, {"already_organiser"}),
        ("delete", E + "/staff/{username}/", 404, {"unknown_user", "not_staff"}),
        ("post", TABLE + "/report/", 403, {"not_at_table"}),
        ("post", TABLE + "/report/", 409, {"player_reports_off", "result_exists", "already_answered", "round_closed"}),
        ("post", TABLE + "/confirm/", 403, {"not_at_table"}),
        ("post", TABLE + "/confirm/", 404, {"no_report", "table_not_found"}),
        ("post", TABLE + "/confirm/", 409, {"own_report", "already_answered", "result_exists"}),
        ("post", TABLE + "/correction/", 409, {"no_result", "cut_advanced"}),
        ("get", E + "/audit/", 403, {"permission_denied"}),
        ("post", R + "/decks/{number}/ruling/", 409, {"not_latest_version"}),
        ("post", R + "/decks/{number}/ruling/clear/", 409, {"not_latest_version", "no_ruling"}),
    ],
)
def test_an_operation_lists_the_codes_its_service_refuses_with(schema, method, path, status, codes):
    assert codes <= set(documented_codes(operation(schema, method, path), status))


def raised_codes() -> dict[str, set[int]]:
    """``{code: {status}}`` of every ``ApplicationError`` (or subclass) raised with a ``code`` in the apps."""
    statuses = {
        "ApplicationError": 400, "NotAuthenticated": 401, "NotFound": 404, "Conflict": 409, "PermissionDenied": 403,
    }  # fmt: skip
    found: dict[str, set[int]] = {}
    for app in ("core", "tournaments", "decks", "games", "leagues"):
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                for keyword in node.keywords:
                    if name in statuses and keyword.arg == "code" and isinstance(keyword.value, ast.Constant):
                        found.setdefault(keyword.value.value, set()).add(statuses[name])
    return found


#: Codes raised outside the API's reach: card imports run from the command line.
NOT_API_CODES = {"bad_card_data"}


def test_every_code_the_services_raise_is_in_the_catalogue_with_its_status():
    raised = raised_codes()
    assert "round_incomplete" in raised  # the scan reads the services
    for code, statuses in raised.items():
        if code in NOT_API_CODES:
            continue
        assert code in ERROR_CODES, code
        assert statuses == {ERROR_CODES[code][0]}, code
