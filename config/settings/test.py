"""Settings for the test suite: the base settings with test-only defaults.

``DATABASE_URL`` and ``REDIS_URL`` still come from the environment, so the
same suite runs on SQLite alone or, in CI, against PostgreSQL and Redis.
Tasks run eagerly unless a test (the worker integration tests) switches that off.
"""

import os

os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "test-only-not-a-secret")

from config.settings.base import *  # noqa: E402,F403

CELERY_TASK_ALWAYS_EAGER = True
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405
