"""Result reporting under a championship's load: real web workers, a real Celery worker, concurrent clients.

Set up on the configured database (PostgreSQL, with ``REDIS_URL``): an event
of 4,000 checked-in Deck Masters players (100 with ``--quick``, a smoke run)
whose first three rounds are played (results written in bulk), and round 4
paired.  Then the processes a production site runs are started on this
machine: gunicorn with 4 sync workers serving ``config.wsgi`` and one
``celery worker`` (2 processes, with the periodic sweep), on a private queue.
Eight client threads report every table of round 4 (2,000 reports) through
``POST /api/v1/events/{id}/rounds/4/tables/{n}/result/`` with a token, each
request timed from the first byte sent to the last byte read; then round 5
is paired and 32 clients report its 2,000 tables to the same 4 workers.

PostgreSQL's autovacuum may be off on a development machine: after its
setup the benchmark runs ``VACUUM ANALYZE`` on the tables it uses, as
autovacuum would have, so the planner knows their sizes and runs compare.

Figures: the reports' latency (p50, p95, p99, max), reports per second, how
long after the last report the stored standings were current, how many
standings recomputes the worker ran, the time one recompute takes here, and
the CPU a report cost, from the first report until the standings were current:
the web workers', the database's backends' (read from ``/proc``: a database on
this machine), the Celery worker's and the client threads', each divided by
the number of reports.  Without PostgreSQL and Redis the benchmark says why and stops.  The event and
its players are deleted afterwards.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from bench import organiser, server_environment

ROOT = Path(__file__).resolve().parent.parent
#: The gunicorn settings of the README's production command.
GUNICORN_CONFIG = ROOT / "config" / "gunicorn.conf.py"

WEB_WORKERS = 4
CLIENTS = 8
#: The second run, on the same workers: four times the clients, each waiting longer in the queue.
MORE_CLIENTS = 32
#: p95 targets (ms) per number of clients.
TARGET_P95_MS = {CLIENTS: 100, MORE_CLIENTS: 150}
PLAYED_ROUNDS = 3


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url() -> str:
    from django.db import connection

    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    auth = f"{user}:{db['PASSWORD']}" if db.get("PASSWORD") else user
    return f"postgres://{auth}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def _organiser():
    """The benchmarks' organiser (kept between runs, with the organiser permission) and its API token's key."""
    from accounts.services import account_token

    user = organiser()
    return user, account_token(user=user)


def _new_event(organiser, *, name: str, **fields):
    from django.utils import timezone

    from tournaments.models import Event

    return Event.objects.create(
        name=name, format="deck-masters", planned_rounds=9, date=timezone.localdate(), organiser=organiser, **fields
    )


def _play(event, players: list, organiser, out):
    """Check ``players`` in, play ``PLAYED_ROUNDS`` rounds (bulk results), pair the next round; returns it.

    Leaves the stored standings current.  The caller vacuums (:func:`_vacuum_analyze`) once it has
    written everything else it needs.
    """
    from django.db.models import F

    from tournaments import services
    from tournaments.models import Event, PodResult, Registration, Seat

    Registration.objects.bulk_create(Registration(event=event, player=p, checked_in=True) for p in players)
    rng = random.Random(len(players))
    out.write(f"setting up {len(players)} players with {PLAYED_ROUNDS} rounds played ...")
    for number in range(1, PLAYED_ROUNDS + 2):
        round_ = services.round_start(event=event, by=organiser, seed=number)
        if number > PLAYED_ROUNDS:
            break
        pods = list(round_.pods.filter(is_bye=False).prefetch_related("seats"))
        seats = []
        for pod in pods:
            a, b = pod.seats.all()
            a.placement, b.placement, a.points, b.points = (1, 2, 3, 0) if rng.random() < 0.5 else (2, 1, 0, 3)
            seats += [a, b]
        Seat.objects.bulk_update(seats, ["placement", "points"], batch_size=2000)
        PodResult.objects.bulk_create(PodResult(pod=p) for p in pods)
        Event.objects.filter(pk=event.pk).update(results_version=F("results_version") + 1)
    services.standings_recompute(event_id=event.pk)
    return round_


def _tables(round_) -> list[tuple[int, list[int]]]:
    """``(table number, [player id per seat, in seat order])`` of the round's tables that play (no byes)."""
    pods = round_.pods.filter(is_bye=False).prefetch_related("seats").order_by("table_number")
    return [(pod.table_number, [s.player_id for s in pod.seats.all()]) for pod in pods]


