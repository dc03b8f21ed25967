"""Seat fairness as data: how each seat of a table does, per table size.

A pure engine: plain records in, plain figures out, no Django.

Terms
=====

**Seat.**  A place at a table, numbered from 1 (``Seat.seat_order``).  In a
pod (a table of three or more) seat 1 takes the first turn and play goes on
in seat order; Podium's pairing gives seat 1 to a player who has gone first
least often, the other seats at random.  At a 1v1 table seat 1 is the player
higher in the standings when the round was paired, and who plays first is
decided at the table: a 1v1 seat-1 figure measures that standing, not a
turn order, and says nothing about seating fairness.

**Group.**  The tables of one format and one size (:class:`Group`).  Tables
of different sizes are different populations (the fair share of a 3-player
pod's seat is 1/3, of a 4-player pod's 1/4) and are never pooled.

**Win.**  Placement 1, held alone.  A first place held by more than one
seat (a drawn 1v1 match, a shared pod win) is a *shared first*: neither a
win nor a loss here, counted apart.

**Win rate.**  Wins / tables of the seat, with its *Wilson score interval*
(95 % by default, ``z = 1.96``): the range of true win rates the sample is
consistent with.  A seat whose interval holds the group's *fair share*
(1 / size) has not been shown to be better or worse than chance.

**Excluded.**  A bye is no table (no opponent, no seat); a table without a
result (any seat's placement missing) is not counted yet.  Both are counted
apart (``byes``, ``unreported``).

**Too small.**  A group with fewer than ``min_tables`` tables
(:data:`MIN_TABLES`): its intervals are too wide to tell a seat advantage
from chance, and the report says so.

Contract
========

:func:`seat_report` takes :class:`SeatRow` records (one per seat, any order)
and returns a :class:`Report`: groups by format, then size; seats in seat
order.  The output does not depend on the order of the rows.  Two rows of
one table with the same seat raise ``ValueError``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["MIN_TABLES", "Group", "Report", "SeatFigures", "SeatRow", "seat_report", "wilson_interval"]

#: A group with fewer tables than this is too small to mean anything (its seats' 95 % intervals span about
#: ±15 points or more around a 25 % share).
MIN_TABLES = 30
#: The normal quantile of a two-sided 95 % interval.
Z_95 = 1.96


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat at one table: ``table`` is any key unique per table (the pod's id)."""

    table: int
    seat: int
    placement: int | None
    points: int | None = None
    format: str = ""
    bye: bool = False


@dataclass(frozen=True, slots=True)
class SeatFigures:
    seat: int
    tables: int
    wins: int
    shared_firsts: int
    #: wins / tables, and its Wilson interval (0..1).
    win_rate: float
    low: float
    high: float
    average_points: float
    average_placement: float


@dataclass(frozen=True, slots=True)
class Group:
    format: str
    size: int
    tables: int
    #: Tables whose first place was shared (a draw).
    shared_tables: int
    #: What each seat would win with no seat advantage: 1 / size.
    fair_share: float
    seats: tuple[SeatFigures, ...]
    too_small: bool


@dataclass(frozen=True, slots=True)
class Report:
    groups: tuple[Group, ...]
    byes: int
    unreported: int
    min_tables: int

    @property
    def tables(self) -> int:
        return sum(group.tables for group in self.groups)


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` out of ``trials`` (``(0, 1)`` without trials)."""
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(slots=True)
class _Tally:
    tables: int = 0
    wins: int = 0
    shared: int = 0
    points: int = 0
    placements: int = 0


def seat_report(rows: Iterable[SeatRow], *, z: float = Z_95, min_tables: int = MIN_TABLES) -> Report:
    """Per format and table size, per seat: tables, wins, shared firsts, win rate with its interval, average points
    and placement (see the module's terms)."""
    if min_tables < 1:
        raise ValueError("min_tables is 1 or more")
    tables: dict[int, list[SeatRow]] = defaultdict(list)
    byes = 0
    for row in rows:
        if row.bye:
            byes += 1
        else:
            tables[row.table].append(row)
    unreported = 0
    tallies: dict[tuple[str, int], dict[int, _Tally]] = defaultdict(lambda: defaultdict(_Tally))
    counts: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])  # tables, shared tables
    for table, seats in tables.items():
        if len({s.seat for s in seats}) != len(seats):
            raise ValueError(f"table {table} has two rows for one seat")
        if any(s.placement is None for s in seats):
            unreported += 1
            continue
        key = (seats[0].format, len(seats))
        firsts = sum(1 for s in seats if s.placement == 1)
        counts[key][0] += 1
        counts[key][1] += 1 if firsts > 1 else 0
        for s in seats:
            tally = tallies[key][s.seat]
            tally.tables += 1
            tally.wins += 1 if s.placement == 1 and firsts == 1 else 0
            tally.shared += 1 if s.placement == 1 and firsts > 1 else 0
            tally.points += s.points or 0
            tally.placements += s.placement or 0
    groups = []
    for key in sorted(tallies):
        fmt, size = key
        figures = []
        for seat, tally in sorted(tallies[key].items()):
            low, high = wilson_interval(tally.wins, tally.tables, z)
            figures.append(
                SeatFigures(
                    seat=seat,
                    tables=tally.tables,
                    wins=tally.wins,
                    shared_firsts=tally.shared,
                    win_rate=tally.wins / tally.tables,
                    low=low,
                    high=high,
                    average_points=tally.points / tally.tables,
                    average_placement=tally.placements / tally.tables,
                )  # fmt: skip
            )
        total, shared = counts[key]
        groups.append(Group(fmt, size, total, shared, 1 / size, tuple(figures), total < min_tables))
    return Report(tuple(groups), byes, unreported, min_tables)
