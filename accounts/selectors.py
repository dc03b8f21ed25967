"""Reads for the player's pages: their registrations, tables, reports and history, and the top bar.

A *panel* (see :mod:`accounts.panels`) is what one player sees of one event;
these functions read what it needs in a fixed number of queries, whatever the
number of events or rounds.  Names come with the player's ID (``Person``) so
namesakes are told apart.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Prefetch, Q
from django.utils.translation import gettext as _

from accounts.models import Preferences
from decks import selectors as deck_selectors
from tournaments import policy
from tournaments.models import Event, EventStaff, Player, Registration, ResultReport, Seat, Standing
from tournaments.selectors import cut_round_tables, event_shown_round, round_label


@dataclass(frozen=True)
class Person:
    """A player as shown on these pages: the name and, always beside it, the player ID."""

    id: int
    name: str

    def __str__(self) -> str:
        return f"{self.name} (#{self.id})"


def has_dashboard(user) -> bool:
    """Whether the top bar offers "Dashboard": the user runs an event, has a role at one, or is site staff."""
    if not (user and user.is_authenticated):
        return False
    if policy.manages_every_event(user):
        return True
    return Event.objects.filter(Q(organiser=user) | Q(staff__user=user)).exists()


@dataclass(frozen=True)
class StaffedEvent:
    event: Event
    role: str  # the role's label: "Organiser", "Judge", ...


def staffed_events(user) -> list[StaffedEvent]:
    """Events not finished yet that the user runs or has a role at, soonest first (``/me/`` links their dashboards)."""
    if not (user and user.is_authenticated):
        return []
    events = (
        Event.objects.filter(Q(organiser=user) | Q(staff__user=user))
        .exclude(status=Event.Status.FINISHED)
        .distinct()
        .order_by("date", "pk")
    )
    roles = dict(EventStaff.objects.filter(user=user, event__in=events).values_list("event_id", "role"))
    return [
        StaffedEvent(
            event=event,
            role=_("Organiser") if policy.is_organiser(user, event) else str(EventStaff.Role(roles[event.pk]).label),
        )
        for event in events
    ]


def claim_record(*, code: str) -> Player | None:
    """The player record a claim code names (the code in any case, spaces around it aside); ``None``: no record
    has it.  One query."""
    return Player.objects.filter(claim_code=code.strip().upper()).first()


def player_has_history(*, player: Player) -> bool:
    """Whether the player has a registration at any event (withdrawn ones too): one query."""
    return player.registrations.exists()


def own_registration(*, event: Event, player: Player) -> Registration | None:
    """The player's registration at the event, with its player and its event; ``None``: they have none.
    One query."""
    return Registration.objects.select_related("player", "event").filter(event=event, player=player).first()


def _with_deck_status(registrations):
    """``deck_status``: the status shown of the newest deck (a judge's ruling over the checker's verdict)."""
    return registrations.annotate(deck_status=deck_selectors.latest_deck_status())


def player_registrations(*, player: Player) -> list[Registration]:
    """Every registration of the player with its event and the status of their newest deck (one query)."""
    return list(
        _with_deck_status(Registration.objects.filter(player=player))
        .select_related("event", "player")
        .order_by("-event__date", "-event_id")
    )


def event_registration(*, event: Event, player: Player | None) -> Registration | None:
    """The player's registration at the event, with the status of their newest deck."""
    if player is None:
        return None
    return _with_deck_status(Registration.objects.filter(event=event, player=player)).select_related("player").first()


def waiting_place(*, registration: Registration) -> int | None:
    """1 for the next player to be promoted from the waiting list; ``None`` when not waiting."""
    if registration.status != Registration.Status.WAITLISTED:
        return None
    ahead = Registration.objects.filter(event_id=registration.event_id, status=Registration.Status.WAITLISTED).filter(
        Q(waitlisted_at__lt=registration.waitlisted_at)
        | Q(waitlisted_at=registration.waitlisted_at, pk__lt=registration.pk)
    )
    return ahead.count() + 1


def registered_count(*, event: Event) -> int:
    return Registration.objects.filter(event=event, status=Registration.Status.REGISTERED).count()


@dataclass(frozen=True)
class OpenReport:
    """A player's report of a table that waits for the others (``pending``) or is ``disputed``."""

    status: str
    reporter: Person
    placements: dict[int, int]
    games: dict[int, tuple[int, int, int]] | None
    intentional_draw: bool
    #: Players who have answered it: ``{player id: agrees}``.
    answers: dict[int, bool]


def open_report(*, event: Event, round_number: int, table_number: int) -> OpenReport | None:
    report = (
        ResultReport.objects.filter(
            pod__round__event=event,
            pod__round__number=round_number,
            pod__table_number=table_number,
            status__in=[ResultReport.Status.PENDING, ResultReport.Status.DISPUTED],
        )
        .select_related("player")
        .prefetch_related("responses")
        .first()
    )
    if report is None:
        return None
    return OpenReport(
        status=report.status,
        reporter=Person(report.player_id, report.player.display_name),
        placements={int(k): v for k, v in report.placements.items()},
        games=None if report.games is None else {int(k): tuple(v) for k, v in report.games.items()},
        intentional_draw=report.intentional_draw,
        answers={r.player_id: r.agrees for r in report.responses.all()},
    )


