"""Reads of the leagues app: each loads what a page, an answer or an export shows in a fixed number of queries.

The meta report and the exports respect the decklist privacy rule: an event's
archetypes and lists are read only once its organiser has published its
decklists (``Event.decklists_public``); before that its players are counted,
never named with a deck.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from decks.models import YugiohCard
from decks.selectors import latest_versions, latest_versions_of_events
from leagues import meta, points
from leagues.meta import seats as seat_stats
from leagues.models import (
    ArchetypeName,
    League,
    LeagueAuditEntry,
    LeagueStaff,
    PlayerRating,
    RatingChange,
    Season,
    SeasonEvent,
    SeasonStanding,
)
from leagues.services.seasons import season_results
from rules import choices as rules_choices
from tournaments import roster, tdf
from tournaments import selectors as tournament_selectors
from tournaments.models import Event, Player, Registration, Round, Seat, Standing
from tournaments.policy import can_view_league, manages_every_event

#: Players with fewer rated games than this are left off a leaderboard (their rating says little yet).
MIN_GAMES = 5


# --- leagues and seasons -------------------------------------------------------------------------------


def leagues() -> QuerySet[League]:
    """Every league, to look one up by id (with its organiser): one query."""
    return League.objects.select_related("organiser")


def seasons() -> QuerySet[Season]:
    """Every season with its league, to look one up by id: one query."""
    return Season.objects.select_related("league", "league__organiser")


def league_list(*, user=None) -> list[League]:
    """Public leagues, and the private ones the user organises or staffs, with their season counts: one query."""
    qs = League.objects.select_related("organiser").annotate(season_count=Count("seasons"))
    if not manages_every_event(user):
        visible = Q(is_public=True)
        if user is not None and user.is_authenticated:
            visible |= Q(organiser=user) | Q(staff__user=user)
        qs = qs.filter(visible).distinct()
    return list(qs.order_by("name", "id"))


def league_visible(*, user, league: League) -> bool:
    """Whether the user may read the league (a private one: its staff and the players of its events): at most
    two queries."""
    if can_view_league(user, league):
        return True
    if user is None or not user.is_authenticated:
        return False
    return SeasonStanding.objects.filter(season__league=league, player__user=user).exists()


def league_seasons(*, league: League) -> list[Season]:
    """The league's seasons, newest first, with their event counts: one query."""
    return list(league.seasons.annotate(event_count=Count("season_events")).order_by("-starts_on", "-id"))


def league_staff(*, league: League) -> list[LeagueStaff]:
    return list(league.staff.select_related("user").order_by("role", "user__username"))


def league_trail(*, league: League, limit: int = 50, offset: int = 0) -> tuple[int, list[LeagueAuditEntry]]:
    """The league's trail, newest first: the count and one page (two queries)."""
    qs = league.audit.select_related("actor", "season")
    return qs.count(), list(qs[offset : offset + limit])


def season_events(*, season: Season) -> list[Event]:
    """The season's events in date order: one query."""
    return list(Event.objects.filter(season_link__season=season).order_by("date", "id"))


def season_standings(*, season: Season) -> list[SeasonStanding]:
    """The stored season standings with their players: one query."""
    return list(season.standings.select_related("player").order_by("rank", "player_id"))


def player_seasons(*, player: Player) -> list[SeasonStanding]:
    """The player's line in every season they played, newest first, with the season and league: one query."""
    return list(
        SeasonStanding.objects.filter(player=player)
        .select_related("season__league")
        .order_by("-season__starts_on", "-season_id")
    )


def events_addable(*, season: Season, user) -> list[Event]:
    """Events of the league's formats the user organises that are in no season yet (a form's choices): one query."""
    qs = Event.objects.filter(format__in=season.league.formats, season_link__isnull=True)
    if not manages_every_event(user):
        qs = qs.filter(Q(organiser=user) | Q(staff__user=user, staff__role="co_organiser"))
    return list(qs.distinct().order_by("-date", "-id")[:200])


# --- ratings -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    count: int
    rows: list[PlayerRating]


def leaderboard(*, format_slug: str, min_games: int = MIN_GAMES, limit: int = 50, offset: int = 0) -> Board:
    """Players of the format with at least ``min_games`` rated games, best displayed rating first: two queries."""
    qs = PlayerRating.objects.filter(format=format_slug, games__gte=min_games)
    rows = list(qs.select_related("player").order_by("-rating", "player_id")[offset : offset + limit])
    return Board(qs.count(), rows)


def leaderboard_query(*, format_slug: str, min_games: int = MIN_GAMES) -> QuerySet[PlayerRating]:
    """The leaderboard as a query the API paginates (a count and one page: two queries)."""
    return (
        PlayerRating.objects.filter(format=format_slug, games__gte=min_games)
        .select_related("player")
        .order_by("-rating", "player_id")
    )


