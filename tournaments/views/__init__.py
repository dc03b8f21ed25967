"""Server-rendered pages: the event dashboard (organisers and their staff) and the public pairings and standings.

Views translate a request into one service call or selector and render the
answer; a service refusal becomes a form error or a message, never a 500.
htmx requests get the fragment they swap instead of the whole page; a form
with errors comes back with HTTP 422, which ``base.html`` tells htmx to swap
like a success, so the error shows where the organiser is working (a whole
page whose form has errors is a 400).

The dashboard adapts to the viewer's role.  Each view asks
:mod:`tournaments.policy` for the action it needs and answers the 403 page
otherwise; templates get ``may``, one flag per
:class:`~tournaments.policy.Action` (``may.pair_rounds``), and show only the
controls it allows.  Players who share a name at an event are shown with
their player ID (``namesakes``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from core.exceptions import ApplicationError
from core.exceptions import PermissionDenied as ServicePermissionDenied
from rules import UnknownFormat, get_format
from tournaments import policy, selectors, services
from tournaments.forms import (
    CorrectionForm,
    EventForm,
    EventSettingsForm,
    PenaltyForm,
    ReasonForm,
    RegistrationForm,
    RescindForm,
    ResultForm,
    StaffForm,
    SwapForm,
    shown_name,
)
from tournaments.models import (
    AuditEntry,
    Event,
    EventStaff,
    Penalty,
    Pod,
    PodResult,
    Registration,
    ResultReport,
    Round,
)
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors
from tournaments.services import penalties as penalty_services
from tournaments.services import registrations as registration_services
from tournaments.services import results as result_services
from tournaments.services import staff as staff_services

#: Pages of the player's side, linked by their path: the check-in page a QR code opens, and the claim link
#: (``/claim/<code>/``).
CHECK_IN_PATH = "/events/{event_id}/check-in/"
CLAIM_PREFIX = "/claim/"
AUDIT_PAGE_SIZE = 50
#: The dashboard's standings card shows the first players; the home page lists the latest events.
STANDINGS_CARD = 8
HOME_EVENTS = 100


# --- who may do what -----------------------------------------------------------------------------


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


# --- results in words ----------------------------------------------------------------------------


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


# --- the tables of a round -----------------------------------------------------------------------


def _result_form(pod: Pod, seats, *, cut: bool, namesakes: Collection[int] = (), data=None) -> ResultForm:
    # Every table's form is on one page: prefix the ids so each label points at its own field.
    return ResultForm(data, seats=seats, cut=cut, namesakes=namesakes, auto_id=f"table{pod.pk}_%s")


def _table(
    pod: Pod,
    seats: list,
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
    round_,
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


# --- the event list and the dashboard --------------------------------------------------------------


@login_required
def event_list(request: HttpRequest) -> HttpResponse:
    events = selectors.event_list(user=request.user, mine=True)
    return render(request, "dashboard/event_list.html", {"events": events})


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    if not policy.can_create_event(request.user):
        raise DjangoPermissionDenied("Creating events needs the organiser permission: ask the site's staff.")
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = services.event_create(organiser=request.user, **form.cleaned_data)
        except ApplicationError as exc:
            form.add_error(exc.field, exc.message)
        else:
            messages.success(request, f"Created {event.name}.")
            return redirect("dashboard:event-detail", event_id=event.pk)
    return render(request, "dashboard/event_form.html", {"form": form}, status=400 if form.errors else 200)


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
    aside = (Registration.Status.WAITLISTED, Registration.Status.INVITED)
    return {
        "event": event,
        "registrations": [r for r in registrations if r.status not in aside],
        "invited": [r for r in registrations if r.status == Registration.Status.INVITED],
        "waiting": list(selectors.waiting_list(event=event)),
        "registration_form": form,
        "next_round": selectors.next_round_number(event),
        "may": may,
        "namesakes": people_selectors.namesakes_of(r.player for r in registrations),
        "claim_url": request.build_absolute_uri(CLAIM_PREFIX),
        **_players_count(registrations),
    }


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
    event = _managed_event(request, event_id)
    may = _may(request.user, event)
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
    context.update(
        next_round=(latest.number if latest else 0) + 1,
        rounds=selectors.event_round_numbers(event=event),
        in_cut=operations.in_cut,
        cut_final=operations.cut_final,
        next_cut_label=operations.next_cut_label,
        can_start_cut=operations.can_start_cut,
        can_change_round=operations.can_repair,
        can_swap=operations.can_swap,
        seated_players=seated,
        rematch_prompt=request.session.pop(f"rematch_prompt_{event.pk}", None),
    )  # fmt: skip
    return render(request, "dashboard/event_detail.html", context)


@login_required
def round_detail(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """An earlier round's tables and results, each with its correction; the current round is on the dashboard."""
    event = _managed_event(request, event_id)
    round_ = selectors.round_get(event=event, number=number)
    if round_ is None:
        messages.error(request, f"Round {number} has not been paired.")
        return redirect("dashboard:event-detail", event_id=event.pk)
    latest = selectors.event_latest_round(event=event)
    if round_.pk == latest.pk:
        return redirect(reverse("dashboard:event-detail", args=[event.pk]) + "#round-heading")
    may = _may(request.user, event)
    namesakes = people_selectors.event_namesakes(event=event)
    context = _round_context(event, round_, manage=True, may=may, namesakes=namesakes, latest=False)
    rounds = selectors.event_round_numbers(event=event)
    context.update(
        may=may,
        namesakes=namesakes,
        rounds=rounds,
        later=[n for n in rounds if n > number],
        latest_number=latest.number,
    )
    return render(request, "dashboard/round_detail.html", context)


