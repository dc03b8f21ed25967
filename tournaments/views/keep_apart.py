"""The dashboard's keep-apart page: players the pairing keeps apart (family, teammates), added and removed."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.doorway import enter
from core.exceptions import ApplicationError
from tournaments import doors, policy, services
from tournaments.forms import KeepApartForm
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors


@login_required
def keep_apart(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.event(Action.MANAGE_REGISTRATIONS), event_id)
    form = KeepApartForm(request.POST or None, choices=people_selectors.registered_players_by_name(event=event))
    if request.method == "POST" and form.is_valid():
        try:
            services.keep_apart_add(
                event=event, player_a=int(form.cleaned_data["player_a"]), player_b=int(form.cleaned_data["player_b"]),
                note=form.cleaned_data["note"], by=request.user,
            )  # fmt: skip
        except ApplicationError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Kept apart from the next pairing on."))
            return redirect("dashboard:keep-apart", event_id=event.pk)
    context = {
        "event": event,
        "form": form,
        "pairs": people_selectors.keep_apart_pairs(event=event),
        "may": policy.may(request.user, event),
    }
    return render(request, "dashboard/keep_apart.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def keep_apart_remove(request: HttpRequest, event_id: int, pair_id: int) -> HttpResponse:
    event = enter(request, doors.event(Action.MANAGE_REGISTRATIONS), event_id)
    pair = enter(request, doors.KEEP_APART, event, pair_id)
    services.keep_apart_remove(pair=pair, by=request.user)
    messages.success(request, _("No longer kept apart."))
    return redirect("dashboard:keep-apart", event_id=event.pk)
