"""Logs, metrics and errors read from real servers: gunicorn with two workers and uvicorn serving the streams.

* **Logs.**  gunicorn's access lines (standard output) carry the request id the answer carries; a bad ``Host`` is
  one WARNING line of ``django.security.DisallowedHost`` on standard error, with that request's id and no
  traceback.  uvicorn, with ``PODIUM_LOG_FORMAT=json``, writes its access line as one JSON object with the id.
* **Metrics.**  Requests answered by both gunicorn workers add up in ``/metrics``'s latency histogram
  (prometheus-client's multiprocess mode: one file per worker); a stream open on uvicorn shows in
  ``podium_live_open_streams`` on gunicorn's ``/metrics``, and leaves it when closed.
* **Errors.**  With ``SENTRY_DSN`` pointing at a local HTTP server, an exception in a view arrives there as an
  event with its environment, release and request id, and without the client's cookies.

One gunicorn and one uvicorn for the module, sharing the test database and the suite's Redis.
"""

from __future__ import annotations

import datetime
import gzip
import http.client
import http.server
import json
import re
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from tests.integration.conftest import database_url, start_web
from tests.support.live import WAIT_SECONDS, Stream, start_asgi
from tests.support.observed_urls import FAILURE
from tournaments.models import Event

#: Only the stream's test writes to the database (an event the stream server reads): the others need no flush.
pytestmark = [pytest.mark.integration]

TOKEN = "observability-test-token"
HEX32 = re.compile(r"[0-9a-f]{32}")


class _Inbox(http.server.BaseHTTPRequestHandler):
    """Stands in for Sentry: keeps every envelope posted to it."""

    envelopes: list[bytes] = []

    def do_POST(self):  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        type(self).envelopes.append(body)
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def servers(django_db_setup, tmp_path_factory):
    inbox = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Inbox)
    threading.Thread(target=inbox.serve_forever, daemon=True).start()
    tmp = tmp_path_factory.mktemp("observability")
    metrics_dir = tmp / "metrics"
    metrics_dir.mkdir()
    channel = f"podium:live:test:{uuid.uuid4().hex[:12]}"
    shared = {"REDIS_URL": settings.REDIS_URL or "", "PODIUM_LIVE_CHANNEL": channel}
    with ThreadPoolExecutor(2) as starting:  # both at once: each takes a few seconds to answer
        web_started = starting.submit(
            start_web, tmp / "web", workers=2, split_output=True,
            env={**shared, "PODIUM_METRICS_TOKEN": TOKEN, "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
                 "DJANGO_SETTINGS_MODULE": "tests.support.observed_settings",
                 "SENTRY_DSN": f"http://public@127.0.0.1:{inbox.server_address[1]}/1",
                 "SENTRY_ENVIRONMENT": "integration", "SENTRY_RELEASE": "podium@observed"},
        )  # fmt: skip
        streams_started = starting.submit(
            start_asgi, database_url(), tmp / "uvicorn.log", access_log=True,
            env={**shared, "PODIUM_LIVE_HEARTBEAT": "1", "PODIUM_LOG_FORMAT": "json"},
        )  # fmt: skip
        stoppers = []
        for started in (web_started, streams_started):
            try:
                stoppers.append(started.result())
            except BaseException:
                for _, stop in stoppers:
                    stop()
                raise
    (web, stop_web), (streams, stop_streams) = stoppers
    try:
        yield SimpleNamespace(
            web=web, streams=streams, dir=tmp, metrics_dir=metrics_dir, envelopes=_Inbox.envelopes, inbox=inbox
        )
    finally:
        stop_streams()
        stop_web()
        inbox.shutdown()


