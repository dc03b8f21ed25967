"""``python manage.py bench AREA``: measure an area and print a table, then one JSON line with the figures.

Benchmarks, not tests: they print what they measure on this machine and never
assert a time.  Areas: see :data:`AREAS`; the modules live beside this command
in the top-level :mod:`bench` app, an entry point like ``config``.
"""

from __future__ import annotations

import importlib
import json
import platform

from django.core.management.base import BaseCommand, CommandError

AREAS = {
    "championship": "bench.championship",
    "cluster": "bench.cluster",
    "decks": "bench.decks",
    "games": "bench.games",
    "leagues": "bench.leagues",
    "live": "bench.live",
    "pairing": "bench.pairing",
    "reports": "bench.reports",
    "self-reports": "bench.self_reports",
    "standings": "bench.standings",
}


class Command(BaseCommand):
    help = "Run a benchmark: prints a readable table and, as the last line, one JSON object."

    def add_arguments(self, parser):
        parser.add_argument("area", choices=sorted(AREAS))
        parser.add_argument("--quick", action="store_true", help="Smaller sizes, for a smoke run.")
        parser.add_argument("--events", type=int, help="championship: this many events at once (default 1).")
        parser.add_argument("--players", type=int, help="championship: players in each event (default 4,000).")

    def handle(self, *args, area: str, quick: bool, events: int | None, players: int | None, **options):
        sizes = {name: value for name, value in (("events", events), ("players", players)) if value is not None}
        if sizes and area != "championship":
            raise CommandError("--events and --players are bench championship's.")
        if any(value < 1 for value in sizes.values()) or sizes.get("players", 2) < 2:
            raise CommandError("--events is at least 1 and --players at least 2.")
        module = importlib.import_module(AREAS[area])
        try:
            rows, figures = module.run(quick=quick, out=self.stdout, **sizes)
        except RuntimeError as exc:
            raise CommandError(str(exc)) from exc
        figures = {
            "area": area,
            "machine": f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}",
            **figures,
        }
        width = max(len(r[0]) for r in rows)
        self.stdout.write("")
        self.stdout.write(f"{'measure'.ljust(width)}  value")
        self.stdout.write(f"{'-' * width}  -----")
        for name, value in rows:
            self.stdout.write(f"{name.ljust(width)}  {value}")
        self.stdout.write(json.dumps(figures, sort_keys=True))
