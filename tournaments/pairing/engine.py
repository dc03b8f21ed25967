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
from dataclasses import replace
from itertools import chain, compress, count, repeat
from operator import attrgetter

import numpy as np

from rules.base import TableSize
from tournaments.pairing.common import (
    History,
    build_history,
    random_column,
    round_one_bye_order,
    tie_break,
)
from tournaments.pairing.pods import PodRound, pair_pods, repeat_weight, seat_pods
from tournaments.pairing.sizes import pod_sizes
from tournaments.pairing.swiss import SwissCost, pair_swiss
from tournaments.pairing.types import Entrant, Pairing, PairingError, Table, make_tables

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
    keep_apart: Collection[tuple[int, int]] = (),
) -> Pairing:
    """Pair one round.  Same inputs and seed, same pairing; the order of ``entrants`` does not matter.

    ``keep_apart`` holds pairs of ids the organiser keeps apart: each weighs exactly as a rematch (the two are
    treated as opponents already met, in round 1 too, which is then paired as a round on 0 points rather than
    shuffled), and ``rematches`` and the ``rematch`` reason count such a pair seated together like one; the
    caller, who knows the real history, tells them apart.  Round 1 seeded by rating ignores it.

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
    active, active_ids = _active(entrants)
    assigned = _assigned_byes(assigned_byes, active)
    fixed = _fixed_tables(fixed_tables, active)
    players = [e for e in active if e.id not in assigned] if assigned else active
    apart = bool(keep_apart) and not (round_number == 1 and seeding == "rating")
    if apart:
        players = _with_kept_apart(players, keep_apart)
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
    # The round's tie-break draws: the Swiss pairer looks them up by id; everything else reads them as a column
    # beside ``players`` (in id order, the order tie_break draws them in: the same numbers).
    swiss = one_vs_one and (round_number > 1 or apart)
    tb = tie_break(players, rng) if swiss else {}
    draws = np.empty(0) if swiss else random_column(rng, len(players))

    # The 1v1 objective's weights, built once: the Swiss pairer minimises it and the pairing is scored by it.
    swiss_cost = SwissCost(players, met) if one_vs_one and players else None

    tables: list[tuple[int, ...]]
    byes: list[int]
    #: A pod round: the tables, and what explains them, as the pod pairer seated them.
    pod_round: PodRound | None = None
    if not players:
        tables, byes = [], []
    elif round_number == 1 and not apart:
        # Nobody has met anyone: a seeded shuffle.  (Round 1 with players kept apart is paired like any round:
        # everyone on 0 points, in random order, apart where possible.)
        sitting, seating, sizes, byes = _first_round(
            players, table_size=table_size, draws=draws, by_rating=seeding == "rating"
        )
        if one_vs_one:
            ids, order = [e.id for e in sitting], seating.tolist()
            tables = list(zip(map(ids.__getitem__, order[::2]), map(ids.__getitem__, order[1::2]), strict=True))
        else:
            pod_round = seat_pods(sitting, seating, sizes, byes, rng, plain=active_ids is not None)
            tables = pod_round.tables
    elif one_vs_one:
        assert met is not None
        pairs, bye = pair_swiss(players, met=met, tb=tb, rng=rng, cost=swiss_cost)
        tables, byes = [*pairs], ([] if bye is None else [bye])
    else:
        pod_round = pair_pods(
            players, table_size=table_size, draws=draws, rng=rng, ids=active_ids if players is active else None
        )
        tables, byes = pod_round.tables, pod_round.byes

    numbered, honoured = _number_tables(tables, fixed)
    first_round = round_number == 1
    if one_vs_one:
        points = swiss_cost.points if swiss_cost is not None else {}  # no cost: nobody to pair
        assert met is not None
        seated, rematches, spread = _explain(tables, points=points, met=met, first_round=first_round, fixed=honoured)
    elif pod_round is not None:
        seated, rematches, spread = _pod_reasons(pod_round, first_round=first_round)
        for p in honoured:
            seated[p] = (*seated[p], "fixed_table")
    else:
        seated, rematches, spread = {}, 0, 0
    if not players:
        objective = 0
    elif swiss_cost is not None:
        objective = swiss_cost.from_parts(spread=spread, rematches=rematches, bye=byes[0] if byes else None)
    else:
        # Only a repeat needs the weight, which reads every seated player's points.
        objective = (
            rematches * repeat_weight(tables, {e.id: e.points for e in players}) + spread if rematches else spread
        )
    if round_number == 1 and seeding == "rating":
        seated = {p: (*codes, "seeded_by_rating") for p, codes in seated.items()}
    if pod_round is not None and not assigned and not byes:
        # Everyone is seated, and the pod pairer explained them in id order already.
        reasons = seated
    else:
        both = (
            dict.fromkeys(assigned, _BYE_ASSIGNED) | dict.fromkeys(byes, _BYE) | seated if assigned or byes else seated
        )
        reasons = {e.id: both[e.id] for e in active}
    return Pairing(
        tables=tuple(numbered),
        byes=tuple(sorted([*byes, *assigned])),
        rematches=rematches,
        seed=seed,
        objective=objective,
        reasons=reasons,
    )


def _with_kept_apart(players: list[Entrant], keep_apart: Collection[tuple[int, int]]) -> list[Entrant]:
    """The players with each kept-apart partner added to their opponents (ids not playing are left out)."""
    partners: dict[int, set[int]] = {}
    for a, b in keep_apart:
        partners.setdefault(a, set()).add(b)
        partners.setdefault(b, set()).add(a)
    return [replace(e, opponents=e.opponents | partners[e.id]) if e.id in partners else e for e in players]


def _first_round(
    active: Sequence[Entrant], *, table_size: TableSize, draws: np.ndarray, by_rating: bool = False
) -> tuple[list[Entrant], np.ndarray, list[int], list[int]]:
    """Round 1: ``(seated, seating, sizes, byes)``: random tables, largest first; random byes among the players with
    the fewest byes.

    ``active`` comes in id order with the round's tie-break ``draws`` beside
    it.  ``seated`` are the players at a table, in id order; ``seating``
    fills the tables with them (positions into ``seated``), table after
    table, ``sizes[k]`` for table ``k``.  Nobody has points or history yet
    that the pairing should respect, so a seeded shuffle is both fair and
    reproducible.  Seeded by rating, the players go in rating order instead
    (:func:`_seeded_order`).
    """
    sizes, bye_count = pod_sizes(len(active), table_size)
    byes: list[int] = []
    seated = list(active)
    if bye_count:
        tb = dict(zip([e.id for e in active], draws.tolist(), strict=True))
        byes = [e.id for e in round_one_bye_order(active, tb)[:bye_count]]
        sitting_out = set(byes)
        keep = [e.id not in sitting_out for e in active]
        seated = list(compress(active, keep))
        draws = draws[np.array(keep, dtype=bool)]
    if by_rating:
        unrated = len(active) + 1
        keys = draws.tolist()
        ranking = sorted(range(len(seated)), key=lambda i: (seated[i].rank or unrated, keys[i], seated[i].id))
        return seated, _seeded_order(ranking, sizes, one_vs_one=table_size.is_one_vs_one), sizes, byes
    # ``seated`` is in id order and the sort is stable: by draw, then id (a stable sort is needed only if two
    # draws are equal, about once in 10**8 rounds).
    order = np.argsort(draws)
    if len(order) > 1 and (np.diff(draws[order]) == 0).any():
        order = np.argsort(draws, kind="stable")
    return seated, order, sizes, byes


def _seeded_order(ranking: Sequence[int], sizes: Sequence[int], *, one_vs_one: bool) -> np.ndarray:
    """Round 1 by rating (``ranking``: best first), as the order the players fill the tables.  1v1: the top half
    meets the bottom half, the best pair at table 1.  Pods: a snake over the tables (1, 2, ... k, then k ... 1),
    skipping full ones."""
    if one_vs_one:
        half = len(ranking) // 2
        return np.array([p for i in range(half) for p in (ranking[i], ranking[i + half])], dtype=np.intp)
    pods: list[list[int]] = [[] for _ in sizes]
    forward = list(range(len(sizes)))
    order = forward + forward[::-1]
    step = 0
    for player in ranking:
        while len(pods[order[step % len(order)]]) >= sizes[order[step % len(order)]]:
            step += 1
        pods[order[step % len(order)]].append(player)
        step += 1
    return np.fromiter(chain.from_iterable(pods), dtype=np.intp, count=len(ranking))


def _number_tables(tables: Sequence[tuple[int, ...]], fixed: Mapping[int, int]) -> tuple[list[Table], set[int]]:
    """Tables in number order, and the fixed players whose number was honoured.

    Fixed players claim their table's number in ascending order of the number
    asked for; a table already claimed by another fixed player keeps the
    first claim.  Every other table takes the smallest free number, in the
    pairer's top-down order, so without fixed seats the numbers are 1, 2, 3 ...
    """
    if not fixed:
        return make_tables(count(1), tables), set()
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
#: A pod's main code by whether its players' points differ (0: the same, 1: not), as an array to index with many.
_MAIN_CODES = np.empty(2, dtype=object)
_MAIN_CODES[:] = [_SAME_POINTS, _MIXED_POINTS]
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


def _pod_reasons(pod_round: PodRound, *, first_round: bool) -> tuple[dict[int, tuple[str, ...]], int, int]:
    """``(reason codes of the seated players in id order, repeat pairs, spread)`` of a pod round.

    A table of two in a pod event is a pod like any other (``same_points`` or
    ``mixed_points``): pairing up and down are Swiss terms.  The spread is
    the sum over tables of the squared point difference of every pair at the
    table; ``fixed_table`` is the caller's to add.  A table's main code goes
    to its players through :attr:`PodRound.table_of`, one array look-up for
    the field; only the players in a repeat get a code of their own.
    """
    if first_round:
        reasons = dict.fromkeys(pod_round.seated, _FIRST_ROUND)
    else:
        # A pod's spread is zero exactly when everyone at it has the same points.
        mixed = np.fromiter(map(bool, pod_round.spreads), dtype=np.intp, count=len(pod_round.spreads))
        at_mixed = mixed[pod_round.table_of]
        if 4 * int(at_mixed.sum()) < len(at_mixed):
            # Most pods have one score (the chunking groups players by points): those codes in one go, then the rest.
            reasons = dict.fromkeys(pod_round.seated, _SAME_POINTS)
            seated = pod_round.seated
            reasons.update(zip(map(seated.__getitem__, np.flatnonzero(at_mixed).tolist()), repeat(_MIXED_POINTS)))
        else:
            reasons = dict(zip(pod_round.seated, _MAIN_CODES[at_mixed].tolist(), strict=True))
    for p in set(chain.from_iterable(pod_round.repeats)):
        reasons[p] = (*reasons[p], "rematch")
    return reasons, len(pod_round.repeats), sum(pod_round.spreads)


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


def _active(entrants: Sequence[Entrant]) -> tuple[list[Entrant], list[int] | None]:
    """The entrants to pair, in id order, after checking the whole list (dropped included), and their ids if every
    id is a plain ``int`` (``None`` if not).

    The common case, plain records with plain, non-negative ints and
    distinct ids, is recognised by one comprehension that keeps anything
    odd and one set of the ids; only if something is odd is the list looked
    at entrant by entrant, which finds the first offender for the message.
    """
    entrants = entrants if type(entrants) is list else list(entrants)
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
    if not odd:
        ids = [e.id for e in entrants]
        if len(set(ids)) == len(ids):
            active = [e for e in entrants if not e.dropped]
            in_order = sorted(ids) == ids  # most callers list the entrants in id order already
            if not in_order:
                active.sort(key=attrgetter("id"))
            if active:
                return active, ids if in_order and len(active) == len(ids) else [e.id for e in active]
    return _active_checked(entrants), None


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
