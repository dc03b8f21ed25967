"""League benchmarks: a season of 50 events x 200 players (1v1 and pods) on the database.

The season is built in bulk (events, registrations, rounds, tables, seats,
results, registered decks; each event's standings stored by the standings
service), not through the round and result services, which their own
benchmarks measure.  Half the events are Deck Masters (1v1: 8 Swiss rounds
of random pairings, about 5 % draws, then a top 8), half Mt. Silver (pods of
4: 6 rounds of random pods with random placements, a shared first now and
then).  A pool of 400 players plays them, 200 at each event; 40 events
publish their decklists.  Then, each figure in milliseconds:

* the season's standings recomputed (the service the season task runs: read
  every event's standings and tables, compute, store), best and worst of 5;
* ratings recomputed from scratch, each format (every table of the season
  rated again in play order and the history stored), and both together;
* one table's incremental rating update: a new table after everything rated,
  through :func:`leagues.services.ratings_update` (find what changed, rate,
  store), median and worst of 30; the engine's update alone;
* the worst case: a result of the first event corrected, so everything from
  it on is rated again;
* the season's meta report.

On PostgreSQL it runs ``VACUUM ANALYZE`` after building the season and after
rating it from scratch, as autovacuum would have (like ``bench reports``).
Everything it creates is deleted at the end.  Run it against PostgreSQL for
the figures the README quotes.
"""

from __future__ import annotations

import datetime
import random
import statistics
import time
import uuid

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from bench import organiser as bench_organiser
from decks.models import DeckVersion
from leagues import ratings as rating_engine
from leagues import selectors, services
from leagues.models import League, PlayerRating, Season, SeasonEvent
from leagues.services import ratings as rating_services
from rules import get_format
from tournaments.models import Event, Player, Pod, PodResult, Registration, Round, Seat
from tournaments.services import standings_recompute

DECK_MASTERS = ["Dark Magician", "Blue-Eyes White Dragon", "Red-Eyes Black Dragon", "Cyber Dragon", "Neos",
                "Sky Striker", "Branded", "Tearlaments"]  # fmt: skip
MT_SILVER = [("Cynthia", "Gible"), ("Iono", "Bellibolt"), ("Lillie", "Cosmog"), ("Oak", "Pikachu"),
             ("Arven", "Charmander")]  # fmt: skip


#: Ratings of the whole season from scratch, both formats (the full run's season).
RATINGS_SCRATCH_TARGET_MS = 2_000

_TABLES = ("tournaments_event", "tournaments_registration", "tournaments_round", "tournaments_pod", "tournaments_seat",
           "tournaments_podresult", "tournaments_standing", "tournaments_player", "decks_deckversion",
           "leagues_season", "leagues_seasonevent", "leagues_seasonstanding", "leagues_playerrating",
           "leagues_ratingchange", "leagues_eventratingstate")  # fmt: skip


