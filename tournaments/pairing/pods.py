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
  pods near it, winning back spread the repairs gave up;
* *kicks* (iterated local search, seeded): while repeats remain, or for spread
  in fields up to :data:`_SMALL_FIELD` players, a random swap of a repeat
  player (sometimes two swaps) followed by repair and polish; worse results
  are undone, the best state is kept.

The cost never goes up overall, so the result is never worse than the
chunking.  For larger fields it is a strong heuristic, not a proof (checked
against brute force in the tests up to 13 players).

Tables are numbered largest pod first (so smaller pods sit at the bottom),
then by average points, highest first.

Within a pod, seat 1 goes to a player who has gone first least often, the
other seats at random (see :func:`~tournaments.pairing.common.seat_order`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from games.formats.base import TableSize
from tournaments.pairing.common import History, TieBreak, bye_order, rank_key, seat_order
from tournaments.pairing.sizes import pod_sizes
from tournaments.pairing.types import Entrant

__all__ = ["EXHAUSTIVE_LIMIT", "pair_pods"]

#: Fields up to this size are searched exhaustively: at most 15,400 partitions (12 players in
#: pods of three), a few hundredths of a second.  At 13 the worst case is seconds.
EXHAUSTIVE_LIMIT = 12

#: Pods on each side searched first when repairing a repeat, before the whole field.
_WINDOW = 3

#: Random kicks tried when a repair leaves repeats (and, in small fields, to lower the spread).
_KICKS = 150

#: Up to this many players kicks go on for spread once repeats are gone, and may swap with any pod.
_SMALL_FIELD = 64

#: Kicks spent on spread alone, in a small field with no repeats left.
_SPREAD_KICKS = 40

Cost = tuple[int, int, int]
_ZERO: Cost = (0, 0, 0)


def pair_pods(
    active: Sequence[Entrant], *, table_size: TableSize, met: History, tb: TieBreak, rng: random.Random
) -> tuple[list[tuple[int, ...]], list[int]]:
    """Pair a pod round after round 1: ``(seats of each table in table order, bye ids)``."""
    sizes, bye_count = pod_sizes(len(active), table_size)
    byes = [e.id for e in bye_order(active, tb)[:bye_count]]
    sitting_out = set(byes)
    order = sorted(
        (e for e in active if e.id not in sitting_out), key=lambda e: (-e.points, rank_key(e), tb[e.id], e.id)
    )
    search = _PodSearch(order, sizes, met)
    if len(order) <= EXHAUSTIVE_LIMIT:
        search.exhaustive()
    else:
        search.improve(rng)
    pods = [[order[i] for i in members] for members in search.members]
    pods.sort(key=lambda pod: (-len(pod), -Fraction(sum(e.points for e in pod), len(pod))))
    return [seat_order(pod, rng) for pod in pods], sorted(byes)


class _PodSearch:
    """Players (by index in standings order) assigned to slots, with the cost bookkeeping.

    ``home[i]`` is the slot of the score-ordered chunking, the starting point
    and the reference for displacement.
    """

    def __init__(self, order: Sequence[Entrant], sizes: Sequence[int], met: History) -> None:
        index = {e.id: i for i, e in enumerate(order)}
        self.points = [e.points for e in order]
        self.met = [frozenset(index[o] for o in met[e.id] if o in index) for e in order]
        self.sizes = list(sizes)
        self.home: list[int] = [slot for slot, size in enumerate(sizes) for _ in range(size)]
        self.slot_of = list(self.home)
        self.members: list[list[int]] = []
        self.sums: list[int] = []
        self._rebuild()
        #: Slots changed since they were last polished.
        self.dirty: set[int] = set(range(len(self.sizes)))
        self.cost = self.total_cost()

    # --- bookkeeping -------------------------------------------------------------------------

    def _rebuild(self) -> None:
        self.members = [[] for _ in self.sizes]
        for i, slot in enumerate(self.slot_of):
            self.members[slot].append(i)
        self.sums = [sum(self.points[i] for i in members) for members in self.members]

    def total_cost(self) -> Cost:
        repeats = spread = 0
        for members in self.members:
            for n, a in enumerate(members):
                for b in members[n + 1 :]:
                    repeats += b in self.met[a]
                    spread += (self.points[a] - self.points[b]) ** 2
        displacement = sum(abs(slot - home) for slot, home in zip(self.slot_of, self.home, strict=True))
        return repeats, spread, displacement

    def _delta(self, x: int, y: int) -> Cost:
        """Cost change of swapping ``x`` and ``y`` (in different slots).

        The spread part needs no loop: for a pod ``P`` without ``x``, swapping
        ``x`` for ``y`` changes its squared differences by
        ``(py - px) * (|P| * (px + py) - 2 * sum(P))``, so per-pod point sums suffice.
        """
        a, b = self.slot_of[x], self.slot_of[y]
        met_x, met_y = self.met[x], self.met[y]
        repeats = 0
        for z in self.members[a]:
            if z != x:
                repeats += (z in met_y) - (z in met_x)
        for z in self.members[b]:
            if z != y:
                repeats += (z in met_x) - (z in met_y)
        px, py = self.points[x], self.points[y]
        spread = 0
        if px != py:
            both = px + py
            rest_a = (len(self.members[a]) - 1) * both - 2 * (self.sums[a] - px)
            rest_b = (len(self.members[b]) - 1) * both - 2 * (self.sums[b] - py)
            spread = (py - px) * (rest_a - rest_b)
        home_x, home_y = self.home[x], self.home[y]
        moved = abs(b - home_x) + abs(a - home_y) - abs(a - home_x) - abs(b - home_y)
        return repeats, spread, moved

    def _swap(self, x: int, y: int, delta: Cost) -> None:
        a, b = self.slot_of[x], self.slot_of[y]
        self.dirty.update((a, b))
        self.members[a][self.members[a].index(x)] = y
        self.members[b][self.members[b].index(y)] = x
        self.slot_of[x], self.slot_of[y] = b, a
        moved = self.points[y] - self.points[x]
        self.sums[a] += moved
        self.sums[b] -= moved
        self.cost = (self.cost[0] + delta[0], self.cost[1] + delta[1], self.cost[2] + delta[2])

    def _in_repeat(self, i: int) -> bool:
        met_i = self.met[i]
        return any(z in met_i for z in self.members[self.slot_of[i]])

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
        tries = [sorted(slots, key=lambda s, h=h: (abs(s - h), s)) for h in self.home]
        members: list[list[int]] = [[] for _ in sizes]
        slot_of = [-1] * m
        best: list[Cost] = []
        best_slots: list[int] = []

        def place(i: int, repeats: int, spread: int, displacement: int) -> None:
            if best and (repeats, spread, displacement) >= best[0]:
                return
            if i == m:
                best[:] = [(repeats, spread, displacement)]
                best_slots[:] = slot_of
                return
            met_i, points_i = self.met[i], self.points[i]
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

    def improve(self, rng: random.Random) -> None:
        if len(self.sizes) < 2:
            return
        self._descend()
        if self.cost[0] or len(self.points) <= _SMALL_FIELD:
            self._kick(rng)

    def _descend(self) -> None:
        """Repair repeats, then polish every pod a swap touched, until no swap helps."""
        self._repair()
        self._polish()

    def _repair(self) -> None:
        """Best-improvement swaps for every player sitting with an old opponent, until none helps."""
        improved = True
        while improved:
            improved = False
            for x in range(len(self.points)):
                if not self._in_repeat(x):
                    continue
                move = self._best_swap(x)
                if move is not None:
                    self._swap(x, *move)
                    improved = True

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
            stuck = [x for x in range(len(self.points)) if self._in_repeat(x)]
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
        self.slot_of = list(slot_of)
        self._rebuild()
        self.cost = cost
        self.dirty.clear()
