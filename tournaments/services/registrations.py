"""Registrations: walk-ins, invitations and self-registration with a waiting list, check-in, drops, byes, fixed tables.

Terms.  A *walk-in* is a player the staff enter; *self-registration* is a
signed-in player entering while the event's registration is open (until its
deadline).  Beyond the event's *capacity* players join the *waiting list*,
which is promoted in the order it was joined whenever a place frees up (a
withdrawal before play, a larger capacity).  Players *check in* themselves
while the organiser keeps the check-in window open, and *drop* themselves
between rounds; staff do both at any time, and may undo a drop.

An *invitation*: staff who enter a player record linked to someone's account
(:func:`tournaments.policy.registers_directly`) only invite that player.  The
registration waits, ``invited``, outside the event (no list, pairing or
check-in has it) until the player accepts it (registered, as staff would have
entered them, beyond the capacity too, not checked in) or declines it; staff
may withdraw it.  A walk-in's record (no account) is entered at once.

Every change is recorded in the audit trail.  Late entries (registering or
checking in after pairing has begun) join the next round, and every round
before it counts as a loss.
"""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import events
from core.domain_actions import DomainAction
from core.exceptions import ApplicationError, Conflict, NotAuthenticated, NotFound, PermissionDenied
from core.language import in_sentence
from tournaments import audit, selectors
from tournaments.models import ByeAssignment, Event, Player, Registration, Seat
from tournaments.policy import (
    Action,
    can,
    can_act_for_player,
    can_answer_invitation,
    ensure,
    is_player,
    registers_directly,
)
from tournaments.services import entry
from tournaments.services._common import locked_event
from tournaments.services.players import player_create

_REGISTRATION_FIELDS = ("status", "checked_in", "dropped", "dropped_after_round", "late_entry_round", "fixed_table")


def _label(registration: Registration) -> str:
    return audit.player_label(registration.player)


def _locked_registration(registration: Registration) -> Registration:
    return Registration.objects.select_for_update(of=("self",)).select_related("player").get(pk=registration.pk)


def _open_for_entries(event: Event) -> None:
    if event.status == Event.Status.FINISHED:
        raise Conflict(_("The event is finished: registration is closed."), code="event_finished")
    if event.top_cut_size:
        raise Conflict(_("The top cut has started: registration is closed."), code="top_cut_started")


# --- entering -----------------------------------------------------------------------------------


def registration_create(
    *,
    event: Event,
    by,
    player: Player | None = None,
    display_name: str = "",
    external_id: str | None = None,
    checked_in: bool = False,
) -> Registration:
    """Register a walk-in: an existing player, or a new one by name (and optional external id).

    Staff may register walk-ins beyond the capacity.  Registering (checked in)
    after pairing has begun is a late entry.  A player record linked to an
    account other than ``by``'s is invited instead (status ``invited``, never
    checked in): the player accepts or declines (:func:`registration_accept`).
    """
    ensure(by, Action.MANAGE_REGISTRATIONS, event)
    with transaction.atomic():
        event = locked_event(event.pk)
        _open_for_entries(event)
        if player is None:
            external_id = (external_id or "").strip() or None
            existing = Player.objects.filter(external_id=external_id).first() if external_id else None
            player = existing or player_create(display_name=display_name, external_id=external_id)
        previous = Registration.objects.filter(event=event, player=player).first()
        if previous is not None and previous.status == Registration.Status.INVITED:
            raise Conflict(
                _("%(player)s is already invited to this event: the player has not answered yet.") % {"player": player},
                code="already_registered", field="player",
            )  # fmt: skip
        if previous is not None and previous.status != Registration.Status.WITHDRAWN:
            raise Conflict(
                _("%(player)s is already registered for this event.") % {"player": player},
                code="already_registered",
                field="player",
            )
        if not registers_directly(by, player):
            return _invite(event=event, player=player, previous=previous, by=by)
        late_entry_round = (
            selectors.next_round_number(event) if checked_in and selectors.swiss_rounds_paired(event) else None
        )
        try:
            with transaction.atomic():
                if previous is not None:
                    registration = previous
                    registration.status = Registration.Status.REGISTERED
                    registration.checked_in, registration.late_entry_round = checked_in, late_entry_round
                    registration.waitlisted_at = None
                    registration.save(update_fields=["status", "checked_in", "late_entry_round", "waitlisted_at"])
                else:
                    registration = Registration.objects.create(
                        event=event, player=player, checked_in=checked_in, late_entry_round=late_entry_round
                    )
        except IntegrityError:
            raise Conflict(
                _("%(player)s is already registered for this event.") % {"player": player},
                code="already_registered",
                field="player",
            ) from None
        events.record(
            event=event, by=by, action=DomainAction.REGISTRATION_CREATED, subject=audit.player_label(player),
            after=audit.snapshot(registration, _REGISTRATION_FIELDS), late_entry=bool(late_entry_round),
        )  # fmt: skip
    return registration


