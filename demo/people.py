"""Players entering the demo's events as the staff enter them (shared by the demo's events, league and big event)."""

from __future__ import annotations

from tournaments import services
from tournaments.models import Event, Registration
from tournaments.services import registrations


def enter(*, event: Event, by, checked_in: bool = False, **player) -> Registration:
    """Register a player as the staff do; a player whose record has an account (the demo player, walk-ins claimed
    at an earlier demo event) accepts the invitation, as they would on their page, and is then checked in."""
    registration = services.registration_create(event=event, by=by, checked_in=checked_in, **player)
    if registration.status == Registration.Status.INVITED:
        registration = services.registration_accept(registration=registration, by=registration.player.user)
        if checked_in:
            registration = services.registration_check_in(registration=registration, by=by)
    return registration


def self_register(*, event: Event, organiser, player_user) -> Registration:
    """The demo player registers themselves while the organiser opens registration for a moment, and is checked in
    at the desk."""
    services.event_update(event=event, by=organiser, registration_open=True)
    mine = registrations.registration_self_register(event=event, by=player_user)
    services.event_update(event=event, by=organiser, registration_open=False)
    return services.registration_check_in(registration=mine, by=organiser)
