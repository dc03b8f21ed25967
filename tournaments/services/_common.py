"""Steps every service module shares: the event locks and the "results missing" check.

Two strengths of lock on an event's row, taken inside the caller's transaction:

* :func:`locked_event` (``FOR UPDATE``) for changes to the event as a whole:
  settings, registrations, pairing and re-pairing rounds, the cut, finishing.
  They wait for each other and for every result being reported.
* :func:`shared_event` (``FOR KEY SHARE``) for reporting a result: reports of
  different tables don't wait for each other, only for the changes above
  (and those wait for them), so a round is never re-paired or the event
  finished under a report.  On SQLite, whose write transactions are
  serialised anyway, it is a plain read.
"""

from __future__ import annotations

from django.db import connection
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.exceptions import NotFound
from tournaments.models import Event, Pod
from tournaments.selectors import ModelRows

_EVENTS = ModelRows(Event)


def locked_event(event_id: int) -> Event:
    try:
        return Event.objects.select_for_update().get(pk=event_id)
    except Event.DoesNotExist:
        raise NotFound(_("Event %(event)s does not exist.") % {"event": event_id}) from None


def shared_event(event_id: int) -> Event:
    if connection.vendor == "postgresql":
        # A cursor and Model.from_db rather than Event.objects.raw, which asks the cursor for its columns' names and
        # maps them anew on every call (every result of an event reads its row here).
        table = connection.ops.quote_name(Event._meta.db_table)
        sql = f"SELECT {_EVENTS.columns('e')} FROM {table} AS e WHERE e.id = %s FOR KEY SHARE"  # noqa: S608
        with connection.cursor() as cursor:
            cursor.execute(sql, [event_id])
            row = cursor.fetchone()
        found = [] if row is None else [_EVENTS.make(row)]
    else:
        found = list(Event.objects.filter(pk=event_id))
    if not found:
        raise NotFound(_("Event %(event)s does not exist.") % {"event": event_id})
    return found[0]


def tables_without_result(event: Event) -> list[int]:
    numbers = (
        Pod.objects.filter(round__event=event, result__isnull=True, is_bye=False)
        .order_by("table_number")
        .values_list("table_number", flat=True)
    )
    return [n for n in numbers if n is not None]  # a table that is not a bye has a number


def missing_message(tables: list[int]) -> str:
    shown = ", ".join(str(t) for t in tables[:10]) + (" ..." if len(tables) > 10 else "")
    return ngettext(
        "Results are missing for table %(tables)s of the current round.",
        "Results are missing for tables %(tables)s of the current round.",
        len(tables),
    ) % {"tables": shown}
