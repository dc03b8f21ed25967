"""``python manage.py vocabulary_docs``: write the engines' vocabulary into ``docs/games/*.md``.

Each doc's section between the markers of :mod:`games.vocabulary` is replaced (or appended);
``--check`` changes nothing and fails when a doc is out of date.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.vocabulary import documents, rewrite


class Command(BaseCommand):
    help = (
        "Write each format's event vocabulary (fields, kinds, one-tap entries), options and interpretations into "
        "docs/games/."
    )

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="Fail if a doc is out of date; write nothing.")

    def handle(self, *args, check: bool, **options):
        stale = []
        for path, sections in documents(Path(settings.BASE_DIR) / "docs" / "games").items():
            text = path.read_text(encoding="utf-8")
            new = text
            for section in sections:
                new = rewrite(new, section)
            if new == text:
                continue
            stale.append(path.name)
            if not check:
                path.write_text(new, encoding="utf-8")
                self.stdout.write(f"  wrote {path.name}")
        if check and stale:
            raise CommandError(f"Out of date: {', '.join(stale)}. Run python manage.py vocabulary_docs.")
        if not stale:
            self.stdout.write("The vocabulary docs are current.")
