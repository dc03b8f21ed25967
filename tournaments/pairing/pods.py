"""Pod pairing (tables of more than two), rounds 2 onwards.

The round's table sizes come from :func:`~tournaments.pairing.sizes.pod_sizes`,
largest first; each size is a *slot*.  The byes go first (fewest byes so far,
then lowest ranked).  Everyone else is sorted by points, then rank, and
assigned to slots minimising, in order:

1. **repeat pairs**: two players in one pod who have met before;
2. **point spread**: the sum over pods of the squared point difference of
   every pair in the pod, so a pod of equals costs nothing and one outlier
   costs more than several near misses;
3. **displacement**: how far, in slots, players sit from where a plain
   score-ordered chunking would put them.  This keeps the strongest players
   on the top tables and the smaller pods at the bottom when the first two
   criteria do not care.

For up to :data:`EXHAUSTIVE_LIMIT` players every partition is searched
(branch and bound), so the result is provably optimal: no avoidable repeat,
then the smallest spread.  Larger fields start from the score-ordered chunking
and improve it by swaps between pods (local search):

* *repair*: every player sitting with an old opponent takes the best
  improving swap, looking at nearby pods first and the whole field if needed;
* *polish*: first-improvement swaps between every pod a swap touched and the
  pods near it, winning back spread the repairs gave up (above
  :data:`_FULL_POLISH` players only the pods with a conflict and those the
  repairs touch are polished, not the whole chunking);
* *kicks* (iterated local search, seeded): while repeats remain, or for spread
  in fields up to :data:`_SMALL_FIELD` players, a random swap of a repeat
  player (sometimes two swaps) followed by repair and polish; worse results
  are undone, the best state is kept.

Only the conflicts cost time: the players in a repeat are kept in a set that
every swap updates, swaps are scored from per-pod point sums (a delta, never
a whole pod again), and an undone kick rebuilds only the pods it swapped.

Above :data:`_SMALL_FIELD` players that search is not run on the whole field
(see :func:`_repair_chunking`): the chunking's pods are checked for repeats
with one set operation per player, a pod holding one is first mended by a
swap with a player on the same points in a nearby pod (the spread does not
move), and what that leaves is searched as above on a *segment*, the pods
around it, widened as needed up to the whole field.  At 10,000 players a
round has a few dozen such pods, so the round costs about what sorting the
field and writing out the tables cost.

The cost never goes up overall, so the result is never worse than the
chunking.  For larger fields it is a strong heuristic, not a proof (checked
against brute force in the tests up to 13 players).

Tables are numbered largest pod first (so smaller pods sit at the bottom),
then by average points, highest first.

The objective
=============

The first two criteria are what the round is judged by; displacement only
breaks ties between equally good pairings.  :func:`pod_objective` states them
as one integer, lexicographic, over the *seated* players (byes left out)::

    repeats   = repeat pairs: two players in one pod who had met before
    spread    = sum over pods of (p_a - p_b) ** 2 for every pair a, b in the pod
    BOUND     = (pairs seated together) * (highest points - lowest points) ** 2
    objective = repeats * (BOUND + 1) + spread

``pairs seated together`` is the sum of ``s * (s - 1) / 2`` over the table
sizes ``s``.  No pair in a pod differs by more than the points range, so the
spread of *any* arrangement of these players into these sizes is at most
``BOUND``, and one repeat outweighs every spread.  Everything in it can be
recomputed from the pairing and the entrants' points and histories.

Within a pod, seat 1 goes to a player who has gone first least often, the
other seats at random (see :func:`~tournaments.pairing.common.seat_order`).
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Collection, Mapping, Sequence
from heapq import heappop, heappush
from itertools import accumulate, batched, chain, compress, groupby, islice
from math import sumprod
from operator import attrgetter, neg
from typing import NamedTuple, cast

import numpy as np

from rules.base import TableSize
from tournaments.pairing.common import (
    History,
    build_history,
    bye_order,
    count_rematches,
    rank_key,
    seat_runs,
)
from tournaments.pairing.sizes import pod_sizes
from tournaments.pairing.types import Entrant, Pairing

__all__ = [
    "EXHAUSTIVE_LIMIT",
    "PodRound",
    "pair_pods",
    "seat_pods",
    "pod_objective",
    "pod_spread",
    "pod_sums_and_spreads",
    "pods_objective",
    "repeat_weight",
]

#: Fields up to this size are searched exhaustively: at most 15,400 partitions (12 players in
#: pods of three), a few hundredths of a second.  At 13 the worst case is seconds.
EXHAUSTIVE_LIMIT = 12

#: Pods on each side searched first when repairing a repeat, before the whole field.
_WINDOW = 3

#: Random kicks tried when a repair leaves repeats (and, in small fields, to lower the spread).
_KICKS = 150

#: Up to this many players kicks go on for spread once repeats are gone, and may swap with any pod.
_SMALL_FIELD = 64

#: Up to this many players the whole score-ordered chunking is polished; above it only the pods
#: with a conflict and those the repairs touch (the chunking is already ordered by points).
_FULL_POLISH = 2_000

#: Kicks spent on spread alone, in a small field with no repeats left.
_SPREAD_KICKS = 40

Cost = tuple[int, int, int]
_ZERO: Cost = (0, 0, 0)


class PodRound(NamedTuple):
    """A pod round as seated, with what the engine needs to explain it (see :func:`pair_pods`)."""

    #: The seats of each table, in table order.
    tables: list[tuple[int, ...]]
    #: The ids given a bye, in id order.
    byes: list[int]
    #: The ids of the seated players, in id order.
    seated: list[int]
    #: For each seated player (in the order of ``seated``), the index of their table in ``tables``.
    table_of: np.ndarray
    #: Every pair of players at one table who have met, either side's memory counting.
    repeats: list[tuple[int, int]]
    #: Each table's spread (see :func:`pod_spread`), in table order.
    spreads: list[int]


def pair_pods(
    active: Sequence[Entrant],
    *,
    table_size: TableSize,
    draws: np.ndarray,
    rng: random.Random,
    ids: list[int] | None = None,
) -> PodRound:
    """Pair a pod round after round 1 (see :class:`PodRound` for what it returns).

    ``active`` comes in id order, with the round's tie-break ``draws`` beside
    it (one per entrant, as :func:`~tournaments.pairing.common.tie_break`
    draws them) and, if the caller has them, their ``ids``, every one a
    plain ``int``.  ``table_size`` decides the sizes through
    :func:`pod_sizes`; with leftover byes (``leftovers="byes"``) the engine
    passes one whose ``min`` is ``preferred``.  The history is read from the
    entrants' ``opponents``, either side's memory counting (as
    :func:`~tournaments.pairing.common.build_history` has it); the repeat
    pairs returned are every pair of players at one table who have met, so
    the caller need not look at the history again.

    The players are held as columns in id order and the standings order as
    an index into them.  Records made one after another sit in memory in
    that order, and the records of a field are usually made in id order
    (``bench pairing`` makes them so; the round service makes them in the
    order of the registrations): a pass over ten thousand records, and
    their histories, in the order of the standings costs up to three times
    one in the order they were made, so only the pods that need work are
    looked at in standings order.
    """
    sizes, bye_count = pod_sizes(len(active), table_size)
    byes: list[int] = []
    seated = active
    plain = ids is not None
    if bye_count:
        tb = dict(zip([e.id for e in active], draws.tolist(), strict=True))
        byes = [e.id for e in bye_order(active, tb)[:bye_count]]
        sitting_out = set(byes)
        keep = [e.id not in sitting_out for e in active]
        seated = list(compress(active, keep))
        draws = draws[np.array(keep, dtype=bool)]
        ids = None
    if ids is None:
        ids = [e.id for e in seated]
    index, point_column, points = _standings_index(seated, draws)
    id_column = _id_column(ids, plain=plain)
    ids_std: list[int] = id_column[index].tolist()
    std: list[int] = []  # the standings as positions, read only where a pod is looked at in that order
    seating: list[int] | None  # standings positions, pod after pod; None: the chunking itself
    changed: Collection[int]  # the pods whose players may differ from the chunking's
    if len(seated) <= _SMALL_FIELD:
        std = index.tolist()
        order = list(map(seated.__getitem__, std))
        search = _PodSearch(order, sizes, build_history(order))
        if len(order) <= EXHAUSTIVE_LIMIT:
            search.exhaustive()
        else:
            search.improve(rng)
        seating, changed, clean = list(chain.from_iterable(search.members)), range(len(sizes)), not search.cost[0]
    else:
        seating, changed, std, clean = _repair_chunking(seated, index, ids_std, points, sizes, rng)
    starts = [0, *accumulate(sizes)]
    # From here on positions are into the columns (id order): pod after pod, then table after table.
    slots = index if seating is None else _reseated(index, seating, changed, starts)
    ranked, spreads = _table_order(slots, sizes, points if point_column is None else point_column)
    in_order = ranked == list(range(len(sizes)))
    table_sizes = sizes if in_order else [sizes[k] for k in ranked]
    in_tables = slots if in_order else _runs_in_order(slots, sizes, ranked)
    table_of = np.empty(len(seated), dtype=np.intp)
    table_of[in_tables] = np.repeat(np.arange(len(sizes)), table_sizes)
    repeats: list[tuple[int, int]] = []
    if not clean:  # the repeats left are in the pods that changed (the others had none)
        position = np.empty(len(sizes), dtype=np.intp)
        position[ranked] = np.arange(len(sizes))
        for k in sorted(changed, key=position.tolist().__getitem__):
            pod = seating[starts[k] : starts[k + 1]] if seating is not None else range(starts[k], starts[k + 1])
            for n, a in enumerate(pod):
                for b in pod[n + 1 :]:
                    if ids_std[b] in seated[std[a]].opponents or ids_std[a] in seated[std[b]].opponents:
                        repeats.append((ids_std[a], ids_std[b]))
    first_seats = [e.first_seats for e in seated]
    tables = seat_runs(in_tables, table_sizes, id_column, first_seats, rng)
    return PodRound(tables, sorted(byes), ids, table_of, repeats, spreads)


def _id_column(ids: list[int], *, plain: bool) -> np.ndarray:
    """The ids as an array to index with many positions at once: 64-bit integers where every id is a plain int
    that fits (what is read back out of it is then a new int of the same value), Python objects otherwise."""
    if plain:
        try:
            return np.fromiter(ids, dtype=np.int64, count=len(ids))
        except OverflowError:
            pass
    return np.fromiter(ids, dtype=object, count=len(ids))


def _reseated(index: np.ndarray, seating: list[int], changed: Collection[int], starts: list[int]) -> np.ndarray:
    """``index[seating]``: the seating as positions into the columns, with only the pods in ``changed`` looked at
    (the others hold the chunking's players, in its order)."""
    if len(changed) * 8 > len(starts):  # much of the field: all of it at once
        return index[np.fromiter(seating, dtype=np.intp, count=len(seating))]
    moved = [p for k in changed for p in range(starts[k], starts[k + 1])]
    slots = index.copy()
    slots[moved] = index[[seating[p] for p in moved]]
    return slots


def seat_pods(
    seated: Sequence[Entrant],
    seating: np.ndarray,
    sizes: Sequence[int],
    byes: list[int],
    rng: random.Random,
    *,
    plain: bool = False,
) -> PodRound:
    """Round 1's pods: ``seated`` (in id order) at tables filled in the order of ``seating`` (positions into
    ``seated``, table after table, ``sizes[k]`` at table ``k``, largest first), seated and explained.  ``plain``:
    every id is a plain ``int`` (see :func:`_id_column`)."""
    ids = [e.id for e in seated]
    tables = seat_runs(seating, sizes, _id_column(ids, plain=plain), [e.first_seats for e in seated], rng)
    table_of = np.empty(len(seated), dtype=np.intp)
    table_of[seating] = np.repeat(np.arange(len(sizes)), sizes)
    repeats: list[tuple[int, int]] = []
    if any(map(_OPPONENTS, seated)):  # round 1 of most events: nobody has met anyone
        for k in _flagged(tables, table_of.tolist(), seated):
            seats = tables[k]
            # The history of each player at the table, found by id in the id-ordered records.
            known = [seated[bisect_left(ids, p)].opponents for p in seats]
            for n, a in enumerate(seats):
                repeats += [(a, b) for m, b in enumerate(seats[n + 1 :], n + 1) if b in known[n] or a in known[m]]
    spreads = _table_order(seating, sizes, [e.points for e in seated], in_order=False)[1]
    return PodRound(tables, byes, ids, table_of, repeats, spreads)


def _flagged(pods: Sequence[Collection[int]], pod_of: Sequence[int], players: Sequence[Entrant]) -> list[int]:
    """The pods (indexes into ``pods``, ascending) where someone lists a pod-mate among their ``opponents``.

    ``pods`` hold ids; ``pod_of`` and ``players`` are the players' pods and
    records, in one order.  One set operation per player against the ids of
    their pod, in the order given (id order, see :func:`pair_pods`: at
    10,000 players in bench pairing's event, a third of the same pass in the
    order of the standings).  Either side's memory counts, since both sides
    are asked; someone listing themselves is a false alarm that the caller,
    looking at the pairs, finds nothing in.  A history given as another
    collection than a frozenset is read as one.
    """
    disjoint = cast(Callable[[Collection[int], Collection[int]], bool], frozenset.isdisjoint)
    try:
        # One byte per player, 1 where clear: the few zeros are then found by a scan in C.
        clear = bytes(map(disjoint, map(_OPPONENTS, players), map(pods.__getitem__, pod_of)))
    except TypeError:  # a history given as another collection than a frozenset
        histories = [known if isinstance(known, frozenset) else frozenset(known) for known in map(_OPPONENTS, players)]
        clear = bytes(map(disjoint, histories, map(pods.__getitem__, pod_of)))
    flagged: set[int] = set()
    at = clear.find(0)
    while at >= 0:
        flagged.add(pod_of[at])
        at = clear.find(0, at + 1)
    return sorted(flagged)


#: An entrant's history, read in C across many entrants.
_OPPONENTS = attrgetter("opponents")


def _runs_in_order(seating: np.ndarray, sizes: Sequence[int], ranked: Sequence[int]) -> np.ndarray:
    """``seating`` (pod after pod, pod ``k`` the next ``sizes[k]``) with its pods put in the order ``ranked``."""
    lengths = np.array(sizes, dtype=np.intp)[ranked]
    starts = np.concatenate(([0], np.cumsum(sizes, dtype=np.intp)[:-1]))[ranked]
    # Entry j of the new order is entry j - (where its pod now starts) + (where it started) of the old.
    moved = np.repeat(starts - (np.cumsum(lengths) - lengths), lengths) + np.arange(int(lengths.sum()))
    return seating[moved]


def _table_order(
    slots: np.ndarray, sizes: Sequence[int], points: Sequence[int] | np.ndarray, *, in_order: bool = True
) -> tuple[list[int], list[int]]:
    """The pods in table order (largest first, then by average points, highest first; stable), and their spreads.

    ``slots`` lists positions into ``points`` (a list, or a column of 64-bit
    integers), pod after pod (pod ``k`` the next ``sizes[k]``).  Pods of one
    size: the higher average is the higher sum, so no fractions are needed.
    Not ``in_order``: the pods in the order given, and their spreads.
    """
    values: np.ndarray | list[int]
    if isinstance(points, np.ndarray):
        values = points[slots]
    else:
        try:
            values = np.fromiter(points, dtype=np.int64, count=len(points))[slots]
        except OverflowError:  # points no event reaches: the same sums in Python
            values = list(map(points.__getitem__, slots.tolist()))
    sums, spreads = pod_sums_and_spreads(values, sizes)
    if not in_order:
        return list(range(len(sizes))), spreads
    ranked: list[int]
    try:
        size_column, sum_column = np.array(sizes, dtype=np.int64), np.array(sums, dtype=np.int64)
        # Already in table order (the chunking is in standings order, so most rounds are): nothing to sort.
        if (
            len(sizes) < 2
            or (
                (size_column[:-1] > size_column[1:])
                | ((size_column[:-1] == size_column[1:]) & (sum_column[:-1] >= sum_column[1:]))
            ).all()
        ):
            return list(range(len(sizes))), spreads
        # A stable sort on the size, largest first, then the sum, highest first.
        ranked = np.lexsort((-sum_column, -size_column)).tolist()
    except OverflowError:
        keys = list(zip(map(neg, sizes), map(neg, sums), strict=True))
        ranked = sorted(range(len(sizes)), key=keys.__getitem__)
    return ranked, list(map(spreads.__getitem__, ranked))


def pod_sums_and_spreads(values: Sequence[int] | np.ndarray, sizes: Sequence[int]) -> tuple[list[int], list[int]]:
    """Per pod, the sum of ``values`` and :func:`pod_spread`, for pods given as consecutive runs of ``sizes``.

    In 64-bit arrays when every ``size * sum(p * p)`` and ``sum(p) ** 2`` fits
    (at most ``(size * peak) ** 2``), which at any real event it does; in
    Python otherwise.
    """
    if not sizes:
        return [], []
    try:
        column = np.asarray(values, dtype=np.int64)
        peak = max(int(column.max()), -int(column.min()))
    except OverflowError:
        peak = 2**63
    if (max(sizes) * peak) ** 2 >= 2**62:
        values = values.tolist() if isinstance(values, np.ndarray) else values
        starts = [0, *accumulate(sizes)]
        pods = [values[a:b] for a, b in zip(starts, starts[1:], strict=False)]
        return [sum(pod) for pod in pods], [pod_spread(pod) for pod in pods]
    starts_column = np.fromiter(accumulate(sizes, initial=0), dtype=np.int64, count=len(sizes) + 1)[:-1]
    sums = np.add.reduceat(column, starts_column)
    squares = np.add.reduceat(column * column, starts_column)
    spreads = np.array(sizes, dtype=np.int64) * squares - sums * sums
    return sums.tolist(), spreads.tolist()


def _standings_index(players: Sequence[Entrant], draws: np.ndarray) -> tuple[np.ndarray, np.ndarray | None, list[int]]:
    """The standings order of ``players`` (given in id order, with their tie-break ``draws``) as positions, and
    their points as a column of 64-bit integers (``None`` where they do not fit) and as a list.

    By points, highest first, then rank, then the round's tie-break, then id.
    Points and rank make one integer key; where it fits in a double's 53
    bits, ``key + draw`` is sorted once: rounding to the nearest double
    never reverses two sums, it can only make them equal, so when no two are
    equal that order is exactly (key, draw).  Otherwise two stable sorts in
    arrays: by the tie-break, then by the key (a sort of tuples in Python
    costs several times as much, and at 10,000 players the sort is a large
    part of the round).  Points and ranks whose key would not fit in 64 bits
    (no event has them) take the Python sort.
    """
    count = len(players)
    points = [e.points for e in players]
    try:
        point_column = np.fromiter(points, dtype=np.int64, count=count)
        rank_column = np.fromiter([e.rank for e in players], dtype=np.int64, count=count)
    except OverflowError:
        pass
    else:
        if not count:
            return np.empty(0, dtype=np.intp), point_column, points
        # Rank 0 (unknown) ties for last, behind every rank given.
        last = int(rank_column.max()) + 1
        if not rank_column.all():
            rank_column[rank_column == 0] = last
        top, bottom = int(point_column.max()), int(point_column.min())
        if (top - bottom + 1) * (last + 1) < 2**62:
            key = (top - point_column) * (last + 1) + rank_column
            if (top - bottom + 1) * (last + 1) <= 2**53:
                summed = key + draws
                by_sum = np.argsort(summed)
                if count < 2 or (np.diff(summed[by_sum]) != 0).all():
                    return by_sum, point_column, points
            by_draw = np.argsort(draws)
            if count > 1 and (np.diff(draws[by_draw]) == 0).any():  # two equal draws (about once in 10**8 rounds)
                by_draw = np.argsort(draws, kind="stable")
            return by_draw[np.argsort(key[by_draw], kind="stable")], point_column, points
    order = [rank_key(e) for e in players]
    keys = draws.tolist()
    index = sorted(range(count), key=lambda i: (-points[i], order[i], keys[i]))
    return np.array(index, dtype=np.intp), None, points


def _repair_chunking(
    seated: Sequence[Entrant],
    index: np.ndarray,
    ids: Sequence[int],
    points: Sequence[int],
    sizes: Sequence[int],
    rng: random.Random,
) -> tuple[list[int] | None, Collection[int], list[int], bool]:
    """``(seating, changed, std, clean)``: the seating for a field above :data:`_SMALL_FIELD`, the pods whose
    players it changed, ``index`` as a list if it was needed (empty if not), and whether no pod holds a repeat.

    ``seated`` are the players in id order, ``points`` theirs (same order),
    ``index`` their standings order (positions into
    ``seated``) and ``ids`` their ids in standings order.  The seating lists
    standings positions pod after pod (pod ``k`` holds the next
    ``sizes[k]``), so the chunking is ``0, 1, 2 ...`` (returned as ``None``,
    the common case, without building it) and a swap exchanges two entries.
    The pods not changed were checked and hold no repeat.

    Clean unless the whole field had to be searched and kept a repeat: a
    pod left alone had none; a pod the equal swaps work on is left only
    without one (or handed to a segment), and each swap keeps both pods'
    other pairs as they were, since neither newcomer has met anyone in the
    pod it joins; a segment is taken only without one.

    The score-ordered chunking already has the smallest spread there is for
    most pods; only a pod holding a repeat needs work, and in a large field
    that is a few pods in a hundred.  Two steps, the second only if the
    first leaves something:

    * *equal swaps*: a player in a repeat changes places with a player on the
      same points in a pod up to :data:`_WINDOW` away (nearest first) when
      neither pod then holds a repeat the swap brought in.  Same points, so
      the spread does not move; no repeat added, so the repeats only go down.
    * *segments*: each pod still holding a repeat and the :data:`_WINDOW`
      pods on each side (overlapping runs merged) are searched on their own
      by :class:`_PodSearch` (repair, and polish of the pods the repairs
      touch; no kicks) with the history of their players only.  Segments
      share no pod and no player, so the objective, a sum over pods, is the
      sum of theirs and of the pods left alone.  If a segment keeps a
      repeat, they are all searched again four times as wide; if the widest
      still keeps one, the whole field is searched as one (the full local
      search, kicks included).
    """
    count = len(sizes)
    starts = [0, *accumulate(sizes)]
    # A pod holds a repeat if anyone in it lists someone in it (see _flagged).
    # Sets, not lists: a set against a set reads the hashes it keeps rather than every pod-mate's id again.
    # The pods of one size are one stretch of the chunking (sizes come largest first), each pod the next ids.
    pods: list[frozenset[int]] = []
    chunks = iter(ids)
    for size, run in groupby(sizes):
        pods += map(frozenset, batched(islice(chunks, size * len(list(run))), size))
    pod_of = np.empty(len(ids), dtype=np.intp)
    pod_of[index] = np.repeat(np.arange(count), sizes)
    flagged = _flagged(pods, pod_of.tolist(), seated)
    if not flagged:
        return None, (), [], True
    changed = set(flagged)
    std = index.tolist()
    seating = list(range(starts[-1]))

    def met(a: int, b: int) -> bool:
        """The conflict the repairs break up: two players (standings positions) who have met, either remembering.
        Another rule of who should not share a pod would be asked here too (and in :func:`_flagged`)."""
        return ids[b] in seated[std[a]].opponents or ids[a] in seated[std[b]].opponents

    def repeat_in(pod: list[int]) -> tuple[int, int] | None:
        for n, a in enumerate(pod):
            for b in pod[n + 1 :]:
                if met(a, b):
                    return a, b
        return None

    def fits(x: int, pod: list[int], leaving: int) -> bool:
        for z in pod:
            if z != leaving and met(x, z):
                return False
        return True

    hard: list[int] = []
    for k in flagged:
        while (pair := repeat_in(seating[starts[k] : starts[k + 1]])) is not None:
            x = pair[1]
            level = points[std[x]]
            swapped = False
            for distance in range(1, _WINDOW + 1):
                for j in (k + distance, k - distance):
                    if not 0 <= j < count:
                        continue
                    pod, other = seating[starts[k] : starts[k + 1]], seating[starts[j] : starts[j + 1]]
                    for y in other:
                        if points[std[y]] == level and fits(y, pod, x) and fits(x, other, y):
                            seating[starts[k] + pod.index(x)] = y
                            seating[starts[j] + other.index(y)] = x
                            changed.add(j)
                            swapped = True
                            break
                    if swapped:
                        break
                if swapped:
                    break
            if not swapped:
                hard.append(k)
                break
    if not hard:
        return seating, changed, std, True
    width = _WINDOW
    while width < count:
        solved: list[tuple[int, int, list[int]]] = []
        for first, last in _segments(hard, width, count):
            players = sorted(seating[starts[first] : starts[last + 1]])
            part = [seated[std[i]] for i in players]
            search = _PodSearch(part, sizes[first : last + 1], build_history(part))
            search.improve(rng, segment=True)
            if search.cost[0]:
                break
            solved.append((first, last, [players[i] for i in chain.from_iterable(search.members)]))
        else:
            for first, last, seats in solved:
                seating[starts[first] : starts[last + 1]] = seats
                changed.update(range(first, last + 1))
            return seating, changed, std, True
        width *= 4
    order = [seated[i] for i in std]
    search = _PodSearch(order, sizes, build_history(order))
    search.improve(rng)
    return list(chain.from_iterable(search.members)), range(count), std, not search.cost[0]


def _segments(flagged: Sequence[int], width: int, count: int) -> list[tuple[int, int]]:
    """The pods within ``width`` of a flagged pod, as ``(first, last)`` runs; runs that touch are merged."""
    runs: list[tuple[int, int]] = []
    for k in flagged:
        first, last = max(0, k - width), min(count - 1, k + width)
        if runs and first <= runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], last)
        else:
            runs.append((first, last))
    return runs


