"""Judge console forms: input shapes only; the format's engine decides what is legal.

One :class:`GameEventForm` per event type is built from the engine's
``EventSpec``: a field that names a player (``player``, ``by``, ``target``,
``partner``) is a choice of the game's players; every other field is free text,
read by :func:`parse_value` into the JSON value the engine expects.  A blank
field is left out of the payload, so the engine's own defaults and refusals
(``missing_field``) apply.  Every form carries the game version it was rendered
at, so a judge never records over an entry they have not seen.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from django import forms

from games.formats.engine import EventSpec

#: Event fields whose value is one of the game's players.
PLAYER_FIELDS = frozenset({"player", "by", "target", "partner"})


def is_player_field(name: str, description: str) -> bool:
    """A player choice, unless the vocabulary lists other values (Mintayn's ``target``: ``lp|monster|...``)."""
    return name in PLAYER_FIELDS and "|" not in description


#: Form fields of the console itself; no engine field may use these names.
RESERVED_FIELDS = frozenset({"type", "expected_version", "csrfmiddlewaretoken"})

_INT = re.compile(r"^[+-]?\d+$")


def parse_value(raw: str) -> Any:
    """A typed value from a text box: an int, a bool, JSON for ``{...}``/``[...]``, else the text.

    Raises ``ValueError`` (with a message for the judge) for JSON that does not parse.
    """
    text = raw.strip()
    if _INT.match(text):
        return int(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    if text.startswith(("{", "[")):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"This is not valid JSON ({exc.msg} at character {exc.pos + 1}).") from None
    return text


def label(name: str) -> str:
    return name.replace("_", " ")


class GameEventForm(forms.Form):
    """One event type's entry: the engine's fields plus the type and the version the judge saw."""

    type = forms.CharField(widget=forms.HiddenInput, max_length=40)
    expected_version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def __init__(
        self,
        data=None,
        *,
        spec: EventSpec,
        players: Sequence[tuple[int, str]],
        default_player: int | None = None,
        default_opponent: int | None = None,
        version: int | None = None,
        **kwargs: Any,
    ):
        # Many of these forms share one page: ids carry the event type to stay unique.
        kwargs.setdefault("auto_id", f"id_{spec.type}_%s")
        super().__init__(data, **kwargs)
        self.spec = spec
        self.fields["type"].initial = spec.type
        self.fields["expected_version"].initial = version
        self.payload: dict[str, Any] = {}
        choices = [("", "—"), *((str(pid), name) for pid, name in players)]
        for name, description in spec.fields.items():
            if name in RESERVED_FIELDS:
                raise ValueError(f"The {spec.type} event has a field named {name!r}, which the console reserves.")
            if is_player_field(name, description):
                default = default_opponent if name in ("target", "partner") else default_player
                field: forms.Field = forms.TypedChoiceField(
                    choices=choices, coerce=int, empty_value=None, required=False, initial=default
                )
            else:
                field = forms.CharField(
                    required=False,
                    max_length=2000,
                    strip=True,
                    widget=forms.TextInput(attrs={"placeholder": description, "autocomplete": "off"}),
                )
            field.label = label(name)
            field.help_text = description
            field.widget.attrs["title"] = description
            self.fields[name] = field

    @property
    def title(self) -> str:
        return label(self.spec.type).capitalize()

    @property
    def event_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.spec.fields]

    def clean_type(self) -> str:
        if self.cleaned_data["type"] != self.spec.type:
            raise forms.ValidationError("This form is for another event type.")
        return self.spec.type

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        payload: dict[str, Any] = {}
        for name in self.spec.fields:
            if name not in cleaned:
                continue  # the field already has an error
            value = cleaned[name]
            if value is None or value == "":
                continue
            if is_player_field(name, self.spec.fields[name]):
                payload[name] = value
                continue
            try:
                payload[name] = parse_value(value)
            except ValueError as exc:
                self.add_error(name, str(exc))
        self.payload = payload
        return cleaned


class VoidForm(forms.Form):
    expected_version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    reason = forms.CharField(
        max_length=500, widget=forms.TextInput(attrs={"placeholder": "Why is it void?", "autocomplete": "off"})
    )
