"""``manage.py bench AREA --quick``, every area, as a user runs it: a benchmark can no longer break unseen.

Each area runs in a process of its own, ``python manage.py bench AREA --quick``, with production's settings:
``DEBUG`` off, a strong secret key, and creating events not open to every account (``PODIUM_OPEN_ORGANISING``
off, production's default; the suite's own settings switch it on, which is how ``bench games`` came to crash on a
fresh database while its test passed).  On PostgreSQL it runs against the test database; otherwise against a
SQLite file migrated for this module.  The areas that start servers and workers of their own (``championship``,
``cluster``, ``live``, ``reports``, ``self-reports``) need PostgreSQL and Redis: integration tests.

What is asserted: the command ends well and its last line is one JSON object naming the area, with the area's
figures, and what each run must have done (every request answered, every table with its one result, the
reference decks judged right, the database row measured rather than "not run").  Times are printed, never
asserted.  A new area of :data:`AREAS` must be added here (a test says so).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection

from bench import server_environment
from bench.cluster import NGINX
from bench.management.commands.bench import AREAS
from config.settings.env import weak_secret_key
from tests.conftest import IN_CI
from tests.support.data import data_dir
from tests.support.processes import LOCAL

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def _sqlite_file(tmp_path_factory) -> str:
    """A SQLite database migrated for this module, as ``manage.py migrate`` makes a fresh one (the suite's own
    SQLite test database lives in memory, out of another process's reach)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('bench') / 'bench.sqlite3'}"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=_environment(url), check=True, timeout=300
    )
    return url


@pytest.fixture
def database_url(transactional_db, request) -> str:
    """Where the benchmark's process writes: the test database on PostgreSQL (emptied after the test), else a
    migrated SQLite file."""
    if connection.vendor != "postgresql":
        return request.getfixturevalue("_sqlite_file")
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    auth = f"{user}:{db['PASSWORD']}" if db.get("PASSWORD") else user
    return f"postgres://{auth}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


@pytest.fixture(autouse=True)
def _no_job_marks_of_earlier_runs():
    """The benchmarks' workers take jobs keyed by row ids, which start again in every run's new test database:
    marks an earlier run left in this Redis database would hold them up (as in ``tests/integration``)."""
    if settings.REDIS_URL:
        client = redis.Redis.from_url(settings.REDIS_URL)
        for key in client.scan_iter("*podium:job:*"):
            client.delete(key)


def _environment(database_url: str) -> dict[str, str]:
    # What the suite's settings put in this process's environment (PODIUM_OPEN_ORGANISING, the raised rates, ...)
    # is left out: the benchmark runs with production's defaults, as on a site.
    env = {name: value for name, value in os.environ.items() if not name.startswith("PODIUM_")}
    return {
        **env,
        **LOCAL,
        "DATABASE_URL": database_url,
        "REDIS_URL": settings.REDIS_URL or "",
        "PODIUM_CARD_DATA_DIR": str(settings.PODIUM_CARD_DATA_DIR),
        "PODIUM_OPEN_ORGANISING": "false",
    }


def bench(area: str, database_url: str) -> tuple[list[str], dict]:
    """Run ``manage.py bench AREA --quick``; its lines, and the figures of its last line.  Prints (``-s`` shows it)
    the time the run took and the processor time of its processes (the servers and workers it started too)."""
    started, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "manage.py", "bench", area, "--quick"],
        cwd=ROOT, env=_environment(database_url), capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    print(f"bench {area} --quick: {time.perf_counter() - started:.1f} s, {cpu:.1f} s of processor time")
    assert done.returncode == 0, f"bench {area} --quick failed:\n{done.stdout}\n{done.stderr}"
    lines = done.stdout.strip().splitlines()
    figures = json.loads(lines[-1])
    assert isinstance(figures, dict)
    assert figures["area"] == area
    assert figures["machine"]
    # The table comes before it: a header, then one row per measure.
    assert any(line.startswith("measure") for line in lines)
    return lines, figures


def _with_servers() -> bool:
    return connection.vendor == "postgresql" and bool(settings.REDIS_URL)


# --- what each area must have done ------------------------------------------------------------------------------


def check_championship(lines: list[str], figures: dict) -> None:
    # One event, then several at once: every stream held, every result and round start answered, every event
    # delivered, and every stream with round 2's pairing (within the target or not: times are printed, not asserted).
    assert [run["events"] for run in figures["runs"]] == [1, 3]
    for run in figures["runs"]:
        assert run["streams"] == sum(run["pages"].values()) > run["pages"]["player"] == run["events"] * run["players"]
        assert run["pages"]["overlay"] > 0 and run["pages"]["display"] > 0
        assert run["writes"] == run["writes_ok"] == run["events"] * run["players"] // 2
        assert run["rounds_started"] == run["events"]
        assert run["pairing_missing"] == 0 and run["pairing_max_s"] is not None
        assert run["events_expected"] > run["streams"]
        assert run["errors"]["5xx"] == run["errors"]["lost_events"] == run["errors"]["streams_dropped"] == 0
        assert {"write_p50_ms", "write_p95_ms", "write_p99_ms", "memory_per_stream_kib"} <= set(run)
        targets = run["targets"]
        assert set(targets) == {"no_lost_events", "no_5xx", "pairing_within_2s"}
        assert targets["no_lost_events"]["met"] and targets["no_5xx"]["met"]
        assert isinstance(targets["pairing_within_2s"]["met"], bool)


