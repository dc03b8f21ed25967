"""``python manage.py demo``: a demo event of every format, with players and a played round.

Idempotent: events already created by the demo are left as they are (use
``--reset`` to delete and recreate them).  Everything goes through the same
services the dashboard and the API use.
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils import timezone

from games.formats import FORMATS
from tournaments import services
from tournaments.models import Event

DEMO_USER = "organiser"
DEMO_PASSWORD = "podium-demo"
PREFIX = "Demo · "

NAMES = [
    "Ash Ketch",
    "Misty Waters",
    "Brock Stone",
    "May Maple",
    "Dawn Berlitz",
    "Iris Drake",
    "Serena Yvon",
    "Lillie Aether",
    "Gloria Post",
    "Nemona Rival",
    "Kieran Kita",
    "Cynthia Shirona",
    "Steven Stone",
    "Lance Dragon",
    "Yugi Muto",
    "Joey Wheeler",
    "Mai Kujaku",
    "Seto Kaiba",
    "Tea Gardner",
    "Ryo Bakura",
    "Marik Ishtar",
    "Mako Tsunami",
    "Rex Raptor",
    "Weevil Under",
    "Aria Vale",
    "Bram Cole",
]

#: format slug -> (players, event name, venue, planned rounds)
DEMO_EVENTS = {
    "master-trainer": (14, "Master Trainer Monthly", "The Pallet Lounge", 4),
    "format3-trinity": (13, "Trinity Tuesday", "Cerulean Cards", 3),
    "mt-silver": (16, "Mt. Silver Expedition", "Johto Hall", 3),
    "deck-masters": (11, "Deck Masters Duel Night", "Battle City Games", 4),
    "mintayn-master": (12, "Mintayn Master Cup", "Aether Club", 4),
}


class Command(BaseCommand):
    help = "Create a demo event of every format, with players and a played first round."

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="Delete the demo events first and recreate them.")
        parser.add_argument("--seed", type=int, default=2026, help="Random seed for pairings and results.")

    def handle(self, *args, reset: bool, seed: int, **options):
        user = self._organiser()
        if reset:
            Event.objects.filter(name__startswith=PREFIX, organiser=user).delete()
        rng = random.Random(seed)
        for slug, (count, name, venue, rounds) in DEMO_EVENTS.items():
            full_name = PREFIX + name
            if Event.objects.filter(name=full_name, organiser=user).exists():
                self.stdout.write(f"  {full_name}: already there")
                continue
            event = services.event_create(
                organiser=user,
                name=full_name,
                format=slug,
                planned_rounds=rounds,
                date=timezone.localdate(),
                venue=venue,
            )
            for i in range(count):
                display_name = NAMES[(i + len(slug)) % len(NAMES)]
                # The same external id reuses the player across the demo events.
                services.registration_create(
                    event=event,
                    by=user,
                    display_name=display_name,
                    external_id=f"demo-{display_name}",
                    checked_in=True,
                )
            round_ = services.round_start(event=event, by=user, seed=rng.randrange(2**62))
            for pod in round_.pods.filter(is_bye=False).prefetch_related("seats"):
                players = [s.player_id for s in pod.seats.all()]
                rng.shuffle(players)
                placements = {pid: place for place, pid in enumerate(players, start=1)}
                if len(players) == 2 and rng.random() < 0.15:
                    placements = dict.fromkeys(players, 1)  # the odd draw
                services.pod_result_report(
                    event=event, round_number=1, table_number=pod.table_number, placements=placements, by=user
                )
            self.stdout.write(f"  {full_name} ({FORMATS[slug].name}): {count} players, round 1 played")
        self.stdout.write(self.style.SUCCESS(f"Demo ready. Sign in as {DEMO_USER!r} with password {DEMO_PASSWORD!r}."))

    def _organiser(self):
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=DEMO_USER, defaults={"is_staff": True, "is_superuser": True, "email": "organiser@example.org"}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
        return user
