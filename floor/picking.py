"""Drawing tables for deck checks at random, the same way every time for the same seed.

Terms.  A *table* is a table number of one round.  A table is *checked before* when a player seated at it had
their deck checked earlier in the event.  A *seed* is a whole number; the draw is a function of the seed, the
tables offered and which were checked before, so a head judge who writes the seed down (Podium keeps it) can show
how the tables were picked, and drawing again with the same seed picks the same tables.

The contract (:func:`draw_tables`): tables checked before are *less likely*, not excluded: they are drawn only once
every other table is picked (a round with few tables still gets its checks).  Tables already checked this round are
not offered at all (the service leaves them out).  Asking for more tables than are offered is refused.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable


class TooFewTables(ValueError):
    """More tables asked for than the round has left to check."""


def draw_tables(*, tables: Iterable[int], checked_before: Collection[int], count: int, seed: int) -> list[int]:
    """``count`` table numbers out of ``tables``, in the order drawn: the fresh tables first (shuffled by ``seed``),
    then, when they run out, the tables checked before (shuffled by the same seed)."""
    offered = sorted(set(tables))
    if count < 1:
        raise ValueError("count must be at least 1")
    if count > len(offered):
        raise TooFewTables(f"{count} tables asked for, {len(offered)} left to check")
    generator = random.Random(seed)  # noqa: S311 - a fair, repeatable draw, not a secret
    fresh = [t for t in offered if t not in checked_before]
    again = [t for t in offered if t in checked_before]
    generator.shuffle(fresh)
    generator.shuffle(again)
    return (fresh + again)[:count]
