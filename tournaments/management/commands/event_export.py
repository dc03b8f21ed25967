"""``python manage.py event_export EVENT_ID [-o FILE]``: write one event as a bundle (JSON) to move it elsewhere.

The bundle (:mod:`tournaments.bundle`) holds the event, its players,
registrations, decks, rounds, tables, seats, results, reports, penalties and
audit trail; ``event_import`` stores it as a new event on another Podium (or
this one).  Without ``-o`` it goes to standard output.
"""

from __future__ import annotations

import json
import socket
import sys

from django.core.management.base import BaseCommand, CommandError

from tournaments.bundle import BundleError
from tournaments.services.bundles import event_export


class Command(BaseCommand):
    help = "Write one event (players, decks, rounds, results, penalties, audit trail) as a JSON bundle."

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int, help="The event's id (as in its dashboard's address).")
        parser.add_argument("-o", "--output", metavar="FILE", help="Write here (default: standard output).")
        parser.add_argument(
            "--source", default=socket.gethostname(), help="Where the bundle comes from (default: this host's name)."
        )

    def handle(self, *args, event_id: int, output: str | None, source: str, **options):
        try:
            bundle = event_export(event_id=event_id, source=source)
        except BundleError as exc:
            raise CommandError(f"Event {event_id} does not exist.") from exc
        text = json.dumps(bundle, ensure_ascii=False, indent=1) + "\n"
        if output is None or output == "-":
            sys.stdout.write(text)
            return
        try:
            with open(output, "w", encoding="utf-8") as file:
                file.write(text)
        except OSError as exc:
            raise CommandError(f"Cannot write {output}: {exc.strerror}.") from exc
        counts = ", ".join(f"{len(bundle[k])} {k}" for k in ("players", "rounds", "seats", "decks", "audit"))
        self.stderr.write(f"Wrote event {event_id} ({bundle['event']['name']}: {counts}) to {output}.")
