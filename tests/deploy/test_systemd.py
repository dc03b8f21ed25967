"""The systemd units in deploy/systemd/ run what deploy/Procfile runs, and systemd finds nothing wrong with them.

* Each Procfile line has its unit, whose ``ExecStart`` (with the unit's ``Environment=`` defaults, then the
  environment file's values) is the very command the Procfile line becomes in a shell, in the unit's
  ``WorkingDirectory``: with no settings given, and with every address and size set.
* The example settings file (``deploy/podium.env.example``) reads the same to honcho as to systemd: plain
  ``KEY=value`` lines, quotes only around a whole value, no comment after one.
* ``systemd-analyze verify`` accepts the units and the target (the checkout's path put in for ``/srv/podium``, so
  the commands exist), and ``systemd-analyze security`` rates each service's exposure "OK" (2.0 or less).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from honcho.environ import parse, parse_procfile

from tests.conftest import IN_CI

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNITS = DEPLOY / "systemd"
INSTALLED = "/srv/podium"
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")

#: Every address and size the processes read, set (as an environment file would).
CUSTOM = {
    "PODIUM_WEB_BIND": "10.0.0.5:9000",
    "PODIUM_WEB_WORKERS": "9",
    "PODIUM_STREAMS_HOST": "10.0.0.5",
    "PODIUM_STREAMS_PORT": "9001",
    "PODIUM_STREAMS_WORKERS": "3",
    "PODIUM_TASK_QUEUE": "podium-eu",
}


def _procfile() -> dict[str, str]:
    return dict(parse_procfile((DEPLOY / "Procfile").read_text()).processes)


def _unit(name: str) -> dict[str, list[str]]:
    """A unit file's settings: ``{"Section.Key": [values in order]}``."""
    settings: dict[str, list[str]] = {}
    section = ""
    for line in (UNITS / name).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        settings.setdefault(f"{section}.{key}", []).append(value)
    return settings


def _shell_words(command: str, env: dict[str, str], cwd: Path) -> list[str]:
    """The words ``sh`` makes of a Procfile line in ``cwd`` with ``env``, the program as an absolute path."""
    words = subprocess.run(
        ["/bin/sh", "-c", f"printf '%s\\n' {command}"], env={"PATH": os.defpath, **env}, cwd=ROOT,
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    return [str(cwd / words[0]), *words[1:]]


def _systemd_words(unit: dict[str, list[str]], env: dict[str, str]) -> list[str]:
    """The words systemd makes of the unit's ``ExecStart``: ``${NAME}`` from ``Environment=``, overridden by the
    environment file (``env``), split at whitespace."""
    values = dict(item.split("=", 1) for line in unit.get("Service.Environment", []) for item in line.split())
    values.update(env)
    [command] = unit["Service.ExecStart"]
    return re.sub(r"\$\{(\w+)\}", lambda m: values[m.group(1)], command).split()


@pytest.mark.parametrize("env", [{}, CUSTOM], ids=["defaults", "every setting given"])
def test_each_procfile_line_has_a_unit_that_runs_the_same_command(env):
    processes = _procfile()
    assert set(processes) == {"web", "streams", "worker", "beat"}
    for name, command in processes.items():
        unit = _unit(f"podium-{name}.service")
        [cwd] = unit["Service.WorkingDirectory"]
        assert _systemd_words(unit, env) == _shell_words(command, env, Path(cwd)), name


def test_the_units_run_as_podium_with_the_settings_file_restart_and_are_started_by_the_target():
    target = _unit("podium.target")
    wanted = " ".join(target["Unit.Wants"]).split()
    assert sorted(wanted) == sorted(f"podium-{name}.service" for name in _procfile())
    assert target["Install.WantedBy"] == ["multi-user.target"]
    for name in wanted:
        unit = _unit(name)
        assert unit["Service.User"] == ["podium"] and unit["Service.Group"] == ["podium"], name
        assert unit["Service.EnvironmentFile"] == ["/etc/podium/podium.env"], name
        assert unit["Service.WorkingDirectory"] == [INSTALLED], name
        assert unit["Service.Restart"] == ["on-failure"], name
        assert unit["Unit.PartOf"] == ["podium.target"] and unit["Install.WantedBy"] == ["podium.target"], name
        assert unit["Service.ProtectSystem"] == ["strict"] and unit["Service.NoNewPrivileges"] == ["yes"], name


@pytest.fixture(scope="module")
def checked_units(tmp_path_factory):
    """The units with this checkout's path for /srv/podium (``verify`` checks that the commands exist)."""
    if SYSTEMD_ANALYZE is None:
        if IN_CI:
            pytest.fail("CI=true but systemd-analyze is missing (Debian's systemd package)")
        pytest.skip("systemd-analyze is not installed (Debian's systemd package)")
    if not (ROOT / ".venv" / "bin" / "gunicorn").exists():
        pytest.fail("the checkout has no .venv with the requirements installed (bin/setup)")
    folder = tmp_path_factory.mktemp("units")
    for path in UNITS.iterdir():
        (folder / path.name).write_text(path.read_text().replace(INSTALLED, str(ROOT)))
    return folder


def test_systemd_analyze_verify_accepts_the_units_and_the_target(checked_units):
    names = sorted(path.name for path in checked_units.iterdir())
    result = subprocess.run(
        [SYSTEMD_ANALYZE, "verify", "--man=no", *(f"./{name}" for name in names)],
        cwd=checked_units, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_systemd_rates_each_services_exposure_ok(checked_units):
    for path in sorted(checked_units.glob("*.service")):
        result = subprocess.run(
            [SYSTEMD_ANALYZE, "security", "--offline=yes", "--threshold=20", "--no-pager", f"./{path.name}"],
            cwd=checked_units, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert result.returncode == 0, result.stdout[-400:]


def test_the_example_settings_file_reads_the_same_to_honcho_and_to_systemd():
    text = (DEPLOY / "podium.env.example").read_text()
    plain = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.partition("=")
            plain[name] = value[1:-1] if value[:1] == value[-1:] == '"' else value
    assert "SECRET_KEY" in plain and "DEFAULT_FROM_EMAIL" in plain
    assert parse(text) == plain
