"""Reads of the live app: the facts overlays, the caster's page, venue displays and printouts show.

Each read runs a fixed number of queries (its docstring says how many) and returns rows or a dataclass of
them; :mod:`live.payloads` shapes them into the JSON-ready data the overlays and the live events get.  What
belongs to another app is read through that app's selectors: the latest round, a table and the standings
through :mod:`tournaments.selectors`, the newest deck versions through :mod:`decks.selectors`, a table's games
through :mod:`games.selectors`.  Private facts (hidden decklists) are read only when the caller says the reader
may see them (``decks_visible``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict

from django.db.models import OuterRef, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from decks import selectors as deck_selectors
from decks.models import DeckVersion
from games import selectors as game_selectors
from games.models import Game, GameEvent
from live.models import LiveEvent, LiveStream, OverlayToken, RoundTimer, Station, TableTimeExtension, token_digest
from tournaments import selectors as tournament_selectors
from tournaments.models import Event, Pod, Round, Seat, Standing
from tournaments.selectors import Bracket
from tournaments.selectors import people as people_selectors
from tournaments.selectors.people import players_by_id

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

#: Standings rows a live event and the snapshot carry (a lower third shows 8, a ticker 16).
STANDINGS_SHOWN = 16


# --- looking up what a URL names ------------------------------------------------------------------------------


def events() -> QuerySet[Event]:
    """Every event with its organiser, to look one up by id: one query."""
    return tournament_selectors.events_with_organiser()


def event_by_id(*, event_id: int) -> Event | None:
    """The event, ``None``: there is none.  One query."""
    return tournament_selectors.events().filter(pk=event_id).first()


def stations_of(*, event: Event) -> list[Station]:
    """The event's stations, by slug, with the player on air: one query."""
    return list(Station.objects.filter(event=event).select_related("revealed_player").order_by("slug"))


def station_of(*, event: Event, slug: str) -> Station | None:
    """The event's station ``slug``, or ``None``: one query."""
    return Station.objects.filter(event=event, slug=slug).select_related("revealed_player").first()


def token_of(*, event: Event, key: str | None) -> OverlayToken | None:
    """The event's overlay token with this key, if it has not been revoked: one query by the key's digest (none
    without a key)."""
    if not key:
        return None
    return OverlayToken.objects.filter(event=event, digest=token_digest(key), revoked_at__isnull=True).first()


def token_by_id(*, event: Event, token_id: int) -> OverlayToken | None:
    return OverlayToken.objects.filter(event=event, pk=token_id).first()


def tokens_of(*, event: Event) -> list[OverlayToken]:
    return list(OverlayToken.objects.filter(event=event).select_related("created_by"))


def round_timer(*, round_: Round) -> RoundTimer | None:
    """The round's timer, ``None``: not started.  One query."""
    return RoundTimer.objects.filter(round=round_).first()


# --- a round's clock ----------------------------------------------------------------------------------------------


def table_extensions(*, pod_ids: Iterable[int]) -> dict[int, int]:
    """``{pod id: seconds of extra time}`` for the tables that have some: one query."""
    rows = (
        TableTimeExtension.objects.filter(pod_id__in=list(pod_ids))
        .values("pod_id")
        .annotate(total=Sum("seconds"))
        .values_list("pod_id", "total")
    )
    return {pod_id: int(total) for pod_id, total in rows}


class ClockFigures(TypedDict):
    """What :func:`round_clock` annotates a round with: a table's extra time in seconds, the event's live number."""

    extra: int
    seq: int


def round_clock(*, event: Event, round_number: int, pod_id: int) -> WithAnnotations[Round, ClockFigures] | None:
    """Round ``round_number`` of the event with its timer, a table's extra time (``extra``, in seconds) and the
    event's live number (``seq``), for a player's table clock (:func:`live.payloads.table_clock`); ``None``: no
    such round.  One query: the round is annotated with the live app's figures in it."""
    extra = (
        TableTimeExtension.objects.filter(pod_id=pod_id).values("pod_id").annotate(total=Sum("seconds")).values("total")
    )
    seq = LiveStream.objects.filter(event_id=OuterRef("event_id")).values("last_seq")
    round_ = (
        Round.objects.filter(event=event, number=round_number)
        .select_related("timer")
        .annotate(extra=Coalesce(Subquery(extra), 0), seq=Coalesce(Subquery(seq), 0))
        .first()
    )
    if round_ is not None:
        round_.event = event
    return round_


