"""Error reporting: with ``SENTRY_DSN`` set, server errors and failed tasks are sent to Sentry.

Started by the settings (so every process that loads them reports: the web servers, the workers, beat), with the
Django and Celery integrations: an exception a view lets out (the 500 a client gets), an ERROR line in the logs,
and a task that fails are each sent as an event, tagged with the request id of the request (:mod:`core.logging`)
so the event and the request's log lines are found together.  ``send_default_pii`` is off: no cookies, no user,
no client address; the environment and release are the settings' ``SENTRY_ENVIRONMENT`` and ``SENTRY_RELEASE``.
Performance tracing is off (Podium's latency is in ``/metrics``).  Without ``SENTRY_DSN`` the SDK is never
started and nothing is sent.

A bad ``Host`` (``django.security.DisallowedHost``) is a scanner's noise, not an error of Podium's: not sent.
"""

from __future__ import annotations

from typing import Any


def _tag_request_id(event: Any, hint: Any) -> Any:
    from core.logging import current_request_id

    rid = current_request_id()
    if rid:
        event.setdefault("tags", {})["request_id"] = rid
    return event


def start_error_reporting(*, dsn: str, environment: str, release: str | None) -> None:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration
    from sentry_sdk.integrations.logging import ignore_logger

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release,
        send_default_pii=False,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        traces_sample_rate=0.0,
        before_send=_tag_request_id,
    )
    ignore_logger("django.security.DisallowedHost")
