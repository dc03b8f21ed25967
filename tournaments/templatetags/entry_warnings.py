"""A registration's warnings on the dashboard: ``{% load entry_warnings %}``, then ``{{ warnings|of:r.pk }}``.

``warnings`` is what :func:`tournaments.selectors.people.entry_warnings` read for the list (registration id ->
warnings): a player also holding a place at another event the same day.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django import template

from tournaments.selectors.people import EntryWarning

register = template.Library()


@register.filter
def of(warnings: Mapping[int, Sequence[EntryWarning]] | None, registration_id: int) -> Sequence[EntryWarning]:
    return (warnings or {}).get(registration_id, ())