@dataclass(frozen=True)
class Match:
    """One round of a player's event: where they sat, with whom, and the table's result if it has one."""

    round_number: int
    cut: bool
    table_number: int | None  # None: a bye
    bye: bool
    #: Everyone at the table in seat order, the player included.
    seats: list[Person]
    #: ``{player id: placement}`` once the table has a result.
    placements: dict[int, int]
    #: The player's game score (won, lost, drawn), when one was given.
    games: tuple[int, int, int] | None
    intentional_draw: bool
    points: int | None
    #: A top-cut round's played tables, which name its stage ("Semi-finals"); 0 for a Swiss round.
    cut_tables: int = 0

    @property
    def reported(self) -> bool:
        return bool(self.placements)


def matches(*, player: Player, event_ids: list[int]) -> dict[int, list[Match]]:
    """``{event id: [Match, ...]}`` in round order for the player's events (two queries)."""
    if not event_ids:
        return {}
    seats = (
        Seat.objects.filter(player=player, round__event_id__in=event_ids)
        .select_related("round", "pod", "pod__result")
        .prefetch_related(Prefetch("pod__seats", queryset=Seat.objects.select_related("player").order_by("seat_order")))
        .annotate(cut_tables=cut_round_tables())
        .order_by("round__event_id", "round__number")
    )
    found: dict[int, list[Match]] = defaultdict(list)
    for seat in seats:
        pod = seat.pod
        table = list(pod.seats.all())
        result = getattr(pod, "result", None)
        found[seat.round.event_id].append(
            Match(
                round_number=seat.round.number,
                cut=seat.round.stage == "top_cut",
                table_number=pod.table_number,
                bye=pod.is_bye,
                seats=[Person(s.player_id, s.player.display_name) for s in table],
                placements={s.player_id: s.placement for s in table if s.placement is not None},
                games=seat.games_record,
                intentional_draw=bool(result and result.intentional_draw),
                points=seat.points,
                cut_tables=seat.cut_tables,
            )
        )
    return dict(found)


def standings_of(*, player: Player, event_ids: list[int]) -> dict[int, Standing]:
    """The player's stored standing in each of these events (one query)."""
    if not event_ids:
        return {}
    return {s.event_id: s for s in Standing.objects.filter(player=player, event_id__in=event_ids)}


# --- the player's table in the current round (their deck statuses come from the decks app) -------------


@dataclass(frozen=True)
class Opponent:
    player_id: int
    name: str
    seat: int
    #: The deck's status (``legal``, ``illegal``, ``pending``; a judge's ruling over the checker's verdict) or
    #: ``None`` when no deck was submitted.
    deck_status: str | None


@dataclass(frozen=True)
class PlayerTable:
    """Where a player sits in the event's current round, and what they can do about its result."""

    round_number: int
    round_label: str
    pod_id: int
    table_number: int | None  # None: a bye
    seat: int
    goes_first: bool
    opponents: list[Opponent]
    #: The table's result is recorded (final).
    reported: bool
    #: The open player report: ``pending`` or ``disputed`` (or ``None``).
    report_status: str | None
    #: The open report was made by this player / this player has answered it.
    reported_by_me: bool
    answered: bool
    #: The open report's placements, ``{player id: placement}``.
    report_placements: dict[int, int] = field(default_factory=dict)


def player_table(*, event: Event, player: Player) -> PlayerTable | None:
    """The player's table in the latest round the players see (``None`` when they are not seated in it)."""
    round_ = event_shown_round(event=event)
    if round_ is None:
        return None
    seat = Seat.objects.select_related("pod", "pod__result").filter(round=round_, player=player).first()
    if seat is None:
        return None
    pod = seat.pod
    others = list(Seat.objects.filter(pod=pod).exclude(pk=seat.pk).select_related("player").order_by("seat_order"))
    statuses = deck_selectors.deck_statuses(event=event, player_ids=[s.player_id for s in others])
    report = (
        ResultReport.objects.filter(pod=pod, status__in=[ResultReport.Status.PENDING, ResultReport.Status.DISPUTED])
        .prefetch_related("responses")
        .first()
    )
    return PlayerTable(
        round_number=round_.number,
        round_label=round_label(round_=round_),
        pod_id=pod.pk,
        table_number=pod.table_number,
        seat=seat.seat_order,
        goes_first=seat.seat_order == 1 and not pod.is_bye,
        opponents=[
            Opponent(s.player_id, s.player.display_name, s.seat_order, statuses.get(s.player_id)) for s in others
        ],
        reported=hasattr(pod, "result"),
        report_status=report.status if report else None,
        reported_by_me=bool(report and report.player_id == player.pk),
        answered=bool(report and any(r.player_id == player.pk for r in report.responses.all())),
        report_placements={int(k): v for k, v in report.placements.items()} if report else {},
    )


def account_language(user) -> str:
    """The account's language setting ("" : none chosen, it follows the browser)."""
    if not (user and user.is_authenticated):
        return ""
    return Preferences.objects.filter(user=user).values_list("language", flat=True).first() or ""
