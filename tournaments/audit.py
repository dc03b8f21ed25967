"""The audit trail: every change made through the services, recorded in the change's own transaction.

A service calls :func:`record` after it has made its change and before its
transaction ends, so the entry exists exactly when the change does.  Entries
name the actor, the action (``<entity>.<verb>``), the subject in words, and
the values before and after as plain JSON; :func:`snapshot` picks a model's
fields for that.  Nothing edits or deletes an entry.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from django.db import models

from tournaments.models import AuditEntry, Event


def _plain(value: Any) -> Any:
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    if isinstance(value, models.Model):
        return value.pk
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    return value


def snapshot(instance: models.Model, fields: Iterable[str]) -> dict[str, Any]:
    """``{field: value}`` of the instance, as JSON (foreign keys as ids, dates as ISO text)."""
    return {f: _plain(getattr(instance, f)) for f in fields}


def record(
    *,
    event: Event | None,
    by,
    action: str,
    subject: str,
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> AuditEntry:
    """Write one entry (call it inside the change's transaction)."""
    return AuditEntry.objects.create(
        event=event,
        actor=by if by is not None and getattr(by, "is_authenticated", False) else None,
        action=action,
        subject=subject[:200],
        before=_plain(before),
        after=_plain(after),
        reason=reason,
    )


def player_label(player) -> str:
    """A player as the trail names them: display name and player ID, so namesakes are told apart."""
    return f"{player.display_name} (#{player.pk})"


def table_label(round_number: int, table_number: int | None) -> str:
    return f"Round {round_number}, table {table_number}" if table_number else f"Round {round_number}, bye"
