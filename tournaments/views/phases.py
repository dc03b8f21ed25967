"""The dashboard's phases: the plan (or the Pokémon two-day preset), advancing a phase's players, undoing it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core.doorway import enter
from core.exceptions import ApplicationError
from tournaments import doors, policy, services
from tournaments.forms import PhasesForm
from tournaments.policy import Action
from tournaments.selectors import standings as standings_selectors


@login_required
def event_phases(request: HttpRequest, event_id: int) -> HttpResponse:
    """The plan of phases: a row per phase, or the preset; saving replaces the plan."""
    event = enter(request, doors.event(Action.EDIT_EVENT), event_id)
    form = PhasesForm(request.POST or None, initial_plan=standings_selectors.event_plan(event))
    if request.method == "POST":
        preset = request.POST.get("preset")
        try:
            if preset:
                rows = services.event_phases_set(event=event, by=request.user, preset=preset)
                described = _("; then ").join(
                    ngettext("%(phase)s, %(rounds)s round", "%(phase)s, %(rounds)s rounds", p.rounds)
                    % {"phase": p.name, "rounds": p.rounds}
                    for p in rows
                )
                messages.success(request, _("The plan is set: %(plan)s.") % {"plan": described})
                return redirect("dashboard:event-detail", event_id=event.pk)
            if form.is_valid():
                plan = form.plan()
                if form.is_valid():  # plan() adds the errors of incomplete rows
                    services.event_phases_set(event=event, by=request.user, phases=plan)
                    messages.success(request, _("Phases saved.") if plan else _("Phases removed: one Swiss phase."))
                    return redirect("dashboard:event-detail", event_id=event.pk)
        except ApplicationError as exc:
            form.add_error(None, exc.message)
    context = {
        "event": event,
        "form": form,
        "phases": standings_selectors.event_phases(event=event),
        "may": policy.may(request.user, event),
    }
    return render(request, "dashboard/event_phases.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def phase_advance(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    event = enter(request, doors.event(Action.PAIR_ROUNDS), event_id)
    try:
        going_on = services.phase_advance(event=event, number=number, by=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            ngettext(
                "%(players)s player go on to the next phase.",
                "%(players)s players go on to the next phase.",
                len(going_on),
            )
            % {"players": len(going_on)},
        )
    return redirect("dashboard:event-detail", event_id=event.pk)


@login_required
@require_POST
def phase_advance_undo(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    event = enter(request, doors.event(Action.PAIR_ROUNDS), event_id)
    try:
        services.phase_advance_undo(event=event, number=number, by=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The advance is undone: every player of the phase is in it again."))
    return redirect("dashboard:event-detail", event_id=event.pk)
