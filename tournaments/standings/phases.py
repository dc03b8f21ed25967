"""Phases: an event's Swiss in parts (day 1, day 2), who goes on, and how the overall standings rank them.

Pure Python, no Django, like the rest of :mod:`tournaments.standings`: the
service reads the plan and the standings, calls these functions and writes
what they return.

Terms
=====

phase
    A run of consecutive Swiss rounds played by the same field: *Day 1* is
    rounds 1-9, *Day 2* rounds 10-14.  Phases are numbered from 1; round
    numbers run on across them (day 2 starts at round 10), so byes, pairings
    history and points carry over unchanged.  An event without a plan is one
    phase of all its Swiss rounds.
advancing
    At the end of a phase (every round played, every table reported) the
    players who *advance* go on to the next one; everyone else's event is over
    (they are not dropped: their record stands and they keep their standing).
    A phase advances by a **points threshold** (every active player with at
    least ``points`` match points: Play! Pokémon's "19 points or more" after
    day 1) or by a **top N** (the first ``top`` active players of the
    standings, in their order: ties at the line go by the tiebreakers, as a
    top cut does).  Dropped players never advance.
reached
    The last phase a player plays in (1 for everyone until phase 1 advances).
overall standings
    Every player who has played, ranked first by the phase they reached (a
    day-2 player above every day-1 player, whatever the points: the Play!
    Pokémon and Magic convention for a two-day event), then by the event's
    own order (points, tiebreakers) within it.  :func:`rank_by_phase` does
    this to a table the standings engine ranked.
phase standings
    The standings of a phase as it ended: the engine's table over the rounds
    up to the phase's last one (the service reads only those results).  Day
    1's are what decided who advanced.

Contract
========

Functions check their arguments and raise :class:`ValueError` on a plan or
a rule that cannot describe an event.  Nothing is random.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from tournaments.standings.engine import Standing

__all__ = [
    "POKEMON_DAY_TWO",
    "PRESETS",
    "PRESET_CHOICES",
    "PhasePlan",
    "advancing",
    "check_plan",
    "first_round",
    "last_round",
    "phase_of_round",
    "plan_of",
    "rank_by_phase",
]


@dataclass(frozen=True, slots=True)
class PhasePlan:
    """One phase of the plan: its name, its Swiss rounds and how its players go on (``None`` for the last)."""

    name: str
    rounds: int
    #: Advance every active player with at least this many match points.
    advance_points: int | None = None
    #: Advance the first ``advance_top`` active players of the standings.
    advance_top: int | None = None

    @property
    def advances(self) -> bool:
        return self.advance_points is not None or self.advance_top is not None

    def rule_text(self) -> str:
        """The rule in words: "19 match points or more", "the top 64"."""
        if self.advance_points is not None:
            return f"{self.advance_points} match points or more"
        if self.advance_top is not None:
            return f"the top {self.advance_top}"
        return "no further phase"


class _PhaseRecord(Protocol):
    name: str
    rounds: int
    advance_points: int | None
    advance_top: int | None


def plan_of(records: Sequence[_PhaseRecord]) -> list[PhasePlan]:
    """The plan of any records with a phase's fields (the service's stored rows), in their order."""
    return [
        PhasePlan(name=r.name, rounds=r.rounds, advance_points=r.advance_points, advance_top=r.advance_top)
        for r in records
    ]


#: Play! Pokémon's two-day Regional Championship: 9 Swiss rounds on day 1, players with 19 match points or more
#: (a record of 6-2-1 or better: win 3, tie 1) play 5 more rounds on day 2, then the top 8 cut.  A bye on day 1
#: is a win, so it counts toward the 19.
POKEMON_DAY_TWO: tuple[PhasePlan, ...] = (
    PhasePlan(name="Day 1", rounds=9, advance_points=19),
    PhasePlan(name="Day 2", rounds=5),
)

#: Presets by the name the API and the dashboard use, with the cut that follows them.
PRESETS: dict[str, tuple[tuple[PhasePlan, ...], int]] = {"pokemon_day2": (POKEMON_DAY_TWO, 8)}
#: The presets as choices (value, label), for forms and the API schema.
PRESET_CHOICES: tuple[tuple[str, str], ...] = (("pokemon_day2", "Play! Pokémon two-day Regional"),)


def check_plan(plan: Sequence[PhasePlan]) -> None:
    """Refuse a plan that cannot run: no phase, a phase without rounds or a name, a rule on the last phase, a
    phase before the last without one, or both rules on one phase."""
    if not plan:
        raise ValueError("a plan has at least one phase")
    for number, phase in enumerate(plan, start=1):
        if not phase.name.strip():
            raise ValueError(f"phase {number} has no name")
        if phase.rounds < 1:
            raise ValueError(f"phase {number} ({phase.name}) has no rounds")
        if phase.advance_points is not None and phase.advance_top is not None:
            raise ValueError(f"phase {number} ({phase.name}) advances by points or by a top N, not both")
        if phase.advance_points is not None and phase.advance_points < 0:
            raise ValueError(f"phase {number} ({phase.name}) has a negative points threshold")
        if phase.advance_top is not None and phase.advance_top < 2:
            raise ValueError(f"phase {number} ({phase.name}) advances fewer than 2 players")
        last = number == len(plan)
        if last and phase.advances:
            raise ValueError(f"the last phase ({phase.name}) has nowhere to advance to")
        if not last and not phase.advances:
            raise ValueError(f"phase {number} ({phase.name}) needs a rule for who goes on to phase {number + 1}")


def first_round(plan: Sequence[PhasePlan], number: int) -> int:
    """The first round of phase ``number`` (1-based)."""
    if not 1 <= number <= len(plan):
        raise ValueError(f"the plan has no phase {number}")
    return 1 + sum(p.rounds for p in plan[: number - 1])


def last_round(plan: Sequence[PhasePlan], number: int) -> int:
    """The last round of phase ``number``."""
    return first_round(plan, number) + plan[number - 1].rounds - 1


def phase_of_round(plan: Sequence[PhasePlan], round_number: int) -> int:
    """The phase a Swiss round belongs to; rounds past the plan belong to its last phase."""
    if round_number < 1:
        raise ValueError(f"round numbers start at 1, not {round_number}")
    end = 0
    for number, phase in enumerate(plan, start=1):
        end += phase.rounds
        if round_number <= end:
            return number
    return len(plan)


def advancing(table: Sequence[Standing], phase: PhasePlan, *, eligible: Sequence[int]) -> list[int]:
    """The players who go on from ``phase``, in standings order.

    ``table`` is the phase's standings (ranked by the engine); ``eligible``
    the players who played the phase and may go on (not dropped, in the
    phase).  By points: every eligible player at or above the threshold.
    By a top N: the first N eligible players of the table, in its order
    (players sharing a rank are in player-id order, the order a cut seeds).
    """
    if not phase.advances:
        raise ValueError(f"{phase.name} is the last phase: nobody advances from it")
    allowed = set(eligible)
    ordered = [s for s in table if s.player_id in allowed and not s.dropped]
    if phase.advance_points is not None:
        return [s.player_id for s in ordered if s.points >= phase.advance_points]
    assert phase.advance_top is not None
    return [s.player_id for s in ordered[: phase.advance_top]]


def rank_by_phase(table: Sequence[Standing], reached: Mapping[int, int]) -> list[Standing]:
    """The overall standings: players who reached a later phase first, the engine's order within each phase.

    ``reached`` maps a player to the last phase they play in (absent: 1).
    Ranks are recomputed: a player's rank is one more than the number of
    players ahead of them, so players the engine tied stay tied (and keep
    their player-id order) and no rank is shared across phases.
    """
    if not reached or all(v == 1 for v in reached.values()):
        return list(table)
    groups: dict[int, list[Standing]] = {}
    for row in table:
        groups.setdefault(reached.get(row.player_id, 1), []).append(row)
    out: list[Standing] = []
    for phase in sorted(groups, reverse=True):
        ahead = len(out)
        rows = groups[phase]
        previous_rank, new_rank = None, 0
        for i, row in enumerate(rows):
            if row.rank != previous_rank:
                new_rank, previous_rank = ahead + i + 1, row.rank
            out.append(row._replace(rank=new_rank))
    return out
