"""The standings engine.  Terms and the contract are in the package docstring.

It is written for speed in plain Python: players are mapped once to list
indices, one pass over the seats fills per-player counters and opponent
lists, then each tiebreaker is one pass over those lists.  Nothing loops over
pairs of players, so the cost grows with the number of seats reported.

Averages use :func:`math.fsum`, which rounds the exact sum once: the result
does not depend on the order the opponents were met in, so shuffling the
results cannot move a tiebreaker across a rounding boundary.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from math import fsum
from typing import NoReturn

from games.formats.base import Scoring

#: Decimals the tiebreakers are published with, and compared at.
DECIMALS = 6


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One player's result at one table."""

    player_id: int
    #: 1 = won; players sharing first place drew.
    placement: int
    #: True when another player at the table has the same placement.
    shared: bool = False


@dataclass(frozen=True, slots=True)
class TableResult:
    """Everyone's result at one table in one round; a bye is one seat, placement 1."""

    round_number: int
    seats: tuple[SeatResult, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings."""

    #: 1 = best; players with identical keys share a rank ("1, 2, 2, 4").
    rank: int
    player_id: int
    #: Match points.
    points: int
    wins: int
    draws: int
    losses: int
    #: Byes are also counted in ``wins``.
    byes: int
    #: Tables played, byes included.
    matches: int
    #: 0..1, rounded to 6 decimals.
    opp_match_win_pct: float
    opp_opp_match_win_pct: float
    #: Mean match points per round of the opponents (pods); 0.0 for 1v1 events.
    opp_avg_points: float
    dropped: bool


def seat_points(seat: SeatResult, *, table_size: int, scoring: Scoring) -> int:
    """Match points one seat earned at a table of ``table_size`` (1 = a bye)."""
    if table_size == 1:
        _check_bye(seat, round_number=None)
        return scoring.bye_points
    return scoring.points_for(table_size=table_size, placement=seat.placement, shared=seat.shared)


def compute_standings(
    player_ids: Sequence[int],
    results: Sequence[TableResult],
    *,
    scoring: Scoring,
    multiplayer: bool,
    dropped: Collection[int] = (),
    win_pct_floor: float = 0.25,
) -> list[Standing]:
    """Rank ``player_ids`` on ``results``, best first.

    ``multiplayer`` selects the pod order (opponents' average points before
    OMW%); ``dropped`` players stay in the list, flagged.  Raises
    ``ValueError`` on input that does not describe a possible event (see the
    package docstring).
    """
    if not 0.0 <= win_pct_floor <= 1.0:
        raise ValueError(f"win_pct_floor must be within 0..1, got {win_pct_floor}")
    if scoring.win_points <= 0:
        raise ValueError(f"scoring.win_points must be positive, got {scoring.win_points}")

    index: dict[int, int] = {}
    for player_id in player_ids:
        if player_id in index:
            raise ValueError(f"player {player_id} is listed twice in player_ids")
        index[player_id] = len(index)
    ids = list(index)
    count = len(ids)
    for player_id in dropped:
        if player_id not in index:
            raise ValueError(f"dropped player {player_id} is not in player_ids")
    dropped_ids = frozenset(dropped)

    points = [0] * count
    # Points from real matches only: the numerator of the match-win percentage.
    played_points = [0] * count
    wins = [0] * count
    draws = [0] * count
    byes = [0] * count
    matches = [0] * count
    opponents: list[list[int]] = [[] for _ in range(count)]
    bye_points = scoring.bye_points
    # The points of every seat shape, per table size, filled in the first time
    # a size is seen: a dict hit per seat instead of a points_for call.
    values_by_size: dict[int, dict[int, int]] = {}

    for table in results:
        seats = table.seats
        size = len(seats)
        if size == 1:
            seat = seats[0]
            try:
                i = index[seat.player_id]
            except KeyError:
                _reject_players(table, index)
            _check_bye(seat, round_number=table.round_number)
            points[i] += bye_points
            wins[i] += 1
            byes[i] += 1
            matches[i] += 1
            continue

        values = values_by_size.get(size)
        if values is None:
            values = values_by_size[size] = _seat_values(scoring, table)
        if size == 2:
            # 1v1, by far the most common table: the general case below, unrolled.
            first, second = seats
            try:
                i = index[first.player_id]
                j = index[second.player_id]
            except KeyError:
                _reject_players(table, index)
            if i == j:
                _reject_players(table, index)
            placement_i = first.placement
            placement_j = second.placement
            shared = placement_i == placement_j
            if first.shared != shared or second.shared != shared:
                _reject_shared(table)
            value_i = values.get(2 * placement_i + shared)
            value_j = values.get(2 * placement_j + shared)
            if value_i is None or value_j is None:
                _reject_placements(table)
            points[i] += value_i
            points[j] += value_j
            played_points[i] += value_i
            played_points[j] += value_j
            matches[i] += 1
            matches[j] += 1
            if placement_i == 1:
                if shared:
                    draws[i] += 1
                    draws[j] += 1
                else:
                    wins[i] += 1
            elif placement_j == 1:
                wins[j] += 1
            opponents[i].append(j)
            opponents[j].append(i)

        else:
            try:
                seated = [index[seat.player_id] for seat in seats]
            except KeyError:
                _reject_players(table, index)
            if len(set(seated)) != size:
                _reject_players(table, index)
            placements = [seat.placement for seat in seats]
            for seat, i in zip(seats, seated, strict=True):
                placement = seat.placement
                shared = placements.count(placement) > 1
                if seat.shared != shared:
                    _reject_shared(table)
                value = values.get(2 * placement + shared)
                if value is None:
                    _reject_placements(table)
                points[i] += value
                played_points[i] += value
                matches[i] += 1
                if placement == 1:
                    if shared:
                        draws[i] += 1
                    else:
                        wins[i] += 1
                met = opponents[i]
                for j in seated:
                    if j != i:
                        met.append(j)

    floor = win_pct_floor
    win_points = scoring.win_points
    match_win_pct = [floor] * count
    for i in range(count):
        played = matches[i] - byes[i]
        if played:
            pct = played_points[i] / (win_points * played)
            match_win_pct[i] = min(max(pct, floor), 1.0)

    opp_mwp = _opponent_means(opponents, match_win_pct)
    opp_opp_mwp = _opponent_means(opponents, opp_mwp)
    if multiplayer:
        per_match = [points[i] / matches[i] if matches[i] else 0.0 for i in range(count)]
        opp_avg = [round(value, DECIMALS) for value in _opponent_means(opponents, per_match)]
    else:
        opp_avg = [0.0] * count
    omw = [round(value, DECIMALS) for value in opp_mwp]
    oomw = [round(value, DECIMALS) for value in opp_opp_mwp]

    # Descending on every figure, then ascending player id for a stable order.
    if multiplayer:
        keys = [(-points[i], -opp_avg[i], -omw[i], -oomw[i]) for i in range(count)]
    else:
        keys = [(-points[i], -omw[i], -oomw[i]) for i in range(count)]
    order = sorted(range(count), key=lambda i: (keys[i], ids[i]))

    standings: list[Standing] = []
    rank = 0
    previous: tuple[float, ...] | None = None
    for position, i in enumerate(order, start=1):
        key = keys[i]
        if key != previous:
            rank = position
            previous = key
        player_id = ids[i]
        standings.append(
            Standing(
                rank=rank,
                player_id=player_id,
                points=points[i],
                wins=wins[i],
                draws=draws[i],
                losses=matches[i] - wins[i] - draws[i],
                byes=byes[i],
                matches=matches[i],
                opp_match_win_pct=omw[i],
                opp_opp_match_win_pct=oomw[i],
                opp_avg_points=opp_avg[i],
                dropped=player_id in dropped_ids,
            )
        )
    return standings


def _opponent_means(opponents: list[list[int]], values: list[float]) -> list[float]:
    """Per player, the mean of ``values`` over their opponents; 0.0 without opponents."""
    get = values.__getitem__
    return [fsum(map(get, met)) / len(met) if met else 0.0 for met in opponents]


def _seat_values(scoring: Scoring, table: TableResult) -> dict[int, int]:
    """The points of each seat shape at a table the size of ``table``.

    Keyed by ``2 * placement + shared``, so the hot loop looks a seat up with
    one small int instead of building a tuple; a placement outside
    ``1..size`` has no key.
    """
    size = len(table.seats)
    if size == 0:
        raise ValueError(f"a table in round {table.round_number} has no seats")
    try:
        return {
            2 * placement + shared: scoring.points_for(table_size=size, placement=placement, shared=shared)
            for placement in range(1, size + 1)
            for shared in (False, True)
        }
    except ValueError as error:
        raise ValueError(f"round {table.round_number}: {error}") from None


def _check_bye(seat: SeatResult, *, round_number: int | None) -> None:
    if seat.placement != 1 or seat.shared:
        where = "" if round_number is None else f" in round {round_number}"
        raise ValueError(
            f"player {seat.player_id} has a one-seat table{where} (a bye) with "
            f"placement={seat.placement}, shared={seat.shared}; a bye is placement 1, not shared"
        )


def _reject_players(table: TableResult, index: Mapping[int, int]) -> NoReturn:
    for seat in table.seats:
        if seat.player_id not in index:
            raise ValueError(
                f"round {table.round_number} has a result for player {seat.player_id}, who is not in player_ids"
            )
    raise ValueError(f"a player is seated twice at one table in round {table.round_number}: {table}")


def _reject_shared(table: TableResult) -> NoReturn:
    raise ValueError(
        f"a table in round {table.round_number} has a shared flag that disagrees with its placements "
        "(shared must be True exactly for placements another seat also has): "
        + ", ".join(f"player {s.player_id} placed {s.placement} shared={s.shared}" for s in table.seats)
    )


def _reject_placements(table: TableResult) -> NoReturn:
    size = len(table.seats)
    raise ValueError(
        f"a table of {size} in round {table.round_number} has a placement outside 1..{size}: "
        + ", ".join(f"player {s.player_id} placed {s.placement}" for s in table.seats)
    )
