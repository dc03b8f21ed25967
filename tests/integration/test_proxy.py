"""Podium behind the shipped nginx configuration, in front of the processes the shipped Procfile starts.

``deploy/nginx/podium.conf`` and its ``podium-proxy.conf`` run as they ship, with only the test's addresses, host
name, certificate (made here, self-signed) and static files' directory filled in, in front of ``honcho start`` of
``deploy/Procfile`` (gunicorn, uvicorn, a Celery worker and beat) with its settings in an environment file, as an
operator runs them.  nginx runs as the user who runs the tests, with its pid, logs and temporary files in a
directory of the test's.
One site for the module; each test makes its own data.

* A page answers 200 through the proxy for the site's host name and 400 for any other, the streams too (the
  ``Host`` header reaches both servers).
* A static file comes from ``collectstatic``'s directory, served by nginx.
* An API list links its next page as ``https://<site>/``: the host name and the scheme reach gunicorn, which
  believes the scheme from the proxy and not from a client that connects to it directly.
* Plain HTTP answers the health checks and sends everything else to HTTPS.
* A change made through the API arrives on the event's stream through the proxy while it stays open; uvicorn
  served the stream (its access log has it) and not the API's request.
* ``X-Forwarded-For`` is believed from the proxy only: addresses a client writes buy it no new allowance of
  anonymous deck checks, sent to gunicorn directly or through the proxy, while two clients behind the proxy are
  told apart by the address the proxy appends.
* The worker and beat the Procfile starts report in ``/health/ready/``.
* The Procfile's stream server, told to stop with a stream open, ends the stream and stops by itself, before
  honcho (or systemd) would kill it.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.core.cache import cache

from core import health
from tests.conftest import IN_CI
from tests.factories import PlayerFactory, RegistrationFactory
from tests.integration.conftest import collected_var_dir, database_url, private_queue
from tests.support import proxy
from tests.support.live import Stream, free_port, stop
from tests.support.people import token_for
from tests.support.processes import LOCAL
from tests.support.proxy import DEPLOY, PROXY, ROOT, SITE
from tests.support.throttles import forget_counts
from tournaments import services

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

#: Bounds for the processes to come up and for the health checks to turn ready (bounds, not measures).
START_SECONDS = 60.0


@pytest.fixture(scope="module")
def site(django_db_setup, tmp_path_factory):
    missing = proxy.missing()
    if missing:
        if IN_CI:
            pytest.fail(f"CI=true but the proxy tests cannot run: {missing}")
        pytest.skip(missing)
    tmp = tmp_path_factory.mktemp("proxy")
    static_root = str(Path(collected_var_dir()) / "staticfiles")
    ports = SimpleNamespace(web=free_port(), streams=free_port(), https=free_port(), http=free_port())
    proxy.certificate(tmp)
    conf = proxy.nginx_config(
        tmp, web=[ports.web], streams=[ports.streams], https=ports.https, http_port=ports.http, static_root=static_root
    )
    env_file = proxy.env_file(
        tmp / "podium.env",
        {
            **LOCAL,
            "DATABASE_URL": database_url(),
            "REDIS_URL": settings.REDIS_URL,
            "ALLOWED_HOSTS": f"{SITE},127.0.0.1",
            "PODIUM_PROXIES": PROXY,
            "PODIUM_VAR_DIR": collected_var_dir(),
            "PODIUM_WEB_BIND": f"127.0.0.1:{ports.web}",
            "PODIUM_WEB_WORKERS": "1",
            "PODIUM_STREAMS_PORT": str(ports.streams),
            "PODIUM_STREAMS_WORKERS": "1",
            "PODIUM_TASK_QUEUE": private_queue(),
            "PODIUM_LIVE_CHANNEL": f"podium:live:test:{uuid.uuid4().hex[:12]}",
            "PODIUM_LIVE_HEARTBEAT": "1",
            "PODIUM_SWEEP_SECONDS": "1",
            "PODIUM_DECK_CHECK_RATE": "3/hour",
        },
    )
    started = time.time()
    log_path = tmp / "honcho.log"
    log = open(log_path, "w")  # noqa: SIM115 - closed at the end of the module
    processes = subprocess.Popen(
        [sys.executable, "-m", "honcho", "-f", str(DEPLOY / "Procfile"), "-e", str(env_file), "--no-colour", "start"],
        cwd=ROOT, env=os.environ.copy(), stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    nginx = proxy.start_nginx(tmp, conf)
    state = SimpleNamespace(
        **vars(ports), tmp=tmp, log=log_path, static_root=Path(static_root), started=started, env_file=env_file
    )
    try:
        deadline = time.monotonic() + START_SECONDS
        while not (
            proxy.answers(ports.web, "/api/v1/formats/") == 200
            and proxy.answers(ports.streams, "/api/v1/formats/") == 200
            and proxy.answers(ports.https, "/health/live/", tls=True) == 200
        ):
            for name, process in (("honcho", processes), ("nginx", nginx)):
                if process.poll() is not None:
                    pytest.fail(f"{name} exited at start:\n{log_path.read_text()}\n{proxy.read(tmp / 'error.log')}")
            if time.monotonic() > deadline:
                pytest.fail(f"the site did not answer within {START_SECONDS:.0f} s:\n{log_path.read_text()}")
            time.sleep(0.2)
        yield state
    finally:
        stop(nginx)
        stop(processes)
        log.close()


def _deck_check(port: int, *, tls: bool, source: str, host: str = SITE, **headers: str) -> int:
    body = json.dumps({"format": "mintayn-master", "decklist": "1 Ember Whelp"}).encode()
    status, _, _ = proxy.request(
        port, "POST", "/api/v1/deck-checks/", tls=tls, host=host, source=source, body=body,
        headers={"Content-Type": "application/json", **headers},
    )  # fmt: skip
    return status


@pytest.fixture
def duel(organiser):
    """A Deck Masters event (1v1) with four checked-in players, no round yet."""
    event = services.event_create(
        organiser=organiser, name="Proxied Duels", format="deck-masters", planned_rounds=3,
        date=datetime.date(2026, 12, 4),
    )  # fmt: skip
    for name in ("Yugi", "Joey", "Kaiba", "Mai"):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name))
    return event


def test_a_page_answers_for_the_sites_host_and_400_for_any_other_on_pages_and_streams(site, duel):
    assert proxy.request(site.https, "GET", "/")[0] == 200
    assert proxy.request(site.https, "GET", "/", host="elsewhere.example")[0] == 400
    stream = f"/api/v1/events/{duel.pk}/stream/"
    status, headers, body = proxy.request(site.https, "GET", stream, host="elsewhere.example")
    assert status == 400 and json.loads(body)["error"]["message"] == "Bad host."
    opened = Stream(f"https://127.0.0.1:{site.https}", stream, connect=lambda: proxy.tls(site.https), host=SITE)
    try:
        assert opened.status == 200
        assert opened.next_event("snapshot").data["round"] is None
    finally:
        opened.close()


def test_a_static_file_a_page_links_to_is_served_by_nginx_from_the_collected_files(site):
    _, _, page = proxy.request(site.https, "GET", "/")
    linked = re.findall(r'(?:href|src)="(/static/[^"]+\.css)"', page.decode())
    assert linked, "the home page links no stylesheet"
    status, headers, body = proxy.request(site.https, "GET", linked[0])
    assert status == 200 and headers["content-type"] == "text/css"
    assert body == (site.static_root / linked[0].removeprefix("/static/")).read_bytes()
    # Its name carries its content's hash: nginx lets browsers keep it for good.
    assert "immutable" in headers["cache-control"] and headers["x-content-type-options"] == "nosniff"
    assert proxy.request(site.https, "GET", "/static/no-such-file.css")[0] == 404


def test_an_api_list_links_its_next_page_with_the_sites_https_address_which_only_the_proxy_may_claim(
    site, duel, organiser
):
    services.event_create(
        organiser=organiser, name="Second", format="deck-masters", planned_rounds=3, date=datetime.date(2026, 12, 5)
    )
    status, _, body = proxy.request(site.https, "GET", "/api/v1/events/?limit=1")
    assert status == 200
    assert json.loads(body)["next"] == f"https://{SITE}/api/v1/events/?limit=1&offset=1"
    # A client that reaches gunicorn directly and claims HTTPS is not believed.
    status, _, body = proxy.request(
        site.web, "GET", "/api/v1/events/?limit=1", tls=False, host="127.0.0.1", source="127.0.0.3",
        headers={"X-Forwarded-Proto": "https"},
    )  # fmt: skip
    assert status == 200 and json.loads(body)["next"].startswith("http://127.0.0.1/api/v1/events/")


def test_plain_http_answers_the_health_check_and_redirects_everything_else_to_https(site):
    assert proxy.request(site.http, "GET", "/health/live/", tls=False)[0] == 200
    status, headers, _ = proxy.request(site.http, "GET", "/events/?page=2", tls=False)
    assert status == 301 and headers["location"] == f"https://{SITE}/events/?page=2"


def test_a_change_made_through_the_api_arrives_on_the_stream_through_the_proxy_at_once(site, duel, organiser):
    path = f"/api/v1/events/{duel.pk}/stream/"
    stream = Stream(f"https://127.0.0.1:{site.https}", path, connect=lambda: proxy.tls(site.https), host=SITE)
    try:
        assert stream.status == 200 and stream.headers["content-type"].startswith("text/event-stream")
        snapshot = stream.next_event("snapshot")
        status, _, body = proxy.request(
            site.https, "POST", f"/api/v1/events/{duel.pk}/rounds/", body=json.dumps({"seed": 3}).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Token {token_for(organiser)}"},
        )  # fmt: skip
        assert status == 201, body[:300]
        started = stream.next_event("round.started")
        assert started.data["round"]["number"] == 1 and started.id > snapshot.id
    finally:
        stream.close()
    # uvicorn (its access log is on) served the stream; the pages and the API went to gunicorn.  Its lines reach
    # honcho's output through a pipe: wait for them, boundedly.
    deadline = time.monotonic() + 10
    while True:
        streams_lines = [line for line in site.log.read_text().splitlines() if re.match(r"\S+ streams\.\d+ +\|", line)]
        served = any(f"GET {path} HTTP/1.1" in line for line in streams_lines)
        if served or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert served, streams_lines[-20:]
    assert not any("/rounds/" in line for line in streams_lines)


def test_x_forwarded_for_is_believed_from_the_proxy_only(site):
    forget_counts("deck_checks_anon")
    # Directly to gunicorn from 127.0.0.3, not a proxy: the addresses it writes are not believed.
    direct = [_deck_check(site.web, tls=False, host="127.0.0.1", source="127.0.0.3") for _ in range(3)]
    forged = [
        _deck_check(site.web, tls=False, host="127.0.0.1", source="127.0.0.3", **{"X-Forwarded-For": f"203.0.113.{n}"})
        for n in range(5)
    ]
    assert direct == [200] * 3 and forged == [429] * 5
    # Through the proxy from 127.0.0.4: what the client wrote is ignored, the address the proxy appended counts.
    proxied = [
        _deck_check(site.https, tls=True, source="127.0.0.4", **{"X-Forwarded-For": f"198.51.100.{n}"})
        for n in range(4)
    ]
    assert proxied == [200, 200, 200, 429]
    # Another client behind the same proxy has its own allowance: the proxy's X-Forwarded-For is believed (were it
    # not, both would be the proxy's 127.0.0.1, whose allowance is spent).
    assert _deck_check(site.https, tls=True, source="127.0.0.5") == 200


def test_the_worker_and_beat_the_procfile_starts_report_ready(site):
    # Their heartbeats, written since this site started (another module's worker may have left older ones).
    deadline = time.monotonic() + START_SECONDS
    while True:
        status, _, body = proxy.request(site.https, "GET", "/health/ready/")
        ready = json.loads(body)
        fresh = all((cache.get(key) or 0) >= site.started for key in (health.HEARTBEAT_KEY, health.SWEEPS_KEY))
        if (ready["status"] == "ready" and fresh) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert status == 200 and ready["status"] == "ready", ready
    assert ready["checks"]["worker"]["ok"] and ready["checks"]["sweeps"]["ok"]
    assert fresh, "the worker's or the sweeps' heartbeat is older than the site"


def test_the_stream_server_told_to_stop_ends_its_open_streams_and_stops_before_it_would_be_killed(site, duel, tmp_path):
    port = free_port()
    env_file = tmp_path / "podium.env"
    env_file.write_text(
        site.env_file.read_text().replace(f"PODIUM_STREAMS_PORT={site.streams}\n", f"PODIUM_STREAMS_PORT={port}\n")
    )
    log_path = tmp_path / "honcho.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "honcho", "-f", str(DEPLOY / "Procfile"), "-e", str(env_file), "--no-colour",
             "start", "streams"],
            cwd=ROOT, env=os.environ.copy(), stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + START_SECONDS
            while proxy.answers(port, "/api/v1/formats/") != 200:
                assert process.poll() is None and time.monotonic() < deadline, log_path.read_text()
                time.sleep(0.2)
            stream = Stream(f"http://127.0.0.1:{port}", f"/api/v1/events/{duel.pk}/stream/", host=SITE)
            stream.next_event("snapshot")
            # honcho passes SIGTERM on (and kills what is left 5 s after a first process stops; systemd after
            # TimeoutStopSec): the stream server must end the open stream and stop by itself.
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=START_SECONDS)
            with pytest.raises(AssertionError, match="ended"):
                stream.next_event("nothing", timeout=10)
        finally:
            stop(process)
    text = log_path.read_text()
    assert "streams.1 stopped" in text and "SIGKILL" not in text, text[-2000:]