def _invite(*, event: Event, player: Player, previous: Registration | None, by) -> Registration:
    """The invitation itself, inside :func:`registration_create`'s transaction (the event row locked)."""
    try:
        with transaction.atomic():
            if previous is not None:
                registration = previous
                registration.status, registration.self_registered = Registration.Status.INVITED, False
                registration.checked_in, registration.late_entry_round, registration.waitlisted_at = False, None, None
                registration.save(
                    update_fields=["status", "self_registered", "checked_in", "late_entry_round", "waitlisted_at"]
                )
            else:
                registration = Registration.objects.create(
                    event=event, player=player, status=Registration.Status.INVITED
                )
    except IntegrityError:
        raise Conflict(
            _("%(player)s is already registered for this event.") % {"player": player},
            code="already_registered",
            field="player",
        ) from None
    events.record(
        event=event, by=by, action=DomainAction.REGISTRATION_INVITED, subject=audit.player_label(player),
        after=audit.snapshot(registration, _REGISTRATION_FIELDS), player_id=player.pk,
    )  # fmt: skip
    return registration


def registration_accept(*, registration: Registration, by) -> Registration:
    """The invited player accepts: they are registered (as the staff who invited them would have entered them,
    beyond the capacity too), not checked in yet.  Accepting twice changes nothing.

    Refused to anyone but the player, once the event is finished or its top cut has started, and for an
    invitation withdrawn or declined since (``not_invited``).
    """
    if not can_answer_invitation(by, registration):
        raise PermissionDenied(_("Only the invited player may accept this invitation."))
    with transaction.atomic():
        event = locked_event(registration.event_id)
        registration = _locked_registration(registration)
        if registration.status == Registration.Status.REGISTERED:
            return registration
        if registration.status == Registration.Status.WITHDRAWN:
            raise Conflict(_("This invitation was withdrawn or declined: ask the event's staff."), code="not_invited")
        if registration.status != Registration.Status.INVITED:
            raise Conflict(
                _("There is no invitation to accept: you are %(status)s.")
                % {"status": in_sentence(registration.get_status_display())},
                code="not_invited",
            )
        _open_for_entries(event)
        before = audit.snapshot(registration, _REGISTRATION_FIELDS)
        registration.status = Registration.Status.REGISTERED
        registration.save(update_fields=["status"])
        events.record(
            event=event, by=by, action=DomainAction.REGISTRATION_ACCEPTED, subject=_label(registration), before=before,
            after=audit.snapshot(registration, _REGISTRATION_FIELDS),
        )  # fmt: skip
    return registration


def registration_decline(*, registration: Registration, by) -> Registration:
    """The invited player declines: the invitation is withdrawn (staff may invite them again).  Declining twice
    changes nothing; a registration that is no invitation is refused (``not_invited``: withdraw or drop)."""
    if not can_answer_invitation(by, registration):
        raise PermissionDenied(_("Only the invited player may decline this invitation."))
    with transaction.atomic():
        event = locked_event(registration.event_id)
        registration = _locked_registration(registration)
        if registration.status == Registration.Status.WITHDRAWN:
            return registration
        if registration.status != Registration.Status.INVITED:
            raise Conflict(_("You are not invited to this event: withdraw or drop instead."), code="not_invited")
        _end_invitation(event=event, registration=registration, by=by, action=DomainAction.REGISTRATION_DECLINED)
    return registration


