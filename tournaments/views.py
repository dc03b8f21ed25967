"""Server-rendered pages: the organiser's dashboard and the public pairings and standings.

Views translate a request into one service call or selector and render the
answer; a service refusal becomes a form error or a message, never a 500.
htmx requests get the fragment they swap instead of the whole page; a form
with errors comes back with HTTP 422, which ``base.html`` tells htmx to swap
like a success, so the error shows where the organiser is working.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from core.exceptions import ApplicationError
from core.exceptions import PermissionDenied as ServicePermissionDenied
from tournaments import policy, selectors, services
from tournaments.forms import EventForm, EventSettingsForm, RegistrationForm, ResultForm, SwapForm
from tournaments.models import Event, Pod, PodResult, Registration, Round


def _managed_event(request: HttpRequest, event_id: int) -> Event:
    event = get_object_or_404(Event.objects.select_related("organiser"), pk=event_id)
    if not policy.can_manage_event(request.user, event):
        raise DjangoPermissionDenied("Only the event's organiser or staff may manage this event.")
    return event


def _round_context(event: Event, round_, *, manage: bool) -> dict:
    pods = selectors.round_pods(round_=round_) if round_ else []
    cut = bool(round_ and round_.stage == Round.Stage.TOP_CUT)
    tables = []
    for pod in pods:
        seats = list(pod.seats.all())
        form = _result_form(pod, seats, cut=cut) if manage and not pod.is_bye else None
        tables.append({"pod": pod, "seats": seats, "form": form, "reported": hasattr(pod, "result")})
    missing = sum(1 for t in tables if not t["reported"])
    label = selectors.round_label(round_=round_, tables=sum(1 for p in pods if not p.is_bye)) if round_ else ""
    return {"event": event, "round": round_, "round_label": label, "tables": tables, "missing": missing}


def _result_form(pod: Pod, seats, *, cut: bool, data=None) -> ResultForm:
    # Every table's form is on one page: prefix the ids so each label points at its own field.
    return ResultForm(data, seats=seats, cut=cut, auto_id=f"table{pod.pk}_%s")


def _tables_to_report(round_: Round) -> int:
    return round_.pods.filter(is_bye=False, result__isnull=True).count()


# --- dashboard ------------------------------------------------------------------------------


@login_required
def event_list(request: HttpRequest) -> HttpResponse:
    events = selectors.event_list(user=request.user, mine=True)
    return render(request, "dashboard/event_list.html", {"events": events})


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
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


def _players_context(event: Event, form: RegistrationForm) -> dict:
    registrations = list(selectors.event_registrations(event=event))
    return {
        "event": event,
        "registrations": registrations,
        "registration_form": form,
        "next_round": selectors.next_round_number(event),
        **_players_count(registrations),
    }


def _players_count(registrations: list[Registration]) -> dict:
    active = sum(1 for r in registrations if r.checked_in and not r.dropped)
    return {"active_count": active, "registration_count": len(registrations)}


@login_required
def event_detail(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _managed_event(request, event_id)
    latest = selectors.event_latest_round(event=event)
    context = _round_context(event, latest, manage=True)
    operations = selectors.round_operations(event=event, latest=latest, tables=context["tables"])
    seated = sorted(
        ((s.player_id, s.player.display_name) for t in context["tables"] for s in t["seats"]),
        key=lambda p: p[1].casefold(),
    )
    # Right after a registration without JavaScript, the name field takes the focus again.
    focus = request.session.pop(f"registered_{event.pk}", False)
    context.update(_players_context(event, RegistrationForm(focus=focus)))
    context.update(
        standings=list(selectors.event_standings(event=event)[:8]),
        structure=selectors.event_structure(event=event),
        next_round=(latest.number if latest else 0) + 1,
        in_cut=operations.in_cut,
        cut_final=operations.cut_final,
        can_start_cut=operations.can_start_cut,
        can_change_round=operations.can_repair,
        can_swap=operations.can_swap,
        seated_players=seated,
        rematch_prompt=request.session.pop(f"rematch_prompt_{event.pk}", None),
    )  # fmt: skip
    return render(request, "dashboard/event_detail.html", context)


@login_required
def event_standings(request: HttpRequest, event_id: int) -> HttpResponse:
    """The dashboard's standings card alone: it asks again while the standings are being computed."""
    event = _managed_event(request, event_id)
    standings = list(selectors.event_standings(event=event)[:8])
    return render(request, "dashboard/_standings.html", {"event": event, "standings": standings})