def extensions_of(*, pod: Pod) -> list[TableTimeExtension]:
    return list(TableTimeExtension.objects.filter(pod=pod).select_related("given_by"))


def players_named(*, ids: Iterable[int]) -> dict[int, str]:
    """``{player id: name}`` of the players of ``ids`` that exist: one query."""
    return {pk: player.display_name for pk, player in players_by_id(ids=ids).items()}


# --- a station's feature match -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class FeatureMatch:
    """What a station's overlay shows, as read: :func:`live.payloads.feature_match` shapes it."""

    station: Station
    #: The decks were read for a reader who may see them.
    decks_visible: bool
    #: The round shown (the current one), and its name.
    round_: Round | None = None
    label: str = ""
    timer: RoundTimer | None = None
    #: The station's table in that round, with its result and its seats (in seat order, with their players).
    pod: Pod | None = None
    #: The table's extra time, in seconds.
    extension: int = 0
    seats: list[Seat] = field(default_factory=list)
    #: ``{player id: stored standing}`` of the players at the table.
    standings: dict[int, Standing] = field(default_factory=dict)
    #: The table's games, first to last, and the last entry of the last one.
    games: list[Game] = field(default_factory=list)
    last_entry: GameEvent | None = None
    #: ``{player id: newest deck version}`` (read only when ``decks_visible``).
    decks: dict[int, DeckVersion] = field(default_factory=dict)
    #: The deck on air and its player's name (read only when ``decks_visible``).
    on_air: DeckVersion | None = None
    on_air_name: str | None = None
    #: The station's table has a player who opted out of being streamed: nothing of it is read or shown.
    withheld: bool = False


def feature_match(*, station: Station, decks_visible: bool, round_: Round | None = None) -> FeatureMatch:
    """What a station's overlay shows (``round_``: the current round, when the caller has read it): about ten
    queries.  A table where a player who opted out of being streamed sits is *withheld*: the round and its clock,
    nothing of the table (whoever pointed the station at it, or a new round that put such a player there)."""
    event = station.event
    round_ = round_ if round_ is not None else tournament_selectors.event_shown_round(event=event.pk)
    if round_ is None:
        return FeatureMatch(station, decks_visible)
    label = tournament_selectors.round_label(round_=round_)
    timer = round_timer(round_=round_)
    pod = None
    if station.table_number is not None:
        pod = tournament_selectors.round_table(round_=round_, table=station.table_number, with_seats=True)
    extension = table_extensions(pod_ids=[pod.pk]).get(pod.pk, 0) if pod is not None else 0
    if pod is None:
        return FeatureMatch(station, decks_visible, round_, label, timer, extension=extension)
    seats = list(pod.seats.all())
    ids = [s.player_id for s in seats]
    player = station.revealed_player_id
    opted_out = people_selectors.stream_opted_out(event=event, player_ids=[*ids, *([player] if player else [])])
    if any(pk in opted_out for pk in ids):
        return FeatureMatch(station, decks_visible, round_, label, timer, withheld=True)
    standings = tournament_selectors.standings_of_players(event=event, player_ids=ids)
    games = game_selectors.table_games(pod=pod)
    decks = deck_selectors.latest_versions_by_player(event=event.pk, player_ids=ids) if decks_visible else {}
    game = games[-1] if games else None
    last_entry = game_selectors.game_entry(game=game, seq=game.version) if game is not None and game.version else None
    on_air, on_air_name = None, None
    if player is not None and decks_visible and player not in opted_out:
        on_air = decks.get(player)
        if on_air is None:  # not at the table (or no deck there): read theirs alone
            on_air = deck_selectors.latest_versions_by_player(event=event.pk, player_ids=[player]).get(player)
        if on_air is not None:
            named = {s.player_id: s.player.display_name for s in seats}
            on_air_name = (named if player in named else players_named(ids=[player])).get(player)
    return FeatureMatch(
        station, decks_visible, round_, label, timer, pod, extension, seats, standings, games, last_entry, decks,
        on_air, on_air_name,
    )  # fmt: skip


