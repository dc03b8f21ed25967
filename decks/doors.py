"""The doors onto registered decks (:mod:`core.doorway`); the event and registration doors are
:mod:`tournaments.doors`."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from core.doorway import Door
from decks import selectors
from decks.models import DeckRecheck, DeckVersion
from tournaments.models import Registration


def _version(registration: Registration, number: int) -> DeckVersion:
    version = selectors.deck_versions_of(registration=registration).get(number=number)
    version.registration = registration
    return version


#: Version ``number`` of a registration's deck (``registration, number``), knowing its registration.
VERSION: Door[DeckVersion] = Door(gettext_noop("Deck version"), _version)


def _recheck(event_id: int) -> DeckRecheck:
    run = selectors.deck_recheck_latest(event_id=event_id)
    if run is None:
        raise DeckRecheck.DoesNotExist
    return run


#: The latest re-check of the event's decks (``event_id``).
RECHECK: Door[DeckRecheck] = Door(
    gettext_noop("Re-check"), _recheck, missing=gettext_noop("Event {0}'s decks have not been re-checked.")
)
