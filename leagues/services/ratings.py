"""Ratings per format: every table result through the OpenSkill engine (:mod:`leagues.ratings`), in play order.

A table's place in play order is its *key*: the event's date, the event, the
round, the table (:func:`table_key`), as text that sorts in that order.
:func:`ratings_update` looks at the events of a format whose results moved
since they were rated (``Event.results_version`` against
:class:`~leagues.models.EventRatingState`), finds the tables that are new or
whose result or key changed, and then:

* when every one of them is new and comes after every table rated so far (the
  usual case: a result just entered), rates just those tables from the
  players' current ratings: an *incremental update*;
* otherwise (a correction, a result entered for an earlier event, an event
  whose date changed) recomputes from the earliest of them on
  (:func:`ratings_recompute_from`): the history from that key on is dropped,
  every player starts again from their last rating before it, and every table
  from there is rated again in order.

Both write in one transaction under a lock per format, so the outcome is the
same as rating everything from scratch (:func:`ratings_recompute`), which the
tests check, and running the task twice changes nothing.  Byes and
intentional draws are not rated.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass

from django.core.exceptions import FieldDoesNotExist
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Field, FilteredRelation, Model, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from core import events
from core.domain_actions import DomainAction
from leagues import ratings as engine
from leagues.models import EventRatingState, PlayerRating, RatingChange
from tournaments.models import Event, Player, Pod, PodResult, Round, Seat

#: The task that brings a format's ratings up to date (``leagues.tasks``).
UPDATE_TASK = "leagues.tasks.update_ratings"


def job_key(format_slug: str) -> str:
    return f"ratings:{format_slug}"


def table_key(date: datetime.date, event_id: int, round_number: int, table_number: int | None) -> str:
    """A table's place in play order, as text that sorts in that order."""
    return f"{date.isoformat()}/{event_id:010d}/{round_number:04d}/{table_number or 0:06d}"


def _fingerprint(placements: dict[int, int]) -> str:
    return ",".join(f"{p}:{pl}" for p, pl in sorted(placements.items()))


@dataclass
class _Table:
    pod_id: int
    event_id: int
    key: str
    placements: dict[int, int]


def _tables(seats, current: dict[int, engine.Rating] | None = None) -> dict[int, _Table]:
    """``{pod id: table}`` from seat rows (event id, date, round, table number, pod, player, placement), and, with
    ``current``, each row's player's current rating (collected there)."""
    found: dict[int, _Table] = {}
    for event_id, date, round_number, table_number, pod_id, player_id, placement, *now in seats:
        if current is not None and now[0] is not None:
            current[player_id] = engine.Rating(now[0], now[1], now[2])
        table = found.get(pod_id)
        if table is None:
            table = found[pod_id] = _Table(pod_id, event_id, table_key(date, event_id, round_number, table_number), {})
        table.placements[player_id] = placement
    return {pod: t for pod, t in found.items() if len(t.placements) > 1}


_SEAT_COLUMNS = ("round__event_id", "round__event__date", "round__number", "pod__table_number", "pod_id", "player_id",
                 "placement")  # fmt: skip
#: The same, with the player's current rating (``None``: never rated).
_SEAT_COLUMNS_CURRENT = (*_SEAT_COLUMNS, "current__mu", "current__sigma", "current__games")


def _rated(pods: Iterable[int]) -> dict[int, tuple[str, str]]:
    """``{pod id: (key, placements)}`` of these tables as they were rated (``_fingerprint``), read from their
    changes: a table's changes say its key and every player's placement, so the history is the record of what
    each table was rated with (a table never rated is not in it)."""
    found: dict[int, tuple[str, dict[int, int]]] = {}
    for pod_id, key, player_id, placement in (
        RatingChange.objects.filter(pod_id__in=list(pods))
        .order_by()
        .values_list("pod_id", "key", "player_id", "placement")
    ):
        found.setdefault(pod_id, (key, {}))[1][player_id] = placement
    return {pod_id: (key, _fingerprint(placements)) for pod_id, (key, placements) in found.items()}


