"""The live push under load: a judge's entry committed to the moment a subscribed overlay receives it.

Set up on the configured database (PostgreSQL, with ``REDIS_URL``): a Deck Masters
event with a round paired and a game in progress at table 1.  The production ASGI
server is started on this machine: uvicorn with 2 workers serving
``config.asgi``, its live push over Redis pub/sub on a private channel.  A client
process holds N Server-Sent Events connections to the event's stream (1, 100 and
1,000: every connection on one event, the worst case of the fan-out), and this
process records judge entries through the service layer, as a request does
(``game_event_append``), one every 100 ms.

* **Latency**: from the entry's commit (an ``on_commit`` callback registered
  before the service's own, so it runs right after the COMMIT) to the moment each
  connection has read the entry's event (CLOCK_MONOTONIC, shared by the
  processes of this machine): p50, p95, p99 and the worst over every
  connection and entry.
* **Memory per idle subscriber**: the resident memory of the uvicorn workers
  with 1,000 idle connections, less without any, divided by 1,000.
* **Reconnect storm**: with 1,000 connections open and entries being recorded,
  every connection drops and reconnects at once with its ``Last-Event-ID``; the
  events each connection missed (of those numbered while it was connected or
  away) and the ones it received twice are counted.

Without PostgreSQL and Redis the benchmark says why and stops.  The event and its
players are deleted afterwards.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import re
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from bench import organiser as bench_organiser
from bench import server_environment
from bench.reports import _database_url, _free_port, _percentile, _require_services

ROOT = Path(__file__).resolve().parent.parent
WORKERS = 2
SIZES = (1, 100, 1000)
ENTRIES = 40
SPACING = 0.1
_ENTRY = re.compile(rb'"entry":\{"seq":(\d+)')


def _now() -> float:
    return time.clock_gettime(time.CLOCK_MONOTONIC)


# --- the client process: N stream connections --------------------------------------------------------------------


class _Connection:
    def __init__(self, port: int, path: str) -> None:
        self.port, self.path = port, path
        self.last_id: int | None = None
        self.received: list[tuple[int, int, float]] = []  # (live id, entry seq or 0, time read)
        self.task: asyncio.Task | None = None
        self.ready = asyncio.Event()

    async def run(self, last_id: int | None) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        extra = f"Last-Event-ID: {last_id}\r\n" if last_id is not None else ""
        writer.write(
            f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n{extra}\r\n".encode()
        )
        await writer.drain()
        try:
            current = None
            while True:
                line = await reader.readline()
                if not line:
                    return
                at = _now()
                if line.startswith(b"retry:"):
                    self.ready.set()
                elif line.startswith(b"id: "):
                    current = int(line[4:])
                elif line.startswith(b"data: ") and current is not None:
                    match = _ENTRY.search(line)
                    self.received.append((current, int(match.group(1)) if match else 0, at))
                    self.last_id = current
                    current = None
        finally:
            writer.close()


async def _client_main(conn, port: int, path: str) -> None:
    loop = asyncio.get_running_loop()
    connections: list[_Connection] = []

    async def open_all(items: list[_Connection], last: list[int | None]) -> None:
        for c, last_id in zip(items, last, strict=True):
            c.ready = asyncio.Event()
            c.task = loop.create_task(c.run(last_id))
        await asyncio.wait_for(asyncio.gather(*(c.ready.wait() for c in items)), timeout=120)

    while True:
        command = await loop.run_in_executor(None, conn.recv)
        name = command[0]
        if name == "open":
            new = [_Connection(port, path) for _ in range(command[1])]
            await open_all(new, [command[2]] * len(new))
            connections.extend(new)
            conn.send("ok")
        elif name == "take":
            conn.send([c.received for c in connections])
            for c in connections:
                c.received = []
        elif name == "reconnect":
            for c in connections:
                c.task.cancel()
            await asyncio.gather(*(c.task for c in connections), return_exceptions=True)
            started = _now()
            await open_all(connections, [c.last_id for c in connections])
            conn.send(_now() - started)
        elif name == "close":
            for c in connections:
                c.task.cancel()
            await asyncio.gather(*(c.task for c in connections), return_exceptions=True)
            connections = []
            conn.send("ok")
        elif name == "exit":
            return


def _client_process(conn, port: int, path: str) -> None:
    _raise_open_files()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(_client_main(conn, port, path))


def _raise_open_files() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))


# --- the server -----------------------------------------------------------------------------------------------------


class _Server:
    def __init__(self, channel: str) -> None:
        self.port = _free_port()
        self.channel = channel
        self.log = tempfile.NamedTemporaryFile(prefix="bench-live-", suffix=".log", delete=False)  # noqa: SIM115

    def __enter__(self) -> _Server:
        from django.conf import settings

        _raise_open_files()
        env = server_environment(
            _database_url(), REDIS_URL=settings.REDIS_URL, PODIUM_LIVE_REDIS_URL=settings.REDIS_URL,
            PODIUM_LIVE_CHANNEL=self.channel, ALLOWED_HOSTS="127.0.0.1",
            PODIUM_TASK_QUEUE=f"bench-live-{uuid.uuid4().hex[:8]}", LOG_LEVEL="WARNING",
        )  # fmt: skip
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--workers", str(WORKERS), "--host",
             "127.0.0.1", "--port", str(self.port), "--no-access-log", "--backlog", "4096"],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        import http.client

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"uvicorn exited at start (is the database migrated?): see {self.log.name}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/api/v1/formats/")
                if conn.getresponse().status == 200 and len(self.workers()) == WORKERS:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        self.__exit__()
        raise RuntimeError(f"uvicorn did not answer within 60 s: see {self.log.name}")

    def workers(self) -> list[int]:
        """The uvicorn worker processes: the children of the process started (read from /proc)."""
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.process.pid:  # the parent's pid
                cmdline = (stat.parent / "cmdline").read_bytes()
                if b"spawn_main" in cmdline and b"resource_tracker" not in cmdline:
                    found.append(int(stat.parent.name))
        return found

    def rss_kib(self) -> int:
        total = 0
        for pid in self.workers():
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        return total

    def __exit__(self, *exc) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


# --- the judge ------------------------------------------------------------------------------------------------------


def _setup(organiser):
    from django.utils import timezone

    from games import services as game_services
    from tournaments import services
    from tournaments.models import Player

    event = services.event_create(
        organiser=organiser, name=f"bench live {uuid.uuid4().hex[:8]}", format="deck-masters", planned_rounds=3,
        date=timezone.localdate(),
    )  # fmt: skip
    players = [Player.objects.create(display_name=f"Bench Duelist {n}") for n in range(4)]
    for player in players:
        services.registration_create(event=event, by=organiser, player=player, checked_in=True)
    round_ = services.round_start(event=event, by=organiser, seed=1)
    pod = round_.pods.get(table_number=1)
    game = game_services.game_create(pod=pod, by=organiser)
    return event, players, game


class _Judge:
    """Records entries on the game: LP changes that never end it, one after the other."""

    def __init__(self, game, organiser) -> None:
        self.game, self.organiser = game, organiser
        self.committed: dict[int, float] = {}  # entry seq -> commit time
        self.players = list(game.players)
        self.record("start_turn", {"player": self.players[0]})

    def record(self, type_: str, data: dict) -> None:
        from django.db import transaction

        from games import services as game_services

        seq = self.game.version + 1
        with transaction.atomic():
            transaction.on_commit(lambda: self.committed.__setitem__(seq, _now()))
            self.game, _ = game_services.game_event_append(
                game=self.game, expected_version=self.game.version, type=type_, data=data, by=self.organiser
            )

    def entry(self) -> None:
        # Losses and gains in turn: the duel goes on for as long as the benchmark does.
        target = self.players[self.game.version % 2]
        amount = -100 if self.game.version % 4 < 2 else 100
        self.record("lp_change", {"changes": {str(target): amount}})


def _latencies(received: list[list[tuple[int, int, float]]], committed: dict[int, float]) -> list[float]:
    return [(at - committed[entry]) * 1000 for rows in received for _, entry, at in rows if entry in committed]


def run(*, quick: bool, out) -> tuple[list[tuple[str, str]], dict]:
    _require_services("live")
    from django.db.models import Max

    from live.models import LiveEvent
    from tournaments.models import Player

    sizes = (1, 50, 200) if quick else SIZES
    entries = 10 if quick else ENTRIES
    organiser = bench_organiser()
    event, players, game = _setup(organiser)
    rows: list[tuple[str, str]] = []
    figures: dict = {"workers": WORKERS, "entries": entries, "spacing_ms": int(SPACING * 1000)}
    channel = f"podium:live:bench:{uuid.uuid4().hex[:12]}"
    path = f"/api/v1/events/{event.pk}/stream/"
    try:
        from django.conf import settings
        from django.test import override_settings

        from live import publish, selectors

        with (
            override_settings(PODIUM_LIVE_REDIS_URL=settings.REDIS_URL, PODIUM_LIVE_CHANNEL=channel),
            _Server(channel) as server,
        ):
            publish.reset_sender()
            judge = _Judge(game, organiser)
            context = multiprocessing.get_context("spawn")
            parent, child = context.Pipe()
            client = context.Process(target=_client_process, args=(child, server.port, path), daemon=True)
            client.start()
            try:
                time.sleep(1.0)
                idle_before = server.rss_kib()
                opened = 0
                for size in sizes:
                    parent.send(("open", size - opened, selectors.last_seq(event_id=event.pk)))
                    parent.recv()
                    opened = size
                    if size == sizes[-1]:
                        time.sleep(2.0)
                        per_subscriber = (server.rss_kib() - idle_before) / size
                    parent.send(("take",))
                    parent.recv()
                    judge.committed.clear()
                    out.write(f"{size} subscriber(s): {entries} entries, one every {SPACING * 1000:.0f} ms ...")
                    for _ in range(entries):
                        judge.entry()
                        time.sleep(SPACING)
                    time.sleep(1.5)
                    parent.send(("take",))
                    received = parent.recv()
                    ms = _latencies(received, judge.committed)
                    expected = size * entries
                    p50, p95, p99 = (_percentile(ms, p) for p in (50, 95, 99))
                    rows.append((f"entry committed -> read, {size} subscriber(s): p50 / p95 / p99 / max",
                                 f"{p50:.1f} / {p95:.1f} / {p99:.1f} / {max(ms):.1f} ms ({len(ms)} of {expected})"))  # fmt: skip
                    figures[f"latency_ms_{size}"] = {
                        "p50": round(p50, 1), "p95": round(p95, 1), "p99": round(p99, 1), "max": round(max(ms), 1),
                        "received": len(ms), "expected": expected,
                    }  # fmt: skip
                rows.append((f"memory per idle subscriber ({sizes[-1]} connections, {WORKERS} uvicorn workers)",
                             f"{per_subscriber:.0f} KiB"))  # fmt: skip
                figures["memory_per_idle_subscriber_kib"] = round(per_subscriber, 1)

                # The storm: everyone drops and reconnects with Last-Event-ID while entries go on.
                parent.send(("take",))
                parent.recv()
                first = selectors.last_seq(event_id=event.pk)
                out.write(f"reconnect storm: {sizes[-1]} connections drop and reconnect while entries go on ...")
                for n in range(60):
                    if n == 15:
                        parent.send(("reconnect",))
                    judge.entry()
                    time.sleep(0.02)
                reconnect_s = parent.recv()
                time.sleep(2.0)
                parent.send(("take",))
                received = parent.recv()
                last = LiveEvent.objects.filter(event=event).aggregate(top=Max("seq"))["top"]
                expected_ids = set(range(first + 1, last + 1))
                missed = sum(len(expected_ids - {row[0] for row in rows_}) for rows_ in received)
                twice = sum(len(rows_) - len({row[0] for row in rows_}) for rows_ in received)
                rows.append((f"reconnect storm, {sizes[-1]} clients with Last-Event-ID: events missed / twice",
                             f"{missed} / {twice} of {len(expected_ids)} each; all back in {reconnect_s:.2f} s"))  # fmt: skip
                figures["storm"] = {
                    "clients": sizes[-1], "events": len(expected_ids), "missed": missed, "twice": twice,
                    "reconnect_s": round(reconnect_s, 2),
                }  # fmt: skip
                parent.send(("close",))
                parent.recv()
                parent.send(("exit",))
            finally:
                client.join(timeout=30)
                if client.is_alive():
                    client.kill()
                publish.reset_sender()
    finally:
        event.delete()
        Player.objects.filter(pk__in=[p.pk for p in players]).delete()
    return rows, figures
