"""More than one machine, simulated on this one: results through nginx to one web instance, then to two, while live
streams are held on two stream instances.

An *instance* is what one machine runs: ``honcho start`` of ``deploy/Procfile`` with its own ``PODIUM_WEB_BIND`` and
``PODIUM_STREAMS_PORT`` and otherwise the same settings (one PostgreSQL, one Redis, one task queue, one live
channel).  Instance A runs ``web``, ``streams``, ``worker`` and ``beat``; instance B ``web``, ``streams`` and
``worker`` (exactly one beat).  Each web is gunicorn with 2 workers, each streams uvicorn with 1 worker, each worker
Celery with its default concurrency (one process per core).  In front, ``deploy/nginx/podium.conf`` as it ships,
over plain HTTP (its TLS lines taken out: the clients are on this machine), with the run's backends in its
upstreams; the benchmark's own ``http`` block logs which backend answered each request and tells each stream.

Set up on the configured database (PostgreSQL, with ``REDIS_URL``): bench reports' event, 1,000 checked-in Deck
Masters players (60 with ``--quick``) with three rounds played and the fourth paired.  Then, in turn, with nginx
listing **one web instance** (A), then **two** (A and B), then one and two again (``--quick``: once each), each
run on a new round:

* 200 streams of the event (20 with ``--quick``) are opened through nginx, which spreads them over both stream
  instances;
* 16 client threads enter every table's result as staff through nginx (bench reports' writer);
* the streams are given 15 s to have every result (``table.result``).

Figures per run: results per second, p50 / p95 of the writes, the writes each web instance served, answers 5xx,
events lost (a result a stream never had), *cross-instance deliveries* (results a stream had that were written
through the other machine's web instance), and how long after the last result the stored standings were current;
then the growth from one web instance to two.  This machine's cores bound the growth: every instance, the database,
Redis, nginx and the clients share them (the README's "Scaling" says what was measured).  Without PostgreSQL,
Redis and nginx the benchmark says why and stops.  The event and its players are deleted afterwards.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from bench import server_environment
from bench.reports import (
    ROOT,
    _database_url,
    _enter_results,
    _free_port,
    _percentile,
    _require_services,
    _setup,
    _standings_lag,
    _tables,
    _vacuum_analyze,
)

DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
WEB_WORKERS = 2
STREAMS_WORKERS = 1
CLIENTS = 16
#: How long the streams are given to have every result once the last one is answered.
DELIVERY_S = 15.0
_RESULT = re.compile(rb"event: table\.result\ndata: ([^\n]*)\n")


# --- nginx --------------------------------------------------------------------------------------------------------


def nginx_config(tmp: Path, replacements: dict[str, str], *, http_extra: str = "") -> Path:
    """A main ``nginx.conf`` for a non-root nginx in ``tmp`` including ``deploy/nginx/podium.conf`` with
    ``replacements`` made (each must be found: nothing other than the shipped file runs), ``http_extra`` added to the
    ``http`` block.  The integration tests run the shipped file through this too."""
    text = (DEPLOY / "nginx" / "podium.conf").read_text()
    for old, new in replacements.items():
        assert old in text, f"the shipped nginx configuration no longer has {old!r}"
        text = text.replace(old, new)
    (tmp / "snippets").mkdir(exist_ok=True)
    shutil.copy(DEPLOY / "nginx" / "podium-proxy.conf", tmp / "snippets" / "podium-proxy.conf")
    (tmp / "podium.conf").write_text(text)
    temp = {name: tmp / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir(exist_ok=True)
    # Started by root (a container), nginx would hand its workers to "nobody", who may not read these private
    # directories: keep them as the user who runs it.
    user = "user root;" if os.geteuid() == 0 else ""
    (tmp / "nginx.conf").write_text(f"""
{user}
daemon off;
master_process on;
worker_processes 1;
pid {tmp / "nginx.pid"};
error_log {tmp / "error.log"} warn;
events {{ worker_connections 4096; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {tmp / "access.log"};
    client_body_temp_path {temp["body"]};
    proxy_temp_path {temp["proxy"]};
    fastcgi_temp_path {temp["fastcgi"]};
    uwsgi_temp_path {temp["uwsgi"]};
    scgi_temp_path {temp["scgi"]};
    {http_extra}
    include podium.conf;
}}
""")
    return tmp / "nginx.conf"


def upstream_servers(ports: list[int]) -> str:
    """An upstream's ``server`` lines, one per instance, as an operator lists them."""
    return "\n    ".join(f"server 127.0.0.1:{port};" for port in ports)


