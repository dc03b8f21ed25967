"""Bad input is a 400 (or the conflict it is), never a server error, and nothing is stored when it is refused.

Each case was a 500 before: JSON nested 100,000 deep (``RecursionError``), a NUL in a game entry's ``data``
(PostgreSQL refuses it in ``jsonb``), a lone surrogate (no UTF-8 for it), a NUL in a query parameter, an
integer past the column's bounds, and starting a game at a table of a round being paired again
(``Pod.DoesNotExist``).  The property-based sweep over every operation is :mod:`tests.api.test_bad_input_property`.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from core.exceptions import Conflict
from core.parsers import MAX_DEPTH
from games import services as game_services
from games.models import Game, GameEvent
from tests.support.events import make_event
from tests.support.games import deck_masters_duel, seat_ids, seated_table, start_game
from tests.support.openapi import generate
from tournaments import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db

DEEP = "[" * 100_000 + "]" * 100_000


def post_raw(client, url: str, body: str, method: str = "POST"):
    return client.generic(method, url, body, content_type="application/json")


def assert_parse_error(response) -> None:
    assert response.status_code == 400, response.content[:300]
    assert response.json()["error"]["code"] == "parse_error"
    assert "nested deeper" in response.json()["error"]["message"]


def test_a_deck_check_nested_100000_deep_is_a_400(anon_api):
    assert_parse_error(post_raw(anon_api, "/api/v1/deck-checks/", DEEP))
    assert_parse_error(
        post_raw(anon_api, "/api/v1/deck-checks/", '{"format": "deck-masters", "options": ' + DEEP + "}")
    )


def test_an_event_nested_100000_deep_is_a_400_and_no_event_is_made(api):
    assert_parse_error(post_raw(api, "/api/v1/events/", '{"name": ' + DEEP + "}"))
    assert not Event.objects.exists()


def test_game_options_and_entries_nested_deep_are_400s_and_nothing_is_stored(api, organiser):
    pod = seated_table(organiser, "deck-masters", 2)
    url = f"/api/v1/events/{pod.round.event_id}/rounds/1/tables/{pod.table_number}/games/"
    assert_parse_error(post_raw(api, url, '{"options": ' + DEEP + "}"))
    assert not Game.objects.exists()
    game = start_game(api, pod)
    entries = f"/api/v1/games/{game['id']}/events/"
    assert_parse_error(post_raw(api, entries, '{"expected_version": 0, "type": "turn_start", "data": ' + DEEP + "}"))
    # Just past the limit the parser refuses it too; at the limit the body is the view's to judge.
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert_parse_error(post_raw(api, entries, '{"expected_version": 0, "type": "x", "data": {"a": ' + nested + "}}"))
    assert not GameEvent.objects.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ('{"player": 1, "card": "Jin\\u0000zo"}', "Null characters are not allowed."),
        ('{"pla\\u0000yer": 1}', "A key: Null characters are not allowed."),
        ('{"card": "\\ud800"}', "Unpaired surrogate characters are not allowed."),
        ('{"changes": {"\\udfff": -100}}', "A key: Unpaired surrogate characters are not allowed."),
    ],
)
def test_a_nul_or_a_lone_surrogate_in_a_game_entry_is_a_400_naming_the_field(api, organiser, data, message):
    pod = seated_table(organiser, "deck-masters", 2)
    game = start_game(api, pod)
    response = post_raw(
        api,
        f"/api/v1/games/{game['id']}/events/",
        '{"expected_version": 0, "type": "turn_start", "data": ' + data + "}",
    )
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "invalid", "message": "The request has invalid fields.", "fields": {"data": [message]},
    }  # fmt: skip
    assert not GameEvent.objects.exists()


def test_a_nul_in_a_top_level_key_or_a_deck_role_names_it(anon_api):
    response = post_raw(anon_api, "/api/v1/deck-checks/", '{"format": "deck-masters", "decklist": "", "x\\u0000": 1}')
    assert response.json()["error"]["fields"] == {"x\ufffd": ["A key: Null characters are not allowed."]}
    response = post_raw(
        anon_api,
        "/api/v1/deck-checks/",
        '{"format": "deck-masters", "decklist": "", "roles": {"deck_master": "a\\u0000"}}',
    )
    assert response.status_code == 400 and list(response.json()["error"]["fields"]) == ["roles"]


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/players/?q=a%00b",
        "/api/v1/events/?format=a%00b",
        "/api/v1/events/?limit=1%00",
        "/api/v1/formats/?x%00=1",
    ],
)
def test_a_nul_in_a_query_parameter_is_a_400_naming_it(anon_api, url):
    response = anon_api.get(url)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert list(error["fields"]) in (["q"], ["format"], ["limit"], ["x\ufffd"])


def test_a_nul_in_a_page_query_or_path_is_a_400_or_404_page(client, organiser):
    event = make_event(organiser, 2)
    assert client.get(f"/events/{event.pk}/?player=1%00").status_code == 400
    assert client.get("/claim/ab%00cd/").status_code == 404
    response = client.delete(f"/api/v1/events/{event.pk}/staff/a%00b/")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_a_fixed_table_past_the_integer_column_and_a_bye_past_the_round_column_are_400s(api, organiser):
    event = make_event(organiser, 4)
    registration = event.registrations.first()
    base = f"/api/v1/events/{event.pk}/registrations/{registration.pk}/"
    for url, body, field in (
        (base, {"fixed_table": 2**31}, "fixed_table"),
        (base + "byes/", {"round": 2**15}, "round"),
        (base + "byes/", {"round": 2**63}, "round"),
        (f"/api/v1/events/{event.pk}/", {"players_per_table": 2**40}, "players_per_table"),
        (f"/api/v1/events/{event.pk}/top-cut/", {"size": 2**31}, "size"),
        ("/api/v1/events/", {"name": "N", "format": "mt-silver", "planned_rounds": 3, "date": "2026-12-01",
                             "players_per_table": 2**15}, "players_per_table"),
    ):  # fmt: skip
        method = api.patch if url == base or url.endswith(f"/{event.pk}/") else api.post
        response = method(url, body, format="json")
        assert response.status_code == 400, (url, response.json())
        assert list(response.json()["error"]["fields"]) == [field]
    registration.refresh_from_db()
    assert registration.fixed_table is None and not registration.bye_assignments.exists()


def test_an_expected_version_past_the_column_is_a_400(api, organiser):
    game = start_game(api, seated_table(organiser, "deck-masters", 2))
    response = api.post(f"/api/v1/games/{game['id']}/events/", {"expected_version": 2**63, "type": "x"}, format="json")
    assert response.status_code == 400 and list(response.json()["error"]["fields"]) == ["expected_version"]


def _integer_properties(schema: dict, node, where: str):
    """Every integer in a request body's schema, with where it is."""
    if isinstance(node, dict):
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[1]
            yield from _integer_properties(schema, schema["components"]["schemas"][name], name)
            return
        if node.get("type") == "integer":
            yield where, node
        for key, value in node.items():
            yield from _integer_properties(schema, value, f"{where}.{key}")
    elif isinstance(node, list):
        for item in node:
            yield from _integer_properties(schema, item, where)


