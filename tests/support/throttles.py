"""Throttles for the tests: rates of one's own, and client addresses nobody has used.

- :func:`throttle_rates`: override some of ``DEFAULT_THROTTLE_RATES`` (``deck_checks_anon="2/min"``).
- :func:`fresh_address`: an address no earlier request came from (the counters live in the shared cache,
  which outlives a run).
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.test import override_settings


def throttle_rates(**rates: str) -> override_settings:
    rest = settings.REST_FRAMEWORK
    return override_settings(
        REST_FRAMEWORK={**rest, "DEFAULT_THROTTLE_RATES": {**rest["DEFAULT_THROTTLE_RATES"], **rates}}
    )


def fresh_address() -> str:
    """An IPv6 documentation address (2001:db8::/32) made up for this call."""
    digits = uuid.uuid4().hex
    return "2001:db8:" + ":".join(digits[i : i + 4] for i in range(0, 24, 4))