class _Proxy:
    """nginx over plain HTTP in front of the run's web instances and both stream instances."""

    def __init__(self, web: list[int], streams: list[int]) -> None:
        self.port = _free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="podium-bench-cluster-nginx-"))
        self.conf = nginx_config(
            self.dir,
            {
                "server 127.0.0.1:8000;": upstream_servers(web),
                "server 127.0.0.1:8001;": upstream_servers(streams),
                "listen [::]:80;\n": "",
                "listen [::]:443 ssl http2;\n": "",
                "listen 80;": f"listen 127.0.0.1:{_free_port()};",
                "listen 443 ssl http2;": f"listen 127.0.0.1:{self.port};",
                "ssl_certificate /etc/letsencrypt/live/podium.example.org/fullchain.pem;": "",
                "ssl_certificate_key /etc/letsencrypt/live/podium.example.org/privkey.pem;": "",
                "ssl_protocols TLSv1.2 TLSv1.3;": "",
                "podium.example.org;": "127.0.0.1;",
                "/var/lib/podium/staticfiles/": f"{self.dir}/static/",
            },
            http_extra=(
                f"log_format backends '$upstream_addr $status $request_uri';\n"
                f"    access_log {self.dir / 'backends.log'} backends;\n"
                "    add_header X-Upstream $upstream_addr always;"
            ),
        )

    def __enter__(self) -> _Proxy:
        self.process = subprocess.Popen(
            [NGINX, "-p", str(self.dir), "-c", str(self.conf), "-e", str(self.dir / "error.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
        )  # fmt: skip
        _wait_for(lambda: _answers(self.port), f"nginx did not answer: see {self.dir}", self.process)
        return self

    def writes(self) -> dict[int, tuple[int, int]]:
        """``{table: (web port, status)}`` of the results nginx passed on (it logs each answer as it ends)."""
        found: dict[int, tuple[int, int]] = {}
        for line in (self.dir / "backends.log").read_text().splitlines():
            upstream, status, uri = line.split(" ", 2)
            match = re.search(r"/tables/(\d+)/result/$", uri)
            if match:
                found[int(match.group(1))] = (int(upstream.rsplit(":", 1)[1]), int(status))
        return found

    def __exit__(self, *exc) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        if exc[0] is None:  # its logs are read by now; kept when the run failed
            shutil.rmtree(self.dir, ignore_errors=True)


# --- the instances ------------------------------------------------------------------------------------------------


class _Instance:
    """One machine's processes: ``honcho start`` of the Procfile's ``processes`` with this instance's addresses."""

    def __init__(self, name: str, env: dict[str, str], processes: list[str], directory: Path) -> None:
        self.name, self.processes = name, processes
        self.web, self.streams = _free_port(), _free_port()
        self.env_file = directory / f"{name}.env"
        self.env_file.write_text(f"PODIUM_WEB_BIND=127.0.0.1:{self.web}\nPODIUM_STREAMS_PORT={self.streams}\n")
        self.log = directory / f"{name}.log"
        self.env = env

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "honcho", "-f", str(DEPLOY / "Procfile"), "-e", str(self.env_file),
                 "--no-colour", "start", *self.processes],
                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip

    def ready(self) -> bool:
        text = self.log.read_text() if self.log.exists() else ""
        worker = re.search(r"^\S+ worker\.1 +\|.* ready\.$", text, re.MULTILINE) is not None
        return worker and _answers(self.web) and _answers(self.streams)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # honcho passes it on

    def wait(self) -> None:
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


def _answers(port: int) -> bool:
    import http.client

    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        conn.request("GET", "/api/v1/formats/", headers={"Host": "127.0.0.1"})
        ok = conn.getresponse().status == 200
        conn.close()
        return ok
    except OSError:
        return False


def _wait_for(ready, failure: str, *processes: subprocess.Popen, seconds: float = 90.0) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if any(p.poll() is not None for p in processes) or time.monotonic() > deadline:
            raise RuntimeError(failure)
        time.sleep(0.2)


# --- the client process: the streams -------------------------------------------------------------------------------


class _Held(asyncio.Protocol):
    """One stream held through nginx: the backend nginx chose, and the tables of every ``table.result`` it read."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.upstream: int | None = None
        self.status: int | None = None
        self.tables: dict[int, set[int]] = {}  # round: tables
        self.drops = 0
        self.buffer = b""
        self.ready = asyncio.Event()
        self.closing = False
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport) -> None:
        self.transport = transport
        transport.write(f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer + data
        if self.status is None:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                self.buffer = buffer
                return
            head = buffer[:end].decode("latin-1").split("\r\n")
            self.status = int(head[0].split()[1])
            for line in head[1:]:
                name, _, value = line.partition(":")
                if name.lower() == "x-upstream":
                    self.upstream = int(value.strip().rsplit(":", 1)[1])
            if self.status != 200:
                self.ready.set()
            buffer = buffer[end + 4 :]
        last = buffer.rfind(b"\n\n")
        if last < 0:
            self.buffer = buffer
            return
        # Open once its snapshot is read: what was written before is in it, what comes after is sent as events.
        if not self.ready.is_set() and b"event: snapshot\n" in buffer[: last + 2]:
            self.ready.set()
        for found in _RESULT.finditer(buffer, 0, last + 2):
            data = json.loads(found.group(1))
            self.tables.setdefault(data["round"], set()).add(data["table"])
        self.buffer = buffer[last + 2 :]

    def connection_lost(self, exc) -> None:
        if not self.closing:
            self.drops += 1
        self.ready.set()


async def _client_main(conn, port: int) -> None:
    loop = asyncio.get_running_loop()
    held: list[_Held] = []
    while True:
        command = await loop.run_in_executor(None, conn.recv)
        if command[0] == "open":
            # In small batches: nginx sends each to the instance holding the fewest, counting the batch's own.
            paths = command[1]
            for start in range(0, len(paths), 10):
                batch = [_Held(path) for path in paths[start : start + 10]]
                for stream in batch:
                    await loop.create_connection(lambda s=stream: s, "127.0.0.1", port)
                await asyncio.wait_for(asyncio.gather(*(s.ready.wait() for s in batch)), timeout=120)
                held.extend(batch)
            conn.send(len(held))
        elif command[0] == "take":
            conn.send(
                [
                    {"upstream": s.upstream, "status": s.status, "drops": s.drops,
                     "tables": sorted(s.tables.get(command[1], ()))}
                    for s in held
                ]
            )  # fmt: skip
        elif command[0] == "close":
            for s in held:
                s.closing = True
                if s.transport is not None:
                    s.transport.close()
            await asyncio.sleep(0.2)
            conn.send("ok")
            return


def _client_process(conn, port: int) -> None:
    asyncio.run(_client_main(conn, port))


class _Streams:
    """A client process holding the streams through nginx."""

    def __init__(self, port: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipe, child = context.Pipe()
        self.process = context.Process(target=_client_process, args=(child, port), daemon=True)
        self.process.start()

    def open(self, paths: list[str]) -> None:
        self.pipe.send(("open", paths))
        self.pipe.recv()

    def take(self, round_number: int) -> list[dict[str, Any]]:
        self.pipe.send(("take", round_number))
        return self.pipe.recv()

    def close(self) -> None:
        try:
            self.pipe.send(("close",))
            self.pipe.recv()
        except (OSError, EOFError):
            pass
        self.process.join(timeout=10)
        if self.process.is_alive():
            self.process.kill()


# --- a run -----------------------------------------------------------------------------------------------------------


def _run(web: list[_Instance], both: list[_Instance], event, token: str, round_, streams: int, out) -> dict:
    tables = _tables(round_)
    label = "+".join(i.name for i in web)
    with _Proxy([i.web for i in web], [i.streams for i in both]) as proxy:
        holder = _Streams(proxy.port)
        try:
            holder.open([f"/api/v1/events/{event.pk}/stream/"] * streams)
            out.write(f"web {label}: {len(tables)} results from {CLIENTS} clients through nginx, {streams} streams ...")
            work = [(event.pk, round_.number, table) for table in tables]
            latencies, statuses, wall, last = _enter_results(proxy.port, token, work, CLIENTS)
            lag = _standings_lag(event.pk, last)
            by_table = proxy.writes()
            written = {table for table, (_, status) in by_table.items() if status in (200, 201)}
            deadline = time.monotonic() + DELIVERY_S
            rows = holder.take(round_.number)
            while time.monotonic() < deadline and any(len(r["tables"]) < len(written) for r in rows):
                time.sleep(0.2)
                rows = holder.take(round_.number)
        finally:
            holder.close()
    machine = {i.web: i.name for i in both} | {i.streams: i.name for i in both}
    cross = sum(
        1 for r in rows for table in r["tables"] if machine.get(by_table[table][0]) != machine.get(r["upstream"])
    )
    return {
        "web_instances": len(web),
        "web_workers": WEB_WORKERS * len(web),
        "results": len(statuses),
        "ok": sum(1 for s in statuses if s in (200, 201)),
        "results_per_s": round(len(statuses) / wall, 1),
        "p50_ms": round(_percentile(latencies, 50), 1),
        "p95_ms": round(_percentile(latencies, 95), 1),
        "5xx": sum(1 for s in statuses if s >= 500),
        "no_answer": sum(1 for s in statuses if s == 0),
        "writes_by_instance": {
            i.name: sum(1 for port, _ in by_table.values() if port == i.web) for i in both
        },
        "streams": len(rows),
        "streams_by_instance": {i.name: sum(1 for r in rows if r["upstream"] == i.streams) for i in both},
        "streams_not_200": sum(1 for r in rows if r["status"] != 200),
        "streams_dropped": sum(r["drops"] for r in rows),
        "deliveries": sum(len(r["tables"]) for r in rows),
        "cross_instance_deliveries": cross,
        "lost_events": sum(len(written - set(r["tables"])) for r in rows),
        "streams_missing_events": sum(1 for r in rows if written - set(r["tables"])),
        "standings_lag_s": None if lag is None else round(lag, 2),
    }  # fmt: skip


def _rows(m: dict) -> list[tuple[str, str]]:
    label = f"{m['web_instances']} web instance(s) × {WEB_WORKERS} workers"
    return [
        (f"{label}: {m['results']} results, {CLIENTS} clients, answered 2xx", f"{m['ok']} of {m['results']}"),
        (f"{label}: throughput; p50 / p95",
         f"{m['results_per_s']:.0f} results/s; {m['p50_ms']:.0f} / {m['p95_ms']:.0f} ms"),
        (f"{label}: writes served by web a / b", " / ".join(str(v) for v in m["writes_by_instance"].values())),
        (f"{label}: streams held by streams a / b", " / ".join(str(v) for v in m["streams_by_instance"].values())),
        (f"{label}: results delivered to the streams (written through the other machine)",
         f"{m['deliveries']} ({m['cross_instance_deliveries']})"),
        (f"{label}: 5xx / events lost / streams dropped",
         f"{m['5xx']} / {m['lost_events']} / {m['streams_dropped']}"),
        (f"{label}: standings current after the last result",
         "not within 120 s" if m["standings_lag_s"] is None else f"{m['standings_lag_s']:.2f} s"),
    ]  # fmt: skip


def run(*, quick: bool, out) -> tuple[list[tuple[str, str]], dict]:
    from django.conf import settings
    from django.test import override_settings

    from config.celery import app as celery_app
    from live import publish
    from tournaments import services
    from tournaments.models import Player

    _require_services("cluster")
    if not Path(NGINX).exists():
        raise RuntimeError("bench cluster needs nginx (Debian's nginx package)")
    players, streams, plan = (60, 20, [1, 2]) if quick else (1000, 200, [1, 2, 1, 2])
    queue = f"podium-bench-{uuid.uuid4().hex[:8]}"
    channel = f"podium:live:bench:{uuid.uuid4().hex[:12]}"
    directory = Path(tempfile.mkdtemp(prefix="podium-bench-cluster-"))
    env = server_environment(
        _database_url(), REDIS_URL=settings.REDIS_URL, ALLOWED_HOSTS="127.0.0.1,localhost", PODIUM_PROXIES="127.0.0.1",
        PODIUM_TASK_QUEUE=queue, PODIUM_LIVE_REDIS_URL=settings.REDIS_URL, PODIUM_LIVE_CHANNEL=channel,
        PODIUM_VAR_DIR=str(directory), PODIUM_WEB_WORKERS=str(WEB_WORKERS), PODIUM_STREAMS_WORKERS=str(STREAMS_WORKERS),
        # The staff's clients enter results as fast as they can: the per-account write limit would be measured.
        PODIUM_WRITE_RATE="1000000/min",
    )  # fmt: skip
    a = _Instance("a", env, ["web", "streams", "worker", "beat"], directory)
    b = _Instance("b", env, ["web", "streams", "worker"], directory)
    # Everything this process asks of Celery goes to the instances' workers too (its setup pairs rounds), and what it
    # writes reaches their streams.
    celery_app.conf.task_default_queue = queue
    runs: list[dict] = []
    with override_settings(PODIUM_LIVE_REDIS_URL=settings.REDIS_URL, PODIUM_LIVE_CHANNEL=channel):
        publish.reset_sender()
        for instance in (a, b):
            instance.start()
        event, created = None, []
        try:
            event, created, token, number, _ = _setup(players, out)
            _wait_for(
                lambda: a.ready() and b.ready(), f"the instances did not come up within 90 s: see {directory}",
                a.process, b.process,
            )  # fmt: skip
            round_ = event.rounds.get(number=number)
            for n, count in enumerate(plan):
                if n:
                    round_ = services.round_start(event=event, by=event.organiser, seed=round_.number + 1)
                    _vacuum_analyze()
                runs.append(_run([a, b][:count], [a, b], event, token, round_, streams, out))
        finally:
            for instance in (a, b):
                instance.stop()
            for instance in (a, b):
                instance.wait()
            if event is not None:
                event.delete()
                Player.objects.filter(pk__in=[p.pk for p in created]).delete()
            publish.reset_sender()
        shutil.rmtree(directory, ignore_errors=True)  # the instances' logs, kept when a run failed

    rows = [row for m in runs for row in _rows(m)]
    one = [m["results_per_s"] for m in runs if m["web_instances"] == 1]
    two = [m["results_per_s"] for m in runs if m["web_instances"] == 2]
    growth = round((sum(two) / len(two)) / (sum(one) / len(one)), 2)
    rows.append(("results/s with 2 web instances ÷ with 1 (mean of the runs)", f"{growth:.2f}×"))
    load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else []
    figures = {
        "runs": runs,
        "growth": growth,
        "players": players,
        "clients": CLIENTS,
        "web_workers_per_instance": WEB_WORKERS,
        "streams_workers_per_instance": STREAMS_WORKERS,
        "cpus": os.cpu_count(),
        "loadavg": [float(x) for x in load],
        "lost_events": sum(m["lost_events"] for m in runs),
        "5xx": sum(m["5xx"] for m in runs),
        "cross_instance_deliveries": sum(m["cross_instance_deliveries"] for m in runs),
    }
    return rows, figures
