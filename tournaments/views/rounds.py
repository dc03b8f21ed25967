"""Pairing from the dashboard: starting, re-pairing and swapping a round, the top cut, and an earlier round's
page."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.doorway import enter
from core.exceptions import ApplicationError
from tournaments import doors, policy, selectors, services, words
from tournaments.forms import SwapForm
from tournaments.models import Event, Round
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors
from tournaments.views._tables import _round_context


@login_required
def round_detail(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """An earlier round's tables and results, each with its correction; the current round is on the dashboard."""
    event = enter(request, doors.event(), event_id)
    round_ = selectors.round_get(event=event, number=number)
    if round_ is None:
        messages.error(request, _("Round %(round)s has not been paired.") % {"round": number})
        return redirect("dashboard:event-detail", event_id=event.pk)
    latest = selectors.event_latest_round(event=event)
    assert latest is not None  # the event has round_, so a latest round
    if round_.pk == latest.pk:
        return redirect(reverse("dashboard:event-detail", args=[event.pk]) + "#round-heading")
    may = policy.may(request.user, event)
    namesakes = people_selectors.event_namesakes(event=event)
    context = _round_context(event, round_, manage=True, may=may, namesakes=namesakes, latest=False)
    rounds = selectors.event_round_numbers(event=event)
    later = [n for n in rounds if n > number]
    context.update(
        may=may,
        namesakes=namesakes,
        rounds=rounds,
        later=later,
        paired_after=words.were_paired(later, when=words.AFTER_THIS_ROUND),
        latest_number=latest.number,
    )
    return render(request, "dashboard/round_detail.html", context)


def _pair(request: HttpRequest, event: Event, pair: Callable[[bool], Round]) -> HttpResponse:
    """Run a pairing service; a refused rematch becomes a prompt the organiser can accept."""
    allow = request.POST.get("allow_rematches") == "true"
    try:
        round_ = pair(allow)
    except ApplicationError as exc:
        if exc.code == "rematch_unavoidable":
            request.session[f"rematch_prompt_{event.pk}"] = {"message": exc.message, "action": request.path}
        else:
            messages.error(request, exc.message)
    else:
        messages.success(request, _("%(round)s is paired.") % {"round": selectors.round_label(round_=round_)})
    return redirect("dashboard:event-detail", event_id=event.pk)


@login_required
@require_POST
def round_start(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.event(Action.PAIR_ROUNDS), event_id)
    seeding = "rating" if request.POST.get("seeding") == "rating" else "random"
    return _pair(
        request,
        event,
        lambda allow: services.round_start(event=event, by=request.user, allow_rematches=allow, seeding=seeding),
    )


@login_required
@require_POST
def round_repair(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    event = enter(request, doors.event(Action.PAIR_ROUNDS), event_id)
    return _pair(
        request,
        event,
        lambda allow: services.round_repair(event=event, round_number=number, by=request.user, allow_rematches=allow),
    )


@login_required
@require_POST
def round_swap(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    event = enter(request, doors.event(Action.PAIR_ROUNDS), event_id)
    form = SwapForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose two players to swap."))
        return redirect("dashboard:event-detail", event_id=event.pk)
    try:
        _swapped, warnings = services.round_swap(event=event, round_number=number, by=request.user, **form.cleaned_data)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Swapped."))
        for warning in warnings:
            messages.warning(request, _("Rematch: %(warning)s") % {"warning": warning})
    return redirect("dashboard:event-detail", event_id=event.pk)


@login_required
@require_POST
def top_cut_start(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.event(Action.PAIR_ROUNDS), event_id)
    size = request.POST.get("size", "")
    try:
        round_ = services.top_cut_start(event=event, by=request.user, size=int(size) if size.isdigit() else None)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Top %(size)s cut started: %(round)s.")
            % {"size": event.top_cut_size or "", "round": selectors.round_label(round_=round_)},
        )
    return redirect("dashboard:event-detail", event_id=event.pk)


@login_required
@require_POST
def round_publish(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """Show a staged round to the players."""
    event = enter(request, doors.event(Action.PAIR_ROUNDS), event_id)
    try:
        services.round_publish(event=event, round_number=number, by=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Round %(round)s is published: players see their tables.") % {"round": number})
    return redirect("dashboard:event-detail", event_id=event.pk)


@login_required
@require_POST
def round_undo(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """Take back the latest round's start (its own confirmation on the dashboard: a button inside a details)."""
    event = enter(request, doors.event(Action.PAIR_ROUNDS), event_id)
    try:
        services.round_start_undo(event=event, round_number=number, by=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Round %(round)s is undone: it was never paired.") % {"round": number})
    return redirect("dashboard:event-detail", event_id=event.pk)
