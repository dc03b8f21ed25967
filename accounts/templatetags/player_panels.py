"""``{% player_panel event %}``: the signed-in player's panel of an event, on pages whose views are not ours.

The public event page shows it (register, waiting list, withdraw, check in, the
player's table and result); its view knows nothing of panels, so the tag reads them.
"""

from __future__ import annotations

from django import template

from accounts import panels

register = template.Library()


@register.inclusion_tag("accounts/_event_panel.html", takes_context=True)
def player_panel(context, event, place: str = "event") -> dict:
    request = context["request"]
    panel = panels.build(event=event, user=request.user, place=place if place in panels.PLACES else "event")
    return {"panel": panel, "request": request, "csrf_token": context.get("csrf_token"), "user": request.user}
