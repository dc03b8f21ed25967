"""The standings engine's array arithmetic against the plain-Python definitions, bit for bit (no database)."""

from __future__ import annotations

from math import fsum

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings import arrays

values = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)
meetings = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=60)


def python_means(pairs, table, count):
    met = [[table[o] for p, o in pairs if p == i] for i in range(count)]
    return [fsum(m) / len(m) if m else 0.0 for m in met]


@settings(max_examples=300, deadline=None)
@given(meetings, st.lists(values, min_size=6, max_size=6))
def test_opponent_means_are_fsum_means_to_the_last_bit(pairs, table) -> None:
    player = np.array([p for p, _ in pairs], dtype=np.intp).reshape(-1)
    opponent = np.array([o for _, o in pairs], dtype=np.intp)

    means = arrays.opponent_means(player, opponent, np.array(table), np.bincount(player, minlength=6))

    assert means.tolist() == python_means(pairs, table, 6)


@settings(max_examples=200, deadline=None)
@given(meetings, st.lists(st.sampled_from([0.0, 0.25, 1 / 3, 2 / 3, 0.1, 1.0, 5e-324, 1e-300, 1e300]), min_size=6,
                          max_size=6))  # fmt: skip
def test_values_too_far_apart_for_whole_numbers_are_summed_by_fsum(pairs, table) -> None:
    player = np.array([p for p, _ in pairs], dtype=np.intp).reshape(-1)
    opponent = np.array([o for _, o in pairs], dtype=np.intp)

    means = arrays.opponent_means(player, opponent, np.array(table), np.bincount(player, minlength=6))

    assert means.tolist() == python_means(pairs, table, 6)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(values, st.integers(0, 10**7).map(lambda k: (2 * k + 1) / 2_000_000)), max_size=30))
def test_rounding_is_pythons_round_to_six_decimals_even_at_a_half(numbers) -> None:
    assert arrays.round_half_even(np.array(numbers, dtype=float)).tolist() == [round(x, 6) for x in numbers]
