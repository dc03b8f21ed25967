"""Events for the tests: an event with registered players, every table of a round reported, a whole Swiss played.

- :func:`make_event`: an event by ``organiser`` with ``players`` registered (P00, P01, ...).
- :func:`report_all`: report every open table of the current round.
- :func:`play_swiss`: start and report every planned round, then recompute the standings.
"""

from __future__ import annotations

import datetime

from tests.factories import PlayerFactory, RegistrationFactory
from tournaments import services
from tournaments.models import Event


def make_event(organiser, players: int, *, format: str = "deck-masters", rounds: int = 4, **options) -> Event:
    event = services.event_create(
        organiser=organiser, name="League night", format=format, planned_rounds=rounds,
        date=datetime.date(2026, 12, 1), **options,
    )  # fmt: skip
    for i in range(players):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=f"P{i:02d}"))
    return event


def report_all(event: Event, organiser, *, winner_seat: int = 1) -> None:
    """Report every open table of the current round: seat ``winner_seat`` wins, the rest by seat order."""
    round_ = event.rounds.order_by("-number").first()
    for pod in round_.pods.filter(is_bye=False, result__isnull=True).prefetch_related("seats"):
        seats = sorted(pod.seats.all(), key=lambda s: s.seat_order)
        winner = seats[winner_seat - 1] if winner_seat <= len(seats) else seats[0]
        others = [s for s in seats if s.pk != winner.pk]
        placements = {winner.player_id: 1} | {s.player_id: i for i, s in enumerate(others, start=2)}
        services.pod_result_report(
            event=event, round_number=round_.number, table_number=pod.table_number, placements=placements, by=organiser
        )


def play_swiss(event, organiser) -> None:
    for _ in range(event.planned_rounds):
        services.round_start(event=event, by=organiser, allow_rematches=True)
        report_all(event, organiser)
    services.standings_recompute(event_id=event.pk)
