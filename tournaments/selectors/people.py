"""Reads for people: a player's events, table and history; open result reports; staff; the audit trail.

Each returns what a page or API answer needs in a fixed number of queries.
Terms are those of :mod:`tournaments.services.results` (reports, confirmations,
disputes) and :mod:`tournaments.policy` (roles).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import reduce
from operator import or_
from typing import TYPE_CHECKING, cast

from django.db.models import Prefetch, Q, QuerySet, prefetch_related_objects
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from core.domain_actions import DomainAction
from tournaments.models import (
    AuditEntry,
    Event,
    EventStaff,
    KeepApart,
    Penalty,
    Player,
    Pod,
    Registration,
    ResultReport,
    ResultResponse,
    Round,
    Seat,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


#: The registrations anyone may see: every one but an invitation its player has not answered.
SHOWN_STATUSES = (
    Registration.Status.REGISTERED, Registration.Status.WAITLISTED, Registration.Status.WITHDRAWN,
    Registration.Status.APPLIED,
)  # fmt: skip


def player_of(user) -> Player | None:
    """The signed-in user's player record, if they have one."""
    if not (user and user.is_authenticated):
        return None
    return Player.objects.filter(user=user).first()


def player_get(*, player_id: int) -> Player | None:
    """The player with this id; ``None``: there is none.  One query."""
    return Player.objects.filter(pk=player_id).first()


def player_search(*, q: str | None = None, event: int | None = None) -> QuerySet[Player]:
    """Players by name, then id; ``q``: only those whose display name contains it, in any case; ``event``: only
    those registered for that event, waiting or withdrawn, not invited (the API's ``?q=`` and ``?event=``).  One
    query for a page of them."""
    players = Player.objects.order_by("display_name", "pk")
    if q:
        players = players.filter(display_name__icontains=q)
    if event is not None:  # one registration per player and event
        players = players.filter(registrations__event_id=event, registrations__status__in=SHOWN_STATUSES)
    return players


# --- registrations --------------------------------------------------------------------------------------------


def registrations_with_player(*, event_id: int) -> QuerySet[Registration]:
    """The event's registrations, each with its player and its event, to look one up by id: one query."""
    return Registration.objects.select_related("player", "event").filter(event_id=event_id)


def player_is_registered(*, event_id: int, player_id: int) -> bool:
    """Whether the player has a registration at the event (of any status): one query."""
    return Registration.objects.filter(event_id=event_id, player_id=player_id).exists()


def registration_of_user(*, event: Event, user: User) -> Registration | None:
    """The user's registration at the event, with its player (it knows its event without a query); ``None``:
    they have none.  One query."""
    return event.registrations.select_related("player").filter(player__user=user).first()


def registrations_with_decklist(*, event: Event) -> list[Registration]:
    """The event's registrations that have submitted a deck, by player name, with their players (each knows its
    event without a query): one query."""
    registrations = event.registrations.select_related("player").filter(status__in=SHOWN_STATUSES)
    return list(registrations.filter(deck_versions__isnull=False).distinct())


def registration_byes(*, registration: Registration) -> list[int]:
    """The rounds the organiser gave the player a bye, in order: no query when the registration was read with its
    byes (:func:`tournaments.selectors.event_registrations`, :func:`registrations_load_byes`), one otherwise."""
    return sorted(b.round_number for b in registration.bye_assignments.all())


def registrations_load_byes(*, registrations: list[Registration]) -> list[Registration]:
    """The registrations, each given its assigned byes at once (for :func:`registration_byes`): one query, none
    without registrations."""
    prefetch_related_objects(registrations, "bye_assignments")
    return registrations


@dataclass(frozen=True)
class PlayerEvents:
    """A player's registrations, split by the event's state (registered, waiting or withdrawn alike)."""

    upcoming: list[Registration]
    running: list[Registration]
    past: list[Registration]


def player_events(*, player: Player) -> PlayerEvents:
    """One query: the player's registrations with their events, newest first."""
    registrations = list(
        Registration.objects.filter(player=player)
        .select_related("event", "event__organiser")
        .order_by("-event__date", "-event_id")
    )
    by_status: dict[str, list[Registration]] = {s: [] for s in Event.Status.values}
    for registration in registrations:
        by_status[registration.event.status].append(registration)
    return PlayerEvents(
        upcoming=by_status[Event.Status.REGISTRATION],
        running=by_status[Event.Status.RUNNING],
        past=by_status[Event.Status.FINISHED],
    )


@dataclass(frozen=True)
class PlayerRound:
    """One round of a player's event: where they sat, against whom, and how it went."""

    round_number: int
    table_number: int | None
    opponents: list[str]
    placement: int | None
    points: int | None
    games: tuple[int, int, int] | None
    bye: bool


