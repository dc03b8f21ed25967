"""A table's result on the dashboard: entered by staff, a player's report accepted, a recorded result corrected."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.doorway import enter
from core.exceptions import ApplicationError
from core.htmx import HtmxHttpRequest
from tournaments import doors, policy, selectors, services, words
from tournaments.forms import CorrectionForm, ResultForm, shown_name
from tournaments.models import Event, Pod, PodResult, Round
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors
from tournaments.services import results as result_services
from tournaments.views._common import _invalid
from tournaments.views._tables import _result_form, _standings_card, _table


@login_required
@require_POST
def result_report(request: HtmxHttpRequest, event_id: int, number: int, table: int) -> HttpResponse:
    """A table's result entered by staff (final at once): organisers and scorekeepers, judges settling a report."""
    event = enter(request, doors.event(Action.ENTER_RESULTS, Action.SETTLE_DISPUTES), event_id)
    may = policy.may(request.user, event)
    pod = enter(request, doors.TABLE, event, number, table)
    seats = selectors.pod_seats(pod=pod)
    namesakes = people_selectors.event_namesakes(event=event)
    cut = pod.round.stage == Round.Stage.TOP_CUT
    form = _result_form(pod, seats, cut=cut, namesakes=namesakes, data=request.POST)
    error = None
    if form.is_valid():
        try:
            services.pod_result_report(
                event=event,
                round_number=number,
                table_number=table,
                placements=form.placements(),
                games=form.games(),
                intentional_draw=form.intentional_draw(),
                by=request.user,
                source=PodResult.Source.DASHBOARD,
            )
        except ApplicationError as exc:
            error = exc.message
    else:
        error = form.error_text()
    if request.htmx:
        return _result_fragment(request, event, pod, form=form, error=error, may=may, namesakes=namesakes)
    if error:
        messages.error(request, _("Table %(table)s: %(error)s") % {"table": table, "error": error})
    else:
        messages.success(request, _("Recorded the result of table %(table)s.") % {"table": table})
    return redirect("dashboard:event-detail", event_id=event.pk)


@login_required
@require_POST
def result_report_accept(request: HtmxHttpRequest, event_id: int, number: int, table: int) -> HttpResponse:
    """Staff accept a table's waiting player report as it stands (nobody else can confirm it: a walk-in)."""
    event = enter(request, doors.event(Action.SETTLE_DISPUTES), event_id)
    may = policy.may(request.user, event)
    pod = enter(request, doors.TABLE, event, number, table)
    error = None
    try:
        result_services.result_report_accept(event=event, round_number=number, table_number=table, by=request.user)
    except ApplicationError as exc:
        error = exc.message
    if request.htmx:
        namesakes = people_selectors.event_namesakes(event=event)
        return _result_fragment(request, event, pod, form=None, error=error, may=may, namesakes=namesakes)
    if error:
        messages.error(request, _("Table %(table)s: %(error)s") % {"table": table, "error": error})
    else:
        messages.success(
            request, _("Accepted the report of table %(table)s: it is the table's result.") % {"table": table}
        )
    return redirect("dashboard:event-detail", event_id=event.pk)


def _result_fragment(
    request: HttpRequest,
    event: Event,
    pod: Pod,
    *,
    form: ResultForm | None,
    error: str | None,
    may: Mapping[str, bool],
    namesakes: Collection[int],
) -> HttpResponse:
    """The table's card for htmx; after a result, also the round's count, its flags and the standings (out of band)."""
    pod = selectors.pod_detail(pod_id=pod.pk)
    report = people_selectors.open_reports(round_=pod.round).get(pod.pk)
    card = _table(
        pod,
        selectors.pod_seats(pod=pod),
        may=may,
        report=report,
        namesakes=namesakes,
        open_for_results=True,
        form=form if error else None,
    )
    context = {"event": event, "round": pod.round, "t": card, "error": error, "focus": True, "may": may}
    if error:
        return render(request, "dashboard/_table_card.html", context, status=422)
    event = selectors.event_refreshed(event=event, fields=["results_version", "standings_version", "status"])
    context.update(
        missing=selectors.round_tables_to_report(round_=pod.round),
        flagged=people_selectors.flagged_tables(round_=pod.round),
        **_standings_card(event),
        namesakes=namesakes,
        announcement=_("Recorded the result of table %(table)s.") % {"table": pod.table_number},
    )
    return render(request, "dashboard/_result.html", context)


def _round_url(event: Event, number: int) -> str:
    return reverse("dashboard:round-detail", args=[event.pk, number])


@login_required
def result_correct(request: HtmxHttpRequest, event_id: int, number: int, table: int) -> HttpResponse:
    """Correct a recorded result of any round, with a reason; rounds paired since stay as paired."""
    event = enter(request, doors.event(Action.CORRECT_RESULTS), event_id)
    pod = enter(request, doors.TABLE, event, number, table)
    seats = selectors.pod_seats(pod=pod)
    label = _("%(round)s, table %(table)s") % {"round": selectors.round_label(round_=pod.round), "table": table}
    back = _round_url(event, number) + f"#table-{pod.pk}"
    result = selectors.pod_result(pod=pod)
    if result is None or pod.is_bye:
        messages.error(request, _("%(table)s has no result to correct: enter it on the dashboard.") % {"table": label})
        return redirect(back)
    namesakes = people_selectors.event_namesakes(event=event)
    form = CorrectionForm(
        request.POST or None,
        seats=seats,
        cut=pod.round.stage == Round.Stage.TOP_CUT,
        namesakes=namesakes,
        intentional_draw=result.intentional_draw,
    )
    if request.method == "POST" and form.is_valid():
        try:
            correction = result_services.result_correct(
                event=event,
                round_number=number,
                table_number=table,
                placements=form.placements(),
                games=form.games(),
                intentional_draw=form.intentional_draw(),
                reason=form.cleaned_data["reason"],
                by=request.user,
            )
        except ApplicationError as exc:
            form.add_error(_correction_field(form, exc.field), exc.message)
        else:
            messages.success(
                request,
                " ".join(
                    filter(
                        None,
                        [
                            _("Corrected %(table)s.") % {"table": label},
                            words.kept_as_paired(correction.later_rounds),
                            _("The standings are being recomputed."),
                        ],
                    )
                ),
            )
            return redirect(back)
    names = {s.player_id: shown_name(s.player, namesakes) for s in seats}
    recorded = words.outcome(
        {s.player_id: s.placement for s in seats if s.placement is not None},  # a recorded result places every seat
        {s.player_id: s.games_record for s in seats if s.games_record is not None} or None,
        result.intentional_draw,
        names,
    )
    later = selectors.event_round_numbers(event=event, after=number)
    may = policy.may(request.user, event)
    context = {
        "event": event,
        "pod": pod,
        "round": pod.round,
        "label": label,
        "form": form,
        "result": result,
        "recorded": recorded,
        "later": later,
        "kept_as_paired": words.kept_as_paired(later, when=words.AFTER_THIS_ROUND),
        "back": back,
        "may": may,
        "may_correct": may["correct"],
    }
    return render(request, "dashboard/result_correct.html", context, status=_invalid(request) if form.errors else 200)


def _correction_field(form: ResultForm, field: str | None) -> str | None:
    """Where a refused correction's error shows: the reason, the outcome, the game score, or above the form."""
    if field == "reason":
        return "reason"
    if form.one_vs_one and field in ("placements", "intentional_draw"):
        return "outcome"
    if form.one_vs_one and field == "games":
        return "games_drawn"
    return None
