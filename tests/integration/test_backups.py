"""Backups as the README documents them: ``pg_dump -Fc`` and ``pg_restore`` on PostgreSQL, the online backup of
the SQLite file.  An event in progress is backed up, restored, and its rows are all there."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.utils import ConnectionHandler
from psycopg import sql

from tests.conftest import IN_CI
from tests.support.events import make_event, report_all
from tournaments import services
from tournaments.models import AuditEntry, Event, Penalty, Player, Pod, PodResult, Registration, Round, Seat, Standing

#: An event's tables, parents first: what must come back the same.
TABLES = [get_user_model(), Player, Event, Registration, Round, Pod, Seat, PodResult, Standing, Penalty, AuditEntry]


def event_in_progress(organiser) -> Event:
    """Round 1 reported, a penalty given, round 2 paired and waiting for its results, standings stored."""
    event = make_event(organiser, 6, rounds=3)
    services.round_start(event=event, by=organiser, seed=1)
    report_all(event, organiser)
    services.penalty_issue(
        event=event, registration_id=event.registrations.first().pk, penalty="warning", infraction="Slow play",
        by=organiser,
    )  # fmt: skip
    services.round_start(event=event, by=organiser, seed=2)
    services.standings_recompute(event_id=event.pk)
    return event


def _missing(tool: str) -> None:
    if shutil.which(tool) is None:
        if IN_CI:
            pytest.fail(f"CI=true but {tool} is not installed: the PostgreSQL backup test cannot run")
        pytest.skip(f"{tool} is not installed (the PostgreSQL client tools): the backup test needs it")


# --- PostgreSQL ---------------------------------------------------------------------------------------------


def _server() -> dict[str, str]:
    db = connection.settings_dict
    return {
        "host": db.get("HOST") or "127.0.0.1",
        "port": str(db.get("PORT") or 5432),
        "user": db.get("USER") or "postgres",
        "password": db.get("PASSWORD") or "",
    }


def _run(*command: str) -> None:
    server = _server()
    env = {**os.environ, "PGPASSWORD": server["password"]}
    flags = ["-h", server["host"], "-p", server["port"], "-U", server["user"]]
    done = subprocess.run([command[0], *flags, *command[1:]], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def _connect(name: str) -> psycopg.Connection:
    server = _server()
    return psycopg.connect(
        host=server["host"], port=server["port"], user=server["user"], password=server["password"] or None,
        dbname=name, autocommit=True,
    )  # fmt: skip


def _rows(name: str) -> dict[str, list[tuple]]:
    with _connect(name) as db:
        return {
            model._meta.db_table: db.execute(
                sql.SQL("SELECT * FROM {} ORDER BY id").format(sql.Identifier(model._meta.db_table))
            ).fetchall()
            for model in TABLES
        }


@pytest.fixture
def scratch_database() -> Iterator[str]:
    """A database made for the test and dropped after it (the fresh one a dump is restored into)."""
    name = f"podium_restore_{uuid.uuid4().hex[:12]}"
    with _connect("postgres") as server:
        server.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield name
    finally:
        with _connect("postgres") as server:
            server.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_pg_dump_restored_with_pg_restore_into_a_fresh_database_holds_the_event_in_progress(
    organiser, tmp_path, scratch_database
):
    _missing("pg_dump")
    _missing("pg_restore")
    event = event_in_progress(organiser)
    source = connection.settings_dict["NAME"]
    dump = tmp_path / "podium.dump"

    _run("pg_dump", "-Fc", "-f", str(dump), source)
    _run("pg_restore", "--no-owner", "-d", scratch_database, str(dump))

    restored = _rows(scratch_database)
    assert restored == _rows(source)
    assert len(restored[Seat._meta.db_table]) == 12 and len(restored[PodResult._meta.db_table]) == 3
    assert len(restored[Standing._meta.db_table]) == 6 and restored[AuditEntry._meta.db_table]
    assert [row[0] for row in restored[Event._meta.db_table]] == [event.pk]

    # Restoring over a database that has changed since: --clean --if-exists drops what is there first.
    with _connect(scratch_database) as db:
        db.execute(sql.SQL("DELETE FROM {}").format(sql.Identifier(Standing._meta.db_table)))
    _run("pg_restore", "--clean", "--if-exists", "--no-owner", "-d", scratch_database, str(dump))
    assert _rows(scratch_database) == restored


# --- SQLite ------------------------------------------------------------------------------------------------


def podium_sqlite_file(path) -> None:
    """A SQLite file with Podium's tables for an event (as its models define them) and the rows of the database
    under test: what ``var/podium.sqlite3`` holds on the embedded default."""
    wrapper = ConnectionHandler({"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path)}})["default"]
    try:
        with wrapper.schema_editor() as editor:
            for model in TABLES:
                editor.create_model(model)
        with wrapper.cursor() as cursor:
            for model in TABLES:
                fields = model._meta.concrete_fields
                columns = ", ".join(wrapper.ops.quote_name(f.column) for f in fields)
                marks = ", ".join(["%s"] * len(fields))
                cursor.executemany(
                    f"INSERT INTO {wrapper.ops.quote_name(model._meta.db_table)} ({columns}) VALUES ({marks})",  # noqa: S608
                    [
                        [f.get_db_prep_save(getattr(obj, f.attname), connection=wrapper) for f in fields]
                        for obj in model._default_manager.order_by("pk")
                    ],
                )
    finally:
        wrapper.close()


def sqlite_rows(path) -> dict[str, list[tuple]]:
    with sqlite3.connect(path) as db:
        return {
            model._meta.db_table: db.execute(f'SELECT * FROM "{model._meta.db_table}" ORDER BY id').fetchall()  # noqa: S608
            for model in TABLES
        }


@pytest.mark.django_db
def test_the_online_backup_of_a_live_sqlite_file_holds_what_was_committed_and_restores_it(organiser, tmp_path):
    event_in_progress(organiser)
    live, copy = tmp_path / "podium.sqlite3", tmp_path / "backup.sqlite3"
    podium_sqlite_file(live)
    committed = sqlite_rows(live)
    assert len(committed[Standing._meta.db_table]) == 6

    # Podium is running: a request is in the middle of a write when the backup is taken.
    writer = sqlite3.connect(live, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute(f'UPDATE "{Standing._meta.db_table}" SET points = points + 100')
    with sqlite3.connect(live) as source, sqlite3.connect(copy) as target:
        source.backup(target)  # Python's online backup API (what the sqlite3 shell's .backup does)
    writer.execute("COMMIT")
    writer.close()

    with sqlite3.connect(copy) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert sqlite_rows(copy) == committed
    assert sqlite_rows(live) != committed

    # Restore (Podium stopped): the shell's .restore writes the backup back over the file.
    if shutil.which("sqlite3") is None:
        with sqlite3.connect(copy) as source, sqlite3.connect(live) as target:
            source.backup(target)
    else:
        subprocess.run(["sqlite3", str(live), f".restore '{copy}'"], check=True, capture_output=True)
    assert sqlite_rows(live) == committed
