"""What the top bar needs on every page, read only when a template asks for it."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from accounts import selectors
from tournaments.policy import can_create_event


def navigation(request: HttpRequest) -> dict:
    """``has_dashboard``: the top bar offers "Dashboard" only to users who run an event or have a role at one;
    ``may_create_events``: the pages offer "New event" only to organisers."""
    user = getattr(request, "user", None)
    return {
        "has_dashboard": SimpleLazyObject(lambda: selectors.has_dashboard(user)),
        "may_create_events": SimpleLazyObject(lambda: can_create_event(user)),
    }
