"""Every list of the API is paged (``limit``, ``offset``; ``count``, ``next``, ``previous``) and says so in the
schema, with every filter it takes; ``?format=`` is the events list's filter by game format, not a renderer switch.
"""

from __future__ import annotations

import datetime
from urllib.parse import urlencode

import pytest

from core.api import Pagination
from tests.support.events import make_event
from tests.support.games import seated_table, start_game
from tests.support.leagues import make_league
from tests.support.openapi import V1, generate
from tournaments import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db

#: Every list operation and the filters it takes besides ``limit`` and ``offset``.
LISTS = {
    "/formats/": set(),
    "/players/": {"q", "event"},
    "/events/": {"format", "status", "date_from", "date_to", "q"},
    "/events/{event_id}/staff/": set(),
    "/events/{event_id}/audit/": {"kind"},
    "/events/{event_id}/penalties/": set(),
    "/events/{event_id}/registrations/": set(),
    "/events/{event_id}/rounds/": set(),
    "/events/{event_id}/standings/": set(),
    "/events/{event_id}/registrations/{registration_id}/decks/": set(),
    "/events/{event_id}/decks/": set(),
    "/events/{event_id}/rounds/{number}/tables/{table}/games/": set(),
    "/games/{game_id}/events/": set(),
    "/points-presets/": set(),
    "/leagues/": set(),
    "/seasons/{season_id}/standings/": set(),
    "/ratings/{format_slug}/": {"min_games"},
    "/events/{event_id}/stations/": set(),
    "/events/{event_id}/overlay-tokens/": set(),
    "/events/{event_id}/judge-calls/": {"state"},
    "/events/{event_id}/deck-checks/": set(),
    "/events/{event_id}/judge-assignments/": set(),
    "/events/{event_id}/keep-apart/": set(),
}


@pytest.fixture(scope="module")
def schema():
    return generate()[0]


def _query_parameters(operation: dict) -> set[str]:
    return {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}


def test_every_list_is_paged_in_the_schema_and_no_answer_is_a_bare_list(schema):
    paged = set()
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            for status, response in operation["responses"].items():
                body = response.get("content", {}).get("application/json", {}).get("schema", {})
                assert body.get("type") != "array", f"{method.upper()} {path} {status} answers a bare list"
            if method == "get" and {"limit", "offset"} <= _query_parameters(operation):
                paged.add(path.removeprefix(V1))
    assert paged == set(LISTS)


@pytest.mark.parametrize("path", list(LISTS))
def test_each_list_documents_its_envelope_and_every_filter(schema, path):
    operation = schema["paths"][V1 + path]["get"]
    assert _query_parameters(operation) == {"limit", "offset"} | LISTS[path]
    limit = next(p for p in operation["parameters"] if p["name"] == "limit")
    assert "description" in limit
    body = operation["responses"]["200"]["content"]["application/json"]["schema"]
    name = body["$ref"].rsplit("/", 1)[1]
    properties = schema["components"]["schemas"][name]["properties"]
    assert {"count", "next", "previous"} <= set(properties)
    assert "results" in properties or "standings" in properties


def _events(organiser, count: int, fmt: str) -> None:
    Event.objects.bulk_create(
        Event(name=f"E{i}", format=fmt, planned_rounds=3, date=datetime.date(2026, 1, 1), organiser=organiser)
        for i in range(count)
    )


def test_the_events_list_pages_past_the_old_cut_of_500_and_follows_its_links(anon_api, organiser):
    _events(organiser, 1001, "deck-masters")
    _events(organiser, 3, "mt-silver")
    first = anon_api.get("/api/v1/events/").json()
    assert first["count"] == 1004 and len(first["results"]) == Pagination.default_limit
    assert first["previous"] is None and "offset=100" in first["next"]
    most = anon_api.get("/api/v1/events/", {"limit": Pagination.max_limit, "offset": 3}).json()
    assert len(most["results"]) == Pagination.max_limit
    last = anon_api.get(most["next"]).json()
    assert [len(last["results"]), last["next"], last["previous"] is not None] == [1, None, True]
    assert anon_api.get("/api/v1/events/", {"offset": 10**30}).json()["results"] == []  # past any list: empty


@pytest.fixture
def every_list(organiser, api) -> list[str]:
    """The URL of every list of :data:`LISTS`, naming rows that exist (a table with a game, a season ...)."""
    table = seated_table(organiser, "deck-masters", 2)
    event = table.round.event
    game = start_game(api, table)
    _, season = make_league(organiser)
    ids = {
        "event_id": event.pk, "registration_id": event.registrations.first().pk, "number": table.round.number,
        "table": table.table_number, "game_id": game["id"], "season_id": season.pk, "format_slug": "deck-masters",
    }  # fmt: skip
    filters = {"/players/": {"event": event.pk}}  # the players list needs a name or an event
    return [(V1 + path.format(**ids), filters.get(path, {})) for path in LISTS]


