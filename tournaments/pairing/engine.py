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
from bisect import bisect_right
from collections.abc import Collection, Iterable, Mapping, Sequence
from itertools import accumulate, chain, compress, count, repeat
from operator import attrgetter, not_

from rules.base import TableSize
from tournaments.pairing.common import (
    History,
    TieBreak,
    build_history,
    round_one_bye_order,
    seat_tables,
    tie_break,
)
from tournaments.pairing.pods import pair_pods, pod_sums_and_spreads, repeat_weight
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
    # Pods read the history from each entrant's opponents where they need it (a pod at a time); only the Swiss
    # pairer needs it whole.
    met = build_history(players) if one_vs_one else None
    tb = tie_break(players, rng)

    # The 1v1 objective's weights, built once: the Swiss pairer minimises it and the pairing is scored by it.
    swiss_cost = SwissCost(players, met) if one_vs_one and players else None

    tables: list[tuple[int, ...]]
    byes: list[int]
    #: Pods after round 1: the repeat pairs and the tables' spreads, as the pod pairer found them.
    pod_round: tuple[list[tuple[int, int]], list[int]] | None = None
    if not players:
        tables, byes = [], []
    elif round_number == 1:
        tables, byes = _first_round(players, table_size=table_size, tb=tb, rng=rng, by_rating=seeding == "rating")
    elif one_vs_one:
        assert met is not None
        pairs, bye = pair_swiss(players, met=met, tb=tb, rng=rng, cost=swiss_cost)
        tables, byes = [*pairs], ([] if bye is None else [bye])
    else:
        tables, byes, repeats, spreads = pair_pods(players, table_size=table_size, tb=tb, rng=rng)
        pod_round = repeats, spreads

    numbered, honoured = _number_tables(tables, fixed)
    first_round = round_number == 1
    if one_vs_one:
        points = swiss_cost.points if swiss_cost is not None else {}  # no cost: nobody to pair
        assert met is not None
        seated, rematches, spread = _explain(tables, points=points, met=met, first_round=first_round, fixed=honoured)
    else:
        points = {e.id: e.points for e in players}
        if pod_round is not None:
            seated, rematches, spread = _pod_reasons(tables, pod_round[1], pod_round[0], first_round=first_round)
        else:
            seated, rematches, spread = _explain_pods(tables, players, points=points, first_round=first_round)
        for p in honoured:
            seated[p] = (*seated[p], "fixed_table")
    if not players:
        objective = 0
    elif swiss_cost is not None:
        objective = swiss_cost.from_parts(spread=spread, rematches=rematches, bye=byes[0] if byes else None)
    else:
        # Only a repeat needs the weight, which reads every seated player's points.
        objective = rematches * repeat_weight(tables, points) + spread if rematches else spread
    if round_number == 1 and seeding == "rating":
        seated = {p: (*codes, "seeded_by_rating") for p, codes in seated.items()}
    reasons = (
        dict.fromkeys(assigned, _BYE_ASSIGNED) | dict.fromkeys(byes, _BYE) | seated if assigned or byes else seated
    )
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
    byes = [e.id for e in round_one_bye_order(active, tb)[:bye_count]] if bye_count else []
    sitting_out = set(byes)
    if by_rating:
        ordered = sorted(
            (e for e in active if e.id not in sitting_out), key=lambda e: (e.rank or len(active) + 1, tb[e.id], e.id)
        )
        return _seeded_tables(ordered, sizes, one_vs_one=table_size.is_one_vs_one, rng=rng), byes
    seated = [e for e in active if e.id not in sitting_out] if sitting_out else active
    # ``active`` is in id order and the sort is stable: by draw, then id.
    draws = [tb[e.id] for e in seated]
    shuffled = list(map(seated.__getitem__, sorted(range(len(seated)), key=draws.__getitem__)))
    pods = [shuffled[start - size : start] for start, size in zip(accumulate(sizes), sizes, strict=True)]
    if table_size.is_one_vs_one:
        return [(a.id, b.id) for a, b in pods], byes
    return seat_tables(pods, rng), byes


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
    return seat_tables(pods, rng)


