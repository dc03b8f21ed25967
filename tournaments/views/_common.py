"""What the dashboard's pages share: who may do what, the status of a form with errors, what players reported.

The guards turn a policy refusal into the 403 page: :func:`_managed_event` finds the event and checks the action
(by default opening its dashboard), :func:`_ensure` checks another action, :func:`_may` gives the templates one flag
per :class:`~tournaments.policy.Action`.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from core.exceptions import PermissionDenied as ServicePermissionDenied
from tournaments import policy, selectors, words
from tournaments.models import Event, ResultReport
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors

# --- who may do what ------------------------------------------------------------------------------


def _ensure(request: HttpRequest, action: Action, event: Event) -> None:
    try:
        policy.ensure(request.user, action, event)
    except ServicePermissionDenied as exc:
        raise DjangoPermissionDenied(exc.message) from None


def _managed_event(request: HttpRequest, event_id: int, action: Action = Action.USE_DASHBOARD) -> Event:
    """The event, if the user may take ``action`` there (by default: open its dashboard); the 403 page otherwise."""
    event = get_object_or_404(selectors.events_with_organiser(), pk=event_id)
    _ensure(request, action, event)
    return event


def _may(user, event: Event) -> dict[str, bool]:
    """What the user may do at the event, for the templates: one flag per policy action (``may.pair_rounds``).

    ``correct``: correct results now (after the finish, correcting is the organiser's alone).
    """
    may = {action.value: policy.can(user, action, event) for action in Action}
    may["correct"] = may[Action.CORRECT_RESULTS] and (
        event.status != Event.Status.FINISHED or may[Action.CORRECT_FINISHED]
    )
    return may


def _invalid(request: HttpRequest) -> int:
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