def player_history(*, event: Event, player: Player) -> list[PlayerRound]:
    """The player's rounds of the event, in order (two queries)."""
    seats = list(
        Seat.objects.filter(round__event=event, player=player)
        .select_related("round", "pod")
        .prefetch_related(Prefetch("pod__seats", queryset=Seat.objects.select_related("player").order_by("seat_order")))
        .order_by("round__number")
    )
    rounds = []
    for seat in seats:
        rounds.append(
            PlayerRound(
                round_number=seat.round.number,
                table_number=seat.pod.table_number,
                opponents=[s.player.display_name for s in seat.pod.seats.all() if s.player_id != player.pk],
                placement=seat.placement,
                points=seat.points,
                games=seat.games_record,
                bye=seat.pod.is_bye,
            )
        )
    return rounds


def open_reports(*, round_: Round) -> dict[int, ResultReport]:
    """``{pod id: report}`` of the round's tables whose player report waits for confirmation or is disputed."""
    return rounds_open_reports(rounds=[round_])


def rounds_open_reports(*, rounds: Iterable[Round]) -> dict[int, ResultReport]:
    """:func:`open_reports` of many rounds at once: one query, two when a report is open."""
    reports = (
        ResultReport.objects.filter(
            pod__round__in=list(rounds), status__in=[ResultReport.Status.PENDING, ResultReport.Status.DISPUTED]
        )
        .select_related("player")
        .prefetch_related(
            Prefetch("responses", queryset=ResultResponse.objects.select_related("player").order_by("created_at"))
        )
    )
    return {report.pod_id: report for report in reports}


def report_responses(*, report: ResultReport) -> list[ResultResponse]:
    """The other players' answers to the report, first to last, with their players, as they were read with it
    (:func:`open_reports`, :func:`rounds_open_reports`, :func:`pod_open_report`, :func:`table_open_report`): no
    query."""
    return list(report.responses.all())


def event_staff(*, event: Event) -> QuerySet[EventStaff]:
    return EventStaff.objects.filter(event=event).select_related("user").order_by("role", "user__username")


def has_staff_role(*, event: Event, username: str) -> bool:
    """Whether the account called ``username`` (any case; spaces around it aside) has a role at the event: one
    query."""
    return EventStaff.objects.filter(event=event, user__username__iexact=username.strip()).exists()


def waiting_list(*, event: Event) -> QuerySet[Registration]:
    """Players waiting for a place, in the order they will be promoted."""
    return (
        Registration.objects.filter(event=event, status=Registration.Status.WAITLISTED)
        .select_related("player")
        .order_by("waitlisted_at", "pk")
    )


@dataclass(frozen=True)
class SeasonPoints:
    """A league season's name and its players' league points (player id -> points) in its stored standings."""

    name: str
    points: dict[int, int]


#: ``season id -> SeasonPoints | None`` (``None``: no such season).  Set by the leagues app, which sits above this
#: one (:func:`season_points_source`); without it no season is known.
_season_points: Callable[[int], SeasonPoints | None] | None = None


def season_points_source(source: Callable[[int], SeasonPoints | None]) -> None:
    """The leagues app says where a season's points are (an event's priority window reads them)."""
    global _season_points
    _season_points = source


def season_points(season_id: int) -> SeasonPoints | None:
    """The season's name and points; ``None`` when there is no such season."""
    return None if _season_points is None else _season_points(season_id)


def is_priority_player(*, event: Event, player: Player | None) -> bool:
    """The player may register in the priority window: named for an earned invite, or with the season's points."""
    if player is None or player.pk is None:
        return False
    if event.priority_players.filter(pk=player.pk).exists():
        return True
    if event.priority_season_id is None or event.priority_min_points is None:
        return False
    season = season_points(event.priority_season_id)
    return season is not None and season.points.get(player.pk, 0) >= event.priority_min_points


def opens_for(*, event: Event, player: Player | None) -> datetime.datetime | None:
    """When self-registration opens for this player (``None``: no time set, open with the window)."""
    general = event.registration_opens_at
    if general is None:
        return None
    if event.priority_opens_at is not None and event.priority_opens_at < general:
        if is_priority_player(event=event, player=player):
            return event.priority_opens_at
    return general


@dataclass(frozen=True)
class EntryFacts:
    """What the event's pages say of its places beyond its own fields: the priority season's name, how many
    players hold an earned invite, how many have applied to the lottery."""

    season_name: str | None
    invites: int
    applicants: int


def entry_facts(*, event: Event) -> EntryFacts:
    season = season_points(event.priority_season_id) if event.priority_season_id is not None else None
    return EntryFacts(
        season_name=season.name if season is not None else None,
        invites=event.priority_players.count(),
        applicants=event.registrations.filter(status=Registration.Status.APPLIED).count() if event.lottery else 0,
    )


