"""Strict readers for settings that come from the environment.

A wrong value stops the process at start with ``ImproperlyConfigured`` and a
message naming the variable: a typo in ``DEBUG`` or ``DATABASE_URL`` must never
quietly fall back to a default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def read_bool(name: str, default: bool, environ_: Mapping[str, str] = os.environ) -> bool:
    raw = environ_.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean: use one of true/false, 1/0, yes/no, on/off.")


def read_float(name: str, default: float, environ_: Mapping[str, str] = os.environ) -> float:
    """A positive number of seconds (or another positive quantity)."""
    raw = environ_.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a number.") from None
    if not value > 0 or value == float("inf"):
        raise ImproperlyConfigured(f"{name}={raw!r} must be a positive number.")
    return value


def read_list(name: str, default: list[str], environ_: Mapping[str, str] = os.environ) -> list[str]:
    raw = environ_.get(name)
    if raw is None:
        return default
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfigured(f"{name} is set but empty: give a comma-separated list.")
    return items


_DB_SCHEMES = {"sqlite", "postgres", "postgresql", "pgsql"}


def read_database(name: str, default: str, environ_: Mapping[str, str] = os.environ) -> dict:
    raw = environ_.get(name) or default
    scheme = urlsplit(raw).scheme
    if scheme not in _DB_SCHEMES:
        raise ImproperlyConfigured(
            f"{name}={raw!r}: unsupported database URL; use postgres://user@host:port/name or sqlite:///path."
        )
    try:
        config = environ.Env.db_url_config(raw)
    except Exception as exc:  # django-environ raises several types on malformed URLs
        raise ImproperlyConfigured(f"{name}={raw!r} is not a valid database URL: {exc}") from exc
    if not config.get("NAME"):
        raise ImproperlyConfigured(f"{name}={raw!r} names no database.")
    return config


def read_redis_url(name: str, environ_: Mapping[str, str] = os.environ) -> str | None:
    raw = environ_.get(name, "").strip()
    if not raw:
        return None
    parts = urlsplit(raw)
    if parts.scheme not in {"redis", "rediss"} or not parts.hostname:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a Redis URL: use redis://host:port/db.")
    try:
        parts.port  # noqa: B018 - raises ValueError on a non-numeric port
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}={raw!r} has a bad port.") from exc
    return raw
