"""Ratings: a skill estimate per player and format, from every table result, with OpenSkill.

A pure engine: plain records keyed by ids in, plain records out, no Django.
It wraps the ``openskill`` package's Plackett-Luce model (Weng and Lin's
Bayesian approximation), which rates free-for-all games of any number of
players, ties included, so a 1v1 match and a pod of four are rated by the
same rule.

Terms
=====

**Rating** (:class:`Rating`).  ``mu``, the estimated skill, and ``sigma``, how
unsure that estimate is; a new player starts at the model's defaults (25 and
25/3).  ``games`` counts the tables rated.

**Displayed rating** (:func:`conservative`).  ``mu - 3 * sigma``: a rating the
player is very likely to be at least as good as.  A new player shows 0; it
rises as wins come in and as ``sigma`` shrinks with every game.  Leaderboards
list only players with at least a minimum number of games.

**Rated table** (:class:`RatedTable`).  One table's result: each player's
placement (1 = won; equal placements share a place: a drawn match, a pod's
shared place), in the order it was played (``key``, ascending: event date,
event, round, table, in a form the caller makes sortable).  Byes and
intentional draws are not tables that were played, and are not rated.

**Update.**  Rating a table moves the ratings of the players at it, and of
nobody else: tables of one round never share a player, so rating them in any
order gives the same figures; rounds and events are rated in the order they
were played (:func:`replay` sorts by ``key``).

Contract
========

* :func:`rate_table` rates one table from the ratings before it; the same
  inputs always give the same output (the model is deterministic).
* :func:`replay` rates tables in ``key`` order from the given starting
  ratings.  Replaying from scratch, and applying the same tables one by one
  (each from the stored result of the one before), give the same ratings:
  the stored figures are full-precision floats, so nothing is lost on the way.
  Recomputing from a table on means replaying from the ratings every player
  had just before it (:class:`Change` keeps them).
* :func:`replay_into` is :func:`replay` one table at a time (a generator of
  the changes, keeping the caller's ratings up to date as it goes), so a
  caller can store the changes while the next tables are rated.
* ``ValueError`` for a table with fewer than two players, a player seated
  twice, or a placement below 1.
"""

from __future__ import annotations

from leagues.ratings.engine import (
    DEFAULT,
    MU,
    SIGMA,
    Change,
    RatedTable,
    Rating,
    conservative,
    rate_table,
    replay,
    replay_into,
)

__all__ = [
    "DEFAULT",
    "MU",
    "SIGMA",
    "Change",
    "RatedTable",
    "Rating",
    "conservative",
    "rate_table",
    "replay",
    "replay_into",
]
