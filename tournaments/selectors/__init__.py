"""Reads of the tournaments app: each returns what a page or API answer needs in a fixed number of queries.

Events, rounds, pairings and standings here; what players, staff and the audit trail need in
:mod:`tournaments.selectors.people`, re-exported under the same name.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any, cast

from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import Case, Count, Exists, F, Min, Model, Prefetch, Q, QuerySet, When, prefetch_related_objects
from django.db.models.expressions import OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from tournaments import words
from tournaments.explain import SeatFacts, explain_seat
from tournaments.models import Event, EventStaff, Player, Pod, PodResult, Registration, Round, Seat, Standing
from tournaments.pairing import topcut
from tournaments.policy import manages_every_event


def event_list(*, user=None, mine: bool = False) -> QuerySet[Event]:
    """Events with their player and round counts; ``mine``: the ones the user organises or has a role at."""
    qs = Event.objects.select_related("organiser").annotate(
        player_count=Count(
            "registrations",
            filter=Q(registrations__dropped=False, registrations__status=Registration.Status.REGISTERED),
            distinct=True,
        ),
        round_count=Count("rounds", distinct=True),
    )
    if mine and user is not None and not manages_every_event(user):
        qs = qs.filter(Q(organiser=user) | Q(pk__in=EventStaff.objects.filter(user=user).values("event_id")))
    return qs


def events_matching(
    *,
    fmt: str | None = None,
    statuses: Iterable[str] = (),
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
    q: str = "",
) -> QuerySet[Event]:
    """Events as :func:`event_list` reads them, newest first, narrowed by what is given: of format ``fmt``, in one of
    ``statuses``, held from ``date_from`` to ``date_to`` (both days included), with ``q`` in their name (any case).
    One query for a page of them (and one to count them), whatever the filters."""
    events = event_list()
    if fmt:
        events = events.filter(format=fmt)
    if statuses:
        events = events.filter(status__in=list(statuses))
    if date_from is not None:
        events = events.filter(date__gte=date_from)
    if date_to is not None:
        events = events.filter(date__lte=date_to)
    if q:
        events = events.filter(name__icontains=q)
    # Said again: a query with counts (GROUP BY) does not take the model's ordering, and pages need one.
    return events.order_by("-date", "-id")


def events_page(*, number: int, size: int, **filters: Any) -> Page:
    """Page ``number`` (the last one past the end) of :func:`events_matching` with ``filters``, ``size`` a page: two
    queries (the count, the page)."""
    return Paginator(events_matching(**filters), size).get_page(number)


def events_by_status(*, limit: int) -> list[Event]:
    """At most ``limit`` events as :func:`event_list` reads them, for the home page: the running ones first
    (newest first), then those open for registration (soonest first), then the finished ones (most recent
    first): one query."""
    status = Event.Status
    stage = Case(When(status=status.RUNNING, then=0), When(status=status.REGISTRATION, then=1), default=2)
    upcoming_date = Case(When(status=status.REGISTRATION, then=F("date")))  # NULL for the others
    order = (stage, upcoming_date.asc(nulls_last=True), F("date").desc(), F("id").desc())
    return list(event_list().order_by(*order)[:limit])


# --- looking up what a URL names ------------------------------------------------------------------------------


def events() -> QuerySet[Event]:
    """Every event, to look one up by id: one query."""
    return Event.objects.all()


def events_with_organiser() -> QuerySet[Event]:
    """Every event with its organiser (the permission checks read it), to look one up by id: one query."""
    return Event.objects.select_related("organiser")


def event_refreshed(*, event: Event, fields: Iterable[str] | None = None) -> Event:
    """``event`` read again (a service changed it since it was loaded), only ``fields`` when given: one query."""
    event.refresh_from_db(fields=None if fields is None else list(fields))
    return event


def rounds_of(*, event: Event) -> QuerySet[Round]:
    """The event's rounds (each knows its event without a query), to look one up by number: one query."""
    return event.rounds.all()


