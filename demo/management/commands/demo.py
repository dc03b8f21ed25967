"""``python manage.py demo``: a demo event of every format, with players and a played round.

It also imports the shared card data when present (``PODIUM_CARD_DATA_DIR``),
and for Mintayn, which has no public card data, Podium's invented sample pool
(``docs/samples/``), and opens a Format3 Trinity event for registration, where the demo player
``player`` has submitted a theme deck for checking; it is full, with a
waiting list, and its check-in is open (the dashboard shows the QR code).

Live: the Master Trainer event has a stream station, ``stream-1``, pointed at
table 1 of round 2, where a game is in progress, and round 2's clock runs.

Decks: at the Mintayn Master event every player registered a legal deck of
the sample pool before round 1 (the demo player the sample "Forge and Dawn";
the late entry, after the decks locked, has none).

People: the demo player ``player`` registered themselves at the running
Deck Masters and Mintayn Master events and sits at a table of round 2 of each;
at Deck Masters their opponent has
reported the result for them to confirm; that event takes player reports,
has game scores in round 1, one disputed table in round 2 and a duel in progress at
another, where a Deck Master's Ability was activated this turn; there the judge
has given the demo player a warning, which their page shows.  Every demo
event has a judge (``judge``) and a scorekeeper (``scorekeeper``).

Big events: "Demo · Battle City Regionals" runs over two days (phases) with pre-assigned byes, staged pairings,
judge calls and deck checks, its round 2 staged for the organiser to publish (:mod:`demo.big_event`).  All
accounts use the password ``podium-demo``.

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
from django.utils.text import slugify

from demo.big_event import big_event_demo
from demo.league import league_demo, league_demo_reset
from demo.people import enter, self_register
from rules import FORMATS
from tournaments import services
from tournaments.models import Event, Penalty, Player, Registration, Seat
from tournaments.services import registrations as registration_services
from tournaments.services import results as services_results
from tournaments.services import staff as staff_services

DEMO_USER = "organiser"
PLAYER_USER = "player"
PLAYER_NAME = "Red Player"
#: Staff accounts with a role at every demo event: username -> role.
STAFF_USERS = {"judge": "judge", "scorekeeper": "scorekeeper"}
DEMO_PASSWORD = "podium-demo"
#: Players who register themselves for the open event (their accounts can't sign in): username -> name.
SELF_REGISTERING = {"demo-hilda": "Hilda Touko", "demo-calem": "Calem Xavier", "demo-wally": "Wally Mitsuru"}
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
    "mintayn-master": (11, "Mintayn Master Cup", "Aether Club", 4),
}
#: Where the demo events are held: their pages show times in these zones.
DEMO_TIME_ZONES = {
    "master-trainer": "Europe/London",
    "format3-trinity": "America/New_York",
    "mt-silver": "Asia/Tokyo",
    "deck-masters": "America/Los_Angeles",
    "mintayn-master": "Europe/Berlin",
}
#: The demo events' default languages (their public pages and venue display, for visitors who chose none): the
#: New York event's community plays in Spanish.  The others follow each visitor's browser.
DEMO_LANGUAGES = {"format3-trinity": "es"}
#: Events where the demo player registers themselves (one more player than the count above).
PLAYER_EVENTS = ("deck-masters", "mintayn-master")

#: Podium's invented Mintayn card pool and two legal decks of it (Mintayn has no public card data).
MINTAYN_SAMPLES = settings.BASE_DIR / "docs" / "samples"
MINTAYN_SAMPLE_POOL = MINTAYN_SAMPLES / "mintayn-master-sample-cards.csv"
MINTAYN_SAMPLE_DECKS = ("forge", "tide")

#: The event whose table 1 of round 2 is on stream (station "stream-1"), with a game in progress and the clock running.
FEATURED = "master-trainer"

#: Format options of the demo events: the Mintayn Cup plays the rulebook's accelerated variant.
DEMO_OPTIONS = {"mintayn-master": {"starting_lp": 6000, "mana_rate": 2, "hand_size": 12}}


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
        player_user = self._account(PLAYER_USER)
        player_id = registration_services.player_for_user(player_user, display_name=PLAYER_NAME).pk
        self._import_cards()
        if reset:
            Event.objects.filter(name__startswith=PREFIX, organiser=user).delete()
            league_demo_reset(organiser=user)
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
                options=DEMO_OPTIONS.get(slug),
                time_zone=DEMO_TIME_ZONES[slug],
                paper="letter" if DEMO_TIME_ZONES[slug].startswith("America/") else "a4",
                language=DEMO_LANGUAGES.get(slug, ""),
            )
            for i in range(count):
                display_name = NAMES[(i + len(slug)) % len(NAMES)]
                # The same external id reuses the player across the demo events.
                enter(
                    event=event,
                    by=user,
                    display_name=display_name,
                    external_id=f"demo-{display_name}",
                    checked_in=True,
                )
            duel_night = slug == "deck-masters"
            if slug in PLAYER_EVENTS:  # the demo player registers themselves while registration is open
                self_register(event=event, organiser=user, player_user=player_user)
            if slug == "mintayn-master":
                self._mintayn_decks(event, user, player_user)
            round_ = services.round_start(event=event, by=user, seed=rng.randrange(2**62))
            for pod in round_.pods.filter(is_bye=False).prefetch_related("seats"):
                players = [s.player_id for s in pod.seats.all()]
                rng.shuffle(players)
                if player_id in players:
                    players.sort(key=lambda p: p != player_id)  # the demo player wins round 1
                placements = {pid: place for place, pid in enumerate(players, start=1)}
                games = None
                if duel_night:  # best of 3 duels: game scores, and the odd drawn match
                    won, lost, drawn = rng.choice([(2, 0, 0), (2, 1, 0), (2, 1, 0), (1, 1, 1)])
                    if player_id in players:
                        won, lost, drawn = 2, 1, 0
                    if won == lost:
                        placements = dict.fromkeys(players, 1)
                    games = {players[0]: (won, lost, drawn), players[1]: (lost, won, drawn)}
                elif len(players) == 2 and rng.random() < 0.15:
                    placements = dict.fromkeys(players, 1)  # the odd draw
                services.pod_result_report(
                    event=event, round_number=1, table_number=pod.table_number, placements=placements, by=user,
                    games=games,
                )  # fmt: skip
            # Round 2 is paired and waiting for results: its "why?" shows Swiss or pod reasons, a late
            # entrant joins with a loss for round 1, and one player keeps a fixed table.
            enter(event=event, by=user, display_name="Riley (late)", external_id="demo-riley", checked_in=True)
            first = event.registrations.order_by("id").first()
            services.registration_update(registration=first, by=user, fixed_table=2)
            services.round_start(event=event, by=user, seed=rng.randrange(2**62), allow_rematches=True)
            self.stdout.write(
                f"  {full_name} ({FORMATS[slug].name}): {count + (slug in PLAYER_EVENTS)} players and a late entry, "
                "round 1 played, round 2 paired"
            )
            if duel_night:
                self._player_reports(event, user, player_user)
            if slug == FEATURED:
                self._featured_table(event, user)
        self._registration_event(user)
        # The big event: two days, pre-assigned byes, staged pairings, judge calls and deck checks.
        self._account("judge")
        _big, summary = big_event_demo(
            organiser=user, player_user=player_user, judge_username="judge", names=NAMES, rng=rng,
            today=timezone.localdate(),
        )  # fmt: skip
        self.stdout.write(summary)
        # A league with a season of played nights in two formats: standings, ratings, the meta report.  Before
        # the staff are added, so its nights get the same staff as every demo event on the first run.
        for username in STAFF_USERS:
            self._account(username)
        self.stdout.write(
            league_demo(
                organiser=user,
                player=Player.objects.get(pk=player_id),
                names=NAMES,
                rng=rng,
                today=timezone.localdate(),
            )
        )
        self._staff(user)
        self._penalty(user, player_user)
        accounts = ", ".join([f"{DEMO_USER!r} (organiser)", f"{PLAYER_USER!r} (a player)"] + [
            f"{name!r} ({role})" for name, role in STAFF_USERS.items()
        ])  # fmt: skip
        self.stdout.write(self.style.SUCCESS(f"Demo ready. Sign in as {accounts} with password {DEMO_PASSWORD!r}."))

    def _mintayn_decks(self, event: Event, organiser, player_user) -> None:
        """Before round 1, a legal deck of the sample pool for every player: the demo player submits "Forge and
        Dawn" themselves, the organiser enters the others' decks, the two sample decks in turn."""
        from decks import services as deck_services

        decks = [(MINTAYN_SAMPLES / f"mintayn-master-sample-deck-{name}.txt").read_text(encoding="utf-8")
                 for name in MINTAYN_SAMPLE_DECKS]  # fmt: skip
        registrations = event.registrations.select_related("player").order_by("id")
        for n, registration in enumerate(registrations):
            mine = registration.player.user_id == player_user.pk
            deck_services.deck_submit(
                registration=registration, decklist=decks[0 if mine else n % len(decks)], roles={},
                by=player_user if mine else organiser,
            )  # fmt: skip
        self.stdout.write(f"  {event.name}: every player registered a deck of the sample Mintayn pool")

    def _player_reports(self, event: Event, organiser, player_user) -> None:
        """Round 2 of Duel Night takes player reports: the demo player's opponent has reported, one table is disputed."""
        services.event_update(event=event, by=organiser, player_reports=True)
        seats = list(
            Seat.objects.filter(round__event=event, round__number=2, pod__is_bye=False)
            .select_related("pod", "player")
            .order_by("pod__table_number", "seat_order")
        )
        tables: dict[int, list[Seat]] = {}
        for seat in seats:
            tables.setdefault(seat.pod.table_number, []).append(seat)
        mine = next((t for t, s in tables.items() if any(x.player.user_id == player_user.pk for x in s)), None)
        if mine is not None:  # the opponent reports that the demo player won 2-1: theirs to confirm
            me, opponent = sorted(tables[mine], key=lambda s: s.player.user_id != player_user.pk)
            services_results.result_player_report(
                event=event, round_number=2, table_number=mine, by=self._player_account(event, opponent.player, organiser),
                placements={me.player_id: 1, opponent.player_id: 2},
                games={me.player_id: (2, 1, 0), opponent.player_id: (1, 2, 0)},
            )  # fmt: skip
        disputed = next(t for t in tables if t != mine)
        a, b = tables[disputed]
        for seat, winner in ((a, a), (b, b)):  # each says they won: a dispute for the judge to settle
            loser = b if winner is a else a
            services_results.result_player_report(
                event=event, round_number=2, table_number=disputed, by=self._player_account(event, seat.player, organiser),
                placements={winner.player_id: 1, loser.player_id: 2},
                games={winner.player_id: (2, 0, 0), loser.player_id: (0, 2, 0)},
            )  # fmt: skip
        self.stdout.write(
            f"  {event.name}: player reports on; table {mine} waits for {PLAYER_USER!r} to confirm, "
            f"table {disputed} is disputed"
        )
        duel = next((t for t in tables if t not in (mine, disputed)), None)
        if duel is not None:
            self._duel_in_progress(event, organiser, duel)

    def _duel_in_progress(self, event: Event, organiser, table: int) -> None:
        """A Deck Masters duel in progress on ``table`` of round 2: the judge named both Deck Masters, and the first
        player activated Hyper Hammerhead's Ability (once per turn, 700 LP), which the opponent negated for 800 LP."""
        from games import services as game_services

        pod = event.rounds.get(number=2).pods.get(table_number=table)
        first, second = pod.seats.order_by("seat_order").values_list("player_id", flat=True)
        named = {str(first): "Hyper Hammerhead", str(second): "Goldd, Wu-Lord of Dark World"}
        game = game_services.game_create(pod=pod, by=organiser, options={"deck_masters": named})
        entries: list[tuple[str, dict]] = [
            ("start_turn", {"player": first}),
            ("phase", {"phase": "draw"}),
            ("phase", {"phase": "main1"}),
            ("activate_ability", {"player": first, "negated": True}),
            ("lp_change", {"changes": {str(second): -800}, "cost": True}),  # the opponent pays to negate it
            ("deck_master_summon", {"player": first, "position": "attack"}),
        ]
        for type_, data in entries:
            game, _ = game_services.game_event_append(
                game=game, expected_version=game.version, type=type_, data=data, by=organiser
            )
        self.stdout.write(
            f"    table {table}: a duel in progress, Hyper Hammerhead's Ability activated (and negated) this turn"
        )

    def _featured_table(self, event: Event, organiser) -> None:
        """A stream station on table 1 of round 2, a game in progress there, and the round's clock running."""
        from games import services as game_services
        from games.models import Game
        from live import services as live_services

        station = live_services.station_create(event=event, slug="stream-1", name="Stream 1", by=organiser)
        live_services.station_update(station=station, by=organiser, table_number=1)
        pod = event.rounds.get(number=2).pods.get(table_number=1)
        game: Game = game_services.game_create(pod=pod, by=organiser)
        players = list(game.players)
        entries: list[tuple[str, dict]] = []
        for pid in players:  # everyone takes a first turn
            entries += [("start_turn", {"player": pid}), ("end_turn", {"player": pid})]
        first, second, third = players[0], players[1], players[-1]
        entries += [
            ("start_turn", {"player": first}),
            ("play_energy_source", {"player": first}),
            ("attack", {"player": first, "target": third, "damage": 30}),
            ("end_turn", {"player": first}),
            ("start_turn", {"player": second}),
            ("attack", {"player": second, "target": first, "damage": 20}),
        ]
        for type_, data in entries:
            game, _ = game_services.game_event_append(
                game=game, expected_version=game.version, type=type_, data=data, by=organiser
            )
        live_services.timer_start(event=event, round_number=2, minutes=50, by=organiser)
        self.stdout.write(
            f"    featured table: {station.name} shows table 1 of round 2 (a game in progress); the round's clock runs"
        )

    def _player_account(self, event: Event, player: Player, organiser):
        """An account for a walk-in, linked by claiming the record with a code, as a player would (it can't sign in)."""
        if player.user_id is not None:
            return player.user
        User = get_user_model()
        username = "demo-" + slugify(player.display_name)
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User.objects.create_user(username=username, first_name=player.display_name)
            user.set_unusable_password()
            user.save(update_fields=["password"])
        registration = Registration.objects.get(event=event, player=player)
        code = registration_services.player_claim_code_create(registration=registration, by=organiser)
        registration_services.player_claim(user=user, code=code)
        return user

    def _staff(self, organiser) -> None:
        """A judge and a scorekeeper at every demo event (staff_add changes nothing when the role is there)."""
        for username, role in STAFF_USERS.items():
            self._account(username)
            for event in Event.objects.filter(name__startswith=PREFIX, organiser=organiser):
                staff_services.staff_add(event=event, username=username, role=role, by=organiser)

    def _penalty(self, organiser, player_user) -> None:
        """The judge's warning to the demo player at Duel Night (once: a second run finds the event has one)."""
        event = Event.objects.filter(
            name=PREFIX + DEMO_EVENTS["deck-masters"][1], organiser=organiser, status=Event.Status.RUNNING
        ).first()
        if event is None or Penalty.objects.filter(event=event).exists():
            return
        registration = Registration.objects.get(event=event, player__user=player_user)
        services.penalty_issue(
            event=event, registration_id=registration.pk, penalty=Penalty.Kind.WARNING,
            infraction="Drawing extra cards", note="Drew two off a one-card effect; the opponent called a judge.",
            by=get_user_model().objects.get(username="judge"),
        )  # fmt: skip
        self.stdout.write(f"  {event.name}: the judge gave {PLAYER_USER!r} a warning (dashboard: Penalties)")

    def _import_cards(self) -> None:
        """Load the shared card data when it is there (never committed; PODIUM_CARD_DATA_DIR), and Podium's sample
        Mintayn pool (invented for the demo) when no Mintayn pool is imported."""
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
        if "mintayn" not in present:  # organisers define Mintayn's pool: a site with its own keeps it
            report = deck_services.cards_import_mintayn(path=MINTAYN_SAMPLE_POOL)
            sample = MINTAYN_SAMPLE_POOL.relative_to(settings.BASE_DIR)
            self.stdout.write(f"  imported {report.cards} mintayn cards: Podium's invented sample pool ({sample})")

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
                time_zone=DEMO_TIME_ZONES["format3-trinity"], paper="letter",
            )  # fmt: skip
        player_user = self._account(PLAYER_USER)
        player = registration_services.player_for_user(player_user, display_name=PLAYER_NAME)
        registration = Registration.objects.filter(event=event, player=player).first() or enter(
            event=event, by=organiser, player=player
        )
        for i in range(5):
            if (
                not Registration.objects.filter(event=event)
                .exclude(player=player)
                .filter(player__display_name=NAMES[i])
                .exists()
            ):
                enter(event=event, by=organiser, display_name=NAMES[i], external_id=f"demo-{NAMES[i]}")
        self._waiting_list(event, organiser)
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

    def _waiting_list(self, event: Event, organiser) -> None:
        """The open event is full: players who register now wait in order. Its check-in is open (the QR code)."""
        if event.capacity is not None:
            return
        # A second "May Maple", a walk-in: the dashboard tells the two apart by player ID.
        services.registration_create(event=event, by=organiser, display_name=NAMES[3])
        registered = event.registrations.filter(status=Registration.Status.REGISTERED).count()
        services.event_update(
            event=event, by=organiser, registration_open=True, capacity=registered + 1, check_in_open=True
        )
        User = get_user_model()
        for username, name in SELF_REGISTERING.items():
            first, last = name.split(" ", 1)
            user = User.objects.filter(username=username).first()
            if user is None:
                user = User.objects.create_user(username=username, first_name=first, last_name=last)
                user.set_unusable_password()
                user.save(update_fields=["password"])
            registration_services.registration_self_register(event=event, by=user)
        waiting = event.registrations.filter(status=Registration.Status.WAITLISTED).count()
        self.stdout.write(
            f"  {event.name}: full at {registered + 1} players, {waiting} on the waiting list, check-in open"
        )

    def _account(self, username: str):
        """A demo account that signs in with the demo password (created once)."""
        User = get_user_model()
        user, created = User.objects.get_or_create(username=username)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
        return user

    def _organiser(self):
        """The demo organiser, with the organiser permission; site staff (the admin) only while DEBUG is on: its
        password is published, so a production site gets no superuser from the demo."""
        User = get_user_model()
        user, created = User.objects.get_or_create(username=DEMO_USER, defaults={"email": "organiser@example.org"})
        if created:
            user.set_password(DEMO_PASSWORD)
            user.is_staff = user.is_superuser = settings.DEBUG
            user.save(update_fields=["password", "is_staff", "is_superuser"])
        services.organiser_permission_grant(user=user)
        return user
