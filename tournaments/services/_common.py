"""Steps every service module shares: the event lock and the "results missing" check."""

from __future__ import annotations

from core.exceptions import NotFound
from tournaments.models import Event, Pod


def locked_event(event_id: int) -> Event:
    try:
        return Event.objects.select_for_update().get(pk=event_id)
    except Event.DoesNotExist:
        raise NotFound(f"Event {event_id} does not exist.") from None


def tables_without_result(event: Event) -> list[int]:
    return list(
        Pod.objects.filter(round__event=event, result__isnull=True, is_bye=False)
        .order_by("table_number")
        .values_list("table_number", flat=True)
    )


def missing_message(tables: list[int]) -> str:
    shown = ", ".join(str(t) for t in tables[:10]) + (" ..." if len(tables) > 10 else "")
    noun = "table" if len(tables) == 1 else "tables"
    return f"Results are missing for {noun} {shown} of the current round."