def stations_on_table(*, event_id: int, round_number: int, table: int | None) -> list[str]:
    """The slugs of the stations pointed at this table, when the round is the current one and nobody there opted
    out of being streamed: one query (three when a station points at it)."""
    if table is None:
        return []
    # Ordered by slug alone: the model's ordering names the event, which would join its table.
    stations = Station.objects.filter(event_id=event_id, table_number=table).order_by("slug")
    slugs = list(stations.values_list("slug", flat=True))
    if not slugs:
        return []
    latest = tournament_selectors.event_latest_round_number(event=event_id)
    if latest != round_number:
        return []
    if tournament_selectors.table_withheld(event=event_id, number=round_number, table=table):
        return []  # no station's stream carries the table: a player there opted out of being streamed
    return slugs


def stations_showing_player(*, event_id: int, player_id: int) -> list[Station]:
    """The stations pointed at the table where the player sits in the current round, with their event: two
    queries (the current round's number, then the stations)."""
    latest = tournament_selectors.event_latest_round_number(event=event_id)
    if latest is None:
        return []
    tables = Seat.objects.filter(
        round__event_id=event_id, round__number=latest, player_id=player_id, pod__is_bye=False
    ).values("pod__table_number")
    stations = Station.objects.filter(event_id=event_id, table_number__in=tables)
    return list(stations.select_related("event", "revealed_player").order_by("slug"))


# --- the whole event ------------------------------------------------------------------------------------------------


def last_seq(*, event_id: int) -> int:
    return LiveStream.objects.filter(event_id=event_id).values_list("last_seq", flat=True).first() or 0


@dataclass(frozen=True)
class Snapshot:
    """Everything the event's overlays and screens show, as read: :func:`live.payloads.event_snapshot` shapes it."""

    #: The live number it is as of.
    seq: int
    event: Event
    #: The current round and its name, its tables (byes last, with seats, players and results) and its timer.
    round_: Round | None
    label: str
    pods: list[Pod]
    timer: RoundTimer | None
    #: The first standings, in the standings order.
    standings: list[Standing]
    stations: list[Station]
    bracket: Bracket | None
    #: The current round's tables no station shows: a player there opted out of being streamed.
    withheld: frozenset[int] = frozenset()


def event_snapshot(*, event: Event, player: int | None = None) -> Snapshot:
    """Everything the event's overlays and screens show, at once: about twelve queries.  For a player's own stream
    (``player``), of the round's tables only the player's."""
    seq = last_seq(event_id=event.pk)
    round_ = tournament_selectors.event_shown_round(event=event.pk)
    pods = tournament_selectors.round_pods(round_=round_) if round_ is not None else []
    label = (
        tournament_selectors.round_label(round_=round_, tables=sum(1 for pod in pods if not pod.is_bye))
        if round_
        else ""
    )
    if player is not None:
        pods = [pod for pod in pods if any(seat.player_id == player for seat in pod.seats.all())]
    timer = round_timer(round_=round_) if round_ is not None else None
    return Snapshot(
        seq=seq,
        event=event,
        round_=round_,
        label=label,
        pods=pods,
        timer=timer,
        standings=tournament_selectors.standings_top(event=event.pk, limit=STANDINGS_SHOWN),
        stations=stations_of(event=event),
        bracket=tournament_selectors.top_cut_bracket(event=event),
        withheld=frozenset(people_selectors.withheld_tables(round_=round_)) if round_ is not None else frozenset(),
    )


# --- the live log -------------------------------------------------------------------------------------------------


def live_events_after(*, event_id: int, seq: int, limit: int) -> list[LiveEvent]:
    """The event's numbered live events after ``seq``, oldest first, at most ``limit``: one query."""
    return list(LiveEvent.objects.filter(event_id=event_id, seq__gt=seq).order_by("seq")[:limit])


def first_kept_seq(*, event_id: int) -> int | None:
    return (
        LiveEvent.objects.filter(event_id=event_id, seq__isnull=False)
        .order_by("seq")
        .values_list("seq", flat=True)
        .first()
    )
