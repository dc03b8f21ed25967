"""Standings and tiebreakers: who is ahead after the results reported so far.

This package is a pure engine: it takes plain dataclasses keyed by player id
and returns plain dataclasses.  It imports nothing from Django, so it can be
called after every reported result, tested without a database and
benchmarked on its own.  A service loads the results in bulk, builds
:class:`TableResult` values, calls :func:`compute_standings` and stores what
it returns.

Terms
-----

**Table / pod / seat.**  Players who played one another in a round sat at one
*table*; a table of more than two players is a *pod*.  Each player at a table
has one *seat* (:class:`SeatResult`).

**Match.**  One table a player sat at in one round, whatever the number of
games played there (a best-of-three is one match).  ``Standing.matches``
counts matches including byes.

**Bye.**  A round a player did not play because nobody was left to pair them
with.  It is a :class:`TableResult` with exactly one seat, placement 1, not
shared.  A bye scores ``scoring.bye_points`` and counts both as a win and as
a bye (``Standing.byes`` is included in ``Standing.wins``).  A bye has no
opponent.

**Placement.**  1 = won the table.  Players who finish level share a
placement and each of their seats says ``shared=True``; players sharing first
place *drew*.  Outcome of a (non-bye) seat: *win* = placement 1 not shared,
*draw* = placement 1 shared, *loss* = anything else (2nd of a pod is a loss
in the win/draw/loss record even though it may earn points).

**Match points.**  What a seat earns: ``scoring.bye_points`` for a bye,
otherwise ``scoring.points_for(table_size=len(seats), placement=...,
shared=...)`` (see :class:`rules.base.Scoring`).  A player's match
points are the sum over their seats; they are the first sort key.

**Match-win percentage (MWP)** in the default ``"classic"`` convention (the
others are under *Conventions* below).  Match points earned in matches that
were not byes, divided by ``scoring.win_points`` times the number of such
matches; raised to ``win_pct_floor`` (25 % by default) and capped at 1.0.  A
player with no non-bye match gets the floor.  Byes are left out: a bye says
nothing about how strong a player is, so it must not make their opponents
look stronger.  The floor stops a player who lost everything from punishing
the people who happened to beat them.

**Games.**  A 1v1 seat may carry ``games=(won, lost, drawn)``, the games of
the match (a best-of-three won 2-1 is ``(2, 1, 0)``); only the game-win
tiebreakers read them.

**Opponents.**  Everyone else who sat at a table with the player; in a pod,
every pod-mate.  An opponent met twice counts twice: the tiebreakers average
over meetings, not over distinct people.

**Tiebreakers** (all averages over the opponents, meeting by meeting; a player
with no opponent gets 0.0, not the floor: someone who only had byes has
faced no resistance):

* *OMW%* - mean of the opponents' MWP (each already floored and capped).
* *OOMW%* - mean of the opponents' OMW%.
* *Opponents' average points* (pods only, ``multiplayer=True``) - mean of each
  opponent's match points per match played (byes included; 0 for an opponent
  with no match).  In a pod the winner's points say more than whether an
  opponent "won", so this comes before OMW%.  For 1v1 events it is reported
  as 0.0.  Pages show it as a percentage of a win's points (``opp_avg_points
  / scoring.win_points``), the "opponents' average points %".  Byes: a bye
  scores ``bye_points`` for the opponent who had it (a round they could not
  play is not held against the people they met) and gives the player who had
  it no opponent.  3-pods: every pod size is scored by the format's table for
  that size (winner 3, runner-up 1 in pods of 3 or 4 alike), so points per
  match from a 3-pod and a 4-pod are averaged together as they are.
* *GW%* - game points (3 a game won, 1 a game drawn) / (3 x games played),
  not floored.  A match whose seats carry no ``games`` counts as one game
  won, lost or drawn; a bye counts as won 2-0.  *OGW%* - mean of the
  opponents' GW%, each floored at 0.33.  Every 1v1 event publishes both;
  only the Magic convention ranks on them.  Pods publish 0.0 (a pod has no
  game score).
* *Late entry* (Pokémon, 1v1) - ``late_rounds`` (player -> rounds missed by
  entering late): each missed round is a loss in the record and the MWP (and,
  in pods, a round without points in the player's points per round), whatever
  the convention.  Under the Pokémon convention, in 1v1 events only, a late
  player also ranks below the players on the same points (fewer rounds missed
  first): the Play! Pokémon late penalty is a tiebreaker of 1v1 Swiss, and
  pods rank on their own figures.
* *Head-to-head* (Pokémon) - the last tiebreaker, and only between exactly
  two players tied on everything before it: the one who won more of their
  matches against the other is ahead, the two no longer share a rank, and
  both say ``head_to_head=True``.

Percentages and the average are rounded to 6 decimals, and the order is
decided on those rounded figures, so two players whose published numbers are
equal really are tied.

**Conventions.**  ``convention`` selects which tiebreakers follow match
points and their constants (:class:`TiebreakConfig`; presets in
:mod:`tournaments.standings.tiebreakers`, sources in
``tests/tournaments/test_tiebreakers.py``):

* ``"classic"`` (the default: what Podium has always computed): the MWP
  above, then OMW%, OOMW%.
* ``"pokemon"``: late entry, OMW%, OOMW%, head-to-head; the MWP there is the
  Pokémon "win %": (wins + ties / 2) / rounds played, byes left out, floor
  25 %, capped at 75 % for a player who dropped.
* ``"magic"`` (Magic Tournament Rules, Appendix C): OMW%, GW%, OGW%; MWP =
  match points / (3 x rounds played), byes counted as won matches, floor 0.33.

``win_pct_floor`` overrides the MWP floor of any of them.  Every figure is
published whether or not the convention ranks on it, except those that have
no meaning at the table: opponents' average points is 0.0 in 1v1 events, the
game-win figures are 0.0 in pods.

**Order.**  Best first, by the key, descending:

* pods (``multiplayer=True``), whatever the convention: points, opponents'
  average points, OMW%, OOMW% (no late-entry penalty, no head-to-head);
* 1v1: points, then the convention's tiebreakers.

Players with identical keys share a rank, competition style ("1, 2, 2, 4"),
and are listed by player id among themselves so the output is deterministic.
Dropped players stay in the standings with ``dropped=True``: their results
still count for their opponents' tiebreakers.  Players with no results yet
appear with zeros.  The output does not depend on the order of
``player_ids``, ``results`` or the seats within a table.

Contract
--------

:func:`compute_standings` rejects input it cannot make sense of with
``ValueError`` rather than guessing: a player id that is not in
``player_ids`` (in a result, in ``dropped`` or in ``late_rounds``), a
duplicate in ``player_ids``, an empty table, a player seated twice at one
table, a bye that is not "placement 1, not shared", a ``shared`` flag that
disagrees with the placements at its table, a placement or table size the
scoring does not know, a floor outside ``[0, 1]``, an unknown convention or
tiebreaker, a negative number of missed rounds, a game score that is not
three whole numbers >= 0, two seats whose game scores are not each other's
mirror, and game scores at a pod.  It runs in time linear in the number of seats (times
the table size for pods).
"""

from __future__ import annotations

from tournaments.standings.engine import (
    SeatResult,
    Standing,
    TableResult,
    compute_standings,
    resolve_convention,
    seat_points,
)
from tournaments.standings.tiebreakers import (
    CLASSIC,
    CONVENTIONS,
    MAGIC,
    POKEMON,
    TiebreakConfig,
    game_points,
    game_win_pcts,
    head_to_head,
    match_win_pcts,
    opponent_means,
)

__all__ = [
    "CLASSIC",
    "CONVENTIONS",
    "MAGIC",
    "POKEMON",
    "SeatResult",
    "Standing",
    "TableResult",
    "TiebreakConfig",
    "compute_standings",
    "game_points",
    "game_win_pcts",
    "head_to_head",
    "match_win_pcts",
    "opponent_means",
    "resolve_convention",
    "seat_points",
]
