"""Who may do what: the one place Podium decides it.

Services ask this module before they change anything, and pages ask it what to
show; neither restates a rule.  Today there are two kinds of people: an
event's *staff* (its organiser, and site staff) and everyone else.  A
*player* is the person whose user account is linked to a :class:`Player`.

=======================  =======================================================
action                   allowed to
=======================  =======================================================
create an event          any signed-in user (who becomes its organiser)
manage an event          its staff: settings, registrations, rounds, results, cut
record games             its staff
submit a player's deck   the player, and the event's staff
see a decklist           the player and the event's staff; everyone once published
=======================  =======================================================

The coming roles (co-organiser, scorekeeper, judge, caster, the player at a
table) extend these functions; their callers stay as they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.exceptions import PermissionDenied

if TYPE_CHECKING:
    from tournaments.models import Event, Registration


def can_create_event(user) -> bool:
    return bool(user and user.is_authenticated)


def manages_every_event(user) -> bool:
    """Site staff manage every event (and see them all on their dashboard)."""
    return bool(user and user.is_authenticated and user.is_staff)


def can_manage_event(user, event: Event) -> bool:
    """The event's organiser and site staff change an event; everyone else only reads it."""
    return manages_every_event(user) or bool(user and user.is_authenticated and event.organiser_id == user.pk)


def ensure_can_manage_event(user, event: Event) -> None:
    if not can_manage_event(user, event):
        raise PermissionDenied("Only the event's organiser or staff may change this event.")


def can_record_games(user, event: Event) -> bool:
    """Judges record games at the event's tables; today the event's staff."""
    return can_manage_event(user, event)


def ensure_can_record_games(user, event: Event) -> None:
    if not can_record_games(user, event):
        raise PermissionDenied("Only the event's staff may record games.")


def can_submit_deck(user, registration: Registration) -> bool:
    """The player and the event's staff."""
    return bool(
        user
        and user.is_authenticated
        and (user.pk == registration.player.user_id or can_manage_event(user, registration.event))
    )


def can_view_decklist(user, registration: Registration) -> bool:
    """The player and the event's staff always; everyone else once the organiser publishes decklists."""
    return registration.event.decklists_public or can_submit_deck(user, registration)


def can_view_hidden_decklists(user, event: Event) -> bool:
    """Every decklist of the event, published or not: its staff."""
    return event.decklists_public or can_manage_event(user, event)
