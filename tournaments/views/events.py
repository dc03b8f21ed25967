"""The dashboard's event pages: the event list, a new event, the dashboard itself, its standings card, the
settings, the check-in window and finishing the event."""

from __future__ import annotations

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.doorway import admit, enter
from core.exceptions import ApplicationError
from tournaments import doors, policy, selectors, services
from tournaments.forms import EventForm, EventSettingsForm, RegistrationForm, shown_name
from tournaments.models import Event
from tournaments.policy import Action
from tournaments.selectors import cutline as cutline_selectors
from tournaments.selectors import people as people_selectors
from tournaments.selectors import standings as standings_selectors
from tournaments.views._tables import _round_context, _standings_card
from tournaments.views.registrations import _players_context, _structure_context

#: The player's check-in page, which the dashboard's QR code opens.
CHECK_IN_PATH = "/events/{event_id}/check-in/"


@login_required
def event_list(request: HttpRequest) -> HttpResponse:
    events = selectors.event_list(user=request.user, mine=True)
    return render(request, "dashboard/event_list.html", {"events": events})


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    admit(request, policy.creating_refusal(request.user, what="events"))
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = services.event_create(organiser=request.user, **form.cleaned_data)
        except ApplicationError as exc:
            form.add_error(exc.field, exc.message)
        else:
            messages.success(request, _("Created %(event)s.") % {"event": event.name})
            return redirect("dashboard:event-detail", event_id=event.pk)
    return render(request, "dashboard/event_form.html", {"form": form}, status=400 if form.errors else 200)


def _check_in_context(request: HttpRequest, event: Event) -> dict:
    """The check-in page's address, and while check-in is open its QR code (inline SVG) for the players' phones."""
    url = request.build_absolute_uri(CHECK_IN_PATH.format(event_id=event.pk))
    qr = None
    if event.check_in_open:
        svg = segno.make_qr(url, error="m").svg_inline(scale=4, dark="#1d2330", light="#ffffff", svgclass="qr-svg")
        qr = mark_safe(svg)  # segno's own markup: the URL is drawn as modules, never written as text
    return {"check_in_url": url, "check_in_qr": qr}


@login_required
def event_detail(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.event(), event_id)
    may = policy.may(request.user, event)
    latest = selectors.event_latest_round(event=event)
    # Right after a registration without JavaScript, the name field takes the focus again.
    focus = request.session.pop(f"registered_{event.pk}", False)
    players = _players_context(request, event, RegistrationForm(focus=focus), may=may)
    namesakes = players["namesakes"]
    context = _round_context(event, latest, manage=True, may=may, namesakes=namesakes)
    operations = selectors.round_operations(event=event, latest=latest, tables=context["tables"])
    seated = sorted(
        ((s.player_id, shown_name(s.player, namesakes)) for t in context["tables"] for s in t["seats"]),
        key=lambda p: p[1].casefold(),
    )
    context.update(players)
    context.update(_check_in_context(request, event))
    context.update(_standings_card(event))
    context.update(_structure_context(event))
    cut = cutline_selectors.event_cut_line(event=event, structure=context["structure"])
    context.update(
        cut=cut,
        caveat=cutline_selectors.CAVEAT,
        planned_cut=cut.cut_size,
        next_round=(latest.number if latest else 0) + 1,
        rounds=selectors.event_round_numbers(event=event),
        in_cut=operations.in_cut,
        cut_final=operations.cut_final,
        next_cut_label=operations.next_cut_label,
        can_start_cut=operations.can_start_cut,
        can_change_round=operations.can_repair,
        can_swap=operations.can_swap,
        can_publish=operations.can_publish,
        can_undo=operations.can_undo,
        seated_players=seated,
        rematch_prompt=request.session.pop(f"rematch_prompt_{event.pk}", None),
        phase_ops=standings_selectors.phase_operations(event=event, results_missing=bool(context.get("missing"))),
    )  # fmt: skip
    return render(request, "dashboard/event_detail.html", context)


@login_required
def event_standings(request: HttpRequest, event_id: int) -> HttpResponse:
    """The dashboard's standings card alone: it asks again while the standings are being computed."""
    event = enter(request, doors.event(), event_id)
    context = {"event": event, **_standings_card(event), "namesakes": people_selectors.event_namesakes(event=event)}
    return render(request, "dashboard/_standings.html", context)


@login_required
def event_settings(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.event(Action.EDIT_EVENT), event_id)
    form = EventSettingsForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid():
        try:
            services.event_update(event=event, by=request.user, **form.changes())
        except ApplicationError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Settings saved."))
            return redirect("dashboard:event-detail", event_id=event.pk)
    context = {"event": event, "form": form, "may": policy.may(request.user, event)}
    return render(request, "dashboard/event_settings.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def event_check_in_window(request: HttpRequest, event_id: int) -> HttpResponse:
    """Open or close self check-in (while it is open the dashboard shows the QR code of the check-in page)."""
    event = enter(request, doors.event(Action.EDIT_EVENT), event_id)
    open_ = request.POST.get("open") == "true"
    try:
        services.event_update(event=event, by=request.user, check_in_open=open_)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("Check-in is open: players check themselves in.") if open_ else _("Check-in is closed.")
        )
    return redirect(reverse("dashboard:event-detail", args=[event.pk]) + "#check-in")


@login_required
def event_finish(request: HttpRequest, event_id: int) -> HttpResponse:
    """Finishing is final, so it takes two steps: this page asks, and only its own form finishes."""
    event = enter(request, doors.event(Action.EDIT_EVENT), event_id)
    if event.status == Event.Status.FINISHED:
        return redirect("dashboard:event-detail", event_id=event.pk)
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        try:
            services.event_finish(event=event, by=request.user)
        except ApplicationError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The event is finished."))
        return redirect("dashboard:event-detail", event_id=event.pk)
    latest = selectors.event_latest_round(event=event)
    context = {
        "event": event,
        "round": latest,
        "round_label": selectors.round_label(round_=latest) if latest else "",
        "missing": selectors.round_tables_to_report(round_=latest) if latest else 0,
    }
    return render(request, "dashboard/event_finish.html", context)
