"""Reads of the venue floor: the judges' queue, a player's table and call, deck checks, assignments."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

from floor.models import DeckCheck, JudgeAssignment, JudgeCall
from games import selectors as game_selectors
from tournaments import selectors as tournament_selectors
from tournaments.models import Event, Penalty, Player, Pod, Round, Seat

#: Resolved and cancelled calls the queue still shows under the live ones.
RECENTLY_CLOSED = 10


def calls_with_people() -> QuerySet[JudgeCall]:
    seats = Seat.objects.select_related("player").order_by("seat_order")
    return JudgeCall.objects.select_related(
        "called_by_player", "claimed_by", "resolved_by", "called_by", "extension"
    ).prefetch_related(Prefetch("pod__seats", queryset=seats))


def event_calls(*, event: Event, states: Iterable[str] | None = None) -> QuerySet[JudgeCall]:
    """The event's judge calls, the oldest first (``states``: only those)."""
    calls = calls_with_people().filter(event=event)
    if states is not None:
        calls = calls.filter(state__in=list(states))
    return calls.order_by("called_at", "id")


def event_call(*, event: Event, call_id: int) -> JudgeCall:
    """One call of the event (``JudgeCall.DoesNotExist`` when it has none of that id)."""
    return calls_with_people().get(event=event, pk=call_id)


@dataclass(frozen=True)
class Queue:
    """The judges' queue as one judge sees it: the calls waiting or claimed (their own tables' first), then the
    last ones closed."""

    live: list[JudgeCall]
    closed: list[JudgeCall]
    #: The ids of the live calls at the judge's tables.
    mine: frozenset[int]


def judge_queue(*, event: Event, judge=None) -> Queue:
    """The queue for ``judge`` (their assigned tables' calls first, then the oldest first): two queries and the
    seats', and one for the judge's assignments."""
    live = list(event_calls(event=event, states=JudgeCall.LIVE))
    assignments = judge_assignments(event=event, judge=judge) if judge is not None else []
    mine = frozenset(c.pk for c in live if any(a.covers(c.round_number, c.table_number) for a in assignments))
    live.sort(key=lambda c: (c.pk not in mine, c.called_at, c.pk))
    closed = list(
        calls_with_people()
        .filter(event=event)
        .exclude(state__in=JudgeCall.LIVE)
        .order_by("-resolved_at", "-id")[:RECENTLY_CLOSED]
    )
    return Queue(live=live, closed=closed, mine=mine)


def current_round(*, event: Event) -> Round | None:
    return tournament_selectors.event_latest_round(event=event)


def player_table(*, event: Event, player: Player) -> Pod | None:
    """The player's table in the event's current round (``None``: no round, no seat, or a bye): two queries."""
    round_ = current_round(event=event)
    if round_ is None:
        return None
    seat = Seat.objects.filter(round=round_, player=player).select_related("pod__round").first()
    if seat is None or seat.pod.is_bye:
        return None
    return seat.pod


def seated_player_ids(*, pod: Pod) -> list[int]:
    return game_selectors.table_player_ids(pod=pod)


def table_call(*, pod_id: int) -> JudgeCall | None:
    """The table's latest judge call (live or not), with who claimed it: one query."""
    return (
        JudgeCall.objects.filter(pod_id=pod_id)
        .select_related("claimed_by", "extension")
        .order_by("-called_at", "-id")
        .first()
    )


def live_call_of(*, pod_id: int) -> JudgeCall | None:
    return JudgeCall.objects.filter(pod_id=pod_id, state__in=JudgeCall.LIVE).first()


def table_has_games(*, pod: Pod) -> bool:
    return bool(game_selectors.table_games(pod=pod))


# --- deck checks -------------------------------------------------------------------------------------------------


def event_deck_checks(*, event: Event) -> QuerySet[DeckCheck]:
    """The event's deck checks by round and table, with their table's players, judge, draw and penalties."""
    seats = Seat.objects.select_related("player").order_by("seat_order")
    penalties = Penalty.objects.select_related("registration__player").order_by("issued_at", "id")
    return (
        DeckCheck.objects.filter(event=event)
        .select_related("judge", "picked_by", "draw", "extension")
        .prefetch_related(Prefetch("pod__seats", queryset=seats), Prefetch("penalties", queryset=penalties))
        .order_by("round_number", "table_number", "id")
    )


def event_deck_check(*, event: Event, check_id: int) -> DeckCheck:
    return event_deck_checks(event=event).get(pk=check_id)


def checked_tables(*, round_: Round) -> set[int]:
    """The table numbers of the round that have a deck check: one query."""
    return set(DeckCheck.objects.filter(pod__round=round_).values_list("table_number", flat=True))


def checked_player_ids(*, event: Event, before_round: int) -> set[int]:
    """The players whose table had a deck check in a round of the event before ``before_round``: one query."""
    return set(
        Seat.objects.filter(pod__deck_checks__event=event, pod__deck_checks__round_number__lt=before_round).values_list(
            "player_id", flat=True
        )
    )


def round_tables(*, round_: Round) -> list[Pod]:
    """The round's tables (byes aside), with their seats' player ids: two queries."""
    return [pod for pod in tournament_selectors.round_pods(round_=round_) if not pod.is_bye]


def table_penalties(*, event: Event, pod: Pod, round_number: int) -> list[Penalty]:
    """Penalties given at the event in the round to the players seated at the table (newest first)."""
    players = [seat.player_id for seat in pod.seats.all()]
    return list(
        Penalty.objects.filter(event=event, round_number=round_number, registration__player_id__in=players)
        .select_related("registration__player")
        .order_by("-issued_at", "-id")
    )


# --- judge assignments -------------------------------------------------------------------------------------------


def event_assignments(*, event: Event) -> QuerySet[JudgeAssignment]:
    return JudgeAssignment.objects.filter(event=event).select_related("judge").order_by("first_table", "id")


def event_assignment(*, event: Event, assignment_id: int) -> JudgeAssignment:
    return event_assignments(event=event).get(pk=assignment_id)


def judge_assignments(*, event: Event, judge) -> list[JudgeAssignment]:
    """The judge's assignments at the event (every round's and each round's): one query."""
    if not getattr(judge, "is_authenticated", False):
        return []
    return list(event_assignments(event=event).filter(judge=judge))


def player_calls(*, event: Event, player: Player) -> QuerySet[JudgeCall]:
    """The judge calls of the tables the player sat at in the event, the oldest first."""
    return event_calls(event=event).filter(pod__seats__player=player).distinct()