#: Registrations that hold or seek a place: in the event, waiting for a place, or applied to its lottery.
SEEKING_STATUSES = (Registration.Status.REGISTERED, Registration.Status.WAITLISTED, Registration.Status.APPLIED)


@dataclass(frozen=True)
class EntryWarning:
    """Something staff or the player should know about a registration, that refuses nothing."""

    code: str
    message: str
    event: int


def entry_warnings(*, event: Event, registrations: Iterable[Registration]) -> dict[int, list[EntryWarning]]:
    """Registration id -> its warnings: ``overlapping_event`` when the player also holds or seeks a place at
    another event on the same day (events last a day).  One query for any number of registrations."""
    seeking = {r.player_id: r.pk for r in registrations if r.status in SEEKING_STATUSES}
    if not seeking:
        return {}
    others = (
        Registration.objects.filter(player_id__in=seeking, event__date=event.date, status__in=SEEKING_STATUSES)
        .exclude(event_id=event.pk)
        .select_related("event")
        .order_by("event__name", "event_id")
    )
    warnings: dict[int, list[EntryWarning]] = {}
    for other in others:
        if other.status == Registration.Status.APPLIED:
            also = _("Also applied to %(event)s on the same day (%(date)s).")
        elif other.status == Registration.Status.WAITLISTED:
            also = _("Also on the waiting list of %(event)s on the same day (%(date)s).")
        else:
            also = _("Also registered for %(event)s on the same day (%(date)s).")
        warnings.setdefault(seeking[other.player_id], []).append(
            EntryWarning(
                code="overlapping_event",
                message=also % {"event": other.event.name, "date": date_format(other.event.date, "DATE_FORMAT")},
                event=other.event_id,
            )
        )
    return warnings


def event_audit(*, event: Event) -> QuerySet[AuditEntry]:
    """The event's audit trail, newest first."""
    return AuditEntry.objects.filter(event=event).select_related("actor").order_by("-created_at", "-id")


def tables_to_settle(*, event: Event) -> QuerySet[Pod]:
    """Tables of the latest round whose player report is disputed or still waiting."""
    return Pod.objects.filter(
        round__event=event,
        reports__status__in=[ResultReport.Status.PENDING, ResultReport.Status.DISPUTED],
    ).distinct()


# --- the dashboard's reads (namesakes, the audit trail by kind, names for ids) ----------------------


def namesakes_of(players: Iterable[Player]) -> frozenset[int]:
    """Ids of the players whose display name (ignoring case) another of ``players`` shares."""
    ids_by_name: dict[str, set[int]] = {}
    for player in players:
        ids_by_name.setdefault(player.display_name.strip().casefold(), set()).add(player.pk)
    return frozenset(pid for ids in ids_by_name.values() if len(ids) > 1 for pid in ids)


def event_namesakes(*, event: Event) -> frozenset[int]:
    """Players of the event who share their name with another player of it: pages add their player ID (one query).
    Invitations not answered yet are nobody's business but the player's and the staff's."""
    players = Player.objects.filter(registrations__event=event, registrations__status__in=SHOWN_STATUSES)
    return namesakes_of(players.only("id", "display_name").distinct())


#: The audit trail's kinds, to filter it by: kind -> the action prefixes it covers.
AUDIT_KINDS: dict[str, tuple[str, ...]] = {
    "results": ("result.",),
    "registrations": ("registration.", "bye.", "player.", "lottery."),
    "rounds": ("round.", "top_cut.", "timer.", DomainAction.TABLE_TIME_EXTENDED),
    "staff": ("staff.",),
    "event": ("event.",),
    "decks": ("deck.", "decks.", "archetype."),
    "penalties": ("penalty.",),
    "floor": ("judge_call.", "deck_check", "judge."),
}


def event_audit_of_kind(*, event: Event, kind: str | None = None) -> QuerySet[AuditEntry]:
    """The event's audit trail, newest first, of one kind of :data:`AUDIT_KINDS` (all of it for ``None``)."""
    entries = event_audit(event=event)
    prefixes = AUDIT_KINDS.get(kind or "")
    if prefixes:
        entries = entries.filter(reduce(or_, (Q(action__startswith=prefix) for prefix in prefixes)))
    return entries


def players_by_id(*, ids: Iterable[int]) -> dict[int, Player]:
    """``{id: player}`` for the ids that exist (one query)."""
    return Player.objects.in_bulk(set(ids))


@dataclass(frozen=True)
class FlaggedTable:
    """A table of a round whose player report waits for confirmation (``pending``) or is ``disputed``."""

    pod_id: int
    table_number: int
    status: str


