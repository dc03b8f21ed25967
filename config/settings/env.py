"""Strict readers for settings that come from the environment.

A wrong value stops the process at start with ``ImproperlyConfigured`` and a
message naming the variable: a typo in ``DEBUG`` or ``DATABASE_URL`` must never
quietly fall back to a default.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping
from urllib.parse import parse_qs, urlsplit

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


def read_choice(
    name: str, default: str, choices: tuple[str, ...], upper: bool = False, environ_: Mapping[str, str] = os.environ
) -> str:
    """One of ``choices`` (case-insensitive); unset or empty: ``default``."""
    raw = (environ_.get(name) or "").strip() or default
    value = raw.upper() if upper else raw.lower()
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={raw!r}: use one of {', '.join(choices)}.")
    return value


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


def read_int(name: str, default: int, minimum: int = 0, environ_: Mapping[str, str] = os.environ) -> int:
    """A whole number no smaller than ``minimum``."""
    raw = environ_.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name}={raw!r} must be {minimum} or more.")
    return value


_RATE = re.compile(r"^\s*(\d+)\s*/\s*(s|sec|second|m|min|minute|h|hour|d|day)\s*$")


def read_rate(name: str, default: str, environ_: Mapping[str, str] = os.environ) -> str:
    """A request rate: ``60/min`` (per ``s``/``sec``, ``m``/``min``, ``h``/``hour``, ``d``/``day``), at least 1."""
    raw = environ_.get(name)
    if raw is None or not raw.strip():
        return default
    match = _RATE.match(raw)
    if not match or int(match.group(1)) < 1:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a rate: use a count per period, e.g. 60/min or 20/hour.")
    return f"{int(match.group(1))}/{match.group(2)}"


def read_networks(name: str, environ_: Mapping[str, str] = os.environ) -> list[str]:
    """Addresses or networks (``10.0.0.1``, ``10.0.0.0/8``, ``2001:db8::/32``), comma-separated; unset: none."""
    raw = environ_.get(name)
    if raw is None or not raw.strip():
        return []
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if items == ["0"]:
        return []  # what "no proxy" was when this variable counted proxies
    if len(items) == 1 and items[0].isdigit():
        raise ImproperlyConfigured(
            f"{name}={raw!r}: list the proxies' addresses or networks (e.g. 10.0.0.1 or 10.0.0.0/8), not their "
            "number: forwarded addresses are believed only from these."
        )
    networks = []
    for item in items:
        try:
            networks.append(str(ipaddress.ip_network(item, strict=False)))
        except ValueError:
            raise ImproperlyConfigured(f"{name}: {item!r} is not an IP address or network.") from None
    return networks


def read_header(name: str, default: str, environ_: Mapping[str, str] = os.environ) -> tuple[str, str] | None:
    """An HTTP header and the value it must have, as Django's ``SECURE_PROXY_SSL_HEADER``: ``X-Forwarded-Proto``
    (the value ``https``) or ``X-Forwarded-Ssl: on``; empty: none."""
    raw = environ_.get(name)
    raw = default if raw is None else raw
    if not raw.strip():
        return None
    header, _, value = raw.partition(":")
    header, value = header.strip(), value.strip() or "https"
    if not re.fullmatch(r"[A-Za-z0-9-]+", header):
        raise ImproperlyConfigured(f"{name}={raw!r} is not a header name (X-Forwarded-Proto, or Name: value).")
    return "HTTP_" + header.upper().replace("-", "_"), value


def weak_secret_key(key: str) -> bool:
    """Django's own measure of a weak key (``check --deploy``): short, repetitive, or Django's insecure default."""
    return len(key) < 50 or len(set(key)) < 5 or key.startswith("django-insecure-")


def read_email_address(name: str, default: str, environ_: Mapping[str, str] = os.environ) -> str:
    """A sender address: ``podium@example.org`` or ``Podium <podium@example.org>``."""
    from email.headerregistry import Address
    from email.utils import parseaddr

    raw = environ_.get(name)
    if raw is None or not raw.strip():
        return default
    _, address = parseaddr(raw.strip())
    try:
        parsed = Address(addr_spec=address)
    except (ValueError, IndexError):
        parsed = None
    if parsed is None or not parsed.username or "." not in parsed.domain:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an email address (podium@example.org).")
    return raw.strip()


#: ``EMAIL_URL`` schemes: STARTTLS (``smtp+tls``, port 587), TLS from the start (``smtp+ssl``, 465), plain SMTP (25)
#: and the console.  ``smtps`` is refused: django-environ reads it as STARTTLS, most mail hosts as TLS on 465.
_MAIL_SCHEMES: dict[str, tuple[str, dict[str, bool], int]] = {
    "consolemail": ("django.core.mail.backends.console.EmailBackend", {}, 0),
    "smtp": ("django.core.mail.backends.smtp.EmailBackend", {}, 25),
    "smtp+tls": ("django.core.mail.backends.smtp.EmailBackend", {"use_tls": True}, 587),
    "smtp+ssl": ("django.core.mail.backends.smtp.EmailBackend", {"use_ssl": True}, 465),
}
#: Seconds an SMTP conversation may take: a stuck mail server must not hold a request (a password reset) for ever.
_MAIL_TIMEOUT = 10.0


def read_mailer(name: str, default: str, environ_: Mapping[str, str] = os.environ) -> dict:
    """A ``MAILERS`` entry from an email URL: ``smtp+tls://user:password@smtp.example.org:587?timeout=10``.

    User and password are percent-encoded (``@`` is ``%40``).  ``consolemail://`` prints each message on
    the console: no mail server needed.  Error messages never show the password.
    """
    raw = (environ_.get(name) or "").strip() or default
    shown = _without_password(raw)
    scheme = urlsplit(raw).scheme
    if scheme not in _MAIL_SCHEMES:
        raise ImproperlyConfigured(
            f"{name}={shown!r}: unsupported email URL; use smtp+tls://user:password@host:587, "
            "smtp+ssl://user:password@host:465, smtp://host:25 or consolemail://."
        )
    backend, tls, default_port = _MAIL_SCHEMES[scheme]
    if scheme == "consolemail":
        return {"BACKEND": backend}
    try:
        config = environ.Env.email_url_config(raw)
    except Exception as exc:  # django-environ raises several types on malformed URLs (a port that is no number, ...)
        raise ImproperlyConfigured(f"{name}={shown!r} is not a valid email URL: {exc}") from None
    if not config.get("EMAIL_HOST"):
        raise ImproperlyConfigured(f"{name}={shown!r} names no mail host.")
    options: dict = {"host": config["EMAIL_HOST"], "port": config.get("EMAIL_PORT") or default_port, **tls}
    if config.get("EMAIL_HOST_USER"):
        options["username"] = config["EMAIL_HOST_USER"]
        options["password"] = config.get("EMAIL_HOST_PASSWORD") or ""
    query = parse_qs(urlsplit(raw).query, keep_blank_values=True)
    unknown = sorted(set(query) - {"timeout"})
    if unknown:
        raise ImproperlyConfigured(
            f"{name}={shown!r}: unknown option(s) {', '.join(unknown)}; the only one is timeout."
        )
    options["timeout"] = _MAIL_TIMEOUT
    if "timeout" in query:
        value = query["timeout"][-1]
        try:
            options["timeout"] = float(value)
        except ValueError:
            raise ImproperlyConfigured(f"{name}={shown!r}: timeout={value!r} is not a number of seconds.") from None
        if not 0 < options["timeout"] < float("inf"):
            raise ImproperlyConfigured(f"{name}={shown!r}: timeout must be a positive number of seconds.")
    return {"BACKEND": backend, "OPTIONS": options}


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if not parts.password:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)
