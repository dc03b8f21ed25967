"""The cut line: what a player still needs to make the top cut, and where the cut is likely to fall.

A pure engine, like the rest of :mod:`tournaments.standings`: plain values in,
plain values out, no Django.  A selector reads the stored standings and the
rounds left, calls :func:`cut_line` and hands the result to the pages and the
API.

Terms
-----

**Active player.**  A player still in the Swiss: entered and not dropped.
Dropped players are left out by the caller; they cannot make the cut and
score no more points.

**Cut size** ``C``.  The number of active players the top cut takes, best of
the standings first.

**Rounds left** ``r``.  The Swiss rounds a player has still to play: the
planned Swiss rounds minus the rounds whose result they have.  While a round
is being reported, players whose table has reported have one round fewer
left than the others.

**Seat values.**  What one round can give one player under the format's
:class:`~rules.base.Scoring`: every placement's points at every table size
the event seats, the draw's (a shared first place) and the bye's.  In 1v1
(win 3, draw 1, loss 0, bye 3) and in pods (win 3, 2nd place of a 3- or
4-pod 1, a shared first 1, otherwise 0) these are 0, 1 and 3.  The *gains*
open to a player with ``r`` rounds left are the sums of ``r`` seat values
(``r = 2``: 0, 1, 2, 3, 4, 6: five points cannot be made in two rounds).

**Record.**  Wins-losses-draws, as the standings print it ("2-0-1": two
wins, no loss, one draw).  In pods a "draw" here is any 1-point result (2nd
place, or a shared first place) and a "loss" any 0-point one.  "2-1-0 or
better" means any record worth at least as many points.

**Round capacity.**  The most points one round can hand out to ``n``
players: the best way of seating them at the event's table sizes (plus at
most ``max_byes`` byes), each table giving its best total (a 1v1 table 3; a
pod of 4 3 + 1 + 1 + 1 = 6 when three players share 2nd place).  The
*budget* of the remaining rounds is the sum of the capacities of each round
left (a round counts the players who still play it).

What is computed
----------------

For each active player ``i`` with ``p_i`` points and ``r_i`` rounds left:

**Guaranteed with** ``x`` (:attr:`PlayerCut.guaranteed_with`).  The fewest
further points (a gain open to them) such that, if ``i`` earns ``x`` or more,
``i`` is in the cut *whatever else happens and whatever the tiebreakers*.
Finishing on ``F = p_i + x`` is safe when fewer than ``C`` other players can
finish on ``F`` or more (ties are counted against ``i``: the tiebreakers may
go either way).  That number is bounded two ways, and the smaller bound is
used:

* the plain count: every other player ``j`` who could reach ``F`` on their
  own, ``p_j + (their best gain) >= F``;
* the budget: to reach ``F``, ``j`` must gain at least the smallest gain open
  to them that is ``>= F - p_j`` (their *cost*); the remaining rounds cannot
  hand the others more than the budget minus the ``x`` that ``i`` takes, so
  at most as many players as the cheapest costs fit in that can get there.

Both bounds hold whoever is paired with whom, so the guarantee holds under
any pairings: Swiss, random, or the worst an adversary could choose.
Because pairings are unknown, the bounds cannot use them: the plain count
ignores that players who must meet cannot all win, and the budget ignores
which tables players sit at.  The guarantee is therefore *conservative*: it
is never wrong, and it may ask for more than the least that would in fact
do.  How much more is measured against a brute force of every pairing and
every result of small fields (``tests/tournaments/test_cutline_engine.py``,
4-8 players, 1-3 rounds left): it is exactly the least in at least nine
cases in ten, and exactly the least in every 1v1 field tried with one round
left.  It errs where one player's own results use up the rounds of the
others they beat, which a count that does not know the pairings cannot see.  ``None``: no result of ``i`` guarantees a place; it depends on others.
``0``: ``i`` is already in whatever happens.

**Possible with** ``x`` (:attr:`PlayerCut.possible_with`).  The fewest
further points with which ``i`` can still make the cut in the best case:
fewer than ``C`` others are already *above* ``p_i + x`` (ties go ``i``'s
way, everyone else loses what they can).  Below that the cut is out of
reach whatever happens; at or above it the cut *may* be reached (other
results must go ``i``'s way).  ``None``: out of reach even winning every
round.  :attr:`PlayerCut.best_case` is ``p_i`` plus the best gain.

**Safe line** (:attr:`CutLine.safe_line`).  The smallest final total that
is in whoever finishes on it: at most ``C`` active players in all (by the
same two bounds, the budget now whole) can finish on it or more.  A player's
own guarantee may be lower: it subtracts what that player takes from the
budget.  ``None``: no total is safe yet.

**Projected line** (:attr:`CutLine.projected_line`).  A projection, not a
promise: the rounds left are simulated ``simulations`` times with a seeded
random generator (the same seed gives the same figures).  Each simulated
round pairs the players who play it by points, best first, at the event's
preferred table size, floating a group's leftover players down to the next
group (the last leftovers get byes, or sit at a smaller pod when the event
allows one); a table is a draw (two players share first place) with
probability :data:`DRAW_RATE`, otherwise its placements go at random.  The
projected line is the median, over the simulations, of the points of the
player placed ``C``-th; :attr:`CutLine.projected_low` and
:attr:`CutLine.projected_high` are the 10th and 90th percentiles.
:attr:`PlayerCut.likely_with` is the fewest further points that reach the
projected line (at the line, tiebreakers decide).

Contract
--------

:func:`cut_line` raises ``ValueError`` for a duplicate player id, negative
points or rounds left, a cut size below 1, a table size the scoring does not
know, a negative ``max_byes`` or ``simulations``.  It depends only on the
multiset of (points, rounds left): players on the same points with the same
rounds left get the same answer, and the cost grows with the number of
distinct points totals, not the number of players (4,000 players take a few
milliseconds, and some 25 more for a projection of 100 simulated finishes;
``python manage.py bench standings``).  With no more active
players than the cut, everyone is in with 0 more points.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial

from rules.base import Scoring, TableSize

__all__ = [
    "DRAW_RATE",
    "CutLine",
    "CutPlayer",
    "PlayerCut",
    "Record",
    "cut_line",
    "gains",
    "record_for",
    "round_capacity",
]

#: The share of simulated tables that end in a draw (two players share first place).
DRAW_RATE = 0.05

#: Simulated finishes per projection unless the caller asks for another number.
SIMULATIONS = 100

_LOW_PERCENTILE = 0.1
_HIGH_PERCENTILE = 0.9


@dataclass(frozen=True, slots=True)
class CutPlayer:
    """One active player: their match points now and the Swiss rounds they have left."""

    player_id: int
    points: int
    rounds_left: int


@dataclass(frozen=True, slots=True)
class Record:
    """A record over the rounds left: wins, losses and draws (in pods, 1-point and 0-point results)."""

    wins: int
    losses: int
    draws: int

    def __str__(self) -> str:
        return f"{self.wins}-{self.losses}-{self.draws}"


@dataclass(frozen=True, slots=True)
class PlayerCut:
    """What an active player needs (terms in the module docstring); players on the same points with the same
    rounds left share one."""

    points: int
    rounds_left: int
    #: Fewest further points that guarantee a place whatever happens; ``None``: none does.
    guaranteed_with: int | None
    #: The record worth ``guaranteed_with`` that can afford the most losses ("or better"); ``None`` with it.
    guaranteed_record: Record | None
    #: Fewest further points with which a place is still possible (best case); ``None``: out of reach.
    possible_with: int | None
    #: Fewest further points that reach the projected line; ``None``: it is out of reach, or no projection.
    likely_with: int | None
    #: Points now plus the best gain still open.
    best_case: int

    @property
    def status(self) -> str:
        """``"in"`` (guaranteed with 0 more), ``"control"`` (a result of theirs guarantees it), ``"alive"``
        (possible, but it depends on others too) or ``"out"`` (out of reach)."""
        if self.guaranteed_with == 0:
            return "in"
        if self.guaranteed_with is not None:
            return "control"
        return "out" if self.possible_with is None else "alive"


@dataclass(frozen=True, slots=True)
class CutLine:
    """The cut line of an event: its lines and every active player's needs."""

    cut_size: int
    #: Active players.
    active: int
    #: The most Swiss rounds any active player has left.
    rounds_left: int
    #: Smallest final total that is in whoever finishes on it; ``None``: none is yet.
    safe_line: int | None
    #: Median points of the ``cut_size``-th place over the simulations; ``None`` without simulations.
    projected_line: int | None
    projected_low: int | None
    projected_high: int | None
    simulations: int
    seed: int
    players: Mapping[int, PlayerCut]


