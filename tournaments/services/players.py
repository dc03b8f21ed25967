"""Players: the people who play, with or without an account (walk-ins entered by the staff)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from core.exceptions import ApplicationError, Conflict
from tournaments.models import Player
from tournaments.policy import ensure_can_create_event


def player_create(*, display_name: str, external_id: str | None = None, user=None, by=None) -> Player:
    """A new player record.  ``by``: who asks, when it is a person (``POST /players/``): it takes an organiser
    (:func:`tournaments.policy.can_create_event`); walk-ins entered at an event are the registrations' to check."""
    if by is not None:
        ensure_can_create_event(by)
    display_name = display_name.strip()
    if not display_name:
        raise ApplicationError(_("A player needs a display name."), field="display_name")
    external_id = (external_id or "").strip() or None
    if external_id and Player.objects.filter(external_id=external_id).exists():
        raise Conflict(
            _("A player with external id '%(external_id)s' already exists.") % {"external_id": external_id},
            code="duplicate_player",
            field="external_id",
        )
    try:
        with transaction.atomic():
            return Player.objects.create(display_name=display_name, external_id=external_id, user=user)
    except IntegrityError:
        raise Conflict(_("That player already exists."), code="duplicate_player", field="external_id") from None
