"""The doors onto judge calls, deck checks and judge assignments (:mod:`core.doorway`); the event doors are
:mod:`tournaments.doors`."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from core.doorway import Door
from floor import selectors
from floor.models import DeckCheck, JudgeAssignment, JudgeCall
from tournaments.models import Event


def _call(event: Event, call_id: int) -> JudgeCall:
    call = selectors.event_call(event=event, call_id=call_id)
    call.event = event
    return call


def _check(event: Event, check_id: int) -> DeckCheck:
    check = selectors.event_deck_check(event=event, check_id=check_id)
    check.event = event
    return check


def _assignment(event: Event, assignment_id: int) -> JudgeAssignment:
    assignment = selectors.event_assignment(event=event, assignment_id=assignment_id)
    assignment.event = event
    return assignment


#: A judge call of the event (``event, call_id``), knowing its event and its table's seats.
CALL: Door[JudgeCall] = Door(
    gettext_noop("Judge call"),
    _call,
    missing=gettext_noop("Event {0.pk} has no judge call {1}."),
    code="call_not_found",
)

#: A deck check of the event (``event, check_id``).
DECK_CHECK: Door[DeckCheck] = Door(
    gettext_noop("Deck check"),
    _check,
    missing=gettext_noop("Event {0.pk} has no deck check {1}."),
    code="deck_check_not_found",
)

#: A judge assignment of the event (``event, assignment_id``).
ASSIGNMENT: Door[JudgeAssignment] = Door(
    gettext_noop("Judge assignment"),
    _assignment,
    missing=gettext_noop("Event {0.pk} has no judge assignment {1}."),
    code="assignment_not_found",
)
