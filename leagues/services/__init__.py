"""Every state change of the leagues app goes through a function here (keyword-only, ``<entity>_<action>``).

Each asks :mod:`tournaments.policy` whether the caller may act, checks the
rules, writes in one transaction and records what it did as a domain event
(:mod:`core.events`); season standings and ratings follow as readers
(:mod:`leagues.readers`) and Celery tasks (:mod:`leagues.tasks`).

* :mod:`.leagues` - leagues, their staff, seasons, points tables and the events attached;
* :mod:`.seasons` - computing and storing a season's standings;
* :mod:`.ratings` - rating every table of a format in play order, incrementally or from a table on;
* :mod:`.meta` - the organiser's name for a deck's archetype.
"""

from leagues.services.leagues import (
    league_create,
    league_staff_add,
    league_staff_remove,
    league_update,
    season_create,
    season_event_add,
    season_event_remove,
    season_update,
)
from leagues.services.meta import archetype_name_set
from leagues.services.ratings import ratings_recompute, ratings_update
from leagues.services.seasons import season_standings_recompute

__all__ = [
    "archetype_name_set",
    "league_create",
    "league_staff_add",
    "league_staff_remove",
    "league_update",
    "ratings_recompute",
    "ratings_update",
    "season_create",
    "season_event_add",
    "season_event_remove",
    "season_standings_recompute",
    "season_update",
]
