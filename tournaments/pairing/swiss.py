"""Swiss pairing for 1v1 formats, rounds 2 onwards: an exact optimum of one stated integer objective.

The objective
=============

A round is a perfect matching of the active players, plus, in an odd field,
one *bye* (think of it as a dummy player the bye-taker is paired with).  Its
cost is one integer, the sum of the costs of its pairs (:class:`SwissCost`)::

    pair (a, b):  REMATCH * [a and b have met]  +  (points_a - points_b) ** 2
    bye to a:     BYE_STEP * place(a)     (only players with the fewest byes may take it)

``place(a)`` numbers the bye classes in bye order: among the players with the
fewest byes, the lowest ranked (highest rank number, then fewest points) are
class 0, the next class 1, and so on; players with more byes than the fewest
cannot take the bye at all (never a second bye while an active player has
none).  The weights are chosen per field so that the single total is
lexicographic::

    BYE_STEP = (players // 2) * spread ** 2 + 1        # more than any sum of squared differences
    REMATCH  = BYE_STEP * (bye classes + 1)            # more than any bye cost plus squared differences

so the engine minimises, in order: (a) the number of rematches (0 whenever
avoidable), (b) the bye class (the lowest-ranked player who can take the bye
without costing a rematch), (c) the sum over pairs of the squared point
difference (so pair-downs are as few and as short as possible: one pair-down
across two point groups costs more than two across one).  Ties between
equally cheap pairings are broken at random (seeded), through the order
players are considered in.  :func:`swiss_objective` scores a finished
:class:`~tournaments.pairing.types.Pairing` by the same rule; the tests and the
benchmark compare it with an exact min-cost perfect matching.

The algorithm, and why it is exact
==================================

**Order and cuts.**  Sort the players best first: by points, then by the
round's tie-break numbers; in an odd field the *bye candidates* (class 0, all
on the same points) go last in their point group.  Any order within a point
group is as good as another for what follows.  A *cut* is a place between two
neighbours in this order (or an end), never between two bye candidates.  The
cuts used split the order into *segments*; a segment's ``top`` is the points
of its first player and its ``down`` the points of the first player below it.
Across a cut, any pairing with a class-0 bye has a number of pairs of known
parity: the players above the cut, less the bye-taker if the candidates are
above it (:meth:`_Walk.parity`).

**The lower bound.**  Take any pairing with a class-0 bye, and any cuts.  A
pair ``(x, y)`` of players in different segments, ``x`` above, has::

    points_x - points_y = a + b_1 + ... + b_k + c
    a   = points_x - down(segment of x)      x leaving down
    b_i = top(S_i) - down(S_i)               a jump over each segment S_i in between
    c   = top(segment of y) - points_y       y leaving up

every term at least 0 (a segment's ``down`` is the next one's ``top``), so
its cost is at least ``a ** 2 + b_1 ** 2 + ... + c ** 2`` (its rematch
weight dropped): charge each square to its segment.  What one segment is
charged is then at least its *relaxed optimum* ``R(S)``: the least cost of
its own players alone, each paired inside ``S`` at the usual cost, leaving
up at ``(top - points) ** 2``, leaving down at ``(points - down) ** 2``, or
(a candidate) taking the bye, plus ``(top - down) ** 2`` per jump, where the
players leaving up and the jumps together are the pairs across the cut
above, so their number has its parity.  Hence every pairing with a class-0
bye costs at least ``sum R(S)``.  For a segment within one point group this
is cheap to state: each player leaving down and each jump costs ``gap ** 2 =
(top - down) ** 2``, and together they have the parity of the cut below, so
``R(S) >= gap ** 2`` when that is odd; the walk counts just that.

**The walk** (:class:`_Walk`) pairs the field segment by segment from the top,
with *floaters* (players sent down by the segment above) coming into each.  A
segment's *share* is what its pairing adds: its pairs, the floaters' pairs
with its players less the ``(points - top) ** 2`` the segments above already
counted for them, and ``(points - down) ** 2`` for each player it sends down.
The shares add up to the cost of the walk's pairing (the terms telescope), and
each is at least the segment's ``R(S)``.  So if every share equals its bound,
the pairing costs exactly ``sum R(S)`` and nothing with a class-0 bye is
cheaper.

1. **Greedy steps** (:func:`_greedy_group`), one point group (or its part
   below a window) at a time: the floaters each take the first player here
   they have not met; if an odd number is left, one of them (tried from the
   bottom of the group's random order) floats down; the rest are paired by a
   depth-first search for a rematch-free pairing (nearest partner first,
   backtracking, step budget).  The bye group tries its first few candidates
   in bye order.  A step that succeeds pays ``gap ** 2`` exactly when it sends
   a floater, that is when the cut below is odd: its share is its bound.
   Linear time in a typical event.
2. **Exact windows**, where a step fails: the walk rolls back to a cut about
   ``_WINDOW / 2`` players above (not into the last window) and solves the
   segment down to about ``_WINDOW`` players below exactly
   (:func:`_solve_window`: the floaters must be paired, any player may leave
   down, a candidate may take the bye), and its relaxation
   (:func:`_relaxed_window`); both are maximum-weight matchings (rustworkx,
   integer weights).  The players leaving down float into the segment below.
   A window leaves the bye candidates out unless it holds one of them, and
   then it holds them all (:meth:`_Walk.bounds`).
3. **Growth.**  The window and its relaxation differ only at the top (fixed
   floaters against players free to leave up), so a window whose share exceeds
   its bound takes in twice as many players above and half as many below, and
   the walk resumes there; a window it reaches is taken in whole.  A window
   that starts at the top is its own relaxation, so this ends, at worst with
   the whole field as one window.
4. **Certificate.**  Every segment at its bound: the pairing is optimal among
   pairings with a class-0 bye, which in an even field is all of them.  In an
   odd field it must also be rematch-free: it then costs less than
   ``BYE_STEP``, below anything with a later bye class.  If instead a window's
   bound already holds a rematch, or the pairing does, a later bye class might
   avoid it, and:
5. **Exact fallback** (:func:`_exact`): a maximum-weight perfect matching of
   the whole field with the same integer costs and the bye vertex for every
   bye class.  Only fields where a rematch cannot be avoided with a class-0
   bye get here, in practice small ones.

**The band lemma.**  Every matching above is given only the pairs of players
at most ``4 * m + 4`` places apart (``m`` = the most opponents any active
player has met), which loses nothing.  Take an optimal solution whose pairs
span the fewest places in total (floaters and leaving up counted at the top
end, leaving down at the bottom end).  If a pair ``(a, b)`` had more than ``4m
+ 1`` players between them, one of those (not the bye-taker) has a partner
such that re-pairing the four, sorted neighbours together, meets nobody a or b
has met: each of the at most ``2m`` players a or b has met rules out at most
two of them.  The cost being convex in the point difference, that costs no
more, keeps the number leaving up, and spans fewer places: a contradiction.
In the relaxation, likewise, consecutive players leaving up are at most ``2m +
2`` apart, so two of them leaving together are always a band edge.  Floater,
exit and bye edges are all kept.  When the band covers everyone the graph is
simply complete.

:data:`counters` counts the windows, growths and whole-field matchings, for
the tests and the benchmark.  The tests check the result against an exact
matching of the complete graph on thousands of random fields and on every
round of simulated events up to round 16 with drops and late entries
(:mod:`.fields`; ``tests/tournaments/test_pairing_exactness.py``), and the
lower bound, the band and the absence of whole-field matchings on those
events (``test_pairing_walk.py``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import rustworkx as rx

from tournaments.pairing.common import History, TieBreak, build_history, rank_key
from tournaments.pairing.types import Entrant, Pairing

__all__ = ["SwissCost", "pair_swiss", "swiss_objective"]

#: Step budget of the depth-first search, per player in the group.
_SEARCH_STEPS_PER_PLAYER = 64

#: Floaters tried per odd point group, and bye candidates tried in the bye group, by a greedy step.
_FLOAT_TRIES = 4
_BYE_TRIES = 4

#: Players in a first exact window (it then grows while it costs more than its bound).
_WINDOW = 24

#: What the walk did, for tests and benchmarks only (the engine never reads it): ``rounds`` paired,
#: ``windows`` solved exactly and their ``window_players``, window ``growths``, ``whole_field``
#: (matched exactly as a whole) and ``uncertified`` (walks that missed their bound: never, or a bug).
counters: Counter[str] = Counter()

Pair = tuple[int, int]


class SwissCost:
    """The Swiss objective of one field as integer costs (see the module docstring).

    ``active`` are the players to pair (dropped players left out); ``met``
    defaults to the symmetric history the engine builds from them.
    """

    def __init__(self, active: Sequence[Entrant], met: History | None = None) -> None:
        self.points = {e.id: e.points for e in active}
        self.met = met if met is not None else build_history(active)
        self.bye_place: dict[int, int] = {}
        classes = 0
        if len(active) % 2:
            fewest = min(e.byes for e in active)
            key_of = {e.id: (-rank_key(e), e.points) for e in active if e.byes == fewest}
            place = {key: i for i, key in enumerate(sorted(set(key_of.values())))}
            self.bye_place = {i: place[key] for i, key in key_of.items()}
            classes = len(place)
        spread = max(self.points.values()) - min(self.points.values())
        self.bye_step = (len(active) // 2) * spread * spread + 1
        self.rematch = self.bye_step * (classes + 1)

    def pair(self, a: int, b: int) -> int:
        """The cost of seating ``a`` and ``b`` together."""
        diff = self.points[a] - self.points[b]
        return diff * diff + (self.rematch if b in self.met[a] else 0)

    def bye(self, a: int) -> int | None:
        """The cost of giving ``a`` the bye; ``None`` if ``a`` may not take it."""
        place = self.bye_place.get(a)
        return None if place is None else place * self.bye_step

    def from_parts(self, *, spread: int, rematches: int, bye: int | None) -> int:
        """The objective from its parts: the pairs' squared point differences, their rematches, the bye.

        The same number :meth:`total` adds up pair by pair, for a caller that has the parts already.
        """
        bye_cost = 0 if bye is None else self.bye(bye)
        if bye_cost is None:
            raise ValueError(f"player {bye} may not take the bye")
        return spread + rematches * self.rematch + bye_cost

    def total(self, pairs: Iterable[Sequence[int]], bye: int | None) -> int:
        """The objective of a whole round: its pairs plus its bye.  ``ValueError`` for a bye nobody may take."""
        cost = sum(self.pair(a, b) for a, b in pairs)
        if bye is not None:
            bye_cost = self.bye(bye)
            if bye_cost is None:
                raise ValueError(f"player {bye} may not take the bye")
            cost += bye_cost
        return cost


def swiss_objective(pairing: Pairing, entrants: Sequence[Entrant]) -> int:
    """The objective of a 1v1 ``pairing`` of ``entrants``: lower is better.

    It is taken over the players the engine paired: dropped entrants and the
    byes the organiser assigned (``"bye_assigned"`` in ``pairing.reasons``)
    are left out, as the engine left them out.  ``ValueError`` if more than
    one bye remains or it went to a player who may not take it.
    """
    assigned = {i for i in pairing.byes if "bye_assigned" in pairing.reasons.get(i, ())}
    active = [e for e in entrants if not e.dropped and e.id not in assigned]
    if not active:
        return 0
    byes = [i for i in pairing.byes if i not in assigned]
    if len(byes) > 1:
        raise ValueError(f"a 1v1 round has at most one bye the engine chose, not {len(byes)}")
    return SwissCost(active).total((t.seats for t in pairing.tables), byes[0] if byes else None)


def pair_swiss(
    active: Sequence[Entrant],
    *,
    met: History,
    tb: TieBreak,
    rng: random.Random,
    cost: SwissCost | None = None,
) -> tuple[list[Pair], int | None]:
    """Pair a round of a 1v1 event after round 1.

    Returns ``(pairs, bye)``: pairs as ``(seat 1, seat 2)`` ids in table order
    (table 1, the highest points, first; the player higher in the standings in
    seat 1), and the id of the player given the bye, or ``None``.  ``rng`` is
    not drawn from: the randomness is all in ``tb``.  ``cost`` is
    ``SwissCost(active, met)``, for a caller that has built it already.
    """
    cost = cost if cost is not None else SwissCost(active, met)
    # By points, best first, then tie-break number, then id: two stable sorts with plain keys.
    ids = sorted(sorted(cost.points), key=tb.__getitem__)
    ids.sort(key=cost.points.__getitem__, reverse=True)
    # Class 0 of the bye order: the same byes, rank and points, so bye order among them is tie-break order.
    candidates = sorted((i for i, place in cost.bye_place.items() if place == 0), key=lambda i: (tb[i], i))
    counters["rounds"] += 1
    walk = _Walk(ids, cost, candidates)
    found = walk.run()
    if found is None:
        counters["whole_field"] += 1
        found = _exact(ids, cost)
    pairs, bye = found
    position = walk.order_index
    points = cost.points
    oriented = [(a, b) if position[a] < position[b] else (b, a) for a, b in pairs]
    oriented.sort(key=lambda p: (-points[p[0]], -points[p[1]], position[p[0]]))
    return oriented, bye


@dataclass(slots=True)
class _Window:
    """One exact window's pairing and its place in the certificate."""

    pairs: list[Pair]
    #: Players sent down to the segment below, in order.
    leaving: list[int]
    bye: int | None
    #: What the window's pairing adds to the walk's cost (``None``: the floaters cannot all be paired in it).
    share: int | None
    #: The window's relaxed optimum: its part of the lower bound.
    bound: int


