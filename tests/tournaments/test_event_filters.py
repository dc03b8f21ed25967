"""The events list's filters, on the page /events/ and in GET /api/v1/events/: format, status (a comma list), a range
of days (both included) and a part of the name; an unknown filter or a bad value is a 400 naming it, never ignored,
and the filters cost no query more."""

from __future__ import annotations

import datetime

import pytest

from tests.factories import EventFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def events(organiser):
    made = [
        ("Friday Cup", "deck-masters", "registration", datetime.date(2026, 12, 4)),
        ("Winter CUP finals", "deck-masters", "running", datetime.date(2026, 12, 12)),
        ("Silver League", "mt-silver", "finished", datetime.date(2026, 11, 30)),
        ("New Year Open", "mt-silver", "registration", datetime.date(2027, 1, 2)),
    ]
    for name, fmt, status, day in made:
        EventFactory(name=name, format=fmt, status=status, date=day, organiser=organiser)


def names(answer) -> set[str]:
    return {e["name"] for e in answer.json()["results"]}


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ({"status": "registration"}, {"Friday Cup", "New Year Open"}),
        ({"status": "running,finished"}, {"Winter CUP finals", "Silver League"}),
        ({"date_from": "2026-12-04", "date_to": "2026-12-12"}, {"Friday Cup", "Winter CUP finals"}),
        ({"date_from": "2026-12-05"}, {"Winter CUP finals", "New Year Open"}),
        ({"date_to": "2026-11-30"}, {"Silver League"}),
        ({"q": "cup"}, {"Friday Cup", "Winter CUP finals"}),
        ({"q": "cup", "status": "running", "format": "deck-masters"}, {"Winter CUP finals"}),
        (
            {"q": "", "status": "", "date_from": ""},
            {"Friday Cup", "Winter CUP finals", "Silver League", "New Year Open"},
        ),
    ],
)
def test_the_api_and_the_page_filter_alike(events, anon_api, client, query, found):
    assert names(anon_api.get("/api/v1/events/", query)) == found
    page = client.get("/events/", query)
    assert page.status_code == 200
    html = page.content.decode()
    assert {
        name for name in ("Friday Cup", "Winter CUP finals", "Silver League", "New Year Open") if name in html
    } == found


def test_the_page_takes_the_states_as_its_checkboxes_send_them(events, client):
    html = client.get("/events/?status=running&status=finished").content.decode()
    assert "Winter CUP finals" in html and "Silver League" in html and "Friday Cup" not in html


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"colour": "red"}, "colour"),
        ({"status": "open"}, "status"),
        ({"status": "running,closed"}, "status"),
        ({"date_from": "04/12/2026"}, "date_from"),
        ({"date_to": "2026-13-01"}, "date_to"),
        ({"date_from": "2026-12-10", "date_to": "2026-12-01"}, "date_to"),
        ({"format": "standard"}, "format"),
        ({"q": "x" * 201}, "q"),
    ],
)
def test_a_filter_it_does_not_know_or_a_bad_value_is_a_400_naming_it(events, anon_api, client, query, field):
    answer = anon_api.get("/api/v1/events/", query)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "invalid" and list(error["fields"]) == [field]
    page = client.get("/events/", query)
    assert page.status_code == 400
    html = page.content.decode()
    assert "These filters could not be used" in html and f"<code>{field}</code>" in html
    assert "Friday Cup" not in html  # an error state, not the list unfiltered


def test_the_page_number_is_checked_too(events, client):
    assert client.get("/events/?page=x").status_code == 400
    assert client.get("/events/?page=1").status_code == 200


def test_the_filters_cost_no_query_more(events, anon_api, client, django_assert_num_queries):
    everything = {"format": "deck-masters", "status": "registration,running", "date_from": "2026-12-01",
                  "date_to": "2026-12-31", "q": "cup"}  # fmt: skip
    for query in ({}, everything):
        with django_assert_num_queries(2):  # the count, the page
            assert anon_api.get("/api/v1/events/", query).status_code == 200
        with django_assert_num_queries(2):
            assert client.get("/events/", query).status_code == 200


def test_the_schema_documents_the_filters(anon_api):
    import yaml

    schema = yaml.safe_load(anon_api.get("/api/schema/").content)
    parameters = {p["name"]: p for p in schema["paths"]["/api/v1/events/"]["get"]["parameters"]}
    assert {"format", "status", "date_from", "date_to", "q"} <= set(parameters)
    assert parameters["date_from"]["schema"] == {"type": "string", "format": "date"}
    assert "comma-separated" in parameters["status"]["description"]


def test_the_events_come_newest_first_on_both(events, anon_api, client):
    newest_first = ["New Year Open", "Winter CUP finals", "Friday Cup", "Silver League"]
    assert [e["name"] for e in anon_api.get("/api/v1/events/").json()["results"]] == newest_first
    html = client.get("/events/").content.decode()
    assert sorted(newest_first, key=html.index) == newest_first
