"""Registrations: entering players (late entries too), check-in, fixed tables, assigned byes, drops."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from core.exceptions import ApplicationError, Conflict, NotFound
from tournaments import selectors
from tournaments.models import ByeAssignment, Event, Player, Registration, Seat
from tournaments.policy import ensure_can_manage_event
from tournaments.services._common import locked_event
from tournaments.services.events import player_create
from tournaments.services.standings import bump_results_version, request_standings


def registration_create(
    *,
    event: Event,
    by,
    player: Player | None = None,
    display_name: str = "",
    external_id: str | None = None,
    checked_in: bool = False,
) -> Registration:
    """Register an existing player, or a new one by name (and optional external id).

    Registering (checked in) after pairing has begun is a late entry: the
    player joins the next pairing and every round before it counts as a loss.
    """
    ensure_can_manage_event(by, event)
    with transaction.atomic():
        event = locked_event(event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict("The event is finished: registration is closed.", code="event_finished")
        if event.top_cut_size:
            raise Conflict("The top cut has started: registration is closed.", code="top_cut_started")
        if player is None:
            external_id = (external_id or "").strip() or None
            existing = Player.objects.filter(external_id=external_id).first() if external_id else None
            player = existing or player_create(display_name=display_name, external_id=external_id)
        if Registration.objects.filter(event=event, player=player).exists():
            raise Conflict(f"{player} is already registered for this event.", code="already_registered", field="player")
        # A player joining after pairing has begun plays from the next round; the rounds before it are losses.
        late_entry_round = (
            selectors.next_round_number(event) if checked_in and selectors.swiss_rounds_paired(event) else None
        )
        try:
            with transaction.atomic():
                registration = Registration.objects.create(
                    event=event, player=player, checked_in=checked_in, late_entry_round=late_entry_round
                )
        except IntegrityError:
            raise Conflict(
                f"{player} is already registered for this event.", code="already_registered", field="player"
            ) from None
        if late_entry_round:
            bump_results_version(event)
    if late_entry_round:
        request_standings(event.pk)
    return registration


def registration_check_in(*, registration: Registration, by, checked_in: bool = True) -> Registration:
    """Check a player in (or out).  Checking in after pairing has begun is a late entry.

    A late entrant who has not played yet joins the next pairing; every round
    before it counts as a loss.  The round being played is not rebuilt.
    """
    ensure_can_manage_event(by, registration.event)
    with transaction.atomic():
        event = locked_event(registration.event_id)
        if event.status == Event.Status.FINISHED:
            raise Conflict("The event is finished.", code="event_finished")
        registration = Registration.objects.select_for_update().select_related("player").get(pk=registration.pk)
        if registration.dropped and checked_in:
            raise Conflict(f"{registration.player} has dropped.", code="dropped")
        if registration.checked_in == checked_in:
            return registration
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
        if late:
            bump_results_version(event)
    if late:
        request_standings(event.pk)
    return registration


def registration_update(*, registration: Registration, by, fixed_table: int | None) -> Registration:
    """Fix a player to one table for every round (or free them with ``None``).

    Applies from the next pairing; the round being played is not changed.
    """
    ensure_can_manage_event(by, registration.event)
    if fixed_table is not None and fixed_table < 1:
        raise ApplicationError("A table number is 1 or more.", field="fixed_table")
    with transaction.atomic():
        event = locked_event(registration.event_id)
        if event.status == Event.Status.FINISHED:
            raise Conflict("The event is finished.", code="event_finished")
        registration = Registration.objects.select_for_update().select_related("player").get(pk=registration.pk)
        if fixed_table is not None:
            other = (
                Registration.objects.filter(event=event, fixed_table=fixed_table)
                .exclude(pk=registration.pk)
                .select_related("player")
                .first()
            )
            if other is not None:
                raise Conflict(
                    f"Table {fixed_table} is already fixed for {other.player}.",
                    code="fixed_table_taken",
                    field="fixed_table",
                )
        registration.fixed_table = fixed_table
        registration.save(update_fields=["fixed_table"])
    return registration


def bye_assign(*, registration: Registration, round_number: int, by) -> ByeAssignment:
    """Give a player a bye in a round that has not been paired yet (a win, like any bye)."""
    ensure_can_manage_event(by, registration.event)
    with transaction.atomic():
        event = locked_event(registration.event_id)
        if event.status == Event.Status.FINISHED:
            raise Conflict("The event is finished.", code="event_finished")
        registration = Registration.objects.select_for_update().select_related("player").get(pk=registration.pk)
        if registration.dropped:
            raise Conflict(f"{registration.player} has dropped.", code="dropped")
        next_number = selectors.next_round_number(event)
        if round_number < next_number:
            raise Conflict(
                f"Round {round_number} is already paired: assign byes before pairing "
                f"(the next round is {next_number}), or re-pair the round.",
                code="round_already_paired",
                field="round",
            )
        if round_number > event.planned_rounds:
            raise ApplicationError(f"The event plans {event.planned_rounds} Swiss round(s).", field="round")
        assignment, _ = ByeAssignment.objects.get_or_create(
            registration=registration, round_number=round_number, defaults={"assigned_by": by}
        )
    return assignment


def bye_unassign(*, registration: Registration, round_number: int, by) -> None:
    """Take back a bye assigned for a round that has not been paired yet."""
    ensure_can_manage_event(by, registration.event)
    with transaction.atomic():
        event = locked_event(registration.event_id)
        if round_number < selectors.next_round_number(event):
            raise Conflict(
                f"Round {round_number} is already paired: re-pair it to take the bye back.",
                code="round_already_paired",
            )
        deleted, _ = ByeAssignment.objects.filter(registration=registration, round_number=round_number).delete()
        if not deleted:
            raise NotFound(f"{registration.player} has no bye assigned in round {round_number}.")


def registration_drop(*, registration: Registration, by) -> Registration:
    """Drop a player from future rounds; their results and standing stay."""
    ensure_can_manage_event(by, registration.event)
    with transaction.atomic():
        event = locked_event(registration.event_id)
        if event.status == Event.Status.FINISHED:
            raise Conflict("The event is finished: nobody can drop any more.", code="event_finished")
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if registration.dropped:
            return registration
        last_round = event.rounds.order_by("-number").values_list("number", flat=True).first() or 0
        registration.dropped = True
        registration.dropped_after_round = last_round
        registration.save(update_fields=["dropped", "dropped_after_round"])
        bump_results_version(event)
    request_standings(event.pk)
    return registration
