"""The standings engine's array arithmetic: numpy versions of the per-player steps, figure for figure.

:mod:`tournaments.standings.engine` keeps every per-player figure in a numpy
array indexed by the dense player index, and a *meeting* (one player facing
one opponent at one table) as a pair of entries in two index arrays,
``player`` and ``opponent``.  Each function here gives exactly, to the last
bit, what the plain-Python definition in
:mod:`tournaments.standings.tiebreakers` gives:

* :func:`opponent_means` - the mean over each player's meetings of a value of
  the opponent, summed as :func:`math.fsum` sums (the exact sum, rounded
  once), so the figure does not depend on the order of the meetings.  The
  values are split into two whole numbers each (every float is a whole
  multiple of a power of two), summed exactly per player, and put together
  with a single rounding.  Values spread over too many binary orders of
  magnitude for that (never with the floors the conventions use) fall back
  to :func:`math.fsum` itself.
* :func:`round_half_even` - ``round(value, 6)`` for every value: numpy's own
  rounding, with the values that sit within a hair of a half (where numpy's
  scaling could land on the other side) rounded by Python.
* :func:`tally_one_vs_one` - the fast path of the tally for events of 1v1
  tables and byes: every seat read in two list comprehensions (the fastest
  read of slotted records), one for its player, one for its *shape*
  (2 x placement, + 1 if shared), each also checking one more attribute,
  packed into arrays by ``struct`` and ``bytes`` (which take whole numbers
  only), checked as a whole, then counted with ``np.bincount``.  It returns
  ``None`` for anything it cannot vouch for (a pod, a game score, a player
  not listed, a placement or shared flag that is not a plain win, draw or
  loss) and the engine's careful loop takes every table and words the error.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from math import fsum
from typing import Any

import numpy as np

#: Decimals the tiebreakers are published with, and compared at.
DECIMALS = 6

#: Widest spread, in binary orders of magnitude, between the smallest and largest non-zero value that
#: :func:`opponent_means` sums with whole numbers; wider spreads use :func:`math.fsum`.
_SPREAD_LIMIT = 40


def opponent_means(player: np.ndarray, opponent: np.ndarray, values: np.ndarray, meetings: np.ndarray) -> np.ndarray:
    """Per player, the mean of ``values[opponent]`` over their meetings; 0.0 without a meeting.

    ``meetings`` is each player's number of meetings (``np.bincount(player, minlength=players)``).  Exactly
    ``fsum(values[o] for o in their opponents) / number of meetings`` (see the module docstring).
    """
    count = len(meetings)
    nonzero = values[values != 0.0]
    if nonzero.size == 0 or player.size == 0:
        return np.zeros(count)
    # The spread of every value, met or not (a wider spread than needed only costs the fallback).
    _, exponents = np.frexp(nonzero)
    low, high = int(exponents.min()), int(exponents.max())
    most = int(meetings.max())
    if high - low > _SPREAD_LIMIT or most >= 1 << 20:
        return _fsum_means(player, opponent, values, count)
    # Every value is a whole multiple of 2**-scale; split each scaled value into hi * 2**cut + lo, 0 <= lo <
    # 2**cut, with cut small enough that no per-player sum of lo (at most `most` terms) reaches 2**53, so the
    # float sums of bincount are exact.  Every step below is exact in binary floating point but the last add.
    scale = 53 - low
    cut = 53 - most.bit_length()
    hi = np.floor(np.ldexp(values, scale - cut))
    lo = np.ldexp(values, scale) - np.ldexp(hi, cut)
    hi_sum = np.bincount(player, weights=hi[opponent], minlength=count)
    lo_sum = np.bincount(player, weights=lo[opponent], minlength=count)
    carry = np.floor(np.ldexp(lo_sum, -cut))
    hi_sum += carry
    lo_sum -= np.ldexp(carry, cut)
    # hi_sum * 2**cut and lo_sum are exact; their sum is rounded once, to nearest, ties to even: fsum's rounding.
    total = np.ldexp(np.ldexp(hi_sum, cut) + lo_sum, -scale)
    means: np.ndarray = np.divide(total, meetings, out=np.zeros(count), where=meetings > 0)
    return means


def _fsum_means(player: np.ndarray, opponent: np.ndarray, values: np.ndarray, count: int) -> np.ndarray:
    order = np.argsort(player, kind="stable")
    ends = np.cumsum(np.bincount(player, minlength=count)).tolist()
    met = values[opponent[order]].tolist()
    start = 0
    means = np.zeros(count)
    for i, end in enumerate(ends):
        if end > start:
            means[i] = fsum(met[start:end]) / (end - start)
        start = end
    return means


def round_half_even(values: np.ndarray) -> np.ndarray:
    """``round(value, 6)`` of each value, as Python rounds it (see the module docstring)."""
    rounded = np.round(values, DECIMALS)
    scaled = values * 10.0**DECIMALS
    near_half = np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6
    for i in np.flatnonzero(near_half).tolist():
        rounded[i] = round(float(values[i]), DECIMALS)
    return rounded


@dataclass(slots=True)
class Tally:
    """Per-player counters (arrays indexed by the dense player index) and the meetings."""

    points: np.ndarray
    wins: np.ndarray
    draws: np.ndarray
    byes: np.ndarray
    matches: np.ndarray
    game_points: np.ndarray
    games: np.ndarray
    #: Meeting k: ``player[k]`` faced ``opponent[k]``.
    player: np.ndarray
    opponent: np.ndarray


def tally_one_vs_one(
    results: Sequence[Any],
    ids: np.ndarray | None,
    *,
    values: tuple[int, int, int],
    bye_points: int,
    game_points: tuple[int, int],
    bye_games: tuple[int, int, int],
) -> Tally | None:
    """The tally of an event of 1v1 tables and byes without game scores, or ``None`` (see the module docstring).

    ``results`` are the engine's ``TableResult`` values (not imported here: the engine imports this module).

    ``ids`` is ``player_ids`` as an int64 array in dense index order (``None`` when they are not all ints);
    ``values`` the points of a 1v1 win, draw and loss; ``game_points`` those of a game won and drawn.
    """
    if ids is None:
        return None
    count = len(ids)
    seats = [table.seats for table in results]
    try:
        sizes = np.frombuffer(bytes(map(len, seats)), np.uint8)  # a table of 256 seats or more raises
    except ValueError:
        return None
    if sizes.size and (sizes.min() < 1 or sizes.max() > 2):
        return None
    flat = [seat for table in seats for seat in table]
    if flat and flat[0].games is not None:
        return None  # an event with game scores, known without reading every seat
    try:
        # Every seat is read twice, each time for one more attribute than it gives: a seat with a game score
        # gives None for its player, and a seat's shape is 2 x placement (+ 1 if shared), None when the shared
        # flag is not a bool.  The packing takes whole numbers only (in 0..255 for a byte, 64 bits for an id):
        # anything else (a None, a float, a string, a placement beyond 127) raises: the careful loop decides.
        found = struct.pack(f"{len(flat)}q", *[seat.player_id if seat.games is None else None for seat in flat])
        seat_shapes: list[Any] = [
            2 * seat.placement if seat.shared is False else 2 * seat.placement + 1 if seat.shared is True else None
            for seat in flat
        ]
        shape = bytes(seat_shapes)
    except (TypeError, ValueError, struct.error):
        return None
    who = _dense(np.frombuffer(found, np.int64), ids)
    if who is None:
        return None
    shapes = np.frombuffer(shape, np.uint8)
    start = np.cumsum(sizes, dtype=np.intp) - sizes
    first = start[sizes == 2]
    a, b = who[first], who[first + 1]
    shape_a, shape_b = shapes[first], shapes[first + 1]
    a_won = (shape_a == _WON) & (shape_b == _LOST)
    b_won = (shape_a == _LOST) & (shape_b == _WON)
    drew = (shape_a == _DREW) & (shape_b == _DREW)
    both_lost = (shape_a == _BOTH_LOST) & (shape_b == _BOTH_LOST)
    bye = start[sizes == 1]
    if not ((a != b) & (a_won | b_won | drew | both_lost)).all() or (shapes[bye] != _WON).any():
        return None

    played = np.bincount(a, minlength=count) + np.bincount(b, minlength=count)
    won = np.bincount(a[a_won], minlength=count) + np.bincount(b[b_won], minlength=count)
    draws = np.bincount(a[drew], minlength=count) + np.bincount(b[drew], minlength=count)
    byes = np.bincount(who[bye], minlength=count)
    win, draw, loss = values
    game_win, game_draw = game_points
    bye_won, bye_lost, bye_drawn = bye_games
    return Tally(
        points=won * win + draws * draw + (played - won - draws) * loss + byes * bye_points,
        wins=won + byes,
        draws=draws,
        byes=byes,
        matches=played + byes,
        game_points=won * game_win + draws * game_draw + byes * (bye_won * game_win + bye_drawn * game_draw),
        games=played + byes * (bye_won + bye_lost + bye_drawn),
        player=np.concatenate((a, b)),
        opponent=np.concatenate((b, a)),
    )


#: A seat's shape (2 x placement + 1 if shared) at a 1v1 table or a bye: won (or a bye), lost, drew, or both
#: placed 2nd (a loss each).
_WON, _LOST, _DREW, _BOTH_LOST = 2, 4, 3, 5


def _dense(found: np.ndarray, ids: np.ndarray) -> np.ndarray | None:
    """The dense index of each id in ``found``; ``None`` if one is not listed."""
    if found.size == 0:
        return found.astype(np.intp)
    low, high = int(ids.min()) if ids.size else 0, int(ids.max()) if ids.size else -1
    if low >= 0 and high < 4 * len(ids) + 1024:
        if int(found.min()) < 0 or int(found.max()) > high:
            return None
        lookup = np.full(high + 1, -1, dtype=np.intp)
        lookup[ids] = np.arange(len(ids))
        dense = lookup[found]
        return None if (dense < 0).any() else dense
    order = np.argsort(ids)
    position = np.searchsorted(ids, found, sorter=order).clip(0, max(len(ids) - 1, 0))
    dense = order[position] if len(ids) else position
    return dense if len(ids) and (ids[dense] == found).all() else None
