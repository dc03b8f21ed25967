"""``python manage.py venue_setup [--prepare] [--username NAME] [--url URL ...]``: what ``./bin/run --venue`` does
before it serves.

With ``--prepare`` it first migrates the database and collects the static files (DEBUG is off).  On the first start it creates the organiser account (``organiser`` unless named: site staff with the organiser
permission) with a random password, printed this once; on later starts the account is left as it is.  Then it
prints the addresses the server answers on (``--url``, as ``bin/run`` found them) and, for phones, a QR code of
the first one on the venue's network (the first that is not this machine's loopback address).
"""

from __future__ import annotations

import io
import ipaddress
from urllib.parse import urlsplit

import segno
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from accounts import services
from core.exceptions import ApplicationError

DEFAULT_USERNAME = "organiser"


def _on_the_network(url: str) -> bool:
    """Whether ``url`` names an address other machines can reach (not loopback, not ``localhost``)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return True  # a host name (podium.local): the network's


class Command(BaseCommand):
    help = "Create the venue's organiser account once (its password printed once) and print the address and a QR code."

    def add_arguments(self, parser):
        parser.add_argument("--username", default=DEFAULT_USERNAME, help="the organiser account's username")
        parser.add_argument(
            "--prepare", action="store_true", help="first migrate the database and collect the static files"
        )
        parser.add_argument(
            "--url", action="append", default=[], dest="urls", help="an address the server answers on (repeatable)"
        )

    def handle(self, *args, username: str, urls: list[str], prepare: bool, **options):
        if prepare:  # in this process rather than two more starts of Django: the venue's laptop starts sooner
            call_command("migrate", interactive=False, verbosity=0)
            # DEBUG is off: whitenoise serves the collected files, under their hashed names.
            call_command("collectstatic", interactive=False, verbosity=0)
        try:
            user, password = services.site_organiser_create(username=username)
        except ApplicationError as exc:
            raise CommandError(exc.message) from None
        out = self.stdout
        if urls:
            out.write("Podium answers at:")
            for url in urls:
                out.write(f"  {url}")
            shown = next((url for url in urls if _on_the_network(url)), urls[0])
            out.write(f"Phones can scan this code for {shown}:")
            drawn = io.StringIO()
            # Half blocks: two rows of modules a line, so the code fits a laptop's terminal.
            segno.make_qr(shown, error="m").terminal(out=drawn, compact=True, border=2)
            out.write(drawn.getvalue(), ending="")
            out.write(f"Sign in at {shown.rstrip('/')}{reverse(settings.LOGIN_URL)}")
        if password is not None:
            out.write(self.style.SUCCESS(f"The organiser account: username {user.get_username()}, password {password}"))
            out.write("Its password is shown this once: write it down (change it on the account page once signed in).")
        else:
            out.write(f"The organiser account is {user.get_username()} (its password was shown at the first start).")
