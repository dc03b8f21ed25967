"""Helpers shared by the Swiss (1v1) and pod pairers: history, orderings, byes, seats.

Every random choice draws from the one ``random.Random(seed)`` the round was
started with, in an order that depends only on the inputs, so a pairing can be
reproduced from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from itertools import accumulate, batched, chain, groupby

import numpy as np

from tournaments.pairing.types import Entrant

__all__ = [
    "History",
    "TieBreak",
    "build_history",
    "bye_order",
    "count_rematches",
    "random_column",
    "randoms",
    "rank_key",
    "round_one_bye_order",
    "seat_order",
    "seat_positions",
    "seat_runs",
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
    return dict(zip(ids, randoms(rng, len(ids)), strict=True))


def randoms(rng: random.Random, n: int) -> list[float]:
    """``[rng.random() for _ in range(n)]``, the same numbers and the generator left in the same state, in one draw.

    ``random()`` makes each number from two 32-bit words of the Mersenne
    Twister, ``(a >> 5) * 2 ** 26 + (b >> 6)`` over ``2 ** 53``, and
    ``getrandbits(64 * n)`` hands out the next ``2 * n`` words in the same
    order, least significant first; the arithmetic of :func:`random_column`
    is the one ``random()`` does, in doubles, so every number is bit for bit
    the same.  At 10,000 players that is a tenth of the calls' time.  A
    subclass of :class:`random.Random` with its own ``random()`` is called
    as it is.
    """
    if type(rng) is not random.Random or n < 64:
        draw = rng.random
        return [draw() for _ in range(n)]
    values: list[float] = random_column(rng, n).tolist()
    return values


def random_column(rng: random.Random, n: int) -> np.ndarray:
    """:func:`randoms` as an array of doubles: the same numbers, the generator left in the same state."""
    if type(rng) is not random.Random or n < 64:
        return np.array(randoms(rng, n), dtype=np.float64)
    words = np.frombuffer(rng.getrandbits(64 * n).to_bytes(8 * n, "little"), dtype="<u4")
    high, low = words[0::2] >> np.uint32(5), words[1::2] >> np.uint32(6)
    return (high * 67108864.0 + low) * (1.0 / 9007199254740992.0)


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

    The rule of :func:`seat_order`, with arrays instead of a loop per pod
    (see :func:`seat_runs`, which this calls with the pods grouped by size,
    largest first; the pods of one size keep their order, so the seats are
    the same whatever order the sizes come in).
    """
    sizes = [len(pod) for pod in pods]
    # Largest first, stable: the grouping seat_runs reads; most callers' pods are in that order already.
    grouped = sorted(range(len(pods)), key=sizes.__getitem__, reverse=True)
    runs = np.fromiter(chain.from_iterable(map(pods.__getitem__, grouped)), dtype=np.int64, count=sum(sizes))
    seated = seat_runs(runs, [sizes[k] for k in grouped], ids, first_seats, rng)
    tables: list[tuple[int, ...]] = [()] * len(pods)
    for k, seats in zip(grouped, seated, strict=True):
        tables[k] = seats
    return tables


def seat_runs(
    seating: np.ndarray,
    sizes: Sequence[int],
    ids: Sequence[int] | np.ndarray,
    first_seats: Sequence[int],
    rng: random.Random,
) -> list[tuple[int, ...]]:
    """The seats (entrant ids) of pods given as consecutive runs of ``seating``, positions into ``ids`` and ``first_seats``.

    Pod ``k`` is the next ``sizes[k]`` positions of ``seating``; ``sizes``
    must not increase (largest first, as tables are numbered), so the pods
    of one size are one stretch of it.  The rule of :func:`seat_order`, with
    arrays instead of a loop per pod.  Each pod of ``s`` players gets
    ``2 * s`` random 53-bit numbers, read from one ``rng.randbytes`` per pod
    size, smallest size first: seat 1 goes to the player with the fewest
    first seats and, among those, the smallest of the first ``s`` numbers;
    the others sit in the order of the second ``s``.  Two separate draws, so
    who takes seat 1 tells nothing about the order of the rest.  (``rng``
    rather than a numpy generator: numpy's random module costs a tenth of a
    second to load, which the first round of a process would pay.)
    """
    # Ids given as an array are read back out of it (as ints, whatever its type); any others as Python objects, so
    # they go back out exactly as they came in, whatever their size.
    id_column = ids if isinstance(ids, np.ndarray) else np.asarray(ids, dtype=object)
    try:
        first_column = np.fromiter(first_seats, dtype=np.int64, count=len(first_seats))
    except OverflowError:  # a count no event reaches: the same rule, pod by pod
        flat, id_list = seating.tolist(), id_column.tolist()
        return [
            _seat_one(flat[a - s : a], id_list, first_seats, rng) for a, s in zip(accumulate(sizes), sizes, strict=True)
        ]
    # The stretches of one size, (size, first position, pods), largest first.
    stretches: list[tuple[int, int, int]] = []
    at = 0
    for size, run in groupby(sizes):
        count = len(list(run))
        stretches.append((size, at, count))
        at += size * count
    if len({size for size, _, _ in stretches}) != len(stretches):  # a size twice: its pods would be seated once
        raise ValueError(f"seat_runs takes the pods largest first, not sizes {list(sizes)}")
    seated_by_size: dict[int, list[tuple[int, ...]]] = {}
    for size, at, count in sorted(stretches):
        where = seating[at : at + size * count]
        # Little-endian whatever the machine, so the same seed seats the same way everywhere.
        words = np.frombuffer(rng.randbytes(16 * count * size), dtype="<u8")
        whole = (words >> np.uint64(11)).astype(np.int64).reshape(2, count, size)
        draws = whole.astype(np.float64)
        # Seat 1: the least (first seats, first draw) of each pod, the first such were two the same.
        firsts = first_column[where].reshape(-1, size)
        if -(2**9) <= int(firsts.min()) and int(firsts.max()) < 2**9:
            # As one integer: the draws are whole numbers below 2 ** 53 and the first seats fit above them.
            first = np.argmin(firsts * (1 << 53) + whole[0], axis=1)
        else:
            first = np.lexsort((draws[0], firsts), axis=1)[:, 0]
        rest = draws[1]
        rest[np.arange(count), first] = -1.0
        order = np.argsort(rest, axis=1)
        # The seats as positions, pod after pod; their ids in one list, cut into tuples of ``size``.
        seats = id_column[np.take_along_axis(where.reshape(-1, size), order, axis=1).ravel()].tolist()
        seated_by_size[size] = list(batched(seats, size))
    if len(stretches) == 1:
        return seated_by_size[stretches[0][0]]
    return list(chain.from_iterable(seated_by_size[size] for size, _, _ in stretches))


def _seat_one(
    pod: Sequence[int], ids: Sequence[int], first_seats: Sequence[int], rng: random.Random
) -> tuple[int, ...]:
    fewest = min(first_seats[i] for i in pod)
    first = rng.choice([i for i in pod if first_seats[i] == fewest])
    rest = [ids[i] for i in pod if i != first]
    rng.shuffle(rest)
    return (ids[first], *rest)
