"""Benchmarks, one module per area, run by ``python manage.py bench AREA``.

Not tests: each module's ``run(quick=..., out=...)`` measures on this machine
and returns ``(rows, figures)``; the command prints the rows as a table and the
figures as one JSON line, and never asserts a time.  The suite runs every area
with ``--quick`` (``tests/test_bench_quick.py``), so none breaks unseen.

- :mod:`bench.championship`: a championship's streams, results and next round on the production topology.
- :mod:`bench.cluster`: two instances of the Procfile behind nginx: results through one web instance, then two.
- :mod:`bench.decks`: deck validation, the Celery path, the full Pokémon import.
- :mod:`bench.games`: appending game entries through the service, replaying a long log.
- :mod:`bench.leagues`: a season's standings, ratings and meta report on the database.
- :mod:`bench.live`: the live push to 1,000 stream subscribers (real uvicorn).
- :mod:`bench.pairing`: the 1v1 Swiss against an exact matching, and pods.
- :mod:`bench.reports`: result reporting under a championship's load (real gunicorn and Celery).
- :mod:`bench.self_reports`: results reported by the players themselves, the same real processes.
- :mod:`bench.standings`: ``compute_standings`` on large synthetic events, no database.
"""

from __future__ import annotations

import os
import secrets


def organiser():
    """The benchmarks' organiser (kept between runs), given the organiser permission as site staff give it.

    Creating events takes that permission on a production database, where organising is not open to every
    account (``PODIUM_OPEN_ORGANISING`` off): a benchmark run there must not depend on it being open.
    """
    from django.contrib.auth import get_user_model

    from tournaments.services import organiser_permission_grant

    user, _ = get_user_model().objects.get_or_create(username="bench-organiser")
    organiser_permission_grant(user=user)
    return user


def server_environment(database_url: str, **more: str) -> dict[str, str]:
    """The environment of the servers and workers a benchmark starts: production's settings (``DEBUG`` off) on the
    benchmark's database, over plain HTTP on 127.0.0.1 (no HTTPS redirect, secure cookies or HSTS).

    With ``DEBUG`` off the settings refuse a weak ``SECRET_KEY``: each run makes a strong throwaway one for its
    processes (nothing they sign outlives the run; API tokens are stored as digests, signed with no key), whatever
    key this process was given.
    """
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": database_url,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        **{name: "false" for name in ("SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE")},
        "SECURE_HSTS_SECONDS": "0",
        **more,
    }