@login_required
def event_standings(request: HttpRequest, event_id: int) -> HttpResponse:
    """The dashboard's standings card alone: it asks again while the standings are being computed."""
    event = _managed_event(request, event_id)
    context = {"event": event, **_standings_card(event), "namesakes": people_selectors.event_namesakes(event=event)}
    return render(request, "dashboard/_standings.html", context)


def _standings_card(event: Event) -> dict:
    """The dashboard's standings card: the top of the standings and whether they are current."""
    standings = selectors.standings_read(event=event, limit=STANDINGS_CARD)
    return {"standings": standings.rows, "standings_current": standings.current}


@login_required
def event_settings(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _managed_event(request, event_id, Action.EDIT_EVENT)
    form = EventSettingsForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid():
        try:
            services.event_update(event=event, by=request.user, **form.changes())
        except ApplicationError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, "Settings saved.")
            return redirect("dashboard:event-detail", event_id=event.pk)
    context = {"event": event, "form": form, "may": _may(request.user, event)}
    return render(request, "dashboard/event_settings.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def event_check_in_window(request: HttpRequest, event_id: int) -> HttpResponse:
    """Open or close self check-in (while it is open the dashboard shows the QR code of the check-in page)."""
    event = _managed_event(request, event_id, Action.EDIT_EVENT)
    open_ = request.POST.get("open") == "true"
    try:
        services.event_update(event=event, by=request.user, check_in_open=open_)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Check-in is open: players check themselves in." if open_ else "Check-in is closed.")
    return redirect(reverse("dashboard:event-detail", args=[event.pk]) + "#check-in")


# --- registrations -------------------------------------------------------------------------------


@login_required
@require_POST
def registration_add(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _managed_event(request, event_id, Action.MANAGE_REGISTRATIONS)
    form = RegistrationForm(request.POST, focus=True)
    registration, error = None, None
    if form.is_valid():
        try:
            registration = services.registration_create(event=event, by=request.user, **form.cleaned_data)
        except ApplicationError as exc:
            error = exc.message
    else:
        error = " ".join(
            f"{form.fields[field].label if field in form.fields else field}: {' '.join(errors)}"
            for field, errors in form.errors.items()
        )
    if request.htmx:
        # The rows come back with the count, the recommended structure, the error line and the news for the live
        # region; the form on the page is left alone (it keeps the focus and what was typed, and empties itself on
        # success).
        context = _players_context(request, event, form, may=_may(request.user, event))
        context.update(registration_error=error, registered=registration, in_cut=bool(event.top_cut_size))
        context.update(_structure_context(event))
        return render(request, "dashboard/_players_response.html", context, status=422 if error else 200)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, _entered(registration))
        request.session[f"registered_{event.pk}"] = True
    return redirect(reverse("dashboard:event-detail", args=[event.pk]) + "#players")


def _entered(registration: Registration) -> str:
    """What registering a player did, in words: an account holder's record is only invited."""
    if registration.status == Registration.Status.INVITED:
        return f"Invited {registration.player}: they accept on their page (/me/), and play once they have."
    return f"Registered {registration.player}."


def _registration_row(
    request: HttpRequest, event: Event, registration: Registration, *, error: str | None = None, open_tools=False
) -> HttpResponse:
    """A player's row for htmx, with the players card's count out of band (checking in or dropping changes it)."""
    registrations = list(selectors.event_registrations(event=event))
    row = next((r for r in registrations if r.pk == registration.pk), registration)
    context = {
        "r": row,
        "event": event,
        "next_round": selectors.next_round_number(event),
        "may": _may(request.user, event),
        "namesakes": people_selectors.namesakes_of(r.player for r in registrations),
        "claim_url": request.build_absolute_uri(CLAIM_PREFIX),
        "row_error": error,
        "open_tools": open_tools,
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
    request: HttpRequest, event_id: int, registration_id: int, action, *, done: str = "", open_tools: bool = False
) -> HttpResponse:
    """Run a registration service; htmx gets the row back (an error in it), a plain form the dashboard."""
    event = _managed_event(request, event_id, Action.MANAGE_REGISTRATIONS)
    registration = get_object_or_404(people_selectors.registrations_with_player(event_id=event.pk), pk=registration_id)
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
def registration_check_in(request: HttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    checked_in = request.POST.get("checked_in", "true") == "true"
    return _registration_action(
        request,
        event_id,
        registration_id,
        lambda r: services.registration_check_in(registration=r, by=request.user, checked_in=checked_in),
    )


@login_required
@require_POST
def registration_drop(request: HttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    return _registration_action(
        request, event_id, registration_id, lambda r: services.registration_drop(registration=r, by=request.user)
    )


@login_required
@require_POST
def registration_undrop(request: HttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    """Undo a drop, with the reason the audit trail keeps; the player is paired again from the next round."""
    form = ReasonForm(request.POST)

    def undrop(registration: Registration) -> Registration:
        if not form.is_valid():
            raise ApplicationError(" ".join(form.errors["reason"]), field="reason")
        return registration_services.registration_undrop(
            registration=registration, by=request.user, reason=form.cleaned_data["reason"]
        )

    return _registration_action(request, event_id, registration_id, undrop, done="The drop is undone.")


@login_required
@require_POST
def registration_withdraw(request: HttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    """Take a player off the event or its waiting list before play starts (the next one waiting moves up), or
    withdraw an invitation."""
    event = _managed_event(request, event_id, Action.MANAGE_REGISTRATIONS)
    registration = get_object_or_404(people_selectors.registrations_with_player(event_id=event.pk), pk=registration_id)
    invited = registration.status == Registration.Status.INVITED
    try:
        registration_services.registration_withdraw(registration=registration, by=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            f"The invitation of {registration.player} is withdrawn."
            if invited
            else f"{registration.player} is withdrawn.",
        )
    return redirect(reverse("dashboard:event-detail", args=[event.pk]) + "#players")


@login_required
@require_POST
def registration_claim_code(request: HttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    """A new claim code for a walk-in: the organiser hands it over, the player claims the record with an account."""
    codes: list[str] = []

    def make_code(registration: Registration) -> Registration:
        codes.append(registration_services.player_claim_code_create(registration=registration, by=request.user))
        registration.player.claim_code = codes[0]
        return registration

    response = _registration_action(request, event_id, registration_id, make_code, open_tools=True)
    if codes and not request.htmx:
        link = request.build_absolute_uri(f"{CLAIM_PREFIX}{codes[0]}/")
        messages.success(request, f"Claim code: {codes[0]}. The player claims their record at {link}")
    return response


@login_required
@require_POST
def registration_fixed_table(request: HttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    value = request.POST.get("fixed_table", "").strip()
    if value and not value.isdigit():
        _managed_event(request, event_id, Action.MANAGE_REGISTRATIONS)
        messages.error(request, "A fixed table is a table number, or empty to free the player.")
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
def registration_bye(request: HttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    number = request.POST.get("round", "")
    remove = request.POST.get("remove") == "true"
    if not number.isdigit():
        _managed_event(request, event_id, Action.MANAGE_REGISTRATIONS)
        messages.error(request, "Choose the round of the bye.")
        return redirect("dashboard:event-detail", event_id=event_id)

    def action(r: Registration) -> Registration:
        if remove:
            services.bye_unassign(registration=r, round_number=int(number), by=request.user)
        else:
            services.bye_assign(registration=r, round_number=int(number), by=request.user)
        return r

    return _registration_action(request, event_id, registration_id, action)


# --- rounds ----------------------------------------------------------------------------------------


def _pair(request: HttpRequest, event: Event, pair) -> HttpResponse:
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
        messages.success(request, f"{selectors.round_label(round_=round_)} is paired.")
    return redirect("dashboard:event-detail", event_id=event.pk)


@login_required
@require_POST
def round_start(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _managed_event(request, event_id, Action.PAIR_ROUNDS)
    seeding = "rating" if request.POST.get("seeding") == "rating" else "random"
    return _pair(
        request,
        event,
        lambda allow: services.round_start(event=event, by=request.user, allow_rematches=allow, seeding=seeding),
    )


@login_required
@require_POST
def round_repair(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    event = _managed_event(request, event_id, Action.PAIR_ROUNDS)
    return _pair(
        request,
        event,
        lambda allow: services.round_repair(event=event, round_number=number, by=request.user, allow_rematches=allow),
    )


@login_required
@require_POST
def round_swap(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    event = _managed_event(request, event_id, Action.PAIR_ROUNDS)
    form = SwapForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose two players to swap.")
        return redirect("dashboard:event-detail", event_id=event.pk)
    try:
        _, warnings = services.round_swap(event=event, round_number=number, by=request.user, **form.cleaned_data)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Swapped.")
        for warning in warnings:
            messages.warning(request, f"Rematch: {warning}")
    return redirect("dashboard:event-detail", event_id=event.pk)


@login_required
@require_POST
def top_cut_start(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _managed_event(request, event_id, Action.PAIR_ROUNDS)
    size = request.POST.get("size", "")
    try:
        round_ = services.top_cut_start(event=event, by=request.user, size=int(size) if size.isdigit() else None)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, f"Top {event.top_cut_size or ''} cut started: {selectors.round_label(round_=round_)}."
        )
    return redirect("dashboard:event-detail", event_id=event.pk)


@login_required
def event_finish(request: HttpRequest, event_id: int) -> HttpResponse:
    """Finishing is final, so it takes two steps: this page asks, and only its own form finishes."""
    event = _managed_event(request, event_id, Action.EDIT_EVENT)
    if event.status == Event.Status.FINISHED:
        return redirect("dashboard:event-detail", event_id=event.pk)
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        try:
            services.event_finish(event=event, by=request.user)
        except ApplicationError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, "The event is finished.")
        return redirect("dashboard:event-detail", event_id=event.pk)
    latest = selectors.event_latest_round(event=event)
    context = {
        "event": event,
        "round": latest,
        "round_label": selectors.round_label(round_=latest) if latest else "",
        "missing": selectors.round_tables_to_report(round_=latest) if latest else 0,
    }
    return render(request, "dashboard/event_finish.html", context)


# --- results and corrections -----------------------------------------------------------------------


def _event_table(event: Event, number: int, table: int) -> Pod:
    return get_object_or_404(selectors.event_table(event=event, number=number, table=table))


@login_required
@require_POST
def result_report(request: HttpRequest, event_id: int, number: int, table: int) -> HttpResponse:
    """A table's result entered by staff (final at once): organisers and scorekeepers, judges settling a report."""
    event = get_object_or_404(selectors.events_with_organiser(), pk=event_id)
    may = _may(request.user, event)
    if not (may[Action.ENTER_RESULTS] or may[Action.SETTLE_DISPUTES]):
        _ensure(request, Action.ENTER_RESULTS, event)
    pod = _event_table(event, number, table)
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
        messages.error(request, f"Table {table}: {error}")
    else:
        messages.success(request, f"Recorded the result of table {table}.")
    return redirect("dashboard:event-detail", event_id=event.pk)


@login_required
@require_POST
def result_report_accept(request: HttpRequest, event_id: int, number: int, table: int) -> HttpResponse:
    """Staff accept a table's waiting player report as it stands (nobody else can confirm it: a walk-in)."""
    event = _managed_event(request, event_id, Action.SETTLE_DISPUTES)
    may = _may(request.user, event)
    pod = _event_table(event, number, table)
    error = None
    try:
        result_services.result_report_accept(event=event, round_number=number, table_number=table, by=request.user)
    except ApplicationError as exc:
        error = exc.message
    if request.htmx:
        namesakes = people_selectors.event_namesakes(event=event)
        return _result_fragment(request, event, pod, form=None, error=error, may=may, namesakes=namesakes)
    if error:
        messages.error(request, f"Table {table}: {error}")
    else:
        messages.success(request, f"Accepted the report of table {table}: it is the table's result.")
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
        pod.seat_list,
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
        announcement=f"Recorded the result of table {pod.table_number}.",
    )
    return render(request, "dashboard/_result.html", context)


def _round_url(event: Event, number: int) -> str:
    return reverse("dashboard:round-detail", args=[event.pk, number])


@login_required
def result_correct(request: HttpRequest, event_id: int, number: int, table: int) -> HttpResponse:
    """Correct a recorded result of any round, with a reason; rounds paired since stay as paired."""
    event = _managed_event(request, event_id, Action.CORRECT_RESULTS)
    pod = _event_table(event, number, table)
    seats = selectors.pod_seats(pod=pod)
    label = f"{selectors.round_label(round_=pod.round)}, table {table}"
    back = _round_url(event, number) + f"#table-{pod.pk}"
    result = selectors.pod_result(pod=pod)
    if result is None or pod.is_bye:
        messages.error(request, f"{label} has no result to correct: enter it on the dashboard.")
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
                " ".join(filter(None, [f"Corrected {label}.", _kept_as_paired(correction.later_rounds)]))
                + " The standings are being recomputed.",
            )
            return redirect(back)
    names = {s.player_id: shown_name(s.player, namesakes) for s in seats}
    recorded = outcome_words(
        {s.player_id: s.placement for s in seats},
        {s.player_id: (s.games_won, s.games_lost, s.games_drawn) for s in seats if s.games_won is not None} or None,
        result.intentional_draw,
        names,
    )
    later = selectors.event_round_numbers(event=event, after=number)
    may = _may(request.user, event)
    context = {
        "event": event,
        "pod": pod,
        "round": pod.round,
        "label": label,
        "form": form,
        "result": result,
        "recorded": recorded,
        "later": later,
        "kept_as_paired": _kept_as_paired(later, when="after this round"),
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


# --- staff -----------------------------------------------------------------------------------------


def _roles_table() -> list[tuple[str, list[str]]]:
    """The policy's role x action table for the staff page: (what, a mark per role: "yes", "no", "if allowed")."""
    rows = []
    for action in Action:
        marks = []
        for role in STAFF_PAGE_ROLES:
            if action == Action.SEE_HIDDEN_DECKLISTS and role == policy.Role.CASTER:
                marks.append("if allowed")
            else:
                marks.append("yes" if action in policy.ROLE_ACTIONS[role] else "no")
        rows.append((policy.ACTION_TEXT[action], marks))
    return rows


STAFF_PAGE_ROLES = (
    policy.Role.ORGANISER,
    policy.Role.CO_ORGANISER,
    policy.Role.SCOREKEEPER,
    policy.Role.JUDGE,
    policy.Role.CASTER,
)
ROLE_NAMES = {policy.Role.ORGANISER.value: "Organiser", **dict(EventStaff.Role.choices)}


def _staff_page(request: HttpRequest, event: Event, form: StaffForm, *, row_errors=None, status=200) -> HttpResponse:
    row_errors = dict(row_errors or {})
    staff = list(selectors.event_staff(event=event))
    for member in staff:  # a refused change shows in its row; one about another account above the list
        member.error = row_errors.pop(member.user.get_username().casefold(), None)
    context = {
        "event": event,
        "may": _may(request.user, event),
        "form": form,
        "staff": staff,
        "page_errors": list(row_errors.values()),
        "role_choices": EventStaff.Role.choices,
        "roles": [ROLE_NAMES[r.value] for r in STAFF_PAGE_ROLES],
        "roles_table": _roles_table(),
    }
    return render(request, "dashboard/event_staff.html", context, status=status)


@login_required
def event_staff(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event's staff: add an account with a role, change a role (a row's form posts here too)."""
    event = _managed_event(request, event_id, Action.MANAGE_STAFF)
    form = StaffForm(request.POST or None)
    if request.method != "POST":
        return _staff_page(request, event, form)
    in_row = request.POST.get("row") == "true"
    if form.is_valid():
        username, role = form.cleaned_data["username"], form.cleaned_data["role"]
        try:
            staff = staff_services.staff_add(event=event, username=username, role=role, by=request.user)
        except ApplicationError as exc:
            if in_row:
                return _staff_page(
                    request, event, StaffForm(), row_errors={username.casefold(): exc.message}, status=_invalid(request)
                )
            form.add_error({"user": "username", "role": "role"}.get(exc.field or ""), exc.message)
        else:
            messages.success(request, f"{staff.user.get_username()} is {staff.get_role_display()} at this event.")
            return redirect("dashboard:event-staff", event_id=event.pk)
    return _staff_page(request, event, form, status=_invalid(request))


@login_required
@require_POST
def event_staff_remove(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _managed_event(request, event_id, Action.MANAGE_STAFF)
    username = request.POST.get("username", "")
    try:
        staff_services.staff_remove(event=event, username=username, by=request.user)
    except ApplicationError as exc:
        return _staff_page(
            request, event, StaffForm(), row_errors={username.casefold(): exc.message}, status=_invalid(request)
        )
    messages.success(request, f"{username} is no longer on the staff of this event.")
    return redirect("dashboard:event-staff", event_id=event.pk)


# --- penalties -------------------------------------------------------------------------------------


def _penalty_form(event: Event, namesakes: Collection[int], data=None) -> PenaltyForm:
    """The form to give a penalty: the event's registered players by name (dropped ones too, marked)."""
    registrations = [
        r for r in selectors.event_registrations(event=event) if r.status == Registration.Status.REGISTERED
    ]
    latest = selectors.event_latest_round(event=event)
    return PenaltyForm(
        data, registrations=registrations, namesakes=namesakes, current_round=latest.number if latest else None
    )


def _penalties_page(
    request: HttpRequest,
    event: Event,
    *,
    form: PenaltyForm | None = None,
    rescind: tuple[int, str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The penalties page; ``rescind`` is a refused rescind, ``(penalty id, what was typed, the error)``."""
    may = _may(request.user, event)
    namesakes = people_selectors.event_namesakes(event=event)
    open_ = event.status != Event.Status.FINISHED
    issuing = may[Action.ISSUE_PENALTIES] and open_
    if issuing and form is None:
        form = _penalty_form(event, namesakes)
    penalties = list(people_selectors.event_penalties(event=event))
    for penalty in penalties:
        penalty.name = shown_name(penalty.registration.player, namesakes)
        penalty.rescind_text, penalty.rescind_error = "", ""
        if rescind and rescind[0] == penalty.pk:
            penalty.rescind_text, penalty.rescind_error = rescind[1], rescind[2]
    context = {
        "event": event,
        "may": may,
        "form": form if issuing or (form is not None and form.errors) else None,
        "may_rescind": issuing,
        "penalties": penalties,
        "in_force": sum(1 for p in penalties if not p.rescinded),
    }
    return render(request, "dashboard/event_penalties.html", context, status=status)


@login_required
def event_penalties(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event's penalties, newest first, for its staff; organisers and judges give one here.

    A disqualification also drops the player; a refused penalty comes back as an error at its field.
    """
    event = _managed_event(request, event_id)
    if request.method != "POST":
        return _penalties_page(request, event)
    _ensure(request, Action.ISSUE_PENALTIES, event)
    form = _penalty_form(event, people_selectors.event_namesakes(event=event), request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            given = penalty_services.penalty_issue(
                event=event, registration_id=data["registration"], penalty=data["penalty"],
                infraction=data["infraction"], note=data["note"], round_number=data["round"], by=request.user,
            )  # fmt: skip
        except ApplicationError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            dropped = " They are dropped from the event." if given.penalty == Penalty.Kind.DISQUALIFICATION else ""
            messages.success(
                request, f"{given.get_penalty_display()} for {given.registration.player}: {given.infraction}.{dropped}"
            )
            return redirect("dashboard:event-penalties", event_id=event.pk)
    return _penalties_page(request, event, form=form, status=_invalid(request))


@login_required
@require_POST
def penalty_rescind(request: HttpRequest, event_id: int, penalty_id: int) -> HttpResponse:
    """Rescind a penalty with a reason: it stays on the list, marked; a refusal shows in its row."""
    event = _managed_event(request, event_id, Action.ISSUE_PENALTIES)
    penalty = get_object_or_404(people_selectors.penalties_with_player(event=event), pk=penalty_id)
    form = RescindForm(request.POST)
    typed = request.POST.get("reason", "")[:1000]
    if not form.is_valid():
        error = " ".join(form.errors["reason"])
    else:
        try:
            penalty_services.penalty_rescind(penalty=penalty, by=request.user, reason=form.cleaned_data["reason"])
        except ApplicationError as exc:
            error = exc.message
        else:
            messages.success(request, f"The {penalty.get_penalty_display().lower()} of {penalty.registration.player} "
                             "is rescinded.")  # fmt: skip
            return redirect(reverse("dashboard:event-penalties", args=[event.pk]) + f"#penalty-{penalty.pk}")
    return _penalties_page(request, event, rescind=(penalty.pk, typed, error), status=_invalid(request))


# --- the audit trail -------------------------------------------------------------------------------


AUDIT_KIND_NAMES = {
    "": "All",
    "results": "Results",
    "registrations": "Registrations",
    "rounds": "Rounds",
    "staff": "Staff",
    "event": "Event",
    "decks": "Decks",
    "penalties": "Penalties",
}

#: Each action of the audit trail in words (an unknown one is shown from its name).
AUDIT_ACTION_NAMES = {
    "event.created": "Event created",
    "event.updated": "Settings changed",
    "event.finished": "Event finished",
    "registration.created": "Registered by staff",
    "registration.self_registered": "Registered themselves",
    "registration.waitlisted": "Joined the waiting list",
    "registration.promoted": "Moved up from the waiting list",
    "registration.withdrawn": "Withdrawn",
    "registration.invited": "Invited by staff (the player's record is linked to an account)",
    "registration.accepted": "Invitation accepted by the player",
    "registration.declined": "Invitation declined by the player",
    "registration.invitation_withdrawn": "Invitation withdrawn by staff",
    "registration.checked_in": "Checked in",
    "registration.checked_out": "Checked out",
    "registration.dropped": "Dropped",
    "registration.undropped": "Drop undone",
    "registration.fixed_table": "Fixed table changed",
    "bye.assigned": "Bye assigned",
    "bye.unassigned": "Bye taken back",
    "player.claim_code": "Claim code made",
    "player.claimed": "Player record claimed",
    "round.started": "Round paired",
    "round.repaired": "Round re-paired",
    "round.swapped": "Players swapped",
    "top_cut.started": "Top cut started",
    "result.entered": "Result entered by staff",
    "result.reported": "Result reported by a player",
    "result.agreed": "Report confirmed by a player",
    "result.confirmed": "Result final: every player confirmed",
    "result.disputed": "Report disputed",
    "result.settled": "Result settled by staff",
    "result.corrected": "Result corrected",
    "staff.added": "Staff added",
    "staff.changed": "Staff role changed",
    "staff.removed": "Staff removed",
    "deck.submitted": "Deck submitted",
    "deck.overridden": "Deck ruled on",
    "deck.override_cleared": "Deck ruling cleared",
    "decks.rechecked": "Every deck re-checked",
    "decks.published": "Decklists published or hidden",
    "decks.options_changed": "Deck options changed",
    "penalty.issued": "Penalty given",
    "penalty.rescinded": "Penalty rescinded",
}

_FIELD_NAMES = {"late_entry_round": "late entry from round", "dropped_after_round": "dropped after round"}


def _is_outcome(value: Any) -> bool:
    return isinstance(value, dict) and "placements" in value


def _is_pairing(value: Any) -> bool:
    return isinstance(value, dict) and "tables" in value and "seed" in value


def _audit_player_ids(value: Any) -> set[int]:
    ids: set[int] = set()
    if _is_outcome(value):
        ids.update(int(pid) for pid in value["placements"])
    if isinstance(value, dict):
        for key in ("reported", "says"):
            ids |= _audit_player_ids(value.get(key))
    return ids


def _plain_value(key: str, value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key == "status" and value in Registration.Status.values:
        return Registration.Status(value).label.lower()
    if key == "role" and value in ROLE_NAMES:
        return ROLE_NAMES[value]
    if isinstance(value, list):
        return ", ".join(_plain_value(key, v) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_plain_value(k, v)}" for k, v in value.items()) or "none"
    return str(value)


def _pairing_words(facts: dict) -> str:
    tables = facts.get("tables") or {}
    played = sum(1 for key in tables if key != "bye")
    byes = len(tables.get("bye", []))
    return (
        f"{played} table{'s' if played != 1 else ''}"
        + (f", {byes} bye{'s' if byes != 1 else ''}" if byes else "")
        + (f", seed {facts['seed']}" if facts.get("seed") else "")
    )


def _outcome_text(outcome: dict, names: Mapping[int, str]) -> str:
    return outcome_words(outcome["placements"], outcome.get("games"), outcome.get("intentional_draw", False), names)


def _penalty_words(facts: dict) -> str:
    """A penalty in words: "Warning for Drawing extra cards, round 2"."""
    kind = facts.get("penalty")
    name = Penalty.Kind(kind).label if kind in Penalty.Kind.values else str(kind)
    when = f"round {facts['round']}" if facts.get("round") else "before round 1"
    return f"{name} for {facts.get('infraction', '')}, {when}"


def _audit_change(entry: AuditEntry, names: Mapping[int, str]) -> list[str]:
    """An entry's before and after in words: the lines the audit page shows."""
    before, after = entry.before, entry.after
    if entry.action.startswith("penalty.") and isinstance(after, dict):
        lines = [_penalty_words(after)]
        if entry.action == "penalty.issued" and after.get("note"):
            lines.append(f"note: {after['note']}")
        return lines
    if entry.action == "result.disputed":
        reported, says = (before or {}).get("reported"), (after or {}).get("says")
        lines = [f"reported: {_outcome_text(reported, names)}"] if _is_outcome(reported) else []
        lines.append(f"says: {_outcome_text(says, names)}" if _is_outcome(says) else "says it is wrong")
        return lines
    if _is_outcome(before) or _is_outcome(after):
        lines = [" → ".join(_outcome_text(v, names) for v in (before, after) if _is_outcome(v))]
        later = (after or {}).get("rounds_paired_since")
        if later:
            lines.append(_kept_as_paired(later))
        return lines
    if _is_pairing(before) or _is_pairing(after):
        return [" → ".join(_pairing_words(v) for v in (before, after) if _is_pairing(v))]
    if not isinstance(before, dict) and not isinstance(after, dict):
        return [" → ".join(_plain_value("", v) for v in (before, after) if v is not None)] if before or after else []
    before, after = before if isinstance(before, dict) else {}, after if isinstance(after, dict) else {}
    lines = []
    for key in list(before) + [k for k in after if k not in before]:
        field = _FIELD_NAMES.get(key, key.replace("_", " "))
        if key in before and key in after:
            if before[key] != after[key]:
                lines.append(f"{field}: {_plain_value(key, before[key])} → {_plain_value(key, after[key])}")
        elif key in after:
            if after[key] not in (None, False, "", [], {}):  # what a new record leaves unset goes unsaid
                lines.append(f"{field}: {_plain_value(key, after[key])}")
        else:
            lines.append(f"{field}: was {_plain_value(key, before[key])}")
    return lines


@login_required
def event_audit(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event's audit trail, newest first, a page at a time, optionally of one kind."""
    event = _managed_event(request, event_id, Action.READ_AUDIT)
    kind = request.GET.get("kind", "")
    if kind not in people_selectors.AUDIT_KINDS:
        kind = ""
    paginator = Paginator(people_selectors.event_audit_of_kind(event=event, kind=kind or None), AUDIT_PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    entries = list(page.object_list)
    ids = (
        set().union(*(_audit_player_ids(e.before) | _audit_player_ids(e.after) for e in entries)) if entries else set()
    )
    players = people_selectors.players_by_id(ids=ids)
    namesakes = people_selectors.event_namesakes(event=event)
    names = {pid: shown_name(player, namesakes) for pid, player in players.items()}
    rows = [
        {
            "entry": entry,
            "what": AUDIT_ACTION_NAMES.get(entry.action, entry.action.replace(".", " ").replace("_", " ").capitalize()),
            "change": _audit_change(entry, names),
        }
        for entry in entries
    ]
    context = {
        "event": event,
        "may": _may(request.user, event),
        "rows": rows,
        "page": page,
        "kind": kind,
        "kinds": list(AUDIT_KIND_NAMES.items()),
        "query": f"kind={kind}&" if kind else "",
    }
    return render(request, "dashboard/event_audit.html", context)


# --- public pages ---------------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    events = selectors.events_by_status(limit=HOME_EVENTS)
    return render(request, "public/home.html", {"events": events})


def format_rules(request: HttpRequest, slug: str) -> HttpResponse:
    """A format's options and its interpretations: the rulebook's text, Podium's choice, the option."""
    try:
        fmt = get_format(slug)
    except UnknownFormat:
        raise Http404(f"No format {slug!r}.") from None
    options = [
        {
            "option": o,
            "values": "the name of an imported banlist" if o.named
            else "; ".join(o.describe(v) for v in o.choices) if o.choices else f"{o.minimum} to {o.maximum}",
            "default": "the newest imported list" if o.named else o.describe(o.default),
        }
        for o in fmt.options
    ]  # fmt: skip
    return render(request, "public/format_rules.html", {"fmt": fmt, "options": options})


def _public_event_round(request: HttpRequest, event_id: int):
    event = get_object_or_404(selectors.events_with_organiser(), pk=event_id)
    number = request.GET.get("round")
    round_ = None
    if number and number.isdigit():
        round_ = selectors.round_get(event=event, number=int(number))
    if round_ is None:
        round_ = selectors.event_latest_round(event=event)
    return event, round_


def public_event(request: HttpRequest, event_id: int) -> HttpResponse:
    event, round_ = _public_event_round(request, event_id)
    context = _round_context(event, round_, manage=False)
    standings = selectors.standings_read(event=event)
    bracket = selectors.top_cut_bracket(event=event)
    context.update(
        final_placements=bracket.placements if bracket else [],
        standings=standings.rows,
        standings_current=standings.current,
        namesakes=people_selectors.event_namesakes(event=event),
        rounds=selectors.event_round_numbers(event=event),
        can_manage=policy.can_manage_event(request.user, event),
        my_registration=people_selectors.registration_of_user(event=event, user=request.user)
        if request.user.is_authenticated
        else None,
        decklists=people_selectors.registrations_with_decklist(event=event) if event.decklists_public else [],
    )
    return render(request, "public/event.html", context)


def public_pairings(request: HttpRequest, event_id: int) -> HttpResponse:
    event, round_ = _public_event_round(request, event_id)
    context = _round_context(event, round_, manage=False)
    context["rounds"] = selectors.event_round_numbers(event=event)
    context["namesakes"] = _seated_namesakes(context["tables"])
    return render(request, "public/pairings.html", context)


def _seated_namesakes(tables) -> frozenset[int]:
    """Players of these tables who share their name with another of them (the pages add their player ID)."""
    return people_selectors.namesakes_of(s.player for t in tables for s in t["seats"])


def public_pairings_by_name(request: HttpRequest, event_id: int) -> HttpResponse:
    event, round_ = _public_event_round(request, event_id)
    rows = selectors.round_pairings_by_name(round_=round_) if round_ else []
    rounds = selectors.event_round_numbers(event=event)
    player = request.GET.get("player", "")
    context = {
        "event": event,
        "round": round_,
        "round_label": selectors.round_label(round_=round_) if round_ else "",
        "rows": rows,
        "rounds": rounds,
        "highlight": int(player) if player.isdigit() else None,
    }
    return render(request, "public/pairings_by_name.html", context)


def public_standings(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(selectors.events(), pk=event_id)
    standings = selectors.standings_read(event=event)
    template = "public/_standings_table.html" if request.htmx else "public/standings.html"
    context = {
        "event": event,
        "standings": standings.rows,
        "standings_current": standings.current,
        "namesakes": people_selectors.event_namesakes(event=event),
    }
    return render(request, template, context)
