"""The pairing engine's inputs and outputs: plain, frozen records keyed by id.

See the package docstring (:mod:`tournaments.pairing`) for what the fields mean
to the engine.  Nothing here knows about the ORM: the service that calls the
engine builds :class:`Entrant` records from the event's history and writes the
returned :class:`Pairing` back.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Entrant", "Pairing", "PairingError", "Table"]


@dataclass(frozen=True, slots=True)
class Entrant:
    """One registered player as the engine sees them before a round."""

    id: int
    #: Match points so far.
    points: int = 0
    #: Current standing position, 1 = best; 0 = unknown, treated as tied last.  Ties are allowed.
    rank: int = 0
    #: Ids of everyone already met at a table (in a pod, everyone else in it).
    opponents: frozenset[int] = frozenset()
    #: Byes received so far.
    byes: int = 0
    #: Times seated in seat 1 (goes first) of a pod so far.
    first_seats: int = 0
    #: Dropped players are never paired.
    dropped: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    """One table of the round."""

    #: 1 = top table.
    number: int
    #: Entrant ids in seat order; seat 1 first (in a pod, seat 1 goes first).
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pairing:
    """The engine's answer for one round."""

    #: Tables in table-number order, starting at 1.
    tables: tuple[Table, ...]
    #: Entrant ids given a bye this round, in id order.
    byes: tuple[int, ...]
    #: Repeated opponent pairs in this pairing (two players seated together who had met before).
    rematches: int
    #: The seed the pairing was made with; the same inputs and seed give the same pairing.
    seed: int


class PairingError(ValueError):
    """The engine cannot pair these inputs: a caller's mistake, not a bug in the engine.

    Raised for no active entrants, fewer active entrants than one table needs,
    duplicate ids, and arguments of the wrong type or out of range.
    """
