"""The demo's league (``python manage.py demo`` calls :func:`league_demo`): a season of played events in two formats.

"Demo · Thursday League" holds Deck Masters and Mt. Silver; its "Winter season" has three finished Deck Masters
nights (one with a top 4) and two Mt. Silver expeditions, every player with a registered deck named by its
identity card, decklists published at all but the last night (whose decks the meta counts without naming).  The
demo player plays every night, so their page shows the season and their ratings.  The season standings, the
ratings and the meta report are computed by the same readers and tasks as for any event (in-process here).
"""

from __future__ import annotations

import datetime
import random

from decks import services as deck_services
from demo.people import enter
from leagues import services
from leagues.models import League
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Event, Player

NAME = "Demo · Thursday League"

#: Deck Masters archetypes (the Deck Master monster) and Mt. Silver ones (a Supporter and a starting Pokémon).
DECK_MASTERS = [
    "Dark Magician",
    "Blue-Eyes White Dragon",
    "Red-Eyes Black Dragon",
    "Cyber Dragon",
    "Elemental HERO Neos",
]
MT_SILVER = [("Cynthia UPR 119", "Gible SVI 53"), ("Professor Oak's Setup CEC 201", "Pikachu SVI 63"),
             ("Lillie UPR 125", "Cosmog SM104"), ("Iono PAL 185", "Bellibolt PAL 77")]  # fmt: skip

#: (format, day offset, players, rounds, top cut, publish lists)
NIGHTS = [
    ("deck-masters", -35, 8, 3, 4, True),
    ("mt-silver", -28, 8, 3, 0, True),
    ("deck-masters", -21, 9, 3, 0, True),
    ("mt-silver", -14, 8, 3, 0, True),
    ("deck-masters", -7, 8, 3, 0, False),
]


def league_demo_reset(*, organiser) -> None:
    League.objects.filter(name=NAME, organiser=organiser).delete()


def league_demo(*, organiser, player: Player, names: list[str], rng: random.Random, today: datetime.date) -> str:
    """Create the demo league unless it exists; returns a line for the command's summary."""
    if League.objects.filter(name=NAME, organiser=organiser).exists():
        return f"  {NAME}: already there"
    league = services.league_create(
        name=NAME, formats=["deck-masters", "mt-silver"], by=organiser,
        description="Weekly league nights: Deck Masters and Mt. Silver, one season a winter.",
    )  # fmt: skip
    season = services.season_create(
        league=league, name="Winter season", starts_on=today - datetime.timedelta(days=40),
        ends_on=today + datetime.timedelta(days=50), by=organiser, preset="balanced",
    )  # fmt: skip
    services.league_staff_add(league=league, username="judge", role="judge", by=organiser)
    decks = {name: rng.randrange(len(DECK_MASTERS)) for name in names}
    for number, (slug, offset, count, rounds, cut, publish) in enumerate(NIGHTS, start=1):
        event = tournament_services.event_create(
            organiser=organiser, name=f"Demo · League night {number}", format=slug, planned_rounds=rounds,
            date=today + datetime.timedelta(days=offset), venue="The Thursday Table",
        )  # fmt: skip
        field = rng.sample(names, count - 1)
        registrations = [
            enter(event=event, by=organiser, checked_in=True, display_name=name, external_id=f"demo-{name}")
            for name in field
        ]
        registrations.append(enter(event=event, by=organiser, checked_in=True, player=player))
        for registration in registrations:
            which = decks.get(registration.player.display_name, 0)
            if slug == "deck-masters":
                master = DECK_MASTERS[which % len(DECK_MASTERS)]
                roles, decklist = {"deck_master": master}, f"#main\n3 {master}\n"
            else:
                trainer, starter = MT_SILVER[which % len(MT_SILVER)]
                roles = {"trainer": trainer, "starting_pokemon": starter}
                decklist = f"Pokémon: 1\n1 {starter}\n\nTrainer: 1\n1 {trainer}\n"
            deck_services.deck_submit(registration=registration, decklist=decklist, roles=roles, by=organiser)
        skill = {r.player_id: rng.random() + (0.6 if decks.get(r.player.display_name, 0) == 0 else 0) for r in
                 registrations}  # fmt: skip
        for round_number in range(1, rounds + 1):
            round_ = tournament_services.round_start(
                event=event, by=organiser, seed=rng.randrange(2**62), allow_rematches=True,
                seeding="rating" if round_number == 1 and number > 1 else "random",
            )  # fmt: skip
            _play(event, round_, organiser, skill, rng)
        if cut:
            tournament_services.top_cut_start(event=event, by=organiser, size=cut)
            while True:
                round_ = tournament_selectors.event_latest_round(event=event)
                assert round_ is not None  # the cut has just started
                _play(event, round_, organiser, skill, rng, cut=True)
                if round_.pods.filter(is_bye=False).count() == 1:
                    break
                tournament_services.round_start(event=event, by=organiser)
        # Put in the season once played (as an organiser may): the season is computed once per night.
        services.season_event_add(season=season, event=event, by=organiser)
        if publish:
            deck_services.event_decklists_publish(event=event, by=organiser)
        tournament_services.event_finish(event=event, by=organiser)
    return f"  {NAME}: a season of {len(NIGHTS)} played nights in two formats, standings, ratings and a meta report"


def _play(event: Event, round_, organiser, skill: dict[int, float], rng: random.Random, *, cut: bool = False) -> None:
    for pod in round_.pods.filter(is_bye=False, result__isnull=True).prefetch_related("seats"):
        players = [s.player_id for s in pod.seats.all()]
        order = sorted(players, key=lambda p: -(skill.get(p, 0.5) + rng.random()))
        placements = {p: place for place, p in enumerate(order, start=1)}
        if not cut and len(players) == 2 and rng.random() < 0.1:
            placements = dict.fromkeys(players, 1)
        tournament_services.pod_result_report(
            event=event, round_number=round_.number, table_number=pod.table_number, placements=placements,
            by=organiser,
        )  # fmt: skip
