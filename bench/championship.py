"""A championship on the production topology: every player's page live while a round's results arrive and the next
round is paired.

The processes of ``deploy/Procfile`` are started on this machine: gunicorn with 4 sync workers (pages and the API),
uvicorn with 2 workers (the live streams), one Celery worker and one beat, on PostgreSQL and Redis (a private live
channel and task queue).  The configured database gets the events: by default one Deck Masters event of 4,000
checked-in players (``--events 20 --players 200``: twenty events of 200 at once), round 1 paired, 8 stream stations
per event, each on one of the first tables, and an overlay token.

A client process (two, each with its own asyncio loop and a raised open-files limit, as :mod:`bench.live` holds its
streams) opens what the pages open:

* **a player's page** (``/me/``, ``accounts/_live_panel.html``): the player's own stream of the event,
  ``/api/v1/events/{id}/stream/?player=P&last_event_id=N`` (the round, the timer, the standings and the player's
  tables' news), one for every player of every event;
* **an overlay** (``/live/events/{id}/stations/{slug}/?token=KEY``, ``live/overlay_feature.html``): its station's
  stream, ``/api/v1/events/{id}/stations/{slug}/stream/?last_event_id=N`` (the stream itself asks for no token;
  the overlay's token is for its data URL), 50 in all, spread over the stations;
* **a venue display** (``/live/events/{id}/display/``): the event's stream, 5 in all.

A stream that drops reconnects after the server's ``retry`` with ``Last-Event-ID``, as a browser does.  Then 32
client threads enter every table's result of round 1 as staff, through the API (``bench.reports``), and the
organiser starts round 2 of every event at once (``POST /api/v1/events/{id}/rounds/``).

Figures: the writes' latency (p50, p95, p99, max); for the ``round.started`` event of round 2, the time from the
round-start request's answer until each stream has it (p95 and max over every stream: below zero when the streams
had it before the answer came back, as the event is sent once the round commits; the same from the request sent
too; the clocks are CLOCK_MONOTONIC, shared by the processes of this machine); the uvicorn workers' resident memory with the streams
open, less before, per stream; errors: answers 5xx (writes, round starts and streams), events lost (every live
event numbered after a stream opened that its stream should carry and never did) and streams dropped.  Targets,
each with ``met``: no event lost, no 5xx, and every stream with the next round's pairing within 2 s.

``--quick``, a smoke run: one event of 120 players, then three of 30 at once, 6 overlays and 2 displays, on 2 web
workers and one Celery process.  Without PostgreSQL and Redis the benchmark says why and stops.  The events and
their players are deleted afterwards.
"""

from __future__ import annotations

import asyncio
import bisect
import http.client
import json
import multiprocessing
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from bench import server_environment
from bench.live import _now, _raise_open_files
from bench.live import _Server as _Streams
from bench.reports import (
    GUNICORN_CONFIG,
    ROOT,
    WEB_WORKERS,
    _database_url,
    _free_port,
    _new_event,
    _organiser,
    _percentile,
    _require_services,
    _send,
    _tables,
    _vacuum_analyze,
)
from bench.reports import (
    _enter_results as enter_results,
)

CLIENTS = 32
OVERLAYS = 50
DISPLAYS = 5
STATIONS = 8
CLIENT_PROCESSES = 2
#: Every stream has the next round's pairing within this long of the round start.
TARGET_S = 2.0

_FRAME = re.compile(rb"id: (\d+)\nevent: ([\w.]+)\ndata: ")
_STATUS = re.compile(rb"HTTP/1\.[01] (\d{3})")


# --- the client processes: the streams ------------------------------------------------------------------------------


