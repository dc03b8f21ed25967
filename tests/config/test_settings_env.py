"""Settings read from the environment fail loudly on bad values."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings.env import read_bool, read_database, read_list, read_redis_url

ROOT = Path(__file__).resolve().parents[2]


def test_it_reads_booleans_strictly():
    assert read_bool("DEBUG", False, {"DEBUG": "yes"}) is True
    assert read_bool("DEBUG", True, {"DEBUG": "0"}) is False
    assert read_bool("DEBUG", True, {}) is True
    with pytest.raises(ImproperlyConfigured, match="DEBUG='maybe' is not a boolean"):
        read_bool("DEBUG", False, {"DEBUG": "maybe"})


def test_it_refuses_an_unknown_database_scheme():
    with pytest.raises(ImproperlyConfigured, match="unsupported database URL"):
        read_database("DATABASE_URL", "sqlite:///x", {"DATABASE_URL": "mongodb://localhost/podium"})


def test_it_reads_a_postgres_url():
    config = read_database("DATABASE_URL", "sqlite:///x", {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/podium"})
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert config["NAME"] == "podium"


def test_it_refuses_a_bad_redis_url():
    assert read_redis_url("REDIS_URL", {}) is None
    assert read_redis_url("REDIS_URL", {"REDIS_URL": "redis://127.0.0.1:6379/0"}) == "redis://127.0.0.1:6379/0"
    with pytest.raises(ImproperlyConfigured, match="not a Redis URL"):
        read_redis_url("REDIS_URL", {"REDIS_URL": "http://127.0.0.1:6379"})
    with pytest.raises(ImproperlyConfigured, match="bad port"):
        read_redis_url("REDIS_URL", {"REDIS_URL": "redis://127.0.0.1:notaport/0"})


def test_it_refuses_an_empty_allowed_hosts_list():
    with pytest.raises(ImproperlyConfigured):
        read_list("ALLOWED_HOSTS", ["localhost"], {"ALLOWED_HOSTS": " , "})


def _manage_check(env_overrides: dict[str, str]) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "SECRET_KEY", "DEBUG"}}
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_app_refuses_to_start_without_a_secret_key_when_debug_is_off():
    result = _manage_check({"DEBUG": "false"})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_the_app_refuses_to_start_with_a_malformed_debug_value():
    result = _manage_check({"DEBUG": "sometimes", "SECRET_KEY": "x"})
    assert result.returncode != 0
    assert "DEBUG='sometimes' is not a boolean" in result.stderr


def test_it_reads_positive_numbers_of_seconds():
    from config.settings.env import read_float

    assert read_float("PODIUM_SWEEP_SECONDS", 30.0, {}) == 30.0
    assert read_float("PODIUM_SWEEP_SECONDS", 30.0, {"PODIUM_SWEEP_SECONDS": "0.5"}) == 0.5
    for bad in ("soon", "0", "-1", "inf", "nan"):
        with pytest.raises(ImproperlyConfigured, match="PODIUM_SWEEP_SECONDS"):
            read_float("PODIUM_SWEEP_SECONDS", 30.0, {"PODIUM_SWEEP_SECONDS": bad})


@pytest.mark.parametrize(
    ("setting", "value", "message"),
    [
        ("TIME_ZONE", "Mars/Olympus_Mons", "TIME_ZONE='Mars/Olympus_Mons' is no time zone of the tz database"),
        ("PODIUM_PAPER", "b5", "PODIUM_PAPER='b5': use a4 or letter"),
    ],
)
def test_the_app_refuses_to_start_with_a_time_zone_or_paper_it_does_not_know(setting, value, message):
    result = _manage_check({"DEBUG": "true", setting: value})
    assert result.returncode != 0
    assert message in result.stderr
