"""Standings: computed by the pure engine (:mod:`tournaments.standings`) from every result, and stored.

Every domain event that moves the standings bumps ``Event.results_version``
in its transaction and asks for a recompute after commit (both done by the
standings subscribers in :mod:`tournaments.readers`, never by a service); the
task stores the figures with the version they reflect, so readers can tell
whether stored standings are current.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.db.models import Case, F, When
from django.db.models.functions import Coalesce, Now

from core import events
from core.domain_actions import DomainAction
from tournaments import standings
from tournaments.models import Event, Standing
from tournaments.selectors.standings import compute_standings, phases_reached, tiebreak_config

__all__ = ["compute_standings", "standings_recompute", "tiebreak_config"]

#: The task that recomputes an event's standings (``tournaments.tasks``).
RECOMPUTE_TASK = "tournaments.tasks.recompute_standings"


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


def _insert_standings(event_id: int, version: int, table: list[standings.Standing], reached: dict[int, int]) -> None:
    """Insert the computed rows.  PostgreSQL: one ``COPY`` (a 4,000-player table in a few milliseconds,
    where building and compiling 4,000 model instances costs a fifth of a second); elsewhere ``bulk_create``.
    """
    if connection.vendor == "postgresql":
        names = ("event_id", "results_version", *_STANDING_FIELDS, "phase")
        columns = ", ".join(connection.ops.quote_name(c) for c in names)
        sql = f"COPY {connection.ops.quote_name(Standing._meta.db_table)} ({columns}) FROM STDIN"
        with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
            for row in table:
                copy.write_row(
                    (event_id, version, *(getattr(row, f) for f in _STANDING_FIELDS), reached.get(row.player_id, 1))
                )
        return
    Standing.objects.bulk_create(
        (Standing(event_id=event_id, results_version=version, phase=reached.get(row.player_id, 1),
                  **{f: getattr(row, f) for f in _STANDING_FIELDS})
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
    version is older than the stored standings' writes nothing.  A staged round
    (not yet published) is left out: its byes count once it is published.
    """
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return 0  # deleted since the task was queued: nothing to do
    version = event.results_version
    registrations = list(event.registrations.all())
    # A staged round (only ever the latest) is the staff's until published: its byes would show it.
    staged = event.rounds.filter(published_at__isnull=True).order_by("number").values_list("number", flat=True)
    first_staged = staged.first()
    table = compute_standings(event, registrations, through_round=None if first_staged is None else first_staged - 1)
    with transaction.atomic():
        _lock_standings_writes(event_id)
        stored = Event.objects.filter(pk=event_id).values_list("standings_version", flat=True).first()
        if stored is None:
            return 0
        if stored > version:
            return stored  # a run that read newer results has written already
        Standing.objects.filter(event_id=event_id).delete()
        _insert_standings(event_id, version, table, phases_reached(registrations))
        # Results recorded since this run read its version are missed: the standings lag from about now.
        Event.objects.filter(pk=event_id).update(
            standings_version=version,
            standings_stale_since=Case(When(results_version__gt=version, then=Now()), default=None),
        )
        # Not in the audit trail (nobody did it): for the readers that show standings as they change.
        events.record(action=DomainAction.STANDINGS_UPDATED, event=event_id, audit=False, version=version)
    return version