def tables_at(*, event: Event | int, number: int, table: int | None) -> QuerySet[Pod]:
    """Table ``table`` of round ``number`` of the event (an event or its id), none or one: the one reading of "a
    table" by what names it in URLs and domain events, for every app (to look it up, or to build on).  One query.
    """
    return Pod.objects.filter(round__event=event, round__number=number, table_number=table)


def event_table(*, event: Event, number: int, table: int) -> QuerySet[Pod]:
    """Table ``table`` of round ``number`` of the event (none or one), with its round, to look it up: one query,
    and two more (its seats, their players) when it is there.  :func:`pod_seats` reads its seats."""
    return tables_at(event=event, number=number, table=table).select_related("round").prefetch_related("seats__player")


# --- an event's registrations, rounds and tables ---------------------------------------------------------------


def event_registrations(*, event: Event, invitations: bool = True) -> QuerySet[Registration]:
    """The event's registrations by player name, with their players and byes; ``invitations``: with those its
    players have not answered (for the event's staff: they are nobody else's to see)."""
    registrations = (
        event.registrations.select_related("player")
        .prefetch_related("bye_assignments")
        .order_by("player__display_name", "id")
    )
    return registrations if invitations else registrations.exclude(status=Registration.Status.INVITED)


def event_priority_players(*, event: Event) -> list[int]:
    """The ids of the players named for the event's priority window (an earned invite)."""
    return sorted(event.priority_players.values_list("pk", flat=True))


def event_latest_round(*, event: Event | int) -> Round | None:
    """The event's latest round (the highest number), ``None`` before round 1: the one reading of it, for every
    app.  Given the event, the round knows it; given its id, the round comes with its event (a join).  One query.
    """
    if isinstance(event, Event):
        return _latest_first(event.rounds.all()).first()
    return _latest_first(Round.objects.filter(event_id=event).select_related("event")).first()


def event_shown_round(*, event: Event | int) -> Round | None:
    """The latest round the players see: the latest published one (a staged round stays with the staff until it is
    published).  For the pages, API answers, streams and overlays everyone reads.  One query."""
    if isinstance(event, Event):
        return _latest_first(event.rounds.filter(published_at__isnull=False)).first()
    return _latest_first(
        Round.objects.filter(event_id=event, published_at__isnull=False).select_related("event")
    ).first()


def event_latest_round_number(*, event: Event | int) -> int | None:
    """The number of the event's latest round, ``None`` before round 1: one query."""
    return _latest_first(Round.objects.filter(event=event)).values_list("number", flat=True).first()


def _latest_first(rounds: QuerySet[Round]) -> QuerySet[Round]:
    return rounds.order_by("-number")


def round_get(*, event: Event, number: int) -> Round | None:
    return event.rounds.filter(number=number).first()


def event_round_numbers(*, event: Event, after: int | None = None, published_only: bool = False) -> list[int]:
    """The numbers of the event's rounds in order; ``after``: only those of the rounds after that one;
    ``published_only``: those the players see.  One query."""
    rounds = event.rounds.all() if after is None else event.rounds.filter(number__gt=after)
    if published_only:
        rounds = rounds.filter(published_at__isnull=False)
    return list(rounds.order_by("number").values_list("number", flat=True))


def round_tables_to_report(*, round_: Round) -> int:
    """How many of the round's tables (byes aside) wait for their result: one query."""
    return round_.pods.filter(is_bye=False, result__isnull=True).count()


def _pods_with_seats() -> QuerySet[Pod]:
    seats = Seat.objects.select_related("player").order_by("seat_order")
    return Pod.objects.select_related("result", "round").prefetch_related(Prefetch("seats", queryset=seats))


def round_table(*, round_: Round, table: int | None, with_seats: bool = False) -> Pod | None:
    """Table ``table`` of the round, ``None`` when it has none: one query; ``with_seats``: with its result, and its
    seats in seat order with their players (two)."""
    pods = Pod.objects.filter(round=round_, table_number=table)
    if with_seats:
        seats = Seat.objects.select_related("player").order_by("seat_order")
        pods = pods.select_related("result").prefetch_related(Prefetch("seats", queryset=seats))
    return pods.first()


