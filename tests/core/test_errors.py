"""Error reporting (core.errors) is off unless ``SENTRY_DSN`` is set: the SDK is not even started.

With it set, a real server's error reaches a stand-in endpoint: tests/integration/test_observability.py.
"""

from __future__ import annotations

import sentry_sdk
from django.conf import settings


def test_without_a_dsn_the_sdk_is_never_started_so_nothing_can_be_sent():
    assert settings.SENTRY_DSN == ""
    assert not sentry_sdk.get_client().is_active()


def test_the_environment_and_release_come_from_the_settings():
    assert settings.SENTRY_ENVIRONMENT == ("development" if settings.DEBUG else "production")
    assert settings.SENTRY_RELEASE is None
