"""The pairing engine: who sits with whom in the next round.

Pure Python: plain records keyed by id in, plain records out; no Django.  The
round service (``tournaments.services.round_start``) builds the inputs from
the event's history and writes the answer back in one transaction.

Terms
=====

table
    Where one match is played.  A 1v1 table has two seats; a *pod* is a table
    of more than two (a format's :class:`~rules.base.TableSize` says
    how many: any size in ``[min, max]``, ``preferred`` first).
seat
    A place at a table.  Seat 1 goes first in a pod; in 1v1 seat 1 is simply
    the player higher in the standings (play/draw is decided at the table).
bye
    A round without a table: the player scores as a win.  Byes exist because
    the field does not split into legal tables (an odd 1v1 field, pod
    leftovers), or because the organiser assigned one.
point group
    The entrants on the same match points.
rematch / repeat pair
    Two players at the same table who have met before (at any table, in any
    seat).  :attr:`Pairing.rematches` counts such pairs.
rank
    The current standing position, 1 = best; 0 = unknown, tied last.

Contract
========

::

    pair_round(
        entrants, *, table_size, round_number, seed,
        fixed_tables=None,     # {entrant id: table number the player must sit at}
        assigned_byes=(),      # entrant ids the organiser gave a bye this round
        leftovers="tables",    # pods only: "tables" or "byes"
        seeding="random",      # round 1: "random", or "rating" (by each entrant's rank)
    ) -> Pairing

1. Dropped entrants are ignored (never seated, never given a bye); every
   active entrant appears exactly once, at a table or as a bye.  The result is
   deterministic: the same entrants (in any order), arguments and seed give
   the same pairing.  All randomness comes from one ``random.Random(seed)``.
2. ``assigned_byes``: the organiser's byes.  Those players are taken out
   first and everything below applies to the rest (the *players to pair*)
   exactly as if they were the whole field: so a round can hold an
   engine-chosen bye as well.  :attr:`Pairing.byes` lists both kinds.
   Every id must be an active entrant's.  If nobody is left, everyone has a
   bye and there are no tables.
3. Round 1: random tables (seeded), largest first; points and history are
   not consulted.  Byes go to random players among those with the fewest
   byes so far.  With ``seeding="rating"`` the tables are seeded by ``rank``
   (the player's place by rating: 1 = highest, 0 = unrated, after everyone
   rated, at random among themselves): in 1v1 the top half meets the bottom
   half (1st v (n/2 + 1)th ..., table 1 first); pods are dealt in a snake
   (the best player of each tier to table 1, 2, ... then back), so the
   strongest players are spread over the tables.  Byes as above.
4. Later rounds, 1v1 (:mod:`.swiss`): Swiss.  Never a rematch when the
   remaining players can be paired without one (guaranteed: the result is an
   exact optimum of the objective below, which weighs rematches first, proved
   for each round by a lower bound it meets); otherwise the fewest rematches
   possible.  Pair within point groups, pairing down as little and as close
   as possible (cost: squared point difference), random within a group.  An
   odd field gets exactly one bye: to a player with the fewest byes (never a
   second bye while an active player has none), the lowest ranked of them
   (highest rank number, then fewest points), skipping a candidate whose bye
   would force a rematch another candidate avoids.  Table 1 holds the
   highest-points pair.
5. Later rounds, pods (:mod:`.pods`): table sizes from :func:`pod_sizes`; byes
   to the lowest-ranked players among those with the fewest byes; then pods
   minimising repeat pairs first, point spread within pods (squared point
   differences of every pair) second.  Optimal by exhaustive search for up to
   twelve players; above that a seeded local search from the score-ordered
   chunking, which is never worse than the chunking but is not a proof
   (above 64 players it works only on the pods that hold a repeat and their
   neighbours, widening to the whole field when it must).  Larger pods
   first; smaller pods at the bottom.
   Seat 1 goes to a player who has gone first least often, the other seats at
   random.
6. ``leftovers`` (pods only; ignored in 1v1): ``"tables"`` (the default) seats
   everyone it can, in smaller tables when the numbers do not divide (two
   threes rather than a bye).  ``"byes"`` never seats a table below
   ``preferred``: the sizes are ``pod_sizes(n, TableSize(preferred, max,
   preferred))`` and the players left over get byes by the usual rule, in
   round 1 too.  A table then needs at least ``preferred`` players.
7. :func:`pod_sizes` (:mod:`.sizes`): fewest byes, then fewest tables larger
   than ``preferred``, then smallest sum of squared deviations from
   ``preferred``.  Never a table below ``min``, so never a table of one (nor of
   two when ``min`` is 3).
8. ``fixed_tables``: the pairing is made as if there were none; then the
   tables are numbered.  In ascending order of the number asked for, each
   fixed player's table takes that number, unless another fixed player at the
   same table already gave it one (the later request is not honoured).  Every
   other table takes the smallest number still free, 1, 2, 3 ..., in the
   pairer's top-down order.  A number may exceed the number of tables (the
   venue's table 40).  :attr:`Pairing.tables` is in number order.  A fixed
   player with a bye simply has the bye; fixed numbers of players who are not
   active are ignored.
9. :class:`PairingError` for no active entrants, fewer players to pair than one
   table needs (but not none: see 2), duplicate ids, an assigned bye for
   anyone who is not an active entrant, a fixed table number that is not an
   integer of at least 1 or that two active players share, an unknown
   ``leftovers``, and arguments of the wrong type or range.  Unknown keyword
   options are rejected by Python itself (``TypeError``).

The objective
=============

:attr:`Pairing.objective` is the integer the engine minimises (lower is
better), computed on the returned pairing over the players to pair (assigned
byes and dropped entrants left out), so a stored value can be checked again
from the pairing and the entrants:

* 1v1 (any round): :func:`.swiss.swiss_objective` -- for each table
  ``(points_a - points_b) ** 2 + REMATCH * [a and b have met]``, plus
  ``BYE_STEP * place(bye)`` for the engine's bye, with ``BYE_STEP`` and
  ``REMATCH`` derived from the field as stated in :mod:`.swiss`.  Round 1 is
  scored by the same function, though it does not optimise it.
* pods (any round): :func:`.pods.pod_objective` over the seated players --
  ``repeats * (BOUND + 1) + spread``, where ``repeats`` counts pairs at one
  table who had met, ``spread`` sums ``(points_a - points_b) ** 2`` over every
  pair at one table, and ``BOUND = (pairs seated together) * (highest - lowest
  points seated) ** 2`` is above any spread those tables could have, so
  repeats weigh first.  The tie-break on displacement (:mod:`.pods`) is not
  part of it.

Reasons
=======

:attr:`Pairing.reasons` maps every active entrant's id (in id order) to a
tuple of codes from :data:`REASON_CODES`, a fixed vocabulary the service
turns into text.  The main code comes first:

``first_round``
    seated in round 1, at random.
``same_points``
    1v1: the opponent has the same points; pods: everyone at the table has.
``paired_down`` / ``paired_up``
    1v1: the player has more / fewer points than the opponent.
``mixed_points``
    pods: the points at the table differ (a pod of two included).
``bye``
    the engine's bye (odd field, pod leftovers): the lowest ranked among
    those with the fewest byes (round 1: random among those with the fewest).
``bye_assigned``
    the organiser's bye.

``seeded_by_rating``
    after ``first_round``: round 1 was seeded by rating.

then, when they apply, ``rematch`` (the player sits with someone they have
met before: after round 1 the engine avoids that whenever it can, provably
in 1v1 and in pod fields of up to twelve, by local search in larger pod
fields; round 1 does not look at history) and ``fixed_table`` (the table
carries the number the player was fixed to).
"""

from __future__ import annotations

from tournaments.pairing.engine import SEEDINGS, pair_round
from tournaments.pairing.sizes import pod_sizes
from tournaments.pairing.types import REASON_CODES, Entrant, Pairing, PairingError, Table

__all__ = ["REASON_CODES", "SEEDINGS", "Entrant", "Pairing", "PairingError", "Table", "pair_round", "pod_sizes"]