def table_seats_at(*, event: Event | int, number: int, table: int | None) -> list[Seat]:
    """The seats of table ``table`` of round ``number`` of the event (see :func:`tables_at`), in seat order, with
    their players (empty when there is no such table): one query."""
    seats = Seat.objects.filter(round__event=event, round__number=number, pod__table_number=table)
    return list(seats.select_related("player").order_by("seat_order"))


def table_withheld(*, event: Event | int, number: int, table: int | None) -> bool:
    """Whether a player who opted out of being streamed sits at table ``table`` of round ``number``: one query."""
    seated = Seat.objects.filter(round__event=event, round__number=number, pod__table_number=table)
    return Registration.objects.filter(
        event=event, stream_opt_out=True, player_id__in=seated.values("player_id")
    ).exists()


class ModelRows[M: Model]:
    """Instances of ``model`` from the columns of a raw query, as the ORM would make them (its converters run).

    For the hottest reads of a staff result, which the ORM took longer to build than PostgreSQL to answer:
    ``columns(alias)`` names every concrete column, and :meth:`make` builds the instance from as many values."""

    def __init__(self, model: type[M]) -> None:
        self.model = model
        self.fields = list(model._meta.concrete_fields)
        self.names = [f.attname for f in self.fields]

    def columns(self, alias: str) -> str:
        return ", ".join(f"{alias}.{connection.ops.quote_name(cast(str, f.column))}" for f in self.fields)

    def make(self, values: Sequence[Any]) -> M:
        if self.converters:
            values = list(values)
            for i, convert in self.converters:
                values[i] = convert(values[i])
        return self.model.from_db(connection.alias, self.names, values)

    @cached_property
    def converters(self) -> list[tuple[int, Callable[[Any], Any]]]:
        """Each column's converters (the database's and the field's), found once, on first use (a connection)."""
        found: list[tuple[int, Callable[[Any], Any]]] = []
        for i, f in enumerate(self.fields):
            steps = [*connection.ops.get_db_converters(f.get_col(self.model._meta.db_table)),
                     *f.get_db_converters(connection)]  # fmt: skip
            if steps:
                found.append((i, partial(_convert, steps, f)))
        return found


def _convert(steps: list, field: Any, value: Any) -> Any:
    for step in steps:
        value = step(value, field.get_col(field.model._meta.db_table), connection)
    return value


_SEATS, _ROUNDS, _PLAYERS = ModelRows(Seat), ModelRows(Round), ModelRows(Player)
_PODS, _RESULTS = ModelRows(Pod), ModelRows(PodResult)

#: PostgreSQL: :func:`table_seats_locked` as one statement written out (what the ORM would send).
_SEATS_LOCKED = """
    SELECT {seats}, {rounds}, {players},
           EXISTS (SELECT 1 FROM {round} AS later WHERE later.event_id = %(event)s AND later.number > %(number)s)
    FROM {seat} AS s JOIN {round} AS r ON r.id = s.round_id JOIN {pod} AS d ON d.id = s.pod_id
         JOIN {player} AS p ON p.id = s.player_id
    WHERE r.event_id = %(event)s AND r.number = %(number)s AND d.table_number = %(table)s
    ORDER BY s.seat_order
    FOR UPDATE OF s
"""


def table_seats_locked(*, event: Event, number: int, table: int) -> tuple[list[Seat], bool]:
    """The seats of table ``table`` of round ``number``, locked (their rows only), in seat order, with their round
    and players; and whether a later round of the event is paired (``False`` when the table is not there: no
    seats).  One query, for the results services inside their transaction.

    On PostgreSQL the statement is written out, and the rows made into seats, their round (one instance) and
    players here: building the ORM's query cost a staff result more CPU in the web worker than any other step."""
    if connection.vendor == "postgresql":
        return _table_seats_locked(event.pk, number, table)
    later = Round.objects.filter(event=event, number__gt=number)
    seats = (
        Seat.objects.select_for_update(of=("self",))
        .select_related("round", "player")
        .annotate(later_round=Exists(later))
        .filter(round__event=event, round__number=number, pod__table_number=table)
    )
    found: list[Seat] = list(seats.order_by("seat_order"))
    return found, bool(found and cast(Any, found[0]).later_round)


