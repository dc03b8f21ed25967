"""The event's staff (accounts and their roles, with the policy's table of who may do what) and its penalties."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.http.request import QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from core.doorway import admit, enter
from core.exceptions import ApplicationError
from core.htmx import HtmxHttpRequest
from core.language import in_sentence
from tournaments import doors, policy, selectors
from tournaments.forms import PenaltyForm, RescindForm, StaffForm, shown_name
from tournaments.models import Event, EventStaff, Penalty, Registration
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors
from tournaments.services import penalties as penalty_services
from tournaments.services import staff as staff_services
from tournaments.views._common import _invalid

# --- staff ----------------------------------------------------------------------------------------


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
ROLE_NAMES = {policy.Role.ORGANISER.value: gettext_lazy("Organiser"), **dict(EventStaff.Role.choices)}


def _staff_page(
    request: HttpRequest,
    event: Event,
    form: StaffForm,
    *,
    row_errors: Mapping[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The staff page; ``row_errors`` are refused changes by (casefolded) username."""
    errors = dict(row_errors or {})
    # Each member with the error of a refused change to their row; one about another account shows above the list.
    staff = [
        (member, errors.pop(member.user.get_username().casefold(), None))
        for member in selectors.event_staff(event=event)
    ]
    context = {
        "event": event,
        "may": policy.may(request.user, event),
        "form": form,
        "staff": staff,
        "page_errors": list(errors.values()),
        "role_choices": EventStaff.Role.choices,
        "roles": [ROLE_NAMES[r.value] for r in STAFF_PAGE_ROLES],
        "roles_table": _roles_table(),
    }
    return render(request, "dashboard/event_staff.html", context, status=status)


@login_required
def event_staff(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The event's staff: add an account with a role, change a role (a row's form posts here too)."""
    event = enter(request, doors.event(Action.MANAGE_STAFF), event_id)
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
            messages.success(
                request,
                _("%(user)s is %(role)s at this event.")
                % {"user": staff.user.get_username(), "role": staff.get_role_display()},
            )
            return redirect("dashboard:event-staff", event_id=event.pk)
    return _staff_page(request, event, form, status=_invalid(request))


@login_required
@require_POST
def event_staff_remove(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.event(Action.MANAGE_STAFF), event_id)
    username = request.POST.get("username", "")
    try:
        staff_services.staff_remove(event=event, username=username, by=request.user)
    except ApplicationError as exc:
        return _staff_page(
            request, event, StaffForm(), row_errors={username.casefold(): exc.message}, status=_invalid(request)
        )
    messages.success(request, _("%(user)s is no longer on the staff of this event.") % {"user": username})
    return redirect("dashboard:event-staff", event_id=event.pk)


# --- penalties ------------------------------------------------------------------------------------


def _penalty_form(
    event: Event, namesakes: Collection[int], data: QueryDict | None = None, initial: Mapping[str, str] | None = None
) -> PenaltyForm:
    """The form to give a penalty: the event's registered players by name (dropped ones too, marked); ``initial``:
    what a link filled in (``?registration=&round=&infraction=``: a judge call, a deck check)."""
    registrations = [
        r for r in selectors.event_registrations(event=event) if r.status == Registration.Status.REGISTERED
    ]
    latest = selectors.event_latest_round(event=event)
    return PenaltyForm(
        data, registrations=registrations, namesakes=namesakes, current_round=latest.number if latest else None,
        initial={k: v[:200] for k, v in (initial or {}).items() if k in ("registration", "round", "infraction")},
    )  # fmt: skip


@dataclass(frozen=True)
class PenaltyRow:
    """A penalty on the penalties page: its player's name as shown, and a refused rescind's reason and error."""

    penalty: Penalty
    name: str
    rescind_text: str = ""
    rescind_error: str = ""


def _penalties_page(
    request: HttpRequest,
    event: Event,
    *,
    form: PenaltyForm | None = None,
    rescind: tuple[int, str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The penalties page; ``rescind`` is a refused rescind, ``(penalty id, what was typed, the error)``."""
    may = policy.may(request.user, event)
    namesakes = people_selectors.event_namesakes(event=event)
    open_ = event.status != Event.Status.FINISHED
    issuing = may[Action.ISSUE_PENALTIES] and open_
    if issuing and form is None:
        form = _penalty_form(event, namesakes, initial=request.GET)
    refused, typed, error = rescind or (None, "", "")
    penalties = [
        PenaltyRow(
            penalty,
            name=shown_name(penalty.registration.player, namesakes),
            rescind_text=typed if penalty.pk == refused else "",
            rescind_error=error if penalty.pk == refused else "",
        )
        for penalty in people_selectors.event_penalties(event=event)
    ]
    context = {
        "event": event,
        "may": may,
        "form": form if issuing or (form is not None and form.errors) else None,
        "may_rescind": issuing,
        "penalties": penalties,
        "in_force": sum(1 for row in penalties if not row.penalty.rescinded),
    }
    return render(request, "dashboard/event_penalties.html", context, status=status)


@login_required
def event_penalties(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The event's penalties, newest first, for its staff; organisers and judges give one here.

    A disqualification also drops the player; a refused penalty comes back as an error at its field.
    """
    event = enter(request, doors.event(), event_id)
    if request.method != "POST":
        return _penalties_page(request, event)
    admit(request, policy.refusal(request.user, event, Action.ISSUE_PENALTIES))
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
            said = {
                "penalty": given.get_penalty_display(),
                "player": given.registration.player,
                "infraction": given.infraction,
            }
            messages.success(
                request,
                _("%(penalty)s for %(player)s: %(infraction)s. They are dropped from the event.") % said
                if given.penalty == Penalty.Kind.DISQUALIFICATION
                else _("%(penalty)s for %(player)s: %(infraction)s.") % said,
            )
            return redirect("dashboard:event-penalties", event_id=event.pk)
    return _penalties_page(request, event, form=form, status=_invalid(request))


@login_required
@require_POST
def penalty_rescind(request: HtmxHttpRequest, event_id: int, penalty_id: int) -> HttpResponse:
    """Rescind a penalty with a reason: it stays on the list, marked; a refusal shows in its row."""
    event = enter(request, doors.event(Action.ISSUE_PENALTIES), event_id)
    penalty = enter(request, doors.PENALTY, event, penalty_id)
    form = RescindForm(request.POST)
    typed = request.POST.get("reason", "")[:1000]
    if not form.is_valid():
        error = " ".join(map(str, form.errors["reason"]))
    else:
        try:
            penalty_services.penalty_rescind(penalty=penalty, by=request.user, reason=form.cleaned_data["reason"])
        except ApplicationError as exc:
            error = exc.message
        else:
            messages.success(
                request,
                _("The %(penalty)s of %(player)s is rescinded.")
                % {"penalty": in_sentence(penalty.get_penalty_display()), "player": penalty.registration.player},
            )
            return redirect(reverse("dashboard:event-penalties", args=[event.pk]) + f"#penalty-{penalty.pk}")
    return _penalties_page(request, event, rescind=(penalty.pk, typed, error), status=_invalid(request))
