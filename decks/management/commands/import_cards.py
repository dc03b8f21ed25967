"""``python manage.py import_cards pokemon|yugioh|mintayn [PATH]``: load a card pool into the catalogue.

PATH defaults to the folder under ``PODIUM_CARD_DATA_DIR`` (``pokemon-tcg-data``,
``ygo``); Mintayn has no default, organisers write their own CSV.  Re-running
an import is safe: cards are updated in place by their stable key.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from core import jobs
from core.exceptions import ApplicationError
from decks import services

DEFAULT_DIRS = {"pokemon": "pokemon-tcg-data", "yugioh": "ygo"}


class Command(BaseCommand):
    help = "Import card data (never committed) into the catalogue."

    def add_arguments(self, parser):
        parser.add_argument("family", choices=["pokemon", "yugioh", "mintayn"])
        parser.add_argument("path", nargs="?", help="Data folder or file; default: under PODIUM_CARD_DATA_DIR.")
        parser.add_argument("--no-progress", action="store_true", help="Do not draw a progress bar.")

    def handle(self, *args, family: str, path: str | None, no_progress: bool, **options):
        if path is None:
            if family not in DEFAULT_DIRS:
                raise CommandError(
                    "Give the path of the Mintayn CSV (header: name,card_type,class,level,def,stage,mana_cost; "
                    "docs/samples/ has an invented sample and its columns)."
                )
            source = Path(settings.PODIUM_CARD_DATA_DIR) / DEFAULT_DIRS[family]
        else:
            source = Path(path)
        if not source.exists():
            raise CommandError(f"{source} does not exist (set PODIUM_CARD_DATA_DIR or pass a path).")
        progress = None if no_progress else self._bar
        started = time.perf_counter()
        try:
            if family == "pokemon":
                report = services.cards_import_pokemon(root=source, progress=progress)
            elif family == "yugioh":
                report = services.cards_import_yugioh(path=source, progress=progress)
            else:
                report = services.cards_import_mintayn(path=source, progress=progress)
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        if progress:
            sys.stderr.write("\n")
        elapsed = time.perf_counter() - started
        for problem in report.problems:
            self.stderr.write(self.style.WARNING(problem))
        extra = f", {report.sets} sets" if report.sets else ""
        extra += f", {report.banlists} banlists" if report.banlists else ""
        self.stdout.write(self.style.SUCCESS(f"Imported {report.cards} {family} cards{extra} in {elapsed:.1f} s."))
        # Decks of events still registering get a fresh verdict (never fails the import if the broker is away).
        jobs.enqueue("decks.tasks.revalidate_family", family)

    def _bar(self, done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        sys.stderr.flush()