def _end_invitation(*, event: Event, registration: Registration, by, action: DomainAction) -> None:
    before = audit.snapshot(registration, _REGISTRATION_FIELDS)
    registration.status = Registration.Status.WITHDRAWN
    registration.save(update_fields=["status"])
    events.record(
        event=event, by=by, action=action, subject=_label(registration), before=before,
        after=audit.snapshot(registration, _REGISTRATION_FIELDS),
    )  # fmt: skip


def player_for_user(user, *, display_name: str = "") -> Player:
    """The user's player profile, created (with their name) if they have none yet."""
    player = Player.objects.filter(user=user).first()
    if player is not None:
        return player
    name = display_name.strip() or user.get_full_name() or user.get_username()
    try:
        with transaction.atomic():
            return Player.objects.create(display_name=name[:100], user=user)
    except IntegrityError:  # created meanwhile by another request of the same user
        return Player.objects.get(user=user)


def registration_self_register(*, event: Event, by) -> Registration:
    """A signed-in player registers themselves, or joins the waiting list when the event is full.

    While the event's lottery takes applications, the player *applies* instead
    (status ``applied``: :mod:`tournaments.services.entry`).

    Refused while registration is closed or after its deadline
    (``registration_closed``), before the player's window opens
    (``registration_not_yet_open``, with the time it opens for them), once
    play has started (``event_started``), and for a player already registered,
    waiting or applied (``already_registered``).
    """
    if not (by and by.is_authenticated):
        raise NotAuthenticated(_("Sign in to register."))
    with transaction.atomic():
        event = locked_event(event.pk)
        _open_for_entries(event)
        if event.status != Event.Status.REGISTRATION:
            raise Conflict(_("Play has started: ask the organiser to enter you."), code="event_started")
        if not event.registration_open or (
            event.registration_deadline is not None and timezone.now() > event.registration_deadline
        ):
            raise Conflict(_("Registration for this event is closed."), code="registration_closed")
        # A new account's player profile is made here, with the registration: a refusal leaves no profile behind.
        player = player_for_user(by)
        registration = Registration.objects.select_for_update(of=("self",)).filter(event=event, player=player).first()
        # An invitation the player has not answered is theirs to take up this way too.
        if registration is not None and registration.status not in (
            Registration.Status.WITHDRAWN, Registration.Status.INVITED
        ):  # fmt: skip
            message = (
                _("You have already applied to this event's lottery.")
                if registration.status == Registration.Status.APPLIED
                else _("You are already registered for this event.")
            )
            raise Conflict(message, code="already_registered")
        entry.ensure_window_open(event=event, player=player)
        applies = event.takes_applications
        full = not applies and event.capacity is not None and _registered_count(event) >= event.capacity
        status = (
            Registration.Status.APPLIED if applies
            else Registration.Status.WAITLISTED if full
            else Registration.Status.REGISTERED
        )  # fmt: skip
        waitlisted_at = timezone.now() if full else None
        if registration is None:
            registration = Registration.objects.create(
                event=event, player=player, status=status, self_registered=True, waitlisted_at=waitlisted_at
            )
        else:
            registration.status, registration.waitlisted_at, registration.self_registered = status, waitlisted_at, True
            registration.save(update_fields=["status", "waitlisted_at", "self_registered"])
        events.record(
            event=event, by=by,
            action=DomainAction.REGISTRATION_APPLIED if applies
            else DomainAction.REGISTRATION_WAITLISTED if full
            else DomainAction.REGISTRATION_SELF_REGISTERED,
            subject=audit.player_label(player), after=audit.snapshot(registration, _REGISTRATION_FIELDS),
        )  # fmt: skip
    return registration


