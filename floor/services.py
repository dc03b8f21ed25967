"""Changes on the venue floor: judge calls, deck checks, judges' tables.

Every change asks the policy (:data:`~tournaments.policy.Action.ANSWER_JUDGE_CALLS`,
:data:`~tournaments.policy.Action.RUN_DECK_CHECKS`, :data:`~tournaments.policy.Action.ASSIGN_JUDGES`; a player
calls a judge to their own table, and cancels that call, without a role), runs in one transaction, and is recorded
in the audit trail (``judge_call.*``, ``deck_check*``, ``judge.*``).  Extra time for a table goes through
:func:`live.services.table_time_extend` (its history, its live push, its own audit entry), in the same transaction:
a refused extension (the round is over, the table has its result) refuses the whole change.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import events
from core.domain_actions import DomainAction
from core.exceptions import ApplicationError, Conflict, NotFound, PermissionDenied
from core.language import in_sentence
from floor import picking, selectors
from floor.models import DeckCheck, DeckCheckDraw, JudgeAssignment, JudgeCall
from live import services as live_services
from tournaments import audit, policy
from tournaments import selectors as tournament_selectors
from tournaments.models import Event, Penalty, Pod, Registration
from tournaments.policy import Action, ensure
from tournaments.selectors import people as people_selectors
from tournaments.services._common import shared_event

REASON_MAX = 200
NOTE_MAX = 2000
#: The most tables one draw or one hand-picked list takes.
MAX_PICK = 100
#: Seeds are whole numbers from 0 to this (what a head judge can write down and type again).
MAX_SEED = 2**31 - 1


def _text(value: str | None, *, field: str, limit: int, required: str = "") -> str:
    text = (value or "").strip()
    if required and not text:
        raise ApplicationError(required, field=field)
    if len(text) > limit:
        raise ApplicationError(_("At most %(limit)s characters.") % {"limit": limit}, field=field)
    return text


def _user(by) -> Any:
    return by if getattr(by, "is_authenticated", False) else None


def _playing(event: Event) -> None:
    if event.status == Event.Status.FINISHED:
        raise Conflict(_("The event is finished."), code="event_finished")


# --- judge calls -------------------------------------------------------------------------------------------------


def _call_facts(call: JudgeCall) -> dict[str, Any]:
    return {
        "id": call.pk,
        "state": call.state,
        "reason": call.reason,
        "note": call.note,
        "claimed_by": call.claimed_by.get_username() if call.claimed_by else None,
    }


def _record_call(action: DomainAction, call: JudgeCall, *, by, before: Any = None, reason: str = "") -> None:
    events.record(
        action=action, event=call.event_id, by=by, subject=audit.table_label(call.round_number, call.table_number),
        before=before, after=_call_facts(call), reason=reason, call_id=call.pk, round=call.round_number,
        table=call.table_number, state=call.state, players=selectors.seated_player_ids(pod=call.pod),
    )  # fmt: skip


def judge_call_open(*, event: Event, by, table: int | None = None, reason: str = "") -> JudgeCall:
    """Call a judge to a table of the current round.

    A player calls to their own table (``table`` may be left out; another table is 403 ``not_at_table``; no table
    in the current round, 409 ``no_table``); staff who answer judge calls open a call for any table (``table``
    required).  A table has one call waiting or claimed at a time (409 ``call_open``, naming it).
    """
    reason = _text(reason, field="reason", limit=REASON_MAX)
    staff = policy.can(by, Action.ANSWER_JUDGE_CALLS, event)
    with transaction.atomic():
        event = shared_event(event.pk)
        _playing(event)
        if event.status != Event.Status.RUNNING:
            raise Conflict(_("Play has not started: there is no table to call a judge to."), code="no_table")
        player = None
        if staff and table is not None:
            round_ = selectors.current_round(event=event)
            pod = tournament_selectors.round_table(round_=round_, table=table) if round_ is not None else None
            if round_ is None or pod is None or pod.is_bye:
                raise NotFound(
                    _("The current round has no table %(table)s.") % {"table": table},
                    code="table_not_found",
                    field="table",
                )
            pod.round = round_
        else:
            registration = (
                people_selectors.registration_of_user(event=event, user=by)
                if getattr(by, "is_authenticated", False)
                else None
            )
            if registration is None or registration.status != Registration.Status.REGISTERED:
                if staff:
                    raise ApplicationError(_("Say which table needs a judge."), field="table")
                raise PermissionDenied(
                    _("Judges are called by the players seated at a table, and by the event's judges."),
                    code="not_at_table",
                )
            pod = selectors.player_table(event=event, player=registration.player)
            if pod is None:
                raise Conflict(_("You have no table in the current round."), code="no_table")
            if table is not None and table != pod.table_number:
                raise PermissionDenied(
                    _("You play at table %(table)s: call a judge to your own table.") % {"table": pod.table_number},
                    code="not_at_table",
                )
            player = registration.player
        Pod.objects.select_for_update().filter(pk=pod.pk).first()  # one call at a time per table
        _refuse_second_call(pod)
        call = JudgeCall(
            event=event, pod=pod, round_number=pod.round.number, table_number=pod.table_number or 0, reason=reason,
            called_by_player=player, called_by=_user(by), called_at=timezone.now(),
        )  # fmt: skip
        try:
            with transaction.atomic():
                call.save()
        except IntegrityError:
            _refuse_second_call(pod)
            raise
        call.event = event
        _record_call(DomainAction.JUDGE_CALL_OPENED, call, by=by)
    return call


def _refuse_second_call(pod: Pod) -> None:
    waiting = selectors.live_call_of(pod_id=pod.pk)
    if waiting is not None:
        raise Conflict(
            _("Table %(table)s has already called a judge: %(state)s.") % {"table": pod.table_number, "state": in_sentence(waiting.get_state_display())},
            code="call_open", extra={"call": waiting.pk},
        )  # fmt: skip


def _locked_call(call: JudgeCall) -> JudgeCall:
    locked = JudgeCall.objects.select_for_update(of=("self",)).select_related("claimed_by", "pod").get(pk=call.pk)
    if not locked.live:
        raise Conflict(
            _("This call is already %(state)s.") % {"state": in_sentence(locked.get_state_display())}, code="call_closed"
        )
    return locked


def _claimed_by_another(call: JudgeCall, by) -> None:
    if call.state == JudgeCall.State.CLAIMED and call.claimed_by_id != getattr(by, "pk", None):
        name = call.claimed_by.get_username() if call.claimed_by else "another judge"
        raise Conflict(
            _("%(judge)s has claimed this call.") % {"judge": name}, code="call_claimed", extra={"claimed_by": name}
        )


def judge_call_claim(*, call: JudgeCall, by) -> JudgeCall:
    """A judge takes the call (a judge is coming).  Claimed by another judge: 409 ``call_claimed``; claimed by
    this judge already: nothing changes."""
    ensure(by, Action.ANSWER_JUDGE_CALLS, call.event)
    with transaction.atomic():
        event = shared_event(call.event_id)
        _playing(event)
        call = _locked_call(call)
        _claimed_by_another(call, by)
        if call.state == JudgeCall.State.CLAIMED:
            return call
        before = _call_facts(call)
        call.state, call.claimed_by, call.claimed_at = JudgeCall.State.CLAIMED, _user(by), timezone.now()
        call.save(update_fields=["state", "claimed_by", "claimed_at"])
        _record_call(DomainAction.JUDGE_CALL_CLAIMED, call, by=by, before=before)
    return call


def judge_call_resolve(*, call: JudgeCall, by, note: str, minutes: int | None = None) -> JudgeCall:
    """The judge resolves the call with a note (the ruling); ``minutes``: extra time for the table, given through
    the table's extensions.  An unclaimed call is claimed by the judge who resolves it; one claimed by another
    judge is theirs to resolve (409 ``call_claimed``)."""
    ensure(by, Action.ANSWER_JUDGE_CALLS, call.event)
    note = _text(note, field="note", limit=NOTE_MAX, required=_("Say how the call was resolved."))
    with transaction.atomic():
        event = shared_event(call.event_id)
        _playing(event)
        call = _locked_call(call)
        _claimed_by_another(call, by)
        before = _call_facts(call)
        now = timezone.now()
        if minutes is not None:
            call.extension = live_services.table_time_extend(
                event=event, round_number=call.round_number, table_number=call.table_number, minutes=minutes,
                reason=f"Judge call: {note}"[:REASON_MAX], by=by,
            )  # fmt: skip
        if call.claimed_at is None:
            call.claimed_by, call.claimed_at = _user(by), now
        call.state, call.resolved_by, call.resolved_at, call.note = JudgeCall.State.RESOLVED, _user(by), now, note
        call.save(
            update_fields=["state", "claimed_by", "claimed_at", "resolved_by", "resolved_at", "note", "extension"]
        )
        _record_call(DomainAction.JUDGE_CALL_RESOLVED, call, by=by, before=before)
    return call


def judge_call_cancel(*, call: JudgeCall, by, reason: str = "") -> JudgeCall:
    """Cancel a call that waits or is claimed: the staff who answer calls, or a player seated at the table."""
    reason = _text(reason, field="reason", limit=REASON_MAX)
    seated = selectors.seated_player_ids(pod=call.pod)
    player = tournament_selectors.player_of(by)
    if not (player is not None and player.pk in seated):
        ensure(by, Action.ANSWER_JUDGE_CALLS, call.event)
    with transaction.atomic():
        shared_event(call.event_id)
        call = _locked_call(call)
        before = _call_facts(call)
        call.state, call.resolved_by, call.resolved_at = JudgeCall.State.CANCELLED, _user(by), timezone.now()
        call.note = reason
        call.save(update_fields=["state", "resolved_by", "resolved_at", "note"])
        _record_call(DomainAction.JUDGE_CALL_CANCELLED, call, by=by, before=before, reason=reason)
    return call


# --- deck checks -------------------------------------------------------------------------------------------------


def _check_facts(check: DeckCheck) -> dict[str, Any]:
    return {
        "id": check.pk,
        "started_at": check.started_at,
        "ended_at": check.ended_at,
        "outcome": check.outcome,
        "note": check.note,
    }


def deck_checks_pick(
    *,
    event: Event,
    by,
    round_number: int | None = None,
    tables: list[int] | None = None,
    count: int | None = None,
    seed: int | None = None,
) -> tuple[list[DeckCheck], DeckCheckDraw | None]:
    """Pick tables of a round (the current one by default) for deck checks: ``tables`` by hand, or ``count`` tables
    drawn at random with ``seed`` (one is chosen and kept when none is given; see :mod:`floor.picking`: tables whose
    players were checked in an earlier round are drawn last).  A table is checked once a round: asked for again by
    hand, 409 ``table_checked``; a draw leaves such tables out."""
    ensure(by, Action.RUN_DECK_CHECKS, event)
    if (tables is None) == (count is None):
        raise ApplicationError(_("Give either the tables or how many to draw."), field="tables" if count else "count")
    if tables is not None and not 1 <= len(tables) <= MAX_PICK:
        raise ApplicationError(_("Give 1 to %(most)s tables.") % {"most": MAX_PICK}, field="tables")
    if count is not None and not 1 <= count <= MAX_PICK:
        raise ApplicationError(_("Draw 1 to %(most)s tables.") % {"most": MAX_PICK}, field="count")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise ApplicationError(_("A seed is a whole number from 0 to %(most)s.") % {"most": MAX_SEED}, field="seed")
    with transaction.atomic():
        event = shared_event(event.pk)
        _playing(event)
        round_ = (
            selectors.current_round(event=event)
            if round_number is None
            else tournament_selectors.round_get(event=event, number=round_number)
        )
        if round_ is None:
            message = (
                _("No round has been paired.")
                if round_number is None
                else _("Round %(round)s has not been paired.") % {"round": round_number}
            )
            raise NotFound(message, code="round_not_found", field="round")
        pods = {pod.table_number or 0: pod for pod in selectors.round_tables(round_=round_)}  # no bye: a number
        done = selectors.checked_tables(round_=round_)
        draw = None
        if tables is not None:
            picked = list(dict.fromkeys(tables))
            missing = [t for t in picked if t not in pods]
            if missing:
                raise NotFound(
                    _("Round %(round)s has no table %(tables)s.") % {"round": round_.number, "tables": ", ".join(map(str, missing))}, code="table_not_found",
                    field="tables",
                )  # fmt: skip
            again = [t for t in picked if t in done]
            if again:
                raise Conflict(
                    _("Already checked this round: table %(tables)s.") % {"tables": ", ".join(map(str, again))}, code="table_checked",
                    field="tables",
                )  # fmt: skip
        else:
            assert count is not None
            seed = secrets.randbelow(MAX_SEED + 1) if seed is None else seed
            checked_players = selectors.checked_player_ids(event=event, before_round=round_.number)
            offered = [t for t in pods if t not in done]
            before = {t for t in offered if any(s.player_id in checked_players for s in pods[t].seats.all())}
            try:
                picked = picking.draw_tables(tables=offered, checked_before=before, count=count, seed=seed)
            except picking.TooFewTables:
                raise Conflict(
                    _("Round %(round)s has %(left)s tables left to check: fewer than %(count)s.") % {"round": round_.number, "left": len(offered), "count": count},
                    code="too_few_tables", field="count",
                ) from None  # fmt: skip
            draw = DeckCheckDraw.objects.create(
                event=event, round_number=round_.number, count=count, seed=seed, tables=picked, drawn_by=_user(by)
            )
        now = timezone.now()
        checks = DeckCheck.objects.bulk_create([
            DeckCheck(event=event, pod=pods[t], round_number=round_.number, table_number=t, draw=draw,
                      picked_by=_user(by), picked_at=now)
            for t in picked
        ])  # fmt: skip
        how = f"drawn at random, seed {seed}" if draw is not None else "picked by hand"
        events.record(
            action=DomainAction.DECK_CHECKS_PICKED, event=event, by=by, subject=f"Round {round_.number}",
            after={"tables": picked, "draw_seed": seed if draw is not None else None}, reason=how,
            round=round_.number, tables=picked, seed=seed if draw is not None else None,
        )  # fmt: skip
    return checks, draw


def _locked_check(check: DeckCheck) -> DeckCheck:
    return DeckCheck.objects.select_for_update(of=("self",)).get(pk=check.pk)


def deck_check_start(*, check: DeckCheck, by) -> DeckCheck:
    """The judge starts the check (its start time is kept); started already: 409 ``deck_check_started``."""
    ensure(by, Action.RUN_DECK_CHECKS, check.event)
    with transaction.atomic():
        event = shared_event(check.event_id)
        _playing(event)
        check = _locked_check(check)
        if check.started_at is not None:
            raise Conflict(_("This deck check has already started."), code="deck_check_started")
        before = _check_facts(check)
        check.started_at, check.judge = timezone.now(), _user(by)
        check.save(update_fields=["started_at", "judge"])
        events.record(
            action=DomainAction.DECK_CHECK_STARTED, event=event, by=by,
            subject=audit.table_label(check.round_number, check.table_number), before=before,
            after=_check_facts(check), round=check.round_number, table=check.table_number,
        )  # fmt: skip
    return check


def deck_check_finish(*, check: DeckCheck, by, outcome: str, note: str = "", minutes: int | None = None) -> DeckCheck:
    """Record the check's end and outcome (``ok``, or ``problem`` with a note saying what); ``minutes``: the extra
    time the table gets for it, through the table's extensions.  A check never started is started now too.
    Recorded already: 409 ``deck_check_recorded``."""
    ensure(by, Action.RUN_DECK_CHECKS, check.event)
    if outcome not in DeckCheck.Outcome.values:
        raise ApplicationError(
            _("Choose one of: %(choices)s.") % {"choices": ", ".join(DeckCheck.Outcome.values)}, field="outcome"
        )
    required = _("Say what the problem was.") if outcome == DeckCheck.Outcome.PROBLEM else ""
    note = _text(note, field="note", limit=NOTE_MAX, required=required)
    with transaction.atomic():
        event = shared_event(check.event_id)
        _playing(event)
        check = _locked_check(check)
        if check.outcome:
            raise Conflict(_("This deck check is already recorded."), code="deck_check_recorded")
        before = _check_facts(check)
        if minutes is not None:
            check.extension = live_services.table_time_extend(
                event=event, round_number=check.round_number, table_number=check.table_number, minutes=minutes,
                reason="Deck check", by=by,
            )  # fmt: skip
        now = timezone.now()
        check.started_at = check.started_at or now
        check.ended_at, check.outcome, check.note = now, outcome, note
        check.judge = check.judge or _user(by)
        check.save(update_fields=["started_at", "ended_at", "outcome", "note", "judge", "extension"])
        events.record(
            action=DomainAction.DECK_CHECK_RECORDED, event=event, by=by,
            subject=audit.table_label(check.round_number, check.table_number), before=before,
            after=_check_facts(check), round=check.round_number, table=check.table_number,
        )  # fmt: skip
    return check


def deck_check_penalty_link(*, check: DeckCheck, by, penalty_id: int) -> DeckCheck:
    """Link a penalty given for what the check found: one of the event's, given to a player seated at the table."""
    ensure(by, Action.RUN_DECK_CHECKS, check.event)
    with transaction.atomic():
        event = shared_event(check.event_id)
        check = _locked_check(check)
        seated = selectors.seated_player_ids(pod=check.pod)
        penalty = (
            Penalty.objects.select_related("registration__player")
            .filter(pk=penalty_id, event=event, registration__player_id__in=seated)
            .first()
        )
        if penalty is None:
            raise ApplicationError(_("Choose a penalty given to a player at this table."), field="penalty")
        check.penalties.add(penalty)
        events.record(
            action=DomainAction.DECK_CHECK_PENALTY_LINKED, event=event, by=by,
            subject=audit.table_label(check.round_number, check.table_number),
            after={"deck_check": check.pk, "penalty": penalty.pk, "player": audit.player_label(penalty.registration.player)},
        )  # fmt: skip
    return check


