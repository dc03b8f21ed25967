"""How an event's format options read on its pages: every option with the value the event plays by, whether
that is the rulebook's default, a variant the rulebook offers or a house rule, and the rulebook's words.

``{% event_rules event %}`` renders the "Rules at this event" card of the event's page;
``{% house_rules_note event %}`` the one-line note every page of the event carries while it plays a house
rule or a variant, so that nobody learns one at the table; ``{% game_rules_note game %}`` the same for the
options a game was started with, on the judge console.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import template
from django.utils.translation import gettext as _

from rules.base import Format
from rules.options import Option, Use
from rules.speech import say

register = template.Library()


@dataclass(frozen=True)
class OptionRow:
    option: Option
    value: Any
    #: "default" (the rulebook's text), "variant" (another value the rulebook offers) or "house rule".
    kind: str

    @property
    def description(self) -> str:
        """The value as it reads on the page, in the reader's language."""
        if self.option.named and self.value is None:
            return _("the newest imported list")
        return say(self.option.describe(self.value))


def option_rows(fmt: Format, stored: Mapping[str, Any], use: Use | None = None) -> list[OptionRow]:
    rows = []
    for option, value in fmt.effective_options(stored, use=use).items():
        spec = fmt.option(option)
        if spec.is_default(value):
            kind = "default"
        else:
            kind = "house rule" if spec.house_rule else "variant"
        rows.append(OptionRow(spec, value, kind))
    return rows


@register.inclusion_tag("public/_event_rules.html")
def event_rules(event) -> dict[str, Any]:
    return {"event": event, "rows": option_rows(event.format_spec, event.options)}


@register.inclusion_tag("public/_house_rules_note.html")
def house_rules_note(event) -> dict[str, Any]:
    rows = [row for row in option_rows(event.format_spec, event.options) if row.kind != "default"]
    house = any(row.kind == "house rule" for row in rows)
    return {"event": event, "rows": rows, "house": house, "variants": any(row.kind == "variant" for row in rows)}


@register.inclusion_tag("games/_rules_note.html")
def game_rules_note(game) -> dict[str, Any]:
    rows = option_rows(game.format_spec, game.options, use=Use.GAME)
    return {"rows": [row for row in rows if row.kind != "default"]}
