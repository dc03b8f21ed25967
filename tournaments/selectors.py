"""Reads of the tournaments app: each returns what a page or API answer needs in a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q, QuerySet

from tournaments.models import Event, Pod, Registration, Round, Seat, Standing


def event_list(*, user=None, mine: bool = False) -> QuerySet[Event]:
    qs = Event.objects.select_related("organiser").annotate(
        player_count=Count("registrations", filter=Q(registrations__dropped=False)),
        round_count=Count("rounds", distinct=True),
    )
    if mine and user is not None and not user.is_staff:
        qs = qs.filter(organiser=user)
    return qs


def event_registrations(*, event: Event) -> QuerySet[Registration]:
    return event.registrations.select_related("player").order_by("player__display_name", "id")


def event_latest_round(*, event: Event) -> Round | None:
    return event.rounds.order_by("-number").first()


def round_get(*, event: Event, number: int) -> Round | None:
    return event.rounds.filter(number=number).first()


def _pods_with_seats() -> QuerySet[Pod]:
    seats = Seat.objects.select_related("player").order_by("seat_order")
    return Pod.objects.select_related("result", "round").prefetch_related(Prefetch("seats", queryset=seats))


def round_pods(*, round_: Round) -> list[Pod]:
    """Tables of a round (byes last) with seats, players and results, in two queries."""
    return list(_pods_with_seats().filter(round=round_).order_by("is_bye", "table_number", "id"))


def pod_detail(*, pod_id: int) -> Pod:
    """One table with its seats, players and result (after reporting it), in two queries."""
    return _pods_with_seats().get(pk=pod_id)


@dataclass(frozen=True)
class PairingByName:
    player_name: str
    player_id: int
    table_number: int | None  # None = bye
    seat_order: int
    opponents: list[str]


def round_pairings_by_name(*, round_: Round) -> list[PairingByName]:
    """One line per player, alphabetical: where they sit and against whom."""
    rows: list[PairingByName] = []
    for pod in round_pods(round_=round_):
        seats = list(pod.seats.all())
        for seat in seats:
            rows.append(
                PairingByName(
                    player_name=seat.player.display_name,
                    player_id=seat.player_id,
                    table_number=pod.table_number,
                    seat_order=seat.seat_order,
                    opponents=[s.player.display_name for s in seats if s.pk != seat.pk],
                )
            )
    rows.sort(key=lambda r: (r.player_name.casefold(), r.player_id))
    return rows


def event_standings(*, event: Event) -> QuerySet[Standing]:
    """Stored standings: one query."""
    return Standing.objects.filter(event=event).select_related("player").order_by("rank", "player__display_name")