# --- judges' tables ----------------------------------------------------------------------------------------------


def _assignment_facts(assignment: JudgeAssignment) -> dict[str, Any]:
    return {
        "judge": assignment.judge.get_username(),
        "tables": [assignment.first_table, assignment.last_table],
        "round": assignment.round_number,
    }


def judge_assign(
    *,
    event: Event,
    by,
    judge: str,
    first_table: int,
    last_table: int | None = None,
    round_number: int | None = None,
) -> JudgeAssignment:
    """Assign a judge (by username; someone who answers judge calls at the event, else 400 ``not_a_judge``) to
    tables ``first_table`` to ``last_table`` (one table when left out), for the event or for ``round_number``."""
    ensure(by, Action.ASSIGN_JUDGES, event)
    last_table = first_table if last_table is None else last_table
    if first_table < 1:
        raise ApplicationError(_("Table numbers start at 1."), field="first_table")
    if last_table < first_table:
        raise ApplicationError(_("The last table comes after the first."), field="last_table")
    if round_number is not None and round_number < 1:
        raise ApplicationError(_("Rounds start at 1."), field="round")
    person = get_user_model().objects.filter(username=judge).first()
    if person is None or not policy.can(person, Action.ANSWER_JUDGE_CALLS, event):
        raise ApplicationError(
            _("'%(judge)s' answers no judge calls at this event: add them to its staff as a judge first.") % {"judge": judge},
            code="not_a_judge", field="judge",
        )  # fmt: skip
    with transaction.atomic():
        event = shared_event(event.pk)
        _playing(event)
        assignment = JudgeAssignment.objects.create(
            event=event, judge=person, first_table=first_table, last_table=last_table, round_number=round_number,
            assigned_by=_user(by),
        )  # fmt: skip
        events.record(
            action=DomainAction.JUDGE_ASSIGNED,
            event=event,
            by=by,
            subject=person.get_username(),
            after=_assignment_facts(assignment),
        )
    return assignment


def judge_unassign(*, assignment: JudgeAssignment, by) -> None:
    """Take a judge off their tables (the assignment goes; the trail keeps it)."""
    ensure(by, Action.ASSIGN_JUDGES, assignment.event)
    with transaction.atomic():
        event = shared_event(assignment.event_id)
        before = _assignment_facts(assignment)
        JudgeAssignment.objects.filter(pk=assignment.pk).delete()
        events.record(
            action=DomainAction.JUDGE_UNASSIGNED,
            event=event,
            by=by,
            subject=assignment.judge.get_username(),
            before=before,
        )
