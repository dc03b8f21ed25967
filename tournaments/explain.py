"""Why a player sits where they sit: the pairing's reason codes turned into sentences.

Pure Python, no Django (its sentences are translated through :mod:`tournaments.words`'s hooks): the selector
hands in what the round stored for a
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

from tournaments.words import gettext as _
from tournaments.words import ngettext

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
        return _("no recorded points")
    return ngettext("%(points)s point", "%(points)s points", points) % {"points": points}


def _standing(points: int | None, rank: int | None) -> str:
    """``3 points (ranked 2)``, or the points alone without a rank."""
    if not rank:
        return _pts(points)
    return _("%(points)s (ranked %(rank)s)") % {"points": _pts(points), "rank": rank}


def _names(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def _had(name: str, points: int | None, rank: int | None) -> str:
    return _("%(player)s had %(standing)s") % {"player": name, "standing": _standing(points, rank)}


def _changed_by_staff(
    seat: SeatFacts, others: Sequence[SeatFacts], mine: str, *, round_number: int, bye: bool
) -> list[str]:
    """A seat at a table staff changed by hand: what they changed, and the points everyone had."""
    moved_in = [o.name for o in others if "swapped" in o.reasons]
    if bye:
        return [
            _("Staff moved you into the bye by hand after round %(round)s was paired; it counts as a win.")
            % {"round": round_number}
        ]
    said = {"round": round_number, "players": _names(moved_in)}
    if "swapped" in seat.reasons and moved_in:
        what = (
            ngettext(
                "Staff moved you to this table by hand after round %(round)s was paired; %(players)s was moved here too.",
                "Staff moved you to this table by hand after round %(round)s was paired; %(players)s were moved here too.",
                len(moved_in),
            )
            % said
        )
    elif "swapped" in seat.reasons:
        what = _("Staff moved you to this table by hand after round %(round)s was paired.") % said
    elif moved_in:
        what = (
            ngettext(
                "Staff changed your table by hand after round %(round)s was paired: %(players)s was swapped in.",
                "Staff changed your table by hand after round %(round)s was paired: %(players)s were swapped in.",
                len(moved_in),
            )
            % said
        )
    else:
        what = _("Staff changed your table by hand after round %(round)s was paired.") % said
    if not others:
        return [what]
    theirs = "; ".join(_had(o.name, o.points, o.rank) for o in others)
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
    mine = _("You had %(standing)s when round %(round)s was paired.") % {
        "standing": _standing(seat.points, seat.rank),
        "round": round_number,
    }
    changed = bool(codes & CHANGED_BY_STAFF)
    if "top_cut" in codes:
        rivals = ", ".join(_("%(player)s (seed %(seed)s)") % {"player": o.name, "seed": o.cut_seed} for o in others)
        lines.append(
            _(
                "Top cut: you are seed %(seed)s, from your place in the Swiss standings. "
                "The bracket is fixed by seed: you play %(rivals)s. Seats go by seed, best seed in seat 1."
            )
            % {"seed": seat.cut_seed, "rivals": rivals}
        )
        return lines
    if changed:
        lines.extend(_changed_by_staff(seat, others, mine, round_number=round_number, bye=table_number is None))
    elif "bye_assigned" in codes:
        lines.append(_("The organiser gave you a bye this round; it counts as a win."))
    elif "bye" in codes:
        if "first_round" in codes:
            lines.append(
                _(
                    "You have the bye: the players did not divide into full tables, and round 1 byes go at "
                    "random (seeded) to players who have had none. It counts as a win."
                )
            )
        else:
            lines.append(
                mine
                + " "
                + _(
                    "You have the bye: the players did not divide into full tables, and the bye goes to "
                    "the lowest-ranked player among those with the fewest byes so far. It counts as a win."
                )
            )
    elif "first_round" in codes and "seeded_by_rating" in codes:
        lines.append(
            _(
                "Round 1 is seeded by rating: the field is split by displayed rating and the strongest players "
                "are spread over the tables, so they do not meet in round 1."
            )
        )
    elif "first_round" in codes:
        lines.append(_("Round 1 is paired at random (seeded), before anyone has points."))
    elif one_vs_one and others:
        opp = others[0]
        theirs = _had(opp.name, opp.points, opp.rank)
        if "paired_down" in codes:
            lines.append(
                f"{mine} {theirs}. "
                + _(
                    "You were paired down: your point group could not be paired entirely within "
                    "itself (an odd number of players, or only with a rematch), and the pairing moves as few "
                    "players as possible, by as few points as possible."
                )
            )
        elif "paired_up" in codes:
            lines.append(
                f"{mine} {theirs}. "
                + _(
                    "You were paired up: a player from the group above had to be paired down, "
                    "and you were the closest opponent they had not met."
                )
            )
        elif "same_points" in codes:
            lines.append(
                mine
                + " "
                + _("%(opponent)s: players are paired within their point group, at random.") % {"opponent": theirs}
            )
    elif others:
        points = ", ".join(_pts(o.points) for o in others)
        if "same_points" in codes:
            lines.append(
                mine + " " + _("Everyone at your pod had the same points: pods group players on equal points.")
            )
        else:
            lines.append(
                mine
                + " "
                + _(
                    "Your pod-mates had %(points)s. Pods avoid repeated pod-mates first, then keep points "
                    "as close as possible."
                )
                % {"points": points}
            )
    # A player moved by hand took the seat number of the player they swapped with: the seat rule did not choose it.
    if not one_vs_one and others and seat_order == 1 and not codes & {"first_round", "swapped"}:
        lines.append(
            _(
                "You are in seat 1 and go first: in each pod, seat 1 goes to a player who has gone first "
                "least often so far."
            )
        )
    if "rematch" in codes and changed:
        lines.append(_("You have played someone at this table before: staff set this table by hand, not the pairing."))
    elif "rematch" in codes:
        lines.append(
            _(
                "You have played someone at this table before: no pairing of the whole field avoided every "
                "rematch, and this one has the fewest."
            )
        )
    if "keep_apart" in codes:
        lines.append(
            _(
                "You sit with a player the organiser asked to keep apart from you: no pairing of the whole field "
                "separated you without more rematches."
            )
        )
    if "fixed_table" in codes and table_number is not None:
        lines.append(_("You sit at table %(table)s, the table the organiser fixed for you.") % {"table": table_number})
    if seed is not None and not edited:
        lines.append(_("The pairing can be reproduced from its stored seed, %(seed)s.") % {"seed": seed})
    return lines
