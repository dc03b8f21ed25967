"""Judges' tables: a judge assigned to a range of tables (for the event or one round) sees their tables' calls
first; assigning needs a judge of the event; the API assigns and unassigns."""

from __future__ import annotations

import pytest

from core.exceptions import ApplicationError
from floor import selectors, services
from tests.support.api_checks import Api
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db

LIST = "/events/{event_id}/judge-assignments/"


def test_a_judges_tables_calls_come_first_for_them_and_in_call_order_for_others(floor_event, crew):
    services.judge_assign(event=floor_event, by=crew["organiser"], judge="jen", first_table=3, last_table=4)
    services.judge_assign(event=floor_event, by=crew["organiser"], judge="jo", first_table=1, round_number=2)
    early = services.judge_call_open(event=floor_event, by=crew["pat"])  # table 1
    late = services.judge_call_open(event=floor_event, by=crew["jo"], table=4)
    jen = selectors.judge_queue(event=floor_event, judge=crew["jen"])
    assert [c.pk for c in jen.live] == [late.pk, early.pk] and jen.mine == {late.pk}
    jo = selectors.judge_queue(event=floor_event, judge=crew["jo"])  # round 2's table 1 is not this round's
    assert [c.pk for c in jo.live] == [early.pk, late.pk] and jo.mine == frozenset()


def test_only_a_judge_of_the_event_is_assigned_and_a_range_runs_forward(floor_event, crew):
    with pytest.raises(ApplicationError) as scorekeeper:
        services.judge_assign(event=floor_event, by=crew["organiser"], judge="sam", first_table=1)
    assert (scorekeeper.value.code, scorekeeper.value.field) == ("not_a_judge", "judge")
    with pytest.raises(ApplicationError) as backwards:
        services.judge_assign(event=floor_event, by=crew["organiser"], judge="jo", first_table=5, last_table=2)
    assert backwards.value.field == "last_table"


def test_the_api_assigns_lists_and_unassigns(wsgi_in_test_transaction, floor_event, crew):
    made = Api(crew["jo"])(
        "post", LIST, 201, {"judge": "jen", "first_table": 1, "last_table": 10}, event_id=floor_event.pk
    )
    assert (made["judge"], made["first_table"], made["last_table"], made["round"]) == ("jen", 1, 10, None)
    listed = Api(crew["sam"])("get", LIST, 200, event_id=floor_event.pk)
    assert [a["id"] for a in listed["results"]] == [made["id"]]
    bad = Api(crew["jo"])(
        "post", LIST, 400, {"judge": "jen", "first_table": 4, "last_table": 2}, event_id=floor_event.pk
    )
    assert set(bad["error"]["fields"]) == {"last_table"}
    Api(crew["jo"])("post", LIST + "{assignment_id}/unassign/", 204, event_id=floor_event.pk, assignment_id=made["id"])
    assert Api(crew["jo"])("get", LIST, 200, event_id=floor_event.pk)["results"] == []
    actions = list(AuditEntry.objects.filter(event=floor_event).values_list("action", flat=True))
    assert "judge.assigned" in actions and "judge.unassigned" in actions
