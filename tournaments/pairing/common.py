"""Helpers shared by the Swiss (1v1) and pod pairers: history, orderings, byes, seats.

Every random choice draws from the one ``random.Random(seed)`` the round was
started with, in an order that depends only on the inputs, so a pairing can be
reproduced from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from itertools import accumulate, chain

import numpy as np

from tournaments.pairing.types import Entrant

__all__ = [
    "History",
    "TieBreak",
    "build_history",
    "bye_order",
    "count_rematches",
    "rank_key",
    "round_one_bye_order",
    "seat_order",
    "seat_positions",
    "seat_tables",
    "tie_break",
]

#: ``rank == 0`` means "unknown": tied with the other unknowns, behind every ranked player.
_UNRANKED = 2**62

#: ``{entrant id: ids of the active entrants they have met}``, symmetric.
History = Mapping[int, frozenset[int]]

#: ``{entrant id: random number}`` drawn once per round to break ties fairly but reproducibly.
TieBreak = Mapping[int, float]


def rank_key(entrant: Entrant) -> int:
    """Sort key for standings, best first; unknown ranks tie for last."""
    return entrant.rank if entrant.rank > 0 else _UNRANKED


def build_history(active: Sequence[Entrant]) -> dict[int, frozenset[int]]:
    """Who has met whom among the active entrants.

    Made symmetric because the caller's data may not be (a result corrected on
    one side only): if either player remembers the meeting, it counts.
    Opponents who dropped or are unknown cannot be met again, so they are left
    out.

    Each entrant's opponents are intersected with the active ids in one set
    operation (or kept as they are when all of them are active).  Symmetry is
    then checked by counting, looking each pair up from one side only: with
    ``E`` remembered meetings (both directions) and ``S`` pairs ``a < b`` that
    both remember, the history is symmetric exactly
    when ``E == 2 * S``.  Only if it is not are the forgotten sides added.
    """
    ids = frozenset(e.id for e in active)
    met: dict[int, frozenset[int]] = {}
    remembered = 0
    for e in active:
        known = e.opponents
        # Most histories name active players only: keep the entrant's own set rather than copy it.
        if type(known) is not frozenset or not known <= ids:
            known = ids.intersection(known)
        if e.id in known:
            known = known - {e.id}
        met[e.id] = known
        remembered += len(known)
    mutual = 0
    for a, known in met.items():
        mutual += sum([1 for b in known if b > a and a in met[b]])
    if remembered == 2 * mutual:
        return met
    forgotten: dict[int, list[int]] = {}
    for a, known in met.items():
        for b in known:
            if a not in met[b]:
                forgotten.setdefault(b, []).append(a)
    for b, more in forgotten.items():
        met[b] = met[b].union(more)
    return met


def tie_break(active: Sequence[Entrant], rng: random.Random) -> dict[int, float]:
    """One random number per entrant, drawn in id order so input order never matters."""
    ids = sorted([e.id for e in active])
    draw = rng.random
    return dict(zip(ids, [draw() for _ in ids], strict=True))


def count_rematches(tables: Iterable[Sequence[int]], met: History) -> int:
    """Pairs of players seated at the same table who had met before."""
    total = 0
    for seats in tables:
        for i in range(len(seats) - 1):
            total += len(met[seats[i]].intersection(seats[i + 1 :]))
    return total


def bye_order(active: Sequence[Entrant], tb: TieBreak) -> list[Entrant]:
    """Who gets a bye first: fewest byes so far, then lowest ranked (worst rank, then fewest points).

    Sorting by byes first is what keeps a player from a second bye while an
    active player has none.
    """
    return sorted(active, key=lambda e: (e.byes, -rank_key(e), e.points, tb[e.id], e.id))


def round_one_bye_order(active: Sequence[Entrant], tb: TieBreak) -> list[Entrant]:
    """Round 1 byes are random, but still never a second bye while someone has none."""
    return sorted(active, key=lambda e: (e.byes, tb[e.id], e.id))


def seat_order(pod: Sequence[Entrant], rng: random.Random) -> tuple[int, ...]:
    """Seat 1 (goes first) to a player who has gone first least often; the others at random.

    Going first is an advantage in most pod formats, so it is shared out over
    the event; the remaining seats carry no advantage worth balancing.  The
    engine seats whole rounds with :func:`seat_tables` (the same rule, in arrays).
    """
    fewest = min(e.first_seats for e in pod)
    first = rng.choice([e for e in pod if e.first_seats == fewest])
    rest = [e.id for e in pod if e.id != first.id]
    rng.shuffle(rest)
    return (first.id, *rest)


def seat_tables(pods: Sequence[Sequence[Entrant]], rng: random.Random) -> list[tuple[int, ...]]:
    """:func:`seat_order` for many pods at once (see :func:`seat_positions`)."""
    flat = list(chain.from_iterable(pods))
    at = accumulate(map(len, pods), initial=0)
    positions = [range(start, start + len(pod)) for start, pod in zip(at, pods, strict=False)]
    return seat_positions(positions, [e.id for e in flat], [e.first_seats for e in flat], rng)


def seat_positions(
    pods: Sequence[Sequence[int]], ids: Sequence[int], first_seats: Sequence[int], rng: random.Random
) -> list[tuple[int, ...]]:
    """The seats (entrant ids) of many pods given as positions into the columns ``ids`` and ``first_seats``.

    The rule of :func:`seat_order`, with arrays instead of a loop per pod.
    Each pod of ``s`` players gets ``2 * s`` random 53-bit numbers, read
    from one ``rng.randbytes`` per pod size: seat 1 goes to the player with
    the fewest first seats and, among those, the smallest of the first
    ``s`` numbers; the others sit in the order of the second ``s``.  Two
    separate draws, so who takes seat 1 tells nothing about the order of the
    rest.  Pods of one size are seated together.  (``rng`` rather than a
    numpy generator: numpy's random module costs a tenth of a second to
    load, which the first round of a process would pay.)
    """
    sizes = np.fromiter(map(len, pods), dtype=np.int64, count=len(pods))
    # Ids as Python objects: they go back out exactly as they came in, whatever their size.
    id_column = np.array(ids, dtype=object)
    try:
        first_column = np.array(first_seats, dtype=np.int64)
    except OverflowError:  # a count no event reaches: the same rule, pod by pod
        return [_seat_one(pod, ids, first_seats, rng) for pod in pods]
    tables: list[tuple[int, ...]] = [()] * len(pods)
    for size in sorted(set(sizes.tolist())):
        which = np.flatnonzero(sizes == size).tolist()
        where = np.fromiter(chain.from_iterable(map(pods.__getitem__, which)), dtype=np.int64, count=len(which) * size)
        # Little-endian whatever the machine, so the same seed seats the same way everywhere.
        words = np.frombuffer(rng.randbytes(16 * len(which) * size), dtype="<u8")
        draws = (words >> np.uint64(11)).astype(np.float64).reshape(2, len(which), size)
        # Sorted by (first seats, first draw) along each pod: column 0 is the player for seat 1.
        first = np.lexsort((draws[0], first_column[where].reshape(-1, size)), axis=1)[:, 0]
        rest = draws[1]
        rest[np.arange(len(which)), first] = -1.0
        order = np.argsort(rest, axis=1)
        seated = np.take_along_axis(id_column[where].reshape(-1, size), order, axis=1).tolist()
        if len(which) == len(pods):
            return list(map(tuple, seated))
        for k, seats in zip(which, seated, strict=True):
            tables[k] = tuple(seats)
    return tables


def _seat_one(
    pod: Sequence[int], ids: Sequence[int], first_seats: Sequence[int], rng: random.Random
) -> tuple[int, ...]:
    fewest = min(first_seats[i] for i in pod)
    first = rng.choice([i for i in pod if first_seats[i] == fewest])
    rest = [ids[i] for i in pod if i != first]
    rng.shuffle(rest)
    return (ids[first], *rest)