def _rated_seats():
    return Seat.objects.filter(
        placement__isnull=False, pod__is_bye=False, pod__result__intentional_draw=False
    ).order_by()


def _lock(format_slug: str) -> None:
    """One writer per format at a time (PostgreSQL: an advisory lock; SQLite serialises writes already)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # Ratings are derived data: after a crash the sweep finds the events not rated and rates them again,
            # so this commit need not wait for its WAL to reach disk (as the standings' commits).  One round trip.
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, hashtext(%s)), set_config('synchronous_commit', 'off', true)",
                [0x5241, format_slug],  # "RA"
            )


@dataclass(frozen=True)
class _Sql:
    """A model as hand-written SQL names it, from the model itself (``_meta``), never from a literal: ``str()`` is
    its table and alias (``"tournaments_event" e``), a call a field's column (``e("results_version")`` is
    ``e."results_version"``).  A field renamed, or given another column, changes the SQL with it; one that is
    gone raises ``FieldDoesNotExist`` when the SQL is built, which the tests do (``tests/leagues``)."""

    model: type[Model]
    alias: str

    def __str__(self) -> str:
        return f"{_table(self.model)} {self.alias}"

    def __call__(self, field: str) -> str:
        return f"{self.alias}.{_column(self.model, field)}"


def _table(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _column(model: type[Model], field: str) -> str:
    """The column of the model's ``field`` (a field's name, or a foreign key's ``_id`` name), quoted."""
    found = model._meta.get_field(field)
    if not isinstance(found, Field) or found.column is None:
        raise FieldDoesNotExist(f"{model.__name__}.{field} is not stored in a column of its table")
    return connection.ops.quote_name(found.column)


def _column_type(model: type[Model], field: str) -> str:
    """The database type of the model's ``field`` as psycopg names it (``varchar(40)`` is ``varchar``)."""
    db_type = model._meta.get_field(field).db_type(connection)
    if db_type is None:
        raise FieldDoesNotExist(f"{model.__name__}.{field} is not stored in a column of its table")
    return db_type.split("(")[0]


def _columns(model: type[Model], fields: Iterable[str]) -> str:
    return ", ".join(_column(model, field) for field in fields)


def _day(value) -> datetime.date:
    """A date read by a raw query (SQLite answers text)."""
    return value if isinstance(value, datetime.date) else datetime.date.fromisoformat(value)


def _dirty_events(format_slug: str) -> tuple[list[tuple[int, int, datetime.date, bool]], str, list[int]]:
    """Events of the format whose results moved since they were rated: (id, results version, date, date moved);
    the key of the last table rated in the format (``""``: none); and those of the events with a result corrected
    at some point.  One query, written out: it runs on every result entered, and the ORM would spend longer
    building it than the database answering it."""
    with connection.cursor() as cursor:
        cursor.execute(_dirty_events_sql(), [format_slug, format_slug])
        rows = cursor.fetchall()
    frontier = next((row[4] for row in rows if row[4]), "")
    dirty = [
        (pk, version, _day(date), rated_date is not None and _day(rated_date) != _day(date))
        for pk, version, date, rated_date, *_ in rows
    ]
    return dirty, frontier, [row[0] for row in rows if row[5]]


def _dirty_events_sql() -> str:
    """The SQL of :func:`_dirty_events` (two parameters: the format, twice)."""
    e, s, c = _Sql(Event, "e"), _Sql(EventRatingState, "s"), _Sql(RatingChange, "c")
    res, p, r = _Sql(PodResult, "res"), _Sql(Pod, "p"), _Sql(Round, "r")
    return f"""
        SELECT {e("id")}, {e("results_version")}, {e("date")}, {s("rated_date")},
               (SELECT {c("key")} FROM {c} WHERE {c("format")} = %s ORDER BY {c("key")} DESC LIMIT 1),
               EXISTS (SELECT 1 FROM {res}
                       JOIN {p} ON {p("id")} = {res("pod")} JOIN {r} ON {r("id")} = {p("round")}
                       WHERE {r("event")} = {e("id")} AND {res("corrected_at")} IS NOT NULL)
        FROM {e} LEFT JOIN {s} ON {s("event")} = {e("id")}
        WHERE {e("format")} = %s
          AND ({e("results_version")} > COALESCE({s("rated_version")}, 0)
               OR ({s("id")} IS NOT NULL AND {s("rated_date")} <> {e("date")}))
    """


