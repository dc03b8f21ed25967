"""``python manage.py event_import FILE --organiser USERNAME``: store an event bundle as a new event.

The bundle comes from ``event_export`` (here or on another Podium: the venue
laptop's event uploaded to the main site).  Everything is stored in one
transaction under new ids, or nothing is: a bundle that is not one, is of a
newer version, or names something it does not hold is refused with what is
wrong and where (``$.seats[3].player``).  ``USERNAME`` organises the new event
(an organiser here: the organiser permission, unless organising is open).
Players with an external id are matched to the player record here with the
same one; the others become player records without an account, which their
people can claim.  Who acted (reported, ruled, changed) is named in the
imported audit entries; ``--link-accounts`` also links them to the accounts
of the same usernames here (for two sites whose accounts are the same
people).  Importing a bundle twice makes two events.  ``FILE`` ``-``
reads standard input.
"""

from __future__ import annotations

import json
import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from core.exceptions import ApplicationError
from tournaments.bundle import BundleError
from tournaments.services.bundles import event_import


class Command(BaseCommand):
    help = "Store an event bundle (from event_export) as a new event, in one transaction."

    def add_arguments(self, parser):
        parser.add_argument("file", help="The bundle (JSON); - for standard input.")
        parser.add_argument(
            "--organiser", required=True, metavar="USERNAME", help="The account that organises the new event."
        )
        parser.add_argument(
            "--link-accounts",
            action="store_true",
            help="Link who acted (reported, ruled, changed) to the account of the same username here.",
        )

    def handle(self, *args, file: str, organiser: str, link_accounts: bool, **options):
        user = get_user_model().objects.filter(username=organiser).first()
        if user is None:
            raise CommandError(f"No account has the username {organiser!r}: name the new event's organiser.")
        try:
            if file == "-":
                bundle = json.load(sys.stdin)
            else:
                with open(file, encoding="utf-8") as source:
                    bundle = json.load(source)
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror}.") from exc
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise CommandError(f"{file} is not JSON: {exc}. Nothing was stored.") from exc
        try:
            event = event_import(bundle=bundle, organiser=user, link_accounts=link_accounts)
        except BundleError as exc:
            raise CommandError(f"The bundle is refused: {exc}. Nothing was stored.") from exc
        except ApplicationError as exc:  # the organiser may not organise events here
            raise CommandError(f"{organiser} cannot organise the event: {exc.message} Nothing was stored.") from exc
        self.stdout.write(
            f"Imported {event.name!r} from {bundle['source']} (event {bundle['event']['id']} there) as event "
            f"{event.pk}, organised by {organiser}."
        )