def _table_seats_locked(event_id: int, number: int, table: int) -> tuple[list[Seat], bool]:
    sql = _SEATS_LOCKED.format(
        seats=_SEATS.columns("s"), rounds=_ROUNDS.columns("r"), players=_PLAYERS.columns("p"),
        seat=Seat._meta.db_table, round=Round._meta.db_table, pod=Pod._meta.db_table, player=Player._meta.db_table,
    )  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(sql, {"event": event_id, "number": number, "table": table})
        rows = cursor.fetchall()
    if not rows:
        return [], False
    a, b = len(_SEATS.names), len(_SEATS.names) + len(_ROUNDS.names)
    round_ = _ROUNDS.make(rows[0][a:b])
    seats = []
    for row in rows:
        seat = _SEATS.make(row[:a])
        seat.round = round_
        seat.player = _PLAYERS.make(row[b:-1])
        seats.append(seat)
    return seats, bool(rows[0][-1])


#: PostgreSQL: :func:`table_with_result` as one statement written out.
_TABLE_WITH_RESULT = """
    SELECT {pods}, {results},
           (SELECT o.id FROM {report} AS o WHERE o.pod_id = d.id AND o.status = ANY(%(open)s) ORDER BY o.id LIMIT 1)
    FROM {pod} AS d LEFT JOIN {result} AS x ON x.pod_id = d.id
    WHERE d.id = %(pod)s
"""


def table_with_result(*, pod_id: int, open_statuses: Sequence[str]) -> Pod:
    """The table with its result (``None`` when it has none) and ``open_report_id``, the id of its first report in
    one of ``open_statuses`` (``None`` when none is).  One query: on PostgreSQL written out, as
    :func:`table_seats_locked` (the results services read it right after it)."""
    from tournaments.models import ResultReport

    if connection.vendor != "postgresql":
        reports = ResultReport.objects.filter(pod=OuterRef("pk"), status__in=open_statuses).order_by("pk")
        pods = Pod.objects.select_related("result").annotate(open_report_id=Subquery(reports.values("pk")[:1]))
        found: Pod = pods.get(pk=pod_id)
        if not hasattr(found, "result"):
            Pod.result.related.set_cached_value(found, None)
        return found
    sql = _TABLE_WITH_RESULT.format(
        pods=_PODS.columns("d"), results=_RESULTS.columns("x"), report=ResultReport._meta.db_table,
        pod=Pod._meta.db_table, result=PodResult._meta.db_table,
    )  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(sql, {"pod": pod_id, "open": list(open_statuses)})
        row = cursor.fetchone()
    if row is None:
        raise Pod.DoesNotExist
    a = len(_PODS.names)
    pod = _PODS.make(row[:a])
    result = _RESULTS.make(row[a:-1]) if row[a] is not None else None
    if result is not None:
        result.pod = pod
    Pod.result.related.set_cached_value(pod, result)
    cast(Any, pod).open_report_id = row[-1]
    return pod


def round_pods(*, round_: Round) -> list[Pod]:
    """Tables of a round (byes last) with seats, players and results, in two queries."""
    return list(_pods_with_seats().filter(round=round_).order_by("is_bye", "table_number", "id"))


#: Where :func:`rounds_load_tables` puts a round's tables and its open player reports.
TABLES_ATTR = "loaded_tables"
REPORTS_ATTR = "loaded_reports"
#: A table's seats in seat order, as :func:`pod_detail` loads them.
SEATS_ATTR = "seat_list"


