"""Players: the people who play, with or without an account (walk-ins entered by the staff)."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from core.exceptions import ApplicationError, Conflict
from tournaments.models import Player


def player_create(*, display_name: str, external_id: str | None = None, user=None) -> Player:
    display_name = display_name.strip()
    if not display_name:
        raise ApplicationError("A player needs a display name.", field="display_name")
    external_id = (external_id or "").strip() or None
    if external_id and Player.objects.filter(external_id=external_id).exists():
        raise Conflict(
            f"A player with external id {external_id!r} already exists.", code="duplicate_player", field="external_id"
        )
    try:
        with transaction.atomic():
            return Player.objects.create(display_name=display_name, external_id=external_id, user=user)
    except IntegrityError:
        raise Conflict("That player already exists.", code="duplicate_player", field="external_id") from None
