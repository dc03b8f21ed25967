"""The audit trail: every domain event a service records, kept in the change's own transaction.

Services record what they did with :func:`core.events.record`; the trail is
the stream's first handler (:func:`tournaments.readers.audit_trail`), so an
entry exists exactly when the change does.  Entries name the actor, the
action (``<entity>.<verb>``), the subject in words, and the values before and
after as plain JSON; :func:`snapshot` picks a model's fields for that.
Nothing edits or deletes an entry.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import models

from core.events import DomainEvent, plain
from tournaments.models import AuditEntry


def snapshot(instance: models.Model, fields: Iterable[str]) -> dict[str, Any]:
    """``{field: value}`` of the instance, as JSON (foreign keys as ids, dates as ISO text)."""
    return {f: plain(getattr(instance, f)) for f in fields}


def entry_write(domain_event: DomainEvent) -> AuditEntry:
    """The trail's entry for one recorded domain event (inside its transaction)."""
    return AuditEntry.objects.create(
        event_id=domain_event.event_id,
        actor_id=domain_event.actor_id,
        action=domain_event.action,
        subject=domain_event.subject[:200],
        before=domain_event.before,
        after=domain_event.after,
        reason=domain_event.reason,
    )


def player_label(player) -> str:
    """A player as the trail names them: display name and player ID, so namesakes are told apart."""
    return f"{player.display_name} (#{player.pk})"


def table_label(round_number: int, table_number: int | None) -> str:
    return f"Round {round_number}, table {table_number}" if table_number else f"Round {round_number}, bye"