def pod_objective(pairing: Pairing, entrants: Sequence[Entrant]) -> int:
    """The objective of a pod ``pairing`` of ``entrants`` (dropped ones are ignored): lower is better."""
    active = [e for e in entrants if not e.dropped]
    points = {e.id: e.points for e in active}
    return pods_objective([t.seats for t in pairing.tables], points, build_history(active))


def pods_objective(tables: Sequence[Sequence[int]], points: Mapping[int, int], met: History) -> int:
    """``repeats * (BOUND + 1) + spread`` of these tables (see the module docstring)."""
    repeats = count_rematches(tables, met)
    spread = sum(pod_spread([points[p] for p in seats]) for seats in tables)
    return repeats * repeat_weight(tables, points) + spread


def pod_spread(values: Sequence[int]) -> int:
    """The squared point differences of every pair in one pod, without a loop over pairs."""
    total = sum(values)
    # sumprod of ints is an exact int; typeshed types it float for every input.
    return len(values) * cast(int, sumprod(values, values)) - total * total


def repeat_weight(tables: Sequence[Sequence[int]], points: Mapping[int, int]) -> int:
    """``BOUND + 1``: what one repeat pair costs, more than any spread these players at these sizes can have."""
    if not tables:
        return 1
    pairs = sum(len(seats) * (len(seats) - 1) // 2 for seats in tables)
    values = [points[p] for seats in tables for p in seats]
    return pairs * (max(values) - min(values)) ** 2 + 1


class _PodSearch:
    """Players (by index in standings order) assigned to slots, with the cost bookkeeping.

    ``home[i]`` is the slot of the score-ordered chunking, the starting point
    and the reference for displacement.  ``met[i]`` is the history of player
    ``i`` as entrant ids (looked up with ``ids[z]``), so the caller's history
    is used as it is, without being translated to indexes.  ``stuck`` holds
    the players sitting with an old opponent; it is kept up to date by every
    swap, so nothing has to scan the whole field to find the conflicts.
    """

    def __init__(self, order: Sequence[Entrant], sizes: Sequence[int], met: History) -> None:
        self.ids = [e.id for e in order]
        self.points = [e.points for e in order]
        self.met = [met[e.id] for e in order]
        self.sizes = list(sizes)
        self.home: list[int] = [slot for slot, size in enumerate(sizes) for _ in range(size)]
        self.slot_of = list(self.home)
        self.members: list[list[int]] = []
        self.sums: list[int] = []
        self.stuck: set[int] = set()
        self.repeats = 0
        #: Slots swapped since the last rebuild (their pods may be out of standings order).
        self.touched: set[int] = set()
        #: Slots changed since they were last polished.
        self.dirty: set[int] = set(range(len(self.sizes)))
        self.cost = self.total_cost()

    # --- bookkeeping -------------------------------------------------------------------------

    def _rebuild(self) -> None:
        self.touched.clear()
        self.members = [[] for _ in self.sizes]
        for i, slot in enumerate(self.slot_of):
            self.members[slot].append(i)
        points = self.points
        self.sums = [sum(points[i] for i in members) for members in self.members]
        ids, met = self.ids, self.met
        stuck: set[int] = set()
        repeats = 0
        for members in self.members:
            for n, a in enumerate(members):
                met_a = met[a]
                for b in members[n + 1 :]:
                    if ids[b] in met_a:
                        repeats += 1
                        stuck.add(a)
                        stuck.add(b)
        self.stuck = stuck
        #: Repeat pairs found by the last rebuild.
        self.repeats = repeats

    def total_cost(self) -> Cost:
        """The cost from scratch; the spread of a pod is ``k * sum(p * p) - sum(p) ** 2``."""
        self._rebuild()
        points = self.points
        spread = 0
        for members, total in zip(self.members, self.sums, strict=True):
            spread += len(members) * sum(points[i] * points[i] for i in members) - total * total
        displacement = sum(abs(slot - home) for slot, home in zip(self.slot_of, self.home, strict=True))
        return self.repeats, spread, displacement

    def _delta(self, x: int, y: int) -> Cost:
        """Cost change of swapping ``x`` and ``y`` (in different slots).

        The spread part needs no loop: for a pod ``P`` without ``x``, swapping
        ``x`` for ``y`` changes its squared differences by
        ``(py - px) * (|P| * (px + py) - 2 * sum(P))``, so per-pod point sums suffice.
        """
        slot_of, members, ids = self.slot_of, self.members, self.ids
        a, b = slot_of[x], slot_of[y]
        met_x, met_y = self.met[x], self.met[y]
        repeats = 0
        pod_a, pod_b = members[a], members[b]
        for z in pod_a:
            if z != x:
                z = ids[z]
                repeats += (z in met_y) - (z in met_x)
        for z in pod_b:
            if z != y:
                z = ids[z]
                repeats += (z in met_x) - (z in met_y)
        px, py = self.points[x], self.points[y]
        spread = 0
        if px != py:
            both = px + py
            rest_a = (len(pod_a) - 1) * both - 2 * (self.sums[a] - px)
            rest_b = (len(pod_b) - 1) * both - 2 * (self.sums[b] - py)
            spread = (py - px) * (rest_a - rest_b)
        home_x, home_y = self.home[x], self.home[y]
        moved = abs(b - home_x) + abs(a - home_y) - abs(a - home_x) - abs(b - home_y)
        return repeats, spread, moved

    def _swap(self, x: int, y: int, delta: Cost) -> None:
        a, b = self.slot_of[x], self.slot_of[y]
        self.dirty.update((a, b))
        self.touched.update((a, b))
        pod_a, pod_b = self.members[a], self.members[b]
        pod_a[pod_a.index(x)] = y
        pod_b[pod_b.index(y)] = x
        self.slot_of[x], self.slot_of[y] = b, a
        moved = self.points[y] - self.points[x]
        self.sums[a] += moved
        self.sums[b] -= moved
        self.cost = (self.cost[0] + delta[0], self.cost[1] + delta[1], self.cost[2] + delta[2])
        if delta[0] or self.stuck:
            self._restuck(pod_a)
            self._restuck(pod_b)

    def _restuck(self, pod: list[int]) -> None:
        """Bring ``stuck`` up to date for the players of one pod."""
        ids, met, stuck = self.ids, self.met, self.stuck
        for i in pod:
            met_i = met[i]
            if any(ids[z] in met_i for z in pod):
                stuck.add(i)
            else:
                stuck.discard(i)

    def _in_repeat(self, i: int) -> bool:
        return i in self.stuck

    # --- small fields: branch and bound -------------------------------------------------------

    def exhaustive(self) -> None:
        """Search every partition into the slots; keep the cheapest (first found on a tie).

        Slots of equal size are interchangeable, so only the assignment that
        fills them in order of their best-placed player is visited.  Partial
        costs only grow as players are added, which prunes most branches;
        trying each player's home slot first finds the chunking, a good bound,
        straight away.
        """
        m, sizes = len(self.points), self.sizes
        slots = range(len(sizes))

        def nearest_first(home: int) -> list[int]:
            return sorted(slots, key=lambda s: (abs(s - home), s))

        tries = [nearest_first(h) for h in self.home]
        members: list[list[int]] = [[] for _ in sizes]
        slot_of = [-1] * m
        best: list[Cost] = []
        best_slots: list[int] = []
        index = {id_: i for i, id_ in enumerate(self.ids)}
        met = [frozenset(index[o] for o in met_i if o in index) for met_i in self.met]

        def place(i: int, repeats: int, spread: int, displacement: int) -> None:
            if best and (repeats, spread, displacement) >= best[0]:
                return
            if i == m:
                best[:] = [(repeats, spread, displacement)]
                best_slots[:] = slot_of
                return
            met_i, points_i = met[i], self.points[i]
            for slot in tries[i]:
                pod = members[slot]
                if len(pod) == sizes[slot]:
                    continue
                if not pod and slot > 0 and sizes[slot - 1] == sizes[slot] and not members[slot - 1]:
                    continue
                more_repeats = sum(1 for z in pod if z in met_i)
                more_spread = sum((points_i - self.points[z]) ** 2 for z in pod)
                pod.append(i)
                slot_of[i] = slot
                place(i + 1, repeats + more_repeats, spread + more_spread, displacement + abs(slot - self.home[i]))
                pod.pop()

        place(0, 0, 0, 0)
        self.slot_of = best_slots
        self._rebuild()
        self.cost = best[0]

    # --- larger fields: local search ----------------------------------------------------------

    def improve(self, rng: random.Random, *, segment: bool = False) -> None:
        """Repair and polish; kick while repeats remain (or, in a small field, for spread).

        A ``segment`` of a larger field (see :func:`_repair_chunking`) is
        repaired and polished around its conflicts only, with no kicks: its
        caller widens it instead.
        """
        if len(self.sizes) < 2:
            return
        if segment or len(self.points) > _FULL_POLISH:
            # Only the pods with a conflict, and those the repairs touch, are polished.
            self.dirty = {self.slot_of[x] for x in self.stuck}
        self._descend()
        if not segment and (self.cost[0] or len(self.points) <= _SMALL_FIELD):
            self._kick(rng)

    def _descend(self) -> None:
        """Repair repeats, then polish every pod a swap touched, until no swap helps."""
        self._repair()
        self._polish()

    def _repair(self) -> None:
        """Best-improvement swaps for every player sitting with an old opponent, until none helps.

        Each pass visits the players in standings order who are in a repeat
        when their turn comes, exactly as a scan of the whole field would, but
        only the conflicts are looked at: the pass starts from ``stuck`` and
        takes in, through a heap, anyone further down a swap puts in a repeat.
        """
        improved = True
        while improved:
            improved = False
            queue = sorted(self.stuck)
            last = -1
            while queue:
                x = heappop(queue)
                if x <= last or x not in self.stuck:
                    continue
                last = x
                move = self._best_swap(x)
                if move is not None:
                    a, b = self.slot_of[x], self.slot_of[move[0]]
                    self._swap(x, *move)
                    improved = True
                    for z in (*self.members[a], *self.members[b]):
                        if z > x and z in self.stuck:
                            heappush(queue, z)

    def _best_swap(self, x: int) -> tuple[int, Cost] | None:
        """The swap partner for ``x`` that lowers the cost most: pods within ``_WINDOW`` first, then all."""
        a = self.slot_of[x]
        best: tuple[int, Cost] | None = None
        for distance in range(1, len(self.sizes)):
            for b in (a - distance, a + distance):
                if not 0 <= b < len(self.sizes):
                    continue
                for y in self.members[b]:
                    delta = self._delta(x, y)
                    if delta < _ZERO and (best is None or delta < best[1]):
                        best = (y, delta)
            if best is not None and best[1][0] < 0 and distance >= _WINDOW:
                break
        return best

    def _polish(self) -> None:
        """First-improvement swaps between each touched pod and the pods up to ``_WINDOW`` away.

        Repairs trade spread for repeats; this wins back what spread it can
        without giving a repeat back.  A pod changed by a swap is checked
        again, so the result is a local optimum around everything touched.
        """
        slots = len(self.sizes)
        while self.dirty:
            a = min(self.dirty)
            self.dirty.discard(a)
            for b in range(max(0, a - _WINDOW), min(slots, a + _WINDOW + 1)):
                if b == a:
                    continue
                for x in list(self.members[a]):
                    for y in list(self.members[b]):
                        if self.slot_of[x] != a or self.slot_of[y] != b:
                            continue
                        delta = self._delta(x, y)
                        if delta < _ZERO:
                            self._swap(x, y, delta)

    def _kick(self, rng: random.Random) -> None:
        """Iterated local search: random swaps of a repeat player, each followed by a descent.

        A kick that ends worse than the best state so far is undone; one that
        ends equal is kept, so the search can wander across plateaus.  Every
        third kick makes a second random swap nearby, to step over local
        optima that one swap cannot leave.
        """
        best_cost, best_slots = self.cost, list(self.slot_of)
        slots = len(self.sizes)
        small = len(self.points) <= _SMALL_FIELD
        reach = slots if small else _WINDOW
        spread_kicks = 0
        for kick in range(_KICKS):
            if best_cost[0] == 0:
                if not small or spread_kicks == _SPREAD_KICKS:
                    break
                spread_kicks += 1
            stuck = sorted(self.stuck)
            for step in range(2 if kick % 3 == 2 else 1):
                x = rng.choice(stuck) if stuck and step == 0 else rng.randrange(len(self.points))
                a = self.slot_of[x]
                near = [b for b in range(max(0, a - reach), min(slots, a + reach + 1)) if b != a]
                y = rng.choice(self.members[rng.choice(near)])
                self._swap(x, y, self._delta(x, y))
            self._descend()
            if self.cost < best_cost:
                best_cost, best_slots = self.cost, list(self.slot_of)
            elif self.cost > best_cost:
                self._restore(best_slots, best_cost)
        self._restore(best_slots, best_cost)

    def _restore(self, slot_of: list[int], cost: Cost) -> None:
        """Go back to ``slot_of``, rebuilding only the pods swapped since the last rebuild.

        Players only ever move between swapped pods, so those pods hold the
        same players before and after; each is refilled in standings order,
        exactly as a rebuild of the whole field would leave it.
        """
        touched = sorted(self.touched)
        moved = sorted(i for slot in touched for i in self.members[slot])
        self.slot_of = list(slot_of)
        for slot in touched:
            self.members[slot] = []
        for i in moved:
            self.members[slot_of[i]].append(i)
        points = self.points
        for slot in touched:
            pod = self.members[slot]
            self.sums[slot] = sum(points[i] for i in pod)
            self._restuck(pod)
        self.touched.clear()
        self.cost = cost
        self.dirty.clear()
