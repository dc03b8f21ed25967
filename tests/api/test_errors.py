"""Errors answer the one JSON shape everywhere under /api/, including URLs no operation matches."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.support.events import make_event

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url",
    ["/api/v1/events/-1/", "/api/v1/events/1/rounds/%0A/tables/2/games/", "/api/v1/no-such-thing/", "/api/v2/events/"],
)
def test_an_api_url_no_operation_matches_answers_404_in_the_error_shape(api, url):
    for method in (api.get, api.post, api.delete):
        response = method(url)

        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert response.json() == {"error": {"code": "not_found", "message": "Not found."}}


def test_an_api_url_without_its_trailing_slash_is_still_redirected_to_it(anon_api):
    response = anon_api.get("/api/v1/events")

    assert response.status_code == 301
    assert response["Location"] == "/api/v1/events/"


def test_a_page_that_does_not_exist_is_still_the_sites_page(anon_api):
    response = anon_api.get("/no-such-page/")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_a_token_is_answered_for_a_username_and_password(anon_api, organiser):
    response = anon_api.post("/api/v1/auth/token/", {"username": "organiser", "password": "pw"})

    assert response.status_code == 200
    assert set(response.json()) == {"token"}
    wrong = anon_api.post("/api/v1/auth/token/", {"username": "organiser", "password": "nope"})
    assert wrong.status_code == 400
    assert wrong.json()["error"]["code"] == "invalid"


@pytest.mark.parametrize("url", ["/api/", "/api/v1/", "/api/v1/events/1/rounds/%00/", "/api/v1/events/%F0%9F%92%A9/"])
def test_every_api_url_nothing_answers_is_the_json_404(url):
    response = Client(raise_request_exception=False).get(url)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("content_type", ["application/json", "application/x-www-form-urlencoded", "multipart"])
def test_a_body_over_the_upload_limit_is_a_413_in_the_error_shape(content_type, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    client = APIClient(REMOTE_ADDR="192.0.2.99")
    big = "x" * 20_000
    if content_type == "application/json":
        response = client.post("/api/v1/deck-checks/", {"format": "deck-masters", "decklist": big}, format="json")
    elif content_type == "multipart":
        response = client.post("/api/v1/deck-checks/", {"format": "deck-masters", "decklist": big})
    else:
        response = client.generic("POST", "/api/v1/deck-checks/", f"decklist={big}", content_type=content_type)
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "too_large"


def test_without_credentials_a_write_is_a_401_that_says_how_to_sign_in(anon_api):
    response = anon_api.post("/api/v1/events/", {}, format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["error"]["code"] == "not_authenticated"


def test_an_invalid_token_is_a_401_even_for_a_read(anon_api):
    for key in ("nope", "0" * 64, "a\x00b", "é" * 64):
        anon_api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        response = anon_api.get("/api/v1/formats/")
        assert response.status_code == 401, key
        assert response["WWW-Authenticate"] == "Token"
        assert response.json()["error"]["code"] == "authentication_failed"


def test_a_signed_in_user_who_may_not_still_gets_403(outsider_api, organiser):
    event = make_event(organiser, 2)
    response = outsider_api.patch(f"/api/v1/events/{event.pk}/", {"venue": "Mine now"}, format="json")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "permission_denied"
    assert "WWW-Authenticate" not in response


def test_an_anonymous_caller_of_a_service_that_needs_someone_is_a_401(anon_api, organiser):
    event = make_event(organiser, 2)
    response = anon_api.get(f"/api/v1/events/{event.pk}/audit/")
    assert response.status_code == 401 and response["WWW-Authenticate"] == "Token"


def test_no_answer_under_api_is_anything_but_json(organiser):
    """Every path of the schema (ids of nothing, so 404s too), every method, anonymous, with a bad token and
    signed in, with no body and with a body that is not JSON: the answer is JSON (or empty, 204)."""
    from tests.support.openapi import generate
    from tests.support.people import token_for

    schema, _ = generate()
    paths = [path.replace("{username}", "nobody") for path in schema["paths"]]
    paths = [re.sub(r"\{\w+\}", "1", path) for path in paths] + ["/api/", "/api/v1/nothing/here/", "/api/v1/events/x/"]
    clients = {"anonymous": APIClient(), "bad token": APIClient(), "signed in": APIClient()}
    clients["bad token"].credentials(HTTP_AUTHORIZATION="Token " + "0" * 64)
    clients["signed in"].credentials(HTTP_AUTHORIZATION=f"Token {token_for(organiser)}")
    seen = 0
    for who, client in clients.items():
        client.raise_request_exception = False
        for path in paths:
            for method in ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
                for body, content_type in (("", "application/json"), ("<html>", "text/html")):
                    response = client.generic(method, path, body, content_type=content_type)
                    seen += 1
                    if response.status_code == 204:
                        continue
                    assert response["Content-Type"].startswith("application/json"), (who, method, path, response)
    assert seen > 1000


def test_a_url_over_the_longest_podium_takes_is_a_414_in_the_error_shape_under_api_and_a_page_elsewhere():
    from core.middleware import MAX_URL_LENGTH

    client = Client(raise_request_exception=False)
    path = "/api/v1/formats/"  # a list that reads no ?q= (the events list refuses a name that long: a 400)
    longest = client.get(path, {"q": "a" * (MAX_URL_LENGTH - len(path) - 3)})
    assert longest.status_code == 200  # exactly the limit: answered
    over = client.get(path, {"q": "a" * (MAX_URL_LENGTH - len(path) - 2)})
    assert over.status_code == 414 and over["Content-Type"] == "application/json"
    assert over.json()["error"]["code"] == "uri_too_long"
    long_path = client.post("/api/v1/" + "x" * MAX_URL_LENGTH + "/")
    assert long_path.status_code == 414 and long_path.json()["error"]["code"] == "uri_too_long"
    page = client.get("/events/", {"q": "a" * MAX_URL_LENGTH})
    assert page.status_code == 414 and page["Content-Type"].startswith("text/html")


def test_every_operation_documents_the_long_url_and_the_database_away():
    from tests.support.openapi import generate

    schema, _ = generate()
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            for status, code in (("414", "uri_too_long"), ("503", "service_unavailable")):
                assert f"- `{code}`:" in operation["responses"][status]["description"], (method, path)
