"""The Swiss pairer reaches the exact optimum of its stated objective.

An oracle solves the same objective (:class:`~tournaments.pairing.swiss.SwissCost`)
as a min-cost perfect matching on the complete graph of the field, plus the bye
vertex in an odd field (``networkx.max_weight_matching`` on negated costs,
``maxcardinality=True``), and the engine's objective must equal it, on
thousands of random fields: points from a few rounds of results, random
histories from sparse to dense, odd and even, byes, unknown ranks and drops,
from 2 players up to 600; and on every round of simulated events
(:mod:`tournaments.pairing.fields`) up to round 16, with drops and late
entries, the engine pairing each round of its own event.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import TableSize
from tests.support.pairing import oracle, random_field
from tournaments.pairing import Entrant, Pairing, pair_round
from tournaments.pairing.fields import RANKS, FieldSpec, adversarial_specs, play
from tournaments.pairing.swiss import SwissCost, _exact, swiss_objective

ONE_VS_ONE = TableSize(2, 2, 2)


def check(seed: int, n: int, density: str | None = None) -> None:
    rng = random.Random(seed)
    field = random_field(rng, n, density)
    pairing = pair_round(field, table_size=ONE_VS_ONE, round_number=rng.randint(2, 9), seed=rng.randrange(2**32))
    assert pairing.objective == swiss_objective(pairing, field) == oracle(field), f"seed {seed}, {n} players"


@pytest.mark.parametrize("block", range(10))
def test_small_fields_reach_the_exact_optimum(block: int) -> None:
    for k in range(200):
        seed = 1_000 * block + k
        check(seed, random.Random(seed).randint(2, 24))


@pytest.mark.parametrize("block", range(3))
def test_medium_fields_reach_the_exact_optimum(block: int) -> None:
    for k in range(50):
        seed = 100_000 + 1_000 * block + k
        check(seed, random.Random(seed).randint(25, 90))


@pytest.mark.parametrize(("n", "density"), [(128, None), (199, "cliques"), (256, "sparse"), (301, "cliques")])
def test_large_fields_reach_the_exact_optimum(n: int, density: str | None) -> None:
    check(200_000 + n, n, density)


@pytest.mark.parametrize(("n", "density"), [(599, "cliques"), (600, "sparse")])
def test_fields_of_600_reach_the_exact_optimum(n: int, density: str) -> None:
    check(300_000 + n, n, density)


def test_a_large_field_the_greedy_pass_cannot_pair_is_still_optimal() -> None:
    # The two 21-point players have met, and so have the top four on 18: the fast path fails,
    # so the band-limited exact matching decides.
    rng = random.Random(11)
    n = 300
    points = [21, 21] + [18] * 9 + [rng.choice((0, 3, 6, 9, 12, 15)) for _ in range(n - 11)]
    met: dict[int, set[int]] = {i: set() for i in range(n)}
    for group in ([0, 1], [2, 3, 4, 5]):
        for i in group:
            met[i] |= set(group) - {i}
    for i in range(n):
        for j in rng.sample(range(n), 5):
            if j != i:
                met[i].add(j)
                met[j].add(i)
    field = [Entrant(id=i, points=points[i], rank=0, opponents=frozenset(met[i])) for i in range(n)]
    pairing = pair_round(field, table_size=ONE_VS_ONE, round_number=8, seed=3)
    assert pairing.rematches == 0
    assert pairing.objective == swiss_objective(pairing, field) == oracle(field)


def test_the_band_limited_exact_matching_loses_nothing() -> None:
    # The last resort sees only pairs at most 4m + 4 places apart in the standings (m: most opponents met).
    rng = random.Random(12)
    for n in (120, 301):
        field = random_field(rng, n, "sparse")
        active = [e for e in field if not e.dropped]
        cost = SwissCost(active)
        assert 4 * max(len(m) for m in cost.met.values()) + 4 < len(active)
        order = sorted(active, key=lambda e: (-e.points, e.id))
        pairs, bye = _exact([e.id for e in order], cost)
        assert cost.total(pairs, bye) == oracle(field)


# --- simulated events ----------------------------------------------------------------------------


def pair_and_check(entrants: list[Entrant], round_number: int, seed: int) -> Pairing:
    pairing = pair_round(entrants, table_size=ONE_VS_ONE, round_number=round_number, seed=seed)
    if round_number > 1:
        assert pairing.objective == swiss_objective(pairing, entrants) == oracle(entrants), f"round {round_number}"
    return pairing


def paired(entrants: list[Entrant], round_number: int, seed: int) -> Pairing:
    return pair_round(entrants, table_size=ONE_VS_ONE, round_number=round_number, seed=seed)


@pytest.mark.parametrize("spec", adversarial_specs([20, 33, 64], range(1, 5)), ids=lambda spec: spec.label)
def test_every_round_of_a_simulated_event_reaches_the_exact_optimum(spec: FieldSpec) -> None:
    for _ in play(spec, pair_and_check):
        pass


@pytest.mark.parametrize(
    ("spec", "checked"),
    [(spec, (9, 16)) for spec in adversarial_specs([128], [1, 2])]
    + [(spec, (16,)) for spec in adversarial_specs([256], [1])],
    ids=lambda value: value.label if isinstance(value, FieldSpec) else None,
)
def test_the_late_rounds_of_larger_simulated_events_reach_the_exact_optimum(
    spec: FieldSpec, checked: tuple[int]
) -> None:
    for number, entrants, pairing in play(spec, paired):
        if number in checked:
            assert pairing.objective == swiss_objective(pairing, entrants) == oracle(entrants), f"round {number}"


@settings(max_examples=60, deadline=None)
@given(
    spec=st.builds(
        FieldSpec,
        size=st.integers(2, 40),
        seed=st.integers(0, 10**6),
        rounds=st.integers(2, 16),
        draw_rate=st.sampled_from([0.0, 0.1, 0.4]),
        drop_share=st.sampled_from([0.0, 0.2, 0.5]),
        late_entries=st.integers(0, 6),
        late_round=st.integers(2, 6),
        ranks=st.sampled_from(RANKS),
    )
)
def test_any_simulated_event_reaches_the_exact_optimum_in_every_round(spec: FieldSpec) -> None:
    for _ in play(spec, pair_and_check):
        pass