def _registered_count(event: Event) -> int:
    """Places taken: registered players who have not dropped (a drop before play frees its place)."""
    return Registration.objects.filter(event=event, status=Registration.Status.REGISTERED, dropped=False).count()


def promote_waiting_list(event: Event, *, by) -> list[Registration]:
    """Move players from the waiting list into the event, in the order they joined, while there is room.

    Call it inside the transaction that freed the place (it expects the event row locked).
    """
    if event.status != Event.Status.REGISTRATION:
        return []
    room = None if event.capacity is None else event.capacity - _registered_count(event)
    waiting = (
        Registration.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(event=event, status=Registration.Status.WAITLISTED)
        .order_by("waitlisted_at", "pk")
    )
    promoted = list(waiting if room is None else waiting[: max(room, 0)])
    for registration in promoted:
        registration.status = Registration.Status.REGISTERED
        registration.save(update_fields=["status"])
        events.record(
            event=event, by=by, action=DomainAction.REGISTRATION_PROMOTED, subject=_label(registration),
            before={"status": Registration.Status.WAITLISTED}, after={"status": Registration.Status.REGISTERED},
            player_id=registration.player_id,
        )  # fmt: skip
    return promoted


def registration_withdraw(*, registration: Registration, by) -> Registration:
    """Leave the event (or its waiting list) before play starts; the next player waiting takes the place.

    The player themselves or the staff.  Once play has started, a player drops instead.  An invitation is
    withdrawn at any time (by the staff; the player declines it).
    """
    event = registration.event
    if not can_act_for_player(by, registration.player, event):
        raise PermissionDenied(_("Only the player or the event's staff may withdraw this registration."))
    with transaction.atomic():
        event = locked_event(event.pk)
        registration = _locked_registration(registration)
        if registration.status == Registration.Status.WITHDRAWN:
            return registration
        if registration.status == Registration.Status.INVITED:  # the player declines it, staff withdraw it
            if can_answer_invitation(by, registration):
                _end_invitation(
                    event=event, registration=registration, by=by, action=DomainAction.REGISTRATION_DECLINED
                )
            else:
                _end_invitation(
                    event=event, registration=registration, by=by, action=DomainAction.REGISTRATION_INVITATION_WITHDRAWN
                )
            return registration
        if event.status != Event.Status.REGISTRATION:
            raise Conflict(_("Play has started: drop instead of withdrawing."), code="event_started")
        before = audit.snapshot(registration, _REGISTRATION_FIELDS)
        registration.status = Registration.Status.WITHDRAWN
        registration.checked_in = False
        registration.waitlisted_at = None
        registration.save(update_fields=["status", "checked_in", "waitlisted_at"])
        events.record(
            event=event, by=by, action=DomainAction.REGISTRATION_WITHDRAWN, subject=_label(registration), before=before,
            after=audit.snapshot(registration, _REGISTRATION_FIELDS),
        )  # fmt: skip
        promote_waiting_list(event, by=by)
    return registration


# --- check-in and drops -------------------------------------------------------------------------