def check_cluster(lines: list[str], figures: dict) -> None:
    # One web instance, then two, behind nginx: every result answered, the second instance given its share, every
    # stream (spread over both stream instances) with every result, those written through the other machine too.
    assert [run["web_instances"] for run in figures["runs"]] == [1, 2]
    for run in figures["runs"]:
        assert run["results"] == run["ok"] == figures["players"] // 2 > 0
        assert run["5xx"] == run["no_answer"] == run["lost_events"] == run["streams_dropped"] == 0
        assert run["streams_not_200"] == 0 and all(run["streams_by_instance"].values())
        assert run["deliveries"] == run["streams"] * run["results"]
        assert {"results_per_s", "p50_ms", "p95_ms", "standings_lag_s"} <= set(run)
    one, two = figures["runs"]
    assert one["writes_by_instance"] == {"a": one["results"], "b": 0} and all(two["writes_by_instance"].values())
    # With one web instance, what the streams on b had came from a; with two, each machine's streams had the other's.
    assert one["cross_instance_deliveries"] == one["streams_by_instance"]["b"] * one["results"]
    assert two["cross_instance_deliveries"] > 0
    assert figures["growth"] > 0


def check_decks(lines: list[str], figures: dict) -> None:
    assert {"pokemon_import_s", "mt75_check_median_ms", "mt75_rules_median_ms", "mt75_first_check_ms"} <= set(figures)
    assert figures["mt75_card_count"] == 75
    assert any("legal 75-card Master Trainer" in line for line in lines)
    # The legal deck is legal (the benchmark stops otherwise); the illegal one is measured apart.
    assert figures["mt76_illegal"]["card_count"] == 76
    assert figures["mt76_illegal"]["violations"] == ["deck_size", "singleton_species"]
    if _with_servers():  # the Celery path: its own worker on 2 processes judged every deck, and judged it right
        legal, illegal = figures["celery_path"], figures["celery_path_illegal"]
        assert legal["legal"] == legal["decks"] > 0 and illegal["decks"] > 0 and illegal["legal"] == 0
    else:
        assert "skipped" in figures["celery_path"]


def check_games(lines: list[str], figures: dict) -> None:
    assert {"append_median_ms", "append_p95_ms", "replay_10k_engine_ms", "replay_db_log_ms"} <= set(figures)
    assert figures["appends"] == figures["replay_db_log_entries"] > 0


def check_leagues(lines: list[str], figures: dict) -> None:
    assert figures["events"] > 0 and figures["tables"] > 0
    assert figures["rating_changes"] > 0 and figures["correction_rated"] > 0 and figures["meta_archetypes"] > 0
    assert {"season_standings_ms", "ratings_scratch_ms", "incremental_median_ms", "meta_report_ms"} <= set(figures)


def check_live(lines: list[str], figures: dict) -> None:
    latencies = [value for name, value in figures.items() if name.startswith("latency_ms_")]
    assert len(latencies) == 3
    for latency in latencies:
        assert {"p50", "p95", "p99", "max", "received", "expected"} <= set(latency)
        assert 0 < latency["received"] <= latency["expected"]
    assert "memory_per_idle_subscriber_kib" in figures
    assert {"clients", "events", "missed", "twice", "reconnect_s"} <= set(figures["storm"])


def check_pairing(lines: list[str], figures: dict) -> None:
    assert {"swiss_worst_ms", "swiss_sweep"} <= set(figures)
    assert any(name.startswith("swiss_") and name[6:].isdigit() for name in figures)
    assert any(name.startswith("pods_") for name in figures)
    # The end-to-end row ran on the database (it says "not run" rather than stop when the database cannot be used).
    (round_start,) = (value for name, value in figures.items() if name.startswith("round_start_"))
    assert round_start["db"] == connection.vendor
    assert len(round_start["ms"]) == len(round_start["queries"]) == 3


def check_reports(lines: list[str], figures: dict) -> None:
    assert figures["db"] == "postgresql"
    # Every table of the round reported, and every report answered 2xx.
    assert figures["reports"] == figures["players"] // 2 > 0
    assert figures["ok"] == figures["reports"]
    assert {"p50_ms", "p95_ms", "p99_ms", "max_ms", "reports_per_s", "standings_lag_s", "recompute_ms"} <= set(figures)