class _Stream(asyncio.Protocol):
    """One page's stream, read as a browser's EventSource would: counts the events, notes when each round started."""

    def __init__(self, holder: _Holder, index: int, path: str, since: int) -> None:
        self.holder, self.index, self.path = holder, index, path
        self.since = since
        self.last = since
        self.count = 0  # events after ``since`` (no snapshot), each id once
        self.twice = 0
        self.drops = 0
        self.errors = 0  # answers 5xx
        self.other = 0  # other answers than 200
        self.refused = 0  # connections refused ten times over
        self.rounds: dict[int, float] = {}
        self.ready = asyncio.Event()
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.status: int | None = None
        self.closing = False

    async def open(self) -> None:
        loop = asyncio.get_running_loop()
        for _ in range(10):
            if self.closing:
                return
            self.status, self.buffer = None, b""
            try:
                await loop.create_connection(lambda: self, "127.0.0.1", self.holder.port)
                return
            except OSError:
                await asyncio.sleep(1.0)
        self.refused += 1  # no connection in 10 tries: the stream is gone
        self.ready.set()

    def connection_made(self, transport) -> None:
        self.transport = transport
        joint = "&" if "?" in self.path else "?"
        since = f"{joint}last_event_id={self.last}" if self.last is not None else ""
        transport.write(
            f"GET {self.path}{since} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
        )

    def data_received(self, data: bytes) -> None:
        at = _now()
        buffer = self.buffer + data
        if self.status is None:
            found = _STATUS.match(buffer)
            if found is None:
                self.buffer = buffer
                return
            self.status = int(found.group(1))
            if self.status != 200:
                if self.status >= 500:
                    self.errors += 1
                else:
                    self.other += 1
                self.transport.close()
                return
        if not self.ready.is_set() and b"retry:" in buffer:
            self.ready.set()
        end = buffer.rfind(b"\n\n")
        if end < 0:
            self.buffer = buffer
            return
        self.buffer = buffer[end + 2 :]
        for found in _FRAME.finditer(buffer, 0, end + 2):
            seq, kind = int(found.group(1)), found.group(2)
            if kind == b"snapshot":  # what came before it is in it
                self.last = max(self.last or 0, seq)
                continue
            if self.last is not None and seq <= self.last:
                self.twice += 1
                continue
            self.last = seq
            self.count += 1
            if kind == b"round.started":
                line = buffer[found.end() : buffer.index(b"\n", found.end())]
                number = json.loads(line)["round"]["number"]
                self.rounds.setdefault(number, at)

    def connection_lost(self, exc) -> None:
        self.transport = None
        if not self.closing:
            self.drops += 1
            self.ready.set()  # whoever waits for it: it answered, or it never will
            asyncio.get_running_loop().call_later(1.0, lambda: asyncio.ensure_future(self.open()))


class _Holder:
    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: list[_Stream] = []


async def _client_main(conn, port: int) -> None:
    loop = asyncio.get_running_loop()
    holder = _Holder(port)
    while True:
        command = await loop.run_in_executor(None, conn.recv)
        name = command[0]
        if name == "open":  # [(index, path, since)], in batches so the server's backlog is never the limit
            started = _now()
            for start in range(0, len(command[1]), 250):
                batch = [_Stream(holder, index, path, since) for index, path, since in command[1][start : start + 250]]
                holder.streams.extend(batch)
                await asyncio.gather(*(s.open() for s in batch))
                await asyncio.wait_for(asyncio.gather(*(s.ready.wait() for s in batch)), timeout=120)
            conn.send(_now() - started)
        elif name == "take":
            conn.send(
                [
                    {"index": s.index, "since": s.since, "last": s.last, "count": s.count, "twice": s.twice,
                     "drops": s.drops, "errors": s.errors, "other": s.other, "refused": s.refused, "rounds": s.rounds}
                    for s in holder.streams
                ]
            )  # fmt: skip
        elif name == "close":
            for s in holder.streams:
                s.closing = True
                if s.transport is not None:
                    s.transport.close()
            await asyncio.sleep(0.2)
            conn.send("ok")
            return


def _client_process(conn, port: int) -> None:
    _raise_open_files()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(_client_main(conn, port))


