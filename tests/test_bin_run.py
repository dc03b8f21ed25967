"""``./bin/run [ADDRESS]``: the address and port it serves on, and the host names Django answers for there.

The script's own functions are run (``source bin/run`` defines them without starting anything), and the script
itself with a bad address, which it refuses before setting anything up.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.support.live import free_port

RUN = Path(__file__).resolve().parent.parent / "bin" / "run"
DEFAULTS = "localhost,127.0.0.1,[::1],testserver"


def bash(command: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("ALLOWED_HOSTS", "PODIUM_ADDR")} | (env or {})
    return subprocess.run(
        ["bash", "-c", f'source "{RUN}"; {command}', "bash", *args],
        capture_output=True, text=True, env=environment, timeout=30,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("address", "served"),
    [
        ("", "127.0.0.1 8000"),
        ("8080", "127.0.0.1 8080"),
        ("0.0.0.0", "0.0.0.0 8000"),
        ("0.0.0.0:8000", "0.0.0.0 8000"),
        ("192.168.1.20:8080", "192.168.1.20 8080"),
        ("podium.local:9000", "podium.local 9000"),
        ("[::]:8000", ":: 8000"),
        ("[::1]", "::1 8000"),
    ],
)
def test_it_serves_on_the_host_and_port_the_address_names(address, served):
    answer = bash('run_address "$1"', address)
    assert (answer.returncode, answer.stdout.strip()) == (0, served), answer.stderr


@pytest.mark.parametrize("address", ["0.0.0.0:http", "0.0.0.0:0", "0.0.0.0:70000", "host:", "::"])
def test_a_bad_address_is_refused_with_an_example_before_anything_is_set_up(address):
    answer = subprocess.run([str(RUN), address], capture_output=True, text=True, timeout=30)
    assert answer.returncode == 2
    assert "bin/run:" in answer.stderr and ("e.g. 0.0.0.0:8000" in answer.stderr or "[::]" in answer.stderr)
    assert answer.stdout == ""  # no setup, no migration, no server


def test_the_argument_wins_over_podium_addr_and_podium_addr_over_the_default():
    assert bash('run_address "${1:-${PODIUM_ADDR:-}}"', env={"PODIUM_ADDR": "0.0.0.0:9000"}).stdout == "0.0.0.0 9000\n"
    answer = bash('run_address "${1:-${PODIUM_ADDR:-}}"', "8001", env={"PODIUM_ADDR": "0.0.0.0:9000"})
    assert answer.stdout == "127.0.0.1 8001\n"


def test_django_answers_for_the_address_given_unless_allowed_hosts_is_set():
    assert bash("run_allowed_hosts 192.168.1.20").stdout.strip() == f"{DEFAULTS},192.168.1.20"
    assert bash("run_allowed_hosts ::1").stdout.strip() == f"{DEFAULTS},[::1]"
    assert bash("run_allowed_hosts 127.0.0.1").stdout.strip() == f"{DEFAULTS},127.0.0.1"
    set_by_operator = bash("run_allowed_hosts 0.0.0.0", env={"ALLOWED_HOSTS": "podium.example.org"})
    assert set_by_operator.stdout.strip() == "podium.example.org"


def test_on_every_interface_django_answers_for_this_machines_own_addresses():
    own = bash("run_own_addresses").stdout.split()
    expected = ",".join([DEFAULTS, *(f"[{a}]" if ":" in a else a for a in own)])
    for wildcard in ("0.0.0.0", "::"):
        assert bash(f"run_allowed_hosts {wildcard}").stdout.strip() == expected


def test_the_venue_profile_serves_every_interface_and_this_machines_addresses():
    own = bash("run_own_addresses").stdout.split()
    expected = [f"http://[{a}]:8000/" if ":" in a else f"http://{a}:8000/" for a in own] or ["http://127.0.0.1:8000/"]
    assert bash("run_urls 0.0.0.0 8000").stdout.split() == expected
    assert bash("run_urls 192.168.1.20 8080").stdout.split() == ["http://192.168.1.20:8080/"]
    assert bash("run_urls ::1 8080").stdout.split() == ["http://[::1]:8080/"]


def test_the_venue_profile_runs_without_the_demo_with_debug_off_and_its_organiser_made_once(tmp_path):
    """``./bin/run --venue 127.0.0.1:PORT`` for real, on a SQLite file of its own: a page and a static file served
    over plain HTTP with DEBUG off (no redirect, no HSTS, no debug page), the key kept, the password printed."""
    port = free_port()
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in ("ALLOWED_HOSTS", "PODIUM_ADDR", "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG")
        and not k.startswith(("SECURE_", "SESSION_", "CSRF_", "DJANGO_"))
    } | {"PODIUM_VAR_DIR": str(tmp_path)}
    log = tmp_path / "run.log"
    with open(log, "w") as out:
        server = subprocess.Popen(
            [str(RUN), "--venue", f"127.0.0.1:{port}", "tom"], stdout=out, stderr=subprocess.STDOUT,
            env=environment, start_new_session=True,
        )  # fmt: skip
    try:
        home = wait_for(f"http://127.0.0.1:{port}/", server, log)
        assert home.status == 200 and "Strict-Transport-Security" not in home.headers
        stylesheet = re.search(r'href="(/static/[^"]+\.css)"', home.read().decode()).group(1)
        assert ".css" in stylesheet and urllib.request.urlopen(f"http://127.0.0.1:{port}{stylesheet}").status == 200
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/no-such-page/")
        assert missing.value.code == 404 and b"URLconf" not in missing.value.read()  # not DEBUG's page
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # bin/run, its uvicorn and its beat: the group this test started
        server.wait(timeout=30)
    printed = log.read_text()
    assert "username tom, password " in printed and f"http://127.0.0.1:{port}/" in printed
    assert "Demo" not in printed
    key = (tmp_path / "secret_key").read_text().strip()
    assert len(key) >= 50 and (tmp_path / "secret_key").stat().st_mode & 0o077 == 0
    assert (tmp_path / "podium.sqlite3").exists()


def wait_for(url: str, server: subprocess.Popen, log: Path):
    deadline = time.monotonic() + 60  # a bound for a slow machine, not a measure
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"bin/run --venue stopped:\n{log.read_text()}")
        try:
            return urllib.request.urlopen(url, timeout=5)
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"bin/run --venue did not answer:\n{log.read_text()}")
