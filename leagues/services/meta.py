"""The organiser's name for a deck's archetype, over the one Podium gives it (:mod:`leagues.meta`)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from core import events
from core.domain_actions import DomainAction
from core.exceptions import ApplicationError
from leagues.models import ArchetypeName
from tournaments import audit
from tournaments.models import Registration
from tournaments.policy import Action, ensure


def archetype_name_set(*, registration: Registration, name: str, by) -> ArchetypeName | None:
    """Name the registration's deck (an empty name goes back to Podium's).  The event's organisers."""
    ensure(by, Action.MANAGE_DECKS, registration.event)
    name = " ".join((name or "").split())
    if len(name) > 100:
        raise ApplicationError(_("An archetype's name is at most 100 characters."), field="name")
    with transaction.atomic():
        current = ArchetypeName.objects.select_for_update().filter(registration=registration).first()
        before = current.name if current else None
        if (before or "") == name:
            return current
        if not name:
            if current is not None:
                current.delete()
            result = None
        elif current is None:
            result = ArchetypeName.objects.create(registration=registration, name=name, by=by)
        else:
            current.name, current.by = name, by
            current.save(update_fields=["name", "by", "at"])
            result = current
        events.record(
            event=registration.event_id, by=by, action=DomainAction.ARCHETYPE_NAMED,
            subject=audit.player_label(registration.player), before={"archetype": before},
            after={"archetype": name or None},
        )  # fmt: skip
    return result
