"""The rating engine over ``openskill``'s Plackett-Luce model (terms in :mod:`leagues.ratings`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()

#: The model's starting skill and uncertainty (``openskill``'s defaults: 25 and 25 / 3).
MU: float = _MODEL.mu
SIGMA: float = _MODEL.sigma
#: How many standard deviations the displayed rating keeps below ``mu``.
Z = 3


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def display(self) -> float:
        return conservative(self)


DEFAULT = Rating()


def conservative(rating: Rating) -> float:
    """The displayed rating: ``mu - 3 sigma`` (0 for a new player)."""
    return rating.mu - Z * rating.sigma


@dataclass(frozen=True, slots=True)
class RatedTable:
    """One table's result in play order: ``placements`` maps each player id to their place (1 = won)."""

    key: Any
    placements: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class Change:
    """What rating one table did to one player."""

    key: Any
    player_id: int
    before: Rating
    after: Rating


def _check(table: RatedTable) -> list[tuple[int, int]]:
    seats = list(table.placements.items())
    if len(seats) < 2:
        raise ValueError(f"table {table.key!r}: a rated table has at least two players")
    for player, placement in seats:
        if placement < 1:
            raise ValueError(f"table {table.key!r}: player {player} placed {placement}, below 1")
    return seats


def rate_table(ratings: Mapping[int, Rating], table: RatedTable) -> list[Change]:
    """Rate one table from ``ratings`` (a player not in it starts at :data:`DEFAULT`)."""
    seats = _check(table)
    before = [ratings.get(player, DEFAULT) for player, _ in seats]
    teams = [[_MODEL.create_rating([r.mu, r.sigma])] for r in before]
    rated = _MODEL.rate(teams, ranks=[float(placement) for _, placement in seats])
    return [
        Change(table.key, player, old, Rating(team[0].mu, team[0].sigma, old.games + 1))
        for (player, _), old, team in zip(seats, before, rated, strict=True)
    ]


def replay(
    tables: Iterable[RatedTable], start: Mapping[int, Rating] | None = None
) -> tuple[dict[int, Rating], list[Change]]:
    """Rate ``tables`` in ``key`` order from ``start`` (everyone else at :data:`DEFAULT`).

    Returns the ratings after the last table (of everyone in ``start`` or at a table) and every change, in
    order.
    """
    ratings: dict[int, Rating] = dict(start or {})
    changes: list[Change] = []
    for table in sorted(tables, key=lambda t: t.key):
        for change in rate_table(ratings, table):
            ratings[change.player_id] = change.after
            changes.append(change)
    return ratings, changes
