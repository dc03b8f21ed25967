"""What the dashboard's pages share: who may do what, the status of a form with errors, results in words.

Pages load what their URL names and ask the policy through the one doorway (:mod:`core.doorway`, the doors in
:mod:`tournaments.doors`); the templates' ``may`` flags come from :func:`tournaments.policy.may`.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.http import HttpRequest

from tournaments.models import ResultReport
from tournaments.selectors import people as people_selectors


def _invalid(request: HttpRequest) -> int:
    """The status of an answer whose form has errors: 422 for htmx (it swaps it in), 400 for a whole page."""
    return 422 if request.htmx else 400


# --- results in words -----------------------------------------------------------------------------


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _score(games: Mapping | None, player_id: int) -> str:
    """A player's game score, "2-1" or "1-1-1" (won, lost, drawn), or "" when none was given."""
    if not games:
        return ""
    won, lost, drawn = games.get(str(player_id), games.get(player_id, (0, 0, 0)))
    return f"{won}-{lost}" + (f"-{drawn}" if drawn else "")


def outcome_words(placements: Mapping, games: Mapping | None, intentional_draw: bool, names: Mapping[int, str]) -> str:
    """A result in words: "Ash won 2-1 against Misty", "draw 1-1-1: Ash – Misty", "1st Ash, 2nd Misty, ..."."""
    places = sorted(((int(pid), place) for pid, place in placements.items()), key=lambda p: (p[1], p[0]))

    def name(pid: int) -> str:
        return names.get(pid, f"player #{pid}")

    if intentional_draw:
        return "intentional draw: " + " – ".join(name(pid) for pid, _ in places)
    if len(places) == 2:
        (first, a), (second, b) = places
        score = _score(games, first)
        if a == b:
            return f"draw{' ' + score if score else ''}: {name(first)} – {name(second)}"
        return f"{name(first)} won{' ' + score if score else ''} against {name(second)}"
    return ", ".join(f"{_ordinal(place)} {name(pid)}" for pid, place in places)


def _said(report: ResultReport, names: Mapping[int, str]) -> list[str]:
    """What each player at a table with an open report said, in order, and who has yet to answer."""
    lines = [
        f"{names.get(report.player_id, report.player.display_name)} reported: "
        + outcome_words(report.placements, report.games, report.intentional_draw, names)
        + "."
    ]
    answered = {report.player_id}
    for response in people_selectors.report_responses(report=report):
        answered.add(response.player_id)
        who = names.get(response.player_id, response.player.display_name)
        if response.agrees:
            lines.append(f"{who} confirmed it.")
        elif response.placements:
            lines.append(f"{who} disputes it: {outcome_words(response.placements, response.games, False, names)}.")
        else:
            lines.append(f"{who} disputes it.")
    waiting = [name for pid, name in names.items() if pid not in answered]
    if waiting and report.status == ResultReport.Status.PENDING:
        lines.append(f"Waiting for {', '.join(waiting)} to confirm.")
    return lines


def _rounds_words(numbers: list[int]) -> str:
    """ "Round 2", "Rounds 2 and 3", "Rounds 2, 3 and 4"."""
    if len(numbers) == 1:
        return f"Round {numbers[0]}"
    return f"Rounds {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"


def _kept_as_paired(numbers: list[int], *, when: str = "before the correction") -> str:
    """ "Rounds 2 and 3 were paired before the correction and stay as paired." ("" for no rounds)."""
    if not numbers:
        return ""
    verb, keep = ("was", "stays") if len(numbers) == 1 else ("were", "stay")
    return f"{_rounds_words(numbers)} {verb} paired {when} and {keep} as paired."
