"""What the dashboard's pages share: who may do what, the status of a form with errors, what players reported.

Pages load what their URL names and ask the policy through the one doorway (:mod:`core.doorway`, the doors in
:mod:`tournaments.doors`); the templates' ``may`` flags come from :func:`tournaments.policy.may`.
"""

from __future__ import annotations

from collections.abc import Mapping

from core.htmx import HtmxHttpRequest
from tournaments import words
from tournaments.models import ResultReport
from tournaments.selectors import people as people_selectors


def _invalid(request: HtmxHttpRequest) -> int:
    """The status of an answer whose form has errors: 422 for htmx (it swaps it in), 400 for a whole page."""
    return 422 if request.htmx else 400


# --- what players reported (worded by tournaments.words) ------------------------------------------


def _said(report: ResultReport, names: Mapping[int, str]) -> list[str]:
    """What each player at a table with an open report said, in order, and who has yet to answer."""
    answers, answered = [], {report.player_id}
    for response in people_selectors.report_responses(report=report):
        answered.add(response.player_id)
        says = words.outcome(response.placements, response.games, False, names) if response.placements else ""
        who = names.get(response.player_id, response.player.display_name)
        answers.append(words.Answer(who, response.agrees, says))
    waiting = [name for pid, name in names.items() if pid not in answered]
    return words.report_lines(
        reporter=names.get(report.player_id, report.player.display_name),
        reported=words.outcome(report.placements, report.games, report.intentional_draw, names),
        answers=answers,
        waiting=waiting if report.status == ResultReport.Status.PENDING else [],
    )
