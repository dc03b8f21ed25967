"""Table sizes for a round: ``pod_sizes`` against the documented examples and a brute-force search."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import TableSize
from tournaments.pairing import PairingError, pod_sizes

MASTER_TRAINER = TableSize(2, 4, 4)
MT_SILVER = TableSize(3, 4, 4)
TRINITY = TableSize(3, 5, 4)
ONE_VS_ONE = TableSize(2, 2, 2)


@pytest.mark.parametrize(
    ("table_size", "n", "sizes", "byes"),
    [
        (MASTER_TRAINER, 5, [3, 2], 0),
        (MASTER_TRAINER, 6, [3, 3], 0),
        (MASTER_TRAINER, 8, [4, 4], 0),
        (MASTER_TRAINER, 9, [3, 3, 3], 0),
        (MT_SILVER, 5, [4], 1),
        (MT_SILVER, 6, [3, 3], 0),
        (MT_SILVER, 7, [4, 3], 0),
        (MT_SILVER, 11, [4, 4, 3], 0),
        (MT_SILVER, 2, [], 2),
        (TRINITY, 5, [5], 0),
        (TRINITY, 9, [3, 3, 3], 0),
        (TRINITY, 10, [4, 3, 3], 0),
        (ONE_VS_ONE, 7, [2, 2, 2], 1),
        (ONE_VS_ONE, 8, [2, 2, 2, 2], 0),
    ],
)
def test_it_chooses_the_documented_sizes(table_size: TableSize, n: int, sizes: list[int], byes: int) -> None:
    assert pod_sizes(n, table_size) == (sizes, byes)


def test_it_seats_nobody_when_there_is_nobody() -> None:
    assert pod_sizes(0, MT_SILVER) == ([], 0)


def test_it_gives_everyone_a_bye_when_no_table_can_be_filled() -> None:
    assert pod_sizes(1, MASTER_TRAINER) == ([], 1)
    assert pod_sizes(1, ONE_VS_ONE) == ([], 1)


def test_it_prefers_a_five_only_when_the_players_cannot_be_seated_otherwise() -> None:
    assert pod_sizes(5, TRINITY) == ([5], 0)
    assert pod_sizes(13, TRINITY) == ([4, 3, 3, 3], 0)


def test_it_is_quick_arithmetic_for_ten_thousand_players() -> None:
    sizes, byes = pod_sizes(10_000, MT_SILVER)
    assert (sizes, byes) == ([4] * 2500, 0)
    sizes, byes = pod_sizes(10_001, MT_SILVER)
    assert byes == 0 and sum(sizes) == 10_001 and sizes.count(3) == 3


@pytest.mark.parametrize("n", [-1, 2.0, True, "4"])
def test_it_rejects_a_player_count_that_is_not_a_non_negative_integer(n: object) -> None:
    with pytest.raises(PairingError):
        pod_sizes(n, MT_SILVER)  # type: ignore[arg-type]


def test_it_rejects_a_table_size_that_is_not_a_table_size() -> None:
    with pytest.raises(PairingError):
        pod_sizes(8, (3, 4, 4))  # type: ignore[arg-type]


def _brute_force(n: int, table_size: TableSize) -> tuple[list[int], int]:
    """Every multiset of legal sizes, ranked by the documented criteria (then fewer tables)."""
    legal = range(table_size.min, table_size.max + 1)

    @cache
    def multisets(total: int, largest: int) -> list[tuple[int, ...]]:
        if total == 0:
            return [()]
        return [
            (size, *rest)
            for size in legal
            if size <= largest and size <= total
            for rest in multisets(total - size, size)
        ]

    best: tuple[int, int, int, int] | None = None
    best_sizes: tuple[int, ...] = ()
    for seated in range(n, -1, -1):
        for sizes in multisets(seated, table_size.max):
            key = (
                n - seated,
                sum(1 for s in sizes if s > table_size.preferred),
                sum((s - table_size.preferred) ** 2 for s in sizes),
                len(sizes),
            )
            if best is None or key < best:
                best, best_sizes = key, sizes
    assert best is not None
    return list(best_sizes), best[0]


@st.composite
def table_sizes(draw: st.DrawFn) -> TableSize:
    low = draw(st.integers(2, 4))
    high = draw(st.integers(low, 6))
    return TableSize(low, high, draw(st.integers(low, high)))


@settings(max_examples=300, deadline=None)
@given(table_size=table_sizes(), n=st.integers(0, 30))
def test_it_agrees_with_a_brute_force_search_over_all_multisets(table_size: TableSize, n: int) -> None:
    assert pod_sizes(n, table_size) == _brute_force(n, table_size)


@settings(max_examples=200, deadline=None)
@given(table_size=table_sizes(), n=st.integers(0, 10_000))
def test_every_table_is_legal_and_the_sizes_add_up(table_size: TableSize, n: int) -> None:
    sizes, byes = pod_sizes(n, table_size)
    assert sum(sizes) + byes == n
    assert all(table_size.min <= s <= table_size.max for s in sizes)
    assert sizes == sorted(sizes, reverse=True)
    assert byes < table_size.min