def rounds_load_tables(*, rounds: list[Round]) -> list[Round]:
    """Give each round its tables (as :func:`round_pods`) and open player reports, for all rounds at once.

    Three queries whatever the number of rounds (four when a report is open): the tables with their
    results, their seats with the players, the reports (and their answers).  A round keeps them in
    ``loaded_tables`` and ``loaded_reports`` (``{pod id: report}``), where the API's round output reads them.
    """
    from tournaments.selectors.people import rounds_open_reports

    if not rounds:
        return rounds
    seats = Seat.objects.select_related("player").order_by("seat_order")
    pods = Pod.objects.select_related("result").prefetch_related(Prefetch("seats", queryset=seats))
    prefetch_related_objects(
        rounds, Prefetch("pods", queryset=pods.order_by("is_bye", "table_number", "id"), to_attr=TABLES_ATTR)
    )
    reports = rounds_open_reports(rounds=rounds)
    for round_ in rounds:
        for pod in getattr(round_, TABLES_ATTR):
            pod.round = round_
        setattr(
            round_, REPORTS_ATTR, {pod.pk: reports[pod.pk] for pod in getattr(round_, TABLES_ATTR) if pod.pk in reports}
        )
    return rounds


def event_rounds(*, event: Event, published_only: bool = False) -> QuerySet[Round]:
    """The event's rounds in order (``published_only``: those the players see); give a page of them its tables and
    open reports with :func:`rounds_load_tables`."""
    rounds = event.rounds.filter(published_at__isnull=False) if published_only else event.rounds.all()
    return rounds.order_by("number")


def pod_seats(*, pod: Pod) -> list[Seat]:
    """The table's seats in seat order, as they were loaded with it (by :func:`round_pods`,
    :func:`rounds_load_tables`, :func:`event_table` or :func:`pod_detail`): no query."""
    seats = getattr(pod, SEATS_ATTR, None)
    return sorted(pod.seats.all() if seats is None else seats, key=lambda seat: seat.seat_order)


def pod_result(*, pod: Pod) -> PodResult | None:
    """The table's result, with who recorded it and who corrected it; ``None``: none yet.  One query."""
    return PodResult.objects.filter(pod=pod).select_related("reported_by", "corrected_by").first()


def pod_detail(*, pod_id: int) -> Pod:
    """One table with its round, result and seats with their players, in one query (it answers every report).

    The seats, in seat order, are in ``pod.seat_list``.
    """
    seats = list(
        Seat.objects.filter(pod_id=pod_id).select_related("player", "pod__round", "pod__result").order_by("seat_order")
    )
    if not seats:
        raise Pod.DoesNotExist(f"table {pod_id} has no seats")
    pod = seats[0].pod
    for seat in seats:
        seat.pod = pod
    setattr(pod, SEATS_ATTR, seats)
    return pod


def pod_answered(*, result: PodResult) -> Pod:
    """The table a result was just recorded for, as :func:`pod_detail` gives it: as the results service
    loaded and wrote it (seats, players, result: no query), else read again (one query)."""
    if PodResult.pod.is_cached(result):
        pod = result.pod
        if getattr(pod, SEATS_ATTR, None) is not None and Pod.result.is_cached(pod):
            return pod
    return pod_detail(pod_id=result.pod_id)


@dataclass(frozen=True)
class PairingByName:
    player_name: str
    player_id: int
    table_number: int | None  # None = bye
    seat_order: int
    opponents: list[str]
    #: Why the player sits here, in sentences (see :mod:`tournaments.explain`).
    why: list[str]


def _facts(seat: Seat) -> SeatFacts:
    return SeatFacts(
        name=seat.player.display_name,
        points=seat.points_before,
        rank=seat.rank_before,
        reasons=tuple(seat.reasons or ()),
        cut_seed=seat.cut_seed,
    )


