"""The API as a whole: its OpenAPI schema, answers validated against it, and the fuzzing."""

from __future__ import annotations

import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "fuzz: property-based fuzzing of the API against its schema (run alone with -m fuzz)"
    )


@pytest.fixture
def wsgi_in_test_transaction(db):
    """Let requests sent through the WSGI application run inside the test's transaction.

    Like Django's test client, keep the end of a request from closing the
    database connection, which would break the transaction the test runs in.
    """
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)
