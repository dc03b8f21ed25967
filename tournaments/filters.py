"""The events list's filters, read from a query string: one reading for the public page (``/events/``) and the API
(``GET /api/v1/events/``), so both take the same parameters and refuse the same mistakes.

* ``format`` - a format's slug;
* ``status`` - ``registration``, ``running``, ``finished``, several comma-separated (``registration,running``);
* ``date_from``, ``date_to`` - ISO days, both included;
* ``q`` - a part of the event's name, in any case.

An empty parameter filters nothing (a form's empty field); a parameter that is none of these (nor one the caller
names as its own, such as the API's ``limit`` and ``offset``) or a value that is not one of them is an error naming
the parameter, never ignored.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from rules import FORMATS
from tournaments.models import Event

NAMES = ("format", "status", "date_from", "date_to", "q")
MAX_Q = 200


@dataclass(frozen=True)
class EventFilters:
    fmt: str | None = None
    statuses: tuple[str, ...] = ()
    date_from: datetime.date | None = None
    date_to: datetime.date | None = None
    q: str = ""

    def as_selector_arguments(self) -> dict[str, Any]:
        """The keyword arguments of :func:`tournaments.selectors.events_matching`."""
        return {"fmt": self.fmt, "statuses": self.statuses, "date_from": self.date_from, "date_to": self.date_to,
                "q": self.q}  # fmt: skip


def _values(query: Any, name: str) -> list[str]:
    """Every value given for ``name`` (a QueryDict may hold several; a plain mapping one)."""
    if hasattr(query, "getlist"):
        return [v for v in query.getlist(name) if v.strip()]
    value = query.get(name)
    return [value] if value is not None and str(value).strip() else []


def _day(text: str) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(text.strip()) if len(text) <= 10 else None
    except ValueError:
        return None


def read_event_filters(query: Any, *, also: Collection[str] = ()) -> tuple[EventFilters, dict[str, list[str]]]:
    """The filters ``query`` asks for, and the errors by parameter (none: the filters are all good)."""
    errors: dict[str, list[str]] = {}
    for name in sorted(set(query) - set(NAMES) - set(also)):
        shown = ", ".join([*NAMES, *sorted(also)])
        errors[name] = [_("Not a filter of the events list: use %(filters)s.") % {"filters": shown}]
    found: dict[str, Any] = {}
    for name in ("format", "date_from", "date_to", "q"):
        values = _values(query, name)
        if len(values) > 1:
            errors[name] = [_("Give %(filter)s once.") % {"filter": name}]
        elif values:
            found[name] = values[0].strip()
    fmt = found.get("format")
    if fmt is not None and fmt not in FORMATS:
        errors["format"] = [
            _("No format %(format)r: use one of %(formats)s.")
            % {"format": fmt[:40], "formats": ", ".join(sorted(FORMATS))}
        ]
    statuses = tuple(dict.fromkeys(s.strip() for v in _values(query, "status") for s in v.split(",") if s.strip()))
    wrong = [s for s in statuses if s not in Event.Status.values]
    if wrong:
        errors["status"] = [
            _("No status %(status)r: use %(statuses)s (comma-separated).")
            % {"status": wrong[0][:40], "statuses": ", ".join(Event.Status.values)}
        ]
    days = {}
    for name in ("date_from", "date_to"):
        if name in found:
            days[name] = _day(found[name])
            if days[name] is None:
                errors[name] = [_("%(filter)s is a day written YYYY-MM-DD, e.g. 2026-12-04.") % {"filter": name}]
    if days.get("date_from") and days.get("date_to") and days["date_to"] < days["date_from"]:
        errors["date_to"] = [_("The last day (date_to) comes before the first (date_from).")]
    q = found.get("q", "")
    if len(q) > MAX_Q:
        errors["q"] = [_("Search for at most %(most)s characters.") % {"most": MAX_Q}]
    if errors:
        return EventFilters(), errors
    return EventFilters(fmt, statuses, days.get("date_from"), days.get("date_to"), q), {}
