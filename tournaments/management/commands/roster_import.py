"""``python manage.py roster_import EVENT_ID FILE``: register every player of a roster file at an event.

The file is a CSV (header row: ``name``, and optionally ``player_id``, ``checked_in``, ``fixed_table``) or a TOM
``.tdf``, read as the dashboard's "Import players" reads it (:func:`tournaments.services.roster_import`): all
players or none, every problem printed with its line.  The players are entered by the event's organiser, or by
the account ``--as`` names (it must be allowed to manage the event's registrations).
"""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from core.exceptions import ApplicationError
from tournaments import roster, selectors, services


class Command(BaseCommand):
    help = "Register every player of a roster file (CSV or TOM .tdf) at an event, or none."

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int)
        parser.add_argument("file", type=Path)
        parser.add_argument("--as", dest="username", help="The account entering the players (default: the organiser).")
        parser.add_argument(
            "--checked-in", action="store_true", help="Check in the players whose row does not say (a .tdf's)."
        )

    def handle(self, *args, event_id: int, file: Path, username: str | None, checked_in: bool, **options):
        event = selectors.events_with_organiser().filter(pk=event_id).first()
        if event is None:
            raise CommandError(f"Event {event_id} does not exist.")
        by = event.organiser
        if username is not None:
            by = get_user_model().objects.filter(username=username).first()
            if by is None:
                raise CommandError(f"No account is called {username!r}.")
        try:
            with file.open("rb") as handle:
                data = handle.read(roster.MAX_BYTES + 1)
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror or exc}.") from None
        try:
            imported = services.roster_import(event=event, by=by, data=data, checked_in=checked_in)
        except ApplicationError as exc:
            for line in exc.extra.get("lines", []) if exc.code == "invalid_roster" else []:
                self.stderr.write(str(roster.Problem(line["line"], line["column"], line["message"])))
            raise CommandError(exc.message) from None
        self.stdout.write(
            f"Imported {len(imported.registrations)} players into {event.name}: {imported.registered} registered, "
            f"{imported.invited} invited."
        )
