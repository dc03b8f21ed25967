"""The lottery for an event's places: a seeded draw, reproducible from its seed.

Terms.  *Applicants* are the players who applied while the event took
applications (ids).  The *places* are how many of them the draw can seat:
the event's capacity less the players already in it (staff's walk-ins).  The
*seed* is a whole number recorded with the draw.  The *drawn order* ranks every
applicant (1 = first drawn); the first ``places`` of it *win* a place, the
others join the waiting list in drawn order.

The contract.  The draw depends only on the set of applicants, the seed and
the places: the order the applicants are given in does not matter (they are
sorted by id first), and the same three give the same drawn order on every
machine and Python version (``random.Random`` with an integer seed and
``shuffle`` are stable across versions).  Every applicant is drawn exactly
once; nobody else is.  No Django here: :mod:`tournaments.services.entry`
loads the applicants and writes the outcome.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

#: Seeds are kept below 2**53 so that a JSON number (the audit trail, the API) holds them exactly.
SEED_LIMIT = 2**53


@dataclass(frozen=True, slots=True)
class Draw:
    """A draw's outcome: the seed, every applicant in drawn order, and how many of them won a place."""

    seed: int
    order: tuple[int, ...]
    places: int

    @property
    def winners(self) -> tuple[int, ...]:
        return self.order[: self.places]

    @property
    def waiting(self) -> tuple[int, ...]:
        """The waiting list, in the order it is promoted."""
        return self.order[self.places :]


def new_seed() -> int:
    """A fresh seed for a draw the organiser did not give one for."""
    return secrets.randbelow(SEED_LIMIT)


def draw(applicants: Iterable[int], *, seed: int, places: int) -> Draw:
    """Draw ``applicants`` (player ids) in a seeded order; the first ``places`` win (all of them when there are
    fewer applicants than places)."""
    if not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"A seed is a whole number from 0 to {SEED_LIMIT - 1}.")
    if places < 0:
        raise ValueError("Places cannot be negative.")
    ids = sorted(set(applicants))
    random.Random(seed).shuffle(ids)
    return Draw(seed=seed, order=tuple(ids), places=min(places, len(ids)))
