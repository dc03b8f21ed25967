"""Real processes for the integration tests (a Celery worker, a web server) pointed at the test database."""

from __future__ import annotations

import atexit
import functools
import http.client
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app
from tests.support.processes import LOCAL

ROOT = Path(__file__).resolve().parents[2]
#: The gunicorn settings production uses (deploy/Procfile's web line).
GUNICORN_CONFIG = ROOT / "config" / "gunicorn.conf.py"


def database_url() -> str:
    db = connection.settings_dict  # the test database pytest-django created
    user = db.get("USER") or "postgres"
    auth = f"{user}:{db['PASSWORD']}" if db.get("PASSWORD") else user
    return f"postgres://{auth}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def private_queue() -> str:
    return f"podium-test-{uuid.uuid4().hex[:12]}"


def send_to(queue: str):
    """Point this process's Celery app at ``queue`` (tasks go to Redis, not in-process); returns the undo."""
    old = (celery_app.conf.task_always_eager, celery_app.conf.task_default_queue)
    celery_app.conf.task_always_eager = False
    celery_app.conf.task_default_queue = queue

    def undo() -> None:
        celery_app.conf.task_always_eager, celery_app.conf.task_default_queue = old

    return undo


def start_worker(
    tmp_path: Path,
    *,
    beat: bool = False,
    env: dict[str, str] | None = None,
    queue: str | None = None,
    wait: bool = True,
):
    """Start a real worker process on a private queue and point this process's Celery app at it.

    Returns ``(process, restore)``; ``process.log`` is its log file.  With
    ``beat`` the worker also runs the periodic sweeps (every second).  ``queue``:
    one messages already wait in (default: a new one).  ``wait=False``: return
    at once rather than when it answers a ping (a worker of the solo pool busy
    with a task answers none).
    """
    queue = queue or private_queue()
    name = f"{queue}@{uuid.uuid4().hex[:6]}"
    tmp_path.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        **LOCAL,
        "DATABASE_URL": database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "PODIUM_TASK_QUEUE": queue,
        "PODIUM_SWEEP_SECONDS": "1",
        **(env or {}),
    }
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue, "-n", name,
        "--pool", "solo", "--concurrency", "1", "--loglevel", "INFO", "--without-gossip", "--without-mingle",
        "--logfile", str(tmp_path / "worker.log"),
    ]  # fmt: skip
    if beat:
        command += ["--beat", "--schedule", str(tmp_path / "beat-schedule")]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    process.log = tmp_path / "worker.log"
    undo = send_to(queue)

    def restore() -> None:
        undo()
        _stop(process)

    if not wait:
        return process, restore
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log = process.log.read_text() if process.log.exists() else ""
            restore()
            pytest.fail(f"the celery worker exited early:\n{process.stdout.read()}\n{log}")
        if celery_app.control.ping(destination=[name], timeout=1.0):
            return process, restore
    restore()
    pytest.fail("the celery worker did not answer a ping within 60 s")


@pytest.fixture(autouse=True)
def _no_job_marks_of_earlier_runs():
    """Job marks (core.jobs) are keyed by row ids, which start again in every run's new test database: marks an
    earlier run left in this suite's Redis database (a killed worker's claim, say) would hold up this run's jobs."""
    if settings.REDIS_URL:
        client = redis.Redis.from_url(settings.REDIS_URL)
        for key in client.scan_iter("*podium:job:*"):
            client.delete(key)


@pytest.fixture
def worker(tmp_path):
    """A real worker process on a private queue; the test process enqueues to it over Redis."""
    process, restore = start_worker(tmp_path)
    try:
        yield process
    finally:
        restore()


@pytest.fixture
def worker_with_sweeps(tmp_path):
    """A real worker that also runs the periodic sweeps (``--beat``), every second."""
    process, restore = start_worker(tmp_path, beat=True)
    try:
        yield process
    finally:
        restore()


@functools.cache
def collected_var_dir() -> str:
    """A ``PODIUM_VAR_DIR`` with the static files collected, made once a run: a server with DEBUG off renders
    its pages from the static files' manifest, as production does after ``collectstatic``."""
    var = tempfile.mkdtemp(prefix="podium-var-")
    atexit.register(shutil.rmtree, var, ignore_errors=True)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT, env={**os.environ, **LOCAL, "PODIUM_VAR_DIR": var}, check=True, timeout=300,
    )  # fmt: skip
    return var


def start_web(
    tmp_path: Path,
    *,
    env: dict[str, str] | None = None,
    workers: int = 1,
    pages: bool = False,
    ready: str = "/api/v1/formats/",
    split_output: bool = False,
):
    """gunicorn serving the app from the test database with the shipped settings (``config/gunicorn.conf.py``);
    returns ``(base_url, stop)``.  ``pages``: with the static files collected, so pages render (the API needs
    none).  ``ready``: the path that answers 200 once the server is up.  Its output goes to ``web.log``; with
    ``split_output``, its standard error to ``web.err``."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        **os.environ,
        **LOCAL,
        "DATABASE_URL": database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "ALLOWED_HOSTS": "127.0.0.1",
        **({"PODIUM_VAR_DIR": collected_var_dir()} if pages else {}),
        **(env or {}),
    }
    tmp_path.mkdir(parents=True, exist_ok=True)
    log = open(tmp_path / "web.log", "w")  # noqa: SIM115 - closed by stop()
    err = open(tmp_path / "web.err", "w") if split_output else None  # noqa: SIM115 - closed by stop()
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONFIG), "config.wsgi", "--workers", str(workers),
         "--bind", f"127.0.0.1:{port}", "--timeout", "120", "--log-level", "info"],
        cwd=ROOT, env=env, stdout=log, stderr=err or subprocess.STDOUT,
    )  # fmt: skip

    def stop() -> None:
        _stop(process)
        log.close()
        if err is not None:
            err.close()

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            stop()
            pytest.fail(f"gunicorn exited at start:\n{(tmp_path / 'web.log').read_text()}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", ready)
            if conn.getresponse().status == 200:
                return f"http://127.0.0.1:{port}", stop
        except OSError:
            time.sleep(0.2)
    stop()
    pytest.fail("gunicorn did not answer within 60 s")
