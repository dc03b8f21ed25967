"""Event staff: the organiser gives users a role at one event (co-organiser, scorekeeper, judge, caster).

What each role may do is decided in :mod:`tournaments.policy`; here are the
changes to who holds which role, each recorded in the audit trail.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from core import events
from core.domain_actions import DomainAction
from core.exceptions import ApplicationError, Conflict, NotFound
from tournaments.models import Event, EventStaff
from tournaments.policy import Action, ensure, forget_roles, is_organiser
from tournaments.services._common import locked_event


def _user(username: str):
    user = get_user_model().objects.filter(username__iexact=(username or "").strip()).first()
    if user is None:
        raise NotFound(
            _("No account is called '%(username)s'.") % {"username": username}, code="unknown_user", field="user"
        )
    return user


def staff_add(*, event: Event, username: str, role: str, by) -> EventStaff:
    """Give the account ``username`` a role at the event (or change the role it has)."""
    ensure(by, Action.MANAGE_STAFF, event)
    if role not in EventStaff.Role.values:
        raise ApplicationError(
            _("Unknown role '%(role)s': choose %(roles)s.")
            % {"role": role, "roles": ", ".join(EventStaff.Role.values)},
            code="invalid",
            field="role",
        )
    user = _user(username)
    with transaction.atomic():
        event = locked_event(event.pk)
        if is_organiser(user, event):
            raise Conflict(_("The organiser already runs this event."), code="already_organiser", field="user")
        staff = EventStaff.objects.select_for_update(of=("self",)).filter(event=event, user=user).first()
        before = {"role": staff.role} if staff else None
        if staff is None:
            staff = EventStaff.objects.create(event=event, user=user, role=role, added_by=by)
        elif staff.role != role:
            staff.role = role
            staff.save(update_fields=["role"])
        else:
            return staff
        events.record(
            event=event, by=by, action=DomainAction.STAFF_ADDED if before is None else DomainAction.STAFF_CHANGED,
            subject=user.get_username(), before=before, after={"role": role},
        )  # fmt: skip
    forget_roles(user)
    return staff


def staff_remove(*, event: Event, username: str, by) -> None:
    ensure(by, Action.MANAGE_STAFF, event)
    user = _user(username)
    with transaction.atomic():
        event = locked_event(event.pk)
        staff = EventStaff.objects.filter(event=event, user=user).first()
        if staff is None:
            raise NotFound(
                _("%(user)s has no role at this event.") % {"user": user.get_username()}, code="not_staff", field="user"
            )
        role = staff.role
        staff.delete()
        events.record(
            event=event, by=by, action=DomainAction.STAFF_REMOVED, subject=user.get_username(), before={"role": role}
        )
    forget_roles(user)
