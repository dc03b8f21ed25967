"""What a format means to Podium, as plain data.

A *format* is a set of rules an event is played under (``master-trainer``,
``deck-masters`` ...).  Everything the rest of the app needs to know about a
format lives on its :class:`Format` record:

* **table sizes** - how many players sit at one table (a *pod* when more than
  two).  ``min``/``max`` bound a legal table; ``preferred`` is what the pairing
  engine aims for.  1v1 formats have ``TableSize(2, 2, 2)``.
* **scoring** - the match points a seat earns for its *placement* (1 = won)
  at a table of a given size, for a shared placement (a draw) and for a bye.
* **starting life** - life / LP every player starts a game with.
* **games per match** - 1, or 3 for a best-of-three match (Deck Masters).

This module is pure Python: no Django imports, so pairing, standings, deck
rules and game engines can all read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class GameFamily(StrEnum):
    POKEMON = "pokemon"
    YUGIOH = "yugioh"
    MINTAYN = "mintayn"


@dataclass(frozen=True, slots=True)
class TableSize:
    """Players per table: any size in ``[min, max]``, ``preferred`` first."""

    min: int
    max: int
    preferred: int

    def __post_init__(self) -> None:
        if not (2 <= self.min <= self.preferred <= self.max):
            raise ValueError(f"bad table size {self.min}..{self.max} (preferred {self.preferred})")

    @property
    def is_one_vs_one(self) -> bool:
        return self.max == 2


@dataclass(frozen=True, slots=True)
class Scoring:
    """Match points by placement.

    ``placement_points[size]`` lists the points for 1st, 2nd, ... at a table of
    ``size`` players.  Players who share first place (a draw, an intentional
    draw, time called with no winner) each get ``draw_points``.  Players who
    share a lower place get the points of the best place they share.  A bye
    scores ``bye_points`` and counts as a match win.
    """

    placement_points: Mapping[int, tuple[int, ...]]
    draw_points: int
    bye_points: int
    #: Points a match win is worth; the denominator of win percentages.
    win_points: int = 3

    def points_for(self, *, table_size: int, placement: int, shared: bool = False) -> int:
        table = self.placement_points.get(table_size)
        if table is None:
            raise ValueError(f"no scoring for a table of {table_size}")
        if not 1 <= placement <= table_size:
            raise ValueError(f"placement {placement} is outside 1..{table_size}")
        if shared and placement == 1:
            return self.draw_points
        return table[placement - 1]


@dataclass(frozen=True, slots=True)
class Format:
    slug: str
    name: str
    family: GameFamily
    table_size: TableSize
    scoring: Scoring
    starting_life: int
    games_per_match: int = 1
    rulebook: str = ""
    #: Cards with a role in the format, chosen when registering a deck (see ``deckrules.ROLES``).
    deck_roles: tuple[str, ...] = ()
    #: Deck rule options an event may set, with their allowed values.
    deck_options: Mapping[str, tuple[object, ...]] = field(default_factory=dict)
    #: Why a choice the rulebook leaves open was made the way it was.
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def is_one_vs_one(self) -> bool:
        return self.table_size.is_one_vs_one


#: 1v1 scoring as every Swiss event uses it: win 3, draw 1, loss 0, bye = win.
ONE_VS_ONE = Scoring(placement_points={2: (3, 0)}, draw_points=1, bye_points=3)

#: Pod scoring: the winner takes 3 (a match win, as in 1v1), the runner-up of
#: a 3- or 4-player pod 1 (they outlasted the rest), everyone else 0.  A pod
#: that ends with no single winner gives each player sharing first place 1, as
#: a draw does in 1v1.  A 2-player table (Master Trainer only) scores as 1v1.
POD = Scoring(
    placement_points={2: (3, 0), 3: (3, 1, 0), 4: (3, 1, 0, 0), 5: (3, 1, 0, 0, 0)},
    draw_points=1,
    bye_points=3,
)
