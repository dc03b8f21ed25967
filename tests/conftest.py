"""Shared fixtures: named personas, API clients, the real card catalogue, and the gate for integration tests.

Integration tests (``@pytest.mark.integration``) need PostgreSQL (``DATABASE_URL``)
and Redis (``REDIS_URL``).  Without them they skip and say why; with ``CI=true``
a missing service fails the run instead, so CI can never pass by skipping them.
"""

from __future__ import annotations

import os
import time

import pytest

from tests.support.catalogue import (  # noqa: F401 (fixtures, for every test)
    _imported_catalogue,
    card_catalogue,
    catalogue_as_the_demo_finds_it,
)

IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogues():
    """The translations' catalogues compiled (``.mo`` files are not committed; bin/setup compiles them too): the ones
    whose ``.po`` changed since, or never compiled.  Each process may do it; a catalogue is replaced whole."""
    from core.catalogues import compile_stale

    compile_stale()


def integration_services_missing() -> str | None:
    from django.conf import settings

    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        return "DATABASE_URL does not point at PostgreSQL"
    if not settings.REDIS_URL:
        return "REDIS_URL is not set"
    return None


def pytest_collection_modifyitems(config, items):
    if not any(item.get_closest_marker("integration") for item in items):
        return
    missing = integration_services_missing()
    if missing is None:
        return
    if IN_CI and any(item.get_closest_marker("integration") for item in items):
        raise pytest.UsageError(f"CI=true but the integration tests cannot run: {missing}.")
    skip = pytest.mark.skip(reason=f"integration test needs PostgreSQL and Redis: {missing}")
    for item in items:
        if item.get_closest_marker("integration"):
            item.add_marker(skip)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``bin/test``'s ``--dist loadfile``, the slow files first (``tests/support/scheduling.py``)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from tests.support.scheduling import SlowFirstFileScheduling

    return SlowFirstFileScheduling(config, log)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test databases; on PostgreSQL, the servers and workers the tests start commit without
    waiting for the disk too, as this process does (``config/settings/test.py``): the database is thrown away.

    And a transactional test (a live server, a worker, a benchmark) empties the tables when it ends by deleting
    their rows rather than with Django's ``TRUNCATE``, which makes new files for every table and its indexes: about
    2.4 s for the suite's 56 tables on this machine, against 0.05 s to delete the few rows a test leaves.  The
    tables end as empty either way (the foreign keys are checked at the commit, once all are empty); a test that
    asks for its sequences reset, or for a cascade, still gets Django's own statement.  A flush that a server still
    writing makes fail (a row committed between the deletes) is tried again.
    """
    from django.core.management import CommandError
    from django.core.management.commands.flush import Command as FlushCommand
    from django.db import connection
    from django.db.backends.postgresql.operations import DatabaseOperations

    if connection.vendor != "postgresql":
        yield
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        name = connection.ops.quote_name(connection.settings_dict["NAME"])
        cursor.execute(f"ALTER DATABASE {name} SET synchronous_commit = off")
    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]

    DatabaseOperations.sql_flush = sql_flush
    flush_handle = FlushCommand.handle

    def handle(self, **options):
        # A server or worker a test started may still be writing as the test ends (a sweep's recompute, its live
        # event): a row it commits between two of the deletes refers to one deleted, and the flush's commit fails
        # on that foreign key.  The next attempt deletes that row too.
        for attempt in range(5):
            try:
                return flush_handle(self, **options)
            except CommandError:
                if attempt == 4:
                    raise
                time.sleep(0.2)

    FlushCommand.handle = handle
    yield
    FlushCommand.handle = flush_handle
    DatabaseOperations.sql_flush = truncate


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user(username="organiser", password="pw")


@pytest.fixture
def outsider(django_user_model):
    return django_user_model.objects.create_user(username="outsider", password="pw")


@pytest.fixture
def site_staff(django_user_model):
    """A Django staff user (``is_staff``): may manage every event. Not an event's judge (see the roles)."""
    return django_user_model.objects.create_user(username="site-staff", password="pw", is_staff=True)


def _client_for(user):
    # Imported here so the pure-engine tests can run without Django (``-p no:django``).
    from rest_framework.test import APIClient

    from tests.support.people import token_for

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


@pytest.fixture
def api(organiser):
    """The organiser's API client, with token auth as scripts use it."""
    return _client_for(organiser)


@pytest.fixture
def outsider_api(outsider):
    return _client_for(outsider)


@pytest.fixture
def anon_api():
    from rest_framework.test import APIClient

    return APIClient()


#: Figures tests measured (a fault test's time to heal, against its bound), printed at the end of the run.  They
#: travel as the test report's user properties, so the run's summary has them under pytest-xdist too.
FIGURES = pytest.StashKey[list]()
FIGURE = "measured"


@pytest.fixture
def report_figure(request):
    """``report_figure("healed in", "21.3 s (bound 71 s)")``: printed in the run's summary, pass or fail (bounds are
    waited for with a deadline, never asserted on a clock, and what was measured is reported)."""

    def report(what: str, value: str) -> None:
        request.node.user_properties.append((FIGURE, f"{request.node.name}: {what}: {value}"))

    return report


@pytest.hookimpl
def pytest_configure(config):
    config.stash[FIGURES] = []

    class Figures:
        @staticmethod
        def pytest_runtest_logreport(report):
            if report.when == "teardown":
                config.stash[FIGURES].extend(value for key, value in report.user_properties if key == FIGURE)

    config.pluginmanager.register(Figures(), "podium-figures")


def pytest_terminal_summary(terminalreporter, config):
    """Measured figures, and the random test order's seed, also under ``-q`` (CI): ``--randomly-seed=N`` repeats
    the order."""
    figures = config.stash.get(FIGURES, [])
    if figures:
        terminalreporter.section("measured")
        for line in figures:
            terminalreporter.write_line(line)
    seed = getattr(config.option, "randomly_seed", None)
    if config.pluginmanager.hasplugin("randomly") and seed is not None:
        terminalreporter.write_line(f"test order: --randomly-seed={seed} repeats it")
