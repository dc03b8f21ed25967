"""The players card of the dashboard: adding a player, checking in, dropping and undoing a drop, withdrawing, claim
codes, fixed tables and byes.  htmx gets the player's row back (with the card's count out of band)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

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
from tournaments import doors, policy, roster, selectors, services
from tournaments.forms import LotteryDrawForm, ReasonForm, RegistrationForm, RosterImportForm
from tournaments.models import Event, Registration
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors
from tournaments.services import entry as entry_services
from tournaments.services import registrations as registration_services
from tournaments.views._common import _invalid

#: The claim link a walk-in is given (``/claim/<code>/``).
CLAIM_PREFIX = "/claim/"


def _players_count(registrations: list[Registration]) -> dict:
    registered = [r for r in registrations if r.status == Registration.Status.REGISTERED]
    return {
        "active_count": sum(1 for r in registered if r.checked_in and not r.dropped),
        "registration_count": len(registered),
        "waiting_count": sum(1 for r in registrations if r.status == Registration.Status.WAITLISTED),
    }


def _players_context(request: HttpRequest, event: Event, form: RegistrationForm, *, may: Mapping[str, bool]) -> dict:
    """The players card: registered and withdrawn players by name, the waiting list in order, the invitations
    waiting for their players' answer, the counts."""
    registrations = list(selectors.event_registrations(event=event))
    aside = (Registration.Status.WAITLISTED, Registration.Status.INVITED, Registration.Status.APPLIED)
    return {
        "event": event,
        "registrations": [r for r in registrations if r.status not in aside],
        "invited": [r for r in registrations if r.status == Registration.Status.INVITED],
        "applicants": [r for r in registrations if r.status == Registration.Status.APPLIED],
        "waiting": list(selectors.waiting_list(event=event)),
        "warnings": people_selectors.entry_warnings(event=event, registrations=registrations),
        "registration_form": form,
        "next_round": selectors.next_round_number(event),
        "may": may,
        "namesakes": people_selectors.namesakes_of(r.player for r in registrations),
        "claim_url": request.build_absolute_uri(CLAIM_PREFIX),
        **_players_count(registrations),
    }


@login_required
@require_POST
def registration_add(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.event(Action.MANAGE_REGISTRATIONS), event_id)
    form = RegistrationForm(request.POST, focus=True)
    registration, error = None, None
    if form.is_valid():
        try:
            registration = services.registration_create(event=event, by=request.user, **form.cleaned_data)
        except ApplicationError as exc:
            error = exc.message
    else:
        error = " ".join(
            f"{form.fields[field].label if field in form.fields else field}: {' '.join(map(str, errors))}"
            for field, errors in form.errors.items()
        )
    if request.htmx:
        # The rows come back with the count, the recommended structure, the error line and the news for the live
        # region; the form on the page is left alone (it keeps the focus and what was typed, and empties itself on
        # success).
        context = _players_context(request, event, form, may=policy.may(request.user, event))
        context.update(registration_error=error, registered=registration, in_cut=bool(event.top_cut_size))
        context.update(_structure_context(event))
        return render(request, "dashboard/_players_response.html", context, status=422 if error else 200)
    if error:
        messages.error(request, error)
    else:
        assert registration is not None  # no error: the service registered the player
        messages.success(request, _entered(registration))
        request.session[f"registered_{event.pk}"] = True
    return redirect(reverse("dashboard:event-detail", args=[event.pk]) + "#players")


