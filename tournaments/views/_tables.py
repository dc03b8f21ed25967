"""The table cards of a round, as the dashboard, a round's page and the public pages show them, and the
dashboard's standings card."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from django.http import QueryDict

from tournaments import selectors, words
from tournaments.forms import ResultForm, shown_name
from tournaments.models import Event, Pod, ResultReport, Round, Seat
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors
from tournaments.views._common import _said

#: The dashboard's standings card shows the first players.
STANDINGS_CARD = 8


def _result_form(
    pod: Pod, seats: list[Seat], *, cut: bool, namesakes: Collection[int] = (), data: QueryDict | None = None
) -> ResultForm:
    # Every table's form is on one page: prefix the ids so each label points at its own field.
    return ResultForm(data, seats=seats, cut=cut, namesakes=namesakes, auto_id=f"table{pod.pk}_%s")


def _table(
    pod: Pod,
    seats: list[Seat],
    *,
    may: Mapping[str, bool] | None,
    report: ResultReport | None = None,
    namesakes: Collection[int] = (),
    open_for_results: bool = False,
    form: ResultForm | None = None,
) -> dict[str, Any]:
    """One table card's context: its seats, its result or the form to enter it, and its open player report."""
    reported = hasattr(pod, "result")
    cut = pod.round.stage == Round.Stage.TOP_CUT
    names = {s.player_id: shown_name(s.player, namesakes) for s in seats}
    may_enter = bool(
        may
        and open_for_results
        and not pod.is_bye
        and not reported
        and (may[Action.ENTER_RESULTS] or (may[Action.SETTLE_DISPUTES] and report is not None))
    )
    if may_enter and form is None:
        form = _result_form(pod, seats, cut=cut, namesakes=namesakes)
    return {
        "pod": pod,
        "seats": seats,
        #: Each seat with its game score in words ("2–1"; "" without one).
        "scored_seats": [(s, "" if s.games_record is None else words.game_score(*s.games_record)) for s in seats],
        "names": names,
        "form": form if may_enter else None,
        "reported": reported,
        "result": pod.result if reported else None,
        "report": report,
        "said": _said(report, names) if report is not None else [],
        "correctable": bool(may and may["correct"] and reported and not pod.is_bye),
    }


def _round_context(
    event: Event,
    round_: Round | None,
    *,
    manage: bool,
    may: Mapping[str, bool] | None = None,
    namesakes: Collection[int] = (),
    latest: bool = True,
) -> dict:
    pods = selectors.round_pods(round_=round_) if round_ else []
    reports = people_selectors.open_reports(round_=round_) if manage and round_ else {}
    open_for_results = manage and latest and event.status != Event.Status.FINISHED
    tables = [
        _table(
            pod,
            selectors.pod_seats(pod=pod),
            may=may if manage else None,
            report=reports.get(pod.pk),
            namesakes=namesakes,
            open_for_results=open_for_results,
        )
        for pod in pods
    ]
    missing = sum(1 for t in tables if not t["reported"])
    label = selectors.round_label(round_=round_, tables=sum(1 for p in pods if not p.is_bye)) if round_ else ""
    flagged = [
        people_selectors.FlaggedTable(t["pod"].pk, t["pod"].table_number, t["report"].status)
        for t in tables
        if t["report"] is not None
    ]
    return {
        "event": event,
        "round": round_,
        "round_label": label,
        "tables": tables,
        "missing": missing,
        "flagged": flagged,
    }


def _standings_card(event: Event) -> dict:
    """The dashboard's standings card: the top of the standings and whether they are current."""
    standings = selectors.standings_read(event=event, limit=STANDINGS_CARD)
    return {"standings": standings.rows, "standings_current": standings.current}