# --- gains and records --------------------------------------------------------------------------


def seat_values(scoring: Scoring, sizes: Iterable[int]) -> tuple[int, ...]:
    """Every number of points one round can give one player at these table sizes (byes included)."""
    values = {scoring.bye_points, scoring.draw_points}
    for size in sizes:
        table = scoring.placement_points.get(size)
        if table is None:
            raise ValueError(f"no scoring for a table of {size}")
        values.update(table)
    return tuple(sorted(values))


@cache
def _gains(values: tuple[int, ...], rounds: int) -> tuple[int, ...]:
    reach = {0}
    for _ in range(rounds):
        reach = {total + value for total in reach for value in values}
    return tuple(sorted(reach))


def gains(values: Sequence[int], rounds: int) -> tuple[int, ...]:
    """The totals ``rounds`` rounds can add, ascending (sums of ``rounds`` seat values)."""
    if rounds < 0:
        raise ValueError(f"rounds must be 0 or more, not {rounds}")
    return _gains(tuple(sorted(set(values))), rounds)


def record_for(points: int, *, rounds: int, scoring: Scoring) -> Record | None:
    """The record over ``rounds`` rounds worth at least ``points`` that affords the most losses (then the most
    draws): the weakest record that is enough.  ``None`` when no record is worth that much."""
    win, draw = scoring.win_points, scoring.draw_points
    best: Record | None = None
    for wins in range(rounds + 1):
        for draws in range(rounds - wins + 1):
            if wins * win + draws * draw < points:
                continue
            record = Record(wins=wins, losses=rounds - wins - draws, draws=draws)
            if best is None or (record.losses, record.draws) > (best.losses, best.draws):
                best = record
    return best


