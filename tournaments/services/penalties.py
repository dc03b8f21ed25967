"""Penalties: a judge (or an organiser) gives a player a penalty for an infraction, and may rescind it.

Terms.  A *penalty* is one of the tournament rules' ladder (caution, warning,
prize penalty, game loss, match loss, disqualification), given to a player
registered at the event for an *infraction* ("Drawing extra cards"), in a
*round* (the current one unless the judge says otherwise; none before round 1).
A game or a match loss is recorded here and applied by entering the table's
result as it stands after the penalty; a *disqualification* also drops the
player from later rounds, through the same drop as any other (audited, the
standings asked for again).  *Rescinding* keeps the penalty, marked with who,
when and why; a rescinded disqualification leaves the player dropped (undoing
a drop is a registration correction, with its own reason).

Who may do it is :data:`~tournaments.policy.Action.ISSUE_PENALTIES`; both
changes are refused once the event is finished (``event_finished``), and both
are recorded in the audit trail (``penalty.issued``, ``penalty.rescinded``)
in their own transaction.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import events
from core.domain_actions import DomainAction
from core.exceptions import ApplicationError, Conflict
from core.language import in_sentence
from tournaments import audit, selectors
from tournaments.models import Event, Penalty, Registration
from tournaments.policy import Action, ensure
from tournaments.services._common import locked_event
from tournaments.services.registrations import drop_locked

#: The longest infraction and note the services keep (the database's own limit for the infraction).
INFRACTION_MAX = 200
NOTE_MAX = 2000
REASON_MAX = 1000


def _facts(penalty: Penalty) -> dict[str, Any]:
    """What the audit trail keeps of a penalty."""
    return {
        "id": penalty.pk,
        "penalty": penalty.penalty,
        "infraction": penalty.infraction,
        "round": penalty.round_number,
        "note": penalty.note,
        "rescinded": penalty.rescinded,
    }


def _open(event: Event) -> None:
    if event.status == Event.Status.FINISHED:
        raise Conflict(_("The event is finished: its penalties are final."), code="event_finished")


def _text(value: str, *, field: str, limit: int, required: str = "") -> str:
    text = (value or "").strip()
    if required and not text:
        raise ApplicationError(required, field=field)
    if len(text) > limit:
        raise ApplicationError(_("At most %(limit)s characters.") % {"limit": limit}, field=field)
    return text


def penalty_issue(
    *,
    event: Event,
    registration_id: int,
    penalty: str,
    infraction: str,
    by,
    note: str = "",
    round_number: int | None = None,
) -> Penalty:
    """Give the player of ``registration_id`` a penalty; a disqualification also drops them.

    ``round_number``: the round it was given in, by default the current one
    (the latest paired; none before round 1).  Refused for a player who is
    not in the event (on the waiting list, withdrawn: ``not_registered``),
    for a round not paired yet, and once the event is finished.
    """
    ensure(by, Action.ISSUE_PENALTIES, event)
    if penalty not in Penalty.Kind.values:
        raise ApplicationError(
            _("Choose one of: %(choices)s.") % {"choices": ", ".join(Penalty.Kind.values)}, field="penalty"
        )
    infraction = _text(infraction, field="infraction", limit=INFRACTION_MAX, required=_("Say what the infraction was."))
    note = _text(note, field="note", limit=NOTE_MAX)
    with transaction.atomic():
        event = locked_event(event.pk)
        _open(event)
        registration = (
            Registration.objects.select_for_update(of=("self",))
            .select_related("player")
            .filter(pk=registration_id, event=event)
            .first()
        )
        if registration is None:
            raise ApplicationError(_("That player is not registered at this event."), field="registration")
        if registration.status != Registration.Status.REGISTERED:
            raise Conflict(
                _("%(player)s is %(status)s: only players in the event are penalised.")
                % {"player": registration.player, "status": in_sentence(registration.get_status_display())},
                code="not_registered",
                field="registration",
            )
        latest = selectors.event_latest_round_number(event=event)
        if round_number is None:
            round_number = latest
        elif latest is None or not 1 <= round_number <= latest:
            paired = f"rounds 1 to {latest} are paired" if latest else "no round is paired yet"
            raise ApplicationError(
                _("Round %(round)s is not a round of this event: %(paired)s.")
                % {"round": round_number, "paired": paired},
                field="round",
            )
        given = Penalty.objects.create(
            event=event, registration=registration, round_number=round_number, penalty=penalty,
            infraction=infraction, note=note, issued_by=by if getattr(by, "is_authenticated", False) else None,
        )  # fmt: skip
        events.record(
            event=event, by=by, action=DomainAction.PENALTY_ISSUED, subject=audit.player_label(registration.player),
            after=_facts(given),
        )  # fmt: skip
        if penalty == Penalty.Kind.DISQUALIFICATION:
            drop_locked(event=event, registration=registration, by=by, reason=f"Disqualified: {infraction}")
    return given


def penalty_rescind(*, penalty: Penalty, by, reason: str) -> Penalty:
    """Rescind a penalty, with the reason: it stays on record, marked (``already_rescinded`` the second time).

    A rescinded disqualification leaves the player dropped: the staff who manage
    registrations undo the drop, with its reason, if the player plays on.
    """
    ensure(by, Action.ISSUE_PENALTIES, penalty.event)
    reason = _text(reason, field="reason", limit=REASON_MAX, required=_("Say why the penalty is rescinded."))
    with transaction.atomic():
        event = locked_event(penalty.event_id)
        _open(event)
        penalty = (
            Penalty.objects.select_for_update(of=("self",)).select_related("registration__player").get(pk=penalty.pk)
        )
        if penalty.rescinded:
            raise Conflict(_("This penalty is already rescinded."), code="already_rescinded")
        before = _facts(penalty)
        penalty.rescinded_at = timezone.now()
        penalty.rescinded_by = by if getattr(by, "is_authenticated", False) else None
        penalty.rescind_reason = reason
        penalty.save(update_fields=["rescinded_at", "rescinded_by", "rescind_reason"])
        events.record(
            event=event, by=by, action=DomainAction.PENALTY_RESCINDED,
            subject=audit.player_label(penalty.registration.player), before=before, after=_facts(penalty),
            reason=reason,
        )  # fmt: skip
    return penalty
