"""``python manage.py demo``: a demo event of every format, with players and a played round.

It also imports the shared card data when present (``PODIUM_CARD_DATA_DIR``)
and opens a Format3 Trinity event for registration, where the demo player
``player`` has submitted a theme deck for checking.

Idempotent: events already created by the demo are left as they are (use
``--reset`` to delete and recreate them).  Everything goes through the same
services the dashboard and the API use.
"""

from __future__ import annotations

import datetime
import json
import logging
import random
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils import timezone

from games.formats import FORMATS
from tournaments import services
from tournaments.models import Event, Player, Registration

DEMO_USER = "organiser"
PLAYER_USER = "player"
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
    help = "Create a demo event of every format: players, a late entry, round 1 played and round 2 paired."

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="Delete the demo events first and recreate them.")
        parser.add_argument("--seed", type=int, default=2026, help="Random seed for pairings and results.")

    def handle(self, *args, reset: bool, seed: int, **options):
        # Tasks run in-process here; their per-task log lines would drown the summary.
        for name in ("celery", "kombu", "decks.importers"):
            logging.getLogger(name).setLevel(logging.ERROR)
        user = self._organiser()
        self._import_cards()
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
            # Round 2 is paired and waiting for results: its "why?" shows Swiss or pod reasons, a late
            # entrant joins with a loss for round 1, and one player keeps a fixed table.
            services.registration_create(
                event=event, by=user, display_name="Riley (late)", external_id="demo-riley", checked_in=True
            )
            first = event.registrations.order_by("id").first()
            services.registration_update(registration=first, by=user, fixed_table=2)
            services.round_start(event=event, by=user, seed=rng.randrange(2**62), allow_rematches=True)
            self.stdout.write(
                f"  {full_name} ({FORMATS[slug].name}): {count} players and a late entry, "
                "round 1 played, round 2 paired"
            )
        self._registration_event(user)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo ready. Sign in as {DEMO_USER!r} (organiser) or {PLAYER_USER!r} (a player) "
                f"with password {DEMO_PASSWORD!r}."
            )
        )

    def _import_cards(self) -> None:
        """Load the shared card data when it is there (never committed; PODIUM_CARD_DATA_DIR)."""
        from decks import services as deck_services
        from decks.models import CatalogueVersion

        root = Path(settings.PODIUM_CARD_DATA_DIR)
        present = set(CatalogueVersion.objects.filter(card_count__gt=0).values_list("family", flat=True))
        for family, folder, load in (
            ("pokemon", "pokemon-tcg-data", lambda p: deck_services.cards_import_pokemon(root=p)),
            ("yugioh", "ygo", lambda p: deck_services.cards_import_yugioh(path=p)),
        ):
            if family in present:
                continue
            if not (root / folder).exists():
                self.stdout.write(
                    f"  no {family} card data at {root / folder}: decks can't be checked until you import_cards"
                )
                continue
            report = load(root / folder)
            self.stdout.write(f"  imported {report.cards} {family} cards from {root / folder}")

    def _registration_event(self, organiser) -> None:
        """An event still open for registration, with a player account and a submitted deck."""
        from decks import services as deck_services
        from decks.models import DeckVersion, PokemonCard

        name = PREFIX + "Trinity League (registration open)"
        event = Event.objects.filter(name=name, organiser=organiser).first()
        if event is None:
            event = services.event_create(
                organiser=organiser, name=name, format="format3-trinity", planned_rounds=4,
                date=timezone.localdate() + datetime.timedelta(days=7), venue="Cerulean Cards",
            )  # fmt: skip
        User = get_user_model()
        player_user, created = User.objects.get_or_create(username=PLAYER_USER)
        if created:
            player_user.set_password(DEMO_PASSWORD)
            player_user.save(update_fields=["password"])
        player = Player.objects.filter(user=player_user).first() or services.player_create(
            display_name="Red Player", user=player_user
        )
        registration = Registration.objects.filter(event=event, player=player).first() or services.registration_create(
            event=event, by=organiser, player=player
        )
        for i in range(5):
            if (
                not Registration.objects.filter(event=event)
                .exclude(player=player)
                .filter(player__display_name=NAMES[i])
                .exists()
            ):
                services.registration_create(
                    event=event, by=organiser, display_name=NAMES[i], external_id=f"demo-{NAMES[i]}"
                )
        if DeckVersion.objects.filter(registration=registration).exists():
            return
        theme = Path(settings.PODIUM_CARD_DATA_DIR) / "pokemon-tcg-data" / "decks" / "en" / "swsh4.json"
        if not theme.exists() or not PokemonCard.objects.exists():
            return
        deck = json.loads(theme.read_text(encoding="utf-8"))[0]
        cards = {c.key: c for c in PokemonCard.objects.filter(key__in=[c["id"] for c in deck["cards"]])}
        lines = [
            f"{entry['count']} {cards[entry['id']].name} {cards[entry['id']].set_code} {cards[entry['id']].number}"
            if entry["id"] in cards
            else f"{entry['count']} {entry['name']}"  # unprinted basic energy: by name
            for entry in deck["cards"]
        ]
        signature = next((c for c in cards.values() if c.rule_box and c.stage == "Basic"), None)
        roles = {"signature": f"{signature.name} {signature.set_code} {signature.number}"} if signature else {}
        deck_services.deck_submit(registration=registration, decklist="\n".join(lines), roles=roles, by=player_user)
        self.stdout.write(f"  {name}: registration open, {PLAYER_USER!r} submitted the {deck['name']} theme deck")

    def _organiser(self):
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=DEMO_USER, defaults={"is_staff": True, "is_superuser": True, "email": "organiser@example.org"}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
        return user
