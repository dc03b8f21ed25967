"""What one staff result costs: the queries of ``POST .../tables/{t}/result/`` and of its service, counted.

A result is the hottest write of a big event (``bench reports``), so its queries are counted here as upper
bounds equal to what they are now: a change that makes a result cost more fails this file, on purpose.

The service's 10 (a 1v1 table that is not the round's last): the event, shared; the table's seats, locked,
with their round and players; the table with its result and whether it has an open report; the seats'
placements and points; the result; the event's results version and standings mark (one UPDATE); the table's
games still in progress closed; the live event, with the stations showing the table found in the same
statement; the audit entry; whether the round has a table without a result.  The request adds the token (with
its account) only: the event is the one the service read (the doorway does not read it again), and the answer
is built from what the service wrote.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from live.models import LiveEvent
from tests.support.events import make_event
from tournaments import services
from tournaments.models import AuditEntry, Event

pytestmark = pytest.mark.django_db

SERVICE_QUERIES = 10
REQUEST_QUERIES = 11


def _statements(captured: CaptureQueriesContext) -> list[str]:
    """The queries, without the savepoints of the test's own transaction around the service's."""
    return [q["sql"] for q in captured.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]


@pytest.fixture
def round_one(organiser):
    """A 1v1 event of six players with round 1 paired: three tables."""
    event = make_event(organiser, 6)
    round_ = services.round_start(event=event, by=organiser, seed=1)
    tables = {p.table_number: [s.player_id for s in p.seats.order_by("seat_order")] for p in round_.pods.all()}
    return event, tables


def test_a_staff_result_of_a_1v1_table_makes_at_most_ten_queries_in_its_service(round_one, organiser):
    event, tables = round_one
    a, b = tables[1]
    with CaptureQueriesContext(connection) as captured:
        _, created = services.pod_result_report(
            event=event, round_number=1, table_number=1, placements={a: 1, b: 2}, by=organiser
        )
    assert created
    assert len(_statements(captured)) <= SERVICE_QUERIES, "\n".join(_statements(captured))
    # Everything a result does is still done.
    assert AuditEntry.objects.filter(event=event, action="result.entered").count() == 1
    assert LiveEvent.objects.filter(event=event, kind="table.result").count() == 1
    assert Event.objects.get(pk=event.pk).results_version == 1


def test_a_staff_result_through_the_api_makes_at_most_eleven_queries_and_answers_the_table_as_written(round_one, api):
    event, tables = round_one
    a, b = tables[2]
    body = {"placements": [{"player": a, "placement": 2}, {"player": b, "placement": 1}]}
    url = f"/api/v1/events/{event.pk}/rounds/1/tables/2/result/"
    with CaptureQueriesContext(connection) as captured:
        answer = api.post(url, body, format="json")
    assert answer.status_code == 201, answer.content
    assert len(_statements(captured)) <= REQUEST_QUERIES, "\n".join(_statements(captured))
    table = answer.json()
    assert table["reported"] is True and table["report"] is None
    assert [(s["player"]["id"], s["placement"], s["points"]) for s in table["seats"]] == [(a, 2, 0), (b, 1, 3)]
    # The answer from memory is the one a read gives.
    again = api.post(url, body, format="json")
    assert again.status_code == 200 and again.json() == table


def test_a_result_for_an_event_that_is_not_there_is_the_doorways_404(round_one, api):
    """The doorway no longer reads the event: the service's read of it answers the same 404."""
    event, tables = round_one
    a, b = tables[1]
    body = {"placements": [{"player": a, "placement": 1}, {"player": b, "placement": 2}]}
    answer = api.post(f"/api/v1/events/{event.pk + 1000}/rounds/1/tables/1/result/", body, format="json")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"
    assert answer.json()["error"]["message"] == f"Event {event.pk + 1000} does not exist."