def format_choices() -> list[tuple[str, str]]:
    return rules_choices()


def players() -> QuerySet[Player]:
    return Player.objects.all()


def registrations(*, event_id: int) -> QuerySet[Registration]:
    """The event's registrations with the event and player (the policy reads the event), by id: one query."""
    return Registration.objects.filter(event_id=event_id).select_related("event__organiser", "player")


def player_ratings(*, player: Player) -> list[PlayerRating]:
    """The player's rating in each format they have played: one query."""
    return list(PlayerRating.objects.filter(player=player).order_by("-games", "format"))


def rating_history(*, player: Player, format_slug: str | None = None, limit: int = 500) -> list[RatingChange]:
    """The player's rating changes in play order (the last ``limit``), with their tables' events
    (``change.pod.round.event``): one query."""
    qs = RatingChange.objects.filter(player=player)
    if format_slug:
        qs = qs.filter(format=format_slug)
    rows = list(qs.select_related("pod__round__event").order_by("-key")[:limit])
    rows.reverse()
    return rows


# --- the meta report -----------------------------------------------------------------------------------


def _names(versions: Iterable[tuple[int, dict, str, str]]) -> dict[str, str]:
    """Names of the Yu-Gi-Oh! passcodes used as identity cards: one query, none when there are none."""
    codes = {ref.strip() for _, roles, _, _ in versions for ref in roles.values() if str(ref).strip().isdigit()}
    if not codes:
        return {}
    return {str(p): n for p, n in YugiohCard.objects.filter(passcode__in=[int(c) for c in codes]).values_list(
        "passcode", "name")}  # fmt: skip


def archetypes(*, events: Sequence[Event]) -> dict[int, str]:
    """``{registration id: archetype}`` of the published events' decks (the organiser's name first): three
    queries at most."""
    published = [e for e in events if e.decklists_public]
    if not published:
        return {}
    formats = {e.pk: e.format_spec for e in published}
    found = _podium_archetypes(
        [
            (reg_id, roles or {}, decklist, formats[event_id].deck_roles)
            for reg_id, roles, decklist, event_id in latest_versions_of_events(events=published).values_list(
                "registration_id", "roles", "decklist", "registration__event_id"
            )
        ]
    )
    found.update(ArchetypeName.objects.filter(registration__event__in=published).values_list("registration_id", "name"))
    return found


def _podium_archetypes(rows: Sequence[tuple[int, dict, str, Sequence[str]]]) -> dict[int, str]:
    """``{registration id: Podium's archetype}`` of ``(registration id, roles, decklist, the format's deck roles)``
    rows (decks that name no card are left out): one query at most, for Yu-Gi-Oh! passcodes."""
    names = _names((r, roles, d, "") for r, roles, d, _ in rows)
    return {
        reg_id: name
        for reg_id, roles, decklist, deck_roles in rows
        if (name := meta.archetype_name(roles, decklist, format_roles=deck_roles, names=names))
    }


@dataclass(frozen=True)
class ArchetypeRow:
    """A registered deck on the organiser's archetypes page."""

    registration: Registration
    #: Podium's name for the newest version of the deck (``None``: the list names no card).
    podium: str | None
    #: The organiser's name, shown in its place (``None``: Podium's name stands).
    named: str | None


def event_archetypes(*, event: Event) -> list[ArchetypeRow]:
    """Every registration of the event with a deck, by player name, with Podium's archetype and the organiser's
    name for it, whether or not the lists are published (for those who manage the decks): three queries at most."""
    versions = list(
        latest_versions(event)
        .select_related("registration__player")
        .order_by("registration__player__display_name", "registration_id")
    )
    deck_roles = event.format_spec.deck_roles
    podium = _podium_archetypes([(v.registration_id, v.roles or {}, v.decklist, deck_roles) for v in versions])
    named = dict(ArchetypeName.objects.filter(registration__event=event).values_list("registration_id", "name"))
    return [ArchetypeRow(v.registration, podium.get(v.registration_id), named.get(v.registration_id)) for v in versions]