def _format_seats(format_slug: str, since: datetime.date | None) -> list[tuple]:
    """The seats of every rated table of the format (of the events on or after ``since``, if given), as
    :data:`_SEAT_COLUMNS`: a recompute's read, tens of thousands of rows.  One query, written out as
    :func:`_dirty_events` (the ORM's rows cost a season's recompute twice the database's time to read them);
    on PostgreSQL it locks the tables (pods) as it reads them, as :func:`_lock_pods` would with a statement
    more and the tables' ids sent back."""
    params: list = [format_slug] if since is None else [format_slug, since]
    with connection.cursor() as cursor:
        cursor.execute(_format_seats_sql(since is not None), params)
        return [(event, _day(day), *rest) for event, day, *rest in cursor.fetchall()]


def _format_seats_sql(since: bool) -> str:
    """The SQL of :func:`_format_seats` (parameters: the format, and with ``since`` the first date)."""
    s, r, e, p, res = _Sql(Seat, "s"), _Sql(Round, "r"), _Sql(Event, "e"), _Sql(Pod, "p"), _Sql(PodResult, "res")
    return f"""
        SELECT {r("event")}, {e("date")}, {r("number")}, {p("table_number")}, {s("pod")}, {s("player")},
               {s("placement")}
        FROM {s}
        JOIN {r} ON {r("id")} = {s("round")}
        JOIN {e} ON {e("id")} = {r("event")}
        JOIN {p} ON {p("id")} = {s("pod")}
        JOIN {res} ON {res("pod")} = {s("pod")}
        WHERE {e("format")} = %s {f"AND {e('date')} >= %s" if since else ""}
          AND {s("placement")} IS NOT NULL AND NOT {p("is_bye")} AND NOT {res("intentional_draw")}
        {"FOR KEY SHARE OF p" if connection.vendor == "postgresql" else ""}
    """


def _new_seats(format_slug: str, event_ids: list[int]) -> list[tuple]:
    """The seats of the tables of these events never rated (no change in the history), as
    :data:`_SEAT_COLUMNS_CURRENT` (the usual read of an update: a result just entered).  One query, written out as
    :func:`_dirty_events`; on PostgreSQL it keeps the tables (pods) read until the transaction ends, as the
    history's foreign key would (:func:`_lock_pods`)."""
    if not event_ids:
        return []
    with connection.cursor() as cursor:
        cursor.execute(_new_seats_sql(len(event_ids)), [format_slug, *event_ids])
        return [(event, _day(day), *rest) for event, day, *rest in cursor.fetchall()]


def _new_seats_sql(events: int) -> str:
    """The SQL of :func:`_new_seats` for ``events`` events (parameters: the format, then the events' ids)."""
    s, r, e, p = _Sql(Seat, "s"), _Sql(Round, "r"), _Sql(Event, "e"), _Sql(Pod, "p")
    res, cur, c = _Sql(PodResult, "res"), _Sql(PlayerRating, "cur"), _Sql(RatingChange, "c")
    return f"""
        SELECT {r("event")}, {e("date")}, {r("number")}, {p("table_number")}, {s("pod")}, {s("player")},
               {s("placement")}, {cur("mu")}, {cur("sigma")}, {cur("games")}
        FROM {s}
        JOIN {r} ON {r("id")} = {s("round")}
        JOIN {e} ON {e("id")} = {r("event")}
        JOIN {p} ON {p("id")} = {s("pod")}
        JOIN {res} ON {res("pod")} = {s("pod")}
        LEFT JOIN {cur} ON {cur("player")} = {s("player")} AND {cur("format")} = %s
        WHERE {r("event")} IN ({", ".join(["%s"] * events)})
          AND {s("placement")} IS NOT NULL AND NOT {p("is_bye")} AND NOT {res("intentional_draw")}
          AND NOT EXISTS (SELECT 1 FROM {c} WHERE {c("pod")} = {s("pod")})
        {"FOR KEY SHARE OF p" if connection.vendor == "postgresql" else ""}
    """


