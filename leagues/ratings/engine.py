"""The rating engine over ``openskill``'s Plackett-Luce model (terms in :mod:`leagues.ratings`).

Speed: the package's public ``rate`` deep-copies the teams it is given and
makes a rating object (with a random ``uuid4`` id, a system call) for every
player twice, which cost three times the rating math itself when a season is
rated from scratch.  :func:`_rate` does what ``rate`` does for teams of one
player (the sigma widened by ``tau``, the teams sorted by rank, the model's
own ``_compute``, the order put back, ``limit_sigma``) on rating objects it
reuses from table to table, so the figures are the package's to the last bit
(``tests/leagues/test_ratings.py`` compares them with ``rate``).  It uses
that private method of ``openskill`` as pinned in ``requirements.txt``; an
upgrade that changes it fails those tests.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from openskill.models import PlackettLuce, PlackettLuceRating

_MODEL = PlackettLuce()
_TAU_SQUARED = _MODEL.tau * _MODEL.tau

#: The model's starting skill and uncertainty (``openskill``'s defaults: 25 and 25 / 3).
MU: float = _MODEL.mu
SIGMA: float = _MODEL.sigma
#: How many standard deviations the displayed rating keeps below ``mu``.
Z = 3


class Rating(NamedTuple):
    """A player's rating (a named tuple, as :class:`Change`: a season from scratch makes 70,000 of each, and a
    tuple is built at C speed where a frozen dataclass stores each field through ``object.__setattr__``)."""

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


class Change(NamedTuple):
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


def _rate(before: Sequence[Rating], ranks: list[float], scratch: list[PlackettLuceRating]) -> list[tuple[float, float]]:
    """``(mu, sigma)`` of each player after a table, exactly as ``_MODEL.rate`` gives them for these one-player
    teams and ``ranks``; ``scratch`` holds the package's rating objects reused from call to call (grown as
    needed, one list per replay, so no two threads share one)."""
    while len(scratch) < len(before):
        scratch.append(_MODEL.create_rating([MU, SIGMA]))
    teams = []
    for rating, player in zip(before, scratch, strict=False):
        # rate(): every sigma widened by tau before the update.
        player.mu = rating.mu
        player.sigma = math.sqrt(rating.sigma * rating.sigma + _TAU_SQUARED)
        teams.append([player])
    # rate(): the teams sorted by rank (a stable sort, as the package's), rated, and put back in their order.
    order = sorted(range(len(teams)), key=ranks.__getitem__)
    rated = _MODEL._compute(teams=[teams[i] for i in order], ranks=[ranks[i] for i in order])
    after: list[tuple[float, float]] = [(0.0, 0.0)] * len(teams)
    for position, i in enumerate(order):
        player = rated[position][0]
        sigma = min(player.sigma, before[i].sigma) if _MODEL.limit_sigma else player.sigma
        after[i] = (player.mu, sigma)
    return after


def rate_table(ratings: Mapping[int, Rating], table: RatedTable) -> list[Change]:
    """Rate one table from ``ratings`` (a player not in it starts at :data:`DEFAULT`)."""
    return _rate_table(ratings, table, [])


def _rate_table(ratings: Mapping[int, Rating], table: RatedTable, scratch: list[PlackettLuceRating]) -> list[Change]:
    seats = _check(table)
    before = [ratings.get(player, DEFAULT) for player, _ in seats]
    rated = _rate(before, [float(placement) for _, placement in seats], scratch)
    key = table.key
    # Change(...) and Rating(...) without the named tuples' Python-level __new__: these are the hot path.
    return [
        _new_tuple(Change, (key, player, old, _new_tuple(Rating, (mu, sigma, old.games + 1))))
        for (player, _), old, (mu, sigma) in zip(seats, before, rated, strict=True)
    ]


_new_tuple = tuple.__new__


def replay(
    tables: Iterable[RatedTable], start: Mapping[int, Rating] | None = None
) -> tuple[dict[int, Rating], list[Change]]:
    """Rate ``tables`` in ``key`` order from ``start`` (everyone else at :data:`DEFAULT`).

    Returns the ratings after the last table (of everyone in ``start`` or at a table) and every change, in
    order.
    """
    ratings: dict[int, Rating] = dict(start or {})
    changes = list(replay_into(ratings, tables))
    return ratings, changes


def replay_into(ratings: dict[int, Rating], tables: Iterable[RatedTable]) -> Iterator[Change]:
    """:func:`replay` one table at a time: rate ``tables`` in ``key`` order, yield each change in order, and keep
    ``ratings`` (the caller's, everyone not in it at :data:`DEFAULT`) at every player's rating after the tables
    rated so far.  A caller can store a table's changes while the next ones are rated; once the changes are all
    taken, ``ratings`` holds what :func:`replay` returns."""
    scratch: list[PlackettLuceRating] = []
    for table in sorted(tables, key=lambda t: t.key):
        for change in _rate_table(ratings, table, scratch):
            ratings[change.player_id] = change.after
            yield change