def meta_entries(*, events: Sequence[Event]) -> list[meta.Entry]:
    """One entry per player of these events (everyone with a standing): six queries at most, whatever the number
    of events or players."""
    if not events:
        return []
    ids = [e.pk for e in events]
    published = {e.pk for e in events if e.decklists_public}
    had_cut = {e.pk for e in events if e.top_cut_size}
    reg_of = {
        (event_id, player_id): reg_id
        for reg_id, event_id, player_id in Registration.objects.filter(event_id__in=ids)
        .order_by()
        .values_list("pk", "event_id", "player_id")
    }
    names = archetypes(events=events)
    cut: dict[tuple[int, int], list[int]] = defaultdict(list)
    for event_id, player_id, placement in (
        Seat.objects.filter(round__event_id__in=ids, round__stage=Round.Stage.TOP_CUT, pod__is_bye=False)
        .order_by()
        .values_list("round__event_id", "player_id", "placement")
    ):
        cut[(event_id, player_id)].append(placement or 0)
    entries = []
    for event_id, player_id, wins, draws, losses, byes in (
        Standing.objects.filter(event_id__in=ids)
        .order_by()
        .values_list("event_id", "player_id", "wins", "draws", "losses", "byes")
    ):
        played_cut = cut.get((event_id, player_id), [])
        cut_wins = sum(1 for p in played_cut if p == 1)
        cut_losses = sum(1 for p in played_cut if p > 1)
        if event_id in published:
            archetype = names.get(reg_of.get((event_id, player_id), 0), meta.UNKNOWN)
        else:
            archetype = None
        entries.append(
            meta.Entry(
                event_id=event_id,
                player_id=player_id,
                archetype=archetype,
                wins=wins - byes + cut_wins,
                draws=draws,
                losses=losses + cut_losses,
                made_cut=bool(played_cut),
                event_had_cut=event_id in had_cut,
            )  # fmt: skip
        )
    return entries


def meta_report(*, events: Sequence[Event]) -> meta.Report:
    return meta.meta_report(meta_entries(events=events))


# --- exports -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlacedStanding:
    standing: Standing
    placing: int
    archetype: str | None
    #: The player's published decklist (``None`` while lists are hidden, or without a deck).
    decklist: str | None
    #: The last round the player played before dropping (``None``: did not drop).
    drop: int | None = None


def event_final_standings(*, event: Event) -> list[PlacedStanding]:
    """The event's standings with each player's final placing (the top cut counted), archetype and published
    list, by placing: five queries at most."""
    table = list(tournament_selectors.event_standings(event=event))
    cut = [points.CutTable(number, placements) for number, placements in _cut_tables(event).values()]
    placings = points.final_placings({s.player_id: s.rank for s in table}, cut, cut_size=event.top_cut_size)
    names: dict[int, str] = {}
    lists: dict[int, str] = {}
    if event.decklists_public:
        names = archetypes(events=[event])
        lists = dict(latest_versions(event).values_list("registration_id", "decklist"))
    regs = {p: (pk, dropped, after) for p, pk, dropped, after in Registration.objects.filter(event=event).values_list(
        "player_id", "pk", "dropped", "dropped_after_round")}  # fmt: skip
    placed = []
    for s in table:
        reg, dropped, after = regs.get(s.player_id, (0, False, None))
        placed.append(
            PlacedStanding(s, placings.get(s.player_id, s.rank), names.get(reg), lists.get(reg),
                           (after or 0) if dropped else None)
        )  # fmt: skip
    placed.sort(key=lambda p: (p.placing, p.standing.rank, p.standing.player_id))
    return placed


def _cut_tables(event: Event) -> dict[int, tuple[int, dict[int, int | None]]]:
    tables: dict[int, tuple[int, dict[int, int | None]]] = {}
    for pod_id, number, player_id, placement in (
        Seat.objects.filter(round__event=event, round__stage=Round.Stage.TOP_CUT, pod__is_bye=False)
        .order_by()
        .values_list("pod_id", "round__number", "player_id", "placement")
    ):
        tables.setdefault(pod_id, (number, {}))[1][player_id] = placement
    return tables


def event_results_rows(*, event: Event) -> list[Seat]:
    """Every seat of the event with its round, table and player, in play order: one query."""
    return list(
        Seat.objects.filter(round__event=event)
        .select_related("round", "pod", "player")
        .order_by("round__number", "pod__is_bye", "pod__table_number", "seat_order")
    )


_TOM_DATE = "%m/%d/%Y"
_TOM_TIME = "%m/%d/%Y %H:%M:%S"


def _tom_time(moment) -> str:
    return "" if moment is None else timezone.localtime(moment).strftime(_TOM_TIME)


def _tom_outcome(seats: list[Seat]) -> tdf.Outcome:
    first, second = seats[0].placement, seats[1].placement
    if first is None or second is None:
        return tdf.Outcome.UNREPORTED
    if first == second:
        return tdf.Outcome.TIE
    return tdf.Outcome.PLAYER1_WON if first < second else tdf.Outcome.PLAYER2_WON


