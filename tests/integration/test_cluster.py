"""Two instances of Podium behind one nginx, on one PostgreSQL and one Redis: more than one machine, on this one.

Each *instance* is what one machine runs: ``honcho start`` of ``deploy/Procfile`` with a settings file of its own
that differs only in the addresses (``PODIUM_WEB_BIND``, ``PODIUM_STREAMS_PORT``): a gunicorn, a uvicorn and a
Celery worker, and beat on the first alone (exactly one beat).  Both read the same database, the same task queue and
the same live channel.  ``deploy/nginx/podium.conf`` runs as it ships with both instances listed in its upstreams;
the test's own ``http`` block adds a header naming the backend that answered (``X-Upstream``), so the test knows
which instance served each request and each stream.

* Requests through the proxy are shared by both web instances; streams by both stream instances.
* A change written through the web of instance A (sent to it directly: the test picks the instance) reaches the
  streams held through the proxy on both A and B, and one written through B reaches both too: live events go from
  the writing process to every stream server through Redis pub/sub, whichever machine holds the stream.
* The standings the result moved are recomputed by a worker, whichever one takes the job, and the update reaches
  both stream instances.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings

from tests.conftest import IN_CI
from tests.factories import PlayerFactory, RegistrationFactory
from tests.integration.conftest import collected_var_dir, database_url, private_queue
from tests.support import proxy
from tests.support.live import Stream, free_port, seats_of, stop
from tests.support.people import token_for
from tests.support.processes import LOCAL
from tests.support.proxy import DEPLOY, PROXY, ROOT, SITE
from tournaments import services

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

#: A bound for the processes to come up (a bound, not a measure).
START_SECONDS = 90.0
#: What nginx says of each answer, for the test: the backend's address.
UPSTREAM_HEADER = "add_header X-Upstream $upstream_addr always;"


def _instance(tmp: Path, name: str, shared: dict[str, str], *, processes: list[str]) -> SimpleNamespace:
    """One machine's processes: honcho runs the Procfile's ``processes`` with this instance's addresses."""
    web, streams = free_port(), free_port()
    env_file = proxy.env_file(
        tmp / f"{name}.env",
        {**shared, "PODIUM_WEB_BIND": f"127.0.0.1:{web}", "PODIUM_STREAMS_PORT": str(streams)},
    )
    log_path = tmp / f"{name}.log"
    log = open(log_path, "w")  # noqa: SIM115 - closed when the module's instances stop
    process = subprocess.Popen(
        [sys.executable, "-m", "honcho", "-f", str(DEPLOY / "Procfile"), "-e", str(env_file), "--no-colour",
         "start", *processes],
        cwd=ROOT, env=os.environ.copy(), stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    return SimpleNamespace(name=name, web=web, streams=streams, process=process, log=log, log_path=log_path)


def _worker_ready(instance: SimpleNamespace) -> bool:
    # honcho's lines: "HH:MM:SS worker.1  | ... celery@host ready."
    return re.search(r"^\S+ worker\.1 +\|.* ready\.$", instance.log_path.read_text(), re.MULTILINE) is not None


@pytest.fixture(scope="module")
def cluster(django_db_setup, tmp_path_factory):
    missing = proxy.missing()
    if missing:
        if IN_CI:
            pytest.fail(f"CI=true but the cluster test cannot run: {missing}")
        pytest.skip(missing)
    tmp = tmp_path_factory.mktemp("cluster")
    started = time.monotonic()
    shared = {
        **LOCAL,
        "DATABASE_URL": database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "ALLOWED_HOSTS": f"{SITE},127.0.0.1",
        "PODIUM_PROXIES": PROXY,
        "PODIUM_VAR_DIR": collected_var_dir(),
        "PODIUM_WEB_WORKERS": "1",
        "PODIUM_STREAMS_WORKERS": "1",
        "PODIUM_TASK_QUEUE": private_queue(),
        "PODIUM_LIVE_CHANNEL": f"podium:live:test:{uuid.uuid4().hex[:12]}",
        "PODIUM_LIVE_HEARTBEAT": "1",
        "PODIUM_SWEEP_SECONDS": "1",
    }
    a = _instance(tmp, "a", shared, processes=["web", "streams", "worker", "beat"])
    b = _instance(tmp, "b", shared, processes=["web", "streams", "worker"])
    https, http_port = free_port(), free_port()
    proxy.certificate(tmp)
    conf = proxy.nginx_config(
        tmp, web=[a.web, b.web], streams=[a.streams, b.streams], https=https, http_port=http_port,
        static_root=str(Path(collected_var_dir()) / "staticfiles"), http_extra=UPSTREAM_HEADER,
    )  # fmt: skip
    nginx = proxy.start_nginx(tmp, conf)
    try:
        deadline = time.monotonic() + START_SECONDS
        while not (
            all(proxy.answers(i.web, "/api/v1/formats/") == 200 for i in (a, b))
            and all(proxy.answers(i.streams, "/api/v1/formats/") == 200 for i in (a, b))
            and proxy.answers(https, "/health/live/", tls=True) == 200
            and all(_worker_ready(i) for i in (a, b))
        ):
            for name, process in (("instance a", a.process), ("instance b", b.process), ("nginx", nginx)):
                if process.poll() is not None:
                    pytest.fail(
                        f"{name} exited at start:\n{a.log_path.read_text()}\n{b.log_path.read_text()}\n"
                        f"{proxy.read(tmp / 'error.log')}"
                    )
            if time.monotonic() > deadline:
                pytest.fail(f"the cluster did not come up within {START_SECONDS:.0f} s:\n{a.log_path.read_text()}")
            time.sleep(0.2)
        print(f"the cluster came up in {time.monotonic() - started:.1f} s")
        yield SimpleNamespace(a=a, b=b, https=https)
    finally:
        stop(nginx)
        # Both at once: each ends its open streams 3 s after it is told to stop.
        for instance in (a, b):
            instance.process.terminate()
        for instance in (a, b):
            stop(instance.process)
            instance.log.close()


@pytest.fixture
def duel(organiser):
    """A Deck Masters event (1v1) with four checked-in players, no round yet."""
    event = services.event_create(
        organiser=organiser, name="Two Machines", format="deck-masters", planned_rounds=3,
        date=datetime.date(2026, 12, 4),
    )  # fmt: skip
    for name in ("Yugi", "Joey", "Kaiba", "Mai"):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name))
    return event


