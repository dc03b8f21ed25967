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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "Answer",
    "final_label",
    "game_score",
    "kept_as_paired",
    "ordinal",
    "out_label",
    "outcome",
    "phase_rule",
    "pod_out_label",
    "report_lines",
    "round_name",
    "rounds_words",
    "score_of",
    "speak_with",
    "stage_name",
    "were_paired",
    "your_outcome",
]

#: Games, as a table stores them: ``{player id: (won, lost, drawn)}`` (ids as ints or JSON's strings).
Games = Mapping[int, Sequence[int]] | Mapping[str, Sequence[int]]
#: Placements, as a table stores them: ``{player id: placement}`` (ids as ints or JSON's strings).
Placements = Mapping[int, int] | Mapping[str, int]

_DASH = "\N{EN DASH}"


# --- the language -----------------------------------------------------------------------------------------------
# No Django here: the app hands in its translation functions when it starts (``tournaments.apps``, Django's
# gettext, pgettext and ngettext, which follow the request's language).  Until then, and for pure callers (the
# engines' tests, the benchmarks), the words are the English msgids themselves.  The functions below carry
# xgettext's keyword names, so ``makemessages`` extracts every sentence of this module (and of
# ``tournaments.explain``, which speaks through them too).


def _english(message: str) -> str:
    return message


def _english_in(context: str, message: str) -> str:
    return message