@login_required
def roster_import(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """Import players from a file (CSV or TOM .tdf): all of them, or none with every problem listed by line."""
    event = enter(request, doors.event(Action.MANAGE_REGISTRATIONS), event_id)
    form = RosterImportForm(request.POST or None, request.FILES or None)
    problems: list[dict] = []
    if request.method == "POST" and form.is_valid():
        try:
            imported = services.roster_import(
                event=event,
                by=request.user,
                data=form.cleaned_data["file"].read(roster.MAX_BYTES + 1),
                checked_in=form.cleaned_data["checked_in"],
            )
        except ApplicationError as exc:
            form.add_error("file", exc.message)
            problems = exc.extra.get("lines", []) if exc.code == "invalid_roster" else []
        else:
            counts = {
                "players": len(imported.registrations),
                "registered": imported.registered,
                "invited": imported.invited,
            }
            messages.success(
                request,
                _(
                    "Imported %(players)s players: %(registered)s registered, %(invited)s invited (they accept on "
                    "their page)."
                )
                % counts
                if imported.invited
                else _("Imported %(players)s players: %(registered)s registered.") % counts,
            )
            return redirect(reverse("dashboard:event-detail", args=[event.pk]) + "#players")
    context = {
        "event": event,
        "may": policy.may(request.user, event),
        "form": form,
        "problems": problems,
        "columns": roster.COLUMNS,
        "max_players": roster.MAX_PLAYERS,
    }
    status = _invalid(request) if request.method == "POST" else 200
    return render(request, "dashboard/roster_import.html", context, status=status)


def _entered(registration: Registration) -> str:
    """What registering a player did, in words: an account holder's record is only invited; a warning that
    refuses nothing (another event the same day) is said too."""
    warnings = people_selectors.entry_warnings(event=registration.event, registrations=[registration])
    also = "".join(" " + _("Note: %(warning)s") % {"warning": w.message} for w in warnings.get(registration.pk, []))
    player = {"player": registration.player}
    if registration.status == Registration.Status.INVITED:
        return _("Invited %(player)s: they accept on their page (/me/), and play once they have.") % player + also
    return _("Registered %(player)s.") % player + also


def _registration_row(
    request: HttpRequest,
    event: Event,
    registration: Registration,
    *,
    error: str | None = None,
    open_tools: bool = False,
) -> HttpResponse:
    """A player's row for htmx, with the players card's count out of band (checking in or dropping changes it)."""
    registrations = list(selectors.event_registrations(event=event))
    row = next((r for r in registrations if r.pk == registration.pk), registration)
    context = {
        "r": row,
        "event": event,
        "next_round": selectors.next_round_number(event),
        "may": policy.may(request.user, event),
        "namesakes": people_selectors.namesakes_of(r.player for r in registrations),
        "claim_url": request.build_absolute_uri(CLAIM_PREFIX),
        "row_error": error,
        "open_tools": open_tools,
        "warnings": people_selectors.entry_warnings(event=event, registrations=[row]),
        "oob_count": True,
        **_players_count(registrations),
        **_structure_context(event),
        "in_cut": bool(event.top_cut_size),
    }
    return render(request, "dashboard/_registration_row.html", context, status=422 if error else 200)


def _structure_context(event: Event) -> dict:
    """The header's recommended structure (sent again out of band whenever the players change: it follows them)."""
    return {
        "structure": selectors.event_structure(event=event),
        "structure_minimum": selectors.structure_minimum(event),
    }


def _registration_action(
    request: HtmxHttpRequest,
    event_id: int,
    registration_id: int,
    action: Callable[[Registration], Registration],
    *,
    done: str = "",
    open_tools: bool = False,
    needs: Action = Action.MANAGE_REGISTRATIONS,
) -> HttpResponse:
    """Run a registration service; htmx gets the row back (an error in it), a plain form the dashboard."""
    event = enter(request, doors.event(needs), event_id)
    registration = enter(request, doors.REGISTRATION, event.pk, registration_id)
    error = None
    try:
        registration = action(registration)
    except ApplicationError as exc:
        error = exc.message
    if request.htmx:
        return _registration_row(request, event, registration, error=error, open_tools=open_tools and not error)
    if error:
        messages.error(request, error)
    elif done:
        messages.success(request, done)
    return redirect(reverse("dashboard:event-detail", args=[event.pk]) + f"#reg-{registration.pk}")


@login_required
@require_POST
def registration_check_in(request: HtmxHttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    checked_in = request.POST.get("checked_in", "true") == "true"
    return _registration_action(
        request,
        event_id,
        registration_id,
        lambda r: services.registration_check_in(registration=r, by=request.user, checked_in=checked_in),
    )


@login_required
@require_POST
def registration_drop(request: HtmxHttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    return _registration_action(
        request, event_id, registration_id, lambda r: services.registration_drop(registration=r, by=request.user)
    )


@login_required
@require_POST
def registration_undrop(request: HtmxHttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    """Undo a drop, with the reason the audit trail keeps; the player is paired again from the next round."""
    form = ReasonForm(request.POST)

    def undrop(registration: Registration) -> Registration:
        if not form.is_valid():
            raise ApplicationError(" ".join(map(str, form.errors["reason"])), field="reason")
        return registration_services.registration_undrop(
            registration=registration, by=request.user, reason=form.cleaned_data["reason"]
        )

    return _registration_action(request, event_id, registration_id, undrop, done=_("The drop is undone."))


@login_required
@require_POST
def registration_withdraw(request: HttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    """Take a player off the event or its waiting list before play starts (the next one waiting moves up), or
    withdraw an invitation."""
    event = enter(request, doors.event(Action.MANAGE_REGISTRATIONS), event_id)
    registration = enter(request, doors.REGISTRATION, event.pk, registration_id)
    invited = registration.status == Registration.Status.INVITED
    try:
        registration_services.registration_withdraw(registration=registration, by=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("The invitation of %(player)s is withdrawn.") % {"player": registration.player}
            if invited
            else _("%(player)s is withdrawn.") % {"player": registration.player},
        )
    return redirect(reverse("dashboard:event-detail", args=[event.pk]) + "#players")


@login_required
@require_POST
def registration_claim_code(request: HtmxHttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    """A new claim code for a walk-in: the organiser hands it over, the player claims the record with an account."""
    codes: list[str] = []

    def make_code(registration: Registration) -> Registration:
        codes.append(registration_services.player_claim_code_create(registration=registration, by=request.user))
        registration.player.claim_code = codes[0]
        return registration

    response = _registration_action(request, event_id, registration_id, make_code, open_tools=True)
    if codes and not request.htmx:
        link = request.build_absolute_uri(f"{CLAIM_PREFIX}{codes[0]}/")
        messages.success(
            request,
            _("Claim code: %(code)s. The player claims their record at %(link)s") % {"code": codes[0], "link": link},
        )
    return response


@login_required
@require_POST
def registration_fixed_table(request: HtmxHttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    value = request.POST.get("fixed_table", "").strip()
    if value and not value.isdigit():
        enter(request, doors.event(Action.MANAGE_REGISTRATIONS), event_id)
        messages.error(request, _("A fixed table is a table number, or empty to free the player."))
        return redirect("dashboard:event-detail", event_id=event_id)
    return _registration_action(
        request,
        event_id,
        registration_id,
        lambda r: services.registration_update(
            registration=r, by=request.user, fixed_table=int(value) if value else None
        ),
    )


@login_required
@require_POST
def registration_stream_consent(request: HtmxHttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    """Staff opt a player out of being streamed (``stream_opt_out=yes``), or back in (``no``): audited."""
    opt_out = request.POST.get("stream_opt_out") == "yes"
    return _registration_action(
        request,
        event_id,
        registration_id,
        lambda r: services.registration_stream_consent_set(registration=r, by=request.user, stream_opt_out=opt_out),
        done=_("Not streamed from now on.") if opt_out else _("May be streamed again."),
    )


@login_required
@require_POST
def registration_bye(request: HtmxHttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    number = request.POST.get("round", "")
    remove = request.POST.get("remove") == "true"
    if not number.isdigit():
        enter(request, doors.event(Action.MANAGE_REGISTRATIONS), event_id)
        messages.error(request, _("Choose the round of the bye."))
        return redirect("dashboard:event-detail", event_id=event_id)

    def action(r: Registration) -> Registration:
        if remove:
            services.bye_unassign(registration=r, round_number=int(number), by=request.user)
        else:
            services.bye_assign(registration=r, round_number=int(number), by=request.user)
        return r

    return _registration_action(request, event_id, registration_id, action)


@login_required
@require_POST
def registration_payment(request: HtmxHttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    """Mark the player's entry fee paid or unpaid (they pay at the organiser's checkout)."""
    paid = request.POST.get("paid", "true") == "true"
    return _registration_action(
        request,
        event_id,
        registration_id,
        lambda r: entry_services.registration_mark_paid(registration=r, by=request.user, paid=paid),
        done=_("Marked paid.") if paid else _("Marked unpaid."),
        needs=Action.MANAGE_FEES,
    )


@login_required
@require_POST
def lottery_draw(request: HttpRequest, event_id: int) -> HttpResponse:
    """Draw the event's lottery (an optional seed repeats a draw made elsewhere); the dashboard shows the outcome."""
    event = enter(request, doors.event(Action.DRAW_LOTTERY), event_id)
    form = LotteryDrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect(reverse("dashboard:event-detail", args=[event.pk]) + "#lottery")
    try:
        outcome = entry_services.lottery_draw(event=event, by=request.user, seed=form.cleaned_data["seed"])
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _(
                "Lottery drawn (seed %(seed)s): %(registered)s registered, %(waiting)s on the waiting list in drawn order."
            )
            % {"seed": outcome.seed, "registered": len(outcome.winners), "waiting": len(outcome.waiting)},
        )
    return redirect(reverse("dashboard:event-detail", args=[event.pk]) + "#lottery")
