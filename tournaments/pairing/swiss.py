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

Sort the players by points (randomly within a point group: the round's
tie-break numbers).  Two facts about squared differences drive everything:
a pair's cost is at least the sum of the squared gaps of the group boundaries
it crosses (``(x + y) ** 2 >= x ** 2 + y ** 2``, strictly when it crosses more
than one), and a boundary with an odd number of players above it is crossed by
an odd number of pairs, so at least once.  So::

    L = sum of gap ** 2 over the boundaries with an odd number of players above

is a lower bound on the squared differences of *any* pairing, and a
rematch-free pairing that costs ``L`` is optimal: each point group pairs inside
itself except for one *floater* sent to the next group at each odd boundary.

1. **Greedy walk** (:func:`_walk`, :func:`_greedy_group`).  From the top group
   down: the floaters from above each take the first player of this group they
   have not met; if an odd number is left, one of them (tried from the bottom
   of the group's random order) floats down; the rest are paired by a
   depth-first search for a rematch-free pairing (nearest partner first,
   backtracking, step budget).  Each boundary it pays for adds its
   ``gap ** 2`` to the walk's lower bound.  Linear time in a typical event.

2. **Exact windows** (:func:`_solve_window`), where a group cannot be paired
   greedily: the walk rolls back to take in groups above and below until the
   window holds about ``_WINDOWS[i]`` players, and solves it exactly
   (``networkx.max_weight_matching``, integer weights): the floaters from
   above must be paired; any player may instead *leave down* to the group below
   the window at ``(points - points below) ** 2``, and those leavers float into
   that group.  The window's share of the lower bound is the same problem
   *relaxed*: no floaters, but any player may also *leave up* at ``(points above
   - points) ** 2`` (any number, either way, so it bounds every pairing of the
   field).  Splitting each pair's cost at the window edges (squares again)
   shows that the walk's bound -- the boundaries the greedy steps own plus each
   window's relaxed optimum -- is at most the cost of every pairing.

3. **Certificate.**  If the walk's pairing costs exactly its lower bound it is
   optimal.  In an odd field the bye goes to a class-0 candidate first (all
   share points, so ``L`` does not depend on which); the result is certified
   only if it has no rematch and the bye's point group is outside every window,
   so the bound holds for every class-0 candidate alike.  Otherwise the walk is
   retried with larger windows, then:

4. **Exact fallback** (:func:`_exact`): ``networkx.max_weight_matching`` on the
   whole field with the same integer costs (and the bye vertex), a true
   minimum.  It is given only the pairs at most ``4 * m + 4`` places apart in
   the sorted order (``m`` = the most opponents any active player has met).
   That loses nothing: if an optimal pairing had a pair (a, b) with more than
   ``4m + 1`` players between them, those players belong to more than ``2m``
   other pairs (one may be the bye), at most ``2m`` of which hold someone a or
   b has met; re-pairing a and b with the two players of any other such pair,
   sorted neighbours together, makes no rematch and, the cost being convex in
   the point difference, costs no more, while strictly shortening the pairs'
   spans in the sorted order.  Repeating, an optimal pairing inside the band
   exists.  When the band covers everyone the graph is simply complete.

The tests (``tests/tournaments/test_pairing_exactness.py``) check the result
against an exact matching of the complete graph on thousands of random fields.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

from tournaments.pairing.common import History, TieBreak, build_history, bye_order, rank_key
from tournaments.pairing.types import Entrant, Pairing

__all__ = ["SwissCost", "pair_swiss", "swiss_objective"]

#: Step budget of the depth-first search, per player in the group.
_SEARCH_STEPS_PER_PLAYER = 64

#: Floaters tried per odd point group, and class-0 bye candidates tried, before the exact fallback.
_FLOAT_TRIES = 4
_BYE_TRIES = 4

#: Least players per exact window, tried in turn before the exact matching of the whole field.
_WINDOWS = (24, 96)

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
            candidates = [e for e in active if e.byes == fewest]
            keys = sorted({(-rank_key(e), e.points) for e in candidates})
            place = {key: i for i, key in enumerate(keys)}
            self.bye_place = {e.id: place[(-rank_key(e), e.points)] for e in candidates}
            classes = len(keys)
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
    active: Sequence[Entrant], *, met: History, tb: TieBreak, rng: random.Random
) -> tuple[list[Pair], int | None]:
    """Pair a round of a 1v1 event after round 1.

    Returns ``(pairs, bye)``: pairs as ``(seat 1, seat 2)`` ids in table order
    (table 1, the highest points, first; the player higher in the standings in
    seat 1), and the id of the player given the bye, or ``None``.  ``rng`` is
    not drawn from: the randomness is all in ``tb``.
    """
    order = sorted(active, key=lambda e: (-e.points, tb[e.id], e.id))
    cost = SwissCost(active, met)
    found: tuple[list[Pair], int | None] | None = None
    if len(order) % 2 == 0:
        for window in _WINDOWS:
            walk = _walk(order, cost, window)
            if walk is not None and walk.lower == cost.total(walk.pairs, None):
                found = (walk.pairs, None)
                break
    else:
        candidates = [e for e in bye_order(active, tb) if cost.bye_place.get(e.id) == 0][:_BYE_TRIES]
        for window in _WINDOWS:
            for candidate in candidates:
                walk = _walk([e for e in order if e.id != candidate.id], cost, window)
                # Certified for every class-0 candidate alike only if the bye-taker's point group
                # is outside every window, and no rematch (so no other bye class can do better).
                if (
                    walk is not None
                    and candidate.points not in walk.window_points
                    and walk.lower == cost.total(walk.pairs, None) < cost.rematch
                ):
                    found = (walk.pairs, candidate.id)
                    break
            if found is not None:
                break
    pairs, bye = found if found is not None else _exact(order, cost)
    position = {e.id: i for i, e in enumerate(order)}
    points = cost.points
    oriented = [(a, b) if position[a] < position[b] else (b, a) for a, b in pairs]
    oriented.sort(key=lambda p: (-points[p[0]], -points[p[1]], position[p[0]]))
    return oriented, bye


