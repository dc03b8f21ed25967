"""Starting a round loads the event's history in a constant number of queries, whatever the field size."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import EventFactory, RegistrationFactory
from tournaments import services

pytestmark = pytest.mark.django_db


def _queries_for_round_three(organiser, players: int) -> int:
    event = EventFactory(organiser=organiser, format="mintayn-master", planned_rounds=5)
    for _ in range(players):
        RegistrationFactory(event=event)
    for number in (1, 2):
        round_ = services.round_start(event=event, by=organiser, seed=number)
        for pod in round_.pods.filter(is_bye=False).prefetch_related("seats"):
            a, b = (s.player_id for s in pod.seats.all())
            services.pod_result_report(
                event=event, round_number=number, table_number=pod.table_number, placements={a: 1, b: 2}, by=organiser
            )
    with CaptureQueriesContext(connection) as captured:
        services.round_start(event=event, by=organiser, seed=3)
    return len(captured)


def test_starting_a_round_takes_the_same_number_of_queries_for_8_and_for_80_players(organiser):
    small = _queries_for_round_three(organiser, 8)
    large = _queries_for_round_three(organiser, 80)
    assert small == large
    assert large <= 25
