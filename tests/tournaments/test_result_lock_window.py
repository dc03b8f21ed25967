"""A staff result holds the event's row for as short a time as it can.

Every result of an event updates the event's row (its results version: the standings are out of
date), and the row stays locked until the commit, so the other tables' results queue behind it.  The
update is the result's last write: after it come only the look for tables still without a result
(which must see every other result, hence after the update) and the commit.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import EventFactory, RegistrationFactory
from tournaments import services

pytestmark = pytest.mark.django_db


def _is_write(sql: str) -> bool:
    return sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))


def test_a_results_update_of_the_event_row_comes_after_its_other_writes(organiser):
    event = EventFactory(organiser=organiser, format="deck-masters", planned_rounds=3)
    for _ in range(4):
        RegistrationFactory(event=event)
    round_ = services.round_start(event=event, by=organiser, seed=1)
    pod = round_.pods.filter(is_bye=False).prefetch_related("seats").order_by("table_number").first()
    a, b = (s.player_id for s in pod.seats.all())
    with CaptureQueriesContext(connection) as captured:
        services.pod_result_report(
            event=event, round_number=1, table_number=pod.table_number, placements={a: 1, b: 2}, by=organiser
        )
    # (In the test's transaction the service's commit is a savepoint's release.)
    statements = [q["sql"] for q in captured if "SAVEPOINT" not in q["sql"]]
    writes = [sql for sql in statements if _is_write(sql)]
    event_table = '"tournaments_event"'
    assert writes[-1].startswith(f"UPDATE {event_table}"), writes
    assert sum(sql.startswith(f"UPDATE {event_table}") for sql in writes) == 1
    after = statements[statements.index(writes[-1]) + 1 :]
    # The other table has no result yet: the look finds it, and nothing else happens before the commit.
    assert len(after) == 1 and after[0].startswith("SELECT 1 AS"), after