def seat_explanations(*, round_: Round, pods: list[Pod]) -> dict[int, list[str]]:
    """``{player id: sentences}`` explaining every seat of ``pods`` (already loaded with seats and players)."""
    one_vs_one = round_.event.is_one_vs_one
    answer: dict[int, list[str]] = {}
    for pod in pods:
        seats = list(pod.seats.all())
        for seat in seats:
            answer[seat.player_id] = explain_seat(
                _facts(seat),
                [_facts(s) for s in seats if s.pk != seat.pk],
                table_number=pod.table_number,
                round_number=round_.number,
                one_vs_one=one_vs_one,
                seed=round_.seed if round_.stage == Round.Stage.SWISS else None,
                edited=round_.edited,
                seat_order=seat.seat_order,
            )
    return answer


def _namesakes(players) -> frozenset[int]:
    from tournaments.selectors.people import namesakes_of

    return namesakes_of(players)


def round_pairings_by_name(*, round_: Round) -> list[PairingByName]:
    """One line per player, alphabetical: where they sit, against whom, and why."""
    rows: list[PairingByName] = []
    pods = round_pods(round_=round_)
    why = seat_explanations(round_=round_, pods=pods)
    same_name = _namesakes(s.player for pod in pods for s in pod.seats.all())

    def name(player) -> str:  # players who share a name are told apart by their player ID
        return f"{player.display_name} (#{player.pk})" if player.pk in same_name else player.display_name

    for pod in pods:
        seats = list(pod.seats.all())
        for seat in seats:
            rows.append(
                PairingByName(
                    player_name=name(seat.player),
                    player_id=seat.player_id,
                    table_number=pod.table_number,
                    seat_order=seat.seat_order,
                    opponents=[name(s.player) for s in seats if s.pk != seat.pk],
                    why=why[seat.player_id],
                )
            )
    rows.sort(key=lambda r: (r.player_name.casefold(), r.player_id))
    return rows


def round_label(*, round_: Round, tables: int | None = None) -> str:
    """ "Round 3", or the top-cut stage from its played tables (:func:`tournaments.words.round_name`)."""
    if round_.stage != Round.Stage.TOP_CUT:
        return words.round_name(round_.number)
    if tables is None and hasattr(round_, TABLES_ATTR):
        tables = sum(1 for pod in getattr(round_, TABLES_ATTR) if not pod.is_bye)
    if tables is None:
        tables = round_.pods.filter(is_bye=False).count()
    return words.round_name(round_.number, cut=True, tables=tables, pods=not round_.event.is_one_vs_one)


def cut_round_tables(round_field: str = "round") -> Case:
    """An annotation for rows of a round (``round_field``): the round's played tables when it is a top-cut round,
    what :func:`round_label` names its stage by (0 for a Swiss round), counted in the rows' own query."""
    played = (
        Pod.objects.filter(round=OuterRef(round_field), is_bye=False)
        .order_by()
        .values("round")
        .annotate(n=Count("pk"))
        .values("n")
    )
    stage = {f"{round_field}__stage": Round.Stage.TOP_CUT}
    return Case(When(**stage, then=Coalesce(Subquery(played), Value(0))), default=Value(0))


@dataclass(frozen=True)
class EventStructure:
    players: int
    swiss_rounds: int
    top_cut: int
    source: str
    cut_sizes: tuple[int, ...]
    #: Which attendance table the recommendation follows: "pokemon" or "magic".
    table: str


def structure_table(event: Event) -> str:
    """The attendance table an event follows (see :func:`tournaments.pairing.topcut.attendance_table`)."""
    return topcut.attendance_table(tiebreakers=event.tiebreakers, family=event.format_spec.family)


def next_round_number(event: Event) -> int:
    """The number the next round of ``event`` will get (1 before any round)."""
    return (event_latest_round_number(event=event) or 0) + 1


def swiss_rounds_paired(event: Event) -> int:
    return event.rounds.filter(stage=Round.Stage.SWISS).count()


