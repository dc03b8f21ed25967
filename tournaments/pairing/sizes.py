"""How many tables of which sizes a round needs.

:func:`pod_sizes` picks the multiset of table sizes for ``n`` players, each
size within ``[table_size.min, table_size.max]``, by these criteria in order:

1. cover as many players as possible (fewest byes);
2. fewest tables larger than ``table_size.preferred`` (a five-player pod is
   legal in some formats but slower and less fair than a four);
3. smallest sum of squared deviations from ``preferred`` (two pods of three
   beat a four and a two: each seat is as close to the intended game as it
   can be);
4. on a tie, fewer tables.

It is arithmetic, not a search over partitions: for a fixed number of tables
``k`` the best sizes are known in closed form (see :func:`_best_for_count`), so
the cost is one step per candidate ``k``, fast for any field size.
"""

from __future__ import annotations

from rules.base import TableSize
from tournaments.pairing.types import PairingError

__all__ = ["pod_sizes"]


def pod_sizes(n: int, table_size: TableSize) -> tuple[list[int], int]:
    """Return ``(sizes, byes)``: table sizes largest first, and how many players sit out.

    ``n`` smaller than ``table_size.min`` gives ``([], n)``: nobody can be seated.
    """
    if not isinstance(table_size, TableSize):
        raise PairingError(f"table_size must be a TableSize, not {type(table_size).__name__}")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise PairingError(f"n must be a non-negative integer, not {n!r}")
    lo, hi = table_size.min, table_size.max
    seated = _most_seatable(n, lo, hi)
    if seated == 0:
        return [], n
    best: tuple[int, int, int] | None = None
    best_sizes: list[int] = []
    for k in range(-(-seated // hi), seated // lo + 1):
        large, deviation, sizes = _best_for_count(seated, k, table_size)
        key = (large, deviation, k)
        if best is None or key < best:
            best, best_sizes = key, sizes
    return best_sizes, n - seated


def _most_seatable(n: int, lo: int, hi: int) -> int:
    """The largest ``m <= n`` that ``k`` tables of ``lo..hi`` players can seat exactly, for some ``k``.

    ``k`` tables seat any number in ``[k*lo, k*hi]``; the gaps between those
    ranges are shorter than ``lo``, so this loop runs fewer than ``lo`` times.
    """
    for m in range(n, 0, -1):
        k = -(-m // hi)
        if k * lo <= m:
            return m
    return 0


def _best_for_count(m: int, k: int, table_size: TableSize) -> tuple[int, int, list[int]]:
    """Best sizes for exactly ``k`` tables seating ``m`` players: ``(tables above preferred, deviation, sizes)``.

    The caller guarantees ``k*min <= m <= k*max``.  The sum of squared
    deviations is convex, so sizes as equal as possible minimise it.  When the
    average exceeds ``preferred`` some tables must be larger: the fewest that
    can absorb the excess share it evenly and every other table sits at
    exactly ``preferred``.
    """
    pref, hi = table_size.preferred, table_size.max
    if m <= k * pref:
        q, r = divmod(m, k)
        deviation = r * (q + 1 - pref) ** 2 + (k - r) * (q - pref) ** 2
        return 0, deviation, [q + 1] * r + [q] * (k - r)
    excess = m - k * pref
    large = -(-excess // (hi - pref))
    q, r = divmod(excess, large)
    deviation = r * (q + 1) ** 2 + (large - r) * q**2
    return large, deviation, [pref + q + 1] * r + [pref + q] * (large - r) + [pref] * (k - large)
