"""Property: whatever bad value reaches a write operation or a filter, the answer is no 5xx, it is JSON, and a
refusal stores nothing.

Every write operation of the schema (each POST, PATCH and DELETE) and every operation with query parameters
(its filters, ``limit`` and ``offset``) is sent, as the running event's organiser, bodies and queries built from
its own field names with values drawn from what broke the API before:

* strings holding a NUL character or a lone surrogate, as values, as keys (also nested in dictionary fields)
  and as query parameters (a lone surrogate's bytes percent-encoded, as a client would send them);
* integers just past 2**31 and 2**63, and far past them (in bodies and in query parameters);
* JSON nested 100,000 deep, and a body over the upload limit;
* otherwise plausible values (the event's real ids, short strings), so a request also gets past the
  serializers to the services.

Each answer must be below 500, carry JSON (or nothing, 204), and when it is a refusal (4xx) the database must
be as it was: the rows of every model of the apps, and every event's and registration's fields.  Hypothesis is
derandomized and its examples bounded (``EXAMPLES`` per operation), so CI sends the same requests every run.
"""

from __future__ import annotations

import datetime
import json

import pytest
from django.apps import apps
from django.conf import settings
from django.db import transaction
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from decks.models import DeckVersion
from games import services as game_services
from tests.support.games.deck_masters import scripted_duel
from tests.support.openapi import generate
from tests.support.people import token_for
from tournaments import services
from tournaments.models import Event, Registration
from tournaments.services import staff

pytestmark = pytest.mark.django_db

#: Examples per operation: enough to mix the bad values across its fields, few enough for the suite's budget.
EXAMPLES = 8

DEEP_MARK = "__DEEP__"
DEEP = "[" * 100_000 + "]" * 100_000
HUGE = "__HUGE__"

SCHEMA, _ = generate()


def _operations() -> list[tuple[str, str, dict]]:
    found = []
    for path, methods in SCHEMA["paths"].items():
        for method, operation in methods.items():
            queries = [p for p in operation.get("parameters", []) if p["in"] == "query"]
            if method in ("post", "put", "patch", "delete") or queries:
                found.append((method, path, operation))
    return found


OPERATIONS = _operations()


def _properties(operation: dict) -> dict[str, dict]:
    ref = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
    if "$ref" not in ref:
        return {}
    return SCHEMA["components"]["schemas"][ref["$ref"].rsplit("/", 1)[1]].get("properties", {})


# --- the values -------------------------------------------------------------------------------------------------

BAD_TEXT = st.sampled_from(["a\x00b", "\x00", "\ud800", "x\udfffy", "\ud83d", "é\x00\ud800"])
BAD_INT = st.sampled_from([2**31, 2**31 + 1, 2**63, 2**63 + 7, 10**30, -(2**63) - 1, -(2**31) - 1])
BAD_KEYED = st.dictionaries(BAD_TEXT, st.integers(0, 3) | BAD_TEXT, min_size=1, max_size=2)
BAD = st.one_of(BAD_TEXT, BAD_INT, BAD_KEYED, st.just(DEEP_MARK), st.lists(BAD_TEXT | BAD_INT, min_size=1, max_size=2))


def _plausible(world: dict, prop: dict) -> st.SearchStrategy:
    kind = prop.get("type")
    if kind == "integer":
        return st.sampled_from([1, 2, world["player"], world["registration"]])
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        item = prop.get("items", {})
        if "$ref" in item:
            return st.just([{"player": world["player"], "placement": 1, "won": 2, "lost": 0, "drawn": 0}])
        return st.just([world["player"], world["other_player"]])
    if kind == "object":
        return st.just({"player": world["player"], "deck_size": 50})
    if prop.get("format") == "date":
        return st.just("2026-12-24")
    return st.sampled_from(["ok", "Judy", "legal", "caution", "Slow play", "mintayn-master"])


def _body(world: dict, operation: dict) -> st.SearchStrategy:
    fields = {name: BAD | _plausible(world, prop) for name, prop in _properties(operation).items()}
    extra = st.dictionaries(BAD_TEXT, BAD, max_size=1)  # a key no field has, itself bad
    return st.one_of(
        st.fixed_dictionaries({}, optional=fields).flatmap(lambda body: extra.map(lambda more: {**body, **more})),
        st.just(HUGE),
        st.just(DEEP_MARK),
    )


BAD_QUERY = st.sampled_from(
    ["a%00b", "%00", "%ED%A0%80", "x%ED%BF%BFy", "9223372036854775808", "2147483648", "1" * 80, "-1", "%FF%FE"]
)


