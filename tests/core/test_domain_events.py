"""The domain event stream (core.events): handlers in the transaction, readers after commit, failures contained.

Transactional tests: each ``transaction.atomic()`` here really commits or
rolls back, so readers run when production runs them (right after the
commit), not at the end of the test.
"""

from __future__ import annotations

import logging
import re

import pytest
from django.db import transaction

from core import events
from core.domain_actions import BY_NAME, DomainAction
from tests.factories import EventFactory
from tournaments import readers
from tournaments.models import AuditEntry, Event

pytestmark = pytest.mark.django_db(transaction=True)

#: An action nobody subscribes to but the audit trail: the tests subscribe their own to it.
QUIET = DomainAction.PLAYER_CLAIM_CODE


@pytest.fixture
def seen():
    """Subscribe a handler and a reader to :data:`QUIET`; yields what each saw, in order."""
    assert events.subscribers(QUIET) == (["tournaments.readers.audit_trail"], []), "pick another QUIET action"
    log: list[tuple[str, str, bool]] = []

    def handler(domain_event):
        log.append(("handler", domain_event.action, transaction.get_connection().in_atomic_block))

    def reader(domain_event):
        log.append(("reader", domain_event.action, transaction.get_connection().in_atomic_block))

    events.handler(QUIET)(handler)
    events.reader(QUIET)(reader)
    yield log
    events.unsubscribe(handler)
    events.unsubscribe(reader)


def test_a_handler_runs_in_the_transaction_and_a_reader_after_it_commits(seen):
    with transaction.atomic():
        events.record(action=QUIET, event=None)
        assert seen == [("handler", "player.claim_code", True)], "the reader waits for the commit"
    assert seen == [("handler", "player.claim_code", True), ("reader", "player.claim_code", False)]


def test_a_rolled_back_change_reaches_no_reader(seen):
    with pytest.raises(RuntimeError), transaction.atomic():
        events.record(action=QUIET, event=None)
        raise RuntimeError("the service refused after recording")
    assert [who for who, *_ in seen] == ["handler"]


def test_a_savepoint_rolled_back_takes_its_events_with_it(seen):
    with transaction.atomic():
        events.record(action=QUIET, event=None, step=1)
        try:
            with transaction.atomic():
                events.record(action=QUIET, event=None, step=2)
                raise RuntimeError
        except RuntimeError:
            pass
    assert [who for who, *_ in seen] == ["handler", "handler", "reader"]


def test_outside_a_transaction_readers_run_at_once(seen):
    events.record(action=QUIET, event=None)
    assert [who for who, *_ in seen] == ["handler", "reader"]


def test_a_failing_reader_never_fails_the_write_and_the_others_still_run(seen, caplog):
    def broken(domain_event):
        raise ConnectionError("the broker is away")

    events.reader(QUIET)(broken)
    try:
        with caplog.at_level(logging.ERROR, logger="core.events"), transaction.atomic():
            events.record(action=QUIET, event=None)
    finally:
        events.unsubscribe(broken)
    assert [who for who, *_ in seen] == ["handler", "reader"]
    assert "failed on player.claim_code" in caplog.text


def test_a_failing_handler_fails_the_change_it_belongs_to(seen):
    def refuses(domain_event):
        raise ValueError("cannot write the trail")

    events.handler(QUIET)(refuses)
    event = EventFactory()
    try:
        with pytest.raises(ValueError), transaction.atomic():
            Event.objects.filter(pk=event.pk).update(name="Renamed")
            events.record(action=QUIET, event=event)
    finally:
        events.unsubscribe(refuses)
    event.refresh_from_db()
    assert event.name != "Renamed"
    assert [who for who, *_ in seen] == ["handler"]


def test_an_event_carries_plain_data_only(seen):
    event = EventFactory()
    recorded = events.record(
        action=QUIET, event=event, subject="x", after={"when": event.date, "event": event}, ids={3, 1}
    )
    assert recorded.event_id == event.pk
    assert recorded.after == {"when": event.date.isoformat(), "event": event.pk}
    assert sorted(recorded.data["ids"]) == [1, 3]


def test_the_audit_trail_keeps_audited_events_only():
    event = EventFactory()
    events.record(action=DomainAction.PENALTY_ISSUED, event=event, subject="Kept", after={"a": 1}, reason="why")
    events.record(action=DomainAction.RATINGS_UPDATED, event=event, subject="Not kept")
    entries = list(AuditEntry.objects.filter(event=event).values_list("action", "subject", "after", "reason"))
    assert entries == [("penalty.issued", "Kept", {"a": 1}, "why")]