def _get(base: str, path: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    address = urlsplit(base)
    conn = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def _metrics(servers) -> str:
    status, _, body = _get(servers.web, "/metrics", {"Authorization": f"Bearer {TOKEN}"})
    assert status == 200, body
    return body.decode()


def _value(text: str, name: str, labels: str = "") -> float | None:
    found = re.search(rf"^{re.escape(name + labels)} (\S+)$", text, re.MULTILINE)
    return None if found is None else float(found[1])


def _eventually(read, what: str, seconds: float = WAIT_SECONDS):
    """``read()``'s first truthy answer, within a bound (not a measure)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = read()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {seconds:.0f} s")


def test_requests_answered_by_both_gunicorn_workers_add_up_in_the_latency_histogram(servers):
    labels = '{method="GET",status="2xx",view="health-live"}'
    before = _value(_metrics(servers), "podium_http_request_duration_seconds_count", labels) or 0
    sent = 0
    with ThreadPoolExecutor(8) as pool:
        for _ in range(25):  # until both workers have answered some (each keeps a file of its own)
            answers = list(pool.map(lambda _: _get(servers.web, "/health/live/")[0], range(8)))
            assert answers == [200] * 8
            sent += len(answers)
            if len(list(servers.metrics_dir.glob("histogram_*.db"))) >= 2:
                break
    workers = {p.stem.split("_")[1] for p in servers.metrics_dir.glob("histogram_*.db")}
    assert len(workers) == 2, workers
    text = _metrics(servers)
    assert _value(text, "podium_http_request_duration_seconds_count", labels) == before + sent
    buckets = {
        frozenset(m[1].split(",")): float(m[2])
        for m in re.finditer(r"^podium_http_request_duration_seconds_bucket\{(.*)\} (\S+)$", text, re.MULTILINE)
    }
    assert buckets[frozenset([*labels[1:-1].split(","), 'le="+Inf"'])] == before + sent
    for gauge in ("podium_standings_stale_events", "podium_standings_lag_seconds", "podium_live_open_streams",
                  "podium_sweeps_total"):  # fmt: skip
        assert _value(text, gauge) is not None, gauge
    if settings.REDIS_URL:
        assert _value(text, "podium_task_queue_length") is not None
    assert _value(text, "podium_metrics_source_up", '{source="standings"}') == 1


def test_gunicorns_access_lines_carry_the_request_id_and_a_bad_host_is_one_line(servers):
    status, headers, _ = _get(servers.web, "/api/v1/formats/", {"X-Request-ID": "not-from-a-trusted-proxy"})
    rid = headers["x-request-id"]
    assert status == 200 and HEX32.fullmatch(rid)
    bad, bad_headers, _ = _get(servers.web, "/api/v1/formats/", {"Host": "evil.example"})
    bad_rid = bad_headers["x-request-id"]
    assert bad == 400
    access = re.compile(
        rf'^\d{{4}}-\d\d-\d\dT[\d:.]+Z INFO gunicorn\.access {rid} 127\.0\.0\.1 "GET /api/v1/formats/ HTTP/1\.1" '
        r"200 \d+ \d+ms$",
        re.MULTILINE,
    )
    stdout = _eventually(lambda: access.search((servers.dir / "web" / "web.log").read_text()), "the access line")
    assert stdout
    stderr = _eventually(
        lambda: bad_rid in (text := (servers.dir / "web" / "web.err").read_text()) and text, "the bad Host line"
    )
    # An entry is a line that starts with a time and the lines after it that do not (a traceback).
    entries = re.split(r"\n(?=\d{4}-\d\d-\d\dT)", stderr.strip())
    bad_host = [entry for entry in entries if "DisallowedHost" in entry]
    assert len(bad_host) == 1, bad_host
    assert "\n" not in bad_host[0] and "Traceback" not in bad_host[0]
    assert re.match(rf"^\S+Z WARNING django\.security\.DisallowedHost {bad_rid} Invalid HTTP_HOST header", bad_host[0])


@pytest.mark.django_db(transaction=True)
def test_a_stream_open_on_uvicorn_shows_in_open_streams_and_in_uvicorns_json_access_line(servers, organiser):
    event = Event.objects.create(
        name="Observed", format="deck-masters", planned_rounds=1, organiser=organiser, date=datetime.date(2026, 12, 4)
    )

    def open_streams() -> float | None:
        return _value(_metrics(servers), "podium_live_open_streams")

    stream = Stream(servers.streams, f"/api/v1/events/{event.pk}/stream/")
    try:
        assert stream.status == 200
        stream.next_event("snapshot")
        _eventually(lambda: open_streams() == 1, "podium_live_open_streams 1")
    finally:
        stream.close()
    _eventually(lambda: open_streams() == 0, "podium_live_open_streams back to 0")
    rid = stream.headers["x-request-id"]

    def access_line() -> dict | None:
        for line in (servers.dir / "uvicorn.log").read_text().splitlines():
            if line.startswith("{") and (found := json.loads(line))["logger"] == "uvicorn.access":
                if found["request_id"] == rid:
                    return found
        return None

    found = _eventually(access_line, "uvicorn's access line")
    assert found["level"] == "INFO" and f"GET /api/v1/events/{event.pk}/stream/" in found["message"]
    assert found["time"].endswith("Z")


def test_an_exception_in_a_view_reaches_the_error_reporting_endpoint_without_personal_data(servers):
    status, headers, _ = _get(
        servers.web, "/api/v1/observability-test/fail/", {"Cookie": "sessionid=secret-session-cookie"}
    )
    assert status == 500

    def event() -> dict | None:
        for envelope in list(servers.envelopes):
            for line in envelope.splitlines():
                if FAILURE.encode() in line and line.startswith(b"{"):
                    return json.loads(line)
        return None

    found = _eventually(event, "the error's envelope")
    assert found["exception"]["values"][-1]["type"] == "RuntimeError"
    assert found["environment"] == "integration" and found["release"] == "podium@observed"
    assert found["tags"]["request_id"] == headers["x-request-id"]
    assert not any(b"secret-session-cookie" in envelope for envelope in servers.envelopes)
