"""Standings: computed by the pure engine (:mod:`tournaments.standings`) from every result, and stored.

Every domain event that moves the standings bumps ``Event.results_version``
in its transaction and asks for a recompute after commit (both done by the
standings subscribers in :mod:`tournaments.readers`, never by a service); the
task stores the figures with the version they reflect, so readers can tell
whether stored standings are current.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict

from django.db import connection, transaction
from django.db.models import Case, F, When
from django.db.models.functions import Coalesce, Now

from core import events
from core.domain_actions import DomainAction
from tournaments import standings
from tournaments.models import Event, Registration, Round, Seat, Standing

#: The task that recomputes an event's standings (``tournaments.tasks``).
RECOMPUTE_TASK = "tournaments.tasks.recompute_standings"


def _event_results(event_id: int) -> list[standings.TableResult]:
    """Every reported Swiss table of the event, as the standings engine's input (one query).

    Top-cut tables are left out: the cut decides the winner by elimination,
    and the standings stay the Swiss standings the cut was seeded from.  A 1v1
    game score goes with its seat; an intentional draw's is 0-0-0 (its
    unplayed games are worth no game points).
    """
    rows = (
        Seat.objects.filter(round__event_id=event_id, placement__isnull=False, round__stage=Round.Stage.SWISS)
        .order_by()
        .values_list("pod_id", "round__number", "player_id", "placement", "games_won", "games_lost", "games_drawn")
    )
    by_pod: dict[int, list[tuple]] = defaultdict(list)
    for pod_id, round_number, player_id, placement, won, lost, drawn in rows:
        by_pod[pod_id].append((round_number, player_id, placement, None if won is None else (won, lost, drawn)))
    results = []
    for seats in by_pod.values():
        places = [seat[2] for seat in seats]  # 2 to 5 of them: counting beats a Counter per table
        results.append(
            standings.TableResult(
                round_number=seats[0][0],
                seats=tuple(
                    standings.SeatResult(player_id=pid, placement=pl, shared=places.count(pl) > 1, games=games)
                    for _, pid, pl, games in seats
                ),
            )
        )
    return results


def tiebreak_config(event: Event) -> standings.TiebreakConfig:
    """The event's convention, with the Magic floor it chose (0.33, or exactly 1/3 as Melee and MTGO publish)."""
    config = standings.CONVENTIONS[event.tiebreakers]
    if config.name == standings.MAGIC.name and event.magic_floor == Event.Floor.THIRD:
        config = dataclasses.replace(config, win_pct_floor=1 / 3, game_win_pct_floor=1 / 3)
    return config


def compute_standings(event: Event, registrations: list[Registration]) -> list[standings.Standing]:
    fmt = event.format_spec
    results = _event_results(event.pk)
    played = {seat.player_id for result in results for seat in result.seats}
    # Everyone who has played, and everyone checked in who has not dropped: a player who dropped before
    # playing a round has no standing.
    player_ids = [r.player_id for r in registrations if (r.checked_in and not r.dropped) or r.player_id in played]
    listed = set(player_ids)
    # Rounds a late entrant missed are losses, but only rounds that have been paired so far.
    paired = max((result.round_number for result in results), default=0)
    late = {
        r.player_id: min(r.missed_rounds, paired) for r in registrations if r.missed_rounds and r.player_id in listed
    }
    return standings.compute_standings(
        player_ids,
        results,
        scoring=fmt.scoring,
        multiplayer=not event.is_one_vs_one,
        dropped=[r.player_id for r in registrations if r.dropped and r.player_id in listed],
        convention=tiebreak_config(event),
        late_rounds={p: n for p, n in late.items() if n},
    )


def bump_results_version(event_id: int) -> None:
    """Record, in the caller's transaction, that the event's results changed (its standings are out of date).

    Called by the standings handler of the domain events (:mod:`tournaments.readers`), never by a service.
    """
    Event.objects.filter(pk=event_id).update(
        results_version=F("results_version") + 1,
        standings_stale_since=Coalesce(F("standings_stale_since"), Now()),
    )


