"""``./bin/run [ADDRESS]``: the address and port it serves on, and the host names Django answers for there.

The script's own functions are run (``source bin/run`` defines them without starting anything), and the script
itself with a bad address, which it refuses before setting anything up.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

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
