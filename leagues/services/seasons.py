"""A season's standings: every event's results through the league points engine (:mod:`leagues.points`), stored.

The events' own standings come first (each event's Swiss ranks, wins and
byes, stored by the standings task); the season reads them with its events'
tables in a fixed number of queries, computes, and replaces its stored rows in
one short transaction, like an event's standings: a run reads the season's
version first, and a run older than what is stored writes nothing, so running
it twice changes nothing.
"""

from __future__ import annotations

from collections import defaultdict

from django.db import connection, transaction
from django.db.models import F, Q

from core import events
from core.domain_actions import DomainAction
from leagues import points
from leagues.models import Season, SeasonEvent, SeasonStanding
from tournaments.models import Round, Seat, Standing

#: The task that recomputes a season's standings (``leagues.tasks``).
RECOMPUTE_TASK = "leagues.tasks.recompute_season"


def job_key(season_id: int) -> str:
    return f"season:{season_id}"


def bump_version(season_ids: list[int]) -> None:
    """Mark the seasons' standings out of date, in the caller's transaction (handlers only)."""
    if season_ids:
        Season.objects.filter(pk__in=season_ids).update(results_version=F("results_version") + 1)


def seasons_of_event(event_id: int) -> list[int]:
    return list(SeasonEvent.objects.filter(event_id=event_id).values_list("season_id", flat=True))


def stale_season_ids() -> list[int]:
    return list(Season.objects.filter(standings_version__lt=F("results_version")).values_list("pk", flat=True))


def season_results(season: Season) -> list[points.EventResult]:
    """Every played event of the season as the engine's input: three queries, whatever the number of events."""
    linked = list(SeasonEvent.objects.filter(season=season).select_related("event").order_by("event__date", "event_id"))
    ids = [link.event_id for link in linked]
    lines: dict[int, list[tuple[int, int, int, int, int]]] = defaultdict(list)
    for event_id, player_id, rank, wins, draws, byes in (
        Standing.objects.filter(event_id__in=ids)
        .order_by()
        .values_list("event_id", "player_id", "rank", "wins", "draws", "byes")
    ):
        lines[event_id].append((player_id, rank, wins, draws, byes))
    tables: dict[int, dict[int, tuple[int, str, int, dict[int, int | None]]]] = defaultdict(dict)
    seats = (
        Seat.objects.filter(round__event_id__in=ids, pod__is_bye=False)
        .filter(Q(placement__isnull=False) | Q(round__stage=Round.Stage.TOP_CUT))
        .order_by()
        .values_list("round__event_id", "pod_id", "round__stage", "round__number", "player_id", "placement")
    )
    for event_id, pod_id, stage, number, player_id, placement in seats:
        table = tables[event_id].get(pod_id)
        if table is None:
            table = tables[event_id][pod_id] = (number, stage, pod_id, {})
        table[3][player_id] = placement
    results = []
    for order, link in enumerate(linked):
        event = link.event
        if not lines.get(event.pk):
            continue  # not played yet: no standings
        swiss = [t for t in tables[event.pk].values() if t[1] == Round.Stage.SWISS]
        cut = [points.CutTable(t[0], t[3]) for t in tables[event.pk].values() if t[1] == Round.Stage.TOP_CUT]
        placings = points.final_placings({p: rank for p, rank, *_ in lines[event.pk]}, cut, cut_size=event.top_cut_size)
        pods: dict[int, list[tuple[int, int]]] = defaultdict(list)
        if not event.is_one_vs_one:
            for table in swiss:
                placed = table[3]
                for player_id, placement in placed.items():
                    if placement is not None:
                        pods[player_id].append((placement, sum(1 for p in placed.values() if p == placement)))
        players = []
        for player_id, _rank, wins, draws, byes in lines[event.pk]:
            if event.is_one_vs_one:
                players.append(points.PlayerEvent(player_id, placings[player_id], match_wins=wins, match_draws=draws))
            else:
                played = tuple(pods[player_id]) + ((1, 1),) * byes
                players.append(points.PlayerEvent(player_id, placings[player_id], pods=played))
        results.append(
            points.EventResult(
                event_id=event.pk,
                order=order,
                players=tuple(players),
                tables=tuple({p: pl for p, pl in t[3].items() if pl is not None} for t in tables[event.pk].values()),
            )  # fmt: skip
        )
    return results


def compute_season(season: Season) -> list[points.SeasonLine]:
    return points.season_standings(points.PointsTable.from_json(season.points_table), season_results(season))


def _lock(season_id: int) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [0x5345, season_id])  # "SE"
            cursor.execute("SET LOCAL synchronous_commit TO OFF")  # derived data, as the event standings


def season_standings_recompute(*, season_id: int) -> int:
    """Recompute and store the season's standings; returns the version they reflect (safe to run twice)."""
    season = Season.objects.filter(pk=season_id).first()
    if season is None:
        return 0
    version = season.results_version
    if season.standings_version >= version:
        return season.standings_version  # current already: a second run changes nothing
    lines = compute_season(season)
    with transaction.atomic():
        _lock(season_id)
        stored = Season.objects.filter(pk=season_id).values_list("standings_version", flat=True).first()
        if stored is None:
            return 0
        if stored >= version and season.standings_version >= version:
            return stored  # what is stored reflects this version already, or a newer one
        SeasonStanding.objects.filter(season_id=season_id).delete()
        SeasonStanding.objects.bulk_create(
            (
                SeasonStanding(
                    season_id=season_id,
                    player_id=line.player_id,
                    rank=line.rank,
                    points=line.points,
                    events_played=line.events_played,
                    events_counted=line.events_counted,
                    average_placing=line.average_placing,
                    best_placing=line.best_placing,
                    head_to_head=line.head_to_head,
                    version=version,
                    events=[
                        {"event": e.event_id, "points": e.points, "placing": e.placing, "counted": e.counted}
                        for e in line.events
                    ],
                )  # fmt: skip
                for line in lines
            ),
            batch_size=500,
        )
        Season.objects.filter(pk=season_id).update(standings_version=version)
        events.record(
            action=DomainAction.SEASON_STANDINGS_UPDATED, event=None, audit=False, season_id=season_id, version=version
        )
    return version
