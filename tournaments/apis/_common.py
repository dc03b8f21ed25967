"""What every module of the API looks up first: the event, a registration of it; and the database's limits
on the numbers they take."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from core.api import MAX_INT, MAX_SMALLINT
from tournaments import selectors
from tournaments.models import Event, Registration
from tournaments.selectors import people as people_selectors

#: Table numbers are stored as ``integer``: a fixed table beyond this would fail in the database.
MAX_TABLE = MAX_INT
#: Round numbers are stored as ``smallint``.
MAX_ROUND = MAX_SMALLINT


def _event(event_id: int) -> Event:
    return get_object_or_404(selectors.events_with_organiser(), pk=event_id)


def _registration(event_id: int, registration_id: int) -> Registration:
    return get_object_or_404(people_selectors.registrations_with_player(event_id=event_id), pk=registration_id)