@login_required
def event_settings(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _managed_event(request, event_id)
    form = EventSettingsForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid():
        try:
            services.event_update(event=event, by=request.user, **form.changes())
        except ApplicationError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, "Settings saved.")
            return redirect("dashboard:event-detail", event_id=event.pk)
    return render(
        request, "dashboard/event_settings.html", {"event": event, "form": form}, status=400 if form.errors else 200
    )


@login_required
@require_POST
def registration_add(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _managed_event(request, event_id)
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
        # The rows come back with the count, the error line and the news for the live region; the form on
        # the page is left alone (it keeps the focus and what was typed, and empties itself on success).
        context = _players_context(event, form)
        context.update(registration_error=error, registered=registration)
        return render(request, "dashboard/_players_response.html", context, status=422 if error else 200)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, f"Registered {registration.player}.")
        request.session[f"registered_{event.pk}"] = True
    return redirect(reverse("dashboard:event-detail", args=[event.pk]) + "#players")


def _registration_action(request: HttpRequest, event_id: int, registration_id: int, action) -> HttpResponse:
    event = _managed_event(request, event_id)
    registration = get_object_or_404(
        Registration.objects.select_related("player", "event"), pk=registration_id, event=event
    )
    try:
        registration = action(registration)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    if request.htmx:
        # The row, and the players card's count (out of band): checking in or dropping changes it.
        context = {"r": registration, "event": event, "next_round": selectors.next_round_number(event)}
        context.update(_players_count(list(selectors.event_registrations(event=event))), oob_count=True)
        return render(request, "dashboard/_registration_row.html", context)
    return redirect("dashboard:event-detail", event_id=event.pk)


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
    event = _managed_event(request, event_id)
    return _pair(
        request, event, lambda allow: services.round_start(event=event, by=request.user, allow_rematches=allow)
    )


