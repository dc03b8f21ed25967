"""Production settings: ``check --deploy`` is clean, each security setting comes from the variable of its name
(secure by default when ``DEBUG`` is off), email comes from ``EMAIL_URL``, bad values and weak keys stop the start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings.env import read_email_address, read_int, read_mailer

ROOT = Path(__file__).resolve().parents[2]

#: What a production deployment sets (the secret is long and random, as ``check --deploy`` wants it).
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "k3Vq-8fZr0xWm2LpT9sYc4HbN7uQeJ1aG6dR5oKiX2vB8nM0wE3tSyU7zA4hC9jF",
    "ALLOWED_HOSTS": "podium.example.org",
    "EMAIL_URL": "smtp+tls://podium%40example.org:app-password@smtp.example.org:587",
    "DEFAULT_FROM_EMAIL": "Podium <podium@example.org>",
}


def _manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return _manage_like([sys.executable, "manage.py", *args], env)


def _load(env: dict[str, str], code: str = "settings.SECRET_KEY") -> subprocess.CompletedProcess:
    """The settings alone read in a process of their own with ``env``, as every start reads them first (a refusal
    stops there); about a tenth of the cost of a whole ``manage.py`` command, which also loads every app."""
    return _manage_like([sys.executable, "-c", f"from django.conf import settings; {code}"], env)


def _manage_like(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DJANGO_SETTINGS_MODULE", "SECRET_KEY", "DEBUG"}
        and not k.startswith(("PODIUM_", "EMAIL_", "SECURE_", "SESSION_", "CSRF_"))
    }
    return subprocess.run(
        command,
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings.base", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_settings():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_warns_when_https_is_switched_off():
    off = {name: "false" for name in ("SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE")}
    result = _manage(
        "check", "--deploy", "--fail-level", "WARNING", env={**PRODUCTION, **off, "SECURE_HSTS_SECONDS": "0"}
    )
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stderr + result.stdout, warning


@pytest.mark.parametrize(
    "key",
    ["x", "change-me", "django-insecure-" + "a1b2c3d4e5" * 5, "abababababababababababababababababababababababababab"],
)
def test_production_refuses_to_start_with_a_short_or_default_secret_key(key):
    result = _load({**PRODUCTION, "SECRET_KEY": key})
    assert result.returncode != 0
    assert "SECRET_KEY is too weak for production" in result.stderr
    assert _load({**PRODUCTION, "SECRET_KEY": key, "DEBUG": "true"}).returncode == 0


@pytest.mark.parametrize(
    "retired", ["PODIUM_HTTPS", "PODIUM_HSTS_SECONDS", "PODIUM_HSTS_SUBDOMAINS", "PODIUM_HSTS_PRELOAD"]
)
def test_a_retired_https_variable_stops_the_start_and_names_its_replacement(retired):
    result = _load({**PRODUCTION, retired: "true"})
    assert result.returncode != 0 and f"{retired} is no longer read: set SE" in result.stderr


def test_check_deploy_warns_when_real_mail_has_the_placeholder_sender():
    env = {k: v for k, v in PRODUCTION.items() if k != "DEFAULT_FROM_EMAIL"}
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode != 0 and "accounts.W001" in result.stderr + result.stdout


def test_check_deploy_refuses_the_console_mail_of_development():
    """Django's own check (``mail.E001``): production sets ``EMAIL_URL``."""
    result = _manage("check", "--deploy", env={**PRODUCTION, "EMAIL_URL": "consolemail://"})
    assert result.returncode != 0 and "mail.E001" in result.stderr + result.stdout


def test_a_malformed_email_url_stops_the_start_and_hides_the_password():
    result = _load({**PRODUCTION, "EMAIL_URL": "smtps://me:hunter2@smtp.example.org"})
    assert result.returncode != 0
    assert "unsupported email URL" in result.stderr and "hunter2" not in result.stderr


def _printed(env: dict[str, str], *names: str) -> list[str]:
    printed = _load(env, f"print(*(repr(getattr(settings, n, None)) for n in {names!r}), sep='|')")
    assert printed.returncode == 0, printed.stderr
    return printed.stdout.strip().split("|")