#: Above this many rows, PostgreSQL takes them with one ``COPY`` rather than ``INSERT``s (a recompute's history).
_COPY_FROM = 200

_CHANGE_COLUMNS = ("format", "key", "pod_id", "player_id", "placement", "mu_before", "sigma_before", "mu_after",
                   "sigma_after", "rating_after", "games")  # fmt: skip


def _insert(model, columns: tuple[str, ...], rows: Iterable[tuple], count: int) -> None:
    """Insert ``count`` plain rows: on PostgreSQL, many of them with one binary ``COPY`` (no model instance built
    per row, as the standings do), taken from ``rows`` as they come; otherwise ``bulk_create``."""
    if not count:
        return
    if connection.vendor == "postgresql" and count > _COPY_FROM:
        # Binary: psycopg writes each value as the column's type (a float as its 8 bytes), about five times
        # faster than the text format, which formats every value as text for the server to parse again.
        sql = f"COPY {_table(model)} ({_columns(model, columns)}) FROM STDIN (FORMAT BINARY)"
        with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
            copy.set_types([_column_type(model, field) for field in columns])
            for row in rows:
                copy.write_row(row)
        return
    model.objects.bulk_create((model(**dict(zip(columns, row, strict=True))) for row in rows), batch_size=2000)


def _change_rows(format_slug: str, tables: dict[int, _Table], changes: Iterable[engine.Change]) -> Iterator[tuple]:
    """The changes as rows of :data:`_CHANGE_COLUMNS`, taken as they come."""
    by_key = {t.key: t for t in tables.values()}
    rating = engine.conservative
    for c in changes:
        t = by_key[c.key]
        yield (format_slug, c.key, t.pod_id, c.player_id, t.placements[c.player_id],
               c.before.mu, c.before.sigma, c.after.mu, c.after.sigma, rating(c.after), c.after.games)  # fmt: skip


def _write(format_slug: str, tables: dict[int, _Table], changes: Iterable[engine.Change],
           ratings: dict[int, engine.Rating], players: Iterable[int], cleared: Iterable[int] = ()) -> int:  # fmt: skip
    """Store the changes (which say what each table was rated with), and the ``players``' ratings after them;
    returns the changes stored.

    ``changes`` is taken as it comes: a recompute passes :func:`~leagues.ratings.replay_into`'s generator, so the
    database stores the first tables' changes while the next are rated, and ``ratings`` (which it keeps) is read
    once they are all stored.  Every table gives one change per seat, which says how many are coming.
    """
    count = sum(len(t.placements) for t in tables.values())
    _insert(RatingChange, _CHANGE_COLUMNS, _change_rows(format_slug, tables, changes), count)
    final = {p: ratings.get(p, engine.DEFAULT) for p in players}
    gone = [p for p in set(cleared) if not final.get(p, engine.DEFAULT).games]
    if gone:
        PlayerRating.objects.filter(format=format_slug, player_id__in=gone).delete()
    PlayerRating.objects.bulk_create(
        (PlayerRating(format=format_slug, player_id=p, mu=r.mu, sigma=r.sigma, rating=engine.conservative(r),
                      games=r.games) for p, r in final.items() if r.games),
        batch_size=2000, update_conflicts=True, unique_fields=["format", "player"],
        update_fields=["mu", "sigma", "rating", "games"],
    )  # fmt: skip
    return count


