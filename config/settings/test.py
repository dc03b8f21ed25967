"""Settings for the test suite: the base settings with test-only defaults.

``DATABASE_URL`` and ``REDIS_URL`` still come from the environment, so the
same suite runs on SQLite alone or, in CI, against PostgreSQL and Redis.
Tasks run eagerly unless a test (the worker integration tests) switches that off.
"""

import os

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

from config.settings.base import *  # noqa: E402,F403

CELERY_TASK_ALWAYS_EAGER = True
# Live events are published by the request that commits (as tasks run eagerly): the tests read them at once.  The
# servers the integration tests start run the publisher thread of the base settings.
PODIUM_LIVE_PUBLISH_THREAD = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405

# Django's test client signs in without a request (``client.login``), which django-axes refuses: throttling is
# off here, and the tests of sign-in throttling switch it on (``override_settings(AXES_ENABLED=True)``).
AXES_ENABLED = False
# Plain HTTP on the test server, whatever the environment says.
SECURE_SSL_REDIRECT = SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
