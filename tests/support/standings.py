"""Standings for the tests: table results built by hand and random whole events for the pure standings engine.

- :func:`win`, :func:`draw`, :func:`bye`, :func:`table`: one table's result in a round.
- :func:`by_player`: standings keyed by player id.
- ``Event`` and :func:`events`: a hypothesis strategy of random events (players, results, drops).
- :func:`close`: a published (rounded) figure matches its exact fraction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from hypothesis import strategies as st

from tournaments.standings import SeatResult, Standing, TableResult


def win(round_number: int, winner: int, loser: int) -> TableResult:
    return TableResult(round_number, (SeatResult(winner, 1), SeatResult(loser, 2)))


def draw(round_number: int, a: int, b: int) -> TableResult:
    return TableResult(round_number, (SeatResult(a, 1, shared=True), SeatResult(b, 1, shared=True)))


def bye(round_number: int, player_id: int) -> TableResult:
    return TableResult(round_number, (SeatResult(player_id, 1),))


def table(round_number: int, placements: Mapping[int, int]) -> TableResult:
    """A table from ``{player_id: placement}``; ``shared`` is worked out from the placements."""
    taken = list(placements.values())
    return TableResult(
        round_number,
        tuple(SeatResult(p, placement, shared=taken.count(placement) > 1) for p, placement in placements.items()),
    )


def by_player(standings: Sequence[Standing]) -> dict[int, Standing]:
    return {s.player_id: s for s in standings}


Event = tuple[list[int], list[TableResult], list[int]]


@st.composite
def events(draw: st.DrawFn, *, multiplayer: bool) -> Event:
    """A plausible event: players seated at random each round, odd ones out get byes, some drop."""
    ids = draw(st.lists(st.integers(1, 10_000), min_size=1, max_size=14, unique=True))
    active = list(ids)
    dropped: list[int] = []
    results: list[TableResult] = []
    for round_number in range(1, draw(st.integers(0, 5)) + 1):
        waiting = list(draw(st.permutations(active)))
        while waiting:
            size = draw(st.integers(2, 5)) if multiplayer else 2
            seated, waiting = waiting[:size], waiting[size:]
            if len(seated) == 1:
                results.append(bye(round_number, seated[0]))
                continue
            # Random finishing scores; placement = 1 + number of seats that did better.
            scores = draw(st.lists(st.integers(1, len(seated)), min_size=len(seated), max_size=len(seated)))
            results.append(
                table(
                    round_number,
                    {p: 1 + sum(o < s for o in scores) for p, s in zip(seated, scores, strict=True)},
                )
            )
        if active and draw(st.booleans()):
            dropped.append(active.pop(draw(st.integers(0, len(active) - 1))))
    # A few more drop after the last round.
    dropped += draw(st.lists(st.sampled_from(active), unique=True, max_size=2)) if active else []
    return ids, results, dropped


def close(published: float, exact: Fraction) -> bool:
    """Published figures are rounded to 6 decimals, so they are within half a millionth."""
    return abs(Fraction(published) - exact) <= Fraction(1, 2_000_000) + Fraction(1, 10**12)
