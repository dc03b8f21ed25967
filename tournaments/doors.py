"""The doors onto events and registrations (:mod:`core.doorway`): what a page or API view loads from its URL, and
which of the policy's questions it asks before it goes on.

``enter(request, doors.event(Action.PAIR_ROUNDS), event_id)`` is the event, for a user who may pair its rounds;
``doors.event()`` asks if they are on the event's staff at all (its dashboard); ``doors.EVENT`` asks nothing (the
public pages, and API views whose service asks the policy itself).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext_noop

from core import language
from core.doorway import Door
from rules import Format, UnknownFormat, get_format
from tournaments import policy, selectors
from tournaments.models import Event, KeepApart, Penalty, Pod, Registration, Round
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors
from tournaments.selectors import standings as standings_selectors


def _event(event_id: int) -> Event:
    return selectors.events_with_organiser().get(pk=event_id)


def _registration(event_id: int, registration_id: int) -> Registration:
    return people_selectors.registrations_with_player(event_id=event_id).get(pk=registration_id)


def _format(slug: str) -> Format:
    try:
        return get_format(slug)
    except UnknownFormat:
        raise ObjectDoesNotExist from None


#: A format (``slug``): its rules page, its leaderboard.
FORMAT: Door[Format] = Door(gettext_noop("Format"), _format, missing=gettext_noop("No format is called {0!r}."))

#: The event, to anyone; on its public pages, in its default language (:mod:`core.language`).
EVENT: Door[Event] = Door(gettext_noop("Event"), _event, entered=language.event_entered)


def _event_by_id(event_id: int) -> Event:
    return Event(pk=event_id)


#: The event by its id alone, not read here: for an API write whose service reads the event itself, locked, and
#: asks the policy (a staff result, the hottest write of a big event: the row was read twice).  A missing event is
#: the service's 404, the same as this door's ("Event 12 does not exist."); the view answers from the event the
#: service read.
EVENT_READ_BY_SERVICE: Door[Event] = Door(gettext_noop("Event"), _event_by_id)


def _phase(event: Event, number: int) -> standings_selectors.PhaseRow:
    rows = standings_selectors.event_phases(event=event)
    if not 1 <= number <= len(rows):
        raise ObjectDoesNotExist
    return rows[number - 1]


#: Phase ``number`` of the event (``event, number``), with where it stands.
PHASE: Door[standings_selectors.PhaseRow] = Door(
    gettext_noop("Phase"), _phase, missing=gettext_noop("The event has no phase {1}."), code="phase_not_found"
)


#: The event, once its decklists are published (before, nothing hidden is exported: the same 404).
PUBLISHED_DECKLISTS: Door[Event] = Door(
    gettext_noop("Event"), _event, hidden=lambda request, obj: not obj.decklists_public
)


@cache
def event(*actions: Action) -> Door[Event]:
    """The event, for a user who may take one of ``actions`` there (none named: a member of its staff)."""

    def refusal(request: Any, obj: Event) -> str | None:
        return policy.refusal(request.user, obj, *actions)

    return EVENT.asking(refusal)


#: A registration of the event (``event_id, registration_id``), to anyone.
REGISTRATION: Door[Registration] = Door(gettext_noop("Registration"), _registration)

#: A registration whose deck the user may submit: its player, and the event's organisers.
DECK: Door[Registration] = REGISTRATION.asking(lambda request, obj: policy.deck_refusal(request.user, obj))

#: A registration whose decklist the user may read (published, their own, or staff who see hidden ones).
DECKLIST: Door[Registration] = REGISTRATION.asking(lambda request, obj: policy.decklist_refusal(request.user, obj))


# --- what an event's URLs name under it: looked up once the event's door let the request in -------------------


def _table(event: Event, number: int, table: int) -> Pod:
    return selectors.event_table(event=event, number=number, table=table).get()


#: Table ``table`` of round ``number`` (``event, number, table``), with its round and seats.
TABLE: Door[Pod] = Door(gettext_noop("Table"), _table)

#: Round ``number`` of the event (``event, number``).
ROUND: Door[Round] = Door(
    gettext_noop("Round"),
    lambda event, number: selectors.rounds_of(event=event).get(number=number),
    # A staged round is the staff's until it is published: to anyone else it does not exist yet.
    hidden=lambda request, round_: (
        not round_.published and not policy.can(request.user, Action.USE_DASHBOARD, round_.event)
    ),
)

#: A penalty of the event (``event, penalty_id``), with its player.
PENALTY: Door[Penalty] = Door(
    gettext_noop("Penalty"), lambda event, pk: people_selectors.penalties_with_player(event=event).get(pk=pk)
)

#: A keep-apart pair of the event (``event, pair_id``).
KEEP_APART: Door[KeepApart] = Door(
    gettext_noop("Keep-apart pair"), lambda event, pk: people_selectors.keep_apart_pair(event=event, pair_id=pk)
)

#: A penalty of the event (``event, penalty_id``), with its event.
PENALTY_OF_EVENT: Door[Penalty] = Door(
    gettext_noop("Penalty"), lambda event, pk: people_selectors.penalties_with_event(event=event).get(pk=pk)
)
