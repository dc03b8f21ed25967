"""The pairing engine's inputs and outputs: plain, frozen records keyed by id.

See the package docstring (:mod:`tournaments.pairing`) for what the fields mean
to the engine.  Nothing here knows about the ORM: the service that calls the
engine builds :class:`Entrant` records from the event's history and writes the
returned :class:`Pairing` back.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat

__all__ = ["REASON_CODES", "Entrant", "Pairing", "PairingError", "Table"]

#: Why a player sits where they sit (:attr:`Pairing.reasons`), a fixed vocabulary the service renders
#: as text.  See the package docstring (:mod:`tournaments.pairing`) for what each code means.
REASON_CODES: frozenset[str] = frozenset(
    {
        "first_round",
        "same_points",
        "paired_down",
        "paired_up",
        "mixed_points",
        "rematch",
        "bye",
        "bye_assigned",
        "fixed_table",
        "seeded_by_rating",
        # Given by the service, not the engine: a pair the organiser keeps apart seated together (no pairing avoided
        # it); the engine saw them as opponents already met.
        "keep_apart",
    }
)


@dataclass(frozen=True, slots=True)
class Entrant:
    """One registered player as the engine sees them before a round."""

    id: int
    #: Match points so far.
    points: int = 0
    #: Current standing position, 1 = best; 0 = unknown, treated as tied last.  Ties are allowed.  In round 1
    #: seeded by rating (``seeding="rating"``), the player's place by rating instead.
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

    #: 1 = top table; a table fixed for a player carries the number asked for (gaps allowed).
    number: int
    #: Entrant ids in seat order; seat 1 first (in a pod, seat 1 goes first).
    seats: tuple[int, ...]


def make_tables(numbers: Iterable[int], seats: Sequence[tuple[int, ...]]) -> list[Table]:
    """``[Table(n, s) for n, s in zip(numbers, seats)]``, the same records, at twice the speed.

    A frozen record's ``__init__`` sets each field through
    ``object.__setattr__``, a Python call per field; at 10,000 players a
    round has 2,500 tables.  Here the records are made empty and their two
    slots filled in C, one pass per field.  Equal to what the constructor
    makes, which a test checks; a field added to :class:`Table` must be set
    here too.
    """
    records = list(map(object.__new__, repeat(Table, len(seats))))
    deque(map(_SET_NUMBER, records, numbers), maxlen=0)
    deque(map(_SET_SEATS, records, seats), maxlen=0)
    return records


# The slots' own setters, which a frozen record's ``__setattr__`` does not stand in front of.
_SET_NUMBER = vars(Table)["number"].__set__
_SET_SEATS = vars(Table)["seats"].__set__


@dataclass(frozen=True, slots=True)
class Pairing:
    """The engine's answer for one round."""

    #: Tables in table-number order: 1, 2, 3 ... top down, except the numbers fixed for a player.
    tables: tuple[Table, ...]
    #: Entrant ids given a bye this round (by the engine or by the organiser), in id order.
    byes: tuple[int, ...]
    #: Repeated opponent pairs in this pairing (two players seated together who had met before).
    rematches: int
    #: The seed the pairing was made with; the same inputs and seed give the same pairing.
    seed: int
    #: The engine's integer objective of this pairing, lower is better (defined in the package docstring).
    objective: int = 0
    #: ``{entrant id: reason codes}`` for every active entrant in id order, from :data:`REASON_CODES`: the main code
    #: first, then ``"rematch"`` and/or ``"fixed_table"``.  Left out of the hash (a dict is not hashable).
    reasons: Mapping[int, tuple[str, ...]] = field(default_factory=dict, hash=False)


class PairingError(ValueError):
    """The engine cannot pair these inputs: a caller's mistake, not a bug in the engine.

    Raised for no active entrants, fewer players to pair than one table needs,
    duplicate ids, assigned byes for players who are not active, clashing fixed
    table numbers, and arguments of the wrong type or out of range.
    """
