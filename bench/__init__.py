"""Benchmarks, one module per area, run by ``python manage.py bench AREA``.

Not tests: each module's ``run(quick=..., out=...)`` measures on this machine
and returns ``(rows, figures)``; the command prints the rows as a table and the
figures as one JSON line, and never asserts a time.

- :mod:`bench.decks`: deck validation, the Celery path, the full Pokémon import.
- :mod:`bench.games`: appending game entries through the service, replaying a long log.
- :mod:`bench.pairing`: the 1v1 Swiss against an exact matching, and pods.
- :mod:`bench.reports`: result reporting under a championship's load (real gunicorn and Celery).
- :mod:`bench.self_reports`: results reported by the players themselves, the same real processes.
- :mod:`bench.standings`: ``compute_standings`` on large synthetic events, no database.
"""