def _table_best(scoring: Scoring, size: int) -> int:
    """The most points one table of ``size`` can hand out in total."""
    table = scoring.placement_points[size]
    best = 0
    for sharing_first in range(1, size + 1):
        first = table[0] if sharing_first == 1 else scoring.draw_points * sharing_first
        # Everyone else shares the next place and gets its points.
        rest = (size - sharing_first) * table[sharing_first] if sharing_first < size else 0
        best = max(best, first + rest)
    return best


def round_capacity(players: int, *, scoring: Scoring, table_size: TableSize, max_byes: int) -> int:
    """The most points one round can hand out to ``players`` players (see *Round capacity*).

    When no seating fits the table sizes and byes, every player is counted at the most one seat can earn.
    """
    return _capacities(scoring, table_size.min, table_size.max, max_byes, [players])[players]


def _capacities(scoring: Scoring, smallest: int, largest: int, max_byes: int, counts: Iterable[int]) -> dict[int, int]:
    """:func:`round_capacity` of each of ``counts`` players, from one pass over the seatings of up to the most."""
    wanted = sorted(set(counts))
    most = wanted[-1] if wanted else 0
    best = {size: _table_best(scoring, size) for size in range(smallest, largest + 1)}
    impossible = -1
    tables = [0] + [impossible] * most
    if smallest == largest:
        # One table size (1v1, pods of exactly four): whole tables only.
        for n in range(smallest, most + 1, smallest):
            tables[n] = (n // smallest) * best[smallest]
    else:
        for n in range(smallest, most + 1):
            tables[n] = max(
                (tables[n - size] + points for size, points in best.items() if size <= n and tables[n - size] >= 0),
                default=impossible,
            )
    best_seat = max(seat_values(scoring, best))
    capacity = {}
    for n in wanted:
        options = [tables[n - b] + b * scoring.bye_points for b in range(min(max_byes, n) + 1) if tables[n - b] >= 0]
        capacity[n] = max(options) if options else n * best_seat
    return capacity


# --- the engine -----------------------------------------------------------------------------------


class _Field:
    """The active players as a histogram of (points, rounds left), with what every bound needs."""

    def __init__(self, players: Sequence[CutPlayer], *, scoring: Scoring, table_size: TableSize, max_byes: int) -> None:
        self.values = seat_values(scoring, range(table_size.min, table_size.max + 1))
        self.groups = Counter((p.points, p.rounds_left) for p in players)
        self.keys = sorted(self.groups, reverse=True)
        self.max_rounds = max((p.rounds_left for p in players), default=0)
        self.top = {r: gains(self.values, r)[-1] for r in {k[1] for k in self.keys}}
        # Players in each round still to play: round m (1 = the next) is played by those with rounds_left > m - 1
        # counted from the end, i.e. rounds_left >= max_rounds - m + 1.
        by_rounds: Counter[int] = Counter()
        for (_, rounds), count in self.groups.items():
            by_rounds[rounds] += count
        playing = [
            sum(count for r, count in by_rounds.items() if r >= self.max_rounds - m + 1)
            for m in range(1, self.max_rounds + 1)
        ]
        capacity = _capacities(scoring, table_size.min, table_size.max, max_byes, playing)
        self.budget = sum(capacity[n] for n in playing)
        # Points sorted descending, for "how many are above".
        self.points_desc = sorted((p.points for p in players), reverse=True)

    def cost(self, need: int, rounds: int) -> int | None:
        """The smallest gain open to a player with ``rounds`` left that is at least ``need``."""
        options = gains(self.values, rounds)
        at = bisect_left(options, need)
        return options[at] if at < len(options) else None

    def can_reach(self, total: int, *, budget: int, exclude: tuple[int, int] | None) -> int:
        """How many players (less one of group ``exclude``) can finish on ``total`` or more: the smaller of the
        plain count and the number whose cheapest costs fit in ``budget``."""
        free = plain = 0
        costs: Counter[int] = Counter()
        for key in self.keys:
            points, rounds = key
            count = self.groups[key] - (1 if key == exclude else 0)
            if not count:
                continue
            if points >= total:
                free += count
                continue
            if points + self.top[rounds] < total:
                continue
            plain += count
            cost = self.cost(total - points, rounds)
            assert cost is not None  # within the top gain
            costs[cost] += count
        fitted = 0
        left = budget
        for cost in sorted(costs):
            count = costs[cost]
            take = min(count, left // cost)
            fitted += take
            left -= take * cost
            if take < count:
                break
        return free + min(plain, fitted)

    def above(self, total: int) -> int:
        """How many players have more than ``total`` points now."""
        lo, hi = 0, len(self.points_desc)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.points_desc[mid] > total:
                lo = mid + 1
            else:
                hi = mid
        return lo


def _first(options: Sequence[int], ok: Callable[[int], bool]) -> int | None:
    """The first of ``options`` (ascending) for which the monotone ``ok`` holds, by bisection."""
    lo, hi = 0, len(options)
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(options[mid]):
            hi = mid
        else:
            lo = mid + 1
    return options[lo] if lo < len(options) else None


def _safe_with(field: _Field, key: tuple[int, int], cut_size: int, gain: int) -> bool:
    return field.can_reach(key[0] + gain, budget=field.budget - gain, exclude=key) < cut_size


def _possible_with(field: _Field, points: int, cut_size: int, gain: int) -> bool:
    # ``above`` counts the player too when they are above the total: never, since the gain is >= 0.
    return field.above(points + gain) < cut_size


def _safe_for_all(field: _Field, cut_size: int, total: int) -> bool:
    return field.can_reach(total, budget=field.budget, exclude=None) <= cut_size


def _reaches(points: int, line: int, gain: int) -> bool:
    return points + gain >= line


def cut_line(
    players: Sequence[CutPlayer],
    *,
    cut_size: int,
    scoring: Scoring,
    table_size: TableSize,
    max_byes: int,
    simulations: int = SIMULATIONS,
    seed: int = 0,
) -> CutLine:
    """The cut line of an event whose active players are ``players`` (terms and contract: module docstring).

    ``table_size``: the tables the event seats (1v1: 2..2); ``max_byes``: the most byes one round can give
    (1v1: 1).  ``simulations=0`` skips the projection.
    """
    _check(players, cut_size=cut_size, max_byes=max_byes, simulations=simulations)
    field = _Field(players, scoring=scoring, table_size=table_size, max_byes=max_byes)
    everyone_in = len(players) <= cut_size
    projected = (
        _project(field, cut_size=cut_size, scoring=scoring, table_size=table_size, simulations=simulations, seed=seed)
        if simulations and not everyone_in and players
        else None
    )
    line = projected[len(projected) // 2] if projected else None
    answers: dict[tuple[int, int], PlayerCut] = {}
    for key in field.keys:
        points, rounds = key
        options = gains(field.values, rounds)
        if everyone_in:
            guaranteed: int | None = 0
            possible: int | None = 0
        else:
            guaranteed = _first(options, partial(_safe_with, field, key, cut_size))
            possible = _first(options, partial(_possible_with, field, points, cut_size))
        likely = None if line is None else _first(options, partial(_reaches, points, line))
        answers[key] = PlayerCut(
            points=points,
            rounds_left=rounds,
            guaranteed_with=guaranteed,
            guaranteed_record=None if guaranteed is None else record_for(guaranteed, rounds=rounds, scoring=scoring),
            possible_with=possible,
            likely_with=0 if everyone_in else likely,
            best_case=points + options[-1],
        )
    if everyone_in:
        safe: int | None = 0
    else:
        top = max((p + field.top[r] for p, r in field.keys), default=0)
        totals = range(top + 2)
        safe = _first(totals, partial(_safe_for_all, field, cut_size))
        if safe is not None and safe > top:
            safe = None
    return CutLine(
        cut_size=cut_size,
        active=len(players),
        rounds_left=field.max_rounds,
        safe_line=safe,
        projected_line=line,
        projected_low=projected[int(_LOW_PERCENTILE * (len(projected) - 1))] if projected else None,
        projected_high=projected[int(_HIGH_PERCENTILE * (len(projected) - 1))] if projected else None,
        simulations=simulations if projected else 0,
        seed=seed,
        players={p.player_id: answers[(p.points, p.rounds_left)] for p in players},
    )


def _check(players: Sequence[CutPlayer], *, cut_size: int, max_byes: int, simulations: int) -> None:
    if cut_size < 1:
        raise ValueError(f"a cut takes 1 player or more, not {cut_size}")
    if max_byes < 0:
        raise ValueError(f"max_byes must be 0 or more, not {max_byes}")
    if simulations < 0:
        raise ValueError(f"simulations must be 0 or more, not {simulations}")
    if len({p.player_id for p in players}) != len(players):
        twice = Counter(p.player_id for p in players).most_common(1)[0][0]
        raise ValueError(f"player {twice} is listed twice")
    for p in players:
        if p.points < 0 or p.rounds_left < 0:
            raise ValueError(f"player {p.player_id} has negative points or rounds left ({p.points}, {p.rounds_left})")


# --- the projection -------------------------------------------------------------------------------


def _project(
    field: _Field, *, cut_size: int, scoring: Scoring, table_size: TableSize, simulations: int, seed: int
) -> list[int]:
    """The points of the ``cut_size``-th place in each simulated finish, ascending."""
    rng = random.Random(seed)
    size = table_size.preferred
    decisive = scoring.placement_points[size]
    drawn = (scoring.draw_points, scoring.draw_points, *decisive[2:])
    start: dict[int, dict[int, int]] = {}
    for (points, rounds), count in field.groups.items():
        start.setdefault(rounds, {})[points] = count
    lines = []
    for _ in range(simulations):
        state = {rounds: dict(groups) for rounds, groups in start.items()}
        for rounds in range(field.max_rounds, 0, -1):
            played = _simulate_round(state.pop(rounds, {}), rng, size=size, smallest=table_size.min,
                                     decisive=decisive, drawn=drawn, scoring=scoring)  # fmt: skip
            waiting = state.setdefault(rounds - 1, {})
            for points, count in played.items():
                waiting[points] = waiting.get(points, 0) + count
        lines.append(_place(state[0], cut_size))
    lines.sort()
    return lines


def _place(groups: Mapping[int, int], place: int) -> int:
    """The points of the player placed ``place``-th (by points) in ``groups`` (points -> players)."""
    seen = 0
    for points in sorted(groups, reverse=True):
        seen += groups[points]
        if seen >= place:
            return points
    return 0


def _simulate_round(
    playing: Mapping[int, int],
    rng: random.Random,
    *,
    size: int,
    smallest: int,
    decisive: tuple[int, ...],
    drawn: tuple[int, ...],
    scoring: Scoring,
) -> dict[int, int]:
    """One Swiss round of the players in ``playing`` (points -> count), paired by points; their new points."""
    after: dict[int, int] = {}
    floating: list[int] = []

    def add(points: int, count: int) -> None:
        after[points] = after.get(points, 0) + count

    def seat(table: list[int]) -> None:
        rng.shuffle(table)
        if len(table) == size:
            placements = drawn if rng.random() < DRAW_RATE else decisive
        else:
            placements = scoring.placement_points[len(table)]
        for points, gained in zip(table, placements, strict=True):
            add(points + gained, 1)

    for points in sorted(playing, reverse=True):
        count = playing[points]
        if floating:
            taken = min(size - len(floating), count)
            floating.extend([points] * taken)
            count -= taken
            if len(floating) == size:
                seat(floating)
                floating = []
        tables, left = divmod(count, size)
        if tables:
            draws = rng.binomialvariate(tables, DRAW_RATE)
            for won, tied in zip(decisive, drawn, strict=True):
                add(points + won, tables - draws)
                if draws:
                    add(points + tied, draws)
        floating.extend([points] * left)
    if len(floating) >= max(smallest, 2) and len(floating) in scoring.placement_points:
        seat(floating)
    else:
        for points in floating:
            add(points + scoring.bye_points, 1)
    return after
