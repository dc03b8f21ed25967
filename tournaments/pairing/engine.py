"""The engine's entry point: check the inputs, hand the round to the right pairer, then number and explain it.

The rules themselves are written down in the package docstring
(:mod:`tournaments.pairing`).  Whatever the round type, the same three steps
follow the pairing: tables get their numbers (fixed seats first, see
:func:`_number_tables`), every active player gets their reason codes and the
pairing its objective (:func:`_explain`, one pass), and the organiser's byes
are added back.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from itertools import count
from operator import attrgetter

from rules.base import TableSize
from tournaments.pairing.common import (
    History,
    TieBreak,
    build_history,
    round_one_bye_order,
    seat_order,
    tie_break,
)
from tournaments.pairing.pods import pair_pods, pod_spread, repeat_weight
from tournaments.pairing.sizes import pod_sizes
from tournaments.pairing.swiss import SwissCost, pair_swiss
from tournaments.pairing.types import Entrant, Pairing, PairingError, Table

__all__ = ["LEFTOVERS", "pair_round"]

#: What a pod round does with players the preferred table size leaves over (``leftovers=``).
LEFTOVERS = ("tables", "byes")
#: How round 1 is seated (``seeding=``).
SEEDINGS = ("random", "rating")


def pair_round(
    entrants: Sequence[Entrant],
    *,
    table_size: TableSize,
    round_number: int,
    seed: int,
    fixed_tables: Mapping[int, int] | None = None,
    assigned_byes: Collection[int] = (),
    leftovers: str = "tables",
    seeding: str = "random",
) -> Pairing:
    """Pair one round.  Same inputs and seed, same pairing; the order of ``entrants`` does not matter.

    ``fixed_tables`` maps entrant ids to the table number they must sit at;
    ``assigned_byes`` are the organiser's byes for this round; ``leftovers``
    (pods only) is ``"tables"`` (smaller tables take up the slack) or
    ``"byes"`` (no table below ``preferred``, the rest sit out); ``seeding``
    seats round 1 at ``"random"`` or by ``"rating"`` (each entrant's ``rank``).

    Raises :class:`PairingError` for arguments of the wrong type or out of
    range, duplicate entrant ids, no active entrants, assigned byes for
    players who are not active, two players fixed to one table number, or
    fewer players left to pair than one table needs.
    """
    _check_arguments(table_size=table_size, round_number=round_number, seed=seed, leftovers=leftovers)
    if seeding not in SEEDINGS:
        raise PairingError(f"seeding must be one of {', '.join(map(repr, SEEDINGS))}, not {seeding!r}")
    active = _active(entrants)
    assigned = _assigned_byes(assigned_byes, active)
    fixed = _fixed_tables(fixed_tables, active)
    players = [e for e in active if e.id not in assigned] if assigned else active
    one_vs_one = table_size.is_one_vs_one
    if leftovers == "byes" and not one_vs_one:
        # No table below preferred: pod_sizes then leaves the remainder over as byes.
        table_size = TableSize(min=table_size.preferred, max=table_size.max, preferred=table_size.preferred)
    if 0 < len(players) < table_size.min:
        after = f" after {len(assigned)} assigned bye(s)" if assigned else ""
        raise PairingError(f"{len(players)} entrant(s) to pair{after}: a table needs at least {table_size.min}")
    rng = random.Random(seed)
    met = build_history(players)
    tb = tie_break(players, rng)

    # The 1v1 objective's weights, built once: the Swiss pairer minimises it and the pairing is scored by it.
    swiss_cost = SwissCost(players, met) if one_vs_one and players else None

    tables: list[tuple[int, ...]]
    byes: list[int]
    if not players:
        tables, byes = [], []
    elif round_number == 1:
        tables, byes = _first_round(players, table_size=table_size, tb=tb, rng=rng, by_rating=seeding == "rating")
    elif one_vs_one:
        pairs, bye = pair_swiss(players, met=met, tb=tb, rng=rng, cost=swiss_cost)
        tables, byes = [*pairs], ([] if bye is None else [bye])
    else:
        tables, byes = pair_pods(players, table_size=table_size, met=met, tb=tb, rng=rng)

    points = swiss_cost.points if swiss_cost is not None else {e.id: e.points for e in players}
    numbered, honoured = _number_tables(tables, fixed)
    seated, rematches, spread = _explain(
        tables, points=points, met=met, first_round=round_number == 1, one_vs_one=one_vs_one, fixed=honoured
    )
    if not players:
        objective = 0
    elif swiss_cost is not None:
        objective = swiss_cost.from_parts(spread=spread, rematches=rematches, bye=byes[0] if byes else None)
    else:
        objective = rematches * repeat_weight(tables, points) + spread
    if round_number == 1 and seeding == "rating":
        seated = {p: (*codes, "seeded_by_rating") for p, codes in seated.items()}
    reasons = dict.fromkeys(assigned, _BYE_ASSIGNED) | dict.fromkeys(byes, _BYE) | seated
    return Pairing(
        tables=tuple(numbered),
        byes=tuple(sorted([*byes, *assigned])),
        rematches=rematches,
        seed=seed,
        objective=objective,
        reasons={e.id: reasons[e.id] for e in active},
    )


def _first_round(
    active: Sequence[Entrant], *, table_size: TableSize, tb: TieBreak, rng: random.Random, by_rating: bool = False
) -> tuple[list[tuple[int, ...]], list[int]]:
    """Random tables, largest first; random byes among the players with the fewest byes.

    Nobody has points or history yet that the pairing should respect, so a
    seeded shuffle is both fair and reproducible.  Seeded by rating, the
    players go in rating order instead (:func:`_seeded_tables`).
    """
    sizes, bye_count = pod_sizes(len(active), table_size)
    byes = [e.id for e in round_one_bye_order(active, tb)[:bye_count]]
    sitting_out = set(byes)
    if by_rating:
        ordered = sorted(
            (e for e in active if e.id not in sitting_out), key=lambda e: (e.rank or len(active) + 1, tb[e.id], e.id)
        )
        return _seeded_tables(ordered, sizes, one_vs_one=table_size.is_one_vs_one, rng=rng), byes
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


def _seeded_tables(
    ordered: Sequence[Entrant], sizes: Sequence[int], *, one_vs_one: bool, rng: random.Random
) -> list[tuple[int, ...]]:
    """Round 1 by rating (``ordered``: best first).  1v1: the top half meets the bottom half, the best pair at
    table 1.  Pods: a snake over the tables (1, 2, ... k, then k ... 1), skipping full ones."""
    if one_vs_one:
        half = len(ordered) // 2
        return [(ordered[i].id, ordered[i + half].id) for i in range(half)]
    pods: list[list[Entrant]] = [[] for _ in sizes]
    forward = list(range(len(sizes)))
    order = forward + forward[::-1]
    step = 0
    for entrant in ordered:
        while len(pods[order[step % len(order)]]) >= sizes[order[step % len(order)]]:
            step += 1
        pods[order[step % len(order)]].append(entrant)
        step += 1
    return [seat_order(pod, rng) for pod in pods]


def _number_tables(tables: Sequence[tuple[int, ...]], fixed: Mapping[int, int]) -> tuple[list[Table], set[int]]:
    """Tables in number order, and the fixed players whose number was honoured.

    Fixed players claim their table's number in ascending order of the number
    asked for; a table already claimed by another fixed player keeps the
    first claim.  Every other table takes the smallest free number, in the
    pairer's top-down order, so without fixed seats the numbers are 1, 2, 3 ...
    """
    if not fixed:
        return [Table(number=n, seats=seats) for n, seats in enumerate(tables, start=1)], set()
    table_of = {p: index for index, seats in enumerate(tables) for p in seats if p in fixed}
    numbers: list[int | None] = [None] * len(tables)
    honoured: set[int] = set()
    for p, number in sorted(fixed.items(), key=lambda item: item[1]):
        index = table_of.get(p)
        if index is not None and numbers[index] is None:
            numbers[index] = number
            honoured.add(p)
    taken = {n for n in numbers if n is not None}
    free = (n for n in count(1) if n not in taken)
    numbered = [
        Table(number=next(free) if n is None else n, seats=seats) for n, seats in zip(numbers, tables, strict=True)
    ]
    numbered.sort(key=lambda t: t.number)
    return numbered, honoured


# Reason codes of a seat: the main one, then any of ``rematch`` and ``fixed_table`` appended.
_FIRST_ROUND: tuple[str, ...] = ("first_round",)
_SAME_POINTS: tuple[str, ...] = ("same_points",)
_PAIRED_DOWN: tuple[str, ...] = ("paired_down",)
_PAIRED_UP: tuple[str, ...] = ("paired_up",)
_MIXED_POINTS: tuple[str, ...] = ("mixed_points",)
_BYE = ("bye",)
_BYE_ASSIGNED = ("bye_assigned",)


def _explain(
    tables: Sequence[tuple[int, ...]],
    *,
    points: Mapping[int, int],
    met: History,
    first_round: bool,
    one_vs_one: bool,
    fixed: Collection[int],
) -> tuple[dict[int, tuple[str, ...]], int, int]:
    """``(reason codes of the seated players, repeat pairs, spread)`` in one pass over the tables.

    Codes: the main code, then ``rematch``, then ``fixed_table``.  A table of
    two in a pod event is a pod like any other (``same_points`` or
    ``mixed_points``): pairing up and down are Swiss terms.  The spread is the
    sum over tables of the squared point difference of every pair at the
    table; with the repeat pairs it makes the objective of either round type.
    """
    reasons: dict[int, tuple[str, ...]] = {}
    rematches = spread = 0
    if one_vs_one:
        for a, b in tables:
            pa, pb = points[a], points[b]
            if first_round:
                ca = cb = _FIRST_ROUND
            elif pa == pb:
                ca = cb = _SAME_POINTS
            elif pa > pb:
                ca, cb = _PAIRED_DOWN, _PAIRED_UP
            else:
                ca, cb = _PAIRED_UP, _PAIRED_DOWN
            spread += (pa - pb) * (pa - pb)
            if b in met[a]:  # the history is symmetric
                rematches += 1
                ca, cb = (*ca, "rematch"), (*cb, "rematch")
            reasons[a] = ca
            reasons[b] = cb
    else:
        for seats in tables:
            here = pod_spread([points[p] for p in seats])
            spread += here
            # A pod's spread is zero exactly when everyone at it has the same points.
            main = _FIRST_ROUND if first_round else _MIXED_POINTS if here else _SAME_POINTS
            # Most pods hold no repeat: look at each pair once, and at each player only if one is found.
            if all(met[seats[i]].isdisjoint(seats[i + 1 :]) for i in range(len(seats) - 1)):
                for p in seats:
                    reasons[p] = main
                continue
            for p in seats:
                met_here = len(met[p].intersection(seats))
                rematches += met_here
                reasons[p] = (*main, "rematch") if met_here else main
        rematches //= 2  # each repeat pair was counted from both sides
    for p in fixed:
        reasons[p] = (*reasons[p], "fixed_table")
    return reasons, rematches, spread


def _check_arguments(*, table_size: object, round_number: object, seed: object, leftovers: object) -> None:
    if not isinstance(table_size, TableSize):
        raise PairingError(f"table_size must be a TableSize, not {type(table_size).__name__}")
    if not isinstance(round_number, int) or isinstance(round_number, bool) or round_number < 1:
        raise PairingError(f"round_number must be an integer of at least 1, not {round_number!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise PairingError(f"seed must be an integer, not {seed!r}")
    if not isinstance(leftovers, str) or leftovers not in LEFTOVERS:
        raise PairingError(f"leftovers must be one of {', '.join(map(repr, LEFTOVERS))}, not {leftovers!r}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _active(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The entrants to pair, in id order, after checking the whole list (dropped included)."""
    entrants = list(entrants)
    seen: set[int] = set()
    for e in entrants:
        if not isinstance(e, Entrant):
            raise PairingError(f"entrants must be Entrant records, not {type(e).__name__}")
        # Plain ints pass at once; anything else (bool, an int subclass, not a number) is looked at closely.
        plain = type(e.id) is type(e.points) is type(e.rank) is type(e.byes) is type(e.first_seats) is int
        if not plain and not all(_is_int(v) for v in (e.id, e.points, e.rank, e.byes, e.first_seats)):
            raise PairingError(f"entrant {e.id!r}: id, points, rank, byes and first_seats must be integers")
        if e.id in seen:
            raise PairingError(f"duplicate entrant id {e.id}")
        if e.rank < 0 or e.byes < 0 or e.first_seats < 0:
            raise PairingError(f"entrant {e.id}: rank, byes and first_seats cannot be negative")
        seen.add(e.id)
    active = sorted((e for e in entrants if not e.dropped), key=attrgetter("id"))
    if not active:
        raise PairingError("there are no active entrants to pair")
    return active


def _assigned_byes(assigned_byes: object, active: Sequence[Entrant]) -> frozenset[int]:
    """The organiser's byes, each an active entrant's id."""
    if isinstance(assigned_byes, str | bytes | Mapping) or not isinstance(assigned_byes, Iterable):
        raise PairingError(f"assigned_byes must be a collection of entrant ids, not {type(assigned_byes).__name__}")
    ids = list(assigned_byes)
    if not ids:
        return frozenset()
    active_ids = {e.id for e in active}
    for i in ids:
        if not _is_int(i):
            raise PairingError(f"assigned_byes must hold entrant ids (integers), not {i!r}")
        if i not in active_ids:
            raise PairingError(f"assigned bye for {i}, who is not an active entrant (unknown or dropped)")
    return frozenset(ids)


def _fixed_tables(fixed_tables: object, active: Sequence[Entrant]) -> dict[int, int]:
    """The fixed table numbers of the active entrants; those of anyone else do not matter."""
    if fixed_tables is None:
        return {}
    if not isinstance(fixed_tables, Mapping):
        raise PairingError(f"fixed_tables must map entrant ids to table numbers, not {type(fixed_tables).__name__}")
    if not fixed_tables:
        return {}
    active_ids = {e.id for e in active}
    fixed: dict[int, int] = {}
    holder: dict[int, int] = {}
    for i, number in fixed_tables.items():
        if not _is_int(i):
            raise PairingError(f"fixed_tables keys must be entrant ids (integers), not {i!r}")
        if not _is_int(number) or number < 1:
            raise PairingError(f"entrant {i}: a fixed table number must be an integer of at least 1, not {number!r}")
        if i not in active_ids:
            continue
        if number in holder:
            first, second = sorted((holder[number], i))
            raise PairingError(f"entrants {first} and {second} are both fixed to table {number}")
        holder[number] = i
        fixed[i] = number
    return fixed