def _lock_players(players: Collection[int]) -> None:
    """What the history's foreign key to the player would check row by row at commit (:class:`RatingChange`
    has none in the database), once per player: every one of them exists, and stays until the transaction ends
    (``FOR KEY SHARE``, the lock such a check takes).  A recompute writes tens of thousands of changes for a
    few hundred players: one statement instead of a check per change.  PostgreSQL only (SQLite keeps no such
    locks, and serialises writers)."""
    if connection.vendor != "postgresql" or not players:
        return
    with connection.cursor() as cursor:
        cursor.execute(_lock_players_sql(), [list(players)])
        missing = set(players) - {row[0] for row in cursor.fetchall()}
    if missing:
        raise IntegrityError(f"ratings for players that do not exist: {sorted(missing)}")


def _lock_pods(pods: Collection[int]) -> None:
    """The same as :func:`_lock_players` for the tables (pods) of the changes written: the history has no foreign
    key to the pod in the database either, whose check at commit cost a recompute a query per change (70,350
    for a season), each locking its pod again.  The reads of a recompute and of an update's new tables lock
    their pods as they read them (:func:`_format_seats`, :func:`_new_seats`); this statement locks the tables
    an update read again through the ORM (a moved event's never rated) before it rates them."""
    if connection.vendor != "postgresql" or not pods:
        return
    with connection.cursor() as cursor:
        cursor.execute(_lock_pods_sql(), [list(pods)])
        (found,) = cursor.fetchone()
    if found != len(set(pods)):
        missing = set(pods) - set(Pod.objects.filter(pk__in=list(pods)).values_list("pk", flat=True))
        raise IntegrityError(f"ratings for tables that do not exist: {sorted(missing)}")


def _lock_pods_sql() -> str:
    """The SQL of :func:`_lock_pods` (one parameter: the pods' ids): how many were found (and locked), not their
    ids, which a recompute would read back by the ten thousand."""
    p = _Sql(Pod, "p")
    return f"SELECT count(*) FROM (SELECT 1 FROM {p} WHERE {p('id')} = ANY(%s) FOR KEY SHARE OF p) AS locked"


def _lock_players_sql() -> str:
    """The SQL of :func:`_lock_players` (one parameter: the players' ids)."""
    p = _Sql(Player, "p")
    return f"SELECT {p('id')} FROM {p} WHERE {p('id')} = ANY(%s) FOR KEY SHARE OF p"


def _current(format_slug: str, players: Iterable[int]) -> dict[int, engine.Rating]:
    return {
        p: engine.Rating(mu, sigma, games)
        for p, mu, sigma, games in PlayerRating.objects.filter(format=format_slug, player_id__in=list(players))
        .order_by()
        .values_list("player_id", "mu", "sigma", "games")
    }


def ratings_apply(
    *,
    format_slug: str,
    tables: dict[int, _Table],
    current: dict[int, engine.Rating] | None = None,
    states: Sequence[tuple[int, int, datetime.date]] = (),
) -> int:
    """The incremental update: rate ``tables`` (all after every rated table) from the players' current ratings,
    and store the events' rated ``states`` with them.

    Call it inside the format's transaction (:func:`ratings_update` does).  Returns the changes written.  On
    PostgreSQL everything is written by one statement (:func:`_write_at_once`): a result just entered costs
    one round trip to store, not four.
    """
    players = {p for t in tables.values() for p in t.placements}
    start = _current(format_slug, players) if current is None else {p: r for p, r in current.items() if p in players}
    final, changes = engine.replay((engine.RatedTable(t.key, t.placements) for t in tables.values()), start)
    ratings = {p: final[p] for p in players}
    if connection.vendor == "postgresql":
        _write_at_once(format_slug, tables, changes, ratings, list(states))
    else:
        _write(format_slug, tables, changes, ratings, players)
        EventRatingState.objects.bulk_create(
            (EventRatingState(event_id=pk, rated_version=v, rated_date=d) for pk, v, d in states),
            update_conflicts=True, unique_fields=["event"], update_fields=["rated_version", "rated_date"],
        )  # fmt: skip
    return len(changes)