@dataclass(frozen=True)
class Attendance:
    """How many players an event has, counted one way everywhere (recommendation, structure and cut).

    ``entered``: players who have played a Swiss round (dropped since or not)
    or are checked in and not dropped; a player who dropped before playing is
    not counted.  The recommended rounds and cut follow this number, as the
    Pokémon and Magic tables count the players who started.  ``eligible``: of
    those, the ones who have not dropped; the cut is drawn from them.
    """

    entered: int
    eligible: int


def event_attendance(*, event: Event) -> Attendance:
    seated = Seat.objects.filter(round__event=event, round__stage=Round.Stage.SWISS).values("player_id")
    entered = event.registrations.filter(Q(player_id__in=seated) | Q(checked_in=True, dropped=False))
    return Attendance(entered=entered.count(), eligible=entered.filter(dropped=False).count())


def cut_pod_size(event: Event) -> int | None:
    """The pod size of the event's cut: ``None`` for a 1v1 bracket."""
    size = event.table_size
    return None if size.is_one_vs_one else size.preferred


def event_structure(*, event: Event) -> EventStructure | None:
    """Recommended Swiss rounds and top cut for the players entered (``None`` below one table's worth)."""
    attendance = event_attendance(event=event)
    pod_size = cut_pod_size(event)
    table = structure_table(event)
    if attendance.entered < (pod_size or 2):
        return None
    rec = topcut.recommended_structure(attendance.entered, convention=table, pod_size=pod_size)
    return EventStructure(
        players=attendance.entered,
        swiss_rounds=rec.swiss_rounds,
        top_cut=rec.top_cut,
        source=rec.source,
        cut_sizes=topcut.cut_sizes(players=attendance.eligible, pod_size=pod_size),
        table=table,
    )


def structure_minimum(event: Event) -> int:
    """The fewest players a recommendation needs: one table's worth."""
    return cut_pod_size(event) or 2


#: The one order of standings, for every page, the API and the cut's seeds: rank, then, between players who
#: share a rank, player ID (the order the players were entered into Podium), as the standings engine ranks them.
STANDINGS_ORDER = ("rank", "player_id")


def event_standings(*, event: Event | int) -> QuerySet[Standing]:
    """Stored standings of the event (or its id) in :data:`STANDINGS_ORDER`, with their players: the one reading of
    the standings in order, for every app.  One query."""
    return Standing.objects.filter(event=event).select_related("player").order_by(*STANDINGS_ORDER)


def standings_top(*, event: Event | int, limit: int) -> list[Standing]:
    """The first ``limit`` of :func:`event_standings` (the dashboard's standings card), with their players: one
    query."""
    return list(event_standings(event=event)[:limit])


def standings_of_players(*, event: Event, player_ids: Iterable[int]) -> dict[int, Standing]:
    """``{player id: stored standing}`` of these players at the event (a player without one is left out): one
    query."""
    return {s.player_id: s for s in Standing.objects.filter(event=event, player_id__in=list(player_ids))}


@dataclass(frozen=True)
class StandingsRead:
    """The standings as pages and the API show them, and whether their figures are current."""

    rows: list[Standing]
    current: bool


def standings_read(*, event: Event, limit: int | None = None) -> StandingsRead:
    """The stored standings (the first ``limit`` rows), or, while none are stored for an event that has players,
    those players at zero, by player ID: never an empty table for an event with players.

    Stored standings are current when they reflect the event's latest results.  Zeros are current only before
    round 1 (no result can exist yet); once a round is paired, players at zero mean the worker has not stored
    the standings yet (it is busy, or down), so they are not current.  One query; two when none are stored.
    """
    stored = event_standings(event=event)
    rows = list(stored if limit is None else stored[:limit])
    if rows:
        return StandingsRead(rows=rows, current=event.standings_current)
    players = (
        Registration.objects.filter(event=event, status=Registration.Status.REGISTERED, dropped=False)
        .select_related("player")
        .order_by("player_id")
    )
    zeros = [_zero_standing(event, registration.player) for registration in players[:limit]]
    before_play = event.status == Event.Status.REGISTRATION
    return StandingsRead(rows=zeros, current=event.standings_current and (before_play or not zeros))