def event_tdf(*, event: Event) -> tdf.Tournament:
    """The event as TOM saves one (:mod:`tournaments.tdf`): its registered players (dropped ones too), and for a
    1v1 event every round's matches with their outcomes; the final standings once it is finished.  A pod
    event's tables have no shape in TOM: its file has the players and standings only.  Three queries, and the
    standings' five once the event is finished."""
    registrations = list(
        Registration.objects.filter(event=event, status=Registration.Status.REGISTERED)
        .select_related("player")
        .order_by("pk")
    )
    userids = {r.player_id: r.player.external_id or roster.placeholder_userid(r.player_id) for r in registrations}
    players = []
    for r in registrations:
        *first, last = r.player.display_name.split() or [""]
        players.append(
            tdf.Player(
                userid=userids[r.player_id], first_name=" ".join(first) or last, last_name=last if first else "",
                created=_tom_time(r.created_at), modified=_tom_time(r.created_at),
                dropped_after_round=(r.dropped_after_round or 0) if r.dropped else None,
            )
        )  # fmt: skip
    rounds: list[tdf.Round] = []
    if event.is_one_vs_one:
        seats = (
            Seat.objects.filter(round__event=event)
            .select_related("round", "pod__result")
            .order_by("round__number", "pod__is_bye", "pod__table_number", "seat_order")
        )
        by_round: dict[int, tuple[Round, dict[int, list[Seat]]]] = {}
        for seat in seats:
            by_round.setdefault(seat.round.number, (seat.round, {}))[1].setdefault(seat.pod_id, []).append(seat)
        for round_, tables in by_round.values():
            matches = []
            for pod_seats in tables.values():
                pod = pod_seats[0].pod
                result = getattr(pod, "result", None)
                when = _tom_time(result.reported_at if result is not None else None)
                ids = [userids.get(s.player_id, roster.placeholder_userid(s.player_id)) for s in pod_seats]
                if pod.is_bye or len(pod_seats) == 1:
                    matches.append(tdf.Match(tdf.Outcome.BYE, ids[0], None, 0, when))
                else:
                    matches.append(tdf.Match(_tom_outcome(pod_seats), ids[0], ids[1], pod.table_number or 0, when))
            cut = round_.stage == Round.Stage.TOP_CUT
            final = cut and round_.number == max(by_round) and event.status == Event.Status.FINISHED
            rounds.append(
                tdf.Round(
                    number=round_.number, type=tdf.SINGLE_ELIMINATION if cut else tdf.SWISS,
                    stage=tdf.STAGE_FINAL if final else tdf.STAGE_TOP_CUT if cut else tdf.STAGE_SWISS,
                    matches=tuple(matches), pairtime=_tom_time(round_.created_at),
                )
            )  # fmt: skip
    standings: list[tdf.Standing] = []
    if event.status == Event.Status.FINISHED:
        for placed in event_final_standings(event=event):
            player_id = placed.standing.player_id
            userid = userids.get(player_id, roster.placeholder_userid(player_id))
            standings.append(tdf.Standing(userid, placed.placing, finished=not placed.standing.dropped))
    stage = {Event.Status.FINISHED: 5, Event.Status.RUNNING: 4}.get(Event.Status(event.status), 1)
    organiser = event.organiser
    return tdf.Tournament(
        name=event.name, players=tuple(players), rounds=tuple(rounds), standings=tuple(standings), city=event.venue,
        start_date=event.date.strftime(_TOM_DATE), organizer_name=organiser.get_full_name() or organiser.get_username(),
        stage=stage,
    )  # fmt: skip


def season_export_rows(*, season: Season) -> tuple[list[Event], list[SeasonStanding]]:
    return season_events(season=season), season_standings(season=season)


def season_results_input(*, season: Season) -> list[points.EventResult]:
    """The engine's input of the season (the bench and tests read it): three queries."""
    return season_results(season)


def season_of_event(*, event: Event) -> SeasonEvent | None:
    return SeasonEvent.objects.filter(event=event).select_related("season__league").first()


# --- seat fairness --------------------------------------------------------------------------------------


def _seat_report(seats: QuerySet[Seat]) -> seat_stats.Report:
    """The seat report (:mod:`leagues.meta.seats`) of the Swiss rounds' seats of ``seats``: one query.  Top-cut
    tables are left out: their seats follow the seeds, so a seat's figures there measure the seed, not the seat."""
    rows = seats.filter(round__stage=Round.Stage.SWISS).values_list(
        "pod_id", "seat_order", "placement", "points", "round__event__format", "pod__is_bye"
    )
    return seat_stats.seat_report(
        seat_stats.SeatRow(table=pod, seat=seat, placement=placement, points=points, format=fmt, bye=bye)
        for pod, seat, placement, points, fmt, bye in rows.order_by()
    )


def event_seat_report(*, event: Event) -> seat_stats.Report:
    """How each seat did at the event, per table size: one query."""
    return _seat_report(Seat.objects.filter(round__event=event))


def season_seat_report(*, season: Season) -> seat_stats.Report:
    """How each seat did over the season's events, per format and table size: one query."""
    return _seat_report(Seat.objects.filter(round__event__season_link__season=season))
