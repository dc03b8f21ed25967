"""``manage.py vapid_keys``: make a VAPID key pair for Web Push and print it as the settings to set."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from notifications.push import generate_keys


class Command(BaseCommand):
    help = "Make a VAPID key pair for Web Push; set the two lines it prints in the environment (keep the private key secret)."

    def handle(self, *args, **options) -> None:
        keys = generate_keys()
        self.stdout.write(f"VAPID_PUBLIC_KEY={keys.public}\nVAPID_PRIVATE_KEY={keys.private}\n")