#: Pages no list has: what each asks for, and the parameters a 400 names.
BAD_PAGES = [
    ({"limit": "0.333"}, ["limit"]),
    ({"limit": "lots"}, ["limit"]),
    ({"limit": ""}, ["limit"]),
    ({"limit": "0"}, ["limit"]),
    ({"limit": "-5"}, ["limit"]),
    ({"limit": str(Pagination.max_limit + 1)}, ["limit"]),
    ({"offset": "1.5"}, ["offset"]),
    ({"offset": "-1"}, ["offset"]),
    ({"limit": "2.5", "offset": "x"}, ["limit", "offset"]),
]


def test_a_limit_or_an_offset_that_is_no_whole_number_in_range_is_a_400_naming_it_on_every_list(api, every_list):
    for url, filters in every_list:
        for page, named in BAD_PAGES:
            response = api.get(f"{url}?{urlencode({**filters, **page})}")
            assert response.status_code == 400, (url, page, response.content[:200])
            error = response.json()["error"]
            assert error["code"] == "invalid" and sorted(error["fields"]) == named, (url, page, error)
        good = api.get(f"{url}?{urlencode({**filters, 'limit': 1, 'offset': 0})}")
        assert good.status_code == 200, (url, good.content[:200])


def test_the_other_integer_filters_of_the_lists_are_400s_too_when_no_whole_number_in_range(anon_api):
    for url, name, values in (
        ("/api/v1/players/", "event", ["0.5", "x", "0", "-3"]),
        ("/api/v1/ratings/deck-masters/", "min_games", ["0.333", "x", "0", "10001"]),
    ):
        for value in values:
            response = anon_api.get(url, {name: value})
            assert response.status_code == 400, (url, value)
            assert list(response.json()["error"]["fields"]) == [name], (url, value)


def test_the_schema_gives_the_range_of_limit_and_offset(schema):
    for path in LISTS:
        parameters = {p["name"]: p["schema"] for p in schema["paths"][V1 + path]["get"]["parameters"]}
        assert parameters["limit"] == {"type": "integer", "minimum": 1, "maximum": Pagination.max_limit}, path
        assert parameters["offset"] == {"type": "integer", "minimum": 0}, path


def test_format_filters_the_events_list_and_keeps_its_pages(anon_api, organiser):
    _events(organiser, 7, "deck-masters")
    _events(organiser, 4, "mt-silver")
    page = anon_api.get("/api/v1/events/?format=deck-masters&limit=5").json()
    assert page["count"] == 7 and {e["format"] for e in page["results"]} == {"deck-masters"}
    assert "format=deck-masters" in page["next"]
    assert anon_api.get(page["next"]).json()["count"] == 7
    refused = anon_api.get("/api/v1/events/?format=json")
    assert refused.status_code == 400 and list(refused.json()["error"]["fields"]) == ["format"]


def test_the_schema_still_answers_json_when_asked_and_yaml_by_default(anon_api):
    assert anon_api.get("/api/schema/?format=json")["Content-Type"].startswith("application/vnd.oai.openapi+json")
    assert anon_api.get("/api/schema/")["Content-Type"].startswith("application/vnd.oai.openapi")


def test_searching_players_needs_a_name_or_an_event(anon_api, organiser):
    event = make_event(organiser, 3)
    services.player_create(display_name="Solo Walker")
    for query in ({}, {"q": ""}, {"q": "P"}):
        refused = anon_api.get("/api/v1/players/", query)
        assert refused.status_code == 400 and list(refused.json()["error"]["fields"]) == ["q"], query
    by_event = anon_api.get("/api/v1/players/", {"event": event.pk}).json()
    assert [p["display_name"] for p in by_event["results"]] == ["P00", "P01", "P02"]
    by_name = anon_api.get("/api/v1/players/", {"q": "walk"}).json()
    assert [p["display_name"] for p in by_name["results"]] == ["Solo Walker"]
    both = anon_api.get("/api/v1/players/", {"q": "p0", "event": event.pk}).json()
    assert both["count"] == 3


def test_the_standings_are_paged_in_their_own_envelope(anon_api, organiser):
    event = make_event(organiser, 6)
    services.round_start(event=event, by=organiser, seed=1)
    services.standings_recompute(event_id=event.pk)
    page = anon_api.get(f"/api/v1/events/{event.pk}/standings/", {"limit": 4}).json()
    assert page["count"] == 6 and len(page["standings"]) == 4 and page["current"] is True
    rest = anon_api.get(page["next"]).json()
    assert [len(rest["standings"]), rest["next"]] == [2, None]
