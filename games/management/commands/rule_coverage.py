"""``python manage.py rule_coverage``: write each rulebook's coverage table into ``docs/games/<slug>-coverage.md``.

The tables are generated from ``rules/<format>/coverage.py`` (:mod:`rules.coverage`); the counts per format
(rules enforced / the judge's call) are printed.  ``--check`` changes nothing and fails when a doc is out of date.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from rules.coverage import coverages, doc_name, document


class Command(BaseCommand):
    help = "Write each rulebook's coverage (every rule: its check and test, or the judge's call) into docs/games/."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="Fail if a doc is out of date; write nothing.")

    def handle(self, *args, check: bool, **options):
        docs = Path(settings.BASE_DIR) / "docs" / "games"
        stale = []
        for coverage in coverages():
            enforced, judged = coverage.counts()
            self.stdout.write(f"{coverage.slug}: {enforced} enforced, {judged} the judge's call")
            path = docs / doc_name(coverage)
            text = document(coverage)
            if path.exists() and path.read_text(encoding="utf-8") == text:
                continue
            stale.append(path.name)
            if not check:
                path.write_text(text, encoding="utf-8")
                self.stdout.write(f"  wrote {path.name}")
        if check and stale:
            raise CommandError(f"Out of date: {', '.join(stale)}. Run python manage.py rule_coverage.")
        if not stale:
            self.stdout.write("The coverage docs are current.")