def registration_check_in(*, registration: Registration, by, checked_in: bool = True) -> Registration:
    """Check a player in (or out).  Checking in after pairing has begun is a late entry.

    Staff at any time; the player themselves while the event's check-in
    window is open (``check_in_closed`` otherwise).  A late entrant who has not
    played yet joins the next pairing; every round before it counts as a loss.
    """
    event = registration.event
    staff = can(by, Action.MANAGE_REGISTRATIONS, event)
    if not staff and not is_player(by, registration.player):
        raise PermissionDenied(_("Only the player or the event's staff may check this player in."))
    with transaction.atomic():
        event = locked_event(registration.event_id)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is finished."), code="event_finished")
        if not staff and not event.check_in_open:
            raise Conflict(_("Check-in is not open: ask the event's staff."), code="check_in_closed")
        registration = _locked_registration(registration)
        if registration.status != Registration.Status.REGISTERED:
            raise Conflict(
                _("%(player)s is %(status)s.")
                % {"player": registration.player, "status": in_sentence(registration.get_status_display())},
                code="not_registered",
            )
        if registration.dropped and checked_in:
            raise Conflict(_("%(player)s has dropped.") % {"player": registration.player}, code="dropped")
        if registration.checked_in == checked_in:
            return registration
        if checked_in:
            entry.check_in_allowed(event=event, registration=registration, staff=staff)
        before = audit.snapshot(registration, _REGISTRATION_FIELDS)
        registration.checked_in = checked_in
        fields = ["checked_in"]
        late = (
            checked_in
            and selectors.swiss_rounds_paired(event) > 0
            and not Seat.objects.filter(round__event=event, player_id=registration.player_id).exists()
        )
        if late:
            registration.late_entry_round = selectors.next_round_number(event)
            fields.append("late_entry_round")
        registration.save(update_fields=fields)
        events.record(
            event=event, by=by,
            action=DomainAction.REGISTRATION_CHECKED_IN if checked_in else DomainAction.REGISTRATION_CHECKED_OUT,
            subject=_label(registration), before=before, after=audit.snapshot(registration, _REGISTRATION_FIELDS),
            late_entry=bool(late),
        )  # fmt: skip
    return registration


def registration_drop(*, registration: Registration, by) -> Registration:
    """Drop a player from future rounds; their results and standing stay.

    Staff at any time; the player themselves between rounds: not while they
    sit at a table of the current round that has no result (``round_in_progress``).
    """
    event = registration.event
    staff = can(by, Action.MANAGE_REGISTRATIONS, event)
    if not staff and not is_player(by, registration.player):
        raise PermissionDenied(_("Only the player or the event's staff may drop this player."))
    with transaction.atomic():
        event = locked_event(registration.event_id)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is finished: nobody can drop any more."), code="event_finished")
        registration = _locked_registration(registration)
        if registration.status != Registration.Status.REGISTERED:
            raise Conflict(
                _("%(player)s is %(status)s.")
                % {"player": registration.player, "status": in_sentence(registration.get_status_display())},
                code="not_registered",
            )
        if registration.dropped:
            return registration
        if (
            not staff
            and Seat.objects.filter(
                round__event=event, player_id=registration.player_id, pod__is_bye=False, pod__result__isnull=True
            ).exists()
        ):
            raise Conflict(
                _("Your table has no result yet: drop after it is reported, or ask a judge."), code="round_in_progress"
            )
        drop_locked(event=event, registration=registration, by=by)
    return registration


def drop_locked(*, event: Event, registration: Registration, by, reason: str = "") -> bool:
    """The drop itself, for a caller that has checked who may drop and holds the locks (a disqualification too).

    Call it inside the caller's transaction, with the event's row and the
    registration locked (``locked_event``, ``_locked_registration``).  Records
    ``registration.dropped`` (which moves the standings); ``False`` when the player had already dropped.
    """
    if registration.dropped:
        return False
    before = audit.snapshot(registration, _REGISTRATION_FIELDS)
    last_round = selectors.event_latest_round_number(event=event) or 0
    registration.dropped = True
    registration.dropped_after_round = last_round
    registration.save(update_fields=["dropped", "dropped_after_round"])
    events.record(
        event=event, by=by, action=DomainAction.REGISTRATION_DROPPED, subject=_label(registration), before=before,
        after=audit.snapshot(registration, _REGISTRATION_FIELDS), reason=reason,
    )  # fmt: skip
    if last_round == 0:
        promote_waiting_list(event, by=by)
    return True