LATENCY = {"count", "p50_ms", "p95_ms", "p99_ms", "max_ms"}


def check_self_reports(lines: list[str], figures: dict) -> None:
    tables = figures["tables"]
    assert tables == figures["players"] // 2 > 0
    assert figures["defects"] == [], "\n".join(lines)
    assert figures["not_ok"] == 0 and figures["server_errors"] == 0 and figures["deadlocks"] == 0
    assert figures["ok"] == figures["requests"] > 0
    assert [(r["clients"], r["phase"]) for r in figures["runs"]] == [(8, "report then confirm"), (8, "both at once")]
    for run in figures["runs"]:
        for kind in ("reports", "confirmations", "me"):
            assert set(run[kind]) == LATENCY
        # Every table reported once and answered once (a confirmation, or the second report)...
        assert run["reports"]["count"] == run["confirmations"]["count"] == run["tables"] == tables
        assert run["me"]["count"] > 0
        assert run["ok"] == run["requests"] and run["not_ok"] == run["server_errors"] == run["no_answer"] == 0
        assert run["unexpected_answers"] == {}
        # ...and one result per table, as reported, but at the disputed ones.
        assert run["results"] == run["results_expected"] == run["tables"] - run["disputes_expected"]
        assert run["wrong_results"] == run["double_reports"] == 0
        assert run["disputes"] == run["disputes_expected"]
        assert {"writes_per_s", "me_per_s", "recomputes", "standings_lag_s"} <= set(run)
    first, second = figures["runs"]
    disputed = round(tables * 0.1)
    assert first["disputes_expected"] == 0 and second["disputes_expected"] == disputed > 0
    assert first["answer_states"] == {"pending": tables, "confirmed": tables}
    assert second["answer_states"] == {"pending": tables, "confirmed": tables - disputed, "disputed": disputed}
    assert any("tables with exactly one result" in line for line in lines)


def check_standings(lines: list[str], figures: dict) -> None:
    assert figures["repeats"] > 0
    # 1v1 (classic, Pokémon, Magic with game scores) and pods.
    assert len([name for name in figures if name.endswith("_ms")]) == 5
    # The cut line of 4,000 players, with and without its projection, and in pods.
    assert {"with_projection_ms", "without_projection_ms", "pods_ms"} <= set(figures["cut_line"])
    assert any(line.startswith("cut line, 4,000 players") or "cut line, 4,000 players" in line for line in lines)


CHECKS = {
    "championship": check_championship,
    "cluster": check_cluster,
    "decks": check_decks,
    "games": check_games,
    "leagues": check_leagues,
    "live": check_live,
    "pairing": check_pairing,
    "reports": check_reports,
    "self-reports": check_self_reports,
    "standings": check_standings,
}
#: The areas that start servers and workers of their own: they need PostgreSQL and Redis.
WITH_SERVERS = {"championship", "cluster", "live", "reports", "self-reports"}


def test_every_benchmark_area_is_run_quick_by_the_suite():
    assert set(CHECKS) == set(AREAS)


def test_the_servers_a_benchmark_starts_get_a_strong_key_of_their_own_whatever_key_it_was_given(monkeypatch):
    # A weak key is allowed with DEBUG on, as a developer may run the benchmarks; their servers run with it off.
    monkeypatch.setenv("DEBUG", "true")
    monkeypatch.setenv("SECRET_KEY", "dev")
    first, second = server_environment("postgres://db"), server_environment("postgres://db")
    assert first["DEBUG"] == "false" and first["DJANGO_SETTINGS_MODULE"] == "config.settings.base"
    assert not weak_secret_key(first["SECRET_KEY"])
    assert first["SECRET_KEY"] != second["SECRET_KEY"]  # made for each run


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "area", [pytest.param(area, marks=pytest.mark.integration) if area in WITH_SERVERS else area for area in CHECKS]
)
def test_a_benchmark_runs_quick_to_its_end_and_prints_its_figures_as_one_json_line(area, database_url):
    if area == "decks":
        data_dir("pokemon-tcg-data")  # the card data the benchmark imports (skips, or fails on CI, without it)
    if area == "cluster" and not Path(NGINX).exists():  # its proxy (.ci/run installs it)
        if IN_CI:
            pytest.fail(f"CI=true but bench cluster cannot run: {NGINX} is not installed")
        pytest.skip(f"{NGINX} is not installed (Debian's nginx package)")
    before = _left_behind()
    lines, figures = bench(area, database_url)
    CHECKS[area](lines, figures)
    if connection.vendor == "postgresql":  # it wrote to this test database: and took away what it made
        assert _left_behind() == before


def _left_behind() -> tuple[int, int, int]:
    """Events, players and accounts (but the benchmarks' organiser, kept between runs)."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Event, Player

    accounts = get_user_model().objects.exclude(username="bench-organiser")
    return Event.objects.count(), Player.objects.count(), accounts.count()
