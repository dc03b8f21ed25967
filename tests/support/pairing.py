"""Pairing for the tests: fields of entrants, an exact oracle, and the checks the Swiss and pod tests share.

- :func:`oracle`: the best objective of a field, found exactly.
- :func:`random_field`: a random field of entrants.
- ``MAIN_CODES``, :func:`check_table_numbers`, :func:`options`: the explanation codes of a pairing, the check of fixed table numbers, a hypothesis strategy of organiser options.
"""

from __future__ import annotations

import random
from dataclasses import replace

import networkx as nx
from hypothesis import strategies as st

from tournaments.pairing import Entrant, Pairing
from tournaments.pairing.swiss import SwissCost


def oracle(entrants: list[Entrant]) -> int:
    """The least objective any pairing of the active entrants can have."""
    active = [e for e in entrants if not e.dropped]
    cost = SwissCost(active)
    ids = [e.id for e in active]
    graph = nx.Graph()
    graph.add_weighted_edges_from((a, b, -cost.pair(a, b)) for i, a in enumerate(ids) for b in ids[i + 1 :])
    if len(ids) % 2:
        graph.add_weighted_edges_from((a, "bye", -c) for a in ids if (c := cost.bye(a)) is not None)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    assert 2 * len(matching) == len(ids) + len(ids) % 2
    return sum(-graph.edges[u, v]["weight"] for u, v in matching)


def random_field(rng: random.Random, n: int, density: str | None = None) -> list[Entrant]:
    """A field after a few rounds: points from random results, a random history, some byes, ranks and drops."""
    rounds = rng.randint(1, 7)
    draw_rate = rng.choice([0.0, 0.05, 0.2])
    points = [sum(1 if rng.random() < draw_rate else rng.choice((0, 3)) for _ in range(rounds)) for _ in range(n)]
    density = density or rng.choice(["sparse", "sparse", "sparse", "dense", "cliques"])
    met: dict[int, set[int]] = {i: set() for i in range(n)}
    if density == "sparse":
        for i in range(n):
            for j in rng.sample(range(n), min(n, rng.randint(0, rounds + 1))):
                if j != i:
                    met[i].add(j)
                    met[j].add(i)
    elif density == "dense":
        p = rng.choice([0.3, 0.6, 0.9])
        for i in range(n):
            for j in range(i + 1, n):
                if rng.random() < p:
                    met[i].add(j)
                    met[j].add(i)
    else:  # everyone in each point group's top few has met: the greedy pass cannot keep them apart
        for value in set(points):
            group = [i for i in range(n) if points[i] == value][: rng.randint(2, 5)]
            for i in group:
                met[i] |= set(group) - {i}
    ranked = rng.random() < 0.7
    field = []
    for i in range(n):
        rank = 1 + sum(q > points[i] for q in points) if ranked else rng.randint(0, n)
        field.append(
            Entrant(
                id=1000 + i,
                points=points[i],
                rank=rank,
                opponents=frozenset(1000 + j for j in met[i]),
                byes=rng.choice((0, 0, 0, 1)),
            )
        )
    for _ in range(rng.choice((0, 0, 1, 2))):
        k = rng.randrange(n)
        if sum(not e.dropped for e in field) > 2:
            field[k] = replace(field[k], dropped=True)
    return field


MAIN_CODES = {"first_round", "same_points", "paired_down", "paired_up", "mixed_points", "bye", "bye_assigned"}


def check_table_numbers(pairing: Pairing, unfixed: Pairing, fixed: dict[int, int]) -> None:
    """``pairing`` is ``unfixed`` (the same call without ``fixed_tables``) renumbered by the documented rule."""
    numbers = [t.number for t in pairing.tables]
    assert numbers == sorted(set(numbers)), "unique numbers, tables in number order"
    assert sorted(t.seats for t in pairing.tables) == sorted(t.seats for t in unfixed.tables), "same tables"
    assert pairing.byes == unfixed.byes
    claimed: set[int] = set()
    for table in pairing.tables:
        asked = {fixed[p]: p for p in table.seats if p in fixed}
        if asked:
            # Requests are taken in ascending number, so the smallest one at a table wins it.
            assert table.number == min(asked), "a fixed player's table carries the number asked for"
            claimed.add(table.number)
        for p in table.seats:
            assert ("fixed_table" in pairing.reasons[p]) == (bool(asked) and asked[min(asked)] == p)
    others = [t for t in pairing.tables if t.number not in claimed]
    free = [n for n in range(1, len(pairing.tables) + len(claimed) + 1) if n not in claimed][: len(others)]
    assert [t.number for t in others] == free, "the other tables take the smallest free numbers"
    order = {t.seats: i for i, t in enumerate(unfixed.tables)}
    assert [order[t.seats] for t in others] == sorted(order[t.seats] for t in others), "in top-down order"
    assert not any("fixed_table" in pairing.reasons[p] for p in pairing.byes), "a bye is just a bye"


@st.composite
def options(draw: st.DrawFn, field: list[Entrant], table_min: int = 2) -> tuple[set[int], dict[int, int]]:
    """Assigned byes (leaving nobody or at least ``table_min`` to pair) and fixed tables, dropped players included."""
    ids = [e.id for e in field if not e.dropped]
    assigned = set(draw(st.lists(st.sampled_from(ids), max_size=len(ids), unique=True)))
    if 0 < len(ids) - len(assigned) < table_min:
        assigned = set(ids) if draw(st.booleans()) else set()
    everyone = [e.id for e in field]
    fixed_ids = draw(st.lists(st.sampled_from(everyone), max_size=len(everyone), unique=True))
    numbers = draw(st.lists(st.integers(1, 40), min_size=len(fixed_ids), max_size=len(fixed_ids), unique=True))
    return assigned, dict(zip(fixed_ids, numbers, strict=True))