def registration_undrop(*, registration: Registration, by, reason: str = "") -> Registration:
    """Undo a drop (a correction): the player is paired again from the next round; audited with the reason."""
    ensure(by, Action.MANAGE_REGISTRATIONS, registration.event)
    with transaction.atomic():
        event = locked_event(registration.event_id)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is finished."), code="event_finished")
        registration = _locked_registration(registration)
        if not registration.dropped:
            return registration
        before = audit.snapshot(registration, _REGISTRATION_FIELDS)
        registration.dropped = False
        registration.dropped_after_round = None
        registration.save(update_fields=["dropped", "dropped_after_round"])
        events.record(
            event=event, by=by, action=DomainAction.REGISTRATION_UNDROPPED, subject=_label(registration), before=before,
            after=audit.snapshot(registration, _REGISTRATION_FIELDS), reason=reason.strip(),
        )  # fmt: skip
    return registration


# --- tables and byes ----------------------------------------------------------------------------


def registration_update(*, registration: Registration, by, fixed_table: int | None) -> Registration:
    """Fix a player to one table for every round (or free them with ``None``).

    Applies from the next pairing; the round being played is not changed.
    """
    ensure(by, Action.MANAGE_REGISTRATIONS, registration.event)
    if fixed_table is not None and fixed_table < 1:
        raise ApplicationError(_("A table number is 1 or more."), field="fixed_table")
    with transaction.atomic():
        event = locked_event(registration.event_id)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is finished."), code="event_finished")
        registration = _locked_registration(registration)
        if fixed_table is not None:
            other = (
                Registration.objects.filter(event=event, fixed_table=fixed_table)
                .exclude(pk=registration.pk)
                .select_related("player")
                .first()
            )
            if other is not None:
                raise Conflict(
                    _("Table %(table)s is already fixed for %(player)s.")
                    % {"table": fixed_table, "player": other.player},
                    code="fixed_table_taken",
                    field="fixed_table",
                )
        if registration.fixed_table != fixed_table:
            events.record(
                event=event, by=by, action=DomainAction.REGISTRATION_FIXED_TABLE, subject=_label(registration),
                before={"fixed_table": registration.fixed_table}, after={"fixed_table": fixed_table},
            )  # fmt: skip
        registration.fixed_table = fixed_table
        registration.save(update_fields=["fixed_table"])
    return registration


def registration_stream_consent_set(*, registration: Registration, by, stream_opt_out: bool) -> Registration:
    """The player opts out of being streamed (``True``) or back in (``False``).

    The player themselves or the event's staff (registrations), at any time, even once the event is finished (a
    VOD is still a stream).  An opted-out player's table is never a station's feature match: a caster pointing a
    station at it is refused (``stream_opt_out``), and a station already on it stops showing it (``live``, on the
    domain event).  Recorded in the audit trail."""
    if not can_act_for_player(by, registration.player, registration.event):
        raise PermissionDenied(_("Only the player or the event's staff may change whether this player is streamed."))
    with transaction.atomic():
        event = locked_event(registration.event_id)
        registration = _locked_registration(registration)
        if registration.stream_opt_out == stream_opt_out:
            return registration
        before = {"stream_opt_out": registration.stream_opt_out}
        registration.stream_opt_out = stream_opt_out
        registration.stream_consent_changed_at = timezone.now()
        registration.save(update_fields=["stream_opt_out", "stream_consent_changed_at"])
        events.record(
            event=event, by=by, action=DomainAction.REGISTRATION_STREAM_CONSENT, subject=_label(registration),
            before=before, after={"stream_opt_out": stream_opt_out},
            player_id=registration.player_id, stream_opt_out=stream_opt_out,
        )  # fmt: skip
    return registration