#: The walk's state where a segment starts: pairs made, floaters coming in, lower bound, bye, last window's end.
_State = tuple[int, list[int], int, int | None, int]


class _Walk:
    """The walk down the standings (see the module docstring): greedy steps, exact windows, a lower bound.

    Positions are places in ``seq``: the players by points, best first, in
    tie-break order within a point group, except that the bye candidates come
    last in theirs.  A cut at position ``c`` is the place just above player
    ``c``; cuts never fall between two bye candidates.
    """

    def __init__(self, ids: list[int], cost: SwissCost, candidates: list[int]) -> None:
        self.cost = cost
        self.met = cost.met
        self.candidates = candidates
        self.order_index = {i: k for k, i in enumerate(ids)}
        points = cost.points
        seq = list(ids)
        n = len(seq)
        #: The bye candidates sit at positions ``cand_lo`` to ``bye_hi - 1`` (both ``n + 1`` in an even field).
        self.cand_lo = self.bye_hi = n + 1
        if candidates:
            value = points[candidates[0]]
            lo = next(k for k, i in enumerate(seq) if points[i] == value)
            hi = lo
            while hi < n and points[seq[hi]] == value:
                hi += 1
            chosen = set(candidates)
            rest = [i for i in seq[lo:hi] if i not in chosen]
            seq[lo:hi] = rest + [i for i in seq[lo:hi] if i in chosen]
            self.cand_lo, self.bye_hi = lo + len(rest), hi
        self.seq = seq
        self.n = n
        self.value = [points[i] for i in seq]
        #: ``group_end[c]``: the position just past the point group of player ``c``.
        self.group_end = [n] * n
        for k in range(n - 2, -1, -1):
            self.group_end[k] = k + 1 if self.value[k] != self.value[k + 1] else self.group_end[k + 1]
        self._band = 0

    @property
    def band(self) -> int:
        """``4 m + 4``, ``m`` the most opponents any player has met (the band lemma)."""
        if not self._band:
            self._band = 4 * max(len(self.met[i]) for i in self.seq) + 4
        return self._band

    def parity(self, cut: int) -> int:
        """The parity of the number of pairs across ``cut`` in any pairing with a class-0 bye."""
        return (cut - (cut >= self.bye_hi)) % 2

    def bounds(self, start: int, stop: int, *, within: tuple[int, int], grow: bool = False) -> tuple[int, int]:
        """A window ``[start, stop)`` holding ``within``, moved off any cut between two bye candidates.

        It leaves the candidates out where it can (there may be many, a whole
        point group when ranks are shared) and takes all of them in if
        ``within`` holds one, or if a window that must ``grow`` could not
        otherwise.
        """
        lo, hi = self.cand_lo, self.bye_hi
        moved = (
            hi if lo < start < hi and hi <= within[0] else start,
            lo if lo < stop < hi and lo >= within[1] else stop,
        )
        if grow and moved == within:
            moved = (start, stop)
        start, stop = moved
        return (lo if lo < start < hi else start), (hi if lo < stop < hi else stop)

    def run(self) -> tuple[list[Pair], int | None] | None:
        """The walk's pairing and bye if certified optimal, else ``None`` (the caller matches the whole field)."""
        n, value, cost = self.n, self.value, self.cost
        pairs: list[Pair] = []
        floaters: list[int] = []
        lower = 0
        bye: int | None = None
        last_end = 0
        #: The state where each segment of the current pass starts, and which of those segments are windows.
        before: dict[int, _State] = {}
        windows: set[int] = set()
        #: ``(cut, end)``: greedy steps down to ``cut``, then an exact window from ``cut`` to ``end``.
        plan: tuple[int, int] | None = None
        p = 0
        while p < n:
            before[p] = (len(pairs), floaters, lower, bye, last_end)
            if plan is None or p < plan[0]:
                end = self.group_end[p] if plan is None else min(self.group_end[p], plan[0])
                step = self._greedy(p, end, floaters)
                if step is not None:
                    inside, floater, taker = step
                    pairs += inside
                    floaters = [] if floater is None else [floater]
                    if floater is not None:
                        gap = value[p] - value[end]
                        lower += gap * gap
                    if taker is not None:
                        bye = taker
                    p = end
                    continue
                if plan is not None:  # the greedy part of a plan fails: its window starts here instead
                    plan = (p, plan[1])
                else:  # a first window around this segment, not reaching into the last window
                    start = max(last_end, p - _WINDOW // 2)
                    start, stop = self.bounds(start, min(n, max(end, start + _WINDOW)), within=(p, end))
                    p, plan = self._resume(start, stop, before, windows)
                    pairs, floaters, lower, bye, last_end = _restore(before[p], pairs)
                    continue
            start, stop = plan
            plan = None
            window = self._window(start, stop, floaters)
            if window is None:
                return None
            if window.share == window.bound:
                windows.add(start)
                pairs += window.pairs
                floaters = window.leaving
                lower += window.bound
                if window.bye is not None:
                    bye = window.bye
                last_end = p = stop
                continue
            # It costs more than its bound: take in twice as many players above, half as many below.
            counters["growths"] += 1
            size = max(stop - start, _WINDOW)
            start, stop = self.bounds(max(0, start - size), min(n, stop + size // 2), within=(start, stop), grow=True)
            p, plan = self._resume(start, stop, before, windows)
            pairs, floaters, lower, bye, last_end = _restore(before[p], pairs)
        total = cost.total(pairs, bye)
        if floaters or total != lower:  # pragma: no cover - every segment pairs at its bound, the last one everyone
            counters["uncertified"] += 1  # a bug, but the whole field still gets an exact pairing
            return None
        if self.candidates and total >= cost.bye_step:
            return None  # optimal with a class-0 bye but with a rematch, which another bye class might avoid
        return pairs, bye

    @staticmethod
    def _resume(start: int, stop: int, before: dict[int, _State], windows: set[int]) -> tuple[int, tuple[int, int]]:
        """Where the walk resumes for a window ``[start, stop)``, and the plan from there.

        It resumes where the segment holding ``start`` begins (a window there is
        taken in whole), and forgets the states below, which it will reach again.
        """
        resume = max(k for k in before if k <= start)
        if resume in windows:
            start = resume
        for k in [k for k in before if k > resume]:
            del before[k]
        windows.difference_update([k for k in windows if k >= resume])
        return resume, (start, stop)

    def _greedy(self, start: int, end: int, floaters: list[int]) -> tuple[list[Pair], int | None, int | None] | None:
        """A greedy step on the players from ``start`` to ``end`` (a point group or part of one).

        Returns ``(pairs, floater sent down or None, bye-taker or None)``, or
        ``None`` if it finds no way without a rematch.  The segment holding the
        bye candidates tries the first few of them, in bye order.
        """
        members = self.seq[start:end]
        below = self.seq[end : self.group_end[end]] if end < self.n else None
        if not start <= self.cand_lo < end:
            step = _greedy_group(members, floaters, below, self.met)
            return None if step is None else (step[0], step[1], None)
        members.sort(key=self.order_index.__getitem__)  # tie-break order, the candidates among the others
        for candidate in self.candidates[:_BYE_TRIES]:
            step = _greedy_group([i for i in members if i != candidate], floaters, below, self.met)
            if step is not None:
                return step[0], step[1], candidate
        return None

    def _window(self, start: int, stop: int, floaters: list[int]) -> _Window | None:
        """The window ``[start, stop)`` solved exactly, with its bound.

        ``None`` in an odd field if the bound itself holds a rematch: then no
        pairing with a class-0 bye avoids one, and only the whole field can weigh
        a rematch against a later bye class.
        """
        counters["windows"] += 1
        counters["window_players"] += stop - start
        cost, value = self.cost, self.value
        players = self.seq[start:stop]
        top = value[start]
        down = value[stop] if stop < self.n else None
        candidates = set(self.candidates) if start <= self.cand_lo and stop >= self.bye_hi else set()
        solved = _solve_window(floaters, players, cost, down=down, candidates=candidates, band=self.band)
        if start == 0 and solved is not None:
            bound = solved[0]  # no floaters and nothing above: the window is its own relaxation
        else:
            odd = self.parity(start)
            bound = _relaxed_window(players, cost, top=top, odd=odd, down=down, candidates=candidates, band=self.band)
        if self.candidates and bound >= cost.rematch:
            return None
        if solved is None:
            return _Window([], [], None, None, bound)
        paid, inside, leaving, taker = solved
        share = paid - sum((cost.points[f] - top) ** 2 for f in floaters)
        return _Window(inside, leaving, taker, share, bound)


def _restore(state: _State, pairs: list[Pair]) -> tuple[list[Pair], list[int], int, int | None, int]:
    done, floaters, lower, bye, last_end = state
    del pairs[done:]
    return pairs, floaters, lower, bye, last_end


def _greedy_group(
    members: list[int], floaters: list[int], below: list[int] | None, met: History
) -> tuple[list[Pair], int | None] | None:
    """Pair one point group without a rematch: floaters from above first, then one floater down if odd.

    ``None`` when this greedy step finds no way (the caller then solves a window exactly).
    """
    pairs: list[Pair] = []
    if floaters:
        members = list(members)
        for f in floaters:
            met_f = met[f]
            k = next((k for k, x in enumerate(members) if x not in met_f), None)
            if k is None:
                return None
            pairs.append((f, members.pop(k)))
    if len(members) % 2 == 0:
        inside = _search(members, met)
        return None if inside is None else (pairs + inside, None)
    if below is None:  # pragma: no cover - an even field leaves the last group even
        return None
    for k in range(len(members) - 1, max(-1, len(members) - 1 - _FLOAT_TRIES), -1):
        met_k = met[members[k]]
        if all(y in met_k for y in below):
            continue
        inside = _search(members[:k] + members[k + 1 :], met)
        if inside is not None:
            return pairs + inside, members[k]
    return None


def _matching(nodes: int, edges: list[tuple[int, int, int]], *, max_cardinality: bool = False) -> list[tuple[int, int]]:
    """A maximum-weight matching (rustworkx, exact on integer weights), each edge as ``(smaller, larger)``."""
    graph = rx.PyGraph()
    graph.add_nodes_from(range(nodes))
    graph.extend_from_weighted_edge_list(edges)
    matching = rx.max_weight_matching(graph, max_cardinality=max_cardinality, weight_fn=int)
    return sorted((min(u, v), max(u, v)) for u, v in matching)


def _solve_window(
    floaters: list[int], players: list[int], cost: SwissCost, *, down: int | None, candidates: set[int], band: int
) -> tuple[int, list[Pair], list[int], int | None] | None:
    """A cheapest pairing of ``floaters + players`` in which players may leave down instead of being paired.

    Every floater must be paired with a player; a player may instead leave
    down at ``(points - down) ** 2`` (if ``down`` is given: a private exit
    each, so any number may leave) or, if a candidate, take the bye.  Pairs of
    players more than ``band`` places apart are left out (the band lemma).
    Each edge is worth ``BIG`` per floater or player it covers minus its cost,
    ``BIG`` above any total cost, so the maximum-weight matching covers
    everyone first and is cheapest second.  Returns ``(cost, pairs, players
    leaving down in order, bye-taker)``, or ``None`` if the floaters cannot
    all be paired (more of them than players).
    """
    k, f = len(players), len(floaters)
    points, met, rematch = cost.points, cost.met, cost.rematch
    pts = [points[i] for i in players]
    big = (k + f + 2) * (rematch + 2 * cost.bye_step)
    two = 2 * big
    edges: list[tuple[int, int, int]] = []
    for a in range(k):
        pa, met_a = pts[a], met[players[a]]
        for b in range(a + 1, min(k, a + band + 1)):
            d = pa - pts[b]
            edges.append((a, b, two - d * d - (rematch if players[b] in met_a else 0)))
    for j, floater in enumerate(floaters):
        pf, met_f = points[floater], met[floater]
        edges += [(a, k + j, two - (pf - pts[a]) ** 2 - (rematch if players[a] in met_f else 0)) for a in range(k)]
    bye = k + f
    edges += [(a, bye, two) for a in range(k) if players[a] in candidates]
    exits = bye + 1
    if down is not None:
        edges += [(a, exits + a, big - (pts[a] - down) ** 2) for a in range(k)]
    paid = covered = 0
    pairs: list[Pair] = []
    leaving: list[int] = []
    taker: int | None = None
    for u, v in _matching(exits + k, edges):
        if v < k:
            pairs.append((players[u], players[v]))
            paid += cost.pair(players[u], players[v])
            covered += 2
        elif v < bye:
            pairs.append((floaters[v - k], players[u]))
            paid += cost.pair(floaters[v - k], players[u])
            covered += 2
        elif v == bye:
            taker = players[u]
            covered += 1
        else:
            assert down is not None  # exit vertices exist only when players may leave downwards
            leaving.append(u)
            paid += (pts[u] - down) ** 2
            covered += 1
    if covered != k + f or (candidates and taker is None):
        return None
    return paid, pairs, [players[a] for a in sorted(leaving)], taker


def _relaxed_window(
    players: list[int], cost: SwissCost, *, top: int, odd: int, down: int | None, candidates: set[int], band: int
) -> int:
    """The least a window's players can cost in any pairing of the field: the window's share of the lower bound.

    The window's players alone (no floaters), each paired inside the window,
    leaving down at ``(points - down) ** 2`` or leaving up at ``(top - points)
    ** 2``, or taking the bye; the number leaving up has the parity ``odd`` of
    the cut above, unless a pair of players from above and below *jumps*
    over the window, which costs ``(top - down) ** 2`` and flips that parity.
    As a matching (``BIG`` per mandatory vertex covered, minus the cost):
    two players leaving up together are an edge costing ``up_a + up_b`` (the
    cheaper of that and their pair's cost); a vertex ``Z`` takes one player
    leaving up alone -- mandatory when the parity is odd, where it may take
    the jump instead, optional and charging the jump when it is even.
    """
    k = len(players)
    points, met, rematch = cost.points, cost.met, cost.rematch
    pts = [points[i] for i in players]
    up = [(top - p) ** 2 for p in pts]
    big = (k + 3) * (rematch + 2 * cost.bye_step)
    two = 2 * big
    edges: list[tuple[int, int, int]] = []
    for a in range(k):
        pa, met_a, up_a = pts[a], met[players[a]], up[a]
        for b in range(a + 1, min(k, a + band + 1)):
            d = pa - pts[b]
            paired = d * d + (rematch if players[b] in met_a else 0)
            edges.append((a, b, two - min(paired, up_a + up[b])))
    bye, z, jump, exits = k, k + 1, k + 2, k + 3
    mandatory = {bye} if candidates else set()
    edges += [(a, bye, two) for a in range(k) if players[a] in candidates]
    if odd:
        mandatory.add(z)
        edges += [(a, z, two - up[a]) for a in range(k)]
        if down is not None:
            edges.append((z, jump, big - (top - down) ** 2))
    elif down is not None:
        edges += [(a, z, big - up[a] - (top - down) ** 2) for a in range(k)]
    if down is not None:
        edges += [(a, exits + a, big - (pts[a] - down) ** 2) for a in range(k)]
    weight = {(a, b): w for a, b, w in edges}
    paid = covered = 0
    for u, v in _matching(exits + k, edges):
        covers = (u < k or u in mandatory) + (v < k or v in mandatory)
        paid += covers * big - weight[u, v]
        covered += covers
    if covered != k + len(mandatory):  # pragma: no cover - leaving up or down always covers everyone
        raise AssertionError("a relaxed window player was left out")
    return paid


def _search(ids: Sequence[int], met: History) -> list[Pair] | None:
    """Depth-first search for a rematch-free pairing, nearest partner first; ``None`` if the budget runs out.

    The first unpaired player takes the nearest unpaired player they have not
    met; on a dead end the most recent choice is undone and the next partner
    tried.  Used only within a point group, where every pairing costs the same.
    """
    n = len(ids)
    partner = [-1] * n
    choices: list[Pair] = []
    budget = _SEARCH_STEPS_PER_PLAYER * n
    i, j = 0, 1
    while True:
        while i < n and partner[i] != -1:
            i += 1
        if i == n:
            return [(ids[a], ids[b]) for a, b in choices]
        if j <= i:
            j = i + 1
        met_i = met[ids[i]]
        while j < n and (partner[j] != -1 or ids[j] in met_i):
            j += 1
            budget -= 1
        budget -= 1
        if budget < 0:
            return None
        if j < n:
            partner[i], partner[j] = j, i
            choices.append((i, j))
            i, j = i + 1, 0
            continue
        if not choices:
            return None
        a, b = choices.pop()
        partner[a] = partner[b] = -1
        i, j = a, b + 1


def _exact(ids: Sequence[int], cost: SwissCost) -> tuple[list[Pair], int | None]:
    """A minimum-cost pairing (and bye) by maximum-weight perfect matching on the band graph.

    Weights are ``ceiling - cost`` with ``ceiling`` above every cost, so on
    perfect matchings (``max_cardinality``; they all have the same number of
    edges) the heaviest is the cheapest.  rustworkx is exact on integers.
    """
    n = len(ids)
    band = 4 * max(len(cost.met[i]) for i in ids) + 4
    ceiling = cost.rematch + cost.bye_step * (len(cost.bye_place) + 1)
    edges = [(a, b, ceiling - cost.pair(ids[a], ids[b])) for a in range(n) for b in range(a + 1, min(n, a + band + 1))]
    if n % 2:
        edges += [(a, n, ceiling - bye_cost) for a in range(n) if (bye_cost := cost.bye(ids[a])) is not None]
    matching = _matching(n + n % 2, edges, max_cardinality=True)
    if 2 * len(matching) != n + n % 2:  # pragma: no cover - the band always holds a perfect matching
        raise AssertionError("no perfect matching")
    pairs: list[Pair] = []
    bye: int | None = None
    for a, b in sorted(matching):
        if b == n:
            bye = ids[a]
        else:
            pairs.append((ids[a], ids[b]))
    return pairs, bye
