"""Settings for the test suite: the base settings with test-only defaults.

``DATABASE_URL`` and ``REDIS_URL`` still come from the environment, so the
same suite runs on SQLite alone or, in CI, against PostgreSQL and Redis.
Tasks run eagerly unless a test (the worker integration tests) switches that off.
"""

import os
from urllib.parse import urlsplit, urlunsplit

os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "test-only-not-a-secret-" + "0123456789abcdef" * 3)
# API sign-ups are throttled per address in the shared cache, which outlives a run: the tests of that throttle
# set their own rate, the rest must not meet it.
os.environ.setdefault("PODIUM_SIGNUP_RATE", "100000/hour")
# The fixtures' users create events without being given the organiser permission; the tests of that permission
# switch this off.
os.environ.setdefault("PODIUM_OPEN_ORGANISING", "true")
# Likewise signed-in writes (the fixtures' organiser makes thousands over a run).
os.environ.setdefault("PODIUM_WRITE_RATE", "100000/min")


def _redis_url_of_this_worker(url: str, worker: str) -> str:
    """The suite runs in parallel (pytest-xdist, ``bin/test``): worker ``gwN`` takes the Redis database N places
    after the one given, as pytest-django gives it a test database of its own, so throttle counters, the broker's
    queues and the live channel of one worker never meet another's.  The processes a test starts inherit it."""
    if not url or not worker.startswith("gw") or not worker[2:].isdigit():
        return url
    parts = urlsplit(url)
    given = parts.path.strip("/")
    number = (int(given) if given.isdigit() else 0) + int(worker[2:])
    return urlunsplit(parts._replace(path=f"/{number % 16}"))


if os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = _redis_url_of_this_worker(
        os.environ["REDIS_URL"], os.environ.get("PYTEST_XDIST_WORKER", "")
    )

from config.settings.base import *  # noqa: E402,F403

CELERY_TASK_ALWAYS_EAGER = True
# Live events are published by the request that commits (as tasks run eagerly): the tests read them at once.  The
# servers the integration tests start run the publisher thread of the base settings.
PODIUM_LIVE_PUBLISH_THREAD = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    # The test database is thrown away: a commit need not wait for its write-ahead log to reach the disk (a few ms
    # each, thousands of them in a run: migrations, flushes, imports).  Visibility and locking are unchanged; only
    # the last commits would be lost if the machine crashed.  tests/conftest.py sets it on the database too, for
    # the servers and workers the tests start.
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"  # noqa: F405
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405

# Django's test client signs in without a request (``client.login``), which django-axes refuses: throttling is
# off here, and the tests of sign-in throttling switch it on (``override_settings(AXES_ENABLED=True)``).
AXES_ENABLED = False
# Plain HTTP on the test server, whatever the environment says.
SECURE_SSL_REDIRECT = SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