def _number_tables(tables: Sequence[tuple[int, ...]], fixed: Mapping[int, int]) -> tuple[list[Table], set[int]]:
    """Tables in number order, and the fixed players whose number was honoured.

    Fixed players claim their table's number in ascending order of the number
    asked for; a table already claimed by another fixed player keeps the
    first claim.  Every other table takes the smallest free number, in the
    pairer's top-down order, so without fixed seats the numbers are 1, 2, 3 ...
    """
    if not fixed:
        return list(map(Table, count(1), tables)), set()
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
    fixed: Collection[int],
) -> tuple[dict[int, tuple[str, ...]], int, int]:
    """1v1: ``(reason codes of the seated players, rematches, spread)`` in one pass over the tables.

    Codes: the main code, then ``rematch``, then ``fixed_table``.  The spread
    is the sum over tables of the squared point difference; with the
    rematches it makes the Swiss objective.
    """
    reasons: dict[int, tuple[str, ...]] = {}
    rematches = spread = 0
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
    for p in fixed:
        reasons[p] = (*reasons[p], "fixed_table")
    return reasons, rematches, spread


def _explain_pods(
    tables: Sequence[tuple[int, ...]], players: Sequence[Entrant], *, points: Mapping[int, int], first_round: bool
) -> tuple[dict[int, tuple[str, ...]], int, int]:
    """Pods, whoever seated them: ``(reason codes of the seated players, repeat pairs, spread)``.

    The history is each entrant's ``opponents``, either side's memory
    counting (as :func:`~tournaments.pairing.common.build_history` has it):
    a table where nobody lists anyone at it has no repeat, which is most
    tables, found by one set operation per player; only the others are
    counted pair by pair.
    """
    sizes = list(map(len, tables))
    seated = list(chain.from_iterable(tables))
    spreads = pod_sums_and_spreads(list(map(points.__getitem__, seated)), sizes)[1]
    opponents = {e.id: e.opponents for e in players}
    if not any(opponents.values()):  # round 1 of most events: nobody has met anyone
        return _pod_reasons(tables, spreads, [], first_round=first_round)
    listed = list(map(opponents.__getitem__, seated))
    if set(map(type, listed)) - {frozenset}:
        listed = [frozenset(known) for known in listed]
    clear = map(frozenset.isdisjoint, listed, chain.from_iterable(map(repeat, tables, sizes)))
    starts = list(accumulate(sizes, initial=0))
    repeats: list[tuple[int, int]] = []
    for k in sorted({bisect_right(starts, i) - 1 for i in compress(count(), map(not_, clear))}):
        seats = tables[k]
        for n, a in enumerate(seats):
            known = opponents[a]
            repeats += [(a, b) for b in seats[n + 1 :] if b in known or a in opponents[b]]
    return _pod_reasons(tables, spreads, repeats, first_round=first_round)


def _pod_reasons(
    tables: Sequence[tuple[int, ...]], spreads: Sequence[int], repeats: Sequence[tuple[int, int]], *, first_round: bool
) -> tuple[dict[int, tuple[str, ...]], int, int]:
    """``(reason codes of the seated players, repeat pairs, spread)`` from each table's spread and the repeat pairs.

    A table of two in a pod event is a pod like any other (``same_points`` or
    ``mixed_points``): pairing up and down are Swiss terms.  The spread is
    the sum over tables of the squared point difference of every pair at the
    table; ``fixed_table`` is the caller's to add.
    """
    # A pod's spread is zero exactly when everyone at it has the same points.
    mains = [_FIRST_ROUND] * len(tables) if first_round else [_MIXED_POINTS if s else _SAME_POINTS for s in spreads]
    reasons = dict(
        zip(chain.from_iterable(tables), chain.from_iterable(map(repeat, mains, map(len, tables))), strict=True)
    )
    for p in set(chain.from_iterable(repeats)):
        reasons[p] = (*reasons[p], "rematch")
    return reasons, len(repeats), sum(spreads)


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
    """The entrants to pair, in id order, after checking the whole list (dropped included).

    The common case, plain records with plain, non-negative ints and
    distinct ids, is recognised by one comprehension that keeps anything
    odd and one set of the ids; only if something is odd is the list looked
    at entrant by entrant, which finds the first offender for the message.
    """
    entrants = list(entrants)
    odd = [
        e
        for e in entrants
        if type(e) is not Entrant
        or type(e.id) is not int
        or type(e.points) is not int
        or type(e.rank) is not int
        or type(e.byes) is not int
        or type(e.first_seats) is not int
        or e.rank < 0
        or e.byes < 0
        or e.first_seats < 0
    ]
    if not odd and len({e.id for e in entrants}) == len(entrants):
        active = sorted([e for e in entrants if not e.dropped], key=attrgetter("id"))
        if active:
            return active
    return _active_checked(entrants)


def _active_checked(entrants: list[Entrant]) -> list[Entrant]:
    """:func:`_active` entrant by entrant: the first offender raises :class:`PairingError`."""
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