def _vacuum_analyze() -> None:
    """What autovacuum would have done by now (as ``bench reports`` does): the planner learns the tables' sizes,
    and earlier runs' deleted rows do not slow the scans, so runs compare."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"VACUUM ANALYZE {', '.join(_TABLES)}")


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


class _Builder:
    def __init__(self, rng: random.Random, organiser, tag: str):
        self.rng, self.organiser, self.tag = rng, organiser, tag

    def players(self, n: int) -> list[int]:
        made = Player.objects.bulk_create(Player(display_name=f"{self.tag} player {i}") for i in range(n))
        return [p.pk for p in made]

    def event(self, *, number: int, fmt: str, day: datetime.date, field: list[int], rounds: int, cut: int,
              publish: bool) -> Event:  # fmt: skip
        rng = self.rng
        event = Event.objects.create(
            name=f"{self.tag} night {number}", format=fmt, planned_rounds=max(rounds, 1), date=day,
            organiser=self.organiser,
            status=Event.Status.FINISHED, decklists_public=publish,
        )  # fmt: skip
        regs = Registration.objects.bulk_create(Registration(event=event, player_id=p, checked_in=True) for p in field)
        versions = []
        for reg in regs:
            if fmt == "deck-masters":
                roles = {"deck_master": rng.choice(DECK_MASTERS)}
            else:
                trainer, starter = rng.choice(MT_SILVER)
                roles = {"trainer": trainer, "starting_pokemon": starter}
            versions.append(DeckVersion(registration=reg, number=1, decklist="", roles=roles, status="legal"))
        DeckVersion.objects.bulk_create(versions, batch_size=2000)
        scoring = get_format(fmt).scoring
        one_vs_one = fmt == "deck-masters"
        for number_ in range(1, rounds + 1):
            order = list(field)
            rng.shuffle(order)
            size = 2 if one_vs_one else 4
            self._round(event, number_, Round.Stage.SWISS, [order[i : i + size] for i in range(0, len(order), size)],
                        scoring, cut=False)  # fmt: skip
        if rounds:
            standings_recompute(event_id=event.pk)
        if cut:
            seeds = list(event.standings.order_by("rank", "player_id").values_list("player_id", flat=True)[:cut])
            bracket = [[seeds[0], seeds[7]], [seeds[3], seeds[4]], [seeds[1], seeds[6]], [seeds[2], seeds[5]]]
            number_ = rounds
            while bracket:
                number_ += 1
                winners = self._round(event, number_, Round.Stage.TOP_CUT, bracket, scoring, cut=True)
                bracket = [winners[i : i + 2] for i in range(0, len(winners), 2)] if len(winners) > 1 else []
            Event.objects.filter(pk=event.pk).update(top_cut_size=cut)
            event.top_cut_size = cut
        return event

    def _round(
        self, event: Event, number: int, stage: str, tables: list[list[int]], scoring, *, cut: bool
    ) -> list[int]:
        rng = self.rng
        round_ = Round.objects.create(event=event, number=number, stage=stage, seed=number, published_at=timezone.now())
        pods = Pod.objects.bulk_create(Pod(round=round_, table_number=i) for i in range(1, len(tables) + 1))
        seats, winners = [], []
        for pod, players in zip(pods, tables, strict=True):
            if len(players) == 2 and not cut and rng.random() < 0.05:
                places = [1, 1]
            elif len(players) > 2 and rng.random() < 0.05:
                places = [1, 1, 3, 4][: len(players)]
            else:
                places = list(range(1, len(players) + 1))
                rng.shuffle(places)
            for order, (player, place) in enumerate(zip(players, places, strict=True), start=1):
                shared = places.count(place) > 1
                points = scoring.points_for(table_size=len(players), placement=place, shared=shared)
                seats.append(Seat(pod=pod, round=round_, player_id=player, seat_order=order, placement=place,
                                  points=points))  # fmt: skip
                if place == 1:
                    winners.append(player)
        Seat.objects.bulk_create(seats, batch_size=5000)
        PodResult.objects.bulk_create((PodResult(pod=pod, reported_by=self.organiser) for pod in pods), batch_size=5000)
        return winners


def run(*, quick: bool, out) -> tuple[list[tuple[str, str]], dict]:
    events_n, field_n, pool_n = (6, 40, 60) if quick else (50, 200, 400)
    rng = random.Random(12)
    tag = f"bench-{uuid.uuid4().hex[:6]}"
    organiser = bench_organiser()
    builder = _Builder(rng, organiser, tag)
    figures: dict = {"events": events_n, "players_per_event": field_n}
    created: list[int] = []
    league = None
    try:
        out.write(f"building a season of {events_n} events x {field_n} players ...")
        start = time.perf_counter()
        with transaction.atomic():
            pool = builder.players(pool_n)
            league = League.objects.create(name=tag, organiser=organiser, formats=["deck-masters", "mt-silver"])
            season = Season.objects.create(
                league=league, name=tag, starts_on=datetime.date(2027, 1, 1), ends_on=datetime.date(2027, 12, 31),
                points_table=services.leagues.points_table_from(preset="balanced", points_table=None)[1].as_json(),
            )  # fmt: skip
            for n in range(events_n):
                fmt = "deck-masters" if n % 2 == 0 else "mt-silver"
                event = builder.event(
                    number=n + 1, fmt=fmt, day=datetime.date(2027, 1, 1) + datetime.timedelta(days=7 * n),
                    field=rng.sample(pool, field_n), rounds=8 if fmt == "deck-masters" else 6,
                    cut=8 if fmt == "deck-masters" else 0, publish=n % 5 != 4,
                )  # fmt: skip
                created.append(event.pk)
                SeasonEvent.objects.create(season=season, event=event)
        figures["build_s"] = round(time.perf_counter() - start, 1)
        _vacuum_analyze()
        tables = Pod.objects.filter(round__event_id__in=created).count()
        figures["tables"] = tables

        # Season standings: the service the task runs, forced to recompute each time.
        season_runs = []
        for _ in range(5):
            Season.objects.filter(pk=season.pk).update(results_version=F("results_version") + 1)
            t = time.perf_counter()
            services.season_standings_recompute(season_id=season.pk)
            season_runs.append(_ms(t))
        figures["season_standings_ms"] = round(min(season_runs), 1)
        figures["season_standings_worst_ms"] = round(max(season_runs), 1)

        # Ratings from scratch, per format.
        scratch = {}
        for fmt in ("deck-masters", "mt-silver"):
            t = time.perf_counter()
            rated = rating_services.ratings_recompute(format_slug=fmt)
            scratch[fmt] = (_ms(t), rated)
        figures["ratings_scratch_1v1_ms"] = round(scratch["deck-masters"][0], 1)
        figures["ratings_scratch_pods_ms"] = round(scratch["mt-silver"][0], 1)
        figures["ratings_scratch_ms"] = round(sum(v[0] for v in scratch.values()), 1)
        figures["rating_changes"] = sum(v[1] for v in scratch.values())
        figures["ratings_scratch_target_ms"] = RATINGS_SCRATCH_TARGET_MS
        figures["ratings_scratch_met"] = figures["ratings_scratch_ms"] <= RATINGS_SCRATCH_TARGET_MS
        _vacuum_analyze()  # the history just written

        # One table's incremental update: a table after every rated one, through ratings_update.
        late = builder.event(number=events_n + 1, fmt="deck-masters", day=datetime.date(2028, 1, 1),
                             field=rng.sample(pool, 2), rounds=0, cut=0, publish=False)  # fmt: skip
        created.append(late.pk)
        scoring = get_format("deck-masters").scoring
        incremental = []
        for number in range(1, 31):
            builder._round(late, number, Round.Stage.SWISS, [rng.sample(pool, 2)], scoring, cut=False)
            Event.objects.filter(pk=late.pk).update(results_version=F("results_version") + 1)
            t = time.perf_counter()
            done = rating_services.ratings_update(format_slug="deck-masters")
            incremental.append(_ms(t))
            if done != 2:
                raise RuntimeError(f"an incremental update rated {done} seats, not 2")
        figures["incremental_median_ms"] = round(statistics.median(incremental), 2)
        figures["incremental_worst_ms"] = round(max(incremental), 2)
        ratings = {1: rating_engine.Rating(27, 7), 2: rating_engine.Rating(23, 6)}
        t = time.perf_counter()
        for _ in range(1000):
            rating_engine.rate_table(ratings, rating_engine.RatedTable("k", {1: 1, 2: 2}))
        figures["engine_update_us"] = round(_ms(t), 1)  # 1000 updates in ms = microseconds each
        t = time.perf_counter()
        for _ in range(1000):
            rating_engine.rate_table(ratings | {3: rating_engine.DEFAULT, 4: rating_engine.DEFAULT},
                                     rating_engine.RatedTable("k", {1: 1, 2: 2, 3: 2, 4: 4}))  # fmt: skip
        figures["engine_update_pod_us"] = round(_ms(t), 1)

        # The worst case: the first event's first table corrected, everything from it on rated again.
        first = Pod.objects.filter(round__event_id=created[0], round__number=1).order_by("table_number").first()
        a, b = list(first.seats.order_by("seat_order"))
        a_won = a.placement == 1 and b.placement != 1
        Seat.objects.filter(pk=a.pk).update(placement=2 if a_won else 1, points=0 if a_won else 3)
        Seat.objects.filter(pk=b.pk).update(placement=1 if a_won else 2, points=3 if a_won else 0)
        PodResult.objects.filter(pod=first).update(corrected_at=datetime.datetime.now(datetime.UTC))
        Event.objects.filter(pk=created[0]).update(results_version=F("results_version") + 1)
        t = time.perf_counter()
        figures["correction_rated"] = rating_services.ratings_update(format_slug="deck-masters")
        figures["correction_first_event_ms"] = round(_ms(t), 1)

        # The season's meta report.
        events = selectors.season_events(season=season)
        meta_runs = []
        for _ in range(3):
            t = time.perf_counter()
            report = selectors.meta_report(events=events)
            meta_runs.append(_ms(t))
        figures["meta_report_ms"] = round(min(meta_runs), 1)
        figures["meta_archetypes"] = len(report.rows)
        figures["rated_players"] = PlayerRating.objects.filter(player_id__in=pool).count()
    finally:
        with transaction.atomic():
            Event.objects.filter(pk__in=created).delete()
            if league is not None:
                League.objects.filter(pk=league.pk).delete()
            Player.objects.filter(display_name__startswith=f"{tag} ").delete()
    rows = [
        ("season built (bulk), tables", f"{figures['tables']:,} tables in {figures['build_s']} s"),
        ("season standings recomputed, best / worst of 5",
         f"{figures['season_standings_ms']:.0f} / {figures['season_standings_worst_ms']:.0f} ms (target ≤ 500 ms)"),
        ("ratings from scratch, 1v1 + pods",
         f"{figures['ratings_scratch_ms']:.0f} ms ({figures['ratings_scratch_1v1_ms']:.0f} + "
         f"{figures['ratings_scratch_pods_ms']:.0f}), {figures['rating_changes']:,} changes "
         f"(target ≤ {RATINGS_SCRATCH_TARGET_MS / 1000:g} s: {'met' if figures['ratings_scratch_met'] else 'not met'})"),
        ("one table's incremental update (ratings_update), median / worst of 30",
         f"{figures['incremental_median_ms']:.2f} / {figures['incremental_worst_ms']:.2f} ms (target ≤ 5 ms)"),
        ("the engine's update alone, 1v1 / pod of 4",
         f"{figures['engine_update_us']:.0f} / {figures['engine_update_pod_us']:.0f} µs"),
        ("worst case: first event's result corrected, rated again from there",
         f"{figures['correction_first_event_ms']:.0f} ms, {figures['correction_rated']:,} seats rated again"),
        ("the season's meta report", f"{figures['meta_report_ms']:.0f} ms, {figures['meta_archetypes']} archetypes"),
    ]  # fmt: skip
    return rows, figures
