"""The engine's entry point: check the inputs, then hand the round to the right pairer.

The rules themselves are written down in the package docstring
(:mod:`tournaments.pairing`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.formats.base import TableSize
from tournaments.pairing.common import (
    TieBreak,
    build_history,
    count_rematches,
    round_one_bye_order,
    seat_order,
    tie_break,
)
from tournaments.pairing.pods import pair_pods
from tournaments.pairing.sizes import pod_sizes
from tournaments.pairing.swiss import pair_swiss
from tournaments.pairing.types import Entrant, Pairing, PairingError, Table

__all__ = ["pair_round"]


def pair_round(entrants: Sequence[Entrant], *, table_size: TableSize, round_number: int, seed: int) -> Pairing:
    """Pair one round.  Same inputs and seed, same pairing; the order of ``entrants`` does not matter.

    Raises :class:`PairingError` for arguments of the wrong type or out of
    range, duplicate entrant ids, no active entrants, or fewer active entrants
    than one table needs.
    """
    _check_arguments(table_size=table_size, round_number=round_number, seed=seed)
    active = _active(entrants)
    if len(active) < table_size.min:
        raise PairingError(
            f"{len(active)} active entrant(s): a table needs at least {table_size.min}",
        )
    rng = random.Random(seed)
    met = build_history(active)
    tb = tie_break(active, rng)

    tables: list[tuple[int, ...]]
    byes: list[int]
    if round_number == 1:
        tables, byes = _first_round(active, table_size=table_size, tb=tb, rng=rng)
    elif table_size.is_one_vs_one:
        pairs, bye = pair_swiss(active, met=met, tb=tb, rng=rng)
        tables, byes = [*pairs], ([] if bye is None else [bye])
    else:
        tables, byes = pair_pods(active, table_size=table_size, met=met, tb=tb, rng=rng)

    return Pairing(
        tables=tuple(Table(number=n, seats=seats) for n, seats in enumerate(tables, start=1)),
        byes=tuple(sorted(byes)),
        rematches=count_rematches(tables, met),
        seed=seed,
    )


def _first_round(
    active: Sequence[Entrant], *, table_size: TableSize, tb: TieBreak, rng: random.Random
) -> tuple[list[tuple[int, ...]], list[int]]:
    """Random tables, largest first; random byes among the players with the fewest byes.

    Nobody has points or history yet that the pairing should respect, so a
    seeded shuffle is both fair and reproducible.
    """
    sizes, bye_count = pod_sizes(len(active), table_size)
    byes = [e.id for e in round_one_bye_order(active, tb)[:bye_count]]
    sitting_out = set(byes)
    shuffled = sorted((e for e in active if e.id not in sitting_out), key=lambda e: (tb[e.id], e.id))
    tables: list[tuple[int, ...]] = []
    start = 0
    for size in sizes:
        pod = shuffled[start : start + size]
        start += size
        if table_size.is_one_vs_one:
            tables.append(tuple(e.id for e in pod))
        else:
            tables.append(seat_order(pod, rng))
    return tables, byes


def _check_arguments(*, table_size: object, round_number: object, seed: object) -> None:
    if not isinstance(table_size, TableSize):
        raise PairingError(f"table_size must be a TableSize, not {type(table_size).__name__}")
    if not isinstance(round_number, int) or isinstance(round_number, bool) or round_number < 1:
        raise PairingError(f"round_number must be an integer of at least 1, not {round_number!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise PairingError(f"seed must be an integer, not {seed!r}")


def _active(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The entrants to pair, in id order, after checking the whole list (dropped included)."""
    entrants = list(entrants)
    seen: set[int] = set()
    for e in entrants:
        if not isinstance(e, Entrant):
            raise PairingError(f"entrants must be Entrant records, not {type(e).__name__}")
        numbers = (e.id, e.points, e.rank, e.byes, e.first_seats)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in numbers):
            raise PairingError(f"entrant {e.id!r}: id, points, rank, byes and first_seats must be integers")
        if e.id in seen:
            raise PairingError(f"duplicate entrant id {e.id}")
        if e.rank < 0 or e.byes < 0 or e.first_seats < 0:
            raise PairingError(f"entrant {e.id}: rank, byes and first_seats cannot be negative")
        seen.add(e.id)
    active = sorted((e for e in entrants if not e.dropped), key=lambda e: e.id)
    if not active:
        raise PairingError("there are no active entrants to pair")
    return active
