"""The doors onto stream stations, overlay tokens and a round's clock and tables (:mod:`core.doorway`); the event
doors are :mod:`tournaments.doors`."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from core.doorway import Door
from live import selectors
from live.models import OverlayToken, Station
from tournaments import selectors as tournament_selectors
from tournaments.models import Event, Pod, Round


def _station(event: Event, slug: str) -> Station:
    station = selectors.station_of(event=event, slug=slug)
    if station is None:
        raise Station.DoesNotExist
    station.event = event
    return station


def _token(event: Event, token_id: int) -> OverlayToken:
    token = selectors.token_by_id(event=event, token_id=token_id)
    if token is None:
        raise OverlayToken.DoesNotExist
    token.event = event
    return token


def _round(event: Event, number: int) -> Round:
    round_ = tournament_selectors.round_get(event=event, number=number)
    if round_ is None:
        raise Round.DoesNotExist
    return round_


def _table(event: Event, number: int, table: int) -> Pod:
    round_ = _round(event, number)
    pod = tournament_selectors.round_table(round_=round_, table=table)
    if pod is None:
        raise Pod.DoesNotExist
    pod.round = round_
    return pod


#: A station of the event (``event, slug``), knowing its event.
STATION: Door[Station] = Door(
    gettext_noop("Station"),
    _station,
    missing=gettext_noop("Event {0.pk} has no station {1!r}."),
    code="station_not_found",
)

#: An overlay token of the event (``event, token_id``), knowing its event.
TOKEN: Door[OverlayToken] = Door(
    gettext_noop("Overlay token"), _token, missing=gettext_noop("Event {0.pk} has no overlay token {1}.")
)

#: Round ``number`` of the event, once paired (``event, number``): its clock.
ROUND: Door[Round] = Door(
    gettext_noop("Round"), _round, missing=gettext_noop("Round {1} has not been paired."), code="round_not_found"
)

#: Table ``table`` of round ``number`` (``event, number, table``), knowing its round: its extra time.
TABLE: Door[Pod] = Door(gettext_noop("Table"), _table, missing=gettext_noop("Round {1} has no table {2}."))
