"""The venue floor's pages: the judges' queue (phone first), the deck-check log, a player's call button.

The judges' page follows the event's staff stream (:mod:`live.streams`): each change of a call fetches the queue
again (``?fragment=1``).  Every form also works without JavaScript: it posts, and the page comes back (a refusal
is written at its call, with 400).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from core.doorway import enter
from core.exceptions import ApplicationError
from core.exports import csv_response
from core.htmx import HtmxHttpRequest
from core.language import in_sentence
from floor import doors as floor_doors
from floor import selectors, services
from floor.models import DeckCheck, JudgeCall
from live import selectors as live_selectors
from live.services import MAX_EXTRA_MINUTES
from tournaments import doors, policy
from tournaments import selectors as tournament_selectors
from tournaments.models import Event
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors


def _number(raw: str | None, *, field: str, label: str, required: bool = True, maximum: int = 100_000) -> int | None:
    raw = (raw or "").strip()
    if not raw and not required:
        return None
    if not raw.isdigit() or len(raw) > 9 or not 1 <= int(raw) <= maximum:
        raise ApplicationError(
            _("%(label)s: a whole number from 1 to %(maximum)s.") % {"label": label, "maximum": maximum}, field=field
        )
    return int(raw)


def penalty_link(event: Event, *, registration_id: int | None, round_number: int, infraction: str = "") -> str:
    """The penalty form, filled in for a player of the event in a round."""
    query = {"round": round_number, "infraction": infraction}
    if registration_id is not None:
        query["registration"] = registration_id
    return reverse("dashboard:event-penalties", args=[event.pk]) + "?" + urlencode(query) + "#give-heading"


@dataclass
class CallRow:
    call: JudgeCall
    players: list[dict[str, Any]]
    mine: bool
    game_url: str | None
    error: str = ""
    typed_note: str = ""


def _registrations(event: Event) -> dict[int, int]:
    """``{player id: registration id}`` of the event."""
    return {r.player_id: r.pk for r in tournament_selectors.event_registrations(event=event, invitations=False)}


def _call_rows(event: Event, calls: list[JudgeCall], mine: frozenset[int], errors: dict[int, tuple[str, str]]):
    registrations = _registrations(event) if calls else {}
    rows = []
    for call in calls:
        players = [
            {"name": seat.player.display_name, "id": seat.player_id,
             "penalty_url": penalty_link(event, registration_id=registrations.get(seat.player_id),
                                         round_number=call.round_number)}
            for seat in call.pod.seats.all()
        ]  # fmt: skip
        game_url = (
            reverse("games:console-table", args=[event.pk, call.round_number, call.table_number])
            if selectors.table_has_games(pod=call.pod)
            else None
        )
        error, typed = errors.get(call.pk, ("", ""))
        rows.append(CallRow(call, players, call.pk in mine, game_url, error, typed))
    return rows


def _judges(event: Event) -> list[Any]:
    """The accounts that answer judge calls at the event: its organiser and its staff who may."""
    people = {event.organiser_id: event.organiser} if event.organiser_id else {}
    for staff in people_selectors.event_staff(event=event):
        people.setdefault(staff.user_id, staff.user)
    return sorted(
        (u for u in people.values() if policy.can(u, Action.ANSWER_JUDGE_CALLS, event)), key=lambda u: u.username
    )


def _judge_page(
    request: HtmxHttpRequest,
    event: Event,
    *,
    errors: dict[int, tuple[str, str]] | None = None,
    form_error: tuple[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    queue = selectors.judge_queue(event=event, judge=request.user)
    context: dict[str, Any] = {
        "event": event,
        "may": policy.may(request.user, event),
        "live_rows": _call_rows(event, queue.live, queue.mine, errors or {}),
        "closed_rows": _call_rows(event, queue.closed, frozenset(), {}),
        "max_minutes": MAX_EXTRA_MINUTES,
        "seq": live_selectors.last_seq(event_id=event.pk),
    }
    if request.GET.get("fragment"):
        return render(request, "floor/_queue.html", context, status=status)
    context.update(
        my_tables=selectors.judge_assignments(event=event, judge=request.user),
        assignments=list(selectors.event_assignments(event=event)),
        judges=_judges(event) if context["may"][Action.ASSIGN_JUDGES] else [],
        form_error=form_error,
        round=selectors.current_round(event=event),
        typed=request.POST,
    )
    return render(request, "floor/judge.html", context, status=status)


_JUDGE_DOOR = doors.event(Action.ANSWER_JUDGE_CALLS)


@login_required
def judge_page(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The judges' queue of the event, phone first: calls waiting and claimed (your tables' first), the last ones
    closed, your tables, and (for those who may) who watches which tables."""
    event = enter(request, _JUDGE_DOOR, event_id)
    return _judge_page(request, event)