SECURITY = ("SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS",
            "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "SECURE_PROXY_SSL_HEADER")  # fmt: skip


def test_security_settings_are_secure_by_default_when_debug_is_off_and_off_for_debug():
    from django.conf import settings as live

    # The test settings speak plain HTTP whatever the environment says.
    assert not live.SECURE_SSL_REDIRECT and not live.SESSION_COOKIE_SECURE and live.SECURE_HSTS_SECONDS == 0
    assert _printed(PRODUCTION, *SECURITY) == ["True", "True", "True", "31536000", "True", "True", "None"]
    debug = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"} | {"DEBUG": "true"}
    assert _printed(debug, *SECURITY) == ["False", "False", "False", "0", "False", "False", "None"]


def test_each_security_setting_is_read_from_the_variable_of_its_name():
    env = {
        **PRODUCTION, "SECURE_SSL_REDIRECT": "false", "SESSION_COOKIE_SECURE": "off", "CSRF_COOKIE_SECURE": "0",
        "SECURE_HSTS_SECONDS": "3600", "SECURE_HSTS_INCLUDE_SUBDOMAINS": "no", "SECURE_HSTS_PRELOAD": "false",
        "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Ssl: on",
    }  # fmt: skip
    assert _printed(env, *SECURITY) == [
        "False", "False", "False", "3600", "False", "False", "('HTTP_X_FORWARDED_SSL', 'on')",
    ]  # fmt: skip


def test_behind_configured_proxies_https_comes_from_x_forwarded_proto():
    env = {**PRODUCTION, "PODIUM_PROXIES": "10.0.0.0/8, 192.0.2.1"}
    assert _printed(env, "PODIUM_PROXIES", "SECURE_PROXY_SSL_HEADER", "MAILERS") [:2] == [
        "['10.0.0.0/8', '192.0.2.1/32']", "('HTTP_X_FORWARDED_PROTO', 'https')",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("value", "message"),
    [("2", "not their number"), ("10.0.0.300", "not an IP address or network"), ("proxy.internal", "not an IP")],
)
def test_a_bad_proxy_list_stops_the_start(value, message):
    result = _load({**PRODUCTION, "PODIUM_PROXIES": value})
    assert result.returncode != 0 and message in result.stderr


def test_the_console_backend_is_the_default():
    assert read_mailer("EMAIL_URL", "consolemail://", {}) == {
        "BACKEND": "django.core.mail.backends.console.EmailBackend"
    }


def test_an_smtp_url_becomes_a_mailer_with_its_credentials_and_a_timeout():
    mailer = read_mailer(
        "EMAIL_URL", "consolemail://", {"EMAIL_URL": "smtp+tls://podium%40example.org:p%40ss@smtp.example.org"}
    )
    assert mailer == {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {
            "host": "smtp.example.org", "port": 587, "use_tls": True, "username": "podium@example.org",
            "password": "p@ss", "timeout": 10.0,
        },
    }  # fmt: skip
    ssl = read_mailer("EMAIL_URL", "", {"EMAIL_URL": "smtp+ssl://smtp.example.org?timeout=3"})["OPTIONS"]
    assert (ssl["port"], ssl["use_ssl"], ssl["timeout"]) == (465, True, 3.0)
    assert read_mailer("EMAIL_URL", "", {"EMAIL_URL": "smtp://relay.internal"})["OPTIONS"]["port"] == 25


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("smtps://smtp.example.org", "unsupported email URL"),
        ("http://smtp.example.org", "unsupported email URL"),
        ("smtp+tls://:587", "names no mail host"),
        ("smtp+tls://u:secret@smtp.example.org:port", "not a valid email URL"),
        ("smtp://smtp.example.org?tls=1", "unknown option"),
        ("smtp://smtp.example.org?timeout=soon", "not a number of seconds"),
        ("smtp://smtp.example.org?timeout=0", "positive number"),
    ],
)
def test_a_bad_email_url_is_refused_loudly(url, message):
    with pytest.raises(ImproperlyConfigured, match=message) as refused:
        read_mailer("EMAIL_URL", "consolemail://", {"EMAIL_URL": url})
    assert "secret" not in str(refused.value)


def test_sender_addresses_and_whole_numbers_are_read_strictly():
    assert read_email_address("DEFAULT_FROM_EMAIL", "x", {"DEFAULT_FROM_EMAIL": "Podium <p@example.org>"}) == (
        "Podium <p@example.org>"
    )
    for bad in ("podium", "podium@localhost", "Podium <>"):
        with pytest.raises(ImproperlyConfigured, match="not an email address"):
            read_email_address("DEFAULT_FROM_EMAIL", "x", {"DEFAULT_FROM_EMAIL": bad})
    assert read_int("PODIUM_SIGNIN_ATTEMPTS", 5, 1, {}) == 5
    for bad, message in (("five", "not a whole number"), ("0", "1 or more")):
        with pytest.raises(ImproperlyConfigured, match=message):
            read_int("PODIUM_SIGNIN_ATTEMPTS", 5, 1, {"PODIUM_SIGNIN_ATTEMPTS": bad})
