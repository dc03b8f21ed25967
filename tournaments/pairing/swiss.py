"""Swiss pairing for 1v1 formats, rounds 2 onwards.

The goal, in priority order:

1. **No avoidable rematch.**  If the players can be paired with nobody meeting
   an old opponent, they are; otherwise the number of rematches is the
   minimum possible.  This is a guarantee, not a heuristic: the answer is
   either rematch-free or comes from an exact maximum-weight matching over the
   whole field.
2. **The bye** (odd field) goes to a player with the fewest byes (so never a
   second bye while an active player has none), the lowest ranked among them,
   unless giving it to them forces more rematches than giving it to another of
   them would.
3. **Pair within point groups**, pairing down as little and as close as
   possible: the cost of a pair is the square of its point difference, so one
   pair-down across two groups costs more than two pair-downs across one.
   Within a point group the pairing is random (seeded), as in most card-game
   Swiss events.

How, and why it is fast.  Players are ordered by points (random within a
group) and cut into consecutive *segments* of about :data:`SEGMENT` players,
cut at even positions, preferring cuts between point groups.  Pairing sorted
neighbours is the ideal when nobody has met, and any even cut is consistent
with it, so segmenting costs nothing until history gets in the way.  Each
segment is paired on its own:

* a segment whose players all have the same points needs no weighing: a
  depth-first search (nearest partner first, backtracking, step budget) finds a
  rematch-free pairing quickly;
* any other segment, or one whose search gave up, is solved exactly with
  ``networkx.max_weight_matching`` on the complete graph of the segment, with
  weights that rank pairings by (rematches, squared point differences, a small
  seeded jitter that randomises ties).

A segment that cannot be paired without a rematch is merged with its
neighbour and tried again; when a merge reaches the whole field, the exact
matching of the whole field gives the minimum number of rematches.  So the
answer is rematch-free whenever the segments allow it, and exact otherwise.
For a field of up to ``1.5 * SEGMENT`` players the whole field is one segment,
solved exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import networkx as nx

from tournaments.pairing.common import History, TieBreak, bye_order, count_rematches
from tournaments.pairing.types import Entrant

__all__ = ["SEGMENT", "pair_swiss"]

#: Players per segment: large enough that history rarely forces a merge,
#: small enough that an exact matching of one takes a few milliseconds.
SEGMENT = 32

#: Step budget of the depth-first search, per player in the segment.
_SEARCH_STEPS_PER_PLAYER = 64

#: Jitter values per edge: ties between equally good pairings are broken at random.
_JITTER = 8

Pair = tuple[int, int]


def pair_swiss(
    active: Sequence[Entrant], *, met: History, tb: TieBreak, rng: random.Random
) -> tuple[list[Pair], int | None]:
    """Pair a round of a 1v1 event after round 1.

    Returns ``(pairs, bye)``: pairs as ``(seat 1, seat 2)`` ids in table order
    (table 1, the highest points, first; the player higher in the standings in
    seat 1), and the id of the player given the bye, or ``None``.
    """
    order = sorted(active, key=lambda e: (-e.points, tb[e.id], e.id))
    bye: int | None = None
    if len(order) % 2 == 0:
        pairs = _pair_even(order, met, rng)
    else:
        candidates = _fewest_byes(bye_order(active, tb))
        first = candidates[0]
        pairs = _pair_even([e for e in order if e.id != first.id], met, rng)
        bye = first.id
        if count_rematches(pairs, met):
            # The preferred player's bye forces a rematch.  One exact matching
            # over everyone, with the bye as an extra vertex joined to every
            # candidate, finds the fewest rematches any candidate allows and,
            # among those candidates, the most preferred.
            pairs, bye = _exact(order, met, rng, bye_candidates=candidates)
    position = {e.id: i for i, e in enumerate(order)}
    points = {e.id: e.points for e in order}
    oriented = [(a, b) if position[a] < position[b] else (b, a) for a, b in pairs]
    oriented.sort(key=lambda p: (-points[p[0]], -points[p[1]], position[p[0]]))
    return oriented, bye


def _fewest_byes(ordered: list[Entrant]) -> list[Entrant]:
    """The bye candidates: the players with the fewest byes, in bye order."""
    fewest = ordered[0].byes
    return [e for e in ordered if e.byes == fewest]


def _pair_even(order: Sequence[Entrant], met: History, rng: random.Random) -> list[Pair]:
    """Pair an even number of players, segment by segment (see the module docstring)."""
    segments = _segments(order)
    solved: list[list[Pair] | None] = [None] * len(segments)
    i = 0
    while i < len(segments):
        if len(segments) == 1:
            pairs, _ = _exact(segments[0], met, rng)
            return pairs
        pairs_or_none = _solve_segment(segments[i], met, rng)
        if pairs_or_none is not None:
            solved[i] = pairs_or_none
            i += 1
        elif i + 1 < len(segments):
            segments[i] = [*segments[i], *segments.pop(i + 1)]
            solved.pop(i + 1)
        else:
            segments[i - 1] = [*segments[i - 1], *segments.pop(i)]
            solved.pop(i)
            i -= 1
    return [pair for pairs in solved if pairs is not None for pair in pairs]


def _segments(order: Sequence[Entrant]) -> list[list[Entrant]]:
    """Cut the ordered field into consecutive even-sized segments of ``SEGMENT`` to ``2 * SEGMENT`` players.

    A cut between two point groups is preferred, because a segment of one
    point group is paired by the cheap search rather than the exact matching.
    """
    n = len(order)
    segments: list[list[Entrant]] = []
    start = 0
    while start < n:
        if n - start <= SEGMENT + SEGMENT // 2:
            segments.append(list(order[start:]))
            break
        cut = start + SEGMENT
        for size in range(SEGMENT, min(2 * SEGMENT, n - start - SEGMENT // 2) + 1, 2):
            if order[start + size - 1].points != order[start + size].points:
                cut = start + size
                break
        segments.append(list(order[start:cut]))
        start = cut
    return segments


def _solve_segment(segment: Sequence[Entrant], met: History, rng: random.Random) -> list[Pair] | None:
    """A rematch-free pairing of the segment, or ``None`` if it has none."""
    if segment[0].points == segment[-1].points:
        pairs = _search(segment, met)
        if pairs is not None:
            return pairs
    pairs, _ = _exact(segment, met, rng)
    return None if count_rematches(pairs, met) else pairs


def _search(segment: Sequence[Entrant], met: History) -> list[Pair] | None:
    """Depth-first search for a rematch-free pairing, nearest partner first; ``None`` if the budget runs out.

    The first unpaired player takes the nearest unpaired player they have not
    met; on a dead end the most recent choice is undone and the next partner
    tried.  Used only where every pairing is equally good on points, so the
    first pairing found is as good as any.
    """
    ids = [e.id for e in segment]
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


def _exact(
    players: Sequence[Entrant],
    met: History,
    rng: random.Random,
    *,
    bye_candidates: Sequence[Entrant] = (),
) -> tuple[list[Pair], int | None]:
    """The best pairing of ``players`` by maximum-weight matching on the complete graph.

    Pairings are ranked lexicographically by (fewest rematches, most preferred
    bye candidate, smallest sum of squared point differences, jitter).  The
    ranking is built into integer weights, each level worth more than all
    lower levels together can add, so one matching solves all of it exactly
    (networkx computes exactly with integer weights).  With
    ``maxcardinality=True`` the matching is perfect: everyone is paired, the
    bye vertex with one of ``bye_candidates``.
    """
    k = len(players)
    nodes = k + (1 if bye_candidates else 0)
    points = [e.points for e in players]
    spread = max(points) - min(points)
    levels = spread * spread + 1
    # Each edge adds less than _JITTER, so a whole matching adds less than ``unit``.
    unit = _JITTER * nodes
    closeness_total = nodes * (levels * unit + _JITTER)
    preference = closeness_total
    no_rematch = preference * (len(bye_candidates) + 1) + closeness_total

    edges: list[tuple[int, int, int]] = []
    for a in range(k):
        met_a = met[players[a].id]
        for b in range(a + 1, k):
            diff = points[a] - points[b]
            weight = (levels - diff * diff) * unit + rng.randrange(_JITTER)
            if players[b].id not in met_a:
                weight += no_rematch
            edges.append((a, b, weight))
    index = {e.id: i for i, e in enumerate(players)}
    for place, candidate in enumerate(bye_candidates):
        edges.append((index[candidate.id], k, no_rematch + preference * (len(bye_candidates) - place)))

    graph = nx.Graph()
    graph.add_nodes_from(range(nodes))
    graph.add_weighted_edges_from(edges)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != nodes:  # pragma: no cover - a complete graph always has a perfect matching
        raise AssertionError("no perfect matching")
    pairs: list[Pair] = []
    bye: int | None = None
    for a, b in sorted((min(u, v), max(u, v)) for u, v in matching):
        if b == k and bye_candidates:
            bye = players[a].id
        else:
            pairs.append((players[a].id, players[b].id))
    return pairs, bye