def _query(operation: dict) -> st.SearchStrategy:
    names = [p["name"] for p in operation.get("parameters", []) if p["in"] == "query"]
    if not names:
        return st.just("")
    pairs = st.lists(st.tuples(st.sampled_from(names + ["x%00"]), BAD_QUERY | st.just("1")), max_size=3)
    return pairs.map(lambda items: "&".join(f"{name}={value}" for name, value in items))


def _encode(body) -> bytes:
    if body == HUGE:
        return b'{"x": "' + b"y" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1) + b'"}'
    text = json.dumps(body)  # ensure_ascii: a NUL or a lone surrogate travels as \u0000 or \ud800
    return text.replace(json.dumps(DEEP_MARK), DEEP).encode()


# --- the world --------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def _world(django_db_setup, django_db_blocker):
    """The world, built once for the module in a transaction rolled back at its end; what each test stores is
    rolled back with the test's own transaction, so every operation meets the same world."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield _build_world()
        transaction.set_rollback(True)


@pytest.fixture
def world(_world, db) -> dict:
    return _world


def _build_world() -> dict:
    """A running Deck Masters event: round 1 paired, a table with a game, a judge, a penalty, a deck version."""
    from django.contrib.auth import get_user_model

    django_user_model = get_user_model()
    organiser = django_user_model.objects.create_user(username="olivia", password="pw")
    django_user_model.objects.create_user(username="Judy", password="pw")
    event = services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3,
        date=datetime.date(2026, 12, 4),
    )  # fmt: skip
    staff.staff_add(event=event, username="Judy", role="judge", by=organiser)
    registrations = [
        services.registration_create(event=event, by=organiser, display_name=f"Duelist {i}", checked_in=True)
        for i in range(4)
    ]
    pods = list(services.round_start(event=event, by=organiser, seed=1).pods.order_by("table_number"))
    a, b = pods[0].seats.order_by("seat_order").values_list("player_id", flat=True)
    game = game_services.game_create(pod=pods[0], by=organiser)
    first = scripted_duel(a, b)[0]
    game_services.game_event_append(game=game, expected_version=0, type=first.type, data=dict(first.data), by=organiser)
    penalty = services.penalty_issue(
        event=event, registration_id=registrations[0].pk, penalty="warning", infraction="Slow play", by=organiser
    )
    DeckVersion.objects.create(registration=registrations[0], number=1, decklist="#main\n", status="illegal")
    return {
        "organiser": organiser, "event": event.pk, "registration": registrations[0].pk, "player": a,
        "other_player": b, "penalty": penalty.pk, "game": game.pk,
    }  # fmt: skip


def _path(world: dict, path: str) -> str:
    values = {
        "event_id": world["event"], "registration_id": world["registration"], "number": 1, "table": 1,
        "penalty_id": world["penalty"], "game_id": world["game"], "seq": 1, "username": "Judy",
    }  # fmt: skip
    for name, value in values.items():
        path = path.replace("{" + name + "}", str(value))
    return path


def _fingerprint() -> tuple:
    """What a refusal must leave as it was: every model's row count, every event's and registration's fields."""
    counts = tuple(
        (model._meta.label, model.objects.count())
        for app in ("tournaments", "decks", "games")
        for model in apps.get_app_config(app).get_models()
    )
    return counts, list(Event.objects.order_by("pk").values()), list(Registration.objects.order_by("pk").values())


@pytest.mark.parametrize(
    ("method", "path", "operation"), OPERATIONS, ids=[f"{m.upper()} {p}" for m, p, _ in OPERATIONS]
)
def test_bad_values_never_get_a_server_error_and_a_refusal_stores_nothing(world, method, path, operation):
    @hypothesis_settings(
        max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
    )  # fmt: skip
    @given(body=_body(world, operation) if _properties(operation) else st.none(), query=_query(operation))
    def send(body, query):
        client = APIClient(REMOTE_ADDR="192.0.2.44")
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(world['organiser'])}")
        before = _fingerprint()
        url = _path(world, path)
        if method == "get":
            response = client.get(url, QUERY_STRING=query)
        else:
            data = b"" if body is None else _encode(body)
            response = client.generic(method.upper(), url, data, content_type="application/json", QUERY_STRING=query)
        shown = f"{method.upper()} {url}?{query} {(b'' if body is None else _encode(body))[:200]!r}"
        assert response.status_code < 500, f"{shown}: {response.status_code} {response.content[:300]!r}"
        if response.status_code != 204:
            assert response["Content-Type"].startswith("application/json"), shown
        if response.status_code >= 400:
            assert _fingerprint() == before, f"{shown}: refused with {response.status_code} but stored something"

    send()
