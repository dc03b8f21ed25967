"""Results reported by the players themselves at a championship: the self-service flow's worst case.

Set up like ``bench reports`` (:mod:`bench.reports`, whose helpers
this reuses): a Deck Masters event of 4,000 checked-in players (100 with
``--quick``) with three rounds played in bulk and round 4 paired, but every
player has an account with an API token and the event takes player reports.
The same real processes answer: gunicorn with 4 sync workers and a Celery
worker (with its periodic sweep) on a private queue.

Two phases per number of clients (8; with 32 too, the many-clients worst
case, unless ``--quick``), each on a fresh round paired for it:

* **report, then confirm**: for every table, seat 1's player reports the
  result (placements and a 2-1 game score) through
  ``POST /api/v1/events/{id}/rounds/{n}/tables/{t}/report/`` and seat 2's
  player confirms it through ``.../confirm/`` (``{"agrees": true}``).  The
  clients take work from one queue in random order, a table's confirmation
  queued once its report is answered, so reports and confirmations interleave.
* **both at once** (the worst case): the clients work in pairs; a barrier
  releases a table's two players together, both reporting the same result,
  so one report becomes the other's confirmation.  At 10 % of the tables they
  disagree: a dispute, and no result.

While the clients write, ``READERS`` more threads read ``GET /api/v1/me/`` as
random players (the phones refreshing), without pause; they are measured
apart.  Every request is timed from the first byte sent to the last byte read.

After each phase the database is checked: every table has exactly one result
except the disputed ones, each result is what its players reported, no table
has two reports, and the disputes are the planned ones.  Between phases
(unmeasured) the staff settle the disputes in this process and the next round
is paired.  PostgreSQL's count of deadlocks in the database is read before and
after the run.  Any 5xx, deadlock, lost, wrong or extra result is printed
loudly before the table.

Figures, per phase and number of clients: the latency (p50, p95, p99, max) of
reports, of confirmations (in the second phase: the report answered second,
which confirms or disputes) and of ``/me/`` reads; writes and reads per
second; answers 2xx and anything else; tables with one result; disputes
recorded; how long after the last write the stored standings were current;
recomputes run by the worker.  The events, players and accounts are deleted
afterwards.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import uuid
from collections import Counter, deque
from dataclasses import dataclass, field

from bench.reports import (
    WEB_WORKERS,
    _new_event,
    _organiser,
    _percentile,
    _play,
    _require_services,
    _send,
    _Servers,
    _standings_lag,
    _tables,
    _vacuum_analyze,
)

CLIENTS = (8, 32)
#: Threads reading /me/ while the clients write (the same for every number of clients).
READERS = 4
#: The share of tables whose players disagree in the "both at once" phase.
DISPUTED_SHARE = 0.10
#: No phase runs longer than this (a bound on the readers' loops; the writers' are bounded by the tables).
PHASE_LIMIT_S = 900.0

PHASES = ("report then confirm", "both at once")


@dataclass
class _Phase:
    """What one phase measured: samples per kind of request, and what the database holds afterwards."""

    clients: int
    name: str
    tables: int
    latencies: dict[str, list[float]] = field(default_factory=lambda: {"report": [], "confirm": [], "me": []})
    statuses: Counter = field(default_factory=Counter)  # "write 201", "me 200", "write 409 result_exists", ...
    states: Counter = field(default_factory=Counter)  # the answers' states: pending, confirmed, disputed, ...
    unexpected: Counter = field(default_factory=Counter)
    wall: float = 0.0
    last_write: float = 0.0
    disputes_planned: int = 0
    results: int = 0
    wrong: int = 0
    double_reports: int = 0
    disputes: int = 0
    lag: float | None = None
    recomputes: int = 0


def _outcome_body(seats: list[int], first_wins: bool) -> dict:
    """The request body of a 2-1 match: placements and the game score, the winner first."""
    winner, loser = seats if first_wins else seats[::-1]
    return {
        "placements": [{"player": winner, "placement": 1}, {"player": loser, "placement": 2}],
        "games": [
            {"player": winner, "won": 2, "lost": 1, "drawn": 0},
            {"player": loser, "won": 1, "lost": 2, "drawn": 0},
        ],
    }


def _answer(status: int, body: bytes) -> tuple[str, str]:
    """(state, error code) of an answer, as far as it says them."""
    try:
        data = json.loads(body)
    except ValueError:
        return "", ""
    if not isinstance(data, dict):
        return "", ""
    return str(data.get("state", "")), str((data.get("error") or {}).get("code", ""))


class _Recorder:
    """Collects the samples of one phase from every thread."""

    def __init__(self, phase: _Phase) -> None:
        self.phase = phase
        self.lock = threading.Lock()

    def add(self, kind: str, status: int, body: bytes, started: float, ended: float) -> str:
        # /me/ answers are only read for an error's code: parsing each would slow the readers down.
        state, code = _answer(status, body) if kind != "me" or not 200 <= status < 300 else ("", "")
        group = "me" if kind == "me" else "write"
        label = f"{group} {status}" if 200 <= status < 300 else f"{group} {status} {code}".rstrip()
        with self.lock:
            self.phase.statuses[label] += 1
            if kind != "me":
                self.phase.states[state or "-"] += 1
                self.phase.last_write = max(self.phase.last_write, ended)
                # In the second phase the answer says which report came first: "pending" was the report.
                if kind == "either":
                    kind = "report" if state == "pending" else "confirm"
            self.phase.latencies[kind].append((ended - started) * 1000)
        return state


def _readers(port: int, tokens: list[str], recorder: _Recorder, stop: threading.Event, seed: int):
    """``READERS`` threads reading /me/ as random players until ``stop`` is set (or the phase limit passes)."""

    def reader(n: int) -> None:
        rng = random.Random(seed * 100 + n)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        deadline = time.perf_counter() + PHASE_LIMIT_S
        while not stop.is_set() and time.perf_counter() < deadline:
            status, body, started, ended = _send(conn, "GET", "/api/v1/me/", rng.choice(tokens))
            recorder.add("me", status, body, started, ended)
        conn.close()

    threads = [threading.Thread(target=reader, args=(n,)) for n in range(READERS)]
    for t in threads:
        t.start()
    return threads


def _report_then_confirm(port, event_id, number, tables, tokens, winners, clients, recorder, seed) -> None:
    """Seat 1 reports, seat 2 confirms; reports and confirmations taken from one queue in random order."""
    order = list(tables)
    random.Random(seed).shuffle(order)
    reports = deque(order)
    confirms: deque = deque()
    # Tables not done yet: done once their confirmation is taken, or their report was refused.
    remaining = [len(tables)]
    lock = threading.Lock()

    def client(n: int) -> None:
        rng = random.Random(seed * 100 + n)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while True:
            job = None
            with lock:
                if remaining[0] == 0:
                    break
                if confirms and (not reports or rng.random() < 0.5):
                    job = ("confirm", confirms.popleft())
                    remaining[0] -= 1
                elif reports:
                    job = ("report", reports.popleft())
            if job is None:  # the last reports are still being answered
                time.sleep(0.001)
                continue
            kind, (table, seats) = job
            base = f"/api/v1/events/{event_id}/rounds/{number}/tables/{table}/"
            if kind == "report":
                request = (base + "report/", tokens[seats[0]], _outcome_body(seats, winners[table]))
            else:
                request = (base + "confirm/", tokens[seats[1]], {"agrees": True})
            status, body, started, ended = _send(conn, "POST", request[0], request[1], request[2])
            state = recorder.add(kind, status, body, started, ended)
            expected = "pending" if kind == "report" else "confirmed"
            with lock:
                if state != expected:
                    recorder.phase.unexpected[f"{kind} answered {status} {state or _answer(status, body)[1]}"] += 1
                if kind == "report":
                    if 200 <= status < 300:
                        confirms.append((table, seats))
                    else:
                        remaining[0] -= 1
        conn.close()

    _run_threads([threading.Thread(target=client, args=(n,)) for n in range(clients)])


def _both_at_once(port, event_id, number, tables, tokens, winners, disputed, clients, recorder, seed) -> None:
    """Pairs of clients: a barrier releases a table's two players together, each reporting their result."""
    order = list(tables)
    random.Random(seed).shuffle(order)
    work = deque(order)
    lock = threading.Lock()
    threads = []
    for _ in range(clients // 2):
        slot: list = [None]
        answers: list = ["-", "-"]

        def take(slot=slot, answers=answers) -> None:
            # Run by the last thread of the pair to arrive, before both are released: check the table
            # they just reported (one report and one confirmation or dispute), then deal the next one.
            if slot[0] is not None:
                table, _ = slot[0]
                states = sorted(answers)
                expected = ["disputed", "pending"] if table in disputed else ["confirmed", "pending"]
                if states != expected:
                    with lock:
                        recorder.phase.unexpected[f"a table answered {' and '.join(states)}"] += 1
                answers[:] = ["-", "-"]
            with lock:
                slot[0] = work.popleft() if work else None

        barrier = threading.Barrier(2, action=take)

        def client(role: int, slot=slot, answers=answers, barrier=barrier) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            while True:
                barrier.wait()
                if slot[0] is None:
                    break
                table, seats = slot[0]
                first_wins = winners[table] if role == 0 or table not in disputed else not winners[table]
                path = f"/api/v1/events/{event_id}/rounds/{number}/tables/{table}/report/"
                status, body, started, ended = _send(
                    conn, "POST", path, tokens[seats[role]], _outcome_body(seats, first_wins)
                )
                answers[role] = recorder.add("either", status, body, started, ended) or f"{status}"
            conn.close()

        threads += [threading.Thread(target=client, args=(role,)) for role in (0, 1)]
    _run_threads(threads)


def _run_threads(threads: list[threading.Thread]) -> None:
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def _check(phase: _Phase, round_, tables, winners, disputed) -> None:
    """What the database holds after the phase: results, their outcomes, reports and disputes."""
    from django.db.models import Count

    from tournaments.models import PodResult, ResultReport, Seat

    phase.results = PodResult.objects.filter(pod__round=round_).count()
    placed: dict[int, dict] = {}
    decided = Seat.objects.filter(round=round_, pod__result__isnull=False)
    for table, player, *outcome in decided.values_list(
        "pod__table_number", "player_id", "placement", "games_won", "games_lost"
    ):
        placed.setdefault(table, {})[player] = tuple(outcome)
    for table, seats in tables:
        if table not in placed:
            continue
        winner, loser = seats if winners[table] else seats[::-1]
        if placed[table] != {winner: (1, 2, 1), loser: (2, 1, 2)}:
            phase.wrong += 1
    reports = ResultReport.objects.filter(pod__round=round_)
    phase.double_reports = reports.values("pod").annotate(n=Count("id")).filter(n__gt=1).count()
    phase.disputes = reports.filter(status=ResultReport.Status.DISPUTED).count()
    phase.disputes_planned = len(disputed)


def _settle_and_pair(event, organiser, round_, tables, winners, seed):
    """Unmeasured: the staff enter the results still missing (the disputes), and the next round is paired."""
    from tournaments import services
    from tournaments.models import Pod

    missing = set(
        Pod.objects.filter(round=round_, result__isnull=True, is_bye=False).values_list("table_number", flat=True)
    )
    for table, seats in tables:
        if table in missing:
            winner, loser = seats if winners[table] else seats[::-1]
            services.pod_result_report(
                event=event, round_number=round_.number, table_number=table, placements={winner: 1, loser: 2},
                games={winner: (2, 1, 0), loser: (1, 2, 0)}, by=organiser,
            )  # fmt: skip
    return services.round_start(event=event, by=organiser, seed=seed)


def _deadlocks() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
        return int(cursor.fetchone()[0] or 0)


def _setup(players: int, out):
    """The event, and players with accounts and tokens; returns (event, organiser, players, users, tokens, round)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.utils import timezone
    from knox.crypto import create_token_string, hash_token
    from knox.models import AuthToken
    from knox.settings import CONSTANTS, knox_settings

    from tournaments.models import AuditEntry, Player, ResultReport, ResultResponse

    User = get_user_model()
    organiser, _ = _organiser()
    event = _new_event(organiser, name="bench self-reports", player_reports=True)
    tag = uuid.uuid4().hex[:8]
    unusable = make_password(None)  # tokens sign them in: no password, and no hashing to wait for
    users = User.objects.bulk_create(
        (User(username=f"bench-self-{tag}-{i}", password=unusable) for i in range(players)), batch_size=2000
    )
    # API tokens as a sign-in makes them (django-rest-knox: a digest stored, an expiry), made in bulk.
    keys = [create_token_string() for _ in users]
    expiry = timezone.now() + knox_settings.TOKEN_TTL
    AuthToken.objects.bulk_create(
        (
            AuthToken(user=u, token_key=k[: CONSTANTS.TOKEN_KEY_LENGTH], digest=hash_token(k), expiry=expiry)
            for u, k in zip(users, keys, strict=True)
        ),
        batch_size=2000,
    )
    created = Player.objects.bulk_create(
        (Player(display_name=f"bench {i}", user=u) for i, u in enumerate(users)), batch_size=2000
    )
    tokens = {p.pk: k for p, k in zip(created, keys, strict=True)}
    round_ = _play(event, created, organiser, out)
    _vacuum_analyze(
        *(m._meta.db_table for m in (ResultReport, ResultResponse, AuditEntry, AuthToken, User)),
    )
    return event, organiser, created, users, tokens, round_


def _phase(servers, event, round_, tokens, clients: int, name: str, out):
    """Run one phase on ``round_``; returns what it measured, the round's tables and who won each."""
    tables = _tables(round_)
    rng = random.Random(round_.number)
    winners = {table: rng.random() < 0.5 for table, _ in tables}
    disputed = set()
    if name == "both at once":
        disputed = set(rng.sample([t for t, _ in tables], round(len(tables) * DISPUTED_SHARE)))
    phase = _Phase(clients=clients, name=name, tables=len(tables))
    recorder = _Recorder(phase)
    _standings_lag(event.pk, time.perf_counter())  # the pairing's own recompute is not this phase's
    time.sleep(0.5)
    before = servers.recomputes()
    out.write(f"{name}: {len(tables)} tables, round {round_.number}, {clients} clients and {READERS} /me/ readers ...")
    stop = threading.Event()
    readers = _readers(servers.port, list(tokens.values()), recorder, stop, seed=round_.number)
    started = time.perf_counter()
    try:
        if name == "report then confirm":
            _report_then_confirm(
                servers.port, event.pk, round_.number, tables, tokens, winners, clients, recorder, round_.number
            )
        else:
            _both_at_once(
                servers.port, event.pk, round_.number, tables, tokens, winners, disputed, clients, recorder,
                round_.number,
            )  # fmt: skip
    finally:
        phase.wall = time.perf_counter() - started
        stop.set()
        for t in readers:
            t.join()
    phase.lag = _standings_lag(event.pk, phase.last_write)
    time.sleep(0.5)
    phase.recomputes = servers.recomputes() - before
    _check(phase, round_, tables, winners, disputed)
    return phase, tables, winners


def _latency(values: list[float]) -> dict:
    if not values:
        return {"count": 0, "p50_ms": None, "p95_ms": None, "p99_ms": None, "max_ms": None}
    return {
        "count": len(values),
        **{f"p{p}_ms": round(_percentile(values, p), 1) for p in (50, 95, 99)},
        "max_ms": round(max(values), 1),
    }


def _figures(phase: _Phase) -> dict:
    writes = sum(n for s, n in phase.statuses.items() if s.startswith("write "))
    reads = sum(n for s, n in phase.statuses.items() if s.startswith("me "))

    def counted(pred) -> int:
        return sum(n for s, n in phase.statuses.items() if pred(int(s.split()[1])))

    return {
        "clients": phase.clients,
        "phase": phase.name,
        "tables": phase.tables,
        "requests": writes + reads,
        "ok": counted(lambda c: 200 <= c < 300),
        "not_ok": counted(lambda c: not 200 <= c < 300),
        "server_errors": counted(lambda c: c >= 500),
        "no_answer": counted(lambda c: c == 0),
        "not_ok_answers": {s: n for s, n in sorted(phase.statuses.items()) if not 200 <= int(s.split()[1]) < 300},
        "answer_states": dict(sorted(phase.states.items())),
        "unexpected_answers": dict(sorted(phase.unexpected.items())),
        "reports": _latency(phase.latencies["report"]),
        "confirmations": _latency(phase.latencies["confirm"]),
        "me": _latency(phase.latencies["me"]),
        "writes_per_s": round(writes / phase.wall, 1) if phase.wall else None,
        "me_per_s": round(reads / phase.wall, 1) if phase.wall else None,
        "wall_s": round(phase.wall, 2),
        "results": phase.results,
        "results_expected": phase.tables - phase.disputes_planned,
        "wrong_results": phase.wrong,
        "double_reports": phase.double_reports,
        "disputes": phase.disputes,
        "disputes_expected": phase.disputes_planned,
        "standings_lag_s": None if phase.lag is None else round(phase.lag, 2),
        "recomputes": phase.recomputes,
    }


def _defects(run: dict) -> list[str]:
    label = f"{run['clients']} clients, {run['phase']}"
    found = []
    if run["server_errors"] or run["no_answer"]:
        found.append(f"{label}: {run['server_errors']} answers 5xx and {run['no_answer']} without an answer")
    if run["not_ok"]:
        found.append(f"{label}: {run['not_ok']} answers not 2xx: {run['not_ok_answers']}")
    if run["unexpected_answers"]:
        found.append(f"{label}: unexpected answers {run['unexpected_answers']}")
    if run["results"] != run["results_expected"]:
        found.append(f"{label}: {run['results']} tables with a result, {run['results_expected']} expected")
    if run["wrong_results"] or run["double_reports"]:
        found.append(f"{label}: {run['wrong_results']} results unlike the reports, {run['double_reports']} tables "
                     "with two reports")  # fmt: skip
    if run["disputes"] != run["disputes_expected"]:
        found.append(f"{label}: {run['disputes']} disputes recorded, {run['disputes_expected']} expected")
    return found


def _ms(f: dict) -> str:
    if not f["count"]:
        return "none"
    return f"{f['p50_ms']:.0f} / {f['p95_ms']:.0f} / {f['p99_ms']:.0f} / {f['max_ms']:.0f} ms ({f['count']})"


def _rows(run: dict) -> list[tuple[str, str]]:
    label = f"{run['clients']} clients, {run['phase']}"
    second = "confirmations" if run["phase"] == "report then confirm" else "second reports (confirm or dispute)"
    lag = run["standings_lag_s"]
    return [
        (f"{label}: answered 2xx / other", f"{run['ok']} of {run['requests']} / {run['not_ok']} "
         f"(5xx: {run['server_errors']}, no answer: {run['no_answer']})"),
        (f"{label}: reports p50 / p95 / p99 / max", _ms(run["reports"])),
        (f"{label}: {second} p50 / p95 / p99 / max", _ms(run["confirmations"])),
        (f"{label}: /me/ reads p50 / p95 / p99 / max", _ms(run["me"])),
        (f"{label}: throughput", f"{run['writes_per_s']:.0f} writes/s and {run['me_per_s']:.0f} /me/ reads/s "
         f"over {run['wall_s']:.1f} s"),
        (f"{label}: tables with exactly one result", f"{run['results']} of {run['results_expected']} expected "
         f"({run['tables']} tables; wrong: {run['wrong_results']}, with two reports: {run['double_reports']})"),
        (f"{label}: disputes recorded", f"{run['disputes']} of {run['disputes_expected']} planned"),
        (f"{label}: standings current after the last write", "not within 120 s" if lag is None else f"{lag:.2f} s"),
        (f"{label}: standings recomputes run by the worker", f"{run['recomputes']} for {run['tables']} tables"),
    ]  # fmt: skip


def run(*, quick: bool, out) -> tuple[list[tuple[str, str]], dict]:
    from django.contrib.auth import get_user_model
    from django.db import connection

    from tournaments.models import Player

    _require_services("self-reports")
    from config.celery import app as celery_app

    players = 100 if quick else 4000
    client_counts = CLIENTS[:1] if quick else CLIENTS
    servers = _Servers(out)
    # Everything this process asks of Celery goes to the bench's worker too (pairing, settling disputes).
    queue = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = servers.queue
    try:
        deadlocks_before = _deadlocks()
        event, organiser, created, users, tokens, round_ = _setup(players, out)
        runs = []
        tables, winners = [], {}
        try:
            with servers:
                plan = [(clients, name) for clients in client_counts for name in PHASES]
                for n, (clients, name) in enumerate(plan):
                    if n:
                        round_ = _settle_and_pair(event, organiser, round_, tables, winners, seed=round_.number + 1)
                    phase, tables, winners = _phase(servers, event, round_, tokens, clients, name, out)
                    runs.append(_figures(phase))
            time.sleep(1.0)  # the web workers' sessions have ended: their statistics are in
            deadlocks = _deadlocks() - deadlocks_before
        finally:
            event.delete()
            Player.objects.filter(pk__in=[p.pk for p in created]).delete()
            get_user_model().objects.filter(pk__in=[u.pk for u in users]).delete()
    finally:
        celery_app.conf.task_default_queue = queue

    defects = [d for r in runs for d in _defects(r)]
    if deadlocks:
        defects.append(f"PostgreSQL detected {deadlocks} deadlock(s) during the run")
    for line in defects:
        out.write(f"!!! DEFECT: {line}")
    rows = [row for r in runs for row in _rows(r)]
    rows.append(("deadlocks detected by PostgreSQL during the run", str(deadlocks)))
    rows.append(
        ("defects (5xx, deadlocks, lost, wrong or extra results)", "none" if not defects else str(len(defects)))
    )
    figures = {
        "players": players,
        "tables": players // 2,
        "web_workers": WEB_WORKERS,
        "readers": READERS,
        "requests": sum(r["requests"] for r in runs),
        "ok": sum(r["ok"] for r in runs),
        "not_ok": sum(r["not_ok"] for r in runs),
        "server_errors": sum(r["server_errors"] for r in runs),
        "deadlocks": deadlocks,
        "defects": defects,
        "runs": runs,
        "db": connection.vendor,
    }
    return rows, figures