def _english_counted(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


_gettext: Callable[[str], str] = _english
_pgettext: Callable[[str, str], str] = _english_in
_ngettext: Callable[[str, str, int], str] = _english_counted


def speak_with(
    *, gettext: Callable[[str], str], pgettext: Callable[[str, str], str], ngettext: Callable[[str, str, int], str]
) -> None:
    """Word everything in the language these functions translate to (the app's, at start-up)."""
    global _gettext, _pgettext, _ngettext
    _gettext, _pgettext, _ngettext = gettext, pgettext, ngettext


def gettext(message: str) -> str:
    return _gettext(message)


def pgettext(context: str, message: str) -> str:
    return _pgettext(context, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _ngettext(singular, plural, n)


_ = gettext


# --- places and scores ----------------------------------------------------------------------------------------


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ... ``11th``, ``12th``, ``13th`` ... ``21st``, ``112th``.

    Each language says its ordinals by its own rule: one pattern per kind of number (the number 1 itself, one
    ending in 1, 2 or 3 but not 11, 12 or 13, and the rest), which a language fills as it says them ("1er", "21e"
    in French; "%(n)s." for every kind in German)."""
    if n == 1:
        word = pgettext("ordinal of the number 1", "%(n)sst")
    elif 10 <= n % 100 <= 20:
        word = pgettext("ordinal of a number ending in 0 or 4 to 9, or in 11, 12 or 13", "%(n)sth")
    elif n % 10 == 1:
        word = pgettext("ordinal of a number ending in 1 (not 11): 21, 31, 101", "%(n)sst")
    elif n % 10 == 2:
        word = pgettext("ordinal of a number ending in 2 (not 12): 2, 22, 102", "%(n)snd")
    elif n % 10 == 3:
        word = pgettext("ordinal of a number ending in 3 (not 13): 3, 23, 103", "%(n)srd")
    else:
        word = pgettext("ordinal of a number ending in 0 or 4 to 9, or in 11, 12 or 13", "%(n)sth")
    return word % {"n": n}


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
        return names.get(pid, _("player #%(id)s") % {"id": pid})

    if intentional_draw:
        return _("intentional draw: %(players)s") % {"players": f" {_DASH} ".join(name(pid) for pid, _place in places)}
    if len(places) == 2:
        (first, a), (second, b) = places
        score = score_of(games, first)
        if a == b:
            both = {"players": f"{name(first)} {_DASH} {name(second)}", "score": score}
            return _("draw %(score)s: %(players)s") % both if score else _("draw: %(players)s") % both
        said = {"winner": name(first), "loser": name(second), "score": score}
        return (
            _("%(winner)s won %(score)s against %(loser)s") % said
            if score
            else _("%(winner)s won against %(loser)s") % said
        )
    return ", ".join(
        pgettext("a place at a pod and its player: 1st Ash", "%(place)s %(player)s")
        % {"place": ordinal(place), "player": name(pid)}
        for pid, place in places
    )


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
        return _("Intentional draw")
    if len(placements) == 2:
        theirs = next(place for pid, place in placements.items() if pid != me)
        score = {"score": game_score(*mine) if mine else ""}
        if placements[me] < theirs:
            return _("You won %(score)s") % score if mine else _("You won")
        if placements[me] > theirs:
            return _("You lost %(score)s") % score if mine else _("You lost")
        return _("Draw %(score)s") % score if mine else _("Draw")
    place = placements[me]
    shared = sum(1 for p in placements.values() if p == place) > 1
    at = {"place": ordinal(place), "players": len(placements)}
    return _("Shared %(place)s of %(players)s") % at if shared else _("%(place)s of %(players)s") % at


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
    lines = [_("%(player)s reported: %(result)s.") % {"player": reporter, "result": reported}]
    for answer in answers:
        if answer.agrees:
            lines.append(_("%(player)s confirmed it.") % {"player": answer.name})
        elif answer.says:
            lines.append(_("%(player)s disputes it: %(result)s.") % {"player": answer.name, "result": answer.says})
        else:
            lines.append(_("%(player)s disputes it.") % {"player": answer.name})
    if waiting:
        lines.append(_("Waiting for %(players)s to confirm.") % {"players": ", ".join(waiting)})
    return lines


# --- rounds and the top cut -----------------------------------------------------------------------------------


def stage_name(tables: int, *, pods: bool) -> str:
    """A top-cut round by its number of played tables: "Final", "Semi-finals", "Quarter-finals", "Top 16" ...;
    a pod cut's "Final pod" or "Semi-final pods"."""
    if pods:
        return pgettext("top-cut stage", "Final pod") if tables == 1 else pgettext("top-cut stage", "Semi-final pods")
    if tables == 1:
        return pgettext("top-cut stage", "Final")
    if tables == 2:
        return pgettext("top-cut stage", "Semi-finals")
    if tables == 4:
        return pgettext("top-cut stage", "Quarter-finals")
    return pgettext("top-cut stage", "Top %(players)s") % {"players": tables * 2}


def round_name(number: int, *, cut: bool = False, tables: int = 0, pods: bool = False) -> str:
    """A round as the pages name it: "Round 3", or a top-cut round's stage (:func:`stage_name`, from its
    number of played ``tables``)."""
    return stage_name(tables, pods=pods) if cut else _("Round %(round)s") % {"round": number}


def out_label(tables: int) -> str:
    """A 1v1 cut player who went out in the round of ``tables`` tables: "Finalist", "Semi-finalist",
    "Quarter-finalist", "Top 16" ..."""
    if tables == 1:
        return pgettext("where a player went out of the top cut", "Finalist")
    if tables == 2:
        return pgettext("where a player went out of the top cut", "Semi-finalist")
    if tables == 4:
        return pgettext("where a player went out of the top cut", "Quarter-finalist")
    return pgettext("where a player went out of the top cut", "Top %(players)s") % {"players": tables * 2}


def pod_out_label(at_pod: int) -> str:
    """A semi-final pod's player who did not win it, by their place there: "Semi-finalist, 2nd at their pod"."""
    return _("Semi-finalist, %(place)s at their pod") % {"place": ordinal(at_pod)}


def phase_rule(*, advance_points: int | None, advance_top: int | None) -> str:
    """How a phase's players go on, in words: "19 match points or more", "the top 64" (the engine's
    ``PhasePlan.rule_text`` says it in English, for records)."""
    if advance_points is not None:
        return ngettext(
            "%(points)s match point or more", "%(points)s match points or more", advance_points
        ) % {"points": advance_points}
    if advance_top is not None:
        return _("the top %(top)s") % {"top": advance_top}
    return _("no further phase")


def final_label(place: int, *, pods: bool) -> str:
    """A player of the final by their place there: "Champion"; then "Finalist" (1v1) or "2nd", "3rd" ... (pod)."""
    if place == 1:
        return pgettext("where a player finished the top cut", "Champion")
    return ordinal(place) if pods else pgettext("where a player went out of the top cut", "Finalist")


def rounds_words(numbers: Sequence[int], *, capital: bool = True) -> str:
    """A run of rounds: "Round 2", "Rounds 2 and 3", "Rounds 2, 3 and 4" (in order, each once; "" for none).
    ``capital=False`` in the middle of a sentence: "rounds 2 and 3"."""
    ordered = sorted(set(numbers))
    if not ordered:
        return ""
    if len(ordered) == 1:
        one = _("Round %(round)s") if capital else _("round %(round)s")
        return one % {"round": ordered[0]}
    run = {"rounds": ", ".join(map(str, ordered[:-1])), "last": ordered[-1]}
    return (_("Rounds %(rounds)s and %(last)s") if capital else _("rounds %(rounds)s and %(last)s")) % run


#: When later rounds were paired, as :func:`were_paired` and :func:`kept_as_paired` say it.
AFTER_THIS_ROUND = "after this round"
BEFORE_THE_CORRECTION = "before the correction"


def were_paired(numbers: Sequence[int], *, when: str) -> str:
    """ "Rounds 2 and 3 were paired after this round" ("" for no rounds); ``when``: :data:`AFTER_THIS_ROUND` or
    :data:`BEFORE_THE_CORRECTION` (each a whole sentence to translate), or other English words."""
    if not numbers:
        return ""
    count, said = len(set(numbers)), {"rounds": rounds_words(numbers), "when": when}
    if when == AFTER_THIS_ROUND:
        return (
            ngettext("%(rounds)s was paired after this round", "%(rounds)s were paired after this round", count) % said
        )
    if when == BEFORE_THE_CORRECTION:
        return (
            ngettext(
                "%(rounds)s was paired before the correction", "%(rounds)s were paired before the correction", count
            )
            % said
        )
    return ngettext("%(rounds)s was paired %(when)s", "%(rounds)s were paired %(when)s", count) % said


def kept_as_paired(numbers: Sequence[int], *, when: str = BEFORE_THE_CORRECTION) -> str:
    """ "Rounds 2 and 3 were paired before the correction and stay as paired." ("" for no rounds)."""
    if not numbers:
        return ""
    count, said = len(set(numbers)), {"rounds": rounds_words(numbers), "when": when}
    if when == AFTER_THIS_ROUND:
        return (
            ngettext(
                "%(rounds)s was paired after this round and stays as paired.",
                "%(rounds)s were paired after this round and stay as paired.",
                count,
            )
            % said
        )
    if when == BEFORE_THE_CORRECTION:
        return (
            ngettext(
                "%(rounds)s was paired before the correction and stays as paired.",
                "%(rounds)s were paired before the correction and stay as paired.",
                count,
            )
            % said
        )
    return (
        ngettext(
            "%(rounds)s was paired %(when)s and stays as paired.",
            "%(rounds)s were paired %(when)s and stay as paired.",
            count,
        )
        % said
    )
