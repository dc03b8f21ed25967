"""What every server or worker process the tests start runs with: production settings (``DEBUG`` off, a
strong secret key) over plain HTTP on 127.0.0.1.  The integration tests' gunicorn and workers and the live
tests' uvicorn share it."""

from __future__ import annotations

LOCAL = {
    "DJANGO_SETTINGS_MODULE": "config.settings.base",
    "DEBUG": "false",
    "SECRET_KEY": "integration-tests-only-" + "9f3c1ab27d" * 4,
    "SECURE_SSL_REDIRECT": "false",
    "SESSION_COOKIE_SECURE": "false",
    "CSRF_COOKIE_SECURE": "false",
    "SECURE_HSTS_SECONDS": "0",
}