def _values(rows: list[tuple], params: list) -> str:
    """``(%s, ...), (...)`` for ``rows``, their values appended to ``params``."""
    for row in rows:
        params.extend(row)
    return ", ".join("(" + ", ".join(["%s"] * len(row)) + ")" for row in rows)


def _write_at_once(
    format_slug: str,
    tables: dict[int, _Table],
    changes: list[engine.Change],
    final: dict[int, engine.Rating],
    states: list[tuple[int, int, datetime.date]],
) -> None:
    """PostgreSQL: the changes, the players' ratings and the events' rated states in one statement
    (data-modifying CTEs), as :func:`_write` and the states' upsert would in three."""
    change_rows = list(_change_rows(format_slug, tables, changes))
    rating_rows = [(format_slug, p, r.mu, r.sigma, engine.conservative(r), r.games) for p, r in final.items()]
    params: list = []
    sql = _write_at_once_sql(
        changes=_values(change_rows, params),
        states=_values(states, params) if states else None,
        ratings=_values(rating_rows, params),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _upsert(model: type[Model], fields: tuple[str, ...], values: str, *, unique: tuple[str, ...]) -> str:
    """``INSERT INTO`` the model's table ``fields`` ``VALUES values``, the other fields updated on a conflict of
    ``unique``."""
    updated = ", ".join(f"{c} = EXCLUDED.{c}" for c in (_column(model, f) for f in fields if f not in unique))
    return (
        f"INSERT INTO {_table(model)} ({_columns(model, fields)}) VALUES {values} "
        f"ON CONFLICT ({_columns(model, unique)}) DO UPDATE SET {updated}"
    )


#: The fields :func:`_write_at_once` writes of an event's rated state and of a player's rating.
_STATE_COLUMNS = ("event_id", "rated_version", "rated_date")
_RATING_COLUMNS = ("format", "player_id", "mu", "sigma", "rating", "games")


def _write_at_once_sql(*, changes: str, states: str | None, ratings: str) -> str:
    """The statement of :func:`_write_at_once`, given each table's ``VALUES`` (``None``: no states)."""
    parts = [
        f"c AS (INSERT INTO {_table(RatingChange)} ({_columns(RatingChange, _CHANGE_COLUMNS)}) VALUES {changes})",
    ]
    if states is not None:
        parts.append(f"s AS ({_upsert(EventRatingState, _STATE_COLUMNS, states, unique=('event_id',))})")
    return f"WITH {', '.join(parts)} " + _upsert(PlayerRating, _RATING_COLUMNS, ratings, unique=("format", "player_id"))


def ratings_recompute_from(*, format_slug: str, key: str) -> int:
    """Rate every table of the format from ``key`` on again, from each player's rating just before it."""
    touched = set(
        RatingChange.objects.filter(format=format_slug, key__gte=key).values_list("player_id", flat=True).distinct()
    )
    RatingChange.objects.filter(format=format_slug, key__gte=key).delete()
    seats = _format_seats(format_slug, datetime.date.fromisoformat(key[:10]) if key else None)
    tables = {pod: t for pod, t in _tables(seats).items() if t.key >= key}
    players = touched | {p for t in tables.values() for p in t.placements}
    start: dict[int, engine.Rating] = {}
    if key and players:
        latest = (
            RatingChange.objects.filter(format=format_slug, player_id=OuterRef("player_id"), key__lt=key)
            .order_by("-key")
            .values("pk")[:1]
        )
        last_ids = [
            pk for pk in PlayerRating.objects.filter(format=format_slug, player_id__in=list(players))
            .annotate(last=Subquery(latest)).values_list("last", flat=True) if pk is not None
        ]  # fmt: skip
        start = {
            p: engine.Rating(mu, sigma, games)
            for p, mu, sigma, games in RatingChange.objects.filter(pk__in=last_ids).values_list(
                "player_id", "mu_after", "sigma_after", "games"
            )
        }
    _lock_players({p for t in tables.values() for p in t.placements})  # the pods: locked as they were read
    changes = engine.replay_into(start, (engine.RatedTable(t.key, t.placements) for t in tables.values()))
    return _write(format_slug, tables, changes, start, players, cleared=players)


def ratings_update(*, format_slug: str) -> int:
    """Bring the format's ratings up to date with every result recorded (safe to run twice); returns how many
    tables were rated."""
    with transaction.atomic():
        _lock(format_slug)
        dirty, frontier, with_corrections = _dirty_events(format_slug)
        if not dirty:
            return 0
        moved = [pk for pk, _, _, date_moved in dirty if date_moved]
        rest = [pk for pk, _, _, date_moved in dirty if not date_moved]
        # Tables never rated, and tables whose result was corrected at some point (compared below).
        # Two simple reads rather than one with an OR, which the planner answers by scanning every table rated
        # in the format: the tables never rated (the usual case: a result just entered), and the tables of an
        # event whose date moved or whose results were corrected at some point (compared below).
        rows = _new_seats(format_slug, rest)
        again = [pk for pk in rest if pk in with_corrections]
        if moved or again:
            seats = _rated_seats().annotate(
                current=FilteredRelation("player__ratings", condition=Q(player__ratings__format=format_slug))
            )
            rows += seats.filter(
                Q(round__event_id__in=moved) | Q(round__event_id__in=again, pod__result__corrected_at__isnull=False)
            ).values_list(*_SEAT_COLUMNS_CURRENT)
        current: dict[int, engine.Rating] = {}
        candidates = _tables(rows, current)
        # What the tables read again were rated with (the new tables' have no changes: nothing to read).
        rated = _rated(candidates) if moved or again else {}
        changed = {pod: t for pod, t in candidates.items() if rated.get(pod) != (t.key, _fingerprint(t.placements))}
        count = 0
        if changed:
            earliest = min([t.key for t in changed.values()] + [rated[p][0] for p in changed if p in rated])
            states = [(pk, version, date) for pk, version, date, _ in dirty]
            if not any(p in rated for p in changed) and earliest > frontier:
                if moved or again:
                    _lock_pods(changed)  # read by the ORM, not locked as the new tables' read locks them
                count = ratings_apply(format_slug=format_slug, tables=changed, current=current, states=states)
                dirty = []  # their state is written with the ratings
            else:
                count = ratings_recompute_from(format_slug=format_slug, key=earliest)
        if dirty:
            EventRatingState.objects.bulk_create(
                (EventRatingState(event_id=pk, rated_version=v, rated_date=d) for pk, v, d, _ in dirty),
                update_conflicts=True, unique_fields=["event"], update_fields=["rated_version", "rated_date"],
            )  # fmt: skip
        if count:
            events.record(
                action=DomainAction.RATINGS_UPDATED, event=None, audit=False, format=format_slug, changes=count
            )
    return count


def ratings_recompute(*, format_slug: str) -> int:
    """Every table of the format rated again from scratch (the same outcome as the updates made)."""
    with transaction.atomic():
        _lock(format_slug)
        count = ratings_recompute_from(format_slug=format_slug, key="")
        states = list(Event.objects.filter(format=format_slug).values_list("pk", "results_version", "date"))
        EventRatingState.objects.filter(event_id__in=[pk for pk, *_ in states]).delete()
        EventRatingState.objects.bulk_create(
            (EventRatingState(event_id=pk, rated_version=v, rated_date=d) for pk, v, d in states), batch_size=2000
        )
    return count


def stale_formats() -> list[str]:
    """Formats with an event whose results moved since its ratings (what the sweep asks for again)."""
    return sorted(
        set(
            Event.objects.annotate(rated=Coalesce("rating_state__rated_version", 0))
            .filter(results_version__gt=F("rated"))
            .values_list("format", flat=True)
            .distinct()
        )
    )


def displayed_ratings(*, format_slug: str, player_ids: Iterable[int]) -> dict[int, float]:
    """``{player id: displayed rating}`` of the players rated in the format (one query)."""
    return dict(
        PlayerRating.objects.filter(format=format_slug, player_id__in=list(player_ids))
        .order_by()
        .values_list("player_id", "rating")
    )
