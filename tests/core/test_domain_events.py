"""The domain event stream (core.events): handlers in the transaction, readers after commit, failures contained.

Transactional tests: each ``transaction.atomic()`` here really commits or
rolls back, so readers run when production runs them (right after the
commit), not at the end of the test.
"""

from __future__ import annotations

import logging

import pytest
from django.db import transaction

from core import events
from tests.factories import EventFactory
from tournaments import readers
from tournaments.models import AuditEntry, Event

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def seen():
    """Subscribe a handler and a reader to ``test.happened``; yields what each saw, in order."""
    log: list[tuple[str, str, bool]] = []

    def handler(domain_event):
        log.append(("handler", domain_event.action, transaction.get_connection().in_atomic_block))

    def reader(domain_event):
        log.append(("reader", domain_event.action, transaction.get_connection().in_atomic_block))

    events.handler("test.happened")(handler)
    events.reader("test.happened")(reader)
    yield log
    events.unsubscribe(handler)
    events.unsubscribe(reader)


def test_a_handler_runs_in_the_transaction_and_a_reader_after_it_commits(seen):
    with transaction.atomic():
        events.record(action="test.happened", event=None)
        assert seen == [("handler", "test.happened", True)], "the reader waits for the commit"
    assert seen == [("handler", "test.happened", True), ("reader", "test.happened", False)]


def test_a_rolled_back_change_reaches_no_reader(seen):
    with pytest.raises(RuntimeError), transaction.atomic():
        events.record(action="test.happened", event=None)
        raise RuntimeError("the service refused after recording")
    assert [who for who, *_ in seen] == ["handler"]


def test_a_savepoint_rolled_back_takes_its_events_with_it(seen):
    with transaction.atomic():
        events.record(action="test.happened", event=None, step=1)
        try:
            with transaction.atomic():
                events.record(action="test.happened", event=None, step=2)
                raise RuntimeError
        except RuntimeError:
            pass
    assert [who for who, *_ in seen] == ["handler", "handler", "reader"]


def test_outside_a_transaction_readers_run_at_once(seen):
    events.record(action="test.happened", event=None)
    assert [who for who, *_ in seen] == ["handler", "reader"]


def test_a_failing_reader_never_fails_the_write_and_the_others_still_run(seen, caplog):
    def broken(domain_event):
        raise ConnectionError("the broker is away")

    events.reader("test.happened")(broken)
    try:
        with caplog.at_level(logging.ERROR, logger="core.events"), transaction.atomic():
            events.record(action="test.happened", event=None)
    finally:
        events.unsubscribe(broken)
    assert [who for who, *_ in seen] == ["handler", "reader"]
    assert "failed on test.happened" in caplog.text


def test_a_failing_handler_fails_the_change_it_belongs_to(seen):
    def refuses(domain_event):
        raise ValueError("cannot write the trail")

    events.handler("test.happened")(refuses)
    event = EventFactory()
    try:
        with pytest.raises(ValueError), transaction.atomic():
            Event.objects.filter(pk=event.pk).update(name="Renamed")
            events.record(action="test.happened", event=event)
    finally:
        events.unsubscribe(refuses)
    event.refresh_from_db()
    assert event.name != "Renamed"
    assert [who for who, *_ in seen] == ["handler"]


def test_an_event_carries_plain_data_only(seen):
    event = EventFactory()
    recorded = events.record(
        action="test.happened", event=event, subject="x", after={"when": event.date, "event": event}, ids={3, 1}
    )
    assert recorded.event_id == event.pk
    assert recorded.after == {"when": event.date.isoformat(), "event": event.pk}
    assert sorted(recorded.data["ids"]) == [1, 3]


def test_the_audit_trail_keeps_audited_events_only():
    event = EventFactory()
    events.record(action="test.kept", event=event, subject="Kept", after={"a": 1}, reason="why")
    events.record(action="test.not_kept", event=event, subject="Not kept", audit=False)
    entries = list(AuditEntry.objects.filter(event=event).values_list("action", "subject", "after", "reason"))
    assert entries == [("test.kept", "Kept", {"a": 1}, "why")]


def test_every_change_that_moves_standings_has_the_standings_subscribers():
    for action in readers.MOVES_STANDINGS:
        handlers, after_commit = events.subscribers(action)
        assert "tournaments.readers.standings_out_of_date" in handlers, action
        assert "tournaments.readers.standings_recompute_request" in after_commit, action


def test_subscribing_twice_subscribes_once(seen):
    def twice(domain_event):
        seen.append(("twice", domain_event.action, False))

    events.reader("test.happened")(twice)
    events.reader("test.happened")(twice)
    try:
        events.record(action="test.happened", event=None)
    finally:
        events.unsubscribe(twice)
    assert [who for who, *_ in seen].count("twice") == 1
