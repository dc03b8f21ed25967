"""Times in an event's own zone: ``{% load event_time %}``.

* ``{{ event.time_zone|zone_name }}`` - the zone as people read it: "Europe/Paris (CET)", the abbreviation the zone
  uses now (summer or winter time).
* ``{{ timer.deadline|clock_time:event.time_zone }}`` - an ISO time (as the live payloads carry it) as the event's
  wall clock reads it: "15:40 CET".
"""

from __future__ import annotations

import datetime
import zoneinfo

from django import template
from django.utils import timezone

register = template.Library()


def _zone(name: str) -> datetime.tzinfo | None:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


@register.filter
def zone_name(name: str) -> str:
    zone = _zone(name) if name else None
    if zone is None:
        return name or ""
    abbreviation = timezone.now().astimezone(zone).tzname()
    shown = name.replace("_", " ")
    return shown if not abbreviation or abbreviation == name else f"{shown} ({abbreviation})"


@register.filter
def clock_time(moment: str | datetime.datetime | None, name: str) -> str:
    if not moment:
        return ""
    if isinstance(moment, str):
        try:
            moment = datetime.datetime.fromisoformat(moment)
        except ValueError:
            return ""
    zone = _zone(name) or datetime.UTC
    return moment.astimezone(zone).strftime("%H:%M %Z")