def test_every_change_that_moves_standings_has_the_standings_subscribers():
    for action in readers.MOVES_STANDINGS:
        handlers, after_commit = events.subscribers(action)
        assert "tournaments.readers.standings_out_of_date" in handlers, action
        assert "tournaments.readers.standings_recompute_request" in after_commit, action


def test_subscribing_twice_subscribes_once(seen):
    def twice(domain_event):
        seen.append(("twice", domain_event.action, False))

    events.reader(QUIET)(twice)
    events.reader(QUIET)(twice)
    try:
        events.record(action=QUIET, event=None)
    finally:
        events.unsubscribe(twice)
    assert [who for who, *_ in seen].count("twice") == 1


def test_a_handler_subscribed_last_runs_after_the_others_and_the_audit_trail(seen):
    def late(domain_event):
        seen.append(("late", domain_event.action, True))

    events.handler(QUIET, last=True)(late)
    try:
        assert events.subscribers(QUIET)[0] == [
            "tests.core.test_domain_events.seen.<locals>.handler", "tournaments.readers.audit_trail",
            "tests.core.test_domain_events.test_a_handler_subscribed_last_runs_after_the_others_and_the_audit_trail"
            ".<locals>.late",
        ]  # fmt: skip
        events.record(action=QUIET, event=None)
    finally:
        events.unsubscribe(late)
    assert [who for who, *_ in seen] == ["handler", "late", "reader"]
    assert events.subscribers(QUIET)[0] == ["tests.core.test_domain_events.seen.<locals>.handler",
                                            "tournaments.readers.audit_trail"]  # fmt: skip


def test_the_event_rows_update_is_the_last_handler_of_every_change_that_moves_standings():
    # Every result of an event updates its row and holds the lock to the commit: nothing else may come after.
    for action in readers.MOVES_STANDINGS:
        assert events.subscribers(action)[0][-1] == "tournaments.readers.standings_out_of_date", action


# --- the catalogue: no name but its own ----------------------------------------------------------------


def test_recording_an_action_the_catalogue_does_not_name_fails_and_names_the_closest():
    with pytest.raises(ValueError, match=r"'round\.strated' is not a domain event.*did you mean 'round\.started'"):
        events.record(action="round.strated", event=None)
    assert not AuditEntry.objects.exists()


def test_subscribing_a_handler_or_a_reader_to_an_unknown_action_fails_before_it_is_subscribed():
    def misspelt(domain_event):
        raise AssertionError("never subscribed")

    with pytest.raises(ValueError, match=r"'result\.entred'.*did you mean 'result\.entered'"):
        events.reader(DomainAction.RESULT_ENTERED, "result.entred")(misspelt)
    with pytest.raises(ValueError, match="'deck.submit' is not a domain event"):
        events.handler("deck.submit")
    with pytest.raises(ValueError, match="is not a domain event"):
        events.subscribers("standings.update")
    assert "tests.core.test_domain_events.misspelt" not in {
        name for action in DomainAction for table in events.subscribers(action) for name in table
    }


def test_a_module_whose_reader_is_misspelt_fails_when_it_is_imported():
    source = "from core import events\n\n@events.reader('round.sarted')\ndef live(domain_event):\n    pass\n"
    with pytest.raises(ValueError, match="did you mean 'round.started'"):
        exec(compile(source, "misspelt_readers.py", "exec"), {})


def test_the_constants_and_the_names_are_interchangeable_where_a_name_is_asked():
    assert events.subscribers("result.entered") == events.subscribers(DomainAction.RESULT_ENTERED)
    recorded = events.record(action="ratings.updated", event=None)
    assert recorded.action == DomainAction.RATINGS_UPDATED and type(recorded.action) is str  # plain, as stored


def test_whether_an_action_is_audited_is_the_catalogues_to_say():
    event = EventFactory()
    assert events.record(action=DomainAction.RATINGS_UPDATED, event=event).audited is False
    assert events.record(action=DomainAction.EVENT_FINISHED, event=event).audited is True
    with pytest.raises(ValueError, match="'ratings.updated' is not audited"):
        events.record(action=DomainAction.RATINGS_UPDATED, event=event, audit=True)
    with pytest.raises(ValueError, match="'event.finished' is audited"):
        events.record(action=DomainAction.EVENT_FINISHED, event=event, audit=False)
    assert list(AuditEntry.objects.filter(event=event).values_list("action", flat=True)) == ["event.finished"]


def test_every_action_is_named_once_as_entity_dot_verb():
    assert len(BY_NAME) == len(DomainAction.__members__), "two constants share a name: the second is an alias"
    for constant, action in DomainAction.__members__.items():
        assert re.fullmatch(r"[a-z_]+\.[a-z_]+", action), action
        assert constant == action.value.upper().replace(".", "_"), f"{constant} = {action.value!r}"
