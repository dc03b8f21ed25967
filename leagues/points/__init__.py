"""League points: what a season's events are worth to each player, and the season standings.

A pure engine like :mod:`tournaments.standings`: plain records keyed by ids in,
plain records out, no Django.  The season service loads every event of a
season in bulk, builds :class:`EventResult` values, calls
:func:`season_standings` and stores what it returns.

Terms
=====

**Season.**  A run of a league's events (weekly league nights, say) whose
results add up to one standings table: the season champion is its first line.

**Placing.**  A player's final place at one event, the top cut counted
(:func:`final_placings`): the cut's winner is 1st, the other players of the
final table next, then the players knocked out a round earlier, and so on;
everyone else keeps their Swiss rank.  Places are shared competition style
("1, 2, 3, 3, 5").

**Points table** (:class:`PointsTable`).  What an event is worth, the sum of
four parts a season chooses (each may be zero):

* *placement*: points by final placing, as bands (``((1, 15), (2, 12), (4,
  10), (8, 8))``: 1st 15, 2nd 12, 3rd-4th 10, 5th-8th 8, below that 0);
* *match_win* / *match_draw*: per 1v1 match won or drawn in the Swiss rounds
  (a bye is a won match);
* *pod_placement*: per pod played in the Swiss rounds, by the player's place
  at the table (``(4, 3, 2, 1)``: 1st 4 ... 4th 1); players sharing a place
  share the points of the places they cover (two sharing 1st of ``(4, 3, 2,
  1)`` get 3 each, rounded down); a bye is a 1st place;
* *attendance*: for playing the event at all.

The top cut counts through the placing only, never per match, so a cut
match is not paid twice.

**Best N** (``PointsTable.best_n``).  Only the player's N best events count
towards their total (``None``: all of them).  Every event played still counts
as *played*.

**Season standings** (:class:`SeasonLine`), best first by:

1. points (the counted events' sum);
2. events played (more is better: attendance is rewarded);
3. average placing over every event played (lower is better, rounded to 4
   decimals before comparing);
4. head-to-head, only between exactly two players still tied: the one who
   finished ahead of the other at more of the tables where they met (a 1v1
   match or a pod, Swiss or cut, any event of the season) is ahead and both
   say ``head_to_head=True``.  Where they never met, or broke even, it does
   not exist and they share the rank.

Players still tied share the rank and are listed by player id.

Contract
========

:func:`season_standings` and :class:`PointsTable` reject input they cannot
make sense of with ``ValueError``: negative points, bands out of order, a
``best_n`` below 1, a player listed twice at one event, a placing below 1.
The output does not depend on the order of the events or of their players.
It runs in time linear in the number of (player, event) entries plus the
tables read for head-to-head, and only when two players are tied.
"""

from __future__ import annotations

from leagues.points.placings import CutTable, final_placings
from leagues.points.season import EventResult, PlayerEvent, SeasonLine, event_points, season_standings
from leagues.points.tables import PRESETS, PointsTable, Preset, preset

__all__ = [
    "PRESETS",
    "CutTable",
    "EventResult",
    "PlayerEvent",
    "PointsTable",
    "Preset",
    "SeasonLine",
    "event_points",
    "final_placings",
    "preset",
    "season_standings",
]
