"""The API's edges on a real gunicorn with the shipped settings (``config/gunicorn.conf.py``).

* **A long URL** is answered by Podium, in the API's error shape (414 ``uri_too_long``), not by gunicorn's HTML
  page: gunicorn's limit on the request line is raised above Podium's own.  A URL of Podium's full length, which
  gunicorn's default limit would have refused, is answered.
* **With the database unreachable** (the server pointed at a port nobody listens on), the API answers 503
  ``service_unavailable`` with ``Retry-After``, for reads, for a sign-in and for a request with a token, rather
  than a 500.
"""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

import pytest

from core.api import RETRY_AFTER_SECONDS
from core.middleware import MAX_URL_LENGTH
from tests.integration.conftest import start_web
from tests.support.live import free_port

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _send(base: str, method: str, target: str, body: bytes | None = None, headers: dict | None = None):
    """``(status, headers, body)`` of one request sent as it is (the target is not checked or encoded)."""
    address = urlsplit(base)
    conn = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    try:
        conn.putrequest(method, target, skip_accept_encoding=True)
        for name, value in {"Content-Length": str(len(body or b"")), **(headers or {})}.items():
            conn.putheader(name, value)
        conn.endheaders(body)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def _padded(path: str, length: int) -> str:
    """``path`` with a query string that makes it ``length`` characters long."""
    return path + "?q=" + "a" * (length - len(path) - 3)


def test_a_url_over_podiums_limit_is_the_apis_json_414_and_one_within_it_is_answered(tmp_path):
    base, stop = start_web(tmp_path)
    try:
        longest = _send(base, "GET", _padded("/api/v1/players/", MAX_URL_LENGTH))
        over = _send(base, "GET", _padded("/api/v1/players/", MAX_URL_LENGTH + 1))
        far_over = _send(base, "GET", _padded("/api/v1/events/", 8000))
        body_too = _send(
            base, "POST", _padded("/api/v1/deck-checks/", 6000), b"{}", {"Content-Type": "application/json"}
        )
        past_gunicorn = _send(base, "GET", _padded("/api/v1/events/", 9000))
    finally:
        stop()
    # The longest URL Podium takes gets to its view (gunicorn's default limit, 4,094 bytes, refused it).
    assert longest[0] == 400 and json.loads(longest[2])["error"]["fields"] == {
        "q": ["Ensure this field has no more than 100 characters."]
    }
    for status, headers, body in (over, far_over, body_too):
        assert status == 414 and headers["Content-Type"] == "application/json", (status, headers, body[:200])
        error = json.loads(body)["error"]
        assert error["code"] == "uri_too_long" and f"{MAX_URL_LENGTH:,}" in error["message"]
    # Past gunicorn's largest limit (8,190 bytes) gunicorn answers before Podium: still a 414.
    assert past_gunicorn[0] == 414


def test_with_the_database_unreachable_the_api_answers_503_with_retry_after_not_500(tmp_path):
    nobody = f"postgres://postgres@127.0.0.1:{free_port()}/podium"
    base, stop = start_web(tmp_path, env={"DATABASE_URL": nobody}, ready="/health/live/")
    try:
        answers = {
            "events": _send(base, "GET", "/api/v1/events/"),
            "an event": _send(base, "GET", "/api/v1/events/1/standings/"),
            "sign-in": _send(base, "POST", "/api/v1/auth/token/", b"username=a&password=b",
                             {"Content-Type": "application/x-www-form-urlencoded"}),
            "with a token": _send(base, "GET", "/api/v1/me/", headers={"Authorization": "Token " + "0" * 64}),
            "a write": _send(base, "POST", "/api/v1/deck-checks/",
                             json.dumps({"format": "mintayn-master", "decklist": "1 Ember Whelp"}).encode(),
                             {"Content-Type": "application/json"}),
        }  # fmt: skip
        ready = _send(base, "GET", "/health/ready/")
    finally:
        stop()
    for what, (status, headers, body) in answers.items():
        assert status == 503, (what, status, body[:300])
        assert headers["Content-Type"] == "application/json" and headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
        assert json.loads(body)["error"]["code"] == "service_unavailable", what
    assert ready[0] == 503
    log = (tmp_path / "web.log").read_text()
    assert "Internal Server Error" not in log and "The database did not answer GET /api/v1/events/" in log