def _setup(players: int, out):
    """An event with ``PLAYED_ROUNDS`` rounds played (bulk results) and the next round paired."""
    from tournaments.models import Player

    organiser, token = _organiser()
    event = _new_event(organiser, name="bench reports")
    created = Player.objects.bulk_create(Player(display_name=f"bench {i}") for i in range(players))
    round_ = _play(event, created, organiser, out)
    _vacuum_analyze()
    return event, created, token, round_.number, _tables(round_)


#: The tables a report and a recompute read and write.
_TABLES = ("tournaments_event", "tournaments_registration", "tournaments_round", "tournaments_pod",
           "tournaments_seat", "tournaments_podresult", "tournaments_standing", "tournaments_player")  # fmt: skip


def _vacuum_analyze(*more: str) -> None:
    """What autovacuum would have done by now (it may be off on a development machine, and is on this one).

    Without it the planner still believes the tables hold what they held
    before this setup, and earlier runs' deleted rows slow every scan, so no
    two runs would compare.
    """
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM ANALYZE {', '.join((*_TABLES, *more))}")


def _one_recompute_ms(event_id: int) -> float:
    from tournaments import services

    times = []
    for _ in range(3):
        started = time.perf_counter()
        services.standings_recompute(event_id=event_id)
        times.append((time.perf_counter() - started) * 1000)
    return min(times)


class _Servers:
    """gunicorn and a Celery worker (with its periodic sweep) as child processes, on a private queue."""

    def __init__(self, out) -> None:
        self.out = out
        self.port = _free_port()
        self.queue = f"podium-bench-{uuid.uuid4().hex[:8]}"
        self.dir = Path(tempfile.mkdtemp(prefix="podium-bench-"))
        self.worker_log = self.dir / "worker.log"
        self.env = server_environment(
            _database_url(),
            ALLOWED_HOSTS="127.0.0.1,localhost",
            PODIUM_TASK_QUEUE=self.queue,
            # One organiser's clients report as fast as they can: the per-account write limit would be measured.
            PODIUM_WRITE_RATE="1000000/min",
        )
        self.processes: list[subprocess.Popen] = []

    def __enter__(self) -> _Servers:
        python = sys.executable
        web = [python, "-m", "gunicorn", "-c", str(GUNICORN_CONFIG),
               "config.wsgi", "--workers", str(WEB_WORKERS),
               "--bind", f"127.0.0.1:{self.port}", "--log-level", "warning", "--timeout", "120"]  # fmt: skip
        worker = [python, "-m", "celery", "-A", "config", "worker", "--beat", "-Q", self.queue,
                  "-n", f"{self.queue}@localhost", "--concurrency", "2", "--loglevel", "INFO",
                  "--without-gossip", "--without-mingle", "--logfile", str(self.worker_log),
                  "--schedule", str(self.dir / "beat-schedule")]  # fmt: skip
        with open(self.dir / "output.log", "ab") as output:  # what they print (the worker logs to its file)
            for command in (web, worker):
                self.processes.append(
                    subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=output, stderr=subprocess.STDOUT)
                )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if any(p.poll() is not None for p in self.processes):
                self.__exit__()
                raise RuntimeError(
                    f"gunicorn or the Celery worker exited at start (is the database migrated?): see {self.dir}"
                )
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

    def recomputes(self) -> int:
        text = self.worker_log.read_text() if self.worker_log.exists() else ""
        return len(re.findall(r"recompute_standings\[[^\]]+\] succeeded", text))

    def __exit__(self, *exc) -> None:
        for p in self.processes:
            p.terminate()
        for p in self.processes:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _process_cpu(pid: int) -> float:
    """Seconds of CPU (user + system) the process has used; 0 when it is gone or unreadable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICKS


def _tree(pid: int) -> list[int]:
    """The process and its descendants (Linux ``/proc``; just the process elsewhere)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:
            children = []
        todo += [int(c) for c in children]
    return found


