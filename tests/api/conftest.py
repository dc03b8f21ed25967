"""The API as a whole: its OpenAPI schema and the fuzzing against it."""

from __future__ import annotations


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "fuzz: property-based fuzzing of the API against its schema (run alone with -m fuzz)"
    )