def flagged_tables(*, round_: Round) -> list[FlaggedTable]:
    """The round's tables with an open player report, by table number (one query)."""
    rows = (
        ResultReport.objects.filter(
            pod__round=round_, status__in=[ResultReport.Status.PENDING, ResultReport.Status.DISPUTED]
        )
        .order_by("pod__table_number")
        .values_list("pod_id", "pod__table_number", "status")
    )
    # A bye has no report: every table here has its number.
    return [FlaggedTable(pod_id, cast(int, table_number), status) for pod_id, table_number, status in rows]


def _open_report_with_answers() -> QuerySet[ResultReport]:
    return (
        ResultReport.objects.filter(status__in=[ResultReport.Status.PENDING, ResultReport.Status.DISPUTED])
        .select_related("player")
        .prefetch_related(
            Prefetch("responses", queryset=ResultResponse.objects.select_related("player").order_by("created_at"))
        )
    )


def pod_open_report(*, pod_id: int) -> ResultReport | None:
    """The table's player report waiting for confirmation or disputed, with its answers (``None``: none open).

    One query when there is none (the usual case), two with its answers otherwise.
    """
    return _open_report_with_answers().filter(pod_id=pod_id).first()


def table_open_report(*, event: Event, round_number: int, table_number: int) -> ResultReport | None:
    """:func:`pod_open_report` of a table named by its round and table numbers."""
    return (
        _open_report_with_answers()
        .filter(pod__round__event=event, pod__round__number=round_number, pod__table_number=table_number)
        .first()
    )


# --- penalties ------------------------------------------------------------------------------------


def _penalties() -> QuerySet[Penalty]:
    return Penalty.objects.select_related("registration__player", "issued_by", "rescinded_by").order_by(
        "-issued_at", "-id"
    )


def event_penalties(*, event: Event) -> QuerySet[Penalty]:
    """The event's penalties, rescinded ones included, newest first, with their players and judges (one query)."""
    return _penalties().filter(event=event)


def event_penalty(*, event: Event, penalty_id: int) -> Penalty:
    """One of the event's penalties as :func:`event_penalties` reads them: one query.

    Raises :class:`Penalty.DoesNotExist` when the event has no such penalty.
    """
    return event_penalties(event=event).get(pk=penalty_id)


def penalties_with_player(*, event: Event) -> QuerySet[Penalty]:
    """The event's penalties, each with its player, to look one up by id: one query."""
    return Penalty.objects.select_related("registration__player").filter(event=event)


def penalties_with_event(*, event: Event) -> QuerySet[Penalty]:
    """The event's penalties, each with its event, to look one up by id: one query."""
    return Penalty.objects.select_related("event").filter(event=event)


def player_penalties(*, player: Player, event_ids: Iterable[int]) -> dict[int, list[Penalty]]:
    """``{event id: [penalty, ...]}`` of the player's own penalties at these events, newest first (one query)."""
    found: dict[int, list[Penalty]] = {}
    for penalty in _penalties().filter(registration__player=player, event_id__in=list(event_ids)):
        found.setdefault(penalty.event_id, []).append(penalty)
    return found


# --- stream consent ---------------------------------------------------------------------------------------------


def stream_opted_out(*, event: Event | int, player_ids: Iterable[int]) -> dict[int, str]:
    """``{player id: name}`` of the players of ``player_ids`` who opted out of being streamed at the event: one
    query (none without ids)."""
    ids = list(player_ids)
    if not ids:
        return {}
    rows = Registration.objects.filter(event=event, player_id__in=ids, stream_opt_out=True).order_by(
        "player__display_name", "player_id"
    )
    return dict(rows.values_list("player_id", "player__display_name"))


def withheld_tables(*, round_: Round) -> set[int]:
    """The table numbers of the round where a player who opted out of being streamed sits (no station shows
    them): one query."""
    opted_out = Registration.objects.filter(event_id=round_.event_id, stream_opt_out=True).values("player_id")
    seats = Seat.objects.filter(round=round_, pod__is_bye=False, player_id__in=opted_out)
    return {number for number in seats.values_list("pod__table_number", flat=True) if number is not None}


def keep_apart_pairs(*, event: Event) -> QuerySet[KeepApart]:
    """The event's keep-apart pairs with both players (one query)."""
    return KeepApart.objects.filter(event=event).select_related("player_a", "player_b").order_by("id")


def keep_apart_pair(*, event: Event, pair_id: int) -> KeepApart:
    """One keep-apart pair of the event with both players (``DoesNotExist`` otherwise): one query."""
    return keep_apart_pairs(event=event).get(pk=pair_id)


def registered_players_by_name(*, event: Event) -> list[tuple[int, str]]:
    """The event's registered players as (id, name), by name: one query (the keep-apart form's choices)."""
    rows = Registration.objects.filter(event=event, status=Registration.Status.REGISTERED).values_list(
        "player_id", "player__display_name"
    )
    return sorted(rows, key=lambda row: (row[1].casefold(), row[0]))
