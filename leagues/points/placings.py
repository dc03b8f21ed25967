"""Final placings of one event, the top cut counted (terms in :mod:`leagues.points`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CutTable:
    """One table of a cut round: ``{player id: placement}`` (1 = won, goes through); ``None`` for every
    player while the table has no result."""

    round_number: int
    placements: Mapping[int, int | None]


def final_placings(
    swiss_ranks: Mapping[int, int], cut_tables: Sequence[CutTable], *, cut_size: int = 0
) -> dict[int, int]:
    """Every player's final placing.

    ``swiss_ranks``: the Swiss standings' rank of every player (shared ranks allowed); ``cut_tables``: every
    table of the cut so far, any order; ``cut_size``: players who made the cut.

    Players knocked out in a cut round place below everyone who went further: a player out in round ``r``
    places at (tables of round ``r``, one winner each) + 1, plus the players out in ``r`` who finished
    better at their own tables (so a pod's 3rd places below every pod's 2nd).  The winner of the final is
    1st.  Players still in a cut that is under way share 1st, the best place they can still reach.
    Everyone outside the cut keeps their Swiss rank, but never above the cut's last place.
    """
    placings: dict[int, int] = {}
    for player, rank in swiss_ranks.items():
        if rank < 1:
            raise ValueError(f"player {player}: rank {rank} is below 1")
        placings[player] = max(rank, cut_size + 1) if cut_size else rank
    if not cut_tables:
        return placings
    tables_in: dict[int, int] = {}
    knocked_in: dict[int, list[tuple[int, int]]] = {}  # round -> [(table placement, player)]
    knocked: set[int] = set()
    for table in cut_tables:
        tables_in[table.round_number] = tables_in.get(table.round_number, 0) + 1
        for player, placement in table.placements.items():
            if placement is None:
                continue
            if placement < 1:
                raise ValueError(f"player {player}: placement {placement} is below 1")
            if placement > 1:
                knocked_in.setdefault(table.round_number, []).append((placement, player))
                knocked.add(player)
    for round_number, out in knocked_in.items():
        out.sort()
        better = 0
        for i, (placement, player) in enumerate(out):
            if i and placement != out[i - 1][0]:
                better = i
            placings[player] = tables_in[round_number] + 1 + better
    # The winner of a decided final, and everyone still in a cut under way: 1st.
    for table in cut_tables:
        for player in table.placements:
            if player not in knocked:
                placings[player] = 1
    return placings