def job_key(event_id: int) -> str:
    """The key of an event's standings job (see :mod:`core.jobs`): one pending and one running at most."""
    return f"standings:{event_id}"


#: During a burst of results, an event's standings are recomputed at most once a second, each run reading
#: every result recorded before it (the stored standings then lag the last result by a second or so).
RECOMPUTE_SPACING = 1.0


def stale_event_ids() -> list[int]:
    """Events whose stored standings are older than their results (what the sweep asks for again)."""
    return list(Event.objects.filter(standings_version__lt=F("results_version")).values_list("pk", flat=True))


#: First half of the PostgreSQL advisory lock key that serialises standings writes (the event id is the second).
_ADVISORY_NAMESPACE = 0x5354  # "ST"


def _lock_standings_writes(event_id: int) -> None:
    """Serialise writers of one event's standings without touching the event row that reports lock.

    PostgreSQL: a transaction-scoped advisory lock (and no wait for the WAL flush).  SQLite: its write
    transactions (``IMMEDIATE``) are serialised already.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_ADVISORY_NAMESPACE, event_id])
            # Stored standings are derived data: if the server crashed right after this commit, the sweep
            # recomputes them. So this commit need not wait for its WAL to reach disk (reports' commits do).
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


#: The stored columns of a standing, in the engine's terms (``event_id`` and ``results_version`` come first).
_STANDING_FIELDS = (
    "player_id", "rank", "points", "wins", "draws", "losses", "byes", "matches", "opp_match_win_pct",
    "opp_opp_match_win_pct", "opp_avg_points", "game_win_pct", "opp_game_win_pct", "dropped",
)  # fmt: skip


def _insert_standings(event_id: int, version: int, table: list[standings.Standing]) -> None:
    """Insert the computed rows.  PostgreSQL: one ``COPY`` (a 4,000-player table in a few milliseconds,
    where building and compiling 4,000 model instances costs a fifth of a second); elsewhere ``bulk_create``.
    """
    if connection.vendor == "postgresql":
        columns = ", ".join(connection.ops.quote_name(c) for c in ("event_id", "results_version", *_STANDING_FIELDS))
        sql = f"COPY {connection.ops.quote_name(Standing._meta.db_table)} ({columns}) FROM STDIN"
        with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
            for row in table:
                copy.write_row((event_id, version, *(getattr(row, f) for f in _STANDING_FIELDS)))
        return
    Standing.objects.bulk_create(
        (Standing(event_id=event_id, results_version=version, **{f: getattr(row, f) for f in _STANDING_FIELDS})
         for row in table),
        batch_size=500,
    )  # fmt: skip


def standings_recompute(*, event_id: int) -> int:
    """Recompute and store an event's standings; returns the results version the stored standings reflect.

    Reporting a result never waits for this.  It reads the results version
    first and the results after it, so the figures reflect at least that
    version; computes without holding any lock; then replaces the stored rows
    in one short transaction under a lock of its own (never the event row's
    lock, which reports take).  Safe to run twice or concurrently: a run whose
    version is older than the stored standings' writes nothing.
    """
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return 0  # deleted since the task was queued: nothing to do
    version = event.results_version
    table = compute_standings(event, list(event.registrations.all()))
    with transaction.atomic():
        _lock_standings_writes(event_id)
        stored = Event.objects.filter(pk=event_id).values_list("standings_version", flat=True).first()
        if stored is None:
            return 0
        if stored > version:
            return stored  # a run that read newer results has written already
        Standing.objects.filter(event_id=event_id).delete()
        _insert_standings(event_id, version, table)
        # Results recorded since this run read its version are missed: the standings lag from about now.
        Event.objects.filter(pk=event_id).update(
            standings_version=version,
            standings_stale_since=Case(When(results_version__gt=version, then=Now()), default=None),
        )
        # Not in the audit trail (nobody did it): for the readers that show standings as they change.
        events.record(action=DomainAction.STANDINGS_UPDATED, event=event_id, audit=False, version=version)
    return version