def _backends() -> list[int]:
    """The PostgreSQL backends connected to this database, but this process's own (it polls the standings)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return [row[0] for row in cursor.fetchall()]


def _cpu(servers: _Servers) -> dict[str, dict[int, float]]:
    """CPU seconds so far per process: the web workers (gunicorn), the Celery worker, the database's backends.

    Read from ``/proc``, so only where the database runs on this machine (else the database's figures are 0)."""
    web, worker = (servers.processes[0].pid, servers.processes[1].pid) if servers.processes else (0, 0)
    return {
        "web": {p: _process_cpu(p) for p in _tree(web)},
        "worker": {p: _process_cpu(p) for p in _tree(worker)},
        "db": {p: _process_cpu(p) for p in _backends()},
    }


class _CpuSampler(threading.Thread):
    """Reads :func:`_cpu` every half second while the reports run, keeping each process's last figure: a database
    backend that ends meanwhile (its connection's age is up) keeps what it had used by its last reading."""

    def __init__(self, servers: _Servers) -> None:
        super().__init__(daemon=True)
        self.servers = servers
        self.seen = _cpu(servers)
        self.done = threading.Event()

    def run(self) -> None:
        from django.db import connection

        try:
            while not self.done.wait(0.5):
                self.merge(_cpu(self.servers))
        finally:
            connection.close()

    def merge(self, reading: dict[str, dict[int, float]]) -> None:
        for group, figures in reading.items():
            for pid, seconds in figures.items():
                self.seen[group][pid] = max(seconds, self.seen[group].get(pid, 0.0))

    def stop(self) -> dict[str, dict[int, float]]:
        self.done.set()
        self.join()
        self.merge(_cpu(self.servers))
        return self.seen


def _cpu_used(before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]) -> dict[str, float]:
    """Seconds of CPU each group used between the two readings (a process started meanwhile counts from 0)."""
    return {
        group: sum(max(0.0, seconds - before[group].get(pid, 0.0)) for pid, seconds in after[group].items())
        for group in after
    }


