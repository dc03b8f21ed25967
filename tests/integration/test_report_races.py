"""Players and staff answering for the same table at the same moment, against real PostgreSQL.

A table's seats are locked by every report, answer and staff result, so
requests about one table take turns: two players reporting the same score at
once make one report and one confirmation (one result); reports that disagree
make a dispute and no result, never an overwrite; a staff result racing a
confirmation leaves one result, the other request told it exists.
"""

from __future__ import annotations

from collections import Counter
from functools import partial

import pytest
from django.db import connection

from core.exceptions import ApplicationError
from tests.factories import EventFactory, PlayerFactory, RegistrationFactory, UserFactory
from tests.support.concurrency import together
from tournaments import services
from tournaments.models import AuditEntry, PodResult, ResultReport, ResultResponse
from tournaments.services import results

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

TABLES = 6  # 12 players: six races of each kind per test


def _event(organiser):
    event = EventFactory(organiser=organiser, format="mintayn-master", planned_rounds=3, player_reports=True)
    for _ in range(2 * TABLES):
        RegistrationFactory(event=event, player=PlayerFactory(user=UserFactory()))
    services.round_start(event=event, by=organiser, seed=7)
    return event


def _tables(event):
    """(table number, [user of seat 1, user of seat 2], [player id of seat 1, of seat 2]) per table."""
    round_ = event.rounds.get(number=1)
    for pod in round_.pods.order_by("table_number"):
        seats = list(pod.seats.select_related("player__user").order_by("seat_order"))
        yield pod.table_number, [s.player.user for s in seats], [s.player_id for s in seats]


def _report(event, table, user, placements):
    return partial(
        results.result_player_report,
        event=event, round_number=1, table_number=table, placements=placements, by=user,
    )  # fmt: skip


def _outcome(answer) -> str:
    return answer.state if isinstance(answer, results.ReportAnswer) else getattr(answer, "code", repr(answer))


def test_two_players_reporting_the_same_result_at_once_make_one_result_and_one_confirmation(organiser):
    assert connection.vendor == "postgresql"
    event = _event(organiser)
    seen = Counter()
    for table, users, players in _tables(event):
        won = {players[0]: 1, players[1]: 2}
        answers = together(*(_report(event, table, user, won) for user in users))
        seen[tuple(sorted(map(_outcome, answers)))] += 1
        (report,) = ResultReport.objects.filter(pod__round__event=event, pod__table_number=table)
        assert report.status == ResultReport.Status.CONFIRMED
        assert ResultResponse.objects.filter(report=report).count() == 1
        result = PodResult.objects.get(pod=report.pod)
        assert result.source == PodResult.Source.PLAYERS
        assert dict(report.pod.seats.values_list("player_id", "placement")) == won
    assert seen == {("confirmed", "pending"): TABLES}
    actions = Counter(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert actions["result.reported"] == TABLES and actions["result.agreed"] == TABLES


def test_two_players_reporting_different_results_at_once_make_a_dispute_and_no_result(organiser):
    event = _event(organiser)
    for table, users, players in _tables(event):
        answers = together(
            _report(event, table, users[0], {players[0]: 1, players[1]: 2}),
            _report(event, table, users[1], {players[0]: 2, players[1]: 1}),
        )
        assert sorted(map(_outcome, answers)) == ["disputed", "pending"]
        (report,) = ResultReport.objects.filter(pod__round__event=event, pod__table_number=table)
        assert report.status == ResultReport.Status.DISPUTED
        (response,) = report.responses.all()
        assert response.agrees is False and response.player_id != report.player_id
        assert not PodResult.objects.filter(pod=report.pod).exists()
        # Nothing was overwritten: the first report still says what its reporter said.
        says = {int(player): placement for player, placement in report.placements.items()}
        assert says == (
            {players[0]: 1, players[1]: 2} if report.player_id == players[0] else {players[0]: 2, players[1]: 1}
        )


def test_a_staff_result_racing_a_confirmation_leaves_one_result(organiser):
    event = _event(organiser)
    outcomes = Counter()
    for table, users, players in _tables(event):
        won = {players[0]: 1, players[1]: 2}
        results.result_player_report(event=event, round_number=1, table_number=table, placements=won, by=users[0])
        staff_says = {players[0]: 2, players[1]: 1}
        answers = together(
            partial(results.result_respond, event=event, round_number=1, table_number=table, agrees=True, by=users[1]),
            partial(
                services.pod_result_report,
                event=event,
                round_number=1,
                table_number=table,
                placements=staff_says,
                by=organiser,
            ),  # fmt: skip
        )
        confirm, staff = answers
        assert PodResult.objects.filter(pod__round__event=event, pod__table_number=table).count() == 1
        result = PodResult.objects.get(pod__round__event=event, pod__table_number=table)
        if isinstance(confirm, results.ReportAnswer):  # the player was first: the staff's different result is refused
            assert confirm.state == "confirmed" and isinstance(staff, ApplicationError)
            assert staff.code == "result_exists" and result.source == PodResult.Source.PLAYERS
            outcomes["player first"] += 1
        else:  # the staff were first: their result settled the report, the confirmation finds it
            assert isinstance(confirm, ApplicationError) and confirm.code == "result_exists", confirm
            assert result.source != PodResult.Source.PLAYERS
            assert dict(result.pod.seats.values_list("player_id", "placement")) == staff_says
            outcomes["staff first"] += 1
    assert sum(outcomes.values()) == TABLES


def test_one_player_reporting_twice_at_once_makes_one_report(organiser):
    event = _event(organiser)
    for table, users, players in _tables(event):
        won = {players[0]: 1, players[1]: 2}
        answers = together(*(_report(event, table, users[0], won) for _ in range(2)))
        assert sorted(map(_outcome, answers)) == ["pending", "unchanged"]
        assert ResultReport.objects.filter(pod__round__event=event, pod__table_number=table).count() == 1