def _direct(port: int, method: str, path: str, organiser, body: dict) -> tuple[int, bytes]:
    """A write sent to one web instance directly (not through the proxy), as its organiser."""
    status, _, answer = proxy.request(
        port, method, path, tls=False, host="127.0.0.1", source="127.0.0.3", body=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Token {token_for(organiser)}"},
    )  # fmt: skip
    return status, answer


def _streams_on_both(cluster, path: str) -> dict[int, Stream]:
    """Streams opened through the proxy until each stream instance holds one: ``{stream port: stream}``."""
    held: dict[int, Stream] = {}
    extra: list[Stream] = []
    for _ in range(6):  # nginx sends a new stream to the instance holding the fewest: two are enough
        stream = Stream(f"https://127.0.0.1:{cluster.https}", path, connect=lambda: proxy.tls(cluster.https), host=SITE)
        assert stream.status == 200
        port = int(stream.headers["x-upstream"].rsplit(":", 1)[1])
        if port in held:
            extra.append(stream)
        else:
            held[port] = stream
        if len(held) == 2:
            break
    for stream in extra:
        stream.close()
    return held


def test_requests_through_the_proxy_are_shared_by_both_web_instances(cluster):
    served = {proxy.request(cluster.https, "GET", "/api/v1/formats/")[1]["x-upstream"] for _ in range(4)}
    assert served == {f"127.0.0.1:{cluster.a.web}", f"127.0.0.1:{cluster.b.web}"}


def test_a_change_written_through_either_web_instance_reaches_the_streams_held_on_both_stream_instances(
    cluster, duel, organiser
):
    a, b = cluster.a, cluster.b
    held = _streams_on_both(cluster, f"/api/v1/events/{duel.pk}/stream/")
    try:
        assert set(held) == {a.streams, b.streams}, "nginx did not spread the streams over both instances"
        for stream in held.values():
            stream.next_event("snapshot")

        # Written through web A: both the stream on A and the one on B have it.
        status, answer = _direct(a.web, "POST", f"/api/v1/events/{duel.pk}/rounds/", organiser, {"seed": 3})
        assert status == 201, answer[:300]
        for stream in held.values():
            assert stream.next_event("round.started").data["round"]["number"] == 1

        # Written through web B: both have it too.
        winner, loser = seats_of(duel, 1)
        status, answer = _direct(
            b.web, "POST", f"/api/v1/events/{duel.pk}/rounds/1/tables/1/result/", organiser,
            {"placements": [{"player": winner, "placement": 1}, {"player": loser, "placement": 2}]},
        )  # fmt: skip
        assert status in (200, 201), answer[:300]
        for stream in held.values():
            result = stream.next_event("table.result", where=lambda data: data["table"] == 1)
            assert [p["id"] for p in result.data["players"] if p["placement"] == 1] == [winner]

        # A worker (either: they read the same queue) recomputed the standings; the update reaches both.
        for stream in held.values():
            stream.next_event("standings.updated", timeout=30)
    finally:
        for stream in held.values():
            stream.close()
    # Each write went to the web instance it was sent to, and to that one alone.
    a_text, b_text = a.log_path.read_text(), b.log_path.read_text()
    assert f"/api/v1/events/{duel.pk}/rounds/ " in a_text and f"/api/v1/events/{duel.pk}/rounds/ " not in b_text
    assert "/tables/1/result/" in b_text and "/tables/1/result/" not in a_text
