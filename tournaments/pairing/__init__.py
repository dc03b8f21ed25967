"""The pairing engine: who sits with whom in the next round.

Pure Python: plain records keyed by id in, plain records out; no Django.  The
round service (``tournaments.services.round_start``) builds the inputs from
the event's history and writes the answer back in one transaction.

Terms
=====

table
    Where one match is played.  A 1v1 table has two seats; a *pod* is a table
    of more than two (a format's :class:`~games.formats.base.TableSize` says
    how many: any size in ``[min, max]``, ``preferred`` first).
seat
    A place at a table.  Seat 1 goes first in a pod; in 1v1 seat 1 is simply
    the player higher in the standings (play/draw is decided at the table).
bye
    A round without a table: the player scores as a win.  Byes exist because
    the field does not split into legal tables (an odd 1v1 field, pod leftovers).
point group
    The entrants on the same match points.
rematch / repeat pair
    Two players at the same table who have met before (at any table, in any
    seat).  :attr:`Pairing.rematches` counts such pairs.
rank
    The current standing position, 1 = best; 0 = unknown, tied last.

Contract
========

``pair_round(entrants, *, table_size, round_number, seed) -> Pairing``

1. Dropped entrants are ignored (never seated, never given a bye); every
   active entrant appears exactly once, at a table or as a bye.  The result is
   deterministic: the same entrants (in any order), table size, round number
   and seed give the same pairing.  All randomness comes from one
   ``random.Random(seed)``.
2. Round 1: random tables (seeded), largest first; points and history are
   not consulted.  Byes go to random players among those with the fewest
   byes so far.
3. Later rounds, 1v1 (:mod:`.swiss`): Swiss.  Never a rematch when the
   remaining players can be paired without one (guaranteed: either the result
   is rematch-free or it comes from an exact optimal matching of the whole
   field); otherwise the fewest rematches possible.  Pair within point groups,
   pairing down as little and as close as possible (cost: squared point
   difference), random within a group.  An odd field gets exactly one bye: to
   a player with the fewest byes (never a second bye while an active player
   has none), the lowest ranked of them (highest rank number, then fewest
   points), skipping a candidate whose bye would force a rematch another
   candidate avoids.  Table 1 holds the highest-points pair.
4. Later rounds, pods (:mod:`.pods`): table sizes from :func:`pod_sizes`; byes
   to the lowest-ranked players among those with the fewest byes; then pods
   minimising repeat pairs first, point spread within pods (squared point
   differences of every pair) second.  Optimal by exhaustive search for up to
   twelve players; above that a seeded local search from the score-ordered
   chunking, which is never worse than the chunking but is not a proof.  Larger pods first; smaller pods at the bottom.
   Seat 1 goes to a player who has gone first least often, the other seats at
   random.
5. :func:`pod_sizes` (:mod:`.sizes`): fewest byes, then fewest tables larger
   than ``preferred``, then smallest sum of squared deviations from
   ``preferred``.  Never a table below ``min``, so never a table of one (nor of
   two when ``min`` is 3).
6. :class:`PairingError` for no active entrants, fewer active entrants than one
   table needs, duplicate ids, and arguments of the wrong type or range.
   Unknown keyword options are rejected by Python itself (``TypeError``).
"""

from __future__ import annotations

from tournaments.pairing.engine import pair_round
from tournaments.pairing.sizes import pod_sizes
from tournaments.pairing.types import Entrant, Pairing, PairingError, Table

__all__ = ["Entrant", "Pairing", "PairingError", "Table", "pair_round", "pod_sizes"]