@dataclass
class _Walk:
    """A pairing built group by group, with a lower bound on what any pairing of the same players costs."""

    pairs: list[Pair]
    lower: int
    #: Points of the groups that were solved in a window rather than greedily.
    window_points: set[int]


def _walk(order: Sequence[Entrant], cost: SwissCost, min_window: int) -> _Walk | None:
    """Pair the point groups from the top, greedily where possible, in small exact windows where not.

    See the module docstring for the bound.  ``None`` if a group below a
    window cannot take the window's floaters greedily.
    """
    groups: list[list[int]] = []
    values: list[int] = []
    for e in order:
        if not values or e.points != values[-1]:
            groups.append([])
            values.append(e.points)
        groups[-1].append(e.id)
    met = cost.met
    pairs: list[Pair] = []
    floaters: list[int] = []
    lower = 0
    window_points: set[int] = set()
    #: The walk's state before each group, to roll back into a window that reaches up.
    before: dict[int, tuple[int, list[int], int]] = {}
    last_window = -1
    g = 0
    while g < len(groups):
        before[g] = (len(pairs), floaters, lower)
        below = groups[g + 1] if g + 1 < len(groups) else None
        step = _greedy_group(groups[g], floaters, below, met)
        if step is not None:
            inside, floater = step
            pairs += inside
            floaters = [] if floater is None else [floater]
            if floater is not None:
                gap = values[g] - values[g + 1]
                lower += gap * gap
            g += 1
            continue
        # A window of about ``min_window`` players around the failing group, from the last window down.
        start, size = g, len(groups[g])
        while start - 1 > last_window and size < min_window // 2:
            start -= 1
            size += len(groups[start])
        end = g
        while end + 1 < len(groups) and size < min_window:
            end += 1
            size += len(groups[end])
        done, floaters, lower = before[start]
        del pairs[done:]
        up: int | None = None
        if start > last_window + 1:
            # The group above was paired greedily: the window takes over the boundary above it.
            gap = values[start - 1] - values[start]
            lower -= gap * gap * len(floaters)
            up = values[start - 1]
        elif start > 0:
            up = values[start]
        window = [i for group in groups[start : end + 1] for i in group]
        window_points.update(values[start : end + 1])
        down = values[end + 1] if end + 1 < len(groups) else None
        paid, inside, leaving = _solve_window(floaters, window, cost, up=None, down=down)
        if up is not None:
            paid, _, _ = _solve_window([], window, cost, up=up, down=down)
        lower += paid
        pairs += inside
        floaters = leaving
        last_window = end
        g = end + 1
    if floaters:  # pragma: no cover - the last group or window pairs everyone left
        return None
    return _Walk(pairs, lower, window_points)


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


