"""The live push under test: a real uvicorn process, a private Redis server, and a Server-Sent Events client.

* :func:`free_port` - a TCP port nobody listens on.
* :func:`start_redis` - a ``redis-server`` of the test's own (nothing kept on disk), which a test may stop and start
  again on the same port (a Redis restart); :func:`redis_server_missing` says why one cannot start.
* :func:`start_asgi` - uvicorn serving the app from the test database, with the environment given
  (``PODIUM_LIVE_REDIS_URL``, ``PODIUM_LIVE_CHANNEL`` ...); returns ``(base_url, stop)``.
* :class:`Stream` - reads one stream in a thread: ``stream.next_event(kind)`` waits (boundedly) for the next event of
  that kind, ``stream.events`` holds every one received, ``stream.close()`` ends it.
* :func:`seats_of` - the player ids at a table of a round, in seat order.
* :func:`live_settings` - this process's live push pointed at a Redis and a channel (``override_settings`` with the
  sender reset), so what the test records here reaches the server's streams.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import queue
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from tests.support.processes import LOCAL

ROOT = Path(__file__).resolve().parents[2]
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
#: How long a test waits for an event before it fails (a bound, not a measure: the benchmark measures).
WAIT_SECONDS = 20.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_server_missing() -> str | None:
    return None if Path(REDIS_SERVER).exists() else "redis-server is not installed (Debian's redis-server package)"


def start_redis(port: int) -> subprocess.Popen:
    process = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return process
        time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"redis-server did not listen on {port}")


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def start_asgi(database_url: str, log: Path, *, env: dict[str, str], access_log: bool = False) -> tuple[str, callable]:
    port = free_port()
    full_env = {
        **os.environ,
        **LOCAL,
        "DATABASE_URL": database_url,
        "ALLOWED_HOSTS": "127.0.0.1",
        **env,
    }
    handle = open(log, "w")  # noqa: SIM115 - closed by the stop function
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port", str(port),
         *([] if access_log else ["--no-access-log"])],
        cwd=ROOT, env=full_env, stdout=handle, stderr=subprocess.STDOUT,
    )  # fmt: skip

    def stop_server() -> None:
        stop(process)
        handle.close()

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            stop_server()
            raise RuntimeError(f"uvicorn exited at start:\n{log.read_text()}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/v1/formats/")
            if conn.getresponse().status == 200:
                return f"http://127.0.0.1:{port}", stop_server
        except OSError:
            time.sleep(0.2)
    stop_server()
    raise RuntimeError("uvicorn did not answer within 60 s")


@dataclass
class Event:
    id: int | None
    kind: str
    data: dict


@dataclass
class Stream:
    """One Server-Sent Events stream, read in a thread (``path`` on ``base_url``; ``last_event_id`` sent as the
    header).  ``connect``: makes the connection instead (HTTPS, a source address); ``host``: the Host header sent;
    ``cookie``: the Cookie header."""

    base_url: str
    path: str
    last_event_id: int | None = None
    origin: str | None = None
    connect: Callable[[], http.client.HTTPConnection] | None = None
    host: str | None = None
    #: The ``Cookie`` header sent (a signed-in session: the judges' staff stream).
    cookie: str | None = None
    events: list[Event] = field(default_factory=list)
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._queue: queue.Queue[Event | None] = queue.Queue()
        self._opened = threading.Event()
        self._closed = False
        parts = urlsplit(self.base_url)
        if self.connect is not None:
            self._conn = self.connect()
        else:
            self._conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=WAIT_SECONDS * 3)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        if not self._opened.wait(WAIT_SECONDS):
            raise AssertionError(f"the stream {self.path} did not answer")

    def _read(self) -> None:
        headers = {"Accept": "text/event-stream"}
        if self.last_event_id is not None:
            headers["Last-Event-ID"] = str(self.last_event_id)
        if self.origin is not None:
            headers["Origin"] = self.origin
        if self.host is not None:
            headers["Host"] = self.host
        if self.cookie is not None:
            headers["Cookie"] = self.cookie
        try:
            self._conn.request("GET", self.path, headers=headers)
            response = self._conn.getresponse()
            self.headers = {k.lower(): v for k, v in response.getheaders()}
            if response.status != 200:
                self.body = response.read()  # read before the opener is woken, who reads it at once
            self.status = response.status
            self._opened.set()
            if response.status != 200:
                return
            event_id, kind, data = None, "message", []
            while not self._closed:
                line = response.readline()
                if not line:
                    break
                line = line.decode().rstrip("\n")
                if line == "":
                    if data:
                        event = Event(int(event_id) if event_id else None, kind, json.loads("\n".join(data)))
                        self.events.append(event)
                        self._queue.put(event)
                    event_id, kind, data = None, "message", []
                elif line.startswith("id:"):
                    event_id = line[3:].strip()
                elif line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].strip())
        except (OSError, http.client.HTTPException, ValueError, AttributeError):  # AttributeError: closed under it
            pass
        finally:
            self._opened.set()
            self._queue.put(None)

    def next_event(self, kind: str | None = None, *, timeout: float = WAIT_SECONDS, where=None) -> Event:
        """The next event received (of ``kind``, and for which ``where(event.data)`` holds, skipping others); fails if
        none comes within the bound."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {kind or 'event'} on {self.path}; received {[e.kind for e in self.events]}")
            try:
                event = self._queue.get(timeout=left)
            except queue.Empty:
                continue
            if event is None:
                raise AssertionError(f"the stream {self.path} ended; received {[e.kind for e in self.events]}")
            if (kind is None or event.kind == kind) and (where is None or where(event.data)):
                return event

    def close(self) -> None:
        self._closed = True
        with contextlib.suppress(OSError):
            if self._conn.sock is not None:
                self._conn.sock.shutdown(socket.SHUT_RDWR)
        self._conn.close()
        self._thread.join(timeout=5)


@contextlib.contextmanager
def live_settings(redis_url: str | None, channel: str):
    """This process's live push pointed at ``redis_url`` (``None``: in-process) on ``channel``."""
    from django.test import override_settings

    from live import publish

    with override_settings(PODIUM_LIVE_REDIS_URL=redis_url, PODIUM_LIVE_CHANNEL=channel):
        publish.reset_sender()
        try:
            yield
        finally:
            publish.reset_sender()


def seats_of(event, table: int, number: int = 1) -> list[int]:
    return list(
        event.rounds.get(number=number)
        .pods.get(table_number=table)
        .seats.order_by("seat_order")
        .values_list("player_id", flat=True)
    )