@login_required
@require_POST
def round_repair(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    event = _managed_event(request, event_id)
    return _pair(
        request,
        event,
        lambda allow: services.round_repair(event=event, round_number=number, by=request.user, allow_rematches=allow),
    )


@login_required
@require_POST
def round_swap(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    event = _managed_event(request, event_id)
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
    event = _managed_event(request, event_id)
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
@require_POST
def registration_fixed_table(request: HttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    value = request.POST.get("fixed_table", "").strip()
    if value and not value.isdigit():
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
        messages.error(request, "Choose the round of the bye.")
        return redirect("dashboard:event-detail", event_id=event_id)

    def action(r: Registration) -> Registration:
        if remove:
            services.bye_unassign(registration=r, round_number=int(number), by=request.user)
        else:
            services.bye_assign(registration=r, round_number=int(number), by=request.user)
        return Registration.objects.select_related("player", "event").prefetch_related("bye_assignments").get(pk=r.pk)

    return _registration_action(request, event_id, registration_id, action)


@login_required
def event_finish(request: HttpRequest, event_id: int) -> HttpResponse:
    """Finishing is final, so it takes two steps: this page asks, and only its own form finishes."""
    event = _managed_event(request, event_id)
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
        "missing": _tables_to_report(latest) if latest else 0,
    }
    return render(request, "dashboard/event_finish.html", context)


@login_required
@require_POST
def result_report(request: HttpRequest, event_id: int, number: int, table: int) -> HttpResponse:
    event = _managed_event(request, event_id)
    pod = get_object_or_404(
        Pod.objects.select_related("round").prefetch_related("seats__player"),
        round__event=event,
        round__number=number,
        table_number=table,
    )
    seats = sorted(pod.seats.all(), key=lambda s: s.seat_order)
    cut = pod.round.stage == Round.Stage.TOP_CUT
    form = _result_form(pod, seats, cut=cut, data=request.POST)
    error = None
    if form.is_valid():
        try:
            services.pod_result_report(
                event=event,
                round_number=number,
                table_number=table,
                placements=form.placements(),
                by=request.user,
                source=PodResult.Source.DASHBOARD,
            )
        except (ApplicationError, ServicePermissionDenied) as exc:
            error = exc.message
    else:
        error = " ".join(form.non_field_errors()) or "Choose a placement for every player."
    if request.htmx:
        return _result_fragment(request, event, pod, form=form, error=error)
    if error:
        messages.error(request, f"Table {table}: {error}")
    else:
        messages.success(request, f"Recorded the result of table {table}.")
    return redirect("dashboard:event-detail", event_id=event.pk)


def _result_fragment(
    request: HttpRequest, event: Event, pod: Pod, *, form: ResultForm, error: str | None
) -> HttpResponse:
    """The table's card for htmx; after a result, also the round's count and the standings (out of band)."""
    pod = selectors.pod_detail(pod_id=pod.pk)
    seats = pod.seat_list
    cut = pod.round.stage == Round.Stage.TOP_CUT
    reported = hasattr(pod, "result")
    card = {
        "pod": pod,
        "seats": seats,
        "reported": reported,
        "form": form if error else _result_form(pod, seats, cut=cut),
    }
    context = {"event": event, "round": pod.round, "t": card, "error": error, "focus": True}
    if error:
        return render(request, "dashboard/_table_card.html", context, status=422)
    event.refresh_from_db(fields=["results_version", "standings_version", "status"])
    context.update(
        missing=_tables_to_report(pod.round),
        standings=list(selectors.event_standings(event=event)[:8]),
        announcement=f"Recorded the result of table {pod.table_number}.",
    )
    return render(request, "dashboard/_result.html", context)


# --- public pages ---------------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    events = selectors.event_list().order_by("status", "-date", "-id")[:100]
    return render(request, "public/home.html", {"events": events})


def _public_event_round(request: HttpRequest, event_id: int):
    event = get_object_or_404(Event.objects.select_related("organiser"), pk=event_id)
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
    context.update(
        standings=list(selectors.event_standings(event=event)),
        rounds=list(event.rounds.order_by("number").values_list("number", flat=True)),
        can_manage=policy.can_manage_event(request.user, event),
        my_registration=event.registrations.filter(player__user=request.user).first()
        if request.user.is_authenticated
        else None,
        decklists=list(event.registrations.select_related("player").filter(deck_versions__isnull=False).distinct())
        if event.decklists_public
        else [],
    )
    return render(request, "public/event.html", context)


def public_pairings(request: HttpRequest, event_id: int) -> HttpResponse:
    event, round_ = _public_event_round(request, event_id)
    context = _round_context(event, round_, manage=False)
    context["rounds"] = list(event.rounds.order_by("number").values_list("number", flat=True))
    return render(request, "public/pairings.html", context)


def public_pairings_by_name(request: HttpRequest, event_id: int) -> HttpResponse:
    event, round_ = _public_event_round(request, event_id)
    rows = selectors.round_pairings_by_name(round_=round_) if round_ else []
    rounds = list(event.rounds.order_by("number").values_list("number", flat=True))
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
    event = get_object_or_404(Event, pk=event_id)
    standings = list(selectors.event_standings(event=event))
    template = "public/_standings_table.html" if request.htmx else "public/standings.html"
    return render(request, template, {"event": event, "standings": standings})
