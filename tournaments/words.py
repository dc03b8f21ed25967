"""Results in words: the one voice in which every page, panel, printout, audit line and live screen says them.

Pure Python, no Django: callers hand in plain facts (numbers, placements keyed by player id, names) and get
text back.  Selectors and views that read the database (:func:`tournaments.selectors.round_label`, the
dashboard's report lines) fetch the facts and let this module word them, so the same result reads the same
everywhere.  A second helper that words a result elsewhere drifts from this one; ``tests/test_one_voice.py``
names any that appears.

Terms
=====

ordinal
    A place in words: ``1st``, ``2nd``, ``3rd``, ``4th`` ... ``11th``, ``12th``, ``13th`` ... ``21st``.
game score
    Games won, lost and drawn from one player's side, joined by an en dash (U+2013): ``2–1``, ``1–1–1``
    (drawn games only when there are some); ``""`` when the table gave no game score.  Machine-readable
    outputs (API fields, CSV columns, form values) carry the numbers themselves, not these words.
placements
    ``{player id: placement}`` of one table, 1 the best; the ids may be JSON's strings.  A shared
    placement at a two-player table is a draw; an *intentional draw* is agreed, not played.
outcome
    A table's result in the third person (:func:`outcome`: "Ash won 2–1 against Misty", "1st Ash, 2nd
    Misty, ...") or from one player's side (:func:`your_outcome`: "You won 2–1", "2nd of 4").
stage
    A top-cut round, named by its number of played tables (:func:`stage_name`): 1v1 "Final",
    "Semi-finals", "Quarter-finals", "Top 16" ...; pods "Final pod", "Semi-final pods".  A Swiss round is
    named by its number (:func:`round_name`).
out label
    Where a top-cut player finished, by the round they went out in (:func:`out_label`,
    :func:`pod_out_label`, :func:`final_label`): "Champion", "Finalist", "Semi-finalist", "Top 16",
    "Semi-finalist, 2nd at their pod".
run of rounds
    Round numbers in a phrase (:func:`rounds_words`): "Round 2", "Rounds 2 and 3", "Rounds 2, 3 and 4".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "Answer",
    "final_label",
    "game_score",
    "kept_as_paired",
    "ordinal",
    "out_label",
    "outcome",
    "pod_out_label",
    "report_lines",
    "round_name",
    "rounds_words",
    "score_of",
    "stage_name",
    "were_paired",
    "your_outcome",
]

#: Games, as a table stores them: ``{player id: (won, lost, drawn)}`` (ids as ints or JSON's strings).
Games = Mapping[int, Sequence[int]] | Mapping[str, Sequence[int]]
#: Placements, as a table stores them: ``{player id: placement}`` (ids as ints or JSON's strings).
Placements = Mapping[int, int] | Mapping[str, int]

_DASH = "\N{EN DASH}"


# --- places and scores ----------------------------------------------------------------------------------------


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ... ``11th``, ``12th``, ``13th`` ... ``21st``, ``112th``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def game_score(won: int, lost: int, drawn: int = 0) -> str:
    """``2–1``, or ``1–1–1`` with drawn games (won, lost, drawn from one player's side)."""
    return f"{won}{_DASH}{lost}" + (f"{_DASH}{drawn}" if drawn else "")


def score_of(games: Games | None, player_id: int) -> str:
    """One player's game score at a table (``""`` when the table has none; ``0–0`` for a player it leaves out)."""
    if not games:
        return ""
    by_id = {int(pid): score for pid, score in games.items()}
    won, lost, drawn = by_id.get(player_id, (0, 0, 0))
    return game_score(won, lost, drawn)


# --- outcomes -------------------------------------------------------------------------------------------------


def outcome(placements: Placements, games: Games | None, intentional_draw: bool, names: Mapping[int, str]) -> str:
    """A table's result in the third person.

    ``"Ash won 2–1 against Misty"`` (the score only when given), ``"draw 1–1–1: Ash – Misty"``,
    ``"intentional draw: Ash – Misty"``, a pod ``"1st Ash, 2nd Misty, 2nd Brock"``.  Players level are named
    by player id; a player missing from ``names`` is ``player #<id>``.
    """
    places = sorted(((int(pid), place) for pid, place in placements.items()), key=lambda p: (p[1], p[0]))

    def name(pid: int) -> str:
        return names.get(pid, f"player #{pid}")

    if intentional_draw:
        return "intentional draw: " + f" {_DASH} ".join(name(pid) for pid, _ in places)
    if len(places) == 2:
        (first, a), (second, b) = places
        score = score_of(games, first)
        if a == b:
            return f"draw{' ' + score if score else ''}: {name(first)} {_DASH} {name(second)}"
        return f"{name(first)} won{' ' + score if score else ''} against {name(second)}"
    return ", ".join(f"{ordinal(place)} {name(pid)}" for pid, place in places)


def your_outcome(
    *, me: int, placements: Mapping[int, int], games: Mapping[int, Sequence[int]] | Sequence[int] | None,
    intentional_draw: bool,
) -> str:  # fmt: skip
    """A table's result from player ``me``'s side, as their page says it.

    ``"You won 2–1"``, ``"You lost 0–2"``, ``"Draw 1–1–1"`` (the score only when given),
    ``"Intentional draw"``, a pod ``"2nd of 4"`` or ``"Shared 2nd of 4"``; ``""`` when ``me`` has no
    placement.  ``games``: the table's (by player id) or the player's own ``(won, lost, drawn)``.
    """
    if me not in placements:
        return ""
    mine = games.get(me) if isinstance(games, Mapping) else games
    if intentional_draw:
        return "Intentional draw"
    if len(placements) == 2:
        theirs = next(place for pid, place in placements.items() if pid != me)
        verdict = "You won" if placements[me] < theirs else "You lost" if placements[me] > theirs else "Draw"
        return f"{verdict} {game_score(*mine) if mine else ''}".strip()
    place = placements[me]
    shared = sum(1 for p in placements.values() if p == place) > 1
    return f"{'Shared ' if shared else ''}{ordinal(place)} of {len(placements)}"


@dataclass(frozen=True, slots=True)
class Answer:
    """A player's answer to another's report: who, whether they agree, and what they say instead (an outcome
    in words, ``""`` when they only said it is wrong)."""

    name: str
    agrees: bool
    says: str = ""


def report_lines(*, reporter: str, reported: str, answers: Sequence[Answer], waiting: Sequence[str]) -> list[str]:
    """What the players at a table said about its result, in order: the report, each answer, who has yet to.

    ``["Ash reported: Ash won 2–1 against Misty.", "Misty disputes it: Misty won against Ash.",
    "Waiting for Brock to confirm."]``; ``reported``: the report's :func:`outcome`.
    """
    lines = [f"{reporter} reported: {reported}."]
    for answer in answers:
        if answer.agrees:
            lines.append(f"{answer.name} confirmed it.")
        elif answer.says:
            lines.append(f"{answer.name} disputes it: {answer.says}.")
        else:
            lines.append(f"{answer.name} disputes it.")
    if waiting:
        lines.append(f"Waiting for {', '.join(waiting)} to confirm.")
    return lines


# --- rounds and the top cut -----------------------------------------------------------------------------------


def stage_name(tables: int, *, pods: bool) -> str:
    """A top-cut round by its number of played tables: "Final", "Semi-finals", "Quarter-finals", "Top 16" ...;
    a pod cut's "Final pod" or "Semi-final pods"."""
    if pods:
        return "Final pod" if tables == 1 else "Semi-final pods"
    return {1: "Final", 2: "Semi-finals", 4: "Quarter-finals"}.get(tables, f"Top {tables * 2}")


def round_name(number: int, *, cut: bool = False, tables: int = 0, pods: bool = False) -> str:
    """A round as the pages name it: "Round 3", or a top-cut round's stage (:func:`stage_name`, from its
    number of played ``tables``)."""
    return stage_name(tables, pods=pods) if cut else f"Round {number}"


def out_label(tables: int) -> str:
    """A 1v1 cut player who went out in the round of ``tables`` tables: "Finalist", "Semi-finalist",
    "Quarter-finalist", "Top 16" ..."""
    return {1: "Finalist", 2: "Semi-finalist", 4: "Quarter-finalist"}.get(tables, f"Top {tables * 2}")


def pod_out_label(at_pod: int) -> str:
    """A semi-final pod's player who did not win it, by their place there: "Semi-finalist, 2nd at their pod"."""
    return f"Semi-finalist, {ordinal(at_pod)} at their pod"


def final_label(place: int, *, pods: bool) -> str:
    """A player of the final by their place there: "Champion"; then "Finalist" (1v1) or "2nd", "3rd" ... (pod)."""
    if place == 1:
        return "Champion"
    return ordinal(place) if pods else "Finalist"


def rounds_words(numbers: Sequence[int], *, capital: bool = True) -> str:
    """A run of rounds: "Round 2", "Rounds 2 and 3", "Rounds 2, 3 and 4" (in order, each once; "" for none).
    ``capital=False`` in the middle of a sentence: "rounds 2 and 3"."""
    ordered = sorted(set(numbers))
    if not ordered:
        return ""
    word = "Round" if capital else "round"
    if len(ordered) == 1:
        return f"{word} {ordered[0]}"
    return f"{word}s {', '.join(map(str, ordered[:-1]))} and {ordered[-1]}"


def were_paired(numbers: Sequence[int], *, when: str) -> str:
    """ "Rounds 2 and 3 were paired after this round" ("" for no rounds)."""
    if not numbers:
        return ""
    verb = "was" if len(set(numbers)) == 1 else "were"
    return f"{rounds_words(numbers)} {verb} paired {when}"


def kept_as_paired(numbers: Sequence[int], *, when: str = "before the correction") -> str:
    """ "Rounds 2 and 3 were paired before the correction and stay as paired." ("" for no rounds)."""
    if not numbers:
        return ""
    keep = "stays" if len(set(numbers)) == 1 else "stay"
    return f"{were_paired(numbers, when=when)} and {keep} as paired."