class _Clients:
    """``CLIENT_PROCESSES`` processes holding the streams between them."""

    def __init__(self, port: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipes, self.processes = [], []
        for _ in range(CLIENT_PROCESSES):
            parent, child = context.Pipe()
            process = context.Process(target=_client_process, args=(child, port), daemon=True)
            process.start()
            self.pipes.append(parent)
            self.processes.append(process)

    def open(self, streams: list[tuple[int, str, int]]) -> float:
        for n, pipe in enumerate(self.pipes):
            pipe.send(("open", streams[n :: len(self.pipes)]))
        return max(pipe.recv() for pipe in self.pipes)

    def take(self) -> list[dict]:
        for pipe in self.pipes:
            pipe.send(("take",))
        return sorted((row for pipe in self.pipes for row in pipe.recv()), key=lambda row: row["index"])

    def close(self) -> None:
        for pipe in self.pipes:
            try:
                pipe.send(("close",))
                pipe.recv()
            except (OSError, EOFError):
                pass
        for process in self.processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()


# --- the site: gunicorn, a Celery worker and beat (uvicorn: bench.live's server) ------------------------------------


class _Site:
    def __init__(self, channel: str, *, quick: bool) -> None:
        from django.conf import settings

        # A smoke run (--quick) starts fewer processes: 2 web workers, 1 Celery process.
        self.web_workers, self.concurrency = (2, 1) if quick else (WEB_WORKERS, 2)
        self.port = _free_port()
        self.queue = f"podium-bench-{uuid.uuid4().hex[:8]}"
        self.dir = Path(tempfile.mkdtemp(prefix="podium-bench-championship-"))
        self.worker_log = self.dir / "worker.log"
        self.env = server_environment(
            _database_url(), ALLOWED_HOSTS="127.0.0.1,localhost", PODIUM_TASK_QUEUE=self.queue,
            PODIUM_LIVE_REDIS_URL=settings.REDIS_URL, PODIUM_LIVE_CHANNEL=channel,
            # The staff's clients enter results as fast as they can: the per-account write limit would be measured.
            PODIUM_WRITE_RATE="1000000/min",
        )  # fmt: skip
        self.processes: list[subprocess.Popen] = []

    def start(self) -> None:
        """Start the processes (:meth:`__enter__` waits for them to answer), so others can start meanwhile."""
        python = sys.executable
        web = [python, "-m", "gunicorn", "-c", str(GUNICORN_CONFIG), "config.wsgi", "--workers", str(self.web_workers),
               "--bind", f"127.0.0.1:{self.port}", "--log-level", "warning", "--timeout", "120"]  # fmt: skip
        worker = [python, "-m", "celery", "-A", "config", "worker", "-Q", self.queue, "-n", f"{self.queue}@localhost",
                  "--concurrency", str(self.concurrency), "--loglevel", "INFO", "--without-gossip", "--without-mingle", "--logfile", str(self.worker_log)]  # fmt: skip
        beat = [python, "-m", "celery", "-A", "config", "beat", "--loglevel", "WARNING",
                "--schedule", str(self.dir / "beat-schedule")]  # fmt: skip
        with open(self.dir / "output.log", "ab") as output:
            for command in (web, worker, beat):
                self.processes.append(
                    subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=output, stderr=subprocess.STDOUT)
                )

    def __enter__(self) -> _Site:
        if not self.processes:
            self.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if any(p.poll() is not None for p in self.processes):
                self.__exit__()
                raise RuntimeError(f"gunicorn, the Celery worker or beat exited at start: see {self.dir}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/api/v1/formats/")
                ready = conn.getresponse().status == 200
                conn.close()
            except OSError:
                ready = False
            if ready and self.worker_log.exists() and "ready." in self.worker_log.read_text():
                return self
            time.sleep(0.2)
        self.__exit__()
        raise RuntimeError(f"gunicorn or the Celery worker did not start within 60 s: see {self.dir}")

    def __exit__(self, *exc) -> None:
        # Nothing of theirs outlives the run: gunicorn's quick shutdown (SIGINT), Celery's cold one (SIGQUIT).
        for p, sig in zip(self.processes, (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM), strict=False):
            p.send_signal(sig)
        for p in self.processes:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()


# --- the events -----------------------------------------------------------------------------------------------------