def _back(event: Event, call_id: int | None = None) -> HttpResponse:
    return redirect(reverse("floor:judge", args=[event.pk]) + (f"#call-{call_id}" if call_id else ""))


@login_required
@require_POST
def judge_call_open(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """Staff open a call for a table of the current round."""
    event = enter(request, _JUDGE_DOOR, event_id)
    try:
        table = _number(request.POST.get("table"), field="table", label=_("Table"))
        call = services.judge_call_open(
            event=event, by=request.user, table=table, reason=request.POST.get("reason", "")
        )
    except ApplicationError as exc:
        return _judge_page(request, event, form_error=("call", exc.message), status=400)
    messages.success(request, _("Table %(table)s is in the queue.") % {"table": call.table_number})
    return _back(event, call.pk)


@login_required
@require_POST
def judge_call_action(request: HtmxHttpRequest, event_id: int, call_id: int, action: str) -> HttpResponse:
    """Claim, resolve (with a note, and extra time) or cancel a call; a refusal is written at the call."""
    event = enter(request, _JUDGE_DOOR, event_id)
    call = enter(request, floor_doors.CALL, event, call_id)
    note = request.POST.get("note", "")
    try:
        if action == "claim":
            services.judge_call_claim(call=call, by=request.user)
            done = _("You have table %(table)s's call.") % {"table": call.table_number}
        elif action == "resolve":
            minutes = _number(
                request.POST.get("minutes"), field="minutes", label=_("Extra minutes"), required=False,
                maximum=MAX_EXTRA_MINUTES,
            )  # fmt: skip
            services.judge_call_resolve(call=call, by=request.user, note=note, minutes=minutes)
            done = (
                _("Table %(table)s's call is resolved, +%(minutes)s min.")
                % {"table": call.table_number, "minutes": minutes}
                if minutes
                else _("Table %(table)s's call is resolved.") % {"table": call.table_number}
            )
        else:  # "cancel": the URL takes no other action
            services.judge_call_cancel(call=call, by=request.user, reason=note)
            done = _("Table %(table)s's call is cancelled.") % {"table": call.table_number}
    except ApplicationError as exc:
        return _judge_page(request, event, errors={call.pk: (exc.message, note[:2000])}, status=400)
    messages.success(request, done)
    return _back(event, call.pk)


@login_required
@require_POST
def judge_assign(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.event(Action.ASSIGN_JUDGES), event_id)
    try:
        first = _number(request.POST.get("first_table"), field="first_table", label=_("First table"))
        assert first is not None
        assignment = services.judge_assign(
            event=event, by=request.user, judge=request.POST.get("judge", ""), first_table=first,
            last_table=_number(request.POST.get("last_table"), field="last_table", label=_("Last table"), required=False),
            round_number=_number(request.POST.get("round"), field="round", label=pgettext("noun", "Round"), required=False,
                                 maximum=32767),
        )  # fmt: skip
    except ApplicationError as exc:
        return _judge_page(request, event, form_error=("assign", exc.message), status=400)
    messages.success(
        request,
        _("%(judge)s: %(tables)s.") % {"judge": assignment.judge.username, "tables": in_sentence(assignment.tables_label)},
    )
    return redirect(reverse("floor:judge", args=[event.pk]) + "#assignments")


@login_required
@require_POST
def judge_unassign(request: HtmxHttpRequest, event_id: int, assignment_id: int) -> HttpResponse:
    event = enter(request, doors.event(Action.ASSIGN_JUDGES), event_id)
    assignment = enter(request, floor_doors.ASSIGNMENT, event, assignment_id)
    services.judge_unassign(assignment=assignment, by=request.user)
    messages.success(
        request,
        _("%(judge)s is off %(tables)s.")
        % {"judge": assignment.judge.username, "tables": in_sentence(assignment.tables_label)},
    )
    return redirect(reverse("floor:judge", args=[event.pk]) + "#assignments")


# --- the player's button -----------------------------------------------------------------------------------------


def _next(request: HtmxHttpRequest, event: Event) -> str:
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return reverse("public:event", args=[event.pk])


def _player_box(request: HtmxHttpRequest, event: Event, *, error: str = "", status: int = 200) -> HttpResponse:
    player = tournament_selectors.player_of(request.user)
    pod = selectors.player_table(event=event, player=player) if player is not None else None
    call = selectors.table_call(pod_id=pod.pk) if pod is not None else None
    context = {"event": event, "judge_call": call, "call_error": error, "next": _next(request, event), "table": pod}
    return render(request, "floor/_player_call.html", context, status=status)


@login_required
@require_POST
def player_call(request: HtmxHttpRequest, event_id: int, action: str) -> HttpResponse:
    """A player calls a judge to their own table of the current round, or cancels the call.  htmx swaps the box in
    (a refusal with 422); without JavaScript the page the player came from comes back (the refusal as a message)."""
    event = enter(request, doors.EVENT, event_id)
    try:
        if action == "call":
            services.judge_call_open(event=event, by=request.user, reason=request.POST.get("reason", ""))
        else:  # "cancel": the URL takes no other action
            call = enter(
                request, floor_doors.CALL, event, _number(request.POST.get("call"), field="call", label=_("Call"))
            )
            services.judge_call_cancel(call=call, by=request.user)
    except ApplicationError as exc:
        if request.htmx:
            return _player_box(request, event, error=exc.message, status=422)
        messages.error(request, exc.message)
        return redirect(_next(request, event))
    if request.htmx:
        return _player_box(request, event)
    messages.success(
        request, _("A judge is called to your table.") if action == "call" else _("Your call is cancelled.")
    )
    return redirect(_next(request, event))


# --- deck checks -------------------------------------------------------------------------------------------------


def _tables(raw: str) -> list[int]:
    parts = [p for p in raw.replace(",", " ").split() if p]
    if not parts or not all(p.isdigit() and len(p) < 7 and int(p) >= 1 for p in parts):
        raise ApplicationError(_("Give table numbers, such as 3, 7, 12."), field="tables")
    return [int(p) for p in parts]


@dataclass
class CheckRow:
    check: DeckCheck
    players: list[dict[str, Any]]
    unlinked: list[Any]
    error: str = ""


def _deck_checks_page(
    request: HtmxHttpRequest,
    event: Event,
    *,
    errors: dict[int, str] | None = None,
    form_error: str = "",
    status: int = 200,
) -> HttpResponse:
    checks = list(selectors.event_deck_checks(event=event))
    registrations = _registrations(event) if checks else {}
    rows = []
    for check in checks:
        linked = {p.pk for p in check.penalties.all()}
        players = [
            {"name": seat.player.display_name,
             "penalty_url": penalty_link(event, registration_id=registrations.get(seat.player_id),
                                         round_number=check.round_number, infraction="Deck problem")}
            for seat in check.pod.seats.all()
        ]  # fmt: skip
        unlinked = (
            [p for p in selectors.table_penalties(event=event, pod=check.pod, round_number=check.round_number)
             if p.pk not in linked]
            if check.outcome == DeckCheck.Outcome.PROBLEM
            else []
        )  # fmt: skip
        rows.append(CheckRow(check, players, unlinked, (errors or {}).get(check.pk, "")))
    context = {
        "event": event,
        "may": policy.may(request.user, event),
        "rows": rows,
        "round": selectors.current_round(event=event),
        "form_error": form_error,
        "typed": request.POST,
        "max_minutes": MAX_EXTRA_MINUTES,
        "finished": event.status == Event.Status.FINISHED,
    }
    return render(request, "floor/deck_checks.html", context, status=status)


@login_required
def deck_checks(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The event's deck-check log (its staff), and picking tables for the judges who run deck checks."""
    event = enter(request, doors.event(), event_id)
    if request.method != "POST":
        return _deck_checks_page(request, event)
    event = enter(request, doors.event(Action.RUN_DECK_CHECKS), event_id)
    try:
        if request.POST.get("how") == "random":
            count = _number(request.POST.get("count"), field="count", label=_("How many"), maximum=services.MAX_PICK)
            seed_raw = request.POST.get("seed", "").strip()
            if seed_raw and (not seed_raw.isdigit() or int(seed_raw) > services.MAX_SEED):
                raise ApplicationError(
                    _("A seed is a whole number from 0 to %(most)s.") % {"most": services.MAX_SEED}, field="seed"
                )
            checks, draw = services.deck_checks_pick(
                event=event, by=request.user, count=count, seed=int(seed_raw) if seed_raw else None
            )
        else:
            checks, draw = services.deck_checks_pick(
                event=event, by=request.user, tables=_tables(request.POST.get("tables", ""))
            )
    except ApplicationError as exc:
        return _deck_checks_page(request, event, form_error=exc.message, status=400)
    tables = ", ".join(str(c.table_number) for c in checks)
    if draw is not None:
        done = _("Deck checks: table %(tables)s (drawn with seed %(seed)s).") % {"tables": tables, "seed": draw.seed}
    else:
        done = _("Deck checks: table %(tables)s.") % {"tables": tables}
    messages.success(request, done)
    return redirect("floor:deck-checks", event_id=event.pk)


@login_required
@require_POST
def deck_check_action(request: HtmxHttpRequest, event_id: int, check_id: int, action: str) -> HttpResponse:
    """Start a check, record its end and outcome (with extra time), or link a penalty to it."""
    event = enter(request, doors.event(Action.RUN_DECK_CHECKS), event_id)
    check = enter(request, floor_doors.DECK_CHECK, event, check_id)
    try:
        if action == "start":
            services.deck_check_start(check=check, by=request.user)
            done = _("Deck check of table %(table)s started.") % {"table": check.table_number}
        elif action == "finish":
            minutes = _number(
                request.POST.get("minutes"), field="minutes", label=_("Extra minutes"), required=False,
                maximum=MAX_EXTRA_MINUTES,
            )  # fmt: skip
            services.deck_check_finish(
                check=check, by=request.user, outcome=request.POST.get("outcome", ""), note=request.POST.get("note", ""),
                minutes=minutes,
            )  # fmt: skip
            done = _("Deck check of table %(table)s recorded.") % {"table": check.table_number}
        else:  # "penalty": the URL takes no other action
            penalty = _number(request.POST.get("penalty"), field="penalty", label=_("Penalty"), maximum=2**63 - 1)
            assert penalty is not None
            services.deck_check_penalty_link(check=check, by=request.user, penalty_id=penalty)
            done = _("Penalty linked.")
    except ApplicationError as exc:
        return _deck_checks_page(request, event, errors={check.pk: exc.message}, status=400)
    messages.success(request, done)
    return redirect(reverse("floor:deck-checks", args=[event.pk]) + f"#check-{check.pk}")


@login_required
def deck_checks_export(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The deck-check log as CSV (core.exports: formulas neutralised)."""
    event = enter(request, doors.event(), event_id)
    header = ["round", "table", "players", "picked", "seed", "started", "ended", "outcome", "note", "judge",
              "extra minutes", "penalties"]  # fmt: skip
    rows = [
        [c.round_number, c.table_number, "; ".join(s.player.display_name for s in c.pod.seats.all()),
         "at random" if c.draw_id else "by hand", c.draw.seed if c.draw else "",
         c.started_at.isoformat() if c.started_at else "", c.ended_at.isoformat() if c.ended_at else "",
         c.outcome, c.note, c.judge.username if c.judge else "",
         c.extension.seconds // 60 if c.extension else "",
         "; ".join(f"{p.get_penalty_display()}: {p.registration.player.display_name}" for p in c.penalties.all())]
        for c in selectors.event_deck_checks(event=event)
    ]  # fmt: skip
    return csv_response(f"event-{event.pk}-deck-checks.csv", header, rows)