def _solve_window(
    fixed: list[int], window: list[int], cost: SwissCost, *, up: int | None, down: int | None
) -> tuple[int, list[Pair], list[int]]:
    """A cheapest pairing of ``fixed + window`` in which any player may leave instead of being paired.

    A player of ``window`` may leave up at ``(up - points) ** 2`` (if ``up``
    is given) and anyone may leave down at ``(points - down) ** 2`` (if
    ``down`` is given); each has private exit vertices, so any number may
    leave.  Every player must be paired or leave: each edge is worth ``BIG``
    per player it covers, minus its cost, with ``BIG`` above any total cost,
    so the maximum-weight matching covers everyone first and is cheapest
    second.  Returns ``(cost, pairs, players leaving down in order)``.
    """
    players = fixed + window
    k = len(players)
    points = [cost.points[i] for i in players]
    big = k * (cost.rematch + cost.bye_step) + 1
    graph = nx.Graph()
    graph.add_weighted_edges_from(
        (a, b, 2 * big - cost.pair(players[a], players[b])) for a in range(k) for b in range(a + 1, k)
    )
    if up is not None:
        graph.add_weighted_edges_from((a, k + a, big - (up - points[a]) ** 2) for a in range(len(fixed), k))
    if down is not None:
        graph.add_weighted_edges_from((a, 2 * k + a, big - (points[a] - down) ** 2) for a in range(k))
    graph.add_nodes_from(range(k))
    matching = nx.max_weight_matching(graph)
    paid = 0
    pairs: list[Pair] = []
    leaving: list[int] = []
    covered = 0
    for u, v in matching:
        a, b = min(u, v), max(u, v)
        if b < k:
            pairs.append((players[a], players[b]))
            paid += cost.pair(players[a], players[b])
            covered += 2
        elif b >= 2 * k:
            leaving.append(a)
            paid += (points[a] - down) ** 2  # type: ignore[operator]
            covered += 1
        else:
            paid += (up - points[a]) ** 2  # type: ignore[operator]
            covered += 1
    if covered != k:  # pragma: no cover - private exits or an even count always allow covering everyone
        raise AssertionError("a window player was left out")
    return paid, pairs, [players[a] for a in sorted(leaving)]


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


def _exact(order: Sequence[Entrant], cost: SwissCost) -> tuple[list[Pair], int | None]:
    """A minimum-cost pairing (and bye) by maximum-weight perfect matching on the band graph.

    Weights are ``ceiling - cost`` with ``ceiling`` above every cost, so on
    perfect matchings (``maxcardinality=True``; they all have the same number
    of edges) the heaviest is the cheapest.  networkx is exact on integers.
    """
    ids = [e.id for e in order]
    n = len(ids)
    band = 4 * max(len(cost.met[i]) for i in ids) + 4
    ceiling = cost.rematch + cost.bye_step * (len(cost.bye_place) + 1)
    graph = nx.Graph()
    graph.add_nodes_from(range(n + n % 2))
    graph.add_weighted_edges_from(
        (a, b, ceiling - cost.pair(ids[a], ids[b])) for a in range(n) for b in range(a + 1, min(n, a + band + 1))
    )
    if n % 2:
        graph.add_weighted_edges_from(
            (a, n, ceiling - bye_cost) for a in range(n) if (bye_cost := cost.bye(ids[a])) is not None
        )
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != graph.number_of_nodes():  # pragma: no cover - the band always holds a perfect matching
        raise AssertionError("no perfect matching")
    pairs: list[Pair] = []
    bye: int | None = None
    for a, b in sorted((min(u, v), max(u, v)) for u, v in matching):
        if b == n:
            bye = ids[a]
        else:
            pairs.append((ids[a], ids[b]))
    return pairs, bye
