"""Podium behind PgBouncer in transaction mode: what a site runs when its processes want more connections than
PostgreSQL's ``max_connections`` (README: "Scaling").

A ``pgbouncer`` of the test's own (Debian's package, 1.18) on a free port, configured here: transaction pooling,
a pool of 2 server connections to the test database.  gunicorn, uvicorn (the streams) and a Celery worker all
connect through it, with ``PODIUM_DB_SERVER_SIDE_BINDING=false`` (PgBouncer 1.18 keeps no prepared statement from
one transaction to the next).

* A result entered through gunicorn is on the stream uvicorn serves, and the worker's recompute of the standings
  follows it there.  Meanwhile the pooler lists the processes' connections as its clients (one each at least) and
  holds no more than its pool of server connections for them all.
"""

from __future__ import annotations

import datetime
import http.client
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from tests.conftest import IN_CI
from tests.factories import PlayerFactory, RegistrationFactory
from tests.integration.conftest import private_queue, start_web, start_worker
from tests.support.live import Stream, free_port, seats_of, start_asgi, stop
from tests.support.people import token_for
from tournaments import services

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
#: Server connections the pooler may open to the database: fewer than the processes that use it.
POOL_SIZE = 2


def _config(directory: Path, port: int) -> Path:
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    target = f"host={db.get('HOST') or '127.0.0.1'} port={db.get('PORT') or 5432} dbname={db['NAME']} user={user}"
    if db.get("PASSWORD"):
        target += f" password={db['PASSWORD']}"
    (directory / "users.txt").write_text(f'"{user}" ""\n')
    conf = directory / "pgbouncer.ini"
    conf.write_text(
        "[databases]\n"
        f"podium = {target}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {directory / 'users.txt'}\nadmin_users = {user}\n"
        f"pool_mode = transaction\ndefault_pool_size = {POOL_SIZE}\nmax_client_conn = 100\n"
        # What psycopg or libpq may send at connection that PgBouncer does not pass on by itself.
        "ignore_startup_parameters = extra_float_digits,options\n"
    )
    return conf


@pytest.fixture(scope="module")
def pgbouncer(django_db_setup):
    if not Path(PGBOUNCER).exists():
        if IN_CI:
            pytest.fail(f"CI=true but the PgBouncer test cannot run: {PGBOUNCER} is not installed")
        pytest.skip("pgbouncer is not installed (Debian's pgbouncer package)")
    # PgBouncer will not run as root: as root the test hands it to "nobody", who must read its files.
    directory = Path(tempfile.mkdtemp(prefix="podium-pgbouncer-"))
    directory.chmod(0o755)
    port = free_port()
    conf = _config(directory, port)
    for path in directory.iterdir():
        path.chmod(0o644)
    as_user = ["-u", "nobody"] if os.geteuid() == 0 else []
    process = subprocess.Popen(
        [PGBOUNCER, *as_user, str(conf)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                stop(process)
                pytest.fail(f"pgbouncer did not listen on {port}:\n{process.stdout.read()}")
            time.sleep(0.1)
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    try:
        yield {
            "url": f"postgres://{user}@127.0.0.1:{port}/podium",
            "admin": f"postgresql://{user}@127.0.0.1:{port}/pgbouncer",
        }
    finally:
        stop(process)
        shutil.rmtree(directory, ignore_errors=True)


def _pool_figures(admin_url: str) -> dict[str, int]:
    """The pooler's own view of the test database: client connections (the processes') and server connections."""
    # The admin console speaks the simple query protocol only: a client-side cursor's.
    with psycopg.connect(admin_url, autocommit=True, cursor_factory=psycopg.ClientCursor) as admin:
        counts = {}
        for kind in ("clients", "servers"):
            cursor = admin.execute(f"SHOW {kind.upper()}")
            database = [c.name for c in cursor.description].index("database")
            counts[kind] = sum(1 for row in cursor.fetchall() if row[database] == "podium")
    return counts


def test_a_result_and_its_standings_reach_a_stream_with_every_process_connected_through_pgbouncer(
    pgbouncer, organiser, tmp_path
):
    event = services.event_create(
        organiser=organiser, name="Pooled", format="deck-masters", planned_rounds=3, date=datetime.date(2026, 12, 4)
    )
    for name in ("Yugi", "Joey", "Kaiba", "Mai"):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name))
    services.round_start(event=event, by=organiser, seed=3)
    queue = private_queue()
    pooled = {
        "DATABASE_URL": pgbouncer["url"],
        "PODIUM_DB_SERVER_SIDE_BINDING": "false",
        "REDIS_URL": settings.REDIS_URL,
        "PODIUM_LIVE_REDIS_URL": settings.REDIS_URL,
        "PODIUM_LIVE_CHANNEL": f"podium:live:test:{uuid.uuid4().hex[:12]}",
        "PODIUM_LIVE_HEARTBEAT": "1",
        "PODIUM_TASK_QUEUE": queue,
    }
    # Not waited for: the recompute waits in the queue until the worker is up, meanwhile the servers start.
    _, restore_worker = start_worker(tmp_path / "worker", env=pooled, queue=queue, wait=False)
    web, stop_web = start_web(tmp_path / "web", env=pooled)
    streams, stop_streams = start_asgi(pgbouncer["url"], tmp_path / "asgi.log", env=pooled)
    try:
        stream = Stream(streams, f"/api/v1/events/{event.pk}/stream/")
        try:
            stream.next_event("snapshot")
            winner, loser = seats_of(event, 1)
            body = {"placements": [{"player": winner, "placement": 1}, {"player": loser, "placement": 2}]}
            conn = http.client.HTTPConnection("127.0.0.1", int(web.rsplit(":", 1)[1]), timeout=30)
            conn.request(
                "POST", f"/api/v1/events/{event.pk}/rounds/1/tables/1/result/", body=json.dumps(body),
                headers={"Content-Type": "application/json", "Authorization": f"Token {token_for(organiser)}"},
            )  # fmt: skip
            response = conn.getresponse()
            assert response.status in (200, 201), response.read()[:300]
            assert stream.next_event("table.result").data["table"] == 1
            standings = stream.next_event("standings.updated", timeout=30)
            assert standings.data
            # Each process holds its connection to the pooler; the pooler holds no more than its pool to PostgreSQL.
            pooled_now = _pool_figures(pgbouncer["admin"])
        finally:
            stream.close()
    finally:
        stop_streams()
        stop_web()
        restore_worker()
    print(pooled_now)
    assert pooled_now["clients"] >= 3 and 1 <= pooled_now["servers"] <= POOL_SIZE, pooled_now
