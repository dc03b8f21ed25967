"""Errors answer the one JSON shape everywhere under /api/, including URLs no operation matches."""

from __future__ import annotations

import pytest

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