def _zero_standing(event: Event, player) -> Standing:
    return Standing(
        event=event, player=player, rank=1, points=0, wins=0, draws=0, losses=0, byes=0, matches=0,
        opp_match_win_pct=0.0, opp_opp_match_win_pct=0.0, opp_avg_points=0.0, game_win_pct=0.0,
        opp_game_win_pct=0.0, dropped=False, results_version=event.results_version,
    )  # fmt: skip


@dataclass(frozen=True)
class RoundOperations:
    """What the organiser can do to the event's rounds now (the services check it again when asked)."""

    in_cut: bool
    #: The final of the top cut has been paired: what remains is to record it and finish the event.
    cut_final: bool
    can_start_cut: bool
    can_swap: bool
    can_repair: bool
    #: The latest round is staged (the players don't see it yet): the dashboard offers to publish it.
    can_publish: bool = False
    #: The latest round's start can be taken back: no table has a result or a game record (byes aside).
    can_undo: bool = False
    #: The round button's words in the cut: "Start the semi-finals", ..., "Start the final"; then no button.
    next_cut_label: str = ""


def _cut_bye(pod: Pod) -> bool:
    """A top seed's table of one in the cut's first round, won without play (as loaded with its result)."""
    result = getattr(pod, "result", None)
    return result is not None and result.source == PodResult.Source.BYE


def round_operations(*, event: Event, latest: Round | None, tables: list[dict]) -> RoundOperations:
    """``tables`` are the current round's, as the dashboard loaded them (``pod`` and ``reported``)."""
    open_ = event.status != Event.Status.FINISHED
    in_cut = bool(latest and latest.stage == Round.Stage.TOP_CUT)
    swiss = bool(latest and latest.stage == Round.Stage.SWISS)
    played = swiss_rounds_paired(event) if swiss else 0
    untouched = not any(t["reported"] and not t["pod"].is_bye and not _cut_bye(t["pod"]) for t in tables)
    cut_final = in_cut and topcut.is_final([[s.player_id for s in t["seats"]] for t in tables if not t["pod"].is_bye])
    next_cut_label = ""
    if in_cut and not cut_final:
        playing = sum(1 for t in tables if not t["pod"].is_bye)
        following = max(1, playing // 2) if event.is_one_vs_one else 1
        if not event.is_one_vs_one:
            next_cut_label = _("Start the final pod")
        elif following == 1:
            next_cut_label = _("Start the final")
        elif following == 2:
            next_cut_label = _("Start the semi-finals")
        elif following == 4:
            next_cut_label = _("Start the quarter-finals")
        else:
            next_cut_label = _("Start the top %(players)s") % {"players": following * 2}
    return RoundOperations(
        next_cut_label=next_cut_label,
        in_cut=in_cut,
        cut_final=cut_final,
        can_start_cut=open_ and swiss and not event.top_cut_size and played >= event.planned_rounds,
        can_swap=open_ and swiss,
        can_repair=open_ and swiss and untouched,
        can_publish=open_ and latest is not None and not latest.published,
        can_undo=open_ and latest is not None and untouched,
    )


# The people's reads (players, reports, staff, the audit trail), under the same name.
# The top cut as a bracket, and the final placements.
from tournaments.selectors.bracket import Bracket, FinalPlacement, top_cut_bracket  # noqa: E402,F401
from tournaments.selectors.people import (  # noqa: E402,F401
    PlayerEvents,
    PlayerRound,
    event_audit,
    event_staff,
    open_reports,
    player_events,
    player_history,
    player_is_registered,
    player_of,
    tables_to_settle,
    waiting_list,
)


def standings_lag() -> tuple[int, datetime.datetime | None]:
    """How many events' stored standings are older than their results, and since when the oldest lags."""
    found = Event.objects.filter(standings_version__lt=F("results_version")).aggregate(
        count=Count("pk"), oldest=Min("standings_stale_since")
    )
    return found["count"], found["oldest"]