def _setup(events: int, players: int, out, *, quick: bool):
    """``events`` events of ``players`` checked-in players, round 1 paired, stations on the first tables, a token."""
    from live import services as live_services
    from tournaments import services
    from tournaments.models import Player, Registration

    organiser, token = _organiser()
    made = []
    out.write(f"setting up {events} event(s) of {players} players, round 1 paired ...")
    for n in range(events):
        event = _new_event(organiser, name=f"bench championship {n + 1}")
        created = Player.objects.bulk_create(Player(display_name=f"bench {n}-{i}") for i in range(players))
        Registration.objects.bulk_create(Registration(event=event, player=p, checked_in=True) for p in created)
        round_ = services.round_start(event=event, by=organiser, seed=n + 1)
        stations = []
        for s in range(min(STATIONS, players // 2)):
            station = live_services.station_create(event=event, slug=f"stream-{s + 1}", by=organiser)
            live_services.station_update(station=station, by=organiser, table_number=s + 1)
            stations.append(station.slug)
        _, key = live_services.overlay_token_create(event=event, label="OBS laptop", by=organiser)
        made.append({"event": event, "players": created, "tables": _tables(round_), "stations": stations, "key": key})
    if (
        not quick
    ):  # the planner's figures, as autovacuum would have them (bench.reports); a smoke run's tables are small
        _vacuum_analyze("live_liveevent")
    return organiser, token, made


def _settled(event_ids: list[int], timeout: float = 10.0) -> None:
    """Wait until every live event written so far is numbered (the publisher threads and the sweep number them)."""
    from live.models import LiveEvent

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and LiveEvent.objects.filter(event_id__in=event_ids, seq__isnull=True).exists():
        time.sleep(0.05)


type _Key = tuple[int, str | None, int | None]


def _carried(event_ids: list[int], keys: set[_Key]) -> dict[_Key, list[int]]:
    """The numbers of the live events each stream (``(event id, station or None, player or None)``) carries, in
    order."""
    from live.models import LiveEvent
    from live.publish import Message

    by_event: dict[int, list[Message]] = {}
    for row in LiveEvent.objects.filter(event_id__in=event_ids, seq__isnull=False):
        by_event.setdefault(row.event_id, []).append(Message.of(row))
    # A player's stream: every player's events, and its own tables' (indexed once: thousands of players' streams).
    everyones: dict[int, list[int]] = {}
    players: dict[tuple[int, int], list[int]] = {}
    for event_id, messages in by_event.items():
        everyones[event_id] = [m.seq for m in messages if m.players is None]
        for m in messages:
            for player in m.players or ():
                players.setdefault((event_id, player), []).append(m.seq)
    carried: dict[_Key, list[int]] = {}
    for key in keys:
        event_id, station, player = key
        if player is not None and station is None:
            carried[key] = sorted(everyones.get(event_id, []) + players.get((event_id, player), []))
        else:
            carried[key] = sorted(m.seq for m in by_event.get(event_id, []) if m.for_stream(station, player))
    return carried


def _lost(row: dict, carried: list[int]) -> int:
    """What a stream should have had after it opened and never read: the gaps before its last event, and the
    events after it that it never received."""
    should = len(carried) - bisect.bisect_right(carried, row["since"])
    return max(0, should - row["count"])


def _start_rounds(port: int, token: str, event_ids: list[int]) -> dict[int, tuple[int, float, float]]:
    """The next round of every event started at once, one thread each: ``{event id: (status, sent, answered)}``."""
    answers: dict[int, tuple[int, float, float]] = {}
    barrier = threading.Barrier(len(event_ids))

    def start(event_id: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        barrier.wait()
        sent = _now()
        status, _, _, _ = _send(conn, "POST", f"/api/v1/events/{event_id}/rounds/", token, {"allow_rematches": True})
        answers[event_id] = (status, sent, _now())
        conn.close()

    threads = [threading.Thread(target=start, args=(e,)) for e in event_ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def _one(
    events: int, players: int, site: _Site, streams_server: _Streams, out, *, quick: bool
) -> tuple[list[tuple[str, str]], dict]:
    from live.models import LiveEvent
    from tournaments.models import Player

    organiser, token, made = _setup(events, players, out, quick=quick)
    event_ids = [m["event"].pk for m in made]
    label = f"{events} event(s) × {players} players"
    try:
        _settled(event_ids)
        since = {e: LiveEvent.objects.filter(event_id=e).order_by("-seq").values_list("seq", flat=True).first() or 0
                 for e in event_ids}  # fmt: skip
        # What each page opens, and what it is: (index, path, since); kinds[index] = (event id, station, player,
        # page).
        streams: list[tuple[int, str, int]] = []
        kinds: list[tuple[int, str | None, int | None, str]] = []

        def add(event_id: int, station: str | None, page: str, player: int | None = None) -> None:
            path = f"/api/v1/events/{event_id}/" + (f"stations/{station}/" if station else "") + "stream/"
            path += f"?player={player}" if player is not None else ""
            streams.append((len(streams), path, since[event_id]))
            kinds.append((event_id, station, player, page))

        for m in made:
            for p in m["players"]:
                add(m["event"].pk, None, "player", p.pk)
        overlays, displays = (6, 2) if quick else (OVERLAYS, DISPLAYS)
        slots = [(m["event"].pk, slug) for m in made for slug in m["stations"]]
        for n in range(overlays):
            add(*slots[n % len(slots)], "overlay")
        for n in range(displays):
            add(made[n % len(made)]["event"].pk, None, "display")

        pause = 0.5 if quick else 2.0
        rss_before = streams_server.rss_kib()
        clients = _Clients(streams_server.port)
        try:
            out.write(f"{label}: opening {len(streams)} streams ...")
            open_s = clients.open(streams)
            time.sleep(pause)
            rss_open = streams_server.rss_kib()
            per_stream = (rss_open - rss_before) / len(streams)
            tables = [(m["event"].pk, table) for m in made for table in m["tables"]]
            out.write(f"{label}: {len(tables)} results from {CLIENTS} clients ...")
            latencies, statuses, wall = _enter_results(site.port, token, tables)
            out.write(f"{label}: round 2 started for {events} event(s) at once ...")
            answers = _start_rounds(site.port, token, event_ids)
            # Every stream has had time to get it (or has shown it never will).
            deadline = time.monotonic() + 60
            rows = clients.take()
            while time.monotonic() < deadline and not all(2 in r["rounds"] for r in rows):
                time.sleep(0.2)
                rows = clients.take()
            rss_after = streams_server.rss_kib()
            # Every live event numbered by now should reach its streams: wait for them (10 s at most).
            time.sleep(pause)
            _settled(event_ids)
            # What the database has numbered is read again on every look: an event a late sweep numbers (a
            # standings recompute's) is waited for too, rather than counted lost the moment it is numbered.
            deadline = time.monotonic() + 10
            while True:
                carried = _carried(event_ids, {k[:3] for k in kinds})
                rows = clients.take()
                behind = any(
                    r["last"] < carried[kinds[r["index"]][:3]][-1] for r in rows if carried[kinds[r["index"]][:3]]
                )
                if not behind or time.monotonic() >= deadline:
                    break
                time.sleep(0.2)
        finally:
            clients.close()
    finally:
        for m in made:
            m["event"].delete()
            Player.objects.filter(pk__in=[p.pk for p in m["players"]]).delete()

    # --- the figures
    answered = [answers[kinds[r["index"]][0]] for r in rows]
    waits = [r["rounds"][2] - at for r, (_, _, at) in zip(rows, answered, strict=True) if 2 in r["rounds"]]
    from_sent = [r["rounds"][2] - at for r, (_, at, _) in zip(rows, answered, strict=True) if 2 in r["rounds"]]
    round_start_ms = [(done - sent) * 1000 for _, sent, done in answers.values()]
    missing = sum(1 for r in rows if 2 not in r["rounds"])
    lost = sum(_lost(r, carried[kinds[r["index"]][:3]]) for r in rows)
    events_expected = sum(
        len(c) - bisect.bisect_right(c, r["since"]) for r in rows for c in [carried[kinds[r["index"]][:3]]]
    )
    twice = sum(r["twice"] for r in rows)
    drops = sum(r["drops"] + r["refused"] for r in rows)
    stream_5xx = sum(r["errors"] for r in rows)
    write_5xx = sum(1 for s in statuses if s >= 500)
    start_5xx = sum(1 for s, _, _ in answers.values() if s >= 500)
    no_answer = sum(1 for s in statuses if s == 0) + sum(1 for s, _, _ in answers.values() if s == 0)
    ok = sum(1 for s in statuses if s in (200, 201))
    started_ok = sum(1 for s, _, _ in answers.values() if s == 201)
    p50, p95, p99 = (_percentile(latencies, p) for p in (50, 95, 99))
    wait_p95 = _percentile(waits, 95) if waits else None
    wait_max = max(waits) if waits else None
    within = missing == 0 and wait_max is not None and wait_max <= TARGET_S
    errors_5xx = write_5xx + start_5xx + stream_5xx
    by_page = {page: sum(1 for k in kinds if k[3] == page) for page in ("player", "overlay", "display")}
    figures = {
        "events": events, "players": players, "streams": len(rows), "pages": by_page,
        "open_s": round(open_s, 2),
        "writes": len(statuses), "writes_ok": ok, "clients": CLIENTS, "web_workers": site.web_workers,
        "write_p50_ms": round(p50, 1), "write_p95_ms": round(p95, 1), "write_p99_ms": round(p99, 1),
        "write_max_ms": round(max(latencies), 1), "writes_per_s": round(len(statuses) / wall, 1),
        "rounds_started": started_ok,
        "pairing_p95_s": None if wait_p95 is None else round(wait_p95, 3),
        "pairing_max_s": None if wait_max is None else round(wait_max, 3),
        "pairing_missing": missing,
        "pairing_from_request_p95_s": None if not from_sent else round(_percentile(from_sent, 95), 3),
        "pairing_from_request_max_s": None if not from_sent else round(max(from_sent), 3),
        "round_start_ms": {"p50": round(_percentile(round_start_ms, 50), 1), "max": round(max(round_start_ms), 1)},
        "memory_per_stream_kib": round(per_stream, 1),
        "uvicorn_rss_mib": {"before": round(rss_before / 1024, 1), "open": round(rss_open / 1024, 1),
                            "after": round(rss_after / 1024, 1)},
        "errors": {"5xx": errors_5xx, "writes_5xx": write_5xx, "round_starts_5xx": start_5xx,
                   "streams_5xx": stream_5xx, "streams_other_answers": sum(r["other"] for r in rows), "no_answer": no_answer, "lost_events": lost, "twice": twice,
                   "streams_dropped": drops},
        "events_expected": events_expected,
        "targets": {
            "no_lost_events": {"target": 0, "value": lost, "met": lost == 0},
            "no_5xx": {"target": 0, "value": errors_5xx, "met": errors_5xx == 0},
            "pairing_within_2s": {"target": TARGET_S, "value": None if wait_max is None else round(wait_max, 3),
                                  "missing": missing, "met": within},
        },
    }  # fmt: skip
    shown = "never" if wait_max is None else f"{wait_p95:.2f} / {wait_max:.2f} s"
    table = [
        (f"{label}: streams held (players / overlays / displays)",
         f"{len(rows)} ({by_page['player']} / {by_page['overlay']} / {by_page['display']}), opened in {open_s:.1f} s"),
        (f"{label}: {len(statuses)} results, {CLIENTS} clients: answered 2xx", f"{ok} of {len(statuses)}"),
        (f"{label}: results p50 / p95 / p99 / max",
         f"{p50:.0f} / {p95:.0f} / {p99:.0f} / {max(latencies):.0f} ms, {len(statuses) / wall:.0f} results/s"),
        (f"{label}: round 2 started, every stream has it: p95 / max after the answer",
         f"{shown} ({missing} streams without it; target ≤ {TARGET_S:.0f} s: {'met' if within else 'missed'})"),
        (f"{label}: the same from the request sent; the round-start request itself (max)",
         f"{figures['pairing_from_request_p95_s']} / {figures['pairing_from_request_max_s']} s; "
         f"{max(round_start_ms):.0f} ms"),
        (f"{label}: memory per stream (uvicorn's {2} workers)", f"{per_stream:.0f} KiB"),
        (f"{label}: 5xx / events lost / streams dropped",
         f"{errors_5xx} / {lost} of {figures['events_expected']} / {drops}"),
    ]  # fmt: skip
    return table, figures


def _enter_results(port: int, token: str, tables: list[tuple[int, tuple[int, list[int]]]]):
    """Every table's result entered once by staff through the API from ``CLIENTS`` threads, the events' tables in
    turn (by ``bench.reports``' writer): latencies (ms), statuses and the wall time."""
    by_event = _by_event(tables)
    work = [
        (event_id, 1, rows[n])
        for n in range(max(len(rows) for rows in by_event.values()))
        for event_id, rows in by_event.items()
        if n < len(rows)
    ]
    latencies, statuses, wall, _ = enter_results(port, token, work, CLIENTS)
    return latencies, statuses, wall


def _by_event(tables: list[tuple[int, tuple[int, list[int]]]]) -> dict[int, list]:
    found: dict[int, list] = {}
    for event_id, table in tables:
        found.setdefault(event_id, []).append(table)
    return found


def run(*, quick: bool, out, events: int | None = None, players: int | None = None):
    _require_services("championship")
    from django.conf import settings
    from django.test import override_settings

    from config.celery import app as celery_app
    from live import publish

    if events is not None or players is not None:
        shapes = [(events or 1, players or 4000)]
    else:
        shapes = [(1, 120), (3, 30)] if quick else [(1, 4000)]
    _raise_open_files()
    channel = f"podium:live:bench:{uuid.uuid4().hex[:12]}"
    site = _Site(channel, quick=quick)
    celery_app.conf.task_default_queue = site.queue
    site.start()  # while uvicorn starts
    rows: list[tuple[str, str]] = []
    runs = []
    with (
        override_settings(PODIUM_LIVE_REDIS_URL=settings.REDIS_URL, PODIUM_LIVE_CHANNEL=channel),
        _Streams(channel) as streams_server,
        site,
    ):
        publish.reset_sender()
        try:
            for n_events, n_players in shapes:
                table, figures = _one(n_events, n_players, site, streams_server, out, quick=quick)
                rows += table
                runs.append(figures)
        finally:
            publish.reset_sender()
    return rows, {"runs": runs, "uvicorn_workers": 2, "client_processes": CLIENT_PROCESSES}
