"""Log lines and the request id (core.logging): the format of a line, the id a request gets, the one-line bad Host.

The servers' own lines (gunicorn's and uvicorn's access logs, a bad Host on a real gunicorn) are read from real
processes in tests/integration/test_observability.py.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

from config.settings.env import read_choice
from core import logging as podium_logging

pytestmark = pytest.mark.django_db

HEX32 = re.compile(r"[0-9a-f]{32}")


def _record(message: str = "Standings of event %s stored", *args, name: str = "tournaments.tasks", exc=None):
    record = logging.LogRecord(name, logging.INFO, __file__, 1, message, args or (7,), exc)
    podium_logging.RequestIdFilter().filter(record)
    return record


def test_a_text_line_has_the_time_the_level_the_logger_and_the_request_id():
    token = podium_logging.request_id_var.set("abc123")
    try:
        line = podium_logging.TextFormatter().format(_record())
    finally:
        podium_logging.request_id_var.reset(token)
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO tournaments\.tasks abc123 Standings of event 7 stored", line
    ), line


def test_outside_a_request_the_id_is_a_dash_in_text_and_null_in_json():
    assert podium_logging.TextFormatter().format(_record()).split(" ")[3] == "-"
    assert json.loads(podium_logging.JsonFormatter().format(_record()))["request_id"] is None


def test_a_json_line_is_one_object_with_the_fields_and_the_traceback_inside_it():
    try:
        raise ValueError("boom")
    except ValueError:
        record = _record("Could not store %s", "standings", exc=sys.exc_info())
    line = podium_logging.JsonFormatter().format(record)
    assert "\n" not in line
    found = json.loads(line)
    assert {k: found[k] for k in ("level", "logger", "message")} == {
        "level": "INFO",
        "logger": "tournaments.tasks",
        "message": "Could not store standings",
    }
    assert found["time"].endswith("Z") and "ValueError: boom" in found["exception"]


def test_a_bad_host_is_one_warning_line_without_the_traceback():
    try:
        raise ValueError("Invalid HTTP_HOST header: 'evil.example'.")
    except ValueError:
        record = logging.LogRecord(
            "django.security.DisallowedHost", logging.ERROR, __file__, 1, "Invalid host", (), sys.exc_info()
        )
    podium_logging.OneLineFilter().filter(record)
    line = podium_logging.TextFormatter().format(record)
    assert "\n" not in line and " WARNING django.security.DisallowedHost " in line


def test_every_answer_carries_a_new_request_id_and_a_clients_own_is_not_believed(client):
    first = client.get("/health/live/", HTTP_X_REQUEST_ID="chosen-by-the-client")
    second = client.get("/health/live/")
    assert HEX32.fullmatch(first["X-Request-ID"]) and HEX32.fullmatch(second["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]


@override_settings(PODIUM_PROXIES=["10.0.0.2"])
def test_a_trusted_proxys_request_id_is_kept_when_well_formed(client):
    kept = client.get("/health/live/", REMOTE_ADDR="10.0.0.2", HTTP_X_REQUEST_ID="4f1c0d2e9a8b4c7d")
    malformed = client.get("/health/live/", REMOTE_ADDR="10.0.0.2", HTTP_X_REQUEST_ID="no spaces; or <tags>")
    too_long = client.get("/health/live/", REMOTE_ADDR="10.0.0.2", HTTP_X_REQUEST_ID="a" * 129)
    elsewhere = client.get("/health/live/", REMOTE_ADDR="10.0.0.3", HTTP_X_REQUEST_ID="4f1c0d2e9a8b4c7d")
    assert kept["X-Request-ID"] == "4f1c0d2e9a8b4c7d"
    for response in (malformed, too_long, elsewhere):
        assert HEX32.fullmatch(response["X-Request-ID"])


def test_lines_written_during_a_request_carry_its_id(client):
    seen = []

    class Catch(logging.Handler):
        def emit(self, record):
            seen.append(podium_logging.current_request_id())

    logger = logging.getLogger("django.security.DisallowedHost")
    catch = Catch()
    logger.addHandler(catch)
    try:
        response = client.get("/health/live/", HTTP_HOST="evil.example")
    finally:
        logger.removeHandler(catch)
    assert response.status_code == 400 and seen == [response["X-Request-ID"]]
    assert podium_logging.current_request_id() is None  # nothing left behind for the next request


@override_settings(PODIUM_PROXIES=["10.0.0.2"])
def test_the_asgi_side_gives_the_requests_task_its_id_and_the_answer_the_header():
    seen = {}

    async def app(scope, receive, send):
        seen["id"] = podium_logging.current_request_id()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"x-request-id", b"stale")]})
        await send({"type": "http.response.body", "body": b""})

    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request"}

    wrapped = podium_logging.asgi_request_id(app)
    scope = {"type": "http", "client": ("10.0.0.2", 5000), "headers": [(b"x-request-id", b"from-the-proxy-1")]}
    asyncio.run(wrapped(scope, receive, send))
    assert seen["id"] == "from-the-proxy-1"
    assert [v for k, v in sent[0]["headers"] if k == b"x-request-id"] == [b"from-the-proxy-1"]


def test_the_servers_handlers_take_podiums_format_and_a_server_without_one_keeps_none():
    access = logging.getLogger("podium-test.access")
    handler = logging.StreamHandler()
    access.addHandler(handler)
    silent = logging.getLogger("podium-test.silent")
    try:
        podium_logging.adopt(("podium-test.access", "podium-test.silent"), "json")
        podium_logging.adopt(("podium-test.access",), "json")
        assert isinstance(handler.formatter, podium_logging.JsonFormatter)
        assert sum(isinstance(f, podium_logging.RequestIdFilter) for f in handler.filters) == 1
        assert silent.handlers == []  # uvicorn's --no-access-log: still no handler, so no line
    finally:
        access.removeHandler(handler)


def test_an_unknown_log_format_stops_the_start():
    with pytest.raises(ImproperlyConfigured, match="PODIUM_LOG_FORMAT='xml': use one of text, json"):
        read_choice(
            "PODIUM_LOG_FORMAT", default="text", choices=("text", "json"), environ_={"PODIUM_LOG_FORMAT": "xml"}
        )
    assert read_choice("PODIUM_LOG_FORMAT", default="text", choices=("text", "json"), environ_={}) == "text"