def bye_assign(*, registration: Registration, round_number: int, by) -> ByeAssignment:
    """Give a player a bye in a round that has not been paired yet (a win, like any bye)."""
    ensure(by, Action.MANAGE_REGISTRATIONS, registration.event)
    with transaction.atomic():
        event = locked_event(registration.event_id)
        if event.status == Event.Status.FINISHED:
            raise Conflict(_("The event is finished."), code="event_finished")
        registration = _locked_registration(registration)
        if registration.dropped:
            raise Conflict(_("%(player)s has dropped.") % {"player": registration.player}, code="dropped")
        next_number = selectors.next_round_number(event)
        if round_number < next_number:
            raise Conflict(
                _(
                    "Round %(round)s is already paired: assign byes before pairing (the next round is %(next)s), or re-pair the round."
                )
                % {"round": round_number, "next": next_number},
                code="round_already_paired",
                field="round",
            )
        if round_number > event.planned_rounds:
            raise ApplicationError(
                _("The event plans %(rounds)s Swiss round(s).") % {"rounds": event.planned_rounds}, field="round"
            )
        assignment, created = ByeAssignment.objects.get_or_create(
            registration=registration, round_number=round_number, defaults={"assigned_by": by}
        )
        if created:
            events.record(
                event=event, by=by, action=DomainAction.BYE_ASSIGNED, subject=_label(registration),
                after={"round": round_number},
            )  # fmt: skip
    return assignment


def bye_unassign(*, registration: Registration, round_number: int, by) -> None:
    """Take back a bye assigned for a round that has not been paired yet."""
    ensure(by, Action.MANAGE_REGISTRATIONS, registration.event)
    with transaction.atomic():
        event = locked_event(registration.event_id)
        if round_number < selectors.next_round_number(event):
            raise Conflict(
                _("Round %(round)s is already paired: re-pair it to take the bye back.") % {"round": round_number},
                code="round_already_paired",
            )
        deleted, _by_type = ByeAssignment.objects.filter(registration=registration, round_number=round_number).delete()
        if not deleted:
            raise NotFound(
                _("%(player)s has no bye assigned in round %(round)s.")
                % {"player": registration.player, "round": round_number}
            )
        events.record(
            event=event, by=by, action=DomainAction.BYE_UNASSIGNED, subject=_label(registration),
            before={"round": round_number},
        )  # fmt: skip


# --- one person, one history --------------------------------------------------------------------


def player_claim_code_create(*, registration: Registration, by) -> str:
    """A code a walk-in uses to claim their player record with an account (a new code each time)."""
    ensure(by, Action.MANAGE_REGISTRATIONS, registration.event)
    player = registration.player
    if player.user_id is not None:
        raise Conflict(_("%(player)s is already linked to an account.") % {"player": player}, code="already_claimed")
    with transaction.atomic():
        for _attempt in range(5):
            code = secrets.token_urlsafe(9)[:12].upper().replace("-", "X").replace("_", "Y")
            if not Player.objects.filter(claim_code=code).exists():
                break
        Player.objects.filter(pk=player.pk).update(claim_code=code)
        events.record(
            event=registration.event, by=by, action=DomainAction.PLAYER_CLAIM_CODE, subject=audit.player_label(player)
        )
    return code


def player_claim(*, user, code: str) -> Player:
    """Link the player record with this claim code to the signed-in user.

    A profile the user already has with no events is replaced by the claimed
    record; one with events of its own is refused (``player_has_history``),
    so no history is ever merged or lost silently.
    """
    if not (user and user.is_authenticated):
        raise NotAuthenticated(_("Sign in to claim your player record."))
    code = (code or "").strip().upper()
    if not code:
        raise ApplicationError(_("Enter the code the organiser gave you."), field="code")
    with transaction.atomic():
        player = Player.objects.select_for_update(of=("self",)).filter(claim_code=code).first()
        if player is None:
            raise NotFound(_("No player record has this code: check it with the organiser."), code="unknown_claim_code")
        if player.user_id is not None and player.user_id != user.pk:
            raise Conflict(_("This player record is already linked to another account."), code="already_claimed")
        own = Player.objects.select_for_update(of=("self",)).filter(user=user).exclude(pk=player.pk).first()
        if own is not None:
            if own.registrations.exists() or own.result_reports.exists():
                raise Conflict(
                    _("Your account already has a player history: ask the organiser to merge it by hand."),
                    code="player_has_history",
                )
            own.delete()
        player.user = user
        player.claim_code = None
        player.save(update_fields=["user", "claim_code"])
        events.record(event=None, by=user, action=DomainAction.PLAYER_CLAIMED, subject=audit.player_label(player))
    return player