def test_every_integer_a_request_body_takes_has_bounds_the_database_can_store():
    schema, _ = generate()
    seen = 0
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            for where, prop in _integer_properties(schema, body, f"{method.upper()} {path}"):
                seen += 1
                assert "maximum" in prop and prop["maximum"] <= 2**63 - 1, where
                assert "minimum" in prop and prop["minimum"] >= -(2**63), where
    assert seen > 10


def test_starting_a_game_at_a_table_of_a_round_paired_again_is_a_409_not_a_server_error(organiser):
    event = make_event(organiser, 4)
    services.round_start(event=event, by=organiser, seed=1)
    stale = event.rounds.get(number=1).pods.order_by("table_number").select_related("round__event").first()
    services.round_repair(event=event, round_number=1, by=organiser, seed=2)

    with pytest.raises(Conflict) as refused:
        game_services.game_create(pod=stale, by=organiser)

    assert refused.value.code == "pairing_changed" and refused.value.status_code == 409
    assert not Game.objects.exists()


def test_the_api_answers_409_when_the_table_it_read_is_paired_again_before_the_game_starts(api, organiser, monkeypatch):
    event = make_event(organiser, 4)
    services.round_start(event=event, by=organiser, seed=1)
    from core.doorway import Door
    from games import doors, selectors

    def read_then_repair(event_id, number, table):
        pod = selectors.table_pods(event_id=event_id, number=number, table=table).get()  # the view has read the table
        services.round_repair(event=event, round_number=1, by=organiser, seed=2)  # ... and the round is paired again
        return pod

    monkeypatch.setattr(doors, "TABLE", Door("Table", read_then_repair))
    response = api.post(f"/api/v1/events/{event.pk}/rounds/1/tables/1/games/", {}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "pairing_changed"


def test_a_deep_but_allowed_body_still_reaches_the_view(api, organiser):
    pod = seated_table(organiser, "deck-masters", 2)
    a, b = seat_ids(pod)
    game = start_game(api, pod)
    first = deck_masters_duel(a, b)[0]
    response = api.post(
        f"/api/v1/games/{game['id']}/events/",
        json.dumps({"expected_version": 0, "type": first.type, "data": dict(first.data)}),
        content_type="application/json",
    )
    assert response.status_code == 201


def test_a_server_error_under_api_is_the_json_envelope(organiser, monkeypatch):
    from tournaments.apis import events

    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(events.selectors, "events_matching", broken)
    response = Client(raise_request_exception=False).get("/api/v1/events/")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "error": {"code": "server_error", "message": "Something went wrong on our side; it has been logged."}
    }