def _send(conn: http.client.HTTPConnection, method: str, path: str, token: str, body: dict | None = None):
    """One request on a kept-alive connection, timed from the first byte sent to the last byte read.

    Returns ``(status, answer, started, ended)`` (``perf_counter`` times); status 0 when no answer came
    (the connection is closed then, and the next request opens a new one).
    """
    headers = {"Authorization": f"Token {token}"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    payload = None if body is None else json.dumps(body)
    started = time.perf_counter()
    try:
        conn.request(method, path, body=payload, headers=headers)
        response = conn.getresponse()
        answer = response.read()
        status = response.status
        if response.getheader("Connection", "").lower() == "close":
            conn.close()
    except (OSError, http.client.HTTPException):
        conn.close()
        status, answer = 0, b""
    return status, answer, started, time.perf_counter()


def _require_services(area: str) -> None:
    from django.conf import settings
    from django.db import connection

    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        raise RuntimeError(
            f"bench {area} needs PostgreSQL and Redis: set DATABASE_URL=postgres://... and REDIS_URL=redis://... "
            "(and run `manage.py migrate` on that database)"
        )


def _report_all(port: int, token: str, event_id: int, number: int, tables, clients: int):
    """Every table reported once by ``clients`` threads; returns latencies (ms), statuses, wall time, last end."""
    return _enter_results(port, token, [(event_id, number, table) for table in tables], clients)


def _enter_results(port: int, token: str, work_items, clients: int):
    """Each ``(event id, round number, (table, (winner, loser)))`` entered once as staff through the API by ``clients``
    threads, in the order given; returns latencies (ms), statuses, wall time and when the last answer came."""
    work: queue.Queue = queue.Queue()
    for item in work_items:
        work.put(item)
    latencies: list[float] = []
    statuses: list[int] = []
    ends: list[float] = []
    lock = threading.Lock()

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while True:
            try:
                event_id, number, (table, (a, b)) = work.get_nowait()
            except queue.Empty:
                break
            body = {"placements": [{"player": a, "placement": 1}, {"player": b, "placement": 2}]}
            path = f"/api/v1/events/{event_id}/rounds/{number}/tables/{table}/result/"
            status, _, started, ended = _send(conn, "POST", path, token, body)
            with lock:
                latencies.append((ended - started) * 1000)
                statuses.append(status)
                ends.append(ended)
        conn.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, statuses, time.perf_counter() - started, max(ends, default=started)


def _standings_lag(event_id: int, last_report: float, timeout: float = 120.0) -> float | None:
    """Seconds from the last report's answer until the stored standings are current (polled every 20 ms)."""
    from tournaments.models import Event

    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        versions = Event.objects.filter(pk=event_id).values_list("results_version", "standings_version").first()
        if versions and versions[1] >= versions[0]:
            return max(0.0, time.perf_counter() - last_report)
        time.sleep(0.02)
    return None


def _measure(servers: _Servers, event, token: str, number: int, tables, clients: int, out) -> dict:
    """One run: every table of round ``number`` reported by ``clients`` threads; its figures."""
    before = servers.recomputes()
    out.write(f"reporting {len(tables)} tables from {clients} clients to {WEB_WORKERS} gunicorn workers ...")
    cpu_before, clients_before = _cpu(servers), time.process_time()
    sampler = _CpuSampler(servers)
    sampler.start()
    latencies, statuses, wall, last = _report_all(servers.port, token, event.pk, number, tables, clients)
    lag = _standings_lag(event.pk, last)
    time.sleep(0.5)
    # Until the standings are current: the worker's recomputes of this run's results count too.
    used = _cpu_used(cpu_before, sampler.stop())
    used["clients"] = time.process_time() - clients_before
    per_result = {group: round(seconds * 1000 / max(1, len(statuses)), 2) for group, seconds in used.items()}
    p50, p95, p99 = (_percentile(latencies, p) for p in (50, 95, 99))
    target = TARGET_P95_MS[clients]
    return {
        "reports": len(statuses),
        "ok": sum(1 for s in statuses if s in (200, 201)),
        "clients": clients,
        "p50_ms": round(p50, 1),
        "p95_ms": round(p95, 1),
        "p99_ms": round(p99, 1),
        "max_ms": round(max(latencies), 1),
        "target_p95_ms": target,
        "met": p95 <= target,
        "reports_per_s": round(len(statuses) / wall, 1),
        "wall_s": round(wall, 1),
        "standings_lag_s": None if lag is None else round(lag, 2),
        "recomputes": servers.recomputes() - before,
        "cpu_ms_per_report": per_result,
    }


def _rows(label: str, m: dict) -> list[tuple[str, str]]:
    met = "met" if m["met"] else "MISSED"
    return [
        (f"{label}: answered 2xx", f"{m['ok']} of {m['reports']}"),
        (f"{label}: latency p50 / p95 / p99 / max",
         f"{m['p50_ms']:.0f} / {m['p95_ms']:.0f} / {m['p99_ms']:.0f} / {m['max_ms']:.0f} ms "
         f"(target p95 ≤ {m['target_p95_ms']} ms: {met})"),
        (f"{label}: throughput", f"{m['reports_per_s']:.0f} reports/s over {m['wall_s']:.1f} s"),
        (f"{label}: standings current after the last report",
         "not within 120 s" if m["standings_lag_s"] is None else f"{m['standings_lag_s']:.2f} s (target ≤ 2 s)"),
        (f"{label}: standings recomputes run by the worker", f"{m['recomputes']} for {m['reports']} reports"),
        (f"{label}: CPU per report: web / database / Celery worker / client threads",
         " / ".join(f"{m['cpu_ms_per_report'][g]:.1f}" for g in ("web", "db", "worker", "clients")) + " ms"),
    ]  # fmt: skip


def run(*, quick: bool, out) -> tuple[list[tuple[str, str]], dict]:
    from django.db import connection

    from tournaments import services
    from tournaments.models import Player

    _require_services("reports")
    from config.celery import app as celery_app

    players = 100 if quick else 4000
    servers = _Servers(out)
    # Everything this process asks of Celery goes to the bench's worker too (its setup pairs rounds).
    celery_app.conf.task_default_queue = servers.queue
    event, created, token, number, tables = _setup(players, out)
    try:
        recompute_ms = _one_recompute_ms(event.pk)
        with servers:
            first = _measure(servers, event, token, number, tables, CLIENTS, out)
            # The next round, paired once every table of this one is in, for the run with more clients.
            next_round = services.round_start(event=event, by=event.organiser, seed=number + 1)
            _vacuum_analyze()
            second = _measure(servers, event, token, next_round.number, _tables(next_round), MORE_CLIENTS, out)
    finally:
        event.delete()
        Player.objects.filter(pk__in=[p.pk for p in created]).delete()

    label = f"{first['reports']} reports, {players} players, {{}} clients, {WEB_WORKERS} web workers"
    rows = [
        *_rows(label.format(CLIENTS), first),
        *_rows(label.format(MORE_CLIENTS) + f" (round {number + 1})", second),
        (f"one standings recompute, {players} players, {number} rounds (this process)", f"{recompute_ms:.0f} ms"),
    ]
    figures = {
        **{k: v for k, v in first.items()},
        "players": players,
        "web_workers": WEB_WORKERS,
        "recompute_ms": round(recompute_ms, 1),
        "more_clients": second,
        "db": connection.vendor,
    }
    return rows, figures
