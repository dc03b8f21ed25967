"""The doors onto leagues, seasons, players' ratings and the registrations whose archetypes organisers name
(:mod:`core.doorway`); the event doors are :mod:`tournaments.doors`.

A private league is hidden (the same 404 as a league that does not exist) from everyone but its staff and the
players of its events; changing one is its organisers' (the policy's sentence otherwise).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

from core.doorway import Door
from leagues import selectors
from leagues.models import League, Season
from tournaments import policy
from tournaments.models import Player, Registration


def _hidden_league(request: Any, league: League) -> bool:
    return not selectors.league_visible(user=request.user, league=league)


def _hidden_season(request: Any, season: Season) -> bool:
    return _hidden_league(request, season.league)


#: A league, to those who may read it.
LEAGUE: Door[League] = Door(gettext_noop("League"), lambda pk: selectors.leagues().get(pk=pk), hidden=_hidden_league)

#: A league, for its organisers (settings, seasons, points tables, staff).
MANAGED_LEAGUE: Door[League] = LEAGUE.asking(lambda request, league: policy.league_refusal(request.user, league))

#: A season, with its league, to those who may read the league.
SEASON: Door[Season] = Door(gettext_noop("Season"), lambda pk: selectors.seasons().get(pk=pk), hidden=_hidden_season)

#: A season of a league its door let the request into (``league, season_id``).
SEASON_OF_LEAGUE: Door[Season] = Door(
    gettext_noop("Season"), lambda league, pk: selectors.seasons().get(pk=pk, league=league)
)

#: A player, for their ratings.
PLAYER: Door[Player] = Door(gettext_noop("Player"), lambda pk: selectors.players().get(pk=pk))

#: A registration of the event (``event_id, registration_id``) with its event and player, its deck to name.
REGISTRATION: Door[Registration] = Door(
    gettext_noop("Registration"), lambda event_id, pk: selectors.registrations(event_id=event_id).get(pk=pk)
)
