"""A real Celery worker for the integration tests, on a private queue, pointed at the test database."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app

ROOT = Path(__file__).resolve().parents[2]


def _database_url() -> str:
    db = connection.settings_dict  # the test database pytest-django created
    user = db.get("USER") or "postgres"
    auth = f"{user}:{db['PASSWORD']}" if db.get("PASSWORD") else user
    return f"postgres://{auth}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


@pytest.fixture
def worker(tmp_path):
    """A real worker process on a private queue; the test process enqueues to it over Redis."""
    queue = f"podium-test-{uuid.uuid4().hex[:12]}"
    name = f"{queue}@localhost"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": _database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "DEBUG": "false",
        "SECRET_KEY": "integration-test-worker",
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-Q",
            queue,
            "-n",
            name,
            "--pool",
            "solo",
            "--concurrency",
            "1",
            "--loglevel",
            "INFO",
            "--without-gossip",
            "--without-mingle",
            "--logfile",
            str(tmp_path / "worker.log"),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    process.log = tmp_path / "worker.log"
    old = (celery_app.conf.task_always_eager, celery_app.conf.task_default_queue)
    celery_app.conf.task_always_eager = False
    celery_app.conf.task_default_queue = queue
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if process.poll() is not None:
                log = process.log.read_text() if process.log.exists() else ""
                pytest.fail(f"the celery worker exited early:\n{process.stdout.read()}\n{log}")
            if celery_app.control.ping(destination=[name], timeout=1.0):
                break
        else:
            pytest.fail("the celery worker did not answer a ping within 60 s")
        yield process
    finally:
        celery_app.conf.task_always_eager, celery_app.conf.task_default_queue = old
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
