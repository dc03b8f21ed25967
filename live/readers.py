"""The live push follows the domain events (:mod:`core.events`): one more reader of the stream, no call in a service.

Each domain event an overlay shows becomes a *live event* (:class:`live.models.LiveEvent`):

=====================================================  ==========================  ==============================
domain events                                          live event                  stations whose stream has it
=====================================================  ==========================  ==============================
``round.started``, ``top_cut.started``,                ``round.started``, and      every station (``feature.changed``:
``round.repaired``, ``round.swapped``                  ``feature.changed`` per     its own)
                                                       station
``result.entered``/``settled``/``confirmed``/          ``table.result``            those on the table
``corrected``
``result.reported``, ``result.disputed``               ``table.report_changed``    none (the players' pages
                                                                                   follow it)
``standings.updated``                                  ``standings.updated``       every station
``game.started``, ``game.entry_recorded``,             ``game.state_changed``      those on the table
``game.entry_voided``                                  (no entry when started)
``timer.started``/``paused``/``resumed``/``extended``, ``timer.changed``           every station
``round.completed`` (the clock reads ``finished``)
``table.time_extended``                                ``timer.changed`` (a table) those on the table
``station.created``, ``station.changed``               ``feature.changed``         its own
``registration.stream_consent``                        ``feature.changed`` per     its own
                                                       station on the player's
                                                       table
=====================================================  ==========================  ==============================

A table where a player who opted out of being streamed sits is *withheld*: no station's stream carries its live
events, and a station pointed at it shows the round and its clock only (:func:`live.selectors.feature_match`).

A player's own stream (``?player=``: the player's page) carries the same, except that of a table's live events
(``table.result``, ``table.report_changed``, ``game.state_changed``, a table's ``timer.changed``) it carries only
those of the player's tables, and no ``feature.changed``: each live event names the players whose streams carry it
(``LiveEvent.players``).  At a round's end every result would otherwise go to every player's page.

A *handler* writes it in the change's transaction, with the facts as they are
there (the game's state after the entry that caused it, with that entry); a
payload that cannot be built is logged and never fails the change.  A *reader*
hands it, once the change has committed, to this process's publisher, which
numbers and sends it in a thread of its own (:mod:`live.publish`), so the
request that made the change does not wait for it.  Only public facts go into a
live event.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.db import DatabaseError, connection
from django.utils import timezone

from core import events
from core.domain_actions import DomainAction
from core.events import DomainEvent
from games.models import Game
from live import payloads, selectors
from live.models import LiveEvent, Station
from live.publish import publish_soon
from rules import get_format
from tournaments import selectors as tournament_selectors
from tournaments.models import Event, Registration, Round, Seat

logger = logging.getLogger(__name__)

ROUND_ACTIONS = (
    DomainAction.ROUND_STARTED,
    DomainAction.TOP_CUT_STARTED,
    DomainAction.ROUND_REPAIRED,
    DomainAction.ROUND_SWAPPED,
    DomainAction.ROUND_PUBLISHED,
    DomainAction.ROUND_UNDONE,
)
RESULT_ACTIONS = (
    DomainAction.RESULT_ENTERED,
    DomainAction.RESULT_SETTLED,
    DomainAction.RESULT_CONFIRMED,
    DomainAction.RESULT_CORRECTED,
)
#: A player's report of a table's result waits for the others' answer, or is disputed.
REPORT_ACTIONS = (DomainAction.RESULT_REPORTED, DomainAction.RESULT_DISPUTED)
GAME_ACTIONS = (DomainAction.GAME_STARTED, DomainAction.GAME_ENTRY_RECORDED, DomainAction.GAME_ENTRY_VOIDED)
#: A round whose last result is in stops its clock: the timer reads ``finished``.
TIMER_ACTIONS = (
    DomainAction.TIMER_STARTED,
    DomainAction.TIMER_PAUSED,
    DomainAction.TIMER_RESUMED,
    DomainAction.TIMER_EXTENDED,
    DomainAction.ROUND_COMPLETED,
)
STATION_ACTIONS = (DomainAction.STATION_CREATED, DomainAction.STATION_CHANGED)
ACTIONS = (
    *ROUND_ACTIONS, *RESULT_ACTIONS, *REPORT_ACTIONS, DomainAction.STANDINGS_UPDATED, *GAME_ACTIONS, *TIMER_ACTIONS,
    DomainAction.TABLE_TIME_EXTENDED, *STATION_ACTIONS,
)  # fmt: skip


def add(
    event_id: int, kind: str, data: dict[str, Any], stations: list[str] | None = None, players: list[int] | None = None
) -> LiveEvent:
    """One live event; ``stations``/``players``: whose streams carry it (``None``: every one's)."""
    return LiveEvent.objects.create(event_id=event_id, kind=kind, data=data, stations=stations, players=players)


#: PostgreSQL: a table's live event, with the stations whose stream carries it found in the same statement (those
#: pointed at the table while its round is the latest: :func:`live.selectors.stations_on_table`).
_ADD_FOR_TABLE = """
    INSERT INTO {events} (event_id, seq, kind, data, stations, players, created_at)
    VALUES (%(event)s, NULL, %(kind)s, %(data)s::jsonb, COALESCE((
        SELECT jsonb_agg(s.slug ORDER BY s.slug) FROM {stations} AS s
        WHERE s.event_id = %(event)s AND s.table_number = %(table)s
          AND %(round)s = (SELECT max(r.number) FROM {rounds} AS r WHERE r.event_id = %(event)s)
          AND NOT EXISTS (
            SELECT 1 FROM {registrations} AS g WHERE g.event_id = %(event)s AND g.stream_opt_out
              AND g.player_id = ANY(%(player_ids)s)
          )
    ), '[]'::jsonb), %(players)s::jsonb, %(now)s)
"""


def add_for_table(
    event_id: int, kind: str, data: dict[str, Any], *, round_number: int, table: int | None, players: list[int]
) -> None:
    """A live event of one table: carried by the streams of the stations on the table (none while a player there
    opted out of being streamed) and of its ``players``.

    On PostgreSQL one statement: a staff result made two (the stations read, then the row written), and a result
    is the hottest write of a big event."""
    if connection.vendor != "postgresql":
        add(event_id, kind, data, selectors.stations_on_table(event_id=event_id, round_number=round_number,
                                                               table=table), players)  # fmt: skip
        return
    names = {"events": LiveEvent._meta.db_table, "stations": Station._meta.db_table, "rounds": Round._meta.db_table,
             "registrations": Registration._meta.db_table}  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(_ADD_FOR_TABLE.format(**names), {
            "event": event_id, "kind": kind, "data": json.dumps(data), "table": table, "round": round_number,
            "players": json.dumps(players), "player_ids": list(players), "now": timezone.now(),
        })  # fmt: skip


def _never_fails(build: Callable[[DomainEvent], None]) -> Callable[[DomainEvent], None]:
    """A live event that cannot be built (a bug in its payload) is logged; the change goes on.  No savepoint:
    the builders read, and write one row last, so what fails is Python, which leaves the transaction whole."""

    @wraps(build)
    def handler(domain_event: DomainEvent) -> None:
        if domain_event.event_id is None:
            return
        try:
            build(domain_event)
        except DatabaseError:
            raise  # the transaction is broken anyway: the change fails, as with any handler
        except Exception:  # noqa: BLE001 - the change stands; its live event is lost, the next snapshot shows it
            logger.exception("No live event for %s (event %s)", domain_event.action, domain_event.event_id)

    return handler


def feature_changed(station: Station, round_: Round | None = None) -> LiveEvent:
    data = payloads.feature_match(
        selectors.feature_match(station=station, decks_visible=station.event.decklists_public, round_=round_)
    )
    return add(station.event_id, "feature.changed", data, [station.slug], players=[])


@events.handler(*ROUND_ACTIONS)
@_never_fails
def round_changed(domain_event: DomainEvent) -> None:
    event_id = domain_event.event_id
    assert event_id is not None
    # A staged round is the staff's until it is published: its start, re-pairing and swaps push nothing.
    round_ = tournament_selectors.event_shown_round(event=event_id)
    if round_ is None or (domain_event.action != DomainAction.ROUND_UNDONE and round_.number != _latest(event_id)):
        return
    tables = round_.pods.filter(is_bye=False).count()
    add(event_id, "round.started", {
        "round": payloads.round_info(round_, tournament_selectors.round_label(round_=round_, tables=tables)),
        "tables": tables,
        "change": domain_event.action.split(".")[-1],
    })  # fmt: skip
    event = round_.event
    for station in selectors.stations_of(event=event):
        station.event = event
        feature_changed(station, round_)


def _latest(event_id: int) -> int | None:
    return tournament_selectors.event_latest_round_number(event=event_id)


@events.handler(*RESULT_ACTIONS)
@_never_fails
def table_result(domain_event: DomainEvent) -> None:
    event_id = domain_event.event_id
    assert event_id is not None
    number, table = domain_event.data.get("round"), domain_event.data.get("table")
    if number is None:
        return
    players = domain_event.data.get("players")  # the results service gives the seats as it wrote them
    if players is None:
        players = [
            {"id": s.player_id, "name": s.player.display_name, "placement": s.placement, "games_won": s.games_won,
             "games_lost": s.games_lost, "games_drawn": s.games_drawn}
            for s in tournament_selectors.table_seats_at(event=event_id, number=number, table=table)
        ]  # fmt: skip
    add_for_table(event_id, "table.result", {
        "round": number, "table": table, "corrected": domain_event.action == DomainAction.RESULT_CORRECTED,
        "players": players,
    }, round_number=number, table=table, players=[p["id"] for p in players])  # fmt: skip


@events.handler(*REPORT_ACTIONS)
@_never_fails
def table_report_changed(domain_event: DomainEvent) -> None:
    """The players at the table have a report to confirm or dispute, or a dispute to wait on: their pages fetch
    their own view of it.  Only the table and who sits there are said, nothing of what was reported; no station's
    stream carries it."""
    event_id = domain_event.event_id
    assert event_id is not None
    number, table = domain_event.data.get("round"), domain_event.data.get("table")
    if number is None:
        return
    players = [s.player_id for s in tournament_selectors.table_seats_at(event=event_id, number=number, table=table)]
    add(event_id, "table.report_changed", {"round": number, "table": table, "players": players}, [], players)


@events.handler(DomainAction.STANDINGS_UPDATED)
@_never_fails
def standings_updated(domain_event: DomainEvent) -> None:
    event_id = domain_event.event_id
    assert event_id is not None
    event = Event.objects.only("id", "format", "players_per_table", "options").get(pk=event_id)
    add(event_id, "standings.updated", {
        "version": domain_event.data.get("version"),
        "standings": payloads.standings_rows(
            tournament_selectors.standings_top(event=event_id, limit=selectors.STANDINGS_SHOWN),
            one_vs_one=event.is_one_vs_one,
        ),
    })  # fmt: skip


@events.handler(*GAME_ACTIONS)
@_never_fails
def game_state_changed(domain_event: DomainEvent) -> None:
    """From the facts the service recorded (the state after the entry, the entry): three queries at most."""
    event_id = domain_event.event_id
    assert event_id is not None
    facts = domain_event.data
    fmt = get_format(facts["format"])
    pod_id, number, table = facts["pod_id"], facts["round"], facts["table"]
    seats = list(Seat.objects.filter(pod_id=pod_id).select_related("player").order_by("seat_order"))
    names = {s.player_id: s.player.display_name for s in seats}
    wins: dict[int, int] = {}
    if fmt.games_per_match > 1:
        wins = payloads.game_wins(list(Game.objects.filter(pod_id=pod_id, status=Game.Status.FINISHED)))
    in_game = payloads.players_in_state(fmt, facts["state"])
    game = payloads.game_facts(
        fmt, game_id=facts["game_id"], number=facts["game_number"], status=facts["status"], version=facts["version"],
        state=facts["state"],
    )  # fmt: skip
    add(event_id, "game.state_changed", {
        "round": number, "table": table, "game": game,
        "entry": payloads.entry_facts(fmt, seq=facts["seq"], type_=facts["type"], payload=facts["payload"],
                                      names=names) if "seq" in facts else None,
        "players": [
            {"id": s.player_id, "name": names[s.player_id], "seat": s.seat_order,
             "game_wins": wins.get(s.player_id, 0) if fmt.games_per_match > 1 else None,
             **in_game.get(s.player_id, {"active": False, "out": False, "placement": None, "counters": [],
                                         "status_conditions": []})}
            for s in seats
        ],
    }, selectors.stations_on_table(event_id=event_id, round_number=number, table=table),
        players=[s.player_id for s in seats])  # fmt: skip


@events.handler(*TIMER_ACTIONS)
@_never_fails
def timer_changed(domain_event: DomainEvent) -> None:
    event_id = domain_event.event_id
    assert event_id is not None
    round_ = Round.objects.select_related("event").get(event_id=event_id, number=domain_event.data["round"])
    timer = selectors.round_timer(round_=round_)
    add(event_id, "timer.changed", {"table": None, "timer": payloads.timer_view(round_, timer)})


@events.handler(DomainAction.TABLE_TIME_EXTENDED)
@_never_fails
def table_time_extended(domain_event: DomainEvent) -> None:
    event_id = domain_event.event_id
    assert event_id is not None
    number, table = domain_event.data["round"], domain_event.data["table"]
    round_ = Round.objects.select_related("event").get(event_id=event_id, number=number)
    pod = tournament_selectors.round_table(round_=round_, table=table)
    extra = selectors.table_extensions(pod_ids=[pod.pk]).get(pod.pk, 0) if pod is not None else 0
    seated = list(Seat.objects.filter(pod=pod).values_list("player_id", flat=True)) if pod is not None else []
    timer = selectors.round_timer(round_=round_)
    add(event_id, "timer.changed", {"table": table, "timer": payloads.timer_view(round_, timer, extra_seconds=extra)},
        selectors.stations_on_table(event_id=event_id, round_number=number, table=table), seated)  # fmt: skip


@events.handler(*STATION_ACTIONS)
@_never_fails
def station_changed(domain_event: DomainEvent) -> None:
    station = Station.objects.select_related("event", "revealed_player").get(pk=domain_event.data["station_id"])
    feature_changed(station)


@events.handler(DomainAction.REGISTRATION_STREAM_CONSENT)
@_never_fails
def stream_consent_changed(domain_event: DomainEvent) -> None:
    """A player opted out of being streamed (or back in): each station on their table tells its overlay again,
    which now shows the round and its clock without the table (or the table again)."""
    event_id = domain_event.event_id
    assert event_id is not None
    for station in selectors.stations_showing_player(event_id=event_id, player_id=domain_event.data["player_id"]):
        feature_changed(station)


@events.reader(*ACTIONS, DomainAction.REGISTRATION_STREAM_CONSENT)
def publish(domain_event: DomainEvent) -> None:
    if domain_event.event_id is not None:
        publish_soon(domain_event.event_id)
