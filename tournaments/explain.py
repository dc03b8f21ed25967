"""Why a player sits where they sit: the pairing's reason codes turned into sentences.

Pure Python, no Django: the selector hands in what the round stored for a
seat (reason codes from :mod:`tournaments.pairing`, the points and rank the
player had when the round was paired, the top-cut seed) and the same for the
people at the table; :func:`explain_seat` returns sentences a player can read
on the public pairings page.  The codes are the engine's contract (see the
package docstring of :mod:`tournaments.pairing`); ``swapped``,
``table_changed`` and ``top_cut`` are added by the round services.

A swap by staff changes two tables after the round was paired: the two
players moved carry ``swapped``, everyone else at those tables
``table_changed``, and ``rematch`` is said again for the tables as they now
are.  The pairing's own reasons (points, pair-downs, the bye rule) no longer
explain such a table, so its seats are explained by the change instead: who
was moved, and the points everyone had.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["CHANGED_BY_STAFF", "SeatFacts", "explain_seat"]

#: The codes of a seat at a table staff changed by hand after the pairing (see the module docstring).
CHANGED_BY_STAFF = frozenset({"swapped", "table_changed"})


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """What the round stored about one seat."""

    name: str
    points: int | None
    rank: int | None
    reasons: tuple[str, ...]
    cut_seed: int | None = None


def _pts(points: int | None) -> str:
    if points is None:
        return "no recorded points"
    return f"{points} point{'s' if points != 1 else ''}"


def _rank(rank: int | None) -> str:
    return f" (ranked {rank})" if rank else ""


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _changed_by_staff(
    seat: SeatFacts, others: Sequence[SeatFacts], mine: str, *, round_number: int, bye: bool
) -> list[str]:
    """A seat at a table staff changed by hand: what they changed, and the points everyone had."""
    moved_in = [o.name for o in others if "swapped" in o.reasons]
    if bye:
        return [f"Staff moved you into the bye by hand after round {round_number} was paired; it counts as a win."]
    if "swapped" in seat.reasons:
        what = f"Staff moved you to this table by hand after round {round_number} was paired"
        what += f"; {_names(moved_in)} {'was' if len(moved_in) == 1 else 'were'} moved here too." if moved_in else "."
    else:
        what = f"Staff changed your table by hand after round {round_number} was paired"
        what += f": {_names(moved_in)} {'was' if len(moved_in) == 1 else 'were'} swapped in." if moved_in else "."
    if not others:
        return [what]
    theirs = "; ".join(f"{o.name} had {_pts(o.points)}{_rank(o.rank)}" for o in others)
    return [what, f"{mine} {theirs}."]


def explain_seat(
    seat: SeatFacts,
    others: Sequence[SeatFacts],
    *,
    table_number: int | None,
    round_number: int,
    one_vs_one: bool,
    seed: int | None,
    edited: bool = False,
    seat_order: int | None = None,
) -> list[str]:
    """Sentences explaining ``seat``'s table (or bye) in round ``round_number``."""
    codes = set(seat.reasons)
    lines: list[str] = []
    mine = f"You had {_pts(seat.points)}{_rank(seat.rank)} when round {round_number} was paired."
    changed = bool(codes & CHANGED_BY_STAFF)
    if "top_cut" in codes:
        rivals = ", ".join(f"{o.name} (seed {o.cut_seed})" for o in others)
        lines.append(
            f"Top cut: you are seed {seat.cut_seed}, from your place in the Swiss standings. "
            f"The bracket is fixed by seed: you play {rivals}. Seats go by seed, best seed in seat 1."
        )
        return lines
    if changed:
        lines.extend(_changed_by_staff(seat, others, mine, round_number=round_number, bye=table_number is None))
    elif "bye_assigned" in codes:
        lines.append("The organiser gave you a bye this round; it counts as a win.")
    elif "bye" in codes:
        if "first_round" in codes:
            lines.append(
                "You have the bye: the players did not divide into full tables, and round 1 byes go at "
                "random (seeded) to players who have had none. It counts as a win."
            )
        else:
            lines.append(
                f"{mine} You have the bye: the players did not divide into full tables, and the bye goes to "
                "the lowest-ranked player among those with the fewest byes so far. It counts as a win."
            )
    elif "first_round" in codes and "seeded_by_rating" in codes:
        lines.append(
            "Round 1 is seeded by rating: the field is split by displayed rating and the strongest players "
            "are spread over the tables, so they do not meet in round 1."
        )
    elif "first_round" in codes:
        lines.append("Round 1 is paired at random (seeded), before anyone has points.")
    elif one_vs_one and others:
        opp = others[0]
        theirs = f"{opp.name} had {_pts(opp.points)}{_rank(opp.rank)}"
        if "paired_down" in codes:
            lines.append(
                f"{mine} {theirs}. You were paired down: your point group could not be paired entirely within "
                "itself (an odd number of players, or only with a rematch), and the pairing moves as few "
                "players as possible, by as few points as possible."
            )
        elif "paired_up" in codes:
            lines.append(
                f"{mine} {theirs}. You were paired up: a player from the group above had to be paired down, "
                "and you were the closest opponent they had not met."
            )
        elif "same_points" in codes:
            lines.append(f"{mine} {theirs}: players are paired within their point group, at random.")
    elif others:
        points = ", ".join(_pts(o.points) for o in others)
        if "same_points" in codes:
            lines.append(f"{mine} Everyone at your pod had the same points: pods group players on equal points.")
        else:
            lines.append(
                f"{mine} Your pod-mates had {points}. Pods avoid repeated pod-mates first, then keep points "
                "as close as possible."
            )
    # A player moved by hand took the seat number of the player they swapped with: the seat rule did not choose it.
    if not one_vs_one and others and seat_order == 1 and not codes & {"first_round", "swapped"}:
        lines.append(
            "You are in seat 1 and go first: in each pod, seat 1 goes to a player who has gone first "
            "least often so far."
        )
    if "rematch" in codes and changed:
        lines.append("You have played someone at this table before: staff set this table by hand, not the pairing.")
    elif "rematch" in codes:
        lines.append(
            "You have played someone at this table before: no pairing of the whole field avoided every "
            "rematch, and this one has the fewest."
        )
    if "keep_apart" in codes:
        lines.append(
            "You sit with a player the organiser asked to keep apart from you: no pairing of the whole field "
            "separated you without more rematches."
        )
    if "fixed_table" in codes and table_number is not None:
        lines.append(f"You sit at table {table_number}, the table the organiser fixed for you.")
    if seed is not None and not edited:
        lines.append(f"The pairing can be reproduced from its stored seed, {seed}.")
    return lines
